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
