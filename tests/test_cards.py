import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis.model.cards import disjoint, format_cards, parse_card, parse_cards


@given(st.lists(st.integers(0, 51), unique=True, max_size=10))
def test_text_round_trip(cards):
    assert parse_cards(format_cards(cards)) == cards


def test_accepted_spellings():
    assert parse_cards("As, td 10h Q♠") == [51, 33, 34, 43]
    assert parse_card("2c") == 0 and parse_card("Ad") == 49


@pytest.mark.parametrize(
    "text, message",
    [
        ("As Xd", "bad card 'Xd': unknown rank 'X'"),
        ("As Kx", "bad card 'Kx': unknown suit 'x'"),
        ("As Kdd", "bad card 'Kdd': expected a rank and a suit"),
        ("As Kd As", "duplicate card 'As' in 'As Kd As'"),
    ],
)
def test_bad_text_names_the_token(text, message):
    with pytest.raises(ValueError, match=message):
        parse_cards(text)


def test_wrong_count():
    with pytest.raises(ValueError, match=r"hole cards 'As Kd': expected 3 cards, got 2"):
        parse_cards("As Kd", count=3, what="hole cards")


def test_cards_dealt_twice():
    with pytest.raises(ValueError, match="card As is dealt twice"):
        disjoint(parse_cards("As Kd"), parse_cards("Qs As 2c"))
