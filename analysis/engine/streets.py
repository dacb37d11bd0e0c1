"""The exact optimal strategy and return of a game with several decision points (a game
file's ``[betting]``: pre-flop, flop, river), by backward induction over exact counts.

The river decision is taken board by board inside the kernel; the flop decision per state
(hole cards + flop) from its two tables; the pre-flop decision per class of hole cards
(suit permutations) from the states' sums. Every value is an exact integer in a common
unit (the pays' common denominator); an exact tie goes to the option that risks less.
Work runs flop class by flop class, so memory stays at one chunk's states.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from math import lcm
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import numpy as np
import pandas as pd
from scipy import sparse
from tqdm import tqdm

from analysis.counting.enumeration import prepare
from analysis.counting.streets import NCOLS6, RESULTS6, PreflopClasses, StreetCounts, count_streets, preflop_classes
from analysis.counting.symmetry import FlopClass, canonical_states_and_maps
from analysis.engine.result import Outcome
from analysis.engine.statistics import ExactFigures, figures_of
from analysis.hands.written import flop_bets
from analysis.model.cards import format_cards
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError, SolveError
from analysis.model.game import BETTING_POINTS, GameSpec, Option
from analysis.model.outcomes import colex_codes, state_keys
from analysis.model.settlement import Settlement
from analysis.parallel.options import RunOptions
from analysis.store.outcome_store import default_root, shard_plan
from analysis.store.result_store import ArrayResults, ResultStore
from analysis.store.runs import holding, run_into_store

_INT64 = 1 << 62


@dataclass(frozen=True)
class StreetValues:
    """A game's outcome values as exact integers in one unit (1/``scale`` ante): per dealer
    hand by category x result for a showdown with each play multiple, a fold per deal, and
    the options of each street (a street without a decision checks)."""

    game: GameSpec
    scale: int
    fold: int
    show: dict[int, np.ndarray]
    preflop: tuple[Option, ...]
    flop: tuple[Option, ...]
    river: tuple[Option, ...]

    @property
    def river_coef(self) -> np.ndarray:
        """The kernel's river options: each one's value per dealer hand."""
        return np.stack([np.full(NCOLS6, self.fold) if o.kind == "fold" else self.show[o.multiple] for o in self.river])

    def flop_values(self, bet: np.ndarray, river: np.ndarray) -> np.ndarray:
        """Each state's value (states x flop options) from its bet table and river tables."""
        deals = bet.sum(axis=1)
        values = []
        for o in self.flop:
            if o.kind == "fold":
                values.append(deals * self.fold)
            elif o.kind == "bet":
                values.append(bet @ self.show[o.multiple])
            else:  # check: the river decision, taken board by board
                values.append(np.einsum("sok,ok->s", river, self.river_coef))
        return np.stack(values, axis=1)

    def exact(self, value: int, deals: int) -> Fraction:
        """A value summed over ``deals`` deals, per deal in antes."""
        return Fraction(value, self.scale * deals)


def street_values(game: GameSpec) -> StreetValues:
    """The game's values in the smallest common integer unit, checked to fit 64-bit sums."""
    scale = lcm(*(v.denominator for m in range(10) for v in game.showdown_values(m)), game.fold_value.denominator)
    show = {}
    for m in range(10):
        ints = [int(v * scale) for v in game.showdown_values(m)]
        if max(map(abs, ints)) * game.rules.completions * NCOLS6 >= _INT64:
            raise InputError(f"{game.source}: pays too large for exact 64-bit sums (at most about 1e6 to 1)")
        show[m] = np.array(ints, dtype=np.int64)
    return StreetValues(
        game=game,
        scale=scale,
        fold=int(game.fold_value * scale),
        show=show,
        preflop=game.preflop or (Option("check"),),
        flop=game.flop or (Option("check"),),
        river=game.river or (Option("check"),),
    )


