"""The strategy explorer (advise), the optimal strategy by hand class and the simple strategy."""

import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from analysis.cards import format_cards, parse_cards
from analysis.enumeration import COLUMNS
from analysis.paytable import PayTable
from analysis.returns import call_margin, outcome_payoffs
from analysis.rules import preset
from analysis.strategy import (HAND_CLASSES, NEVER, SIMPLE_RULES, SimpleStrategy, advise, analyse_strategy,
                               hand_classes, top_two_text)
from analysis.features import state_features
from analysis.symmetry import suit_permutations

from naive import naive_state_counts


def cli(*args):
    return subprocess.run([sys.executable, "-m", "analysis.cli", *args], capture_output=True, text=True)


def ev_from_counts(rules, counts, paytable=None):
    """EV(call) per ante from the 40 counts, settled outcome by outcome."""
    pay = outcome_payoffs(PayTable.load(paytable), rules)
    total = Fraction(0)
    for name, n in zip(COLUMNS, counts):
        result, category = name.split("_", 1)
        key = {"noqual": ("dealer_not_qualifying", category), "win": ("player_wins", category),
               "tie": ("tie", ""), "loss": ("dealer_wins", "")}[result]
        total += int(n) * pay[key]
    return total / rules.completions


def test_advise_matches_naive_enumeration_on_a_small_deck():
    rules = preset("casino-omaha").small_deck("789TJQKA", "cdh")
    hole, flop = "Ac Kd 7h", "Qc Jd 9c"
    a = advise(hole, flop, rules, enumerate_state=True)
    naive = naive_state_counts(rules, parse_cards(hole), parse_cards(flop))
    ev = ev_from_counts(rules, naive)
    assert a.loc["call", "ev_exact"] == ev and a.loc["fold", "ev_exact"] == -1
    assert bool(a.loc["call", "optimal"]) == (ev > -1) and bool(a.loc["fold", "optimal"]) == (ev <= -1)
    assert a.attrs["hand"] == "gutshot straight draw"


@pytest.mark.slow
def test_advise_matches_naive_enumeration_full_deck():
    for hole, flop in [("As Kd 7h", "Qs Jd 2c"), ("7c 7d 2s", "Ks 9d 3c")]:
        a = advise(hole, flop, enumerate_state=True)
        naive = naive_state_counts(preset("casino-omaha"), parse_cards(hole), parse_cards(flop))
        assert a.loc["call", "ev_exact"] == ev_from_counts(preset("casino-omaha"), naive)


@pytest.mark.slow
def test_advise_agrees_with_the_store_for_random_states(omaha):
    """Random stored states, shown as real deals under a random suit relabelling and card
    order: advise (reading one shard) gives the stored EV and the optimal decision."""
    rules, sc = omaha
    rng = np.random.default_rng(4)
    margin = call_margin(sc, PayTable.load(None), rules)
    perms = suit_permutations(rules.suits)
    rows = rng.choice(len(sc), size=25, replace=False)
    rows = np.append(rows, np.flatnonzero(margin == 0)[:1])  # an exact tie folds, if there is one
    for row in rows:
        p = perms[rng.integers(len(perms))]
        hole, flop = rng.permutation(p[sc.hole[row]]), rng.permutation(p[sc.flop[row]])
        a = advise(format_cards(hole), format_cards(flop))
        assert a.attrs["source"].startswith("outcome store")
        ev = ev_from_counts(rules, sc.counts[row])
        assert a.loc["call", "ev_exact"] == ev
        assert bool(a.loc["call", "optimal"]) == bool(margin[row] > 0)
        assert a.loc["call", "ev_exact"] + 1 == Fraction(int(margin[row]), rules.completions)
    same = advise("As Kd 7h", "Qs Jd 2c", states=sc)
    assert same.loc["call", "ev_exact"] == advise("As Kd 7h", "Qs Jd 2c", enumerate_state=True).loc["call", "ev_exact"]


@pytest.mark.slow
def test_advise_command_prints_the_decision(holdem):
    out = cli("advise", "As Kd", "--flop", "Qs Jd 2c", "--game", "casino-holdem")
    assert out.returncode == 0, out.stderr
    a = advise("As Kd", "Qs Jd 2c", "casino-holdem", enumerate_state=True)
    assert f"exact {a.loc['call', 'ev_exact']}" in out.stdout
    assert ("CALL" if a.loc["call", "optimal"] else "FOLD") in out.stdout


