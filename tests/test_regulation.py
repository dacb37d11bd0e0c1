"""The rules of play in regulation form follow the rules they are made from: qualifier, call
bet, hole cards, which wager the pay table pays, and the pay lines in "N to 1" form."""

import re
from dataclasses import replace
from fractions import Fraction

import pytest

from analysis.model.errors import InputError
from analysis.model.game import game_from_document, load_game
from analysis.model.paytable import PayTable
from analysis.model.rules import preset
from analysis.report.regulation import RuleSection, game_rules_of_play, odds_words, pay_table_lines, rules_of_play

ANTEWIN = PayTable.load(None)


def regulation_text(sections: tuple[RuleSection, ...], title: str = "") -> str:
    """The sections as numbered plain text: "1. Definitions", "(a) ...", pay lines dotted."""
    lines = [title, ""] if title else []
    for number, section in enumerate(sections, 1):
        lines.append(f"{number}. {section.heading}")
        lines += [f"   ({chr(ord('a') + i)}) {clause}" for i, clause in enumerate(section.clauses)]
        width = max((len(hand) for hand, _ in section.table), default=0) + 4
        lines += [f"       {hand} {'.' * (width - len(hand))} {odds}" for hand, odds in section.table]
        lines.append("")
    return "\n".join(lines)


def text_of(sections: tuple[RuleSection, ...]) -> str:
    return regulation_text(sections)


def section(sections: tuple[RuleSection, ...], heading: str) -> RuleSection:
    return next(s for s in sections if s.heading == heading)


def test_casino_holdem_names_its_qualifier_call_bet_and_two_hole_cards():
    sections = rules_of_play(preset("casino-holdem"), ANTEWIN)
    text = text_of(sections)
    assert [s.heading for s in sections] == [
        "Definitions",
        "Wagers",
        "The shuffle and the deal",
        "The decision",
        "The dealer's hand and the qualifier",
        "Settlement",
        "Pay table",
        "Hand rankings and how a hand is made",
        "Ties",
        "Collecting and paying",
    ]
    assert "Casino Hold'em is a house-banked poker game" in text
    assert "The dealer's hand qualifies when it is a pair of 4s or better" in text
    assert "a call bet of exactly twice the ante" in text
    assert "two hole cards face down to each player" in text
    assert "any five of its two hole cards and the five cards of the board" in text
    assert "exactly two of its" not in text
    assert "three hole cards" not in text


def test_casino_omaha_plays_two_of_three_hole_cards_with_three_of_the_board():
    text = text_of(rules_of_play(preset("casino-omaha"), ANTEWIN))
    assert "Casino Omaha Poker" in text
    assert "a pair of 7s or better" in text
    assert "three hole cards face down to each player" in text
    assert "exactly two of its three hole cards and exactly three of the five cards of the board" in text
    assert "any five of its" not in text


def test_a_game_without_qualifier_has_no_qualifier_clause_and_settlement_says_so():
    rules = replace(preset("casino-holdem"), qualifier_rank=None)
    sections = rules_of_play(rules, ANTEWIN)
    text = text_of(sections)
    assert "The dealer's hand" in [s.heading for s in sections]
    assert "The dealer's hand and the qualifier" not in [s.heading for s in sections]
    assert "qualifies" not in text and "does not qualify" not in text and "qualifying" not in text
    assert "there is no qualifier" in " ".join(section(sections, "Settlement").clauses)
    assert "pair of 4s" not in text


def test_the_qualifier_is_worded_by_rank():
    assert "a pair of queens or better" in text_of(
        rules_of_play(replace(preset("casino-omaha"), qualifier_rank=10), ANTEWIN)
    )
    assert "a pair of 10s or better" in text_of(
        rules_of_play(replace(preset("casino-omaha"), qualifier_rank=8), ANTEWIN)
    )


def test_the_call_multiple_follows_the_rules():
    text = text_of(rules_of_play(replace(preset("casino-holdem"), call_multiple=3), ANTEWIN))
    assert "a call bet of exactly three times the ante" in text
    assert "twice the ante" not in text


