"""Player hand x dealer hand counts of a game without a board, against every deal of small
decks played out one by one."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import numpy as np
import pytest

from analysis.counting.no_board import count_no_board
from analysis.counting.symmetry import canonical_codes, suit_permutations
from analysis.hands.three_card import high_card_floor, three_card_values
from analysis.model.cards import RANKS, SUITS


def deck(ranks: str, suits: str) -> list[int]:
    return [RANKS.index(r) * 4 + SUITS.index(s) for r in ranks for s in suits]


def brute_counts(cards: list[int], floor: int) -> tuple[np.ndarray, np.ndarray]:
    """Every player hand against every dealer hand that misses it: the six results of each."""
    hands = np.array(list(combinations(cards, 3)))
    values = three_card_values(hands)
    masks = np.array([sum(1 << c for c in h) for h in hands.tolist()], dtype=object)
    out = np.zeros((len(hands), 6), dtype=np.int64)
    for i, (mask, v) in enumerate(zip(masks.tolist(), values.tolist())):
        for other, d in zip(masks.tolist(), values.tolist()):
            if mask & other:
                continue
            sign = 0 if v > d else 1 if v == d else 2
            out[i, sign + (3 if d >= floor else 0)] += 1
    return hands, out


@pytest.mark.parametrize(
    "ranks, suits, floor",
    [("23KQA", "cdh", high_card_floor(12)), ("2345A", "cd", high_card_floor(12)), ("9TJQK", "cdhs", 0)],
)
def test_every_count_against_every_deal(ranks, suits, floor):
    cards = deck(ranks, suits)
    hands, brute = brute_counts(cards, floor)
    counted = count_no_board(cards, 3, three_card_values, floor)
    codes = canonical_codes(hands, suit_permutations(sorted({c & 3 for c in cards})))
    rep_codes = canonical_codes(counted.hands, suit_permutations(sorted({c & 3 for c in cards})))
    assert len(set(codes.tolist())) == len(counted.hands)
    for code, weight, row in zip(rep_codes.tolist(), counted.weight.tolist(), counted.counts):
        members = brute[codes == code]
        assert len(members) == weight
        assert (members == row).all()  # every hand of the class counts the same, as counted
    assert counted.deals == brute.sum()
    assert brute[:, :3].sum() > 0 if floor else brute[:, :3].sum() == 0  # the qualifier met both ways
    assert brute[:, 3:].sum() > 0


def test_full_deck_adds_up_to_every_deal():
    counted = count_no_board(range(52), 3, three_card_values, high_card_floor(10))
    assert counted.dealer_hands == 18_424
    assert int(counted.weight.sum()) == 22_100
    assert int((counted.weight[:, None] * counted.counts).sum()) == 22_100 * 18_424
    # a dealer hand does not depend on the player's: each of the 22,100 hands is the dealer's
    # in 18,424 deals, so the deals the dealer fails to qualify are his non-qualifying hands
    # times 18,424 (hands below queen high: 4-3-2 .. J-T-8, not straights or flushes)
    low = three_card_values(np.array(list(combinations(range(52), 3)))) < high_card_floor(10)
    nq = int((counted.weight[:, None] * counted.counts[:, :3]).sum())
    assert nq == int(low.sum()) * 18_424


def test_the_counts_are_kept_read_back_and_a_lost_shard_counted_again(tmp_path, monkeypatch):
    """A game's counts go to a store a chunk at a time: the same counts as counted here, read
    back without counting, a lost or damaged shard counted again (only that one), and a
    shard of another shape refused by name."""
    import analysis.store.no_board_runs as runs
    from analysis.engine.no_board import no_board_counts, solve_no_board
    from analysis.hands.rankings import RANKINGS
    from analysis.model.errors import InputError
    from analysis.model.game import load_game
    from analysis.parallel.options import RunOptions

    game = load_game("caribbean-stud")
    game = replace(game, rules=game.rules.small_deck("9TJQKA", "cdh"))
    options = RunOptions(root=tmp_path, progress=False)
    monkeypatch.setattr(runs, "CHUNK", 5_000)  # several shards
    kept = no_board_counts(game, options=options)
    five = RANKINGS["five-card"]
    fresh = count_no_board(game.rules.deck, 5, five.values, five.floor((12, 11)), 1, dealer_hole=5)
    for name in ("hands", "weight", "value", "counts", "seen"):
        assert np.array_equal(getattr(kept, name), getattr(fresh, name)), name
    assert kept.dealer_hands == fresh.dealer_hands
    shards = sorted((tmp_path / "no-board").glob("no-board-*/shard-*.npz"))
    assert len(shards) > 2
    counted = []

    def chunks(*args, only, **kwargs):
        counted.append(list(only))
        return no_board_chunks(*args, only=only, **kwargs)

    no_board_chunks = runs.no_board_chunks
    monkeypatch.setattr(runs, "no_board_chunks", chunks)
    assert solve_no_board(game, options=options).exact == solve_no_board(game, counted=fresh).exact
    assert counted == []  # read back
    shards[1].unlink()
    shards[2].write_bytes(shards[2].read_bytes()[:-10] + b"0123456789")  # damaged: its checksum fails
    again = no_board_counts(game, options=options)
    assert counted == [[1, 2]] and np.array_equal(again.counts, fresh.counts)
    arrays = dict(np.load(shards[0]))
    arrays["counts"] = arrays["counts"][:, :5]
    monkeypatch.setattr(runs.ArrayResults, "read_arrays", lambda self, i: arrays)
    with pytest.raises(InputError, match="holds counts of another shape"):
        no_board_counts(game, options=options)
