"""The return engine against an independent state-by-state computation on a small deck:
every strategy, both pay conventions, pays with huge denominators, exact ties."""

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from analysis import STRATEGIES
from analysis.counting.enumeration import count_flops, plan
from analysis.engine.return_engine import ReturnEngine
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.paytable import PayTable
from analysis.model.rules import preset
from analysis.strategy.registry import strategy_named
from brute_force import brute_force

RULES = preset("casino-omaha").small_deck("89TJQKA", "cd")
HUGE = Fraction(72254351620246, 47694931276919)  # the kind of pay an exact solve returns


@pytest.fixture(scope="module")
def small():
    """Canonical counts, their engine, and the brute force's count vectors of every real
    state (each distinct vector once, with the number of states that have it)."""
    sc = count_flops(RULES, plan(RULES))
    vectors, states = np.unique(np.array(list(brute_force(RULES).values())), axis=0, return_counts=True)
    return sc, ReturnEngine.from_counts(sc, RULES), list(zip(vectors, states.tolist()))


def settle(counts, pays, pays_on, m=2):
    """Per state: (net result, count) of every called completion, settled outcome by outcome."""
    out = []
    for cat in range(10):
        nq, win, tie, loss = (int(x) for x in counts[4 * cat : 4 * cat + 4])
        pay = pays[CATEGORIES[cat]]
        out += [
            (pay if pays_on == "ante" else Fraction(1), nq),
            (pay + m if pays_on == "ante" else 1 + m * pay, win),
            (Fraction(0), tie),
            (Fraction(-1 - m), loss),
        ]
    return out


def reference(states, paytable, strategy, pays_on, rules=RULES):
    """House edge, call rate, variance and element of risk, state by state in Fractions."""
    z, n = rules.completions, sum(m for _, m in states)
    ev = ev2 = Fraction(0)
    calls = 0
    for counts, m in states:
        outcomes = settle(counts, paytable.pays, pays_on, rules.call_multiple)
        value = sum(x * k for x, k in outcomes)
        if strategy == "always-call" or value > -z:
            calls += m
            ev += m * value
            ev2 += m * sum(x * x * k for x, k in outcomes)
        else:
            ev -= m * z
            ev2 += m * z
    total = n * z
    he = -ev / total
    wager = Fraction(n + rules.call_multiple * calls, n)
    return {
        "house_edge": he,
        "call_rate": Fraction(calls, n),
        "variance": ev2 / total - (ev / total) ** 2,
        "element_of_risk": he / wager,
    }


@pytest.mark.parametrize("pays_on", ["ante", "call"])
@pytest.mark.parametrize("strategy", ["optimal", "always-call"])
@pytest.mark.parametrize("table", ["antewin", "madrid", "huge flush"])
def test_figures_match_a_state_by_state_computation(small, strategy, pays_on, table):
    _, engine, states = small
    paytable = PayTable.load("antewin").replace(flush=HUGE) if table == "huge flush" else PayTable.load(table)
    result = engine.decide(paytable, strategy, pays_on)
    want = reference(states, paytable, strategy, pays_on)
    assert {k: getattr(result.exact, k) for k in want} == want


def test_huge_denominators_decide_exactly_at_a_tie(small):
    """Pays whose common denominator puts the coefficients beyond 64 bits, and a flush pay
    solved to make one state exactly indifferent: every decision equals the Fraction one,
    and the tie folds."""
    sc, engine, _ = small
    z, counts = RULES.completions, sc.counts.astype(np.int64)
    odd = PayTable.load("antewin").replace(royal_flush=100 + Fraction(1, 10**19 + 7))
    flush = CATEGORIES.index("flush")
    for row in range(len(sc)):
        slope = int(counts[row, 4 * flush] + counts[row, 4 * flush + 1])
        rest = sum(x * k for x, k in settle(counts[row], odd.pays | {"flush": Fraction(0)}, "ante"))
        if slope and rest < -z:
            break
    else:
        pytest.fail("no state of the small deck can be made indifferent by its flush pay")
    table = odd.replace(flush=Fraction(-z - rest, slope))
    assert max(abs(c) for c in engine.coefficients(table, "ante")[0]) >= 2**63  # beyond the 64-bit path
    calls = engine.decide(table).calls
    exact = np.array([sum(x * k for x, k in settle(c, table.pays, "ante")) > -z for c in counts])
    assert np.array_equal(calls, exact)
    assert not calls[row] and exact.any() and not exact.all()


