"""Exact numbers from what a user, a file or Python hands the tool: ints, Fractions,
Decimals, text (``"1.5"``, ``"3/2"``) and floats taken by their shortest decimal text.

>>> as_fraction("3/2"), as_fraction(1.1)
(Fraction(3, 2), Fraction(11, 10))
"""

from __future__ import annotations

import numbers
from decimal import Decimal
from fractions import Fraction
from typing import TypeAlias

from analysis.model.errors import InputError

#: What the API takes as an exact number (:func:`as_fraction` also takes numpy numbers).
NumberLike: TypeAlias = int | float | Fraction | Decimal | str


def as_fraction(value: object) -> Fraction:
    """An exact number from an int, Fraction, Decimal, text (``"1.5"``, ``"3/2"``) or a
    float taken by its shortest decimal text (1.1 -> 11/10, not the binary float); anything
    else (a user's input is checked here) raises InputError."""
    if isinstance(value, bool):
        raise InputError(f"{value!r} is not a number")
    if isinstance(value, (Fraction, int, Decimal)):
        return Fraction(value)
    if isinstance(value, numbers.Integral):
        return Fraction(int(value))
    if isinstance(value, numbers.Real):
        return Fraction(repr(float(value)))
    if isinstance(value, str):
        return Fraction(value.strip())
    raise InputError(f"{value!r} is not a number")
