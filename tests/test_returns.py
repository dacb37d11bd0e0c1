"""Return tables and summaries against an independent computation on a small deck."""

from fractions import Fraction

import numpy as np
import pytest

from analysis.enumeration import count_flops, plan
from analysis.paytable import PayTable
from analysis.returns import evaluate_strategy
from analysis.rules import preset
from analysis.tables import CATEGORIES
from brute_force import brute_force

RULES = preset("casino-omaha").small_deck("89TJQKA", "cd")


@pytest.fixture(scope="module")
def small():
    return count_flops(RULES, plan(RULES)), brute_force(RULES)


def state_value(counts, pays, m=2, pays_on="ante"):
    """Exact EV(call) x completions of one state, outcome by outcome."""
    total = Fraction(0)
    for cat in range(10):
        nq, win, tie, loss = (int(x) for x in counts[4 * cat : 4 * cat + 4])
        pay = pays[CATEGORIES[cat]]
        if pays_on == "ante":
            total += nq * pay + win * (pay + m)
        else:
            total += nq * 1 + win * (1 + m * pay)
        total -= loss * (1 + m)
    return total


@pytest.mark.parametrize("pays_on", ["ante", "call"])
@pytest.mark.parametrize("strategy", ["optimal", "always-call"])
def test_house_edge_matches_state_by_state_sum(small, strategy, pays_on):
    sc, reference = small
    paytable = PayTable.load(None)
    result = evaluate_strategy(sc, RULES, paytable, strategy, pays_on)
    z = RULES.completions
    ev = Fraction(0)
    calls = 0
    for counts in reference.values():
        call = state_value(counts, paytable.pays, pays_on=pays_on)
        if strategy == "always-call" or call > -z:
            ev += call
            calls += 1
        else:
            ev -= z
    assert result.exact["house_edge"] == -ev / RULES.total_combinations
    assert result.exact["call_rate"] == Fraction(calls, RULES.states)


def test_return_table_adds_up(small):
    sc, _ = small
    result = evaluate_strategy(sc, RULES, None, "optimal")
    t = result.table
    assert int(t["combinations"].sum()) == RULES.total_combinations
    assert sum(Fraction(int(n), RULES.total_combinations) for n in t["combinations"]) == 1
    assert t["contribution"].sum() == pytest.approx(-result.summary()["house_edge"], abs=1e-12)
    assert list(t["outcome"].unique()) == ["fold", "dealer_not_qualifying", "player_wins", "tie", "dealer_wins"]
    assert result.exact["element_of_risk"] == result.exact["house_edge"] / (1 + 2 * result.exact["call_rate"])


def test_tie_rule_folds_on_exact_indifference(small):
    sc, _ = small
    # a table where some states are exactly indifferent: zero pays make calling worth -1 at best
    zero = PayTable.from_mapping({c: 0 for c in CATEGORIES}, name="zero")
    result = evaluate_strategy(sc, RULES, zero, "optimal")
    from analysis.returns import call_margin

    margin = call_margin(sc, zero, RULES)
    assert (margin == 0).any(), "this table should make some states exactly indifferent"
    assert not result.calls[margin == 0].any()
    assert np.array_equal(result.calls, margin > 0)


def test_unknown_strategy():
    with pytest.raises(ValueError, match="unknown strategy 'sometimes'"):
        evaluate_strategy(count_flops(RULES, plan(RULES)[:1]), RULES, None, "sometimes")