def test_settlement_by_which_wager_the_pay_table_pays():
    ante = section(rules_of_play(preset("casino-holdem"), ANTEWIN, "ante"), "Settlement").clauses
    call = section(rules_of_play(preset("casino-holdem"), ANTEWIN, "call"), "Settlement").clauses
    assert ante[1] == (
        "If the dealer's hand does not qualify, the ante shall be paid according to the pay table for the player's "
        "hand (whether or not the player's hand ranks higher than the dealer's), and the call bet is a push."
    )
    assert ante[2] == (
        "If the player's hand ranks higher than the dealer's qualifying hand, the ante shall be paid according to "
        "the pay table for the player's hand and the call bet shall be paid at 1 to 1."
    )
    assert call[1].startswith("If the dealer's hand does not qualify, the ante shall be paid at 1 to 1 ")
    assert call[2] == (
        "If the player's hand ranks higher than the dealer's qualifying hand, the ante shall be paid at 1 to 1 and "
        "the call bet shall be paid according to the pay table for the player's hand."
    )
    for clauses in (ante, call):
        assert (
            clauses[3]
            == "If the player's hand ties the dealer's qualifying hand, the ante and the call bet are a push."
        )
        assert clauses[4].endswith("the player loses the ante and the call bet.")


def test_the_pay_table_pays_no_less_than_its_lines():
    for pays_on, wager in (("ante", "The ante, when the dealer's hand does not qualify or"), ("call", "The call bet,")):
        pay = section(rules_of_play(preset("casino-holdem"), ANTEWIN, pays_on), "Pay table")
        assert pay.clauses[0].startswith(wager)
        assert "shall be paid at odds no less than those in the pay table below" in pay.clauses[0]
        assert pay.table == pay_table_lines(ANTEWIN)
    lines = pay_table_lines(ANTEWIN)
    assert lines == (
        ("Royal flush", "100 to 1"),
        ("Straight flush", "20 to 1"),
        ("Four of a kind", "10 to 1"),
        ("Full house", "3 to 1"),
        ("Flush", "2 to 1"),
        ("Straight", "1 to 1"),
        ("Three of a kind", "1 to 1"),
        ("Two pair", "1 to 1"),
        ("Pair", "1 to 1"),
        ("High card", "1 to 1"),
    )
    assert all(re.fullmatch(r"[0-9]+ to [0-9]+", odds) for _, odds in pay_table_lines(PayTable.load("madrid")))


def test_fractional_pays_are_worded_as_odds_and_a_zero_pay_has_no_line():
    assert odds_words(Fraction(5, 2)) == "5 to 2"
    assert odds_words(Fraction(1)) == "1 to 1"
    table = ANTEWIN.replace(flush="3/2", high_card=0)
    lines = dict(pay_table_lines(table))
    assert lines["Flush"] == "3 to 2"
    assert "High card" not in lines
    settlement = section(rules_of_play(preset("casino-holdem"), table), "Settlement").clauses
    assert settlement[-1] == (
        "Where the ante would be paid by the pay table on a hand that the pay table does not list, the ante is a push."
    )
    assert not any(
        "does not list" in c for c in section(rules_of_play(preset("casino-holdem"), ANTEWIN), "Settlement").clauses
    )


def test_the_text_is_in_words_and_numbered():
    for rules in (preset("casino-holdem"), preset("casino-omaha").small_deck("9TJQKA")):
        text = text_of(rules_of_play(rules, ANTEWIN, title="Test Poker"))
        assert "_" not in text and "{" not in text
    text = regulation_text(rules_of_play(preset("casino-omaha"), ANTEWIN), title="Casino Omaha Poker")
    assert text.startswith("Casino Omaha Poker\n\n1. Definitions\n   (a) Casino Omaha Poker is")
    assert "\n7. Pay table\n" in text
    assert re.search(r"\n +Royal flush \.+ 100 to 1\n", text)
    assert (
        "one deck of 24 cards: the ranks 9, 10, jack, queen, king, ace in the suits clubs, diamonds, hearts, spades"
        in text_of(rules_of_play(preset("casino-omaha").small_deck("9TJQKA"), ANTEWIN))
    )


