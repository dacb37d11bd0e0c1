"""The enumerator against a naive brute force on small decks, every state and every count."""

from dataclasses import replace

import numpy as np
import pytest

from analysis.counting.enumeration import board_results, count_flops, count_state, plan, prepare, run
from analysis.counting.symmetry import canonical_states
from analysis.model.outcomes import state_keys
from analysis.model.rules import preset
from brute_force import brute_force

FAST_DECKS = [
    ("casino-omaha", "89TJQKA", "cd"),  # flushes, straights, royal flushes, 2 suits
    ("casino-holdem", "A2345", "cdh"),  # wheel straights, 3 suits
    ("casino-holdem", "9TJQKA", "cd"),
]
SLOW_DECKS = [
    ("casino-omaha", "A2345", "cdh"),  # straight flush wheels, S3 symmetry
    ("casino-omaha", "2345", "cdhs"),  # full S4 symmetry: quads, full houses
    ("casino-holdem", "2345", "cdhs"),
]


def check_against_brute_force(game, ranks, suits, **changes):
    rules = replace(preset(game).small_deck(ranks, suits), **changes)
    sc = count_flops(rules, plan(rules), threads=2)
    reference = brute_force(rules)
    assert len(reference) == rules.states
    # every real state maps to its canonical row, and has exactly that row's counts
    flops = np.array([s[0] for s in reference])
    holes = np.array([s[1] for s in reference])
    wanted = state_keys(*canonical_states(holes, flops, rules.suits))
    keys = sc.keys
    assert np.all(np.diff(keys) > 0), "rows must come in key order"
    idx = np.searchsorted(keys, wanted)
    np.testing.assert_array_equal(keys[idx], wanted)
    np.testing.assert_array_equal(sc.counts[idx].astype(np.int64), np.array(list(reference.values())))
    # weights: each row stands for exactly the states that map to it
    np.testing.assert_array_equal(np.bincount(idx, minlength=len(sc)), sc.weight)
    assert (sc.counts.sum(axis=1) == rules.completions).all()
    # every deal of the deck is counted once: the brute force's deals are the closed form
    assert int(np.array(list(reference.values())).sum()) == rules.total_combinations
    return rules, sc


@pytest.mark.parametrize("game, ranks, suits", FAST_DECKS)
def test_small_deck_matches_brute_force(game, ranks, suits):
    check_against_brute_force(game, ranks, suits)


@pytest.mark.slow
@pytest.mark.parametrize("game, ranks, suits", SLOW_DECKS)
def test_small_deck_matches_brute_force_slow(game, ranks, suits):
    check_against_brute_force(game, ranks, suits)


#: (deck, qualifier rank) pairs; None (qualifier strength 0) means every dealer hand qualifies
QUALIFIER_CASES = [
    pytest.param(
        *deck, q, id=f"{deck[0]}-{name}", marks=[pytest.mark.slow] if deck[0] == "casino-omaha" and slow else []
    )
    for deck in (FAST_DECKS[0], FAST_DECKS[2])
    for q, name, slow in ((None, "none", False), (0, "2s", True), (8, "Ts", False), (12, "As", True))
]


@pytest.mark.parametrize("game, ranks, suits, qualifier", QUALIFIER_CASES)
def test_every_qualifier_matches_brute_force(game, ranks, suits, qualifier):
    rules, sc = check_against_brute_force(game, ranks, suits, qualifier_rank=qualifier)
    noqual = sc.counts[:, 0::4].astype(np.int64).sum()
    if rules.omaha:  # every Omaha hand of this deck holds a pair; every Hold'em hand two pair or better
        assert (noqual == 0) == (qualifier is None or qualifier <= min(rules.ranks))


@pytest.mark.parametrize("game", ["casino-omaha", "casino-holdem"])
def test_same_counts_for_any_number_of_threads_and_flop_order(game):
    rules = preset(game)
    classes = plan(rules)
    chosen = [classes[i] for i in (0, 7, 400, 901, 1500, 1754)]
    one = count_flops(rules, chosen, threads=1)
    two = count_flops(rules, chosen, threads=2)
    backwards = count_flops(rules, chosen[::-1], threads=2)
    np.testing.assert_array_equal(one.counts, two.counts)
    order = np.argsort(backwards.keys)
    np.testing.assert_array_equal(one.counts, backwards.counts[order])
    assert (one.counts.sum(axis=1) == rules.completions).all()


@pytest.mark.parametrize("game", ["casino-omaha", "casino-holdem"])
def test_board_results_count_as_each_orbit_computed_on_its_own(game):
    # the full deck: boards read from the table of every board's suit-isomorphism class (and
    # summed by class) against the kernel computing each orbit's boards and adding holding by
    # holding, on flops with and without suit symmetry
    rules = preset(game)
    classes = plan(rules)
    chosen = [classes[i] for i in (0, 3, 400, 1200, 1754)]
    boards = board_results(rules, threads=2)
    assert boards.boards == 134_459  # 5-card boards of 52 cards up to suit permutations
    prepared = prepare(rules, chosen)
    with_table, computed = run(prepared, 2, boards), run(prepared, 2)
    np.testing.assert_array_equal(with_table.counts, computed.counts)
    assert (with_table.counts.sum(axis=1) == rules.completions).all()
    other = preset("casino-holdem" if game == "casino-omaha" else "casino-omaha")
    with pytest.raises(ValueError, match="another game's"):
        run(prepare(other, plan(other)[:1]), 1, boards)


def test_single_state_matches_its_row():
    rules = preset("casino-omaha").small_deck("89TJQKA", "cd")
    sc = count_flops(rules, plan(rules)[:5])
    for i in (0, 17, len(sc) - 1):
        np.testing.assert_array_equal(count_state(rules, sc.hole[i], sc.flop[i]), sc.counts[i])


def test_single_state_rejects_bad_states():
    rules = preset("casino-omaha")
    with pytest.raises(ValueError, match="3 hole cards and 3 flop cards"):
        count_state(rules, [0, 1], [2, 3, 4])
    with pytest.raises(ValueError, match="all different"):
        count_state(rules, [0, 1, 2], [2, 3, 4])
    small = rules.small_deck("89TJQKA", "cd")
    with pytest.raises(ValueError, match="not in the game's deck"):
        count_state(small, [0, 1, 2], [3, 4, 5])


def test_closed_form_totals():
    # the deals of the README (player, flop, turn and river, dealer) and of Casino Hold'em
    assert preset("casino-omaha").total_combinations == 5_581_304_544_816_000
    assert preset("casino-holdem").total_combinations == 27_813_810_024_000
    classes = plan(preset("casino-omaha"))
    assert len(classes) == 1755 and sum(c.multiplicity for c in classes) == 22_100


@pytest.mark.parametrize("threads", [0, -1, 100_000, 2.5, True])
def test_bad_thread_counts_are_refused_before_any_kernel_runs(threads):
    from analysis.omaha4.equity import compute_equity

    rules = preset("casino-omaha").small_deck("89TJQKA", "cd")
    with pytest.raises(ValueError, match="threads must be a whole number from 1 to 256"):
        count_flops(rules, plan(rules)[:1], threads=threads)
    with pytest.raises(ValueError, match="threads must be a whole number from 1 to 256"):
        compute_equity(["As Ah Ks Kh", "7c 8d 9c Td"], board="Tc 9d 2c", threads=threads)
