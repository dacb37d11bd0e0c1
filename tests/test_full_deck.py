"""Full-deck checks: closed-form totals, naive spot checks of random states, Monte Carlo
agreement and the published Casino Hold'em house edge. Marked slow; run in CI."""

import numpy as np
import pytest

from analysis.paytable import PayTable
from analysis.returns import evaluate_strategy
from analysis.simulate import simulate
from naive import naive_state_counts

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("game", ["holdem", "omaha"])
def test_totals_equal_closed_forms(game, request):
    rules, sc = request.getfixturevalue(game)
    assert int(sc.weight.sum()) == rules.states
    assert (sc.counts.sum(axis=1, dtype=np.int64) == rules.completions).all()
    assert np.all(np.diff(sc.keys) > 0)


@pytest.mark.parametrize("game, n", [("holdem", 4), ("omaha", 3)])
def test_random_states_match_naive_enumeration(game, n, request):
    rules, sc = request.getfixturevalue(game)
    rng = np.random.default_rng(20261130)
    for i in rng.choice(len(sc), n, replace=False):
        expected = naive_state_counts(rules, [int(c) for c in sc.hole[i]], [int(c) for c in sc.flop[i]])
        np.testing.assert_array_equal(sc.counts[i].astype(np.int64), expected)


def test_casino_holdem_reproduces_the_published_house_edge(holdem):
    # Wizard of Odds, Casino Hold'em: house edge 2.16% per ante, element of risk 0.82%,
    # the optimal player calls 82% of hands
    rules, sc = holdem
    s = evaluate_strategy(sc, rules, None, "optimal").summary()
    assert round(100 * s["house_edge"], 2) == 2.16
    assert round(100 * s["element_of_risk"], 2) == 0.82
    assert round(100 * s["call_rate"]) == 82


@pytest.mark.parametrize("game", ["holdem", "omaha"])
@pytest.mark.parametrize("strategy", ["always-call", "optimal"])
def test_monte_carlo_agrees_within_four_standard_errors(game, strategy, request):
    rules, sc = request.getfixturevalue(game)
    paytable = PayTable.load(None)
    exact = evaluate_strategy(sc, rules, paytable, strategy)
    sim = simulate(rules, paytable, 1_000_000, seed=2026, strategy=strategy, sc=sc, calls=exact.calls)
    assert abs(sim.house_edge - float(exact.exact["house_edge"])) < 4 * sim.standard_error
    assert abs(sim.call_rate - float(exact.exact["call_rate"])) < 4 * np.sqrt(0.25 / sim.hands)
