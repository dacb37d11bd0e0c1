"""A flashed hole card in a game without a board whose dealer already shows a card
(Caribbean Stud, Four Card Poker), counted exactly: the player then knows two of the
dealer's cards, so every state is his hand with a pair of the dealer's cards (145 million
of them for five-card hands: C(47, 2) per class), too many to keep, so they are counted a
chunk of classes at a time (:func:`~analysis.counting.no_board.no_board_chunks`), each state
decided on the spot and only the sums kept.

A state's pair of seen cards is a set: either may be the up card, the other the flashed
one, two deals of the same counts. What gives the player away (his decision against the
base game's, which sees the up card alone) and what the flashed card is worth by its rank
are taken over both.

>>> from dataclasses import replace
>>> from analysis.model.game import load_game
>>> game = load_game("caribbean-stud")
>>> small = replace(game, rules=game.rules.small_deck("TJQKA", "cdh"))
>>> e = hole_card_exposure(small)
>>> e.deals, e.house_edge  # every deal played out gives the same (tests/test_four_card_poker.py)
(15135120, Fraction(-40252, 21021))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb

import numpy as np

from analysis.counting.no_board import no_board_chunks
from analysis.engine.no_board import NoBoardFigures, best_options, option_values, solve_no_board
from analysis.hands.rankings import RANKINGS
from analysis.model.cards import RANKS
from analysis.model.errors import InputError
from analysis.model.game import GameSpec

#: States counted at a time (about 1.2 GB of arrays).
CHUNK = 8_000_000


@dataclass(frozen=True)
class HoleCardExposure:
    """The game with one hole card seen beside the up card, exactly: the house edge (per
    ante; negative when the player has the edge), the deals (up card and flashed card in
    their roles), the share of deals played, played where the base strategy folds and
    folded where it plays, and the player's expected result by the rank of the flashed card."""

    base: NoBoardFigures
    house_edge: Fraction
    deals: int
    states: int
    call_rate: Fraction
    plays_folded: Fraction
    folds_played: Fraction
    by_rank: dict[str, Fraction]


def hole_card_exposure(game: GameSpec, threads: int | None = None, chunk: int = CHUNK) -> HoleCardExposure:
    """``game`` (whose dealer shows one card) with one of his hole cards seen too, every
    state decided exactly and every deal counted."""
    nb = game.no_board
    if nb is None or nb.up != 1:
        raise InputError(f"{game.title}: counted here is a game without a board whose dealer shows one card")
    base = solve_no_board(game, threads)
    ranking = RANKINGS[nb.ranking]
    exposed = replace(game, name=f"{game.name}+1", no_board=replace(nb, up=2))
    fold = next(i for i, o in enumerate(game.preflop) if o.kind == "fold")
    deck = np.array(sorted(game.rules.deck), dtype=np.int64)
    ups = len(deck) - nb.hole  # the base game's states per class: each card the dealer may show
    pairs = comb(ups, 2)  # the exposed game's: each pair of them
    net = weights = played = plays_folded = folds_played = states = first = 0
    rank_net, rank_weight = [0] * 13, [0] * 13
    scale = dealer_hands = 1
    floor = ranking.qualifying(nb.qualifier_ranks)
    for part in no_board_chunks(deck.tolist(), nb.hole, ranking.values, floor, 2, threads, nb.dealer_cards, chunk):
        values, denominator = option_values(exposed, part.counts, ranking.category(part.value))
        chosen = best_options(exposed, values)
        best = values[np.arange(len(chosen)), chosen]
        dealer_hands, scale = part.dealer_hands, part.dealer_hands * denominator
        w, plays = part.weight, chosen != fold
        net += int((w * best).sum())
        weights += int(w.sum())
        played += int(w[plays].sum())
        cls = first + np.arange(len(chosen)) // pairs  # the chunks hold whole classes, in the base game's order
        for up, flashed in ((0, 1), (1, 0)):  # each seen card as the up card, the other as the flashed one
            card = part.seen[:, up].astype(np.int64)
            place = np.searchsorted(deck, card) - (part.hands < card[:, None]).sum(axis=1)  # among the cards left
            base_plays = base.states.chosen[cls * ups + place] != fold
            plays_folded += int(w[plays & ~base_plays].sum())
            folds_played += int(w[~plays & base_plays].sum())
            rank = part.seen[:, flashed].astype(np.int64) >> 2
            for r in np.unique(rank).tolist():
                at = rank == r
                rank_net[r] += int((w[at] * best[at]).sum())
                rank_weight[r] += int(w[at].sum())
        states += len(chosen)
        first += len(chosen) // pairs
    if first != len(base.states.codes):
        raise AssertionError(
            f"{game.title}: {first:,} classes counted with a hole card seen, not {len(base.states.codes):,}"
        )
    return HoleCardExposure(
        base,
        -Fraction(net, scale * weights),
        2 * weights * dealer_hands,
        states,
        Fraction(played, weights),
        Fraction(plays_folded, 2 * weights),
        Fraction(folds_played, 2 * weights),
        {RANKS[r]: Fraction(rank_net[r], scale * rank_weight[r]) for r in range(13) if rank_weight[r]},
    )
