"""Advice for a player who saw one dealer card (:mod:`analysis.protection.seen_card`):
the exact EV of each option at any street, before the flop from the solved game's class
rows, at the flop and the river enumerated on the spot (what game protection shows a
surveillance reviewer: what the card told the player here)."""

from __future__ import annotations

from itertools import combinations

import numpy as np

from analysis.counting.streets import RESULTS6
from analysis.engine.streets import StreetValues, street_values
from analysis.hands.evaluate import best_strength, category_of
from analysis.hands.lookup import dealer_qualifier
from analysis.model.cards import disjoint, format_cards, parse_cards
from analysis.model.errors import InputError
from analysis.model.game import GameSpec
from analysis.model.outcomes import BINOM
from analysis.protection.seen_card import SeenCardFigures, seen_card_fits
from analysis.strategy.street_advice import StreetAdvice


def advise_seen_card(
    game: GameSpec,
    hole: str,
    seen: str,
    board: str = "",
    figures: SeenCardFigures | None = None,
    board_card: str = "",
    runout: bool = False,
) -> StreetAdvice:
    """The exact EV of each option of a player who saw the dealer card ``seen``: before the
    flop (``board`` empty) from the solved game's class sums (``figures``), at the flop
    (3 board cards: every turn and river, the river played knowing the card) or at the
    river (5: every dealer card left). With ``board_card``, before the flop for a player who
    also saw that card of the flop (of the turn or river: ``runout``), from the count of
    that game (``solve_seen_card``; ``runout=True`` for a turn or river card)."""
    if not seen_card_fits(game):
        raise InputError(f"{game.title}: advice with a dealer card seen is for the games solve_seen_card counts")
    rules = game.rules
    h = parse_cards(hole, 2, "hole cards")
    d = parse_cards(seen, 1, "the dealer card seen")
    b = parse_cards(board, what="board cards") if board.strip() else []
    disjoint(h, d, b)
    if not set(h + d + b) <= set(rules.deck):
        raise InputError(f"{game.name}: cards that are not in the game's deck")
    v = street_values(game)
    if board_card:
        return _with_board_card(game, v, h, d[0], b, figures, board_card, runout)
    if not b:
        if figures is None or figures.game != game:
            raise InputError("advice before the flop needs the solved game with the card seen (solve_seen_card)")
        lo, hi = sorted(h)
        klass = int(figures.codes[d[0] * 1326 + lo + int(BINOM[hi, 2])])
        deals = int(figures.preflop["deals"].iloc[klass])
        evs = {str(o): v.exact(int(figures.values[klass, i]), deals) for i, o in enumerate(v.preflop)}
        street = "preflop"
    elif len(b) == 3:
        rest = [c for c in rules.deck if c not in (*h, *d, *b)]
        runouts = np.array(list(combinations(rest, 2)), dtype=np.int64).reshape(-1, 2)
        boards = np.column_stack([np.tile(b, (len(runouts), 1)), runouts])
        shows, river = _river_values(v, h, d[0], boards)
        deals = len(boards) * (len(rest) - 2)
        evs = {}
        for o in v.flop:
            if o.kind == "fold":
                total = v.fold * deals
            elif o.kind == "check":
                total = int(river.max(axis=1).sum())
            else:
                total = int(shows[o.multiple].sum())
            evs[str(o)] = v.exact(total, deals)
        street = "flop"
    elif len(b) == 5:
        _, river = _river_values(v, h, d[0], np.array([b]))
        deals = len(rules.deck) - 8
        evs = {str(o): v.exact(int(x), deals) for o, x in zip(v.river, river[0])}
        street = "river"
    else:
        raise InputError(f"board: 0 cards (before the flop), 3 (the flop) or 5 (the river), not {len(b)}")
    return StreetAdvice(game.name, street, format_cards(h), format_cards(b), evs, seen=format_cards(d))


def _with_board_card(
    game: GameSpec,
    v: StreetValues,
    h: list[int],
    d: int,
    b: list[int],
    figures: SeenCardFigures | None,
    board_card: str,
    runout: bool,
) -> StreetAdvice:
    """Before the flop, a board card seen besides the dealer's: its class's row."""
    f = parse_cards(board_card, 1, "the board card seen")
    disjoint(h, [d], f)
    if b or not set(f) <= set(game.rules.deck):
        raise InputError("a board card seen is advised before the flop (no --flop or --board), from the game's deck")
    which = "turn or river" if runout else "flop"
    counted = None
    if figures is not None and figures.game == game:
        counted = figures.runout_card if runout else figures.flop_card
    if counted is None or not len(counted.codes):
        raise InputError(f"advice with a {which} card seen needs the game counted with it (solve_seen_card)")
    lo, hi = sorted(h)
    klass = int(counted.codes[(f[0] * 52 + d) * 1326 + lo + int(BINOM[hi, 2])])
    deals = int(counted.class_deals[klass])
    evs = {str(o): v.exact(int(counted.values[klass, i]), deals) for i, o in enumerate(v.preflop)}
    saw = f"{which} card {format_cards(f)}"
    return StreetAdvice(game.name, "preflop", format_cards(h), "", evs, seen=format_cards([d]), board_seen=saw)


def _river_values(
    v: StreetValues, hole: list[int], seen: int, boards: np.ndarray
) -> tuple[dict[int, np.ndarray], np.ndarray]:
    """Per board (rows of 5 cards): each play multiple's showdown value summed over the
    dealer's unseen card, and each river option's value (1/``scale`` ante)."""
    deck = np.array(v.game.rules.deck)
    out = np.zeros((len(boards), 52), dtype=bool)
    out[np.arange(len(boards))[:, None], boards] = True
    out[:, [*hole, seen]] = True
    left = np.array([deck[~row[deck]] for row in out])  # boards x the dealer's possible second cards
    n = left.shape[1]
    mine = best_strength(np.column_stack([np.tile(hole, (len(boards), 1)), boards])).astype(np.int64)
    dealer = np.concatenate(
        [np.full((len(boards), n, 1), seen), left[:, :, None], np.repeat(boards[:, None, :], n, axis=1)], axis=2
    )
    theirs = best_strength(dealer.reshape(-1, 7)).astype(np.int64).reshape(len(boards), n)
    qualifies = theirs >= dealer_qualifier(v.game.rules.qualifier_rank)
    result = np.where(theirs < mine[:, None], 0, np.where(theirs == mine[:, None], 1, 2)) + 3 * qualifies
    column = category_of(mine).astype(np.int64)[:, None] * len(RESULTS6) + result
    shows = {m: v.show[m][column].sum(axis=1) for m in v.show}
    river = np.stack([np.full(len(boards), v.fold * n) if o.kind == "fold" else shows[o.multiple] for o in v.river], 1)
    return shows, river