@dataclass(frozen=True)
class StreetFigures:
    """The exact figures of a multi-street game under its optimal strategy. ``counts`` maps
    (street the betting ended, play multiple, category, dealer result) to deals, with
    ``("fold", 0, "", "")`` for folds (``"showdown"`` for a game whose bets add up, where the
    betting ends at the showdown and the play multiple is every bet's sum); ``decisions``
    the deals that took each option at each street; ``preflop`` the pre-flop option of each
    class of hole cards."""

    game: GameSpec
    total: int
    counts: dict[tuple[str, int, str, str], int]
    decisions: dict[tuple[str, str], int]
    preflop: pd.DataFrame = field(repr=False)
    classes: PreflopClasses = field(repr=False)
    #: every deal by the player's final category and the dealer's result, whatever the
    #: player does (what a side bet settled on the final hands is paid on)
    every_deal: dict[tuple[str, str], int] = field(default_factory=dict, repr=False)
    #: canonical state keys (sorted) and the flop option each takes, when kept
    flop_keys: np.ndarray | None = field(default=None, repr=False)
    flop_options: np.ndarray | None = field(default=None, repr=False)
    #: a game with a decision at the turn: per kept state, the turn cards it bets on (bit c
    #: for card c of the canonical state)
    turn_bets: np.ndarray | None = field(default=None, repr=False)
    #: the result store the figures were read from and its checksum (None: counted in this process)
    store: Path | None = None
    checksum: str | None = None

    def preflop_choice(self, holes: np.ndarray) -> list[Option]:
        """The pre-flop option of each row of hole cards (its class's)."""
        by_class = self.preflop["option"].to_numpy()
        options = {str(o): o for o in self.game.preflop or (Option("check"),)}
        return [options[by_class[c]] for c in self.classes.of(np.atleast_2d(holes), self.game.rules)]

    def flop_choice(self, holes: np.ndarray, flops: np.ndarray) -> np.ndarray:
        """Index into the game's flop options (or 0: check, for a game without a flop
        decision) of each (hole cards, flop) row pair; needs ``solve_streets(keep_states=True)``."""
        if self.flop_options is None:
            raise InputError("the flop decisions were not kept: solve with keep_states=True")
        return self.flop_options[self._kept_rows(holes, flops)[0]]

    def turn_choice(self, holes: np.ndarray, flops: np.ndarray, turns: np.ndarray) -> np.ndarray:
        """Whether each (hole cards, flop, turn card) bets at the turn, for a game with a
        decision there; needs ``solve_streets(keep_states=True)``."""
        if self.turn_bets is None:
            raise InputError("the turn decisions were not kept: solve a game with a turn decision, keep_states=True")
        rows, perms = self._kept_rows(holes, flops)
        image = perms[np.arange(len(rows)), np.asarray(turns, dtype=np.int64)]  # the turn card in the kept state
        return ((self.turn_bets[rows] >> image.astype(np.uint64)) & np.uint64(1)).astype(bool)

    def _kept_rows(self, holes: np.ndarray, flops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The kept row of each (hole cards, flop) row pair, and the card map that takes it there."""
        if self.flop_keys is None:
            raise InputError("the flop decisions were not kept: solve with keep_states=True")
        flop_code, hole_code, perms = canonical_states_and_maps(holes, flops, self.game.rules.suits)
        keys = state_keys(flop_code, hole_code)
        at = np.searchsorted(self.flop_keys, keys)
        if np.any(at >= len(self.flop_keys)) or np.any(self.flop_keys[np.minimum(at, len(self.flop_keys) - 1)] != keys):
            raise InputError("a state that is not in the game's deck")
        return at, perms

    def value(self, key: tuple[str, int, str, str]) -> Fraction:
        """Net result in antes of one outcome."""
        street, multiple, category, result = key
        if street == "fold":
            return self.game.fold_value
        values = self.game.showdown_values(multiple)
        return values[CATEGORIES.index(category) * len(RESULTS6) + RESULTS6.index(result)]

    @cached_property
    def exact(self) -> ExactFigures:
        """The exact figures, with the same names as every game's (house edge, element of
        risk, call rate: the deals that put up a play bet, standard deviation, ...)."""
        payoffs = {k: self.value(k) for k in self.counts}
        played = self.total - self.counts.get(("fold", 0, "", ""), 0)
        start = 1 + (self.game.blind is not None)
        wager = start + Fraction(sum(n * k[1] for k, n in self.counts.items()), self.total)
        return figures_of(self.counts, payoffs, Fraction(played, self.total), wager)

    @property
    def expected(self) -> Fraction:
        """The player's expected net result per hand, in antes."""
        return self.exact.ev

    @property
    def house_edge(self) -> Fraction:
        """The house's expected win per ante."""
        return self.exact.house_edge

    @property
    def average_wager(self) -> Fraction:
        """Antes wagered per hand on average: ante, blind and the play bet."""
        return self.exact.average_wager

    @property
    def element_of_risk(self) -> Fraction:
        """The house's expected win per unit wagered."""
        return self.exact.element_of_risk

    @property
    def variance(self) -> Fraction:
        return self.exact.variance

    @property
    def standard_deviation(self) -> float:
        return self.exact.standard_deviation

    @property
    def hit_frequency(self) -> Fraction:
        """The probability that a hand nets a win."""
        return self.exact.hit_frequency

    def decision_rates(self) -> pd.DataFrame:
        """How often each option is taken at each street, over all deals."""
        rows = [
            {"street": s, "option": o, "deals": n, "probability": float(Fraction(n, self.total))}
            for (s, o), n in self.decisions.items()
        ]
        return pd.DataFrame(rows)

    @property
    def settlement(self) -> Settlement:
        """How the game file's wagers settle."""
        return self.game.settlement

    def outcomes(self) -> list[Outcome]:
        """Every outcome as :class:`~analysis.engine.result.Outcome`: folds first, then by
        the street the betting ended, the larger bet, the better hand, the dealer's result."""
        streets = ("fold", *BETTING_POINTS, "showdown")

        def order(key: tuple[str, int, str, str]) -> tuple[int, int, int, int]:
            street, multiple, category, result = key
            hand = -CATEGORIES.index(category) if category else 0
            return streets.index(street), -multiple, hand, RESULTS6.index(result) if result else 0

        return [Outcome(*k, n, self.value(k)) for k, n in sorted(self.counts.items(), key=lambda kv: order(kv[0]))]


