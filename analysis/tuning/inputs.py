"""What a pay's box and slider hand the tuning panel: a typed pay, checked; a slider's range;
its float as the decimal it stands for; and a guard for the widgets the panel sets itself, so that a
box set from its slider (or the reverse) does not count as a change."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

from analysis.model.numbers import as_fraction

#: The longest file name (without .csv) the save button writes.
NAME_LENGTH = 64
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def parse_edge(text: str) -> Fraction:
    """A target house edge: ``0.02``, ``2%`` or ``1/50``."""
    t = text.strip()
    return as_fraction(t[:-1]) / 100 if t.endswith("%") else as_fraction(t)


def file_stem(name: str) -> str:
    """A table name made safe as a CSV file name and as the CSV's comment line: letters,
    digits, ``.``, ``_`` and ``-`` only (no path separator, control character or newline),
    no ``..``, a letter or digit first (no formula for a spreadsheet), at most
    :data:`NAME_LENGTH` characters; ``tuned`` when nothing is left."""
    stem = re.sub(r"\.{2,}", ".", _UNSAFE.sub("-", name.strip())).lstrip("._-")[:NAME_LENGTH].rstrip(".")
    return stem or "tuned"


def typed_pay(text: str) -> Fraction:
    """The pay typed in a box (``2``, ``1.5``, ``3/2``), exactly; ValueError with a message
    for the box when it is not a pay."""
    try:
        pay = as_fraction(text)
    except (ValueError, ZeroDivisionError):
        pay = Fraction(-1)
    if pay < 0:
        raise ValueError(f"{text!r} is not a pay: give a number >= 0 such as 2, 1.5 or 3/2")
    return pay


def slider_range(pay: Fraction) -> tuple[float, float]:
    """(max, step) of a pay's slider: room to four times the starting pay, at least 0..10."""
    top = max(10.0, 4 * float(pay))
    if top <= 10:
        return top, 0.05
    return float(int(top)), 1.0 if top <= 200 else 5.0


def slider_text(value: float) -> str:
    """A slider's float as the decimal it stands for (6 places at most)."""
    return f"{round(value, 6):f}".rstrip("0").rstrip(".")


class Quiet:
    """``with quiet():`` around widgets set by the panel itself; ``quiet.on`` tells their
    handlers to ignore the change."""

    def __init__(self) -> None:
        self.on = False

    @contextmanager
    def __call__(self) -> Iterator[None]:
        self.on = True
        try:
            yield
        finally:
            self.on = False


def bounded_put(cache: dict[tuple[Any, ...], Any], key: tuple[Any, ...], value: Any, size: int) -> None:
    """Keep ``value`` under ``key``, forgetting the oldest entry when ``size`` are kept."""
    if len(cache) >= size:
        cache.pop(next(iter(cache)))
    cache[key] = value
