"""The exact one-card exposure kernel against a brute force on small decks: every state's
40 counts, and every group sum the figures are made of."""

import numpy as np
import pytest

from analysis.counting.enumeration import count_flops, plan, prepare
from analysis.engine.return_engine import ReturnEngine
from analysis.hands.classes import hand_profile
from analysis.model.errors import InputError
from analysis.model.payoffs import margin_coefficients
from analysis.model.paytable import PayTable
from analysis.model.rules import preset
from analysis.protection.exposure import (
    GROUP_SHAPE,
    HOLDING_GROUPS,
    ExposedGame,
    ExposureJob,
    ExposureSums,
    count_exposed,
    holding_groups,
)
from analysis.strategy.simple import derive_simple_strategy
from brute_force import brute_force_exposed

FAST_DECKS = [
    ("casino-omaha", "89TJQKA", "cd"),  # flushes, straights, 2 suits
    ("casino-holdem", "A2345", "cdh"),  # wheels, 3 suits
    ("casino-holdem", "9TJQKA", "cd"),
]
SLOW_DECKS = [
    ("casino-omaha", "A2345", "cdh"),  # straight-flush wheels, S3 symmetry
    ("casino-omaha", "2345", "cdhs"),  # full S4 symmetry, quads
]


def kernel_margins(rules, coef, base=0):
    """The kernel's margin of every canonical state (holding row x card e), and the rows."""
    p = prepare(rules, plan(rules))
    out = np.zeros((len(p.holdings), 52), np.int64)
    count_exposed(p, np.zeros(len(p.holdings), np.int32), 1, coef, base, out, threads=2)
    return p, out


def kernel_counts(rules):
    """Every canonical state's 40 counts, read back from the margins: with coefficients
    2^(b j) on a few columns at a time (b bits hold any count), a margin is those columns'
    counts in base 2^b."""
    bits = ExposedGame(rules).completions.bit_length()
    per = 62 // bits
    counts = None
    for first in range(0, 40, per):
        coef = np.zeros(40, np.int64)
        coef[first : first + per] = 2 ** (bits * np.arange(min(per, 40 - first)))
        p, m = kernel_margins(rules, coef)
        if counts is None:
            counts = np.zeros(m.shape + (40,), np.int64)
        for j in range(first, min(first + per, 40)):
            counts[:, :, j] = (m >> (bits * (j - first))) & ((1 << bits) - 1)
    return p, counts


def check_counts(game, ranks, suits):
    rules = preset(game).small_deck(ranks, suits)
    p, counts = kernel_counts(rules)
    reference = brute_force_exposed(rules, [fc.cards for fc in plan(rules)])
    flops = np.repeat(p.flop_cards, np.diff(p.hold_offsets), axis=0)
    for row, (flop, hole) in enumerate(zip(flops, p.holdings)):
        f, h = tuple(int(c) for c in flop), tuple(int(c) for c in hole)
        for e in rules.deck:
            if e in f or e in h:
                continue
            np.testing.assert_array_equal(counts[row, e], reference[(f, h, e)], err_msg=f"{f} {h} {e}")
    exposed = ExposedGame(rules)
    assert all(int(v.sum()) == exposed.completions for v in reference.values())
    assert int(p.weights.sum()) * exposed.seen_choices == exposed.states


@pytest.mark.parametrize("game, ranks, suits", FAST_DECKS)
def test_every_state_counts_like_the_brute_force(game, ranks, suits):
    check_counts(game, ranks, suits)


@pytest.mark.slow
@pytest.mark.parametrize("game, ranks, suits", SLOW_DECKS)
def test_every_state_counts_like_the_brute_force_slow(game, ranks, suits):
    check_counts(game, ranks, suits)


def expected_sums(rules, job, reference):
    """The group sums of the exposure run, from brute-force counts of the canonical states."""
    coef, base, _ = job.coefficients()
    p = prepare(rules, plan(rules))
    flops = np.repeat(p.flop_cards, np.diff(p.hold_offsets), axis=0)
    groups = holding_groups(rules, p.holdings, flops, job.simple)
    states = np.zeros(GROUP_SHAPE, np.int64)
    margins = np.zeros(GROUP_SHAPE, dtype=object)
    called = np.zeros(40, np.int64)
    for row, (flop, hole) in enumerate(zip(flops, p.holdings)):
        f, h = tuple(int(c) for c in flop), tuple(int(c) for c in hole)
        seen = {e: reference[(f, h, e)] for e in rules.deck if e not in f and e not in h}
        margin = {e: base + int(np.dot(coef, c)) for e, c in seen.items()}
        basic = int(sum(margin.values()) > 0)
        for e, c in seen.items():
            rank = e >> 2
            relation = 1 if rank in {x >> 2 for x in f} else 2 if rank in {x >> 2 for x in h} else 0
            call = int(margin[e] > 0)
            key = (groups[row], basic, 3 * rank + relation, call)
            states[key] += p.weights[row]
            margins[key] += int(p.weights[row]) * margin[e]
            if call:
                called += p.weights[row] * c
    return states, margins, called


@pytest.mark.parametrize("game, ranks, suits", FAST_DECKS[1:])
@pytest.mark.parametrize("paytable, pays_on", [("antewin", "ante"), ("madrid", "call")])
def test_group_sums_match_the_brute_force(game, ranks, suits, paytable, pays_on):
    rules = preset(game).small_deck(ranks, suits)
    engine = ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules)
    table = PayTable.load(paytable)
    job = ExposureJob(rules, table, pays_on, derive_simple_strategy(engine, table, pays_on))
    sums = job.run(plan(rules), threads=2)
    states, margins, called = expected_sums(rules, job, brute_force_exposed(rules, [fc.cards for fc in plan(rules)]))
    np.testing.assert_array_equal(sums.states.astype(np.int64), states)
    assert (sums.margins == margins).all()
    np.testing.assert_array_equal(sums.called.astype(np.int64), called)
    assert int(sums.states.sum()) == ExposedGame(rules).states
    # the shards add up to the whole, in any order, and survive JSON
    classes = plan(rules)
    parts = [job.run(classes[i::3], threads=1) for i in (2, 0, 1)]
    total = ExposureSums.zero()
    for part in parts:
        total = total + ExposureSums.from_json(part.to_json())
    assert total.digest() == sums.digest()


def test_holding_groups_are_hand_class_and_simple_decision():
    rules = preset("casino-holdem").small_deck("9TJQKA", "cd")
    engine = ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules)
    simple = derive_simple_strategy(engine, PayTable.load(None), "ante")
    hole, flop = engine.cards()
    groups = holding_groups(rules, hole, flop, simple)
    profile = hand_profile(rules, hole, flop)
    assert groups.max() < HOLDING_GROUPS
    np.testing.assert_array_equal(groups // 2, profile.hand_class)
    np.testing.assert_array_equal(groups % 2, simple.decide(profile))


def test_huge_pay_denominators_are_refused_with_a_clear_error():
    rules = preset("casino-omaha")
    table = PayTable.load(None).replace(flush="2000000000001/1000000000000")
    job = ExposureJob(rules, table, "ante", None)
    with pytest.raises(InputError, match="too large for the exposure kernel"):
        job.coefficients()
    coef, base, d = margin_coefficients(PayTable.load(None), rules, "ante", ExposedGame(rules).completions)
    assert d == 1 and base == ExposedGame(rules).completions == 990 * 903
