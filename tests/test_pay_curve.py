"""The exact curve of the optimal house edge in one pay: its value at any pay, and its whole
result there (return table, every figure, every decision), equals a full engine pass with
that pay (random lines and values, fractions, and pays exactly at a state's root, where the
tie folds); the breakpoints drawn are the values there, and the house edge is concave and
falling in the pay."""

import random
from fractions import Fraction

import numpy as np
import pytest

from analysis.counting.enumeration import count_flops, plan
from analysis.engine.pay_curve import PayCurve
from analysis.engine.return_engine import ReturnEngine
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.paytable import PayTable
from analysis.model.rules import preset
from analysis.tuning.sweeps import Sweeps


def check(engine, table, category, pays_on, pays):
    curve = PayCurve(engine, table, category, pays_on)
    for p in pays:
        full = engine.decide(table.replace(**{category: p}), "optimal", pays_on)
        want, got = full.exact, curve.at(p)
        assert (got.house_edge, got.call_rate, got.element_of_risk) == (
            want.house_edge,
            want.call_rate,
            want.element_of_risk,
        ), (category, p)
        result = curve.result(p)
        assert result.exact == want and result.table.equals(full.table), (category, p)
        assert np.array_equal(result.calls, full.calls) and result.paytable.pays == full.paytable.pays
    return curve


def exact_roots(curve, n, rng):
    """Pays exactly at some states' roots (a tie there: the state folds)."""
    picks = rng.sample(range(len(curve)), min(n, len(curve)))
    return [Fraction(-int(curve.alpha[i]), curve.d * int(curve.beta[i])) for i in picks if curve.alpha[i] < 0]


@pytest.mark.parametrize("pays_on", ["ante", "call"])
def test_small_deck_every_line(pays_on):
    rules = preset("casino-omaha").small_deck("89TJQKA", "cd")
    engine = ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules)
    table, rng = PayTable.load("madrid").replace(flush="7/2"), random.Random(7)
    for category in CATEGORIES:
        curve = PayCurve(engine, table, category, pays_on)
        pays = [0, 1, Fraction(5, 2), 40, Fraction(rng.randint(0, 400), rng.randint(1, 9))]
        check(engine, table, category, pays_on, pays + exact_roots(curve, 3, rng))


def test_casino_holdem_random_lines_and_pays(holdem):
    _, engine = holdem
    rng = random.Random(2026)
    table = PayTable.load(None)
    for category in rng.sample(CATEGORIES, 4):
        curve = check(engine, table, category, "ante", [0, Fraction(3, 2)])
        pays = [Fraction(rng.randint(0, 3000), rng.randint(1, 30)) for _ in range(3)] + exact_roots(curve, 2, rng)
        check(engine, table, category, "ante", pays)


def test_breakpoints_are_the_curve_and_it_is_concave(holdem):
    _, engine = holdem
    curve = PayCurve(engine, None, "flush", "ante")
    pays, edges = curve.breakpoints(0.0, 10.0)
    assert pays[0] == 0.0 and pays[-1] == 10.0 and np.all(np.diff(pays) > 0) and len(pays) > 100
    for i in np.linspace(0, len(pays) - 1, 5).astype(int):  # the drawn value is the exact one
        assert edges[i] == pytest.approx(float(curve.at(Fraction(float(pays[i]))).house_edge), abs=1e-12)
    slopes = np.diff(edges) / np.diff(pays)
    # the player's return is a maximum of lines in the pay (convex), the house edge its negative
    assert np.all(slopes < 0) and np.all(np.diff(slopes) <= 1e-9)
    assert curve.at(2).house_edge == engine.decide(None).exact.house_edge


def test_the_command_prints_the_breakpoints(holdem, cli):
    """``tune --curve`` on a one-decision game: the curve's breakpoints, as drawn."""
    _, engine = holdem
    rows = cli("tune", "--game", "casino-holdem", "--curve", "flush", "--bounds", "1", "2", "--format", "json").json()
    pays, edges = PayCurve(engine, None, "flush", "ante").breakpoints(1.0, 2.0)
    assert np.allclose([r["flush"] for r in rows], pays, rtol=1e-14, atol=0)
    assert np.allclose([r["house_edge"] for r in rows], edges, rtol=1e-13, atol=0)
    assert len(rows) > 10 and rows[0]["house_edge"] == pytest.approx(
        float(engine.decide(PayTable.load(None).replace(flush=1)).exact.house_edge), abs=1e-13
    )
    bad = cli("tune", "--game", "casino-holdem", "--curve", "five_of_a_kind")
    assert bad.returncode == 2 and "--curve: 'five_of_a_kind' is not a category" in bad.stderr, bad.stderr


def test_bad_input():
    rules = preset("casino-holdem").small_deck("9TJQKA", "cd")
    engine = ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules)
    with pytest.raises(InputError, match="unknown category 'flushes'"):
        PayCurve(engine, None, "flushes")
    with pytest.raises(InputError, match="at least 0"):
        PayCurve(engine, None, "flush").at(-1)
    with pytest.raises(InputError, match="flush pay"):
        PayCurve(engine, None, "flush").at("1e999")


def test_pays_with_a_large_common_denominator(holdem):
    """Another line paying the kind of fraction an exact solve returns: the margins' scale
    leaves 64 bits, and the curve says so (the panel then sweeps the pay with engine passes)."""
    _, engine = holdem
    table = PayTable.load(None).replace(straight=Fraction(72254351620246, 47694931276919))
    with pytest.raises(InputError, match="too large a common denominator"):
        PayCurve(engine, table, "flush")
    sweeps = Sweeps(3)
    frame = sweeps.frame(engine, table, "flush", 8.0, "optimal", "ante", lambda: False)
    assert frame["flush"].tolist() == [0, 4, 8]
    for pay, edge in zip(frame["flush"], frame["house_edge"]):
        want = engine.decide(table.replace(flush=Fraction(pay).limit_denominator(100)))
        assert edge == pytest.approx(float(want.exact.house_edge), abs=1e-12)
    assert sweeps.result(engine.rules, table, "flush", "ante") is None  # no curve: the panel plays the table