def test_return_table_adds_up(small):
    _, engine, _ = small
    result = engine.decide(None, "optimal")
    t = result.table
    assert int(t["combinations"].sum()) == RULES.total_combinations
    assert t["contribution"].sum() == pytest.approx(-float(result.exact.house_edge), abs=1e-12)
    assert list(t["outcome"].unique()) == ["fold", "dealer_not_qualifying", "player_wins", "tie", "dealer_wins"]
    assert t.loc[t.outcome == "fold", "combinations"].item() == (1 - result.exact.call_rate) * RULES.total_combinations


def test_column_sums_equal_the_counts(small):
    sc, engine, _ = small
    rng = np.random.default_rng(3)
    calls = rng.random(len(sc)) < 0.5
    sums = engine.column_sums(calls)
    direct = (sc.counts.astype(np.int64) * np.where(calls, sc.weight, 0)[:, None]).sum(axis=0)
    assert [sums[(r, c)] for c in CATEGORIES for r in ("noqual", "win", "tie", "loss")] == direct.tolist()


def test_zero_pays_make_exact_ties_that_fold(small):
    sc, engine, states = small
    zero = PayTable.from_mapping({c: 0 for c in CATEGORIES}, name="zero")
    z = RULES.completions
    # with nothing paid on the ante, calling nets +2 per win and -3 per loss against -1 for folding
    counts = sc.counts.astype(np.int64)
    value = 2 * counts[:, 1::4].sum(axis=1) - 3 * counts[:, 3::4].sum(axis=1)
    assert (value == -z).any(), "this table should make some states exactly indifferent"
    assert np.array_equal(engine.decide(zero).calls, value > -z)


def test_strategies_by_name_and_callable(small):
    sc, engine, _ = small
    always = engine.decide(None, "always-call")
    fold = engine.decide(None, "always-fold")
    assert fold.exact.house_edge == 1 and fold.exact.call_rate == 0
    pairs = lambda e, paytable, pays_on: np.asarray(e.cards()[0] >> 2)[:, 0] == np.asarray(e.cards()[0] >> 2)[:, 1]  # noqa: E731
    custom = engine.decide(None, pairs)
    assert custom.strategy == "<lambda>" and 0 < custom.exact.call_rate < 1
    assert custom.exact.call_rate == Fraction(int(sc.weight[pairs(engine, None, None)].sum()), RULES.states)
    assert always.exact.call_rate == 1
    with pytest.raises(ValueError, match="unknown strategy 'sometimes'"):
        engine.decide(None, "sometimes")
    with pytest.raises(ValueError, match="one decision per state"):
        engine.decide(None, lambda *a: np.ones(3, dtype=bool))
    # the registry's functions play and name themselves as their names do
    for name in ("optimal", "always-call", "simple"):
        by_function, by_name = engine.decide(None, STRATEGIES[name]), engine.decide(None, strategy_named(name))
        assert by_function.strategy == by_name.strategy == name and by_function.exact == by_name.exact
    assert engine.decide(None, STRATEGIES["optimal"]).exact == engine.decide().exact
    with pytest.raises(InputError, match="unknown strategy 'simple': the engine plays optimal"):
        engine.decide(None, "simple")


@pytest.mark.parametrize(
    "qualifier, plays",
    [
        (5, [(1, "optimal", "ante"), (3, "optimal", "call"), (4, "always-call", "ante")]),
        pytest.param(None, [(2, "optimal", "ante"), (3, "optimal", "call")], marks=pytest.mark.slow),
    ],
    ids=["qualifier-7s", "no-qualifier"],
)
def test_call_multiples_and_qualifiers_match_a_state_by_state_computation(small, qualifier, plays):
    """Each rule knob against the brute force: the qualifier's own counts (kernel and brute
    force), call bets from 1x to 4x played on the same counts (with_rules)."""
    if qualifier == RULES.qualifier_rank:
        _, engine, states = small
    else:
        rules = replace(RULES, qualifier_rank=qualifier)
        vectors, n = np.unique(np.array(list(brute_force(rules).values())), axis=0, return_counts=True)
        engine, states = (
            ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules),
            list(zip(vectors, n.tolist())),
        )
    for m, strategy, pays_on in plays:
        played = engine.with_rules(replace(engine.rules, call_multiple=m))
        got = played.decide("madrid" if pays_on == "call" else None, strategy, pays_on)
        want = reference(states, got.paytable, strategy, pays_on, played.rules)
        assert {k: getattr(got.exact, k) for k in want} == want, (m, strategy, pays_on)
    with pytest.raises(ValueError, match="its own store"):
        engine.with_rules(replace(engine.rules, qualifier_rank=12))
