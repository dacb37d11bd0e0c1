"""Sampled deals of a game without a board, settled by code of their own: a check of the
exact engine that shares neither its counts nor the settlement module. Each deal's net
result is worked out here from the game file's words (the ante, paid or pushed against a
dealer who does not qualify; the play bet, pushed or in action, even money or its table;
the ante bonus whenever the player plays), so an error in either the counts or the one settlement shows up as a
mean more than a few standard errors from the exact one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import sqrt

import numpy as np

from analysis.hands.rankings import RANKINGS
from analysis.model.errors import InputError
from analysis.model.game import GameSpec
from analysis.model.no_board import NoBoard

#: Deals drawn at a time (bounds memory: one random key per card of the deck per deal).
CHUNK = 100_000


@dataclass(frozen=True)
class SampledResult:
    """The mean net result per hand in antes of ``hands`` sampled deals, and its standard error."""

    hands: int
    mean: float
    standard_error: float

    def within(self, exact: float, errors: float = 4.0) -> bool:
        """Whether an exact expected value lies within ``errors`` standard errors of the mean."""
        return abs(self.mean - exact) <= errors * self.standard_error


def sample_no_board(
    game: GameSpec, plays: Callable[[np.ndarray, np.ndarray], np.ndarray], hands: int, seed: int = 0
) -> SampledResult:
    """``hands`` deals of ``game`` with the play bet of the player's hand given by ``plays``,
    a function from rows of player cards and rows of the dealer's cards he sees (the first
    of the dealer's) to the play bet in antes (0: fold)."""
    nb = _checked(game)
    hole, dealt = nb.hole, nb.hole + nb.dealer_cards
    deck = np.array(game.rules.deck, dtype=np.int64)
    rng = np.random.default_rng(seed)
    total = total2 = 0.0
    done = 0
    while done < hands:
        n = min(CHUNK, hands - done)
        picks = deck[np.argpartition(rng.random((n, len(deck))), dealt, axis=1)[:, :dealt]]
        player, dealer = picks[:, :hole], picks[:, hole:]
        net = deal_nets(game, player, dealer, np.asarray(plays(player, dealer[:, : nb.up]), dtype=np.int64))
        total += float(net.sum())
        total2 += float((net * net).sum())
        done += n
    mean = total / hands
    variance = total2 / hands - mean * mean
    return SampledResult(hands, mean, sqrt(variance / hands))


def deal_nets(game: GameSpec, player: np.ndarray, dealer: np.ndarray, bets: np.ndarray) -> np.ndarray:
    """The net result in antes of each deal (rows of player and dealer cards) with the play
    bet ``bets`` (0: a fold), as the game file words it."""
    nb = _checked(game)
    ranking = RANKINGS[nb.ranking]
    floor = ranking.qualifying(nb.qualifier_ranks, nb.qualifier_category)
    bonus = np.array([float(nb.ante_bonus.get(c, 0)) for c in nb.categories])
    pays = np.array([1.0 if game.play_pays is None else float(game.play_pays.pays[c]) for c in nb.categories])
    pv, dv = ranking.values(player), ranking.values(dealer)
    category = ranking.category(pv)
    qualifies = dv >= floor
    sign = np.sign(pv - dv)
    if nb.ties == "player":  # the player's win
        sign = np.where(sign == 0, 1, sign)
    ante = np.where(qualifies, sign, 1 if game.ante_when_no_qualifier == "pays" else 0)
    won = np.where(sign > 0, pays[category], 1.0)  # a win is paid the table, a loss loses the bet
    play = np.where(qualifies | (game.play_when_no_qualifier == "action"), sign * bets * won, 0)
    return np.where(bets > 0, ante + play + bonus[category], -1.0)


def _checked(game: GameSpec) -> NoBoard:
    if game.no_board is None or game.ante_pays is not None or game.blind is not None:
        raise InputError(f"{game.title}: sampled here is a game without a board, an even-money ante and no blind")
    return game.no_board
