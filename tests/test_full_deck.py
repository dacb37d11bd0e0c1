"""Full-deck checks: closed-form totals, naive spot checks of random states, Monte Carlo
agreement, the published Casino Hold'em house edge, and the exact figures of the README and
docs/results.md.
Marked slow; run in CI."""

from pathlib import Path

import numpy as np
import pytest

from analysis import STRATEGIES
from analysis.engine.simulation import simulate_strategies, simulate_strategy
from analysis.model.categories import CATEGORIES
from exact_figures import HOLDEM_OPTIMAL_EDGE
from naive import naive_state_counts

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
RESULTS = (ROOT / "docs" / "results.md").read_text()


@pytest.mark.parametrize("game", ["holdem", "omaha"])
def test_totals_equal_closed_forms(game, request):
    rules, engine = request.getfixturevalue(game)
    assert int(engine.weight.sum(dtype=np.int64)) == rules.states
    last = -1
    for start, part in engine.source.iter_shards():
        assert (part.counts.sum(axis=1, dtype=np.int64) == rules.completions).all()
        keys = part.keys
        assert keys[0] > last and np.all(np.diff(keys) > 0)
        last = keys[-1]
        np.testing.assert_array_equal(part.weight, engine.weight[start : start + len(part)])


@pytest.mark.parametrize("game, n", [("holdem", 4), ("omaha", 3)])
def test_random_states_match_naive_enumeration(game, n, request):
    """The store's counts and the engine's packed counts of random states, against a naive
    enumeration of all their completions."""
    rules, engine = request.getfixturevalue(game)
    hole, flop = engine.cards()
    rows = np.random.default_rng(20261130).choice(engine.states, n, replace=False)
    for row, packed in zip(rows, engine.pay.unpack(rows)):
        expected = naive_state_counts(rules, [int(c) for c in hole[row]], [int(c) for c in flop[row]])
        np.testing.assert_array_equal(engine.source.read_state(hole[row], flop[row]), expected)
        by = expected.reshape(len(CATEGORIES), 4)
        np.testing.assert_array_equal(packed, [*by[:, 0], *by[:, 1], by[:, 3].sum()])


def test_casino_holdem_reproduces_the_published_house_edge(holdem):
    # Wizard of Odds, Casino Hold'em: house edge 2.16% per ante, element of risk 0.82%,
    # the optimal player calls 82% of hands. The one check of the published figure; the
    # other tests pin the exact fraction it ties down (tests/exact_figures.py).
    _, engine = holdem
    s = engine.decide(None, "optimal").summary()
    assert round(100 * s["house_edge"], 2) == 2.16
    assert round(100 * s["element_of_risk"], 2) == 0.82
    assert round(100 * s["call_rate"]) == 82
    assert engine.decide(None, "optimal").exact.house_edge == HOLDEM_OPTIMAL_EDGE
    assert round(100 * float(HOLDEM_OPTIMAL_EDGE), 2) == 2.16


#: What the Monte Carlo checks: (strategy, pay table, which bet it pays), each game.
PLAYS = [("always-call", "antewin", "ante"), ("optimal", "antewin", "ante"), ("optimal", "madrid", "call")]
HANDS = 1_000_000


@pytest.fixture(scope="module")
def simulated(request):
    """Per game, HANDS random hands (seeded) dealt and evaluated once, and every play of
    PLAYS settled on them: {play: Simulation}."""
    done = {}

    def simulations(game):
        if game not in done:
            _, engine = request.getfixturevalue(game)
            sims = simulate_strategies(engine, [(p, s, on) for s, p, on in PLAYS], HANDS, seed=2026)
            done[game] = dict(zip(PLAYS, sims))
        return done[game]

    return simulations


@pytest.mark.parametrize("game", ["holdem", "omaha"])
@pytest.mark.parametrize("strategy, paytable, pays_on", PLAYS)
def test_monte_carlo_agrees_within_four_standard_errors(game, strategy, paytable, pays_on, request, simulated):
    _, engine = request.getfixturevalue(game)
    sim = simulated(game)[strategy, paytable, pays_on]
    assert sim.hands == HANDS
    assert abs(sim.z) < 4
    exact = engine.decide(paytable, strategy, pays_on).exact
    assert sim.exact_house_edge == float(exact.house_edge)
    assert abs(sim.call_rate - float(exact.call_rate)) < 4 * np.sqrt(0.25 / sim.hands)


def test_plays_settled_on_the_same_hands_are_each_as_if_dealt_alone(holdem, cli):
    """Settling several plays on one dealing gives each exactly the simulation it gets on its
    own (same seed), and ``casino-omaha simulate`` reports that simulation."""
    _, engine = holdem
    alone = simulate_strategy(engine, "madrid", "optimal", 200_000, seed=7, pays_on="call")
    shared = simulate_strategies(
        engine, [("antewin", "always-call", "ante"), ("madrid", "optimal", "call")], 200_000, 7
    )
    assert shared[1] == alone and shared[0] != alone
    data = cli(
        *("simulate", "--game", "casino-holdem", "--paytable", "madrid", "--pays-on", "call"),
        *("--hands", "200000", "--seed", "7", "--format", "json", "--no-progress"),
    ).json()
    assert (data["hands"], data["house_edge"], data["call_rate"], data["z"]) == (
        alone.hands,
        alone.house_edge,
        alone.call_rate,
        alone.z,
    )


def test_readme_figures_are_the_engines(holdem, omaha):
    """Every row of the results table (in the README and in docs/results.md), and the
    figures the README quotes, as the engine computes them today."""
    for name, (_, engine) in (("Casino Omaha", omaha), ("Casino Hold'em", holdem)):
        for strategy in ("optimal", "always-call"):
            e = engine.decide(None, strategy).exact
            label = "always call" if strategy == "always-call" else strategy
            row = (
                f"| {name} | {label} | {float(e.house_edge):.4%} | {float(e.element_of_risk):.4%} | "
                f"{float(e.call_rate):.2%} | {e.standard_deviation:.3f} | {float(e.hit_frequency):.2%} |"
            )
            assert row.replace("100.00%", "100%") in README, row
            assert row.replace("100.00%", "100%") in RESULTS, row
    optimal = omaha[1].decide().exact.house_edge
    assert f"exactly {optimal}" in README and f"exactly {optimal}" in RESULTS
    simple = omaha[1].decide(None, STRATEGIES["simple"]).exact.house_edge
    assert f"**{float(simple):.4%}** ({simple})" in RESULTS
    assert f"costs {float(simple - optimal):.3%} of the ante against optimal play" in README
    assert f"**{float(simple - optimal):.4%}** of the ante against optimal play" in RESULTS
