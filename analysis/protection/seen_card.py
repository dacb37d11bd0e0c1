"""One dealer card seen in a game with decisions before the flop, at the flop and at the
river (Ultimate Texas Hold'em), exactly: the player who saw it decides every street knowing
it, and every deal is counted (the compiled kernel :mod:`analysis._seen_card`; the
algorithm is in its docstring).

The player sees one of the dealer's two cards at random, so every deal counts once per
dealer card: twice the base game's deals. The kernel sums each flop class into one row per
class of (seen card, hole cards) under suit permutations, where the pre-flop decision is
taken; the rows of each shard of flop classes are kept in a result store, so a run resumes
and a solved game is read back. Besides the edge: how often each option is taken beside the
optimal player's, the pre-flop decisions that differ from his (what surveillance can see),
and the player's result by the rank of the card he saw.

The same count gives the game of a player who also saw one card of the flop before his
pre-flop decision (the flop's other cards and everything after decided as before): each
flop state's sums go to the rows of (seen card, hole cards, flop card) too, one row per
class, and its pre-flop decision is taken there. When asked (``runout``), also the game of a
player who saw the turn or the river card instead, the flop then decided knowing it too.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from math import comb
from pathlib import Path

import numpy as np
import pandas as pd

import analysis._seen_card as _seen_card
from analysis.counting.symmetry import FlopClass, suit_permutations, turn_river_orbits
from analysis.engine.streets import StreetFigures, StreetValues, game_key, solve_streets, street_values
from analysis.hands.lookup import dealer_qualifier, tables
from analysis.model.cards import RANKS
from analysis.model.errors import InputError
from analysis.model.game import GameSpec, Option
from analysis.model.outcomes import BINOM
from analysis.parallel.options import RunOptions
from analysis.store.outcome_store import shard_plan
from analysis.store.result_store import ArrayResults, results_folder
from analysis.store.runs import run_into_store

#: The method's version: part of a job's key.
METHOD = "seen-card/2"
#: Plan shards counted together in one kept shard: the rows of (seen card, hole cards,
#: flop card) are about 6 MB a shard, so the store is kept to a dozen of them.
GROUP = 5
#: Option kinds as the kernel takes them.
_FOLD, _SHOW, _ON = 0, 1, 2


class _PerHand:
    """The per-hand figures of a value summed exactly over ``deals`` in 1/``scale`` ante."""

    scale: int
    value: int
    deals: int

    @property
    def expected(self) -> Fraction:
        """The player's expected net result per hand, in antes."""
        return Fraction(self.value, self.scale * self.deals)

    @property
    def house_edge(self) -> Fraction:
        """The house's expected win per ante (negative: the player has the edge)."""
        return -self.expected


@dataclass(frozen=True)
class SeenCardFigures(_PerHand):
    """The game played by a player who sees one dealer card: the exact value summed over
    ``deals`` (in 1/``scale`` ante), the deals that take each option at each street, the
    pre-flop option of each class of (card seen, hole cards) and what the player is worth
    by the rank he saw. ``base``: the same game without the card."""

    game: GameSpec
    base: StreetFigures
    scale: int
    value: int
    deals: int
    decisions: dict[tuple[str, str], int]
    preflop: pd.DataFrame
    by_rank: dict[str, Fraction]
    #: the class of each (seen card, holding) cell (d1 * 1326 + colex index of the holding)
    codes: np.ndarray = field(repr=False)
    #: each class's summed value of each pre-flop option (1/``scale`` ante)
    values: np.ndarray = field(repr=False)
    #: the game of a player who also saw one card of the flop before deciding
    flop_card: BoardCardFigures | None = None
    #: ... or the turn or the river card (counted when asked: ``runout``)
    runout_card: BoardCardFigures | None = None
    #: the result store the rows were read from, and its checksum (SHA-256 over its shards')
    store: Path | None = None
    checksum: str | None = None

    def decision_rates(self) -> pd.DataFrame:
        """How often each option is taken at each street, with the card and by the optimal
        player without it."""
        rows = []
        for (street, option), n in self.decisions.items():
            base = self.base.decisions.get((street, option), 0)
            rows.append(
                {
                    "street": street,
                    "option": option,
                    "with the card": float(Fraction(n, self.deals)),
                    "without it": float(Fraction(base, self.base.total)),
                }
            )
        return pd.DataFrame(rows)

    def preflop_changes(self) -> dict[str, Fraction]:
        """The share of deals in which the player's pre-flop option is not the optimal
        player's: a bet where he checks, a check where he bets, another bet size."""
        p = self.preflop
        out = {"bets where the optimal player checks": 0, "checks where he bets": 0, "bets another size": 0}
        for mine, theirs, n in zip(p["option"], p["without the card"], p["deals"]):
            if mine == theirs:
                continue
            if theirs == "check":
                out["bets where the optimal player checks"] += n
            elif mine == "check":
                out["checks where he bets"] += n
            else:
                out["bets another size"] += n
        return {k: Fraction(n, self.deals) for k, n in out.items()}


