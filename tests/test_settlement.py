"""The one settlement of every game (analysis.model.settlement): the return engine's rows
and the street engine's showdown values are both read from it, so these pin its rules
against hand-settled hands, and which engine a game file's settlement sends it to."""

from fractions import Fraction

import pytest

from analysis.model.errors import InputError
from analysis.model.game import game_from_document, load_game
from analysis.model.paytable import PayTable
from analysis.model.rules import PRESETS
from analysis.model.settlement import ONE_DECISION, Settlement

ANTEWIN = PayTable.load("antewin")


def test_casino_omaha_hands_settled_by_hand():
    rows = ONE_DECISION.with_table(ANTEWIN).return_rows(2)
    assert rows[("player_wins", "royal_flush")] == 100 + 2  # the ante pays 100 to 1, the call 1 to 1
    assert rows[("player_wins", "straight")] == 1 + 2
    assert rows[("dealer_not_qualifying", "full_house")] == 3  # the ante pays its table, the call pushes
    assert rows[("tie", "")] == 0 and rows[("dealer_wins", "")] == -3 and rows[("fold", "")] == -1


def test_the_caribbean_convention_pays_the_table_on_the_call():
    rows = ONE_DECISION.with_table(ANTEWIN, "call").return_rows(2)
    assert rows[("player_wins", "flush")] == 1 + 2 * 2  # ante even money, the call 2 x its table's 2 to 1
    assert rows[("dealer_not_qualifying", "flush")] == 1  # the ante even money, the call pushes
    assert rows[("dealer_wins", "")] == -3


def test_each_wager_of_an_ultimate_showdown():
    s = load_game("ultimate-texas-holdem").settlement
    assert s.wagers == ("ante", "blind", "play")
    assert s.wager_nets("flush", qualifies=False, sign=1, multiple=4) == {
        "ante": 0,  # the dealer does not open: the ante pushes
        "play": 4,  # the play bet has action
        "blind": Fraction(3, 2),
    }
    assert s.wager_nets("pair", qualifies=True, sign=-1, multiple=1) == {"ante": -1, "play": -1, "blind": -1}
    assert s.net("two_pair", True, 1, 3) == 1 + 3 + 0  # a win below a straight: the blind pushes
    assert s.fold == -2


def test_a_game_settled_by_the_dealers_hand_has_no_one_decision_rows():
    with pytest.raises(InputError, match="settles a dealer who does not qualify by the dealer's hand"):
        Settlement(ante=ANTEWIN, play_when_no_qualifier="action").return_rows(2)
    with pytest.raises(InputError, match="'push' or 'action', not 'sometimes'"):
        Settlement(play_when_no_qualifier="sometimes")


def one_decision_file(ante_rule):
    return {
        "name": "my-omaha",
        "cards": {"hole": 3, "hand": "two-hole-three-board"},
        "dealer": {"qualifier": "7"},
        "betting": {"flop": ["fold", "bet 2"]},
        "ante": {"pays": "antewin", "dealer_not_qualifying": ante_rule},
        "play": {"dealer_not_qualifying": "push"},
    }


def test_the_file_decides_which_engine_settles_it():
    # the family's settlement: the one-decision engine plays it, with the file's call bet
    same = game_from_document(one_decision_file("pays"), "my.toml")
    assert same.single_decision and same.rules.call_multiple == 2
    # an ante that pushes when the dealer does not qualify is not the family's rule: the
    # street engine, which settles every file's sections, solves it
    other = game_from_document(one_decision_file("push"), "my.toml")
    assert not other.single_decision
    assert other.settlement.net("flush", False, 1, 2) == 0 and same.settlement.net("flush", False, 1, 2) == 2
    assert list(PRESETS) == ["casino-omaha", "casino-holdem"]
    assert not load_game("ultimate-texas-holdem").single_decision