#: The method's version: part of a job's key, so a changed method never reads old shards.
METHOD = "streets/1"
#: The written strategy's version (:mod:`analysis.hands.written`): part of its jobs' keys.
WRITTEN = "written/1"
#: Flop classes the kernel counts at a time inside a shard (bounds the memory of one call).
CHUNK = 64


def game_key(game: GameSpec) -> dict[str, object]:
    """What every count of a game depends on (its rules, decisions and values), for a job's key."""
    v = street_values(game)
    return {
        "rules": game.rules.fingerprint(),
        "streets": {s: [str(o) for o in opts] for s, opts in game.streets.items()},
        "values": {str(m): [str(Fraction(int(x), v.scale)) for x in v.show[m]] for m in v.show},
        "fold": str(game.fold_value),
    }


@dataclass(frozen=True)
class StreetJob:
    """One exact solve of a game: its key names everything the shards depend on; a shard
    is a list of flop classes (the outcome store's plan), its result the class sums."""

    game: GameSpec
    #: play the written strategy at the flop and the river (:mod:`analysis.hands.written`)
    written: bool = False

    def key(self) -> dict[str, object]:
        return {"method": METHOD, **({"strategy": WRITTEN} if self.written else {}), **game_key(self.game)}

    def sums(self, flops: list[FlopClass], threads: int | None = None) -> ClassSums:
        return self.count(flops, threads, keep=False).sums

    def count(
        self,
        flops: list[FlopClass],
        threads: int | None = None,
        keep: bool = True,
        done: Callable[[int], object] | None = None,
    ) -> ShardCount:
        """The class sums of some flop classes, and with ``keep`` each state's key and flop
        option; ``done`` is told the flop classes counted after each chunk."""
        v, rules = street_values(self.game), self.game.rules
        classes = preflop_classes(rules)
        sums = ClassSums.zero(len(classes.codes), len(v.flop), len(v.river))
        keys, choices = [], []
        river_bet = [o.kind for o in v.river].index("bet") if self.written else -1
        flop_bet = [o.kind for o in v.flop].index("bet") if self.written else -1
        for start in range(0, len(flops), CHUNK):
            p = prepare(rules, flops[start : start + CHUNK])
            sc = count_streets(p, v.river_coef, classes, threads, river_bet=river_bet)
            flop_rows = np.repeat(p.flop_cards, np.diff(p.hold_offsets), axis=0)
            written = np.where(flop_bets(p.holdings.astype(np.int64), flop_rows), flop_bet, 0) if self.written else None
            choice = sums.add(sc, v, written)
            if keep:
                keys.append(state_keys(colex_codes(flop_rows), colex_codes(p.holdings)))
                choices.append(choice.astype(np.int8))
            if done is not None:
                done(len(p.flop_cards))
        if not keep:
            return ShardCount(sums, {})
        return ShardCount(sums, {"keys": np.concatenate(keys), "options": np.concatenate(choices)})


