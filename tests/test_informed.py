"""States with more information (dealer cards seen, dead cards, the turn shown early) against
a naive enumeration of every completion; ``advise --exposed / --dead``."""

from fractions import Fraction

import numpy as np
import pytest

from analysis.counting.enumeration import count_state
from analysis.counting.informed import Knowledge, completions, state_counts
from analysis.model.cards import parse_cards
from analysis.model.outcomes import COLUMNS
from analysis.model.payoffs import outcome_payoffs, row_of
from analysis.model.paytable import PayTable
from analysis.model.rules import preset
from analysis.strategy.advice import advise
from naive import naive_informed_counts

#: (seen dealer cards, dead cards, turn shown) of each kind of knowledge tried
KINDS = [(0, 0, False), (1, 0, False), (2, 0, False), (0, 0, True), (0, 2, False), (1, 2, True), (3, 0, False)]


def random_state(rules, rng, seen, dead, turn):
    k = rules.hole_cards
    cards = [int(c) for c in rng.permutation(rules.deck)]
    hole, flop, rest = cards[:k], cards[k : k + 3], cards[k + 3 :]
    seen = min(seen, k)
    knowledge = Knowledge(tuple(rest[:seen]), tuple(rest[seen : seen + dead]), rest[seen + dead] if turn else None)
    return hole, flop, knowledge


@pytest.mark.parametrize("game, ranks, suits", [("casino-omaha", "89TJQKA", "cd"), ("casino-holdem", "A2345", "cdh")])
def test_random_states_match_naive_enumeration_small_deck(game, ranks, suits):
    rules = preset(game).small_deck(ranks, suits)
    rng = np.random.default_rng(9)
    for kind in KINDS:
        for _ in range(4):
            hole, flop, knowledge = random_state(rules, rng, *kind)
            got = state_counts(rules, hole, flop, knowledge)
            want = naive_informed_counts(rules, hole, flop, knowledge.seen, knowledge.dead, knowledge.turn)
            np.testing.assert_array_equal(got, want, err_msg=f"{kind}: {hole} {flop} {knowledge}")
            assert int(got.sum()) == completions(rules, knowledge)


@pytest.mark.parametrize("game", ["casino-omaha", "casino-holdem"])
def test_no_knowledge_is_the_base_games_state(game):
    rules = preset(game)
    rng = np.random.default_rng(3)
    for _ in range(2):
        hole, flop, knowledge = random_state(rules, rng, 0, 0, False)
        np.testing.assert_array_equal(state_counts(rules, hole, flop, knowledge), count_state(rules, hole, flop))
    assert completions(rules, Knowledge()) == rules.completions


@pytest.mark.slow
@pytest.mark.parametrize("game", ["casino-omaha", "casino-holdem"])
def test_random_states_match_naive_enumeration_full_deck(game):
    rules = preset(game)
    rng = np.random.default_rng(11)
    for kind in KINDS[1:]:
        hole, flop, knowledge = random_state(rules, rng, *kind)
        want = naive_informed_counts(rules, hole, flop, knowledge.seen, knowledge.dead, knowledge.turn)
        np.testing.assert_array_equal(state_counts(rules, hole, flop, knowledge), want, err_msg=str(kind))


def naive_ev(rules, hole, flop, seen=(), dead=(), paytable=None, pays_on="ante"):
    counts = naive_informed_counts(rules, parse_cards(hole), parse_cards(flop), parse_cards(seen), parse_cards(dead))
    pays = outcome_payoffs(PayTable.load(paytable), rules, pays_on)
    return Fraction(sum(int(n) * pays[row_of(c)] for c, n in zip(COLUMNS, counts)), int(counts.sum()))


def test_advise_with_a_seen_dealer_card_matches_naive_enumeration(cli):
    rules = preset("casino-omaha")
    want = naive_ev(rules, "As Kd 7h", "Qs Jd 2c", "3c")
    a = advise("As Kd 7h", "Qs Jd 2c", exposed="3c")
    assert a.ev_call == want and a.exposed == "3c"
    assert a.decision == ("call" if want > -1 else "fold")
    # the base game's advice for the same cards differs: the card seen is information
    assert advise("As Kd 7h", "Qs Jd 2c", enumerate_state=True).ev_call != want
    data = cli("advise", "As Kd 7h", "--flop", "Qs Jd 2c", "--exposed", "3c", "--format", "json").json()
    assert Fraction(data["ev_call_exact"]) == want and data["exposed"] == "3c"
    assert data["decision"] == ("call" if want > -1 else "fold")
    text = cli("advise", "As Kd 7h", "--flop", "Qs Jd 2c", "--exposed", "3c")
    assert f"exact {want}" in text.stdout and "seen       dealer 3c" in text.stdout


def test_advise_with_dead_cards_and_two_seen_matches_naive_enumeration_holdem():
    rules = preset("casino-holdem")
    for seen, dead in [("", "3c 4c 5d"), ("3c 9h", ""), ("Ac", "4c 4d 9s 9c")]:
        want = naive_ev(rules, "As Kd", "Qs Jd 2c", seen, dead, "madrid", "call")
        a = advise("As Kd", "Qs Jd 2c", "casino-holdem", "madrid", "call", exposed=seen or None, dead=dead or None)
        assert a.ev_call == want


@pytest.mark.slow
def test_advise_with_dead_cards_matches_naive_enumeration_omaha():
    want = naive_ev(preset("casino-omaha"), "As Kd 7h", "Qs Jd 2c", dead="3c 4c 5d")
    assert advise("As Kd 7h", "Qs Jd 2c", dead="3c 4c 5d").ev_call == want


@pytest.mark.parametrize(
    "args, message",
    [
        (["--exposed", "As"], "As dealt twice"),
        (["--exposed", "3c 4c 5c 6c"], "the dealer holds 3 cards; 4 seen"),
        (["--dead", "3c 3x"], "bad card '3x': unknown suit 'x'"),
        (["--dead", "3c 3c"], "duplicate card '3c' in '3c 3c'"),
        (
            [
                "--dead",
                " ".join(
                    sorted(set(f"{r}{s}" for r in "3456789TJQKA" for s in "cdhs") - {"7h", "Kd", "As", "Qs", "Jd"})
                ),
            ],
            "leave too few cards",
        ),
    ],
)
def test_bad_knowledge_gives_one_clear_line(args, message, cli):
    out = cli("advise", "As Kd 7h", "--flop", "Qs Jd 2c", *args)
    assert out.returncode == 2
    assert message in out.stderr and len(out.stderr.strip().splitlines()) == 1
