"""Tables in words: headers, labels and each kind of value as the page and the PDF show them,
and the workbook's view (numbers stay numbers, headers and labels in words)."""

from fractions import Fraction

import pandas as pd

from analysis.report.wording import cell_text, header, label, readable, workbook_table


def test_headers_in_words():
    assert header("expected_house_win") == "Expected house win (antes)"
    assert header("called_dealer_not_qualifying") == "Called: dealer does not qualify"
    assert header("probability_exact") == "Probability (exact)"
    assert header("true_odds_exact") == "True odds (exact)"  # the unit goes: a fraction has none
    assert header("win_probability") == "Win probability"  # the rule for names not listed
    assert label("dealer_not_qualifying") == "dealer does not qualify" and label("royal_flush") == "royal flush"


def test_each_kind_of_value():
    assert cell_text(0.0033963814, "percent") == "0.3396%"
    assert cell_text(5581304544816000, "count") == "5,581,304,544,816,000"
    assert cell_text(21658.0, "one_in") == "1 in 21,658" and cell_text(19.125, "one_in") == "1 in 19.12"
    assert cell_text(float("inf"), "one_in") == "never"
    assert cell_text(100.0, "pays") == "100 to 1" and cell_text(Fraction(3, 2), "pays") == "3/2 to 1"
    assert cell_text(0.95, "level") == "95%" and cell_text(True, "flag") == "yes"
    assert cell_text(-0.00080482, "number") == "-0.00080482" and cell_text(float("nan"), "number") == ""


def test_a_return_table_read_and_written():
    frame = pd.DataFrame(
        {
            "outcome": ["fold", "dealer_not_qualifying"],
            "category": ["", "royal_flush"],
            "combinations": [1331840870957520, 44919600108],
            "probability": [0.238625, 0.0000080482],
            "probability_exact": ["1428841/5987800", "3743300009/465108712068000"],
        }
    )
    shown = readable(frame)
    assert list(shown.columns) == ["Outcome", "Final hand", "Combinations", "Probability", "Probability (exact)"]
    assert shown.iloc[1].tolist() == [
        "dealer does not qualify",
        "royal flush",
        "44,919,600,108",
        "0.0008%",
        "3743300009/465108712068000",
    ]
    book, kinds = workbook_table(frame)
    assert book["Combinations"].tolist() == [1331840870957520, 44919600108]  # numbers stay numbers
    assert book["Outcome"].tolist() == ["fold", "dealer does not qualify"]
    assert kinds["Probability"] == ["percent", "percent"] and kinds["Probability (exact)"] == ["exact", "exact"]


def test_amounts_and_pay_tables_in_words():
    from analysis.model.paytable import PayTable
    from analysis.report.regulation import times_the_ante
    from analysis.report.wording import ante_multiple, paytable_name, paytable_origin, signed_antes

    assert [signed_antes(Fraction(n)) for n in (1, -1, 0, 102, -3)] == [
        "+1 ante",
        "-1 ante",
        "0 antes",
        "+102 antes",
        "-3 antes",
    ]
    assert signed_antes(Fraction(7, 2)) == "+7/2 antes"
    assert [times_the_ante(m) for m in (1, 2, 3)] == ["equal to the ante", "twice the ante", "three times the ante"]
    assert [ante_multiple(m) for m in (1, 2, 4)] == ["once the ante", "2 times the ante", "4 times the ante"]
    shipped = PayTable.load("antewin")
    assert (paytable_name(shipped), paytable_origin(shipped)) == ("AnteWin", "ships with the package")
    custom = PayTable.from_mapping(dict(shipped.pays), name="house", source="/somewhere/house_rules.csv")
    assert (paytable_name(custom), paytable_origin(custom)) == ("house", "the file house_rules.csv")
    assert paytable_origin(shipped.replace(pair=2)) == "made in memory"


def test_a_wide_table_turned_for_reading():
    from analysis.report.wording import side_by_side

    frame = pd.DataFrame(
        {
            "bet": ["A", "B"],
            "kind": ["first-six", "bad-beat"],
            "house_edge": [0.0768419, 0.065046],
            "house_edge_exact": ["464153746963/6040372884000", "3310611/50896300"],
            "meter": [float("nan"), float("nan")],  # no progressive: no row
        }
    )
    turned = side_by_side(frame, "bet")
    assert list(turned.columns) == ["figure", "A", "B"]
    assert turned.values.tolist() == [
        ["Kind", "hole cards and flop", "bad beat"],
        ["House edge", "7.6842%", "6.5046%"],
        ["House edge (exact)", "464153746963/6040372884000", "3310611/50896300"],
    ]


def test_numbers_wrap_only_between_digit_groups_and_at_a_fraction_s_slash():
    from analysis.report.typeset import BREAK, breakable

    assert breakable("16,079,298,829,440") == BREAK.join(["16,", "079,", "298,", "829,", "440"])
    assert breakable("2529337/877961175") == f"2529337/{BREAK}877961175"
    assert breakable("5581304544816000") == "5581304544816000"  # no groups: no place to wrap
    assert breakable("1 in 21,672") == f"1\u00a0in\u00a021,{BREAK}672"  # "1 in N" is one figure
    assert breakable("a, b / c 7-5") == "a, b / c 7-5"  # words are left to the typesetter
