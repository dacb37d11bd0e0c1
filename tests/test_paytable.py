from fractions import Fraction

import pytest

from analysis.model.categories import CATEGORIES
from analysis.model.paytable import DEFAULT_PAYTABLE, PayTable, PayTableError

GOOD = "category,pays\n" + "".join(f"{c},1\n" for c in CATEGORIES)


def write(tmp_path, text, name="t.csv"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_default_is_the_antewin_table():
    t = PayTable.load(None)
    assert t.name == DEFAULT_PAYTABLE == "antewin" and t.source.startswith("analysis/model/paytables/antewin.csv")
    assert [t.pays[c] for c in ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush")] == [
        100,
        20,
        10,
        3,
        2,
    ]
    assert all(t.pays[c] == 1 for c in ("straight", "three_of_a_kind", "two_pair", "pair", "high_card"))


def test_fractions_and_comments(tmp_path):
    text = "# comment\n" + GOOD.replace("flush,1\n", "flush,3/2\n", 1).replace("pair,1\n", "pair,1.25\n", 1)
    t = PayTable.from_csv(write(tmp_path, text))
    assert t.pays["flush"] == Fraction(3, 2) and t.pays["pair"] == Fraction(5, 4)
    assert PayTable.from_csv(write(tmp_path, t.to_csv(), "again.csv")).pays == t.pays


def test_a_byte_order_mark_is_allowed_and_other_encodings_are_named(tmp_path):
    bom = tmp_path / "bom.csv"
    bom.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    assert PayTable.from_csv(bom).pays["flush"] == 1
    utf16 = tmp_path / "utf16.csv"
    utf16.write_bytes(GOOD.encode("utf-16"))
    with pytest.raises(PayTableError, match=f"^{utf16}: not a UTF-8 text file"):
        PayTable.from_csv(utf16)


def test_numbers_from_python_are_taken_by_their_decimal_text():
    t = PayTable.load(None).replace(flush=1.1, straight="3/2", pair=Fraction(1, 3))
    assert (t.pays["flush"], t.pays["straight"], t.pays["pair"]) == (Fraction(11, 10), Fraction(3, 2), Fraction(1, 3))
    with pytest.raises(PayTableError, match="flush: pay True is not a number"):
        PayTable.load(None).replace(flush=True)
    with pytest.raises(PayTableError, match="flush: pay nan is not a number"):
        PayTable.load(None).replace(flush=float("nan"))


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "the pay table is empty"),
        ("# only a comment\n", "the pay table is empty"),
        ("name,pay\n", "row 1: expected the header 'category,pays'"),
        (GOOD.replace("flush,1\n", "flush,-2\n", 1), "row 7: pay -2 for flush is negative"),
        (GOOD.replace("flush,1\n", "flush,lots\n", 1), "row 7: pay for flush: 'lots' is not a number"),
        (GOOD + "five_of_a_kind,50\n", "row 12: unknown category 'five_of_a_kind'"),
        (GOOD + "pair,2\n", "row 12: category 'pair' appears twice"),
        (GOOD.replace("pair,1\n", "", 1), "missing categories: pair"),
        (GOOD.replace("flush,1\n", "flush,1,2\n", 1), "row 7: expected 2 fields"),
    ],
)
def test_bad_tables_name_file_row_and_problem(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(PayTableError, match=f"^{path}: .*{message}" if "row" in message else message):
        PayTable.from_csv(path)


def test_missing_file(tmp_path):
    with pytest.raises(PayTableError, match="cannot read the pay table"):
        PayTable.from_csv(tmp_path / "nope.csv")
