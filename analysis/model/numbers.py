"""Exact numbers from what a user, a file or Python hands the tool: ints, Fractions,
Decimals, text (``"1.5"``, ``"3/2"``, ``"2e-3"``) and floats taken by their shortest decimal
text.

Every exact input goes through :func:`as_fraction`, and it is bounded: text has at most
:data:`MAX_DIGITS` digits (in ``p/q`` each of p and q) and an exponent within
±:data:`MAX_EXPONENT`, checked on the text before anything is expanded (``Fraction`` would
expand ``1e999999999`` digit by digit and hang); a value from Python has a numerator and a
denominator of at most 10^(MAX_DIGITS + MAX_EXPONENT), what such text can write. Pays,
meters, targets and bounds need a few digits; the exact pays and edges the tool prints
(fractions of about 15 digits each) are read back.

>>> as_fraction("3/2"), as_fraction(1.1), as_fraction("2.5e-2")
(Fraction(3, 2), Fraction(11, 10), Fraction(1, 40))
>>> as_fraction("1e999999999")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
analysis.model.errors.InputError: '1e999999999' is out of range: ... at most 40 digits ... exponent within ±40
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import TypeAlias

from analysis.model.errors import InputError

#: What the API takes as an exact number (:func:`as_fraction` also takes numpy numbers).
NumberLike: TypeAlias = int | float | Fraction | Decimal | str

#: Digits a number's text may have (each of p and q in ``p/q``).
MAX_DIGITS = 40
#: The largest exponent (``1e40``) and the smallest (``1e-40``) a number's text may have.
MAX_EXPONENT = 40
#: What the text bounds allow a value's numerator and denominator to reach.
_MAX_PART = 10 ** (MAX_DIGITS + MAX_EXPONENT)
BOUNDS = (
    f"an exact number has at most {MAX_DIGITS} digits (in p/q, each of p and q) and an exponent within ±{MAX_EXPONENT}"
)
FORMS = "an integer, a decimal (1.5, 2e-3) or a fraction (3/2)"

_DECIMAL = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?)([0-9]+))?", re.ASCII)
_RATIO = re.compile(r"([+-]?)([0-9]+)/([0-9]+)", re.ASCII)


def shown(value: object, limit: int = 24) -> str:
    """``repr(value)`` cut to about ``limit`` characters, with the full length, for error
    messages (a 5000-digit input is not echoed back whole)."""
    if isinstance(value, numbers.Rational):
        bits = max(abs(int(value.numerator)), int(value.denominator)).bit_length()
        if bits > 4 * limit:  # repr would be slow, or refused beyond 4300 digits
            kind = "an integer" if isinstance(value, numbers.Integral) else "a fraction"
            return f"{kind} of about {int(bits * math.log10(2)) + 1:,} digits"
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 4]}...{text[-1]} ({len(text) - 2:,} characters)"


def as_fraction(value: object, what: str = "") -> Fraction:
    """An exact number from an int, Fraction, Decimal, text (``"1.5"``, ``"3/2"``,
    ``"2e-3"``) or a float taken by its shortest decimal text (1.1 -> 11/10, not the binary
    float), within the module's bounds; anything else raises InputError that says why
    (after ``what``, the parameter or field it was given for, when named)."""
    if not what:
        return _fraction(value)
    try:
        return _fraction(value)
    except InputError as e:
        raise InputError(f"{what}: {e}") from None


def as_bounds(bounds: object, what: str = "bounds") -> tuple[Fraction, Fraction]:
    """(low, high) of a pair of exact numbers (a tuple or list of two)."""
    if isinstance(bounds, (str, bytes)) or not isinstance(bounds, Sequence) or len(bounds) != 2:
        raise InputError(f"{what}: give (low, high), not {shown(bounds)}")
    return as_fraction(bounds[0], f"{what}: low"), as_fraction(bounds[1], f"{what}: high")


def _fraction(value: object) -> Fraction:
    if isinstance(value, bool):
        raise InputError(f"{value!r} is not a number: give {FORMS}")
    if isinstance(value, str):
        return _parse(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise InputError(f"{shown(value)} is not a number: give {FORMS}")
        return _parse(str(value), value)
    if isinstance(value, numbers.Rational):
        return _checked(Fraction(int(value)) if isinstance(value, numbers.Integral) else Fraction(value), value)
    if isinstance(value, numbers.Real):
        if not math.isfinite(value):
            raise InputError(f"{shown(value)} is not a number: give {FORMS}")
        return _parse(repr(float(value)), value)
    raise InputError(f"{shown(value)} ({type(value).__name__}) is not a number: give {FORMS}")


def _parse(text: str, value: object = None) -> Fraction:
    """The number a text writes, its size checked before it is expanded (errors show
    ``value``, what was given, when the text was made from it)."""
    given = shown(text if value is None else value)
    t = text.strip()
    ratio = _RATIO.fullmatch(t)
    if ratio:
        sign, p, q = ratio.groups()
        if max(len(p), len(q)) > MAX_DIGITS:
            raise InputError(f"{given} is out of range: {BOUNDS}")
        if int(q) == 0:
            raise InputError(f"{given} divides by zero")
        return Fraction(int(sign + p), int(q))
    decimal = _DECIMAL.fullmatch(t)
    if not decimal or not (decimal[2] or decimal[3]):
        raise InputError(f"{given} is not a number: give {FORMS}")
    sign, whole, part, exp_sign, exp = (g or "" for g in decimal.groups())
    exp = exp.lstrip("0") or "0"
    if len(whole) + len(part) > MAX_DIGITS or len(exp) > len(str(MAX_EXPONENT)) or int(exp) > MAX_EXPONENT:
        raise InputError(f"{given} is out of range: {BOUNDS}")
    scale = int(exp_sign + exp) - len(part)
    mantissa = int(sign + whole + part)
    return Fraction(mantissa * 10**scale) if scale >= 0 else Fraction(mantissa, 10**-scale)


def _checked(number: Fraction, value: object) -> Fraction:
    """A value from Python within what the text bounds can write."""
    if abs(number.numerator) > _MAX_PART or number.denominator > _MAX_PART:
        raise InputError(
            f"{shown(value)} is out of range: an exact number's numerator and denominator are at most "
            f"10^{MAX_DIGITS + MAX_EXPONENT}"
        )
    return number
