"""Exact counts of a game without a board (Three Card Poker, Caribbean Stud, Four Card
Poker): player hand x dealer hand (of as many cards, or more: Four Card Poker's six against
five), the dealer's cards seen before the decision (his up card) part of the state.

For each state (a player hand, one per suit-symmetry class in the order of their
:func:`~analysis.counting.symmetry.orbit_keys`, with each card the dealer may show) the
dealer hands that hold the seen cards and miss the player's, by result (the street engine's
six: the dealer does not qualify / qualifies, each against the player's hand: below, equal,
above). The compiled core (``ext/no_board.pyx``) files every hand of the deck under each
subset of its cards in increasing value and counts each state by inclusion-exclusion over
the player's cards, one binary search per subset.

>>> from analysis.hands.three_card import three_card_values
>>> c = count_no_board(range(52), 3, three_card_values, floor=10 * 169)
>>> len(c.hands), int(c.weight.sum()), c.deals == 22100 * 18424
(1755, 22100, True)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

import numpy as np

import analysis._no_board as _no_board
from analysis.counting.symmetry import orbit_keys
from analysis.model.errors import InputError
from analysis.model.outcomes import BINOM
from analysis.parallel.threads import check_threads

#: The most states (hand classes x the dealer's cards seen) counted at once: Caribbean Stud's
#: 6,319,573 with one card seen; two seen would be 145 million.
MAX_STATES = 20_000_000
#: The subsets of the fewest cards are kept as cumulative counts by value rather than runs
#: (theirs are the long runs: two cards are in 19,600 five-card hands, three in 1,176), as
#: many sizes as fit in this many bytes: Caribbean Stud's subsets of 0 to 2 cards (41 MB),
#: Four Card Poker's of 0 to 3 (0.2 GB: three cards are in 18,424 six-card hands) ...
DENSE_BYTES = 1 << 28
#: ... and whose runs are at least this long (a look-up beats a binary search of a few steps).
DENSE_RUN = 32


@dataclass(frozen=True)
class NoBoardCounts:
    """Per state (a player hand, one per suit class, standing for ``weight`` hands, and the
    dealer's ``seen`` cards): the player's cards, his hand's value and the dealer hands of
    each result (the six results), which add up to ``dealer_hands``, the dealer's hands of
    the cards neither seen nor held."""

    hands: np.ndarray  # states x cards
    weight: np.ndarray  # states
    value: np.ndarray  # states
    counts: np.ndarray  # states x 6, in the order of analysis.counting.streets.RESULTS6
    dealer_hands: int
    seen: np.ndarray  # states x the dealer's cards seen (no columns: none is seen)

    @property
    def deals(self) -> int:
        """Every (player hand, dealer hand) deal of the deck."""
        return int(self.weight.sum()) * self.dealer_hands


def count_no_board(
    deck: Iterable[int],
    hole: int,
    values_of: Callable[[np.ndarray], np.ndarray],
    floor: int,
    seen: int = 0,
    threads: int | None = None,
    dealer_hole: int | None = None,
) -> NoBoardCounts:
    """Counts of every player hand of ``hole`` cards of ``deck`` against every dealer hand
    of ``dealer_hole`` (None: as many) of the other cards, ``seen`` of which are shown before
    the decision; ``values_of`` values rows of cards of either size (bigger is better), and
    the dealer qualifies with a value of at least ``floor``. At most :data:`MAX_STATES`
    states (:func:`no_board_chunks` takes any number, a chunk at a time)."""
    return next(no_board_chunks(deck, hole, values_of, floor, seen, threads, dealer_hole, MAX_STATES, True))


def no_board_chunks(
    deck: Iterable[int],
    hole: int,
    values_of: Callable[[np.ndarray], np.ndarray],
    floor: int,
    seen: int = 0,
    threads: int | None = None,
    dealer_hole: int | None = None,
    chunk: int = MAX_STATES,
    whole: bool = False,
    only: Collection[int] | None = None,
) -> Iterator[NoBoardCounts]:
    """:func:`count_no_board`'s counts, the classes in order, in chunks of at most ``chunk``
    states (a class's states in one chunk: :func:`chunk_classes` classes each), the deck's
    dealer hands filed once for all; ``whole``: in one chunk, or an error naming the
    states; ``only``: the chunks (by index) to count, the others passed over (a run that
    resumes)."""
    cards = sorted(set(deck))
    dealer_hole = hole if dealer_hole is None else dealer_hole
    if not 0 <= seen <= 2 or not 1 <= hole <= 6 or not 1 <= dealer_hole <= 6 or seen > dealer_hole:
        raise ValueError(
            f"hands of 1 to 6 cards with up to two of the dealer's seen, not {hole}, {dealer_hole}, {seen}"
        )
    if hole + dealer_hole > len(cards):
        raise ValueError(f"{hole} and {dealer_hole} cards are more than a deck of {len(cards)}")
    hands = np.array(list(combinations(cards, hole)), dtype=np.int8)
    values = np.asarray(values_of(hands), dtype=np.int64)
    dealers = hands if dealer_hole == hole else card_sets(cards, dealer_hole)
    dealer_values = values if dealer_hole == hole else np.asarray(values_of(dealers), dtype=np.int64)
    levels = np.unique(np.concatenate([values, dealer_values]))
    if len(levels) > 65_535:
        raise ValueError("more hand values than the core's 16-bit runs hold")
    dense = np.searchsorted(levels, values).astype(np.uint16)
    dealer_dense = np.searchsorted(levels, dealer_values).astype(np.uint16)
    order = np.argsort(dealer_dense, kind="stable")
    _, first, weights = np.unique(orbit_keys(hands), return_index=True, return_counts=True)
    reps, rep_values, rep_denses = hands[first], values[first], dense[first]
    per = comb(len(cards) - hole, seen)  # each class with each set of cards the dealer may show
    if (whole and len(reps) * per > chunk) or per > chunk:
        raise InputError(
            f"{len(reps) * per:,} states (each of {len(reps):,} classes of hands with {per:,} sets of the dealer's "
            f"cards seen): more than the {chunk:,} counted at once"
        )
    binom = np.ascontiguousarray(BINOM[:, :8])
    ndense = 1  # the subsets of fewer cards than this are kept dense: long runs, within the bytes
    while (
        ndense <= dealer_hole
        and comb(52 - ndense, dealer_hole - ndense) >= DENSE_RUN
        and sum(comb(52, n) for n in range(ndense + 1)) * (len(levels) + 1) * 4 <= DENSE_BYTES
    ):
        ndense += 1
    cumulative = [np.zeros((comb(52, n), len(levels) + 1), dtype=np.int32) for n in range(ndense)]
    offsets = [np.zeros(comb(52, n) + 1 if n >= ndense else 1, dtype=np.int64) for n in range(dealer_hole + 1)]
    runs = [
        np.empty(len(dealers) * comb(dealer_hole, n) if n >= ndense else 0, dtype=np.uint16)
        for n in range(dealer_hole + 1)
    ]
    _no_board.file_by_subset(
        dealers[order], offsets, runs, dealer_dense[order], binom, cumulative, check_threads(threads)
    )
    del order, dealers, dealer_values, dealer_dense, hands, values, dense
    for table in cumulative:  # the entries below each value: 0 .. the number of values
        np.cumsum(table, axis=1, out=table)
    q = int(np.searchsorted(levels, max(floor, 0)))
    dealer_hands = comb(len(cards) - hole - seen, dealer_hole - seen)
    pick = np.array(list(combinations(range(len(cards) - hole), seen)), dtype=np.int64).reshape(per, seen)
    step = chunk_classes(per, chunk)
    for lo in range(0, len(reps), step):
        if only is not None and lo // step not in only:
            continue
        rep, weight = reps[lo : lo + step], weights[lo : lo + step]
        free = np.ones((len(rep), 52), dtype=bool)
        free[:, [c for c in range(52) if c not in cards]] = False
        free[np.arange(len(rep))[:, None], rep] = False
        rest = np.nonzero(free)[1].reshape(len(rep), len(cards) - hole)  # ascending in each row
        up = rest[:, pick].reshape(len(rep) * per, seen).astype(np.int8)  # class-major, sets ascending, in order
        rep = np.repeat(rep, per, 0)
        rep_value, rep_dense = np.repeat(rep_values[lo : lo + step], per), np.repeat(rep_denses[lo : lo + step], per)
        # counted in the order of the seen cards: the states of one up card read one corner of the tables
        by_up = np.lexsort(up.T[::-1]) if seen else np.arange(len(up))
        f = np.empty((len(up), 4), dtype=np.int64)
        f[by_up] = _no_board.count_states(
            np.ascontiguousarray(rep[by_up]),
            np.ascontiguousarray(up[by_up]),
            rep_dense[by_up].astype(np.int32),
            q,
            offsets,
            runs,
            cumulative,
            binom,
            check_threads(threads),
        )
        below_q, below_v, below_v1, every = f.T
        counts = np.stack(
            [
                np.minimum(below_v, below_q),  # not qualifying, player's hand higher
                np.minimum(below_v1, below_q) - np.minimum(below_v, below_q),  # not qualifying, equal
                below_q - np.minimum(below_v1, below_q),  # not qualifying, dealer higher
                np.maximum(below_v, below_q) - below_q,  # qualifying, player higher
                np.maximum(below_v1, below_q) - np.maximum(below_v, below_q),
                every - np.maximum(below_v1, below_q),
            ],
            axis=1,
        )
        if np.any(counts.sum(axis=1) != dealer_hands) or np.any(counts < 0):
            raise AssertionError("no-board counts do not add up to the dealer's hands")
        yield NoBoardCounts(
            rep.astype(np.int64), np.repeat(weight, per).astype(np.int64), rep_value, counts, dealer_hands, up
        )


def chunk_classes(per: int, chunk: int) -> int:
    """Classes of player hands counted in one chunk of at most ``chunk`` states, ``per``
    states a class (each set of the dealer's cards seen)."""
    return max(chunk // per, 1)


def card_sets(cards: Sequence[int], k: int) -> np.ndarray:
    """Every set of ``k`` of ``cards`` (ascending), a row each, ascending in each row, in colex
    order: the sets whose highest card is the i-th are the (k-1)-sets of the cards below it
    with it added, so the rows are built a block per highest card, not a tuple at a time."""
    deck = np.asarray(sorted(cards), dtype=np.int8)
    if not 1 <= k <= len(deck):
        raise ValueError(f"sets of 1 to {len(deck)} cards, not {k}")
    rows = deck[:, None]
    for size in range(2, k + 1):
        rows = np.vstack(
            [
                np.hstack([rows[: comb(top, size - 1)], np.full((comb(top, size - 1), 1), deck[top], dtype=np.int8)])
                for top in range(size - 1, len(deck))
            ]
        )
    return np.ascontiguousarray(rows)


def count_state(
    deck: Iterable[int],
    hand: Sequence[int],
    seen: Sequence[int],
    values_of: Callable[[np.ndarray], np.ndarray],
    floor: int,
    dealer_hole: int | None = None,
) -> np.ndarray:
    """The six counts of one state (the player's ``hand``, the dealer's ``seen`` cards), every
    dealer hand (of ``dealer_hole`` cards; None: as many as the player's) played out one by
    one: the check of :func:`count_no_board` on any state, and one decision's counts in
    milliseconds (163,185 dealer hands of Caribbean Stud)."""
    rest = sorted(set(deck) - set(hand) - set(seen))
    hole = len(hand) if dealer_hole is None else dealer_hole
    others = np.array(list(combinations(rest, hole - len(seen))), dtype=np.int64).reshape(-1, hole - len(seen))
    dealer = np.hstack([np.tile(np.asarray(seen, dtype=np.int64), (len(others), 1)), others])
    mine = int(np.asarray(values_of(np.array([hand], dtype=np.int64)))[0])
    theirs = np.asarray(values_of(dealer), dtype=np.int64)
    result = np.where(theirs < mine, 0, np.where(theirs == mine, 1, 2)) + 3 * (theirs >= floor)
    return np.bincount(result, minlength=6).astype(np.int64)