class ShardCount(NamedTuple):
    """A shard's class sums (anything with ``to_json``) and, when kept, arrays per state:
    its key, its flop option and whatever else the game decides per state."""

    sums: Any
    kept: dict[str, np.ndarray]


class KeepingJob(Protocol):
    """A solve whose shards can keep each state's decisions (:func:`count_keeping_states`)."""

    @property
    def game(self) -> GameSpec: ...

    def count(
        self,
        flops: list[FlopClass],
        threads: int | None = None,
        keep: bool = True,
        done: Callable[[int], object] | None = None,
    ) -> ShardCount: ...


@dataclass
class ClassSums:
    """Per class of hole cards: every completion's table (what a pre-flop bet is settled
    on), the tables of the states whose flop decision bets, the river tables of those that
    check, the deals folded at the flop and the deals that took each flop option."""

    pre_bet: np.ndarray  # classes x NCOLS6
    flop_bet: np.ndarray  # classes x flop options x NCOLS6
    river: np.ndarray  # classes x river options x NCOLS6
    flop_fold: np.ndarray  # classes
    flop_deals: np.ndarray  # classes x flop options

    @classmethod
    def zero(cls, nclass: int, nflop: int, nriv: int) -> ClassSums:
        return cls(
            np.zeros((nclass, NCOLS6), dtype=np.int64),
            np.zeros((nclass, nflop, NCOLS6), dtype=np.int64),
            np.zeros((nclass, nriv, NCOLS6), dtype=np.int64),
            np.zeros(nclass, dtype=np.int64),
            np.zeros((nclass, nflop), dtype=np.int64),
        )

    def add(self, sc: StreetCounts, v: StreetValues, choice: np.ndarray | None = None) -> np.ndarray:
        """Decide the flop for every state counted (or take ``choice``, an option index per
        state), add its tables to its class's sums and return each state's flop option."""
        bet = sc.bet.astype(np.int64)
        riv = sc.river.astype(np.int64)
        completions = bet.sum(axis=1)
        if choice is None:
            choice = np.argmax(v.flop_values(bet, riv), axis=1)  # first best: options are in risk order
        nclass, rows = len(self.pre_bet), np.arange(len(bet))

        def by_class(weight: np.ndarray, values: np.ndarray) -> np.ndarray:
            """Sum of weight x values per class, exactly (an integer sparse product: np.add.at
            took half a solve); rows of weight 0 add nothing."""
            m = sparse.csr_matrix((weight, (sc.klass, rows)), shape=(nclass, len(rows)), dtype=np.int64)
            return np.asarray(m @ values.reshape(len(values), -1)).reshape((nclass, *values.shape[1:]))

        self.pre_bet += by_class(sc.weight, bet)
        for i, o in enumerate(v.flop):
            w = np.where(choice == i, sc.weight, 0)
            self.flop_deals[:, i] += by_class(w, completions)
            if o.kind == "bet":
                self.flop_bet[:, i] += by_class(w, bet)
            elif o.kind == "check":
                self.river += by_class(w, riv)
            else:
                self.flop_fold += by_class(w, completions)
        return choice

    def __iadd__(self, other: ClassSums) -> ClassSums:
        for name in ("pre_bet", "flop_bet", "river", "flop_fold", "flop_deals"):
            getattr(self, name).__iadd__(getattr(other, name))
        return self

    def to_json(self) -> dict[str, object]:
        return {name: [list(a.shape), a.ravel().tolist()] for name, a in vars(self).items()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClassSums:
        arrays = {}
        for name in ("pre_bet", "flop_bet", "river", "flop_fold", "flop_deals"):
            shape, flat = data[name]
            arrays[name] = np.array(flat, dtype=np.int64).reshape(tuple(int(n) for n in shape))
        return cls(**arrays)


def _street_shard(job: StreetJob, flops: list[FlopClass], threads: int | None = None) -> dict[str, object]:
    return job.sums(flops, threads).to_json()


def solve_streets(
    game: GameSpec, options: RunOptions | None = None, keep_states: bool = False, written: bool = False
) -> StreetFigures:
    """The optimal strategy of ``game`` and its exact figures. The class sums of each shard
    of flop classes are kept in a result store (``streets/`` under the store root): a run
    resumes an interrupted one, a solved game is read back, and the shards run on the
    options' cluster when there is one. With ``keep_states`` every state's flop decision is
    given too (for simulation and advice): kept in a store of their own beside the sums, so
    they are counted once, in this process, and read back after. With ``written`` the
    figures of the written strategy instead: the optimal pre-flop grid, the flop and the
    river played by the rules of :mod:`analysis.hands.written` (a Hold'em-hand game that
    checks or bets at the flop and folds or bets at the river)."""
    options = options or RunOptions()
    if not isinstance(game, GameSpec):
        raise InputError(f"solve_streets: game must be a GameSpec (load_game), not {type(game).__name__}")
    if written and not has_written_strategy(game):
        raise InputError(
            f"{game.title}: the written strategies are written for two hole cards, the best five of seven, and "
            "either a check or one bet at the flop and a fold or one bet at the river, or bets that add up with a "
            "check or one bet at the flop and at the turn"
        )
    if written and keep_states:
        raise InputError("the written strategy's flop decisions are not kept (it decides them by its rules)")
    if game.adds:  # bets that add up, a decision at the turn: counted by margins, in seconds
        from analysis.engine.turns import solve_turns

        return solve_turns(game, options, keep_states, written)
    if game.no_board is not None or game.hand_paid is not None:
        raise InputError(f"{game.title} has no board or no dealer: solve it with analysis.solve, not by streets")
    job, v, rules = StreetJob(game, written), street_values(game), game.rules
    classes = preflop_classes(rules)
    plan = shard_plan(rules)
    folder = (options.root if options.root is not None else default_root()) / "streets"
    store = ResultStore.for_job("streets", job.key(), folder)
    sizes = {i: len(flops) for i, flops in enumerate(plan)}
    if keep_states:
        kept = ArrayResults.for_job("streets-flop", job.key(), folder)
        count_keeping_states(job, plan, store, kept, sizes, options)
    else:
        run_into_store(
            store,
            _street_shard,
            {i: (job, flops) for i, flops in enumerate(plan)},
            sizes,
            f"{game.name}: every deal, exactly{', the written strategy' if written else ''}",
            options,
        )
    sums = ClassSums.zero(len(classes.codes), len(v.flop), len(v.river))
    for i in range(len(plan)):
        sums += ClassSums.from_json(store.read(i))
    grid = list(solve_streets(game, options).preflop["option"]) if written else None
    figures = replace(
        _preflop(v, classes, sums, grid), store=store.path, checksum=store.checksum(list(range(len(plan))))
    )
    if not keep_states:
        return figures
    return with_kept_decisions(figures, [kept.read_arrays(i) for i in range(len(plan))])


def has_written_strategy(game: GameSpec) -> bool:
    """Whether a strategy in words fits the game: two hole cards, the best five of seven, and
    either a check or one bet at the flop and a fold or one bet at the river
    (:mod:`analysis.hands.written`), or bets that add up with a check or one bet at the flop
    and at the turn (:mod:`analysis.hands.written_turn`)."""
    rules = game.rules
    shape = (
        [o.kind for o in game.flop],
        [o.kind for o in game.turn],
        [o.kind for o in game.river] if not game.adds else [],
    )
    return (
        game.no_board is None
        and game.hand_paid is None
        and rules.hole_cards == 2
        and not rules.omaha
        and shape == (["check", "bet"], ["check", "bet"] if game.adds else [], [] if game.adds else ["fold", "bet"])
    )


def count_streets_here(game: GameSpec, threads: int | None = None) -> StreetFigures:
    """``game`` counted and solved again in this process, every flop decision kept, no
    store read or written: an independent recount of what the stores hold."""
    job, v = StreetJob(game), street_values(game)
    classes = preflop_classes(game.rules)
    total = ClassSums.zero(len(classes.codes), len(v.flop), len(v.river))
    kept = []
    for flops in shard_plan(game.rules):
        shard = job.count(flops, threads)
        total += shard.sums
        kept.append(shard.kept)
    return with_kept_decisions(_preflop(v, classes, total), kept)


def with_kept_decisions(figures: StreetFigures, shards: list[dict[str, np.ndarray]]) -> StreetFigures:
    """The figures with every state's kept decisions (the shards' ``keys``, ``options`` and,
    for a decision at the turn, ``turns``), in state key order."""
    keys = np.concatenate([a["keys"] for a in shards])
    order = np.argsort(keys)
    turns = np.concatenate([a["turns"] for a in shards])[order] if shards and "turns" in shards[0] else None
    options = np.concatenate([a["options"] for a in shards])[order]
    return replace(figures, flop_keys=keys[order], flop_options=options, turn_bets=turns)


def count_keeping_states(
    job: KeepingJob,
    plan: list[list[FlopClass]],
    store: ResultStore,
    kept: ArrayResults,
    sizes: dict[int, int],
    options: RunOptions,
) -> None:
    """Count, in this process, every shard whose flop decisions are not kept yet, keeping
    them and (where it lacks them) the shard's sums in the job's result store. A second
    run of the same game waits for the first and reads what it kept."""
    if store.has(sizes) and kept.has(sizes):
        return
    show = options.show_progress()
    with ExitStack() as stack:
        stack.enter_context(holding(kept, show, "another run of this game is keeping its flop decisions"))
        kept.forget_damaged()
        todo = [i for i in sizes if kept.size(i) < sizes[i] or not store.has({i: sizes[i]})]
        if not todo:
            return
        if not store.has(sizes):
            stack.enter_context(holding(store, show, "another run of this job is writing"))
            store.forget_damaged()
        bar = stack.enter_context(
            tqdm(total=sum(sizes[i] for i in todo), unit="flop", desc=job.game.name, disable=not show)
        )
        for i in todo:
            shard = job.count(plan[i], options.threads, done=bar.update)
            if store.size(i) < sizes[i]:
                store.write(i, shard.sums.to_json(), sizes[i])
            kept.write_arrays(i, sizes[i], **shard.kept)


def _preflop(v: StreetValues, classes: PreflopClasses, sums: ClassSums, grid: list[str] | None = None) -> StreetFigures:
    """Decide pre-flop per class of hole cards (or take ``grid``'s option of each class) and
    gather the counts of the chosen paths."""
    game, rules = v.game, v.game.rules
    pre_bet, flop_bet, river_tab, flop_fold = sums.pre_bet, sums.flop_bet, sums.river, sums.flop_fold
    flop_deals = sums.flop_deals
    pre_opts, flop_opts, river, show, fold_int = v.preflop, v.flop, v.river, v.show, v.fold
    counts: dict[tuple[str, int, str, str], int] = {}
    decisions: dict[tuple[str, str], int] = {}
    rows = []

    def add_table(street: str, multiple: int, table: np.ndarray) -> None:
        for j, n in enumerate(table.tolist()):
            if n:
                key = (street, multiple, CATEGORIES[j // len(RESULTS6)], RESULTS6[j % len(RESULTS6)])
                counts[key] = counts.get(key, 0) + int(n)

    def exact(table: np.ndarray, vec: np.ndarray) -> int:
        return sum(int(a) * int(b) for a, b in zip(table.tolist(), vec.tolist()))

    for h in range(len(classes.codes)):
        deals = int(pre_bet[h].sum())
        check_value = 0
        for i, o in enumerate(flop_opts):
            if o.kind == "bet":
                check_value += exact(flop_bet[h, i], show[o.multiple])
        for i, o in enumerate(river):
            table = river_tab[h, i]
            check_value += exact(table, show[o.multiple]) if o.kind != "fold" else int(table.sum()) * fold_int
        check_value += int(flop_fold[h]) * fold_int
        values = []
        for o in pre_opts:
            if o.kind == "bet":
                values.append(exact(pre_bet[h], show[o.multiple]))
            elif o.kind == "fold":
                values.append(deals * fold_int)
            else:
                values.append(check_value)
        best = max(range(len(values)), key=lambda i: (values[i], -i))
        if grid is not None:
            best = [str(o) for o in pre_opts].index(grid[h])
        chosen = pre_opts[best]
        evs = {f"EV({o})": v.exact(value, deals) for o, value in zip(pre_opts, values)}
        rows.append({"class": h, "option": str(chosen), "deals": deals} | evs)
        if game.preflop:
            decisions[("preflop", str(chosen))] = decisions.get(("preflop", str(chosen)), 0) + deals
        if chosen.kind == "bet":
            add_table("preflop", chosen.multiple, pre_bet[h])
            continue
        if chosen.kind == "fold":
            counts[("fold", 0, "", "")] = counts.get(("fold", 0, "", ""), 0) + deals
            continue
        for i, o in enumerate(flop_opts):
            if game.flop:
                decisions[("flop", str(o))] = decisions.get(("flop", str(o)), 0) + int(flop_deals[h, i])
            if o.kind == "bet":
                add_table("flop", o.multiple, flop_bet[h, i])
        if flop_fold[h]:
            counts[("fold", 0, "", "")] = counts.get(("fold", 0, "", ""), 0) + int(flop_fold[h])
        for i, o in enumerate(river):
            n = int(river_tab[h, i].sum())
            if game.river:
                decisions[("river", str(o))] = decisions.get(("river", str(o)), 0) + n
            if o.kind == "fold":
                if n:
                    counts[("fold", 0, "", "")] = counts.get(("fold", 0, "", ""), 0) + n
            else:
                add_table("river", o.multiple, river_tab[h, i])
    total = sum(counts.values())
    if total != rules.total_combinations:
        raise SolveError(f"{game.name}: the counts add up to {total} deals, not {rules.total_combinations}")
    preflop = pd.DataFrame(rows)
    preflop.insert(1, "hole cards", [_hole_text(c) for c in classes.example])
    preflop.insert(2, "holdings", classes.size)
    streets = {"preflop": pre_opts, "flop": flop_opts, "river": river}
    order = {(s, str(o)): (i, j) for i, (s, opts) in enumerate(streets.items()) for j, o in enumerate(opts)}
    decisions = {key: n for key, n in sorted(decisions.items(), key=lambda kv: order[kv[0]]) if n}
    every = pre_bet.sum(axis=0).tolist()
    every_deal = {
        (CATEGORIES[j // len(RESULTS6)], RESULTS6[j % len(RESULTS6)]): int(n) for j, n in enumerate(every) if n
    }
    return StreetFigures(
        game=game,
        total=total,
        counts=counts,
        decisions=decisions,
        preflop=preflop,
        classes=classes,
        every_deal=every_deal,
    )


def _hole_text(cards: np.ndarray) -> str:
    return format_cards([int(c) for c in cards])