def test_hands_rank_best_first_and_suits_do_not_break_ties():
    sections = rules_of_play(preset("casino-holdem"), ANTEWIN)
    ranking = section(sections, "Hand rankings and how a hand is made").clauses
    named = [c.split(":")[0] for c in ranking if ":" in c and c.split(":")[0] in dict(pay_table_lines(ANTEWIN))]
    assert named == [hand for hand, _ in pay_table_lines(ANTEWIN)]
    assert "suits do not rank" in section(sections, "Ties").clauses[0]


def test_an_unknown_wager_is_refused():
    with pytest.raises(InputError, match="pays_on"):
        rules_of_play(preset("casino-holdem"), ANTEWIN, "blind")


def test_the_deal_names_the_cut_the_burn_cards_misdeals_and_exposed_cards():
    deal = " ".join(section(rules_of_play(preset("casino-omaha"), ANTEWIN), "The shuffle and the deal").clauses)
    assert "cut" in deal and "burn the top card" in deal and "misdeal" in deal
    assert "A hole card of the dealer exposed before every player has decided voids the round" in deal
    paying = section(rules_of_play(preset("casino-omaha"), ANTEWIN), "Collecting and paying").clauses[0]
    assert paying.startswith("When every hand is settled, the dealer shall first collect the losing wagers")


def test_ultimate_texas_holdem_in_regulation_form():
    sections = game_rules_of_play(load_game("ultimate-texas-holdem"))
    text = text_of(sections)
    assert "\u201cBlind\u201d means the second wager, equal to the ante, placed with the ante." in text
    decisions = section(sections, "The decisions").clauses
    assert decisions[0] == (
        "After seeing the hole cards and before the flop, each player in turn shall check or place a play bet of "
        "three or four times the ante."
    )
    assert "shall check or place a play bet of twice the ante." in decisions[2]
    assert decisions[4].endswith("shall fold or place a play bet equal to the ante.")
    settle = section(sections, "Settlement").clauses
    # the dealer who does not open: the ante pushes, the blind and the play bet still play
    assert settle[1] == (
        "If the dealer's hand does not qualify, the ante is a push, whatever the hands; the blind and the play bet "
        "are settled against the dealer's hand as set out below."
    )
    assert settle[3] == "If the player's hand ties the dealer's hand, every wager is a push."
    assert settle[4].endswith(
        "the player loses the blind and the play bet, and the ante (when the dealer's hand qualifies)."
    )
    pays = section(sections, "Pay table")
    assert pays.clauses[0].startswith("The blind, when the player's hand ranks higher than the dealer's, shall be paid")
    assert pays.table == (
        ("Royal flush", "500 to 1"),
        ("Straight flush", "50 to 1"),
        ("Four of a kind", "10 to 1"),
        ("Full house", "3 to 1"),
        ("Flush", "3 to 2"),
        ("Straight", "1 to 1"),
    )
    assert "call bet" not in text and "_" not in text


def test_a_design_with_two_pay_tables_names_each():
    doc = {
        "name": "two-tables",
        "cards": {"hole": 2, "hand": "best-five"},
        "dealer": {"qualifier": "none"},
        "betting": {"flop": ["check", "bet 1", "bet 2"]},
        "ante": {"pays": "antewin", "dealer_not_qualifying": "push"},
        "blind": {"pays": {"straight": 1}},
        "play": {"dealer_not_qualifying": "push"},
    }
    sections = game_rules_of_play(game_from_document(doc, "two.toml"))
    headings = [s.heading for s in sections]
    assert "Ante pay table" in headings and "Blind pay table" in headings
    decisions = section(sections, "The decisions").clauses
    assert (
        decisions[0] == "After the flop, each player in turn shall check or place a play bet of once or twice the ante."
    )
    assert decisions[-1] == "A player who checks at the last decision point plays the hand with no play bet."
    assert "there is no qualifier" in section(sections, "Settlement").clauses[1]
