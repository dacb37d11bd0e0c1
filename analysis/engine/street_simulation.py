"""Monte Carlo simulation of a multi-street game, independent of the exact street engine.

Only the engine's pre-flop and flop *decisions* are looked up; everything else is done
here from the game file's fields: hands are dealt at random, the river decision is taken
by enumerating every dealer holding of the unseen cards with the batch evaluators (exact
integer EV, ties to the option that risks less), and the dealt dealer hand is settled by
this module's own settlement. Agreement within a few standard errors checks the engine's
counts, its settlement (``GameSpec.showdown_values``) and its river kernel from outside. A
game whose bets add up (Texas Hold'em Bonus) looks up its turn decisions too (the kernel's,
kept per state) and settles every bet made to the showdown.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from math import comb, lcm, sqrt

import numpy as np

from analysis.engine.simulation import Simulation, deal, final_strengths
from analysis.engine.streets import StreetFigures, has_written_strategy
from analysis.hands import written_turn
from analysis.hands.evaluate import best_strength, omaha_strength
from analysis.hands.lookup import dealer_qualifier, tables
from analysis.hands.written import flop_bets, river_bets
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.game import GameSpec, Option

#: Dealer holdings evaluated at once (rows of cards), to bound memory.
_EVAL_ROWS = 2_000_000


@dataclass
class StreetSimulation(Simulation):
    """A :class:`Simulation` of a multi-street game; ``call_rate`` is the share of hands
    that reach the showdown, ``decisions`` the share of all hands taking each (street,
    option), comparable with ``StreetFigures.decisions`` over its total."""

    decisions: dict[tuple[str, str], float] = field(default_factory=dict)


class Settlement:
    """Net results of a game in an integer unit (``scale`` per ante), written from the
    game's fields rather than taken from ``GameSpec.showdown_values``, so that the
    simulation checks that settlement instead of repeating it."""

    def __init__(self, game: GameSpec) -> None:
        ante = [Fraction(1) if game.ante_pays is None else game.ante_pays.pays[c] for c in CATEGORIES]
        blind = [Fraction(0)] * len(CATEGORIES)
        if game.blind is not None:
            blind = [Fraction(game.blind.pays.get(c, 0)) for c in CATEGORIES]
        self.scale = lcm(*(v.denominator for v in ante + blind))
        self.ante_win = np.array([int(v * self.scale) for v in ante], dtype=np.int64)
        self.blind_win = np.array([int(v * self.scale) for v in blind], dtype=np.int64)
        self.has_blind = game.blind is not None
        self.ante_paid_without_qualifier = game.ante_when_no_qualifier == "pays"
        self.play_action_without_qualifier = game.play_when_no_qualifier == "action"
        self.qualifier = dealer_qualifier(game.rules.qualifier_rank)
        #: a fold loses the ante and the blind
        self.fold = -self.scale * (1 + self.has_blind)

    def showdown(
        self, category: np.ndarray, multiple: np.ndarray, qualifies: np.ndarray, sign: np.ndarray
    ) -> np.ndarray:
        """Net result (scaled) of showdowns: the player's category, the play bet in antes,
        whether the dealer qualifies, and +1/0/-1 for a player win/tie/loss (broadcast)."""
        s = self.scale
        win, tie = sign > 0, sign == 0
        ante_win = self.ante_win[category]
        ante_shown = np.where(win, ante_win, np.where(tie, 0, -s))
        ante_unqualified = ante_win if self.ante_paid_without_qualifier else np.zeros_like(ante_win)
        ante = np.where(qualifies, ante_shown, ante_unqualified)
        action = qualifies | self.play_action_without_qualifier
        play = np.where(action, sign * multiple * s, 0)
        blind = np.where(win, self.blind_win[category], np.where(tie, 0, -s)) if self.has_blind else 0
        return np.asarray(ante + play + blind, dtype=np.int64)

    def option(self, opt: Option, category: np.ndarray, qualifies: np.ndarray, sign: np.ndarray) -> np.ndarray:
        """Net result (scaled) of taking ``opt`` at the last decision point."""
        if opt.kind == "fold":
            return np.full(np.broadcast(category, qualifies, sign).shape, self.fold, dtype=np.int64)
        return self.showdown(category, np.int64(opt.multiple), qualifies, sign)


#: the six (dealer qualifies, player sign) buckets a river decision needs
_BUCKETS = [(q, s) for q in (False, True) for s in (1, 0, -1)]


class RiverDecider:
    """The river decision of each (hole cards, full board), by exact EV over every dealer
    holding of the unseen cards (the first option in risk order wins an exact tie)."""

    def __init__(self, game: GameSpec, settlement: Settlement, threads: int = 1) -> None:
        self.game, self.settlement, self.threads = game, settlement, threads
        rules = game.rules
        self.deck = np.array(rules.deck, dtype=np.int64)
        self.k = rules.hole_cards
        self.unseen = len(self.deck) - self.k - 5
        if rules.omaha:  # a dealer hand's strength is the best of its three pairs'
            self.pairs = np.array(list(combinations(range(self.unseen), 2)), dtype=np.int64)
            pair_index = {p: i for i, p in enumerate(combinations(range(self.unseen), 2))}
            trips = list(combinations(range(self.unseen), 3))
            self.trip_pairs = np.array(
                [[pair_index[(a, b)], pair_index[(a, c)], pair_index[(b, c)]] for a, b, c in trips], dtype=np.int64
            )
        else:
            self.holdings = np.array(list(combinations(range(self.unseen), self.k)), dtype=np.int64)
        self.dealers = comb(self.unseen, self.k)

    def _unseen_cards(self, hole: np.ndarray, board: np.ndarray) -> np.ndarray:
        """Each row's unseen cards, ascending."""
        seen = np.zeros((len(hole), 52), dtype=bool)
        rows = np.arange(len(hole))[:, None]
        seen[rows, hole] = True
        seen[rows, board] = True
        unseen = ~seen[:, self.deck]
        return np.broadcast_to(self.deck, unseen.shape)[unseen].reshape(len(hole), self.unseen)

    def dealer_strengths(self, hole: np.ndarray, board: np.ndarray) -> np.ndarray:
        """Strength of every dealer holding of each row's unseen cards: (rows, holdings)."""
        unseen = self._unseen_cards(hole, board).astype(np.int8)
        n = len(hole)
        if self.game.rules.omaha:
            pairs = unseen[:, self.pairs].reshape(-1, 2)
            boards = np.repeat(board.astype(np.int8), len(self.pairs), axis=0)
            pair_strength = omaha_strength(pairs, boards, self.threads).reshape(n, len(self.pairs))
            a, b, c = (pair_strength[:, self.trip_pairs[:, j]] for j in range(3))
            return np.maximum(np.maximum(a, b), c)
        held = unseen[:, self.holdings]
        boards = np.broadcast_to(board.astype(np.int8)[:, None, :], (n, len(self.holdings), 5))
        cards = np.concatenate([held, boards], axis=2).reshape(-1, self.k + 5)
        return best_strength(cards, self.threads).reshape(n, len(self.holdings))

    def decide(self, hole: np.ndarray, board: np.ndarray, player: np.ndarray) -> np.ndarray:
        """Index into the river options of each row (``player``: its final strength)."""
        options = self.game.river
        per_chunk = max(1, _EVAL_ROWS // self.dealers)
        category = tables().category[player].astype(np.int64)
        out = np.empty(len(hole), dtype=np.int64)
        for start in range(0, len(hole), per_chunk):
            part = slice(start, start + per_chunk)
            dealer = self.dealer_strengths(hole[part], board[part])  # uint16, as the player's
            p = player[part][:, None]
            qual, win, tie = dealer >= self.settlement.qualifier, dealer < p, dealer == p
            n_qual, n_win, n_tie = (np.count_nonzero(x, axis=1) for x in (qual, win, tie))
            q_win, q_tie = np.count_nonzero(qual & win, axis=1), np.count_nonzero(qual & tie, axis=1)
            nq_win, nq_tie = n_win - q_win, n_tie - q_tie
            nq_loss = self.dealers - n_qual - nq_win - nq_tie
            # dealer holdings in each bucket, in the order of _BUCKETS
            counts = np.stack([nq_win, nq_tie, nq_loss, q_win, q_tie, n_qual - q_win - q_tie], axis=1)
            q_arr = np.array([q for q, _ in _BUCKETS])
            s_arr = np.array([s for _, s in _BUCKETS])
            cat = category[part][:, None]
            # exact EV (scaled integers, summed over every dealer holding) of each option
            values = np.stack(
                [(counts * self.settlement.option(o, cat, q_arr, s_arr)).sum(axis=1) for o in options], axis=1
            )
            out[part] = np.argmax(values, axis=1)  # the first best: options are in risk order
        return out


def _play(
    figures: StreetFigures,
    settle: Settlement,
    river: RiverDecider | None,
    d: dict[str, np.ndarray],
    decisions: dict[tuple[str, str], int],
    written: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Play one batch of deals: each hand's net result (scaled) and whether it folded; adds
    the decisions taken to ``decisions``. ``written``: the flop and the river played by the
    strategy in words (:mod:`analysis.hands.written`), the hand's own cards tested."""
    game, rules = figures.game, figures.game.rules
    n = len(d["player"])
    hole, board = d["player"].astype(np.int64), d["board"].astype(np.int64)
    player = final_strengths(rules, d["player"], d["board"])
    dealer = final_strengths(rules, d["dealer"], d["board"])
    multiple = np.zeros(n, dtype=np.int64)
    folded = np.zeros(n, dtype=bool)
    undecided = np.ones(n, dtype=bool)  # betting still open (checked so far)

    def take(street: str, opts: tuple[Option, ...], rows: np.ndarray, chosen: np.ndarray) -> None:
        for i, o in enumerate(opts):
            mine = rows[chosen == i]
            if len(mine):
                decisions[(street, str(o))] = decisions.get((street, str(o)), 0) + len(mine)
            if o.kind == "bet":
                multiple[mine] = o.multiple
                undecided[mine] = False
            elif o.kind == "fold":
                folded[mine] = True
                undecided[mine] = False

    if game.preflop:
        index = {o: i for i, o in enumerate(game.preflop)}
        chosen = np.array([index[o] for o in figures.preflop_choice(hole)], dtype=np.int64)
        take("preflop", game.preflop, np.arange(n), chosen)
    if game.flop:
        rows = np.flatnonzero(undecided)
        if written:
            at_flop = flop_bets(hole[rows], d["flop"][rows]).astype(np.int64)
        else:
            at_flop = figures.flop_choice(hole[rows], d["flop"][rows]).astype(np.int64)
        take("flop", game.flop, rows, at_flop)
    if river is not None:
        rows = np.flatnonzero(undecided)
        if written:
            at_river = river_bets(hole[rows], board[rows], rules.deck).astype(np.int64)
        else:
            at_river = river.decide(hole[rows], board[rows], player[rows])
        take("river", game.river, rows, at_river)
    category = tables().category[player].astype(np.int64)
    qualifies = dealer.astype(np.int64) >= settle.qualifier
    sign = np.sign(player.astype(np.int64) - dealer.astype(np.int64))
    result = np.where(folded, settle.fold, settle.showdown(category, multiple, qualifies, sign))
    return result, folded


def _play_adding(
    figures: StreetFigures,
    settle: Settlement,
    d: dict[str, np.ndarray],
    decisions: dict[tuple[str, str], int],
    written: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_play` for a game whose bets add up: the bets before the flop, at the flop and
    at the turn all stay in action to the showdown. ``written``: the flop and the turn played
    by the strategy in words (:mod:`analysis.hands.written_turn`)."""
    game, rules = figures.game, figures.game.rules
    n = len(d["player"])
    hole = d["player"].astype(np.int64)
    bets = np.zeros(n, dtype=np.int64)
    chosen = figures.preflop_choice(hole)
    folded = np.array([o.kind == "fold" for o in chosen], dtype=bool)
    bets += [o.multiple for o in chosen]
    for o, n in Counter(chosen).items():
        decisions[("preflop", str(o))] = decisions.get(("preflop", str(o)), 0) + n
    rows = np.flatnonzero(~folded)
    flop_opts = game.flop or (Option("check"),)
    flop, board = d["flop"][rows].astype(np.int64), d["board"][rows].astype(np.int64)
    if written:
        at_flop = np.where(written_turn.flop_bets(hole[rows], flop), [o.kind for o in flop_opts].index("bet"), 0)
        at_turn = written_turn.turn_bets(hole[rows], board[:, :4])
    else:
        at_flop = figures.flop_choice(hole[rows], flop).astype(np.int64)
        at_turn = figures.turn_choice(hole[rows], flop, board[:, 3])
    bets[rows] += np.array([o.multiple for o in flop_opts], dtype=np.int64)[at_flop]
    turn_bet = max((o.multiple for o in game.turn), default=0)
    bets[rows] += turn_bet * at_turn
    for street, options, taken in (
        ("flop", game.flop, [at_flop == i for i in range(len(game.flop))]),
        ("turn", game.turn, [~at_turn, at_turn]),
    ):
        for o, mine in zip(options, taken):
            decisions[(street, str(o))] = decisions.get((street, str(o)), 0) + int(mine.sum())
    player = final_strengths(rules, d["player"], d["board"])
    dealer = final_strengths(rules, d["dealer"], d["board"])
    category = tables().category[player].astype(np.int64)
    qualifies = dealer >= settle.qualifier
    sign = np.sign(player - dealer)
    return np.where(folded, settle.fold, settle.showdown(category, bets, qualifies, sign)), folded


def simulate_streets(
    figures: StreetFigures,
    hands: int,
    seed: int,
    threads: int = 1,
    batch: int = 100_000,
    written: bool = False,
) -> StreetSimulation:
    """Play ``hands`` random hands with the engine's pre-flop and flop decisions (and a game
    whose bets add up its turn decisions) and this module's own river decision and
    settlement; the engine's exact house edge beside it. ``written``: the figures are those
    of the strategy in words (``solve_streets(written=True)``), and the flop and the river
    are played by its rules on each hand's cards."""
    if isinstance(hands, bool) or not isinstance(hands, (int, np.integer)) or hands < 1:
        raise InputError(f"hands must be a positive whole number, got {hands!r}")
    game = figures.game
    if written and not has_written_strategy(game):
        raise InputError(f"{game.title} has no strategy in words to play")
    settle = Settlement(game)
    river = RiverDecider(game, settle, threads) if len(game.river) > 1 else None
    rng = np.random.default_rng(seed)
    total = squares = showdowns = 0
    decisions: dict[tuple[str, str], int] = {}
    done = 0
    while done < hands:
        n = min(batch, hands - done)
        d = deal(game.rules, n, rng)
        if game.adds:
            result, folded = _play_adding(figures, settle, d, decisions, written)
        else:
            result, folded = _play(figures, settle, river, d, decisions, written)
        # exact integer sums: the mean and variance lose nothing to rounding
        total += int(result.sum())
        squares += int((result * result).sum())
        showdowns += int((~folded).sum())
        done += n
    mean = Fraction(total, hands * settle.scale)
    variance = Fraction(squares, hands * settle.scale**2) - mean**2
    return StreetSimulation(
        hands=hands,
        mean=float(mean),
        standard_deviation=sqrt(float(variance)),
        call_rate=showdowns / hands,
        exact_house_edge=float(figures.house_edge),
        decisions={key: c / hands for key, c in decisions.items()},
    )
