"""Final-hand category counts: brute force on small decks, every holding of full-deck boards,
the board grouping, the closed-form totals, the Casino Omaha outcome store, pay tables."""

import json
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest

from analysis.hands.lookup import tables
from analysis.model.cards import parse_cards
from analysis.model.categories import CATEGORIES
from analysis.model.paytable import PayTable
from analysis.omaha4.distribution import (
    MADRID_PAYTABLE,
    board_groups,
    board_keys,
    category_counts_per_board,
    deck_cards,
    final_hand_counts,
    final_hand_distribution,
    paytable_return,
    total_deals,
)
from analysis.omaha4.evaluators import omaha_high


def brute_force_counts(k: int, deck: list[int]) -> list[int]:
    """Every (board, holding) of the deck evaluated with the batch evaluator."""
    counts = np.zeros(len(CATEGORIES), dtype=np.int64)
    holding_index = np.array(list(combinations(range(len(deck) - 5), k)))
    for board in combinations(deck, 5):
        rest = np.array([c for c in deck if c not in board], dtype=np.int8)
        holds = np.ascontiguousarray(rest[holding_index])
        values = omaha_high(holds, np.tile(np.int8(board), (len(holds), 1)), hole_cards=k)
        counts += np.bincount(tables().category[values], minlength=len(CATEGORIES))
    return [int(c) for c in counts]


@pytest.mark.parametrize(
    "k, ranks, suits", [(4, "A2345", "cdh"), (4, "9TJQKA", "cdh"), (3, "TJQKA", "cdhs"), (3, "A23456", "cdh")]
)
def test_small_decks_equal_brute_force(k, ranks, suits):
    counts = final_hand_counts(k, ranks, suits)
    assert counts == brute_force_counts(k, deck_cards(ranks, suits))
    assert sum(counts) == total_deals(k, len(ranks) * len(suits))


@pytest.mark.parametrize("k", [3, 4])
def test_full_deck_boards_equal_every_holding(k):
    named = ["2h 3h 4h 5h 6h", "Ah Ad As Kc Kd", "2c 7d 9h Jc Qs", "Th Jh Qh 2h 2c", "5s 6s 7s 8d 9d", "Ac 2c 3d 4d 5h"]
    rng = np.random.default_rng(k)
    boards = [parse_cards(b) for b in named] + [list(rng.permutation(52)[:5]) for _ in range(4)]
    per_board = category_counts_per_board(np.array(boards), k)
    for board, counts in zip(boards, per_board):
        rest = np.array([c for c in range(52) if c not in board], dtype=np.int8)
        holds = np.ascontiguousarray(rest[np.array(list(combinations(range(47), k)))])
        values = omaha_high(holds, np.tile(np.int8(board), (len(holds), 1)), hole_cards=k)
        assert list(counts) == list(np.bincount(tables().category[values], minlength=len(CATEGORIES)))
    assert per_board[0][CATEGORIES.index("straight_flush")] > 0


def test_boards_of_one_group_count_alike():
    """The grouping claim on the full deck: random boards count as their group's representative."""
    representatives, sizes = board_groups(deck_cards())
    assert sizes.sum() == comb(52, 5) and len(np.unique(board_keys(representatives))) == len(representatives)
    rep_of = dict(zip(board_keys(representatives).tolist(), range(len(representatives))))
    rng = np.random.default_rng(5)
    boards = np.array([rng.permutation(52)[:5] for _ in range(300)], dtype=np.int8)
    flushy = np.array(
        [[s + 4 * r for r in rng.permutation(13)[:3]] + list(rng.permutation(52)[:2]) for s in rng.integers(0, 4, 300)],
        dtype=np.int8,
    )
    flushy = flushy[[len(set(b)) == 5 for b in flushy]]
    for sample in (boards, flushy):
        reps = representatives[[rep_of[key] for key in board_keys(sample).tolist()]]
        for k in (3, 4):
            np.testing.assert_array_equal(category_counts_per_board(sample, k), category_counts_per_board(reps, k))


@pytest.mark.parametrize("k", [3, 4])
def test_full_deck_totals_are_the_closed_forms(k):
    counts = final_hand_counts(k)
    assert sum(counts) == comb(52, k) * comb(52 - k, 5) == total_deals(k)
    assert all(c > 0 for c in counts)
    df = final_hand_distribution(k).frame()
    assert list(df["category"]) == list(reversed(CATEGORIES))
    assert df["probability_exact"].sum() == 1
    # four cards give more chances than three, for every category above two pair
    if k == 4:
        three = final_hand_distribution(3).frame().set_index("category")["probability_exact"]
        four = df.set_index("category")["probability_exact"]
        for c in CATEGORIES[CATEGORIES.index("two_pair") :]:
            assert four[c] > three[c], c


@pytest.mark.slow
def test_three_card_counts_equal_the_casino_omaha_store(omaha):
    """Independent of the store's enumerator: the store counts each (hole, board) deal once per
    choice of the 3 flop cards among the 5 and per dealer holding."""
    rules, engine = omaha
    totals = engine.column_sums()  # deals of the whole game by (dealer result, final category)
    per_category = [sum(n for (_, category), n in totals.items() if category == c) for c in CATEGORIES]
    assert per_category == [c * comb(5, 3) * rules.dealer_holdings for c in final_hand_counts(3)]


def test_paytable_return_conventions():
    dist = final_hand_distribution(4)
    flat = paytable_return(dist, {c: 1 for c in CATEGORIES})
    assert flat.expected_pay == 1 and flat.expected_return == 2
    only_pairs = paytable_return(dist, {c: int(c == "pair") for c in CATEGORIES})
    assert only_pairs.expected_pay == Fraction(final_hand_counts(4)[CATEGORIES.index("pair")], total_deals(4))
    madrid = paytable_return(dist, MADRID_PAYTABLE)
    pays = PayTable.load(MADRID_PAYTABLE).pays
    expected = sum(Fraction(n * pays[c], total_deals(4)) for c, n in zip(CATEGORIES, final_hand_counts(4)))
    assert madrid.expected_pay == expected == madrid.frame()["contribution_exact"].sum()
    assert madrid.expected_return == 1 + expected


def test_cli_final_hands(cli):
    out = cli("final-hands", "--hole-cards", "3", "--format", "json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["total_deals"] == total_deals(3) and data["paytable"] == "madrid"
    counts = {row["category"]: row["combinations"] for row in data["categories"]}
    assert [counts[c] for c in CATEGORIES] == final_hand_counts(3)
    assert (
        Fraction(data["expected_pay_fraction"])
        == paytable_return(final_hand_distribution(3), MADRID_PAYTABLE).expected_pay
    )
    table = cli("final-hands", "--hole-cards", "4")
    assert table.returncode == 0 and "463,563,500,400 deals" in table.stdout and "expected return" in table.stdout
    bad = cli("final-hands", "--paytable", "/no/such.csv")
    assert bad.returncode == 2 and "cannot read the pay table" in bad.stderr


def test_bad_arguments():
    with pytest.raises(ValueError, match="3 .* or 4"):
        final_hand_counts(5)
    with pytest.raises(ValueError, match="unknown rank 'Z'"):
        deck_cards("AZ")
    with pytest.raises(ValueError, match="too small"):
        final_hand_counts(4, "A2", "cd")