@dataclass(frozen=True)
class BoardCardFigures(_PerHand):
    """One dealer card and one board card (of the flop, or the turn or river) seen before
    the pre-flop decision: the exact value summed over ``deals`` (each deal once per dealer
    card and board card seen) in 1/``scale`` ante, the deals that take each pre-flop option
    and the number of classes of (card seen, hole cards, board card) it was decided on."""

    scale: int
    value: int
    deals: int
    preflop: dict[str, int]
    classes: int
    #: the class of each (board card, seen card, holding) cell ((f * 52 + d1) * 1326 + colex
    #: index of the holding), each class's summed value of each pre-flop option (1/``scale``
    #: ante) and its deals: what advice before the flop with both cards seen reads
    codes: np.ndarray = field(repr=False, compare=False, default_factory=lambda: np.zeros(0, dtype=np.int32))
    values: np.ndarray = field(repr=False, compare=False, default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    class_deals: np.ndarray = field(repr=False, compare=False, default_factory=lambda: np.zeros(0, dtype=np.int64))


@dataclass(frozen=True)
class SeenCardJob:
    """One exact count of a game with one dealer card seen: its key names everything the
    shards depend on; a shard is a list of flop classes, its result the class rows."""

    game: GameSpec
    #: also the game of a player who saw a turn or river card (more time and memory)
    runout: bool = False

    def key(self) -> dict[str, object]:
        return {"method": METHOD, **game_key(self.game), **({"runout card": True} if self.runout else {})}

    def rows(self, flops: list[FlopClass], threads: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The class rows of some flop classes, the rows of (seen card, hole cards, flop
        card) and, with ``runout``, of (seen card, hole cards, turn or river card)."""
        v, rules = street_values(self.game), self.game.rules
        a0, b0 = _linear(v)
        t = tables()
        deck = sum(1 << c for c in rules.deck)
        codes, _, _ = _classes(rules.deck, tuple(rules.suits))
        flop_codes, flop_members = _board_card_classes(rules.deck, tuple(rules.suits))
        pairs, weights = [], []
        for f in flops:  # one turn/river pair of each orbit under the flop's stabilizer, and its size
            tr, first = turn_river_orbits(f, rules.deck)
            starts = np.flatnonzero(first)
            pairs.append(tr[starts])
            weights.append(np.diff(np.append(starts, len(tr))))
        return _seen_card.count_seen_card(
            np.array([f.cards for f in flops], dtype=np.int8).reshape(-1, 3),
            np.array([f.multiplicity for f in flops], dtype=np.int64),
            np.concatenate(pairs or [np.zeros((0, 2))]).astype(np.int8),
            np.concatenate(weights or [np.zeros(0)]).astype(np.int64),
            np.cumsum([0, *map(len, pairs)]).astype(np.int64),
            np.concatenate([f.stabilizer for f in flops] or [np.zeros((0, 52))]).astype(np.int8),
            np.cumsum([0, *(len(f.stabilizer) for f in flops)]).astype(np.int64),
            deck,
            t.rank7,
            t.flush,
            t.category,
            dealer_qualifier(rules.qualifier_rank),
            a0,
            b0,
            int(v.fold),
            [_kind(o, river=True) for o in v.river],
            [_kind(o, river=False) for o in v.flop],
            codes,
            int(codes.max()) + 1,
            flop_codes,
            len(flop_members),
            self.runout,
            threads or 0,
        )


def _seen_shard(job: SeenCardJob, flops: list[FlopClass], threads: int | None = None) -> dict[str, np.ndarray]:
    rows, flop_rows, runout_rows = job.rows(flops, threads)
    return {"rows": rows, "flop_card": flop_rows} | ({"runout_card": runout_rows} if job.runout else {})


def _plan(game: GameSpec) -> list[list[FlopClass]]:
    """The flop classes of each kept shard: ``GROUP`` shards of the outcome stores' plan."""
    plan = shard_plan(game.rules)
    return [sum(plan[i : i + GROUP], []) for i in range(0, len(plan), GROUP)]


def _store(job: SeenCardJob, options: RunOptions) -> ArrayResults:
    """The job's result store, in the options' protection results folder."""
    return ArrayResults.for_job("seen-card", job.key(), options.results or results_folder(options.root))


def seen_card_fits(game: GameSpec) -> bool:
    """Whether the kernel plays the game: two hole cards each, the best five of seven, a
    board dealt as flop then turn and river, bets that do not add up."""
    rules = game.rules
    return (
        game.no_board is None
        and game.hand_paid is None
        and not game.adds
        and not game.turn
        and rules.hole_cards == 2
        and not rules.omaha
    )


def solve_seen_card(game: GameSpec, options: RunOptions | None = None, runout: bool = False) -> SeenCardFigures:
    """``game`` played with one of the dealer's cards seen from the start, every street
    decided knowing it, counted exactly (a result store in the options' protection results
    folder: an interrupted run resumes, a solved game is read back). With ``runout``, also
    the game of a player who saw a turn or river card besides (about two and a half times
    the time)."""
    options = options or RunOptions()
    if not isinstance(game, GameSpec):
        raise InputError(f"solve_seen_card: game must be a GameSpec (load_game), not {type(game).__name__}")
    if not seen_card_fits(game):
        raise InputError(
            f"{game.title}: one dealer card seen is counted for games of two hole cards and the best five of seven, "
            "a board dealt as flop then turn and river, and bets that do not add up"
        )
    job, plan = SeenCardJob(game, runout), _plan(game)
    store = _store(job, options)
    run_into_store(
        store,
        _seen_shard,
        {i: (job, flops) for i, flops in enumerate(plan)},
        {i: len(flops) for i, flops in enumerate(plan)},
        f"{game.name}: one dealer card seen, every deal",
        options,
    )
    return _read(job, solve_streets(game, options), store, len(plan))


def stored_seen_card(game: GameSpec, base: StreetFigures, options: RunOptions | None = None) -> SeenCardFigures | None:
    """What an earlier run of :func:`solve_seen_card` kept for ``game`` (``base``: the game
    solved without the card), or None: nothing is counted here (a par sheet includes what
    is there and says what is not)."""
    options = options or RunOptions()
    if not seen_card_fits(game):
        return None
    plan = _plan(game)
    for job in (SeenCardJob(game, True), SeenCardJob(game)):  # the fuller count first
        store = _store(job, options)
        if store.manifest_path.exists() and store.has({i: len(flops) for i, flops in enumerate(plan)}):
            return _read(job, base, store, len(plan))
    return None


def _read(job: SeenCardJob, base: StreetFigures, store: ArrayResults, nshards: int) -> SeenCardFigures:
    """The class rows of the ``nshards`` shards a complete store holds, summed (each shard
    checked on read), decided."""
    game = job.game
    v, rules = street_values(game), game.rules
    codes, reps, members = _classes(rules.deck, tuple(rules.suits))
    card_codes, card_members = _board_card_classes(rules.deck, tuple(rules.suits))
    names = ["flop_card", "runout_card"] if job.runout else ["flop_card"]
    sums = {"rows": np.zeros((len(reps), 3 + len(v.flop) + len(v.river)), dtype=np.int64)}
    sums |= {name: np.zeros((len(card_members), 4), dtype=np.int64) for name in names}
    shards = list(range(nshards))
    for i in shards:
        part = store.read_arrays(i)
        if any(part.get(name, np.zeros(0)).shape != total.shape for name, total in sums.items()):
            raise InputError(f"{store.path}: shard {i} holds rows of another shape; delete the folder to count again")
        for name, total in sums.items():
            total += part[name]
    figures = _decide(game, base, v, sums["rows"], codes, reps, members)
    n = len(rules.deck)
    flop_card = _decide_card(v, sums["flop_card"], card_members * comb(n - 4, 2) * comb(n - 6, 2) * (n - 8), card_codes)
    runout_card = None
    if job.runout:  # the flop's three cards, the other turn/river card, the dealer's other card
        runout_card = _decide_card(
            v, sums["runout_card"], card_members * comb(n - 4, 3) * (n - 7) * (n - 8), card_codes
        )
    return replace(
        figures, flop_card=flop_card, runout_card=runout_card, store=store.path, checksum=store.checksum(shards)
    )


def _decide(
    game: GameSpec,
    base: StreetFigures,
    v: StreetValues,
    rows: np.ndarray,
    codes: np.ndarray,
    reps: np.ndarray,
    members: np.ndarray,
) -> SeenCardFigures:
    """The pre-flop decision of each class from its row, and the figures."""
    nflop = len(v.flop)
    flop_deals = rows[:, 3 : 3 + nflop]
    river_deals = rows[:, 3 + nflop :]
    deals = flop_deals.sum(axis=1)
    n = len(game.rules.deck)
    want = members * comb(n - 3, 3) * comb(n - 6, 2) * (n - 8)
    if not np.array_equal(deals, want):
        raise AssertionError("the seen-card counts do not cover every deal once: a damaged or foreign result store")
    stacked = _preflop_values(v, rows[:, 0], rows[:, 1], rows[:, 2], deals)
    choice = np.argmax(stacked, axis=1)  # first best: options are in risk order
    best = stacked[np.arange(len(rows)), choice]
    checks = np.array([o.kind == "check" for o in v.preflop])[choice]  # the flop decision is reached
    decisions = {("preflop", str(o)): int(deals[choice == i].sum()) for i, o in enumerate(game.preflop)}
    decisions |= {("flop", str(o)): int(flop_deals[checks, j].sum()) for j, o in enumerate(game.flop)}
    decisions |= {("river", str(o)): int(river_deals[checks, j].sum()) for j, o in enumerate(game.river)}
    theirs = [str(o) for o in base.preflop_choice(reps[:, 1:])]
    preflop = pd.DataFrame(
        {
            "seen": reps[:, 0],
            "hole": [tuple(h) for h in reps[:, 1:].tolist()],
            "option": [str(v.preflop[c]) for c in choice],
            "without the card": theirs,
            "deals": deals,
        }
    )
    rank = reps[:, 0] >> 2
    by_rank = {
        RANKS[r]: Fraction(int(best[rank == r].sum()), v.scale * int(deals[rank == r].sum()))
        for r in sorted(set(rank.tolist()))
    }
    return SeenCardFigures(
        game, base, v.scale, int(best.sum()), int(deals.sum()), decisions, preflop, by_rank, codes, stacked
    )


def _preflop_values(
    v: StreetValues, best_flop: np.ndarray, a: np.ndarray, b: np.ndarray, deals: np.ndarray
) -> np.ndarray:
    """Each row's summed value of each pre-flop option: a fold, a bet (the showdown with
    its play bet) or a check (the best flop value)."""
    values = []
    for o in v.preflop:
        if o.kind == "fold":
            values.append(deals * v.fold)
        elif o.kind == "bet":
            values.append(a + o.multiple * b)
        else:
            values.append(best_flop)
    return np.stack(values, axis=1)


def _decide_card(v: StreetValues, rows: np.ndarray, want: np.ndarray, codes: np.ndarray) -> BoardCardFigures:
    """The pre-flop decision of each class of (seen card, hole cards, board card) from its
    row (best flop value, a, b, deals; ``want``: each class's deals; ``codes``: each cell's
    class), and the figures."""
    deals = rows[:, 3]
    if not np.array_equal(deals, want):
        raise AssertionError("the board-card counts do not cover every deal once: a damaged or foreign result store")
    stacked = _preflop_values(v, rows[:, 0], rows[:, 1], rows[:, 2], deals)
    choice = np.argmax(stacked, axis=1)  # first best: options are in risk order
    best = stacked[np.arange(len(rows)), choice]
    preflop = {str(o): int(deals[choice == i].sum()) for i, o in enumerate(v.preflop)}
    return BoardCardFigures(v.scale, int(best.sum()), int(deals.sum()), preflop, len(rows), codes, stacked, deals)


def _kind(o: Option, river: bool) -> tuple[int, int]:
    """An option as the kernel takes it: (kind, play multiple)."""
    if o.kind == "fold":
        return _FOLD, 0
    if o.kind == "check" and not river:
        return _ON, 0
    return _SHOW, o.multiple


def _linear(v: StreetValues) -> tuple[np.ndarray, np.ndarray]:
    """The showdown's value without a play bet and per ante of play bet; the kernel needs
    every multiple's value on that line (a play bet settled at even money or pushed)."""
    a0, b0 = v.show[0], v.show[1] - v.show[0]
    if any(not np.array_equal(v.show[m], a0 + m * b0) for m in v.show):
        raise InputError(f"{v.game.title}: the play bet's result is not the same per ante at every multiple")
    return a0, b0


@cache
def _classes(deck: tuple[int, ...], suits: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The class under suit permutations of each (seen card, two hole cards) cell
    (d1 * 1326 + colex index of the holding; -1 off the deck), each class's smallest
    member as (d1, hole, hole) and its members."""
    cards = np.array(deck, dtype=np.int64)
    d1, p1, p2 = (a.ravel() for a in np.meshgrid(cards, cards, cards, indexing="ij"))
    ok = (p1 < p2) & (d1 != p1) & (d1 != p2)
    d1, p1, p2 = d1[ok], p1[ok], p2[ok]
    keys = []
    for perm in suit_permutations(suits):
        a, b, c = perm[d1], perm[p1], perm[p2]
        lo, hi = np.minimum(b, c), np.maximum(b, c)
        keys.append(a * 1326 + lo + BINOM[hi, 2])
    key = np.min(keys, axis=0)
    uniq, cls, members = np.unique(key, return_inverse=True, return_counts=True)
    codes = np.full(52 * 1326, -1, dtype=np.int32)
    codes[d1 * 1326 + p1 + BINOM[p2, 2]] = cls
    seen, hole = uniq // 1326, uniq % 1326
    hi = np.searchsorted(BINOM[:, 2], hole, side="right") - 1
    reps = np.stack([seen, hole - BINOM[hi, 2], hi], axis=1)
    return codes, reps, members


@cache
def _board_card_classes(deck: tuple[int, ...], suits: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The class under suit permutations of each (seen card, two hole cards, board card)
    cell ((f * 52 + d1) * 1326 + colex index of the holding, f the board card: each
    (f, d1)'s holdings in memory order; -1 off the deck) and each class's members."""
    cards = np.array(deck, dtype=np.int64)
    d1, p1, p2 = (a.ravel() for a in np.meshgrid(cards, cards, cards, indexing="ij"))
    ok = (p1 < p2) & (d1 != p1) & (d1 != p2)
    d1, p1, p2 = (np.repeat(x[ok], len(cards)) for x in (d1, p1, p2))
    f = np.tile(cards, len(d1) // len(cards))
    ok = (f != d1) & (f != p1) & (f != p2)
    d1, p1, p2, f = d1[ok], p1[ok], p2[ok], f[ok]
    key = np.full(len(f), np.iinfo(np.int64).max)
    for perm in suit_permutations(suits):
        a, b, c, e = perm[d1], perm[p1], perm[p2], perm[f]
        np.minimum(key, (a * 1326 + np.minimum(b, c) + BINOM[np.maximum(b, c), 2]) * 52 + e, out=key)
    _, cls, members = np.unique(key, return_inverse=True, return_counts=True)
    codes = np.full(52 * 1326 * 52, -1, dtype=np.int32)
    codes[(f * 52 + d1) * 1326 + p1 + BINOM[p2, 2]] = cls
    return codes, members
