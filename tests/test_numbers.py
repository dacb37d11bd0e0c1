"""The bounded exact-number parser every pay, meter, target and bound goes through: exact
for what a person or a file writes, and an instant, short error for what would expand
without end (``1e999999999``), overflow a float (``1e400``) or echo 5000 digits back."""

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis.model.errors import InputError
from analysis.model.numbers import MAX_DIGITS, MAX_EXPONENT, as_bounds, as_fraction, shown
from deadline import deadline

OUT_OF_RANGE = (
    r"is out of range: an exact number has at most 40 digits \(in p/q, each of p and q\) and an exponent within ±40"
)
NOT_A_NUMBER = r"is not a number: give an integer, a decimal \(1.5, 2e-3\) or a fraction \(3/2\)"


@pytest.mark.parametrize(
    "text, value",
    [
        ("3/2", Fraction(3, 2)),
        ("-3/2", Fraction(-3, 2)),
        (" 1.5 ", Fraction(3, 2)),
        (".5", Fraction(1, 2)),
        ("5.", Fraction(5)),
        ("2e-3", Fraction(1, 500)),
        ("2.5E+2", Fraction(250)),
        ("-0", Fraction(0)),
        ("1e0040", Fraction(10**40)),
        ("72254351620246/47694931276919", Fraction(72254351620246, 47694931276919)),  # a solved pay, read back
        ("9" * 40 + "e40", Fraction(10**40 - 1) * 10**40),
        ("." + "0" * 39 + "1e-40", Fraction(1, 10**80)),
    ],
)
def test_text_is_read_exactly(text, value):
    assert as_fraction(text) == value


def test_python_numbers_are_read_exactly():
    assert as_fraction(1.1) == Fraction(11, 10)  # the float's shortest text, not its binary value
    assert as_fraction(np.float32(0.5)) == Fraction(1, 2) and as_fraction(np.int64(-7)) == -7
    assert as_fraction(Decimal("1.25")) == Fraction(5, 4) and as_fraction(Fraction(7, 3)) == Fraction(7, 3)
    assert as_fraction(10**80) == 10**80 and as_fraction(Fraction(1, 10**80)) == Fraction(1, 10**80)


@pytest.mark.parametrize(
    "value, message",
    [
        ("1e999999999", f"'1e999999999' {OUT_OF_RANGE}"),
        ("1e-999999999", f"'1e-999999999' {OUT_OF_RANGE}"),
        ("1e400", f"'1e400' {OUT_OF_RANGE}"),
        ("1e41", f"'1e41' {OUT_OF_RANGE}"),
        ("1e" + "9" * 5000, r"'1e99999999999999999...' \(5,002 characters\) " + OUT_OF_RANGE),
        ("9" * 5000, r"'9999999999999999999...' \(5,000 characters\) " + OUT_OF_RANGE),
        ("1" * 41, r"'1111111111111111111...' \(41 characters\) " + OUT_OF_RANGE),
        ("1/" + "7" * 41, r"'1/77777777777777777...' \(43 characters\) " + OUT_OF_RANGE),
        ("1/0", "'1/0' divides by zero"),
        (Decimal("1e999999999"), r"Decimal\('1E\+999999999'\) " + OUT_OF_RANGE),
        (1e300, "1e\\+300 " + OUT_OF_RANGE),
        (10**5000, r"an integer of about 5,001 digits is out of range: .* at most 10\^80"),
        (10**80 + 1, r"an integer of about 81 digits is out of range: .* at most 10\^80"),
        (Fraction(1, 10**81), r"a fraction of about 82 digits is out of range: .* at most 10\^80"),
        (float("inf"), "inf " + NOT_A_NUMBER),
        (float("nan"), "nan " + NOT_A_NUMBER),
        (Decimal("NaN"), r"Decimal\('NaN'\) " + NOT_A_NUMBER),
        ("nan", "'nan' " + NOT_A_NUMBER),
        ("x" * 5000, r"'xxxxxxxxxxxxxxxxxxx...' \(5,000 characters\) " + NOT_A_NUMBER),
        ("1_000", "'1_000' " + NOT_A_NUMBER),
        ("٣", "'٣' " + NOT_A_NUMBER),  # Fraction reads other scripts' digits; a pay table does not
        ("3/-2", "'3/-2' " + NOT_A_NUMBER),
        ("", "'' " + NOT_A_NUMBER),
        (True, "True " + NOT_A_NUMBER),
        (None, r"None \(NoneType\) " + NOT_A_NUMBER),
        ([1], r"\[1\] \(list\) " + NOT_A_NUMBER),
    ],
    ids=shown,
)
def test_hostile_numbers_fail_at_once_in_one_short_line(value, message):
    with deadline(), pytest.raises(InputError, match=f"^{message}$") as e:
        as_fraction(value)
    assert len(str(e.value)) < 200 and "\n" not in str(e.value)


def test_the_parameter_is_named():
    with deadline(), pytest.raises(InputError, match=f"^target house edge: '1e999999999' {OUT_OF_RANGE}$"):
        as_fraction("1e999999999", "target house edge")
    assert as_bounds(("0", 1.5)) == (0, Fraction(3, 2))
    with pytest.raises(InputError, match=f"^bounds: high: '1e400' {OUT_OF_RANGE}$"):
        as_bounds((0, "1e400"))
    with pytest.raises(InputError, match=r"^bounds: give \(low, high\), not '0:10'$"):
        as_bounds("0:10")
    with pytest.raises(InputError, match=r"^bounds: give \(low, high\), not \(1, 2, 3\)$"):
        as_bounds((1, 2, 3))


def test_shown_cuts_long_values_and_keeps_short_ones():
    assert shown("3/2") == "'3/2'" and shown(7) == "7"
    assert shown("a" * 100) == "'aaaaaaaaaaaaaaaaaaa...' (100 characters)"
    assert shown(2**1000) == "an integer of about 302 digits"


MANTISSAS = st.integers(-(10**MAX_DIGITS) + 1, 10**MAX_DIGITS - 1)
EXPONENTS = st.integers(-MAX_EXPONENT, MAX_EXPONENT)


@given(MANTISSAS, EXPONENTS)
def test_any_number_within_the_bounds_is_read_exactly(mantissa, exponent):
    assert as_fraction(f"{mantissa}e{exponent}") == Fraction(mantissa) * Fraction(10) ** exponent


@given(MANTISSAS, st.integers(1, 10**MAX_DIGITS - 1))
def test_any_fraction_within_the_bounds_reads_back(p, q):
    value = Fraction(p, q)
    assert as_fraction(str(value)) == value == as_fraction(value)


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e40, max_value=1e40))
def test_floats_within_the_bounds_are_their_shortest_text(x):
    if x != 0 and abs(x) < 1e-40:  # below the smallest exponent: refused, with the bounds
        with pytest.raises(InputError, match=OUT_OF_RANGE):
            as_fraction(x)
    else:
        assert as_fraction(x) == Fraction(repr(x)) and float(as_fraction(x)) == x


@given(st.text(alphabet="0123456789eE+-./ _x", max_size=60))
def test_any_text_is_a_number_or_one_input_error(text):
    with deadline():
        try:
            value = as_fraction(text)
        except InputError as e:
            assert "\n" not in str(e) and len(str(e)) < 200
        else:
            assert abs(value.numerator) <= 10**80 and value.denominator <= 10**80
            assert value == Fraction(text.strip())  # what Fraction reads, never expanded beyond the bounds
