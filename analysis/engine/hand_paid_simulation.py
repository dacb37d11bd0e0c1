"""Sampled deals of a game without a dealer, played by the exact strategy and settled by
code of their own: the five cards classified here from their ranks and suits (not by the
package's evaluator) and paid from the game file's lines, so an error in the counts, the
pay lines or the backward induction shows up as a mean several standard errors from the
exact one.
"""

from __future__ import annotations

import numpy as np

from analysis.engine.hand_paid import HandPaidFigures
from analysis.engine.no_board_simulation import CHUNK, SampledResult
from analysis.model.categories import CATEGORIES


def sample_hand_paid(figures: HandPaidFigures, hands: int, seed: int = 0) -> SampledResult:
    """``hands`` deals of the game, each played by the figures' strategy, net per hand in units."""
    hp = figures.hand_paid
    deck = np.array(figures.game.rules.deck, dtype=np.int64)
    rng = np.random.default_rng(seed)
    total = total2 = 0.0
    done = 0
    while done < hands:
        n = min(CHUNK, hands - done)
        cards = deck[np.argpartition(rng.random((n, len(deck))), 5, axis=1)[:, :5]]
        units = np.full(n, hp.start, dtype=np.int64)
        folded = np.zeros(n, dtype=bool)
        for j, seen in enumerate(hp.seen):
            moves = hp.options(j)
            live = ~folded
            taken = figures.choices(j, np.sort(cards[live, :seen], axis=1), units[live])
            change = np.array([m.change for m in moves], dtype=np.int64)[taken]
            fold = np.array([m.kind == "fold" for m in moves])[taken]
            units[live] += np.where(fold, 0, change)
            folded[np.flatnonzero(live)[fold]] = True
        pays = np.array([float(p.net) for p in hp.lines] + [-1.0])[line_index(cards, figures)]
        net = np.where(folded, -units, units * pays)
        total += float(net.sum())
        total2 += float((net * net).sum())
        done += n
    mean = total / hands
    return SampledResult(hands, mean, float(np.sqrt((total2 / hands - mean * mean) / hands)))


def line_index(cards: np.ndarray, figures: HandPaidFigures) -> np.ndarray:
    """The pay line of each row of five cards (``len(lines)``: none), from ranks and suits."""
    hp = figures.hand_paid
    ranks, suits = np.sort(cards >> 2, axis=1), cards & 3
    counts = np.stack([(ranks == r).sum(axis=1) for r in range(13)], axis=1)
    most = np.sort(counts, axis=1)[:, ::-1]
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = most[:, 0] == 1
    wheel = (ranks == np.array([0, 1, 2, 3, 12])).all(axis=1)
    straight = distinct & ((ranks[:, 4] - ranks[:, 0] == 4) | wheel)
    names = np.select(
        [
            straight & flush & (ranks[:, 0] == 8),
            straight & flush,
            most[:, 0] == 4,
            (most[:, 0] == 3) & (most[:, 1] == 2),
            flush,
            straight,
            most[:, 0] == 3,
            (most[:, 0] == 2) & (most[:, 1] == 2),
            most[:, 0] == 2,
        ],
        [9, 8, 7, 6, 5, 4, 3, 2, 1],
        0,
    )
    if not any(line.category == "royal_flush" for line in hp.lines):  # paid as a straight flush
        names[names == 9] = 8
    pair_rank = np.argmax(counts == 2, axis=1)
    out = np.full(len(cards), len(hp.lines), dtype=np.int64)
    for i, line in reversed(list(enumerate(hp.lines))):
        hit = names == CATEGORIES.index(line.category)
        if line.category == "pair":
            hit &= (pair_rank >= line.low) & (pair_rank <= line.high)
        out[hit] = i
    return out