@pytest.mark.parametrize("args, message", [
    (["As Kd 1h", "--flop", "Qs Jd 2c"], "bad card '1h': unknown rank '1'"),
    (["As Kd 7x", "--flop", "Qs Jd 2c"], "bad card '7x': unknown suit 'x'"),
    (["As Kd", "--flop", "Qs Jd 2c"], "hole cards 'As Kd': expected 3 cards, got 2"),
    (["As Kd 7h", "--flop", "Qs Jd"], "flop 'Qs Jd': expected 3 cards, got 2"),
    (["As As 7h", "--flop", "Qs Jd 2c"], "duplicate card 'As' in 'As As 7h'"),
    (["As Kd 7h", "--flop", "Qs Jd As"], "card As is dealt twice"),
    (["As Kd 7h", "--flop", "Qs Jd 2c", "--game", "casino-holdem"], "hole cards 'As Kd 7h': expected 2 cards, got 3"),
])
def test_bad_cards_give_one_clear_line(args, message):
    out = cli("advise", *args)
    assert out.returncode == 2
    assert message in out.stderr and "Traceback" not in out.stderr


def test_missing_flop_is_a_usage_error():
    out = cli("advise", "As Kd 7h")
    assert out.returncode == 2 and "--flop" in out.stderr


def test_simple_strategy_rules_in_words_and_decisions():
    rules = preset("casino-omaha")
    s = SimpleStrategy({"made": (0, 0), "strong draw": (0, 0), "gutshot": (13 * 8 + 5, 13 * 5 + 3),
                        "flop pair": (NEVER, NEVER), "rest": (13 * 12 + 10, 13 * 11 + 7)})
    lines = s.describe()
    assert len(lines) == len(SIMPLE_RULES)
    assert lines[2] == ("A gutshot straight draw: call with 7-5 or better when holding three to a flush, "
                        "otherwise with T-7 or better; fold the rest.")
    assert lines[3] == "Only the flop's pair: fold."
    holes = [parse_cards(h) for h in ("Ac Qd 3h", "Ac Jd 3h", "Kc 9c 3h", "Kc 9d 3h", "As Kd 7h", "Ts 7d 2c")]
    flops = [parse_cards(f) for f in ("9s 6d 2c", "9s 6d 2c", "8c 6d 2h", "8c 6d 2h", "Qs Jd 3c", "8s 9d 3h")]
    f = state_features(rules, holes, flops)
    classes = hand_classes(f, rules)
    assert [HAND_CLASSES[c] for c in classes] == ["two or more overcards", "two or more overcards",
                                                  "three to a flush", "two or more overcards",
                                                  "gutshot straight draw", "open-ended straight draw"]
    assert s.decide(f, classes).tolist() == [True, False, True, False, True, True]
    assert top_two_text(0) == "any cards" and top_two_text(NEVER) == "no cards"


@pytest.mark.slow
def test_simple_strategy_cost_adds_up_exactly(omaha):
    """The per-rule costs, summed from per-state margins, equal the difference of the
    house edges computed from the two return tables."""
    rules, sc = omaha
    a = analyse_strategy(sc, rules)
    opt, simple = a.results["optimal"].exact, a.results["simple"].exact
    cost = simple["house_edge"] - opt["house_edge"]
    assert sum(Fraction(c) for c in a.rule_costs.cost_vs_optimal_exact) == cost
    assert Fraction(a.comparison.set_index("strategy").loc["simple", "cost_vs_optimal_exact"]) == cost
    assert 0 < cost < a.results["always-call"].exact["house_edge"] - opt["house_edge"]
    # per class, the profile counts every state once and reproduces the optimal call rate
    assert int(a.profile.states.sum()) == rules.states
    called = (a.profile.optimal_call_rate * a.profile.states).sum()
    assert called == pytest.approx(float(opt["call_rate"]) * rules.states, rel=1e-12)
    # every threshold is a local optimum: moving it to the next real key never loses less
    gain = a.margin.astype(np.int64) * sc.weight
    rule_of = a.simple.rule_index(a.classes)
    for i, rule in enumerate(a.simple.rules):
        if not rule.by_cards:
            continue
        for suited in (0, 1):
            sel = (rule_of == i) & (a.features.backdoor_flush == suited)
            keys, g = a.features.top_two[sel], gain[sel]
            t = a.simple.thresholds[rule.name][suited]
            value = int(g[keys >= t].sum())
            for other in {int(k) for k in np.unique(keys)} | {0, NEVER}:
                assert int(g[keys >= other].sum()) <= value
    # with the default AnteWin table, pairs made with a hole card and four-flushes are called
    assert a.simple.thresholds["made"] == (0, 0) and a.simple.thresholds["strong draw"] == (0, 0)
    assert a.profile.set_index("hand").loc["four to a flush", "optimal_call_rate"] == 1
