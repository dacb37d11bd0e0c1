"""The exact optimal strategy and return of a game whose bets add up street by street
(Texas Hold'em Bonus: a fold or a bet before the flop, a check or a bet at the flop and at
the turn, every bet in action to the showdown against a dealer who always plays).

Each bet after the flop is settled on its own at even money on the final hands, so its
value is its size times the player's margin (dealer hands he beats less those he loses
to) over the completions still to come: the turn bet is made on a turn whose margin over
the rivers is above 0 (decided in the kernel, :func:`analysis.counting.streets.count_turns`),
the flop bet on a state whose margin over every turn and river is above 0, the largest bet
in each case; before the flop each class of hole cards compares the fold with each bet on
the exact sums of its states. An exact tie goes to the option that risks less. The result
has the shape of every multi-street game's (:class:`~analysis.engine.streets.StreetFigures`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from math import lcm
from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse

from analysis.counting.enumeration import prepare
from analysis.counting.streets import NCOLS6, RESULTS6, PreflopClasses, count_turns, preflop_classes
from analysis.counting.symmetry import FlopClass, flop_classes
from analysis.engine.streets import ShardCount, StreetFigures, count_keeping_states, with_kept_decisions
from analysis.hands import written_turn
from analysis.model.cards import format_cards
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError, SolveError
from analysis.model.game import GameSpec, Option
from analysis.model.outcomes import colex_codes, state_keys
from analysis.model.settlement import SIGNS
from analysis.parallel.options import RunOptions
from analysis.store.outcome_store import default_root
from analysis.store.result_store import ArrayResults, ResultStore
from analysis.store.runs import run_into_store

#: Flop classes counted at a time (bounds the memory of one kernel call): one shard of the
#: result store each.
CHUNK = 96
#: The method's version: part of a job's key, so a changed method never reads old shards.
METHOD = "turns/1"
#: The strategy in words' version (:mod:`analysis.hands.written_turn`): part of its jobs' keys.
WRITTEN = "written-turn/1"


def turn_values(game: GameSpec) -> tuple[int, np.ndarray, np.ndarray]:
    """The common integer unit (1/scale ante) and, per dealer hand by category x result,
    the ante's net and one unit of bet's net in it."""
    s = game.settlement
    results = [(c, r) for c in CATEGORIES for r in RESULTS6]
    sign = {r: SIGNS[("win", "tie", "loss").index(r.split("_")[-1])] for r in RESULTS6}
    ante = [s.net(c, True, sign[r], 0) for c, r in results]
    unit = [s.net(c, True, sign[r], 1) - a for (c, r), a in zip(results, ante)]
    scale = lcm(*(v.denominator for v in ante + unit), s.fold.denominator)
    return (
        scale,
        np.array([int(v * scale) for v in ante], dtype=np.int64),
        np.array([int(v * scale) for v in unit], dtype=np.int64),
    )


def solve_turns(
    game: GameSpec, options: RunOptions | None = None, keep_states: bool = False, written: bool = False
) -> StreetFigures:
    """The optimal strategy of a game whose bets add up, and its exact figures. The class
    sums of each shard of flop classes are kept in a result store (``turns/`` under the
    store root): a run resumes an interrupted one, a solved game is read back, and the
    shards run on the options' cluster when there is one. With ``keep_states`` every
    state's flop option and the turn cards it bets on are given too (for simulation),
    counted once in this process and kept beside the sums. With ``written`` the figures of
    the strategy in words instead (:mod:`analysis.hands.written_turn`): the optimal
    pre-flop grid, the flop and the turn played by its rules."""
    if not game.adds:
        raise InputError(f"{game.title}: its bets end the betting: solve it by streets (analysis.solve)")
    options = options or RunOptions(progress=False)
    flops = flop_classes(game.rules.deck, game.rules.suits)
    chunks = [flops[i : i + CHUNK] for i in range(0, len(flops), CHUNK)]
    folder = (options.root if options.root is not None else default_root()) / "turns"
    job = TurnJob(game, written)
    store = ResultStore.for_job("turns", job.key(), folder)
    sizes = {i: len(chunk) for i, chunk in enumerate(chunks)}
    if keep_states:
        kept = ArrayResults.for_job("turns-flop", job.key(), folder)
        count_keeping_states(job, chunks, store, kept, sizes, options)
    else:
        todo = {i: (job, chunk) for i, chunk in enumerate(chunks)}
        words = ", the strategy in words" if written else ""
        run_into_store(store, _turn_shard, todo, sizes, f"{game.name}: every deal, exactly{words}", options)
    grid = list(solve_turns(game, options).preflop["option"]) if written else None
    figures = _from_shards(game, [store.read(i) for i in range(len(chunks))], grid)
    figures = replace(figures, store=store.path, checksum=store.checksum(list(range(len(chunks)))))
    if not keep_states:
        return figures
    return with_kept_decisions(figures, [kept.read_arrays(i) for i in range(len(chunks))])


def count_turns_here(game: GameSpec, threads: int | None = None) -> StreetFigures:
    """``game`` counted and solved again in this process, every state's decisions kept, no
    store read or written: an independent recount of what the store holds (``verify``)."""
    flops = flop_classes(game.rules.deck, game.rules.suits)
    job = TurnJob(game)
    shards = [job.count(flops[i : i + CHUNK], threads) for i in range(0, len(flops), CHUNK)]
    figures = _from_shards(game, [s.sums.to_json() for s in shards])
    return with_kept_decisions(figures, [s.kept for s in shards])


def _from_shards(game: GameSpec, shards: list[dict[str, Any]], grid: list[str] | None = None) -> StreetFigures:
    """The figures from the shards' class sums (per class of hole cards: the tables of its
    states by flop option and turn decision), the pre-flop decision taken on them (or, per
    class, the option of ``grid``)."""
    scale, ante, unit = turn_values(game)
    sums = np.sum([_sums_from_json(shard) for shard in shards], axis=0)
    turn_bet = max((o.multiple for o in game.turn), default=0)
    return _preflop(game, preflop_classes(game.rules), sums, scale, ante, unit, turn_bet, grid)


def turn_key(game: GameSpec, written: bool = False) -> dict[str, object]:
    """What a game's class sums depend on: the method, the deck and hands, the options at the
    flop and the turn and a bet's value per dealer hand. Not the ante's pays nor the options
    before the flop (they enter only the pre-flop decision, taken on the sums), so variants
    that change only those (Atlantic City's ante table, Colorado's pre-flop bet of one ante)
    read the same shards."""
    scale, _, unit = turn_values(game)
    return {
        "method": METHOD,
        **({"strategy": WRITTEN} if written else {}),
        "rules": game.rules.fingerprint(),
        "flop": [str(o) for o in game.flop],
        "turn": [str(o) for o in game.turn],
        "unit": [str(Fraction(int(x), scale)) for x in unit],
    }


@dataclass(frozen=True)
class TurnSums:
    """One shard's sums: per class of hole cards, the tables of its states by the flop option
    they take and their turn decision (check, bet)."""

    sums: np.ndarray  # classes x flop options x 2 x NCOLS6

    def to_json(self) -> dict[str, object]:
        return {"shape": list(self.sums.shape), "sums": self.sums.ravel().tolist()}


@dataclass(frozen=True)
class TurnJob:
    """The count of a game whose bets add up, shard by shard (the turn decided in the
    kernel); with ``keep`` each state's key, flop option and the turn cards it bets on.
    ``written``: the flop and the turn played by the strategy in words
    (:mod:`analysis.hands.written_turn`) instead."""

    game: GameSpec
    written: bool = False

    def key(self) -> dict[str, object]:
        return turn_key(self.game, self.written)

    def count(
        self,
        flops: list[FlopClass],
        threads: int | None = None,
        keep: bool = True,
        done: Callable[[int], object] | None = None,
    ) -> ShardCount:
        game, rules = self.game, self.game.rules
        _, _, unit = turn_values(game)
        classes = preflop_classes(rules)
        flop_opts = game.flop or (Option("check"),)
        sums = np.zeros((len(classes.codes), len(flop_opts), 2, NCOLS6), dtype=np.int64)
        p = prepare(rules, flops)
        flop_rows = np.repeat(p.flop_cards, np.diff(p.hold_offsets), axis=0).astype(np.int64)
        holes = p.holdings.astype(np.int64)
        given = written_turn.turn_masks(holes, flop_rows, rules.deck) if self.written else None
        tc = count_turns(p, classes, threads, given)
        tables = tc.turn.astype(np.int64)
        if not game.turn:  # no turn decision: every turn checks
            tables = np.stack([tables.sum(axis=1), np.zeros_like(tables[:, 0])], axis=1)
        if self.written:
            choice = np.where(written_turn.flop_bets(holes, flop_rows), [o.kind for o in flop_opts].index("bet"), 0)
        else:
            margin = tables.sum(axis=1) @ unit  # the flop bet's value per unit, per state
            values = np.stack([margin * o.multiple for o in flop_opts], axis=1)
            choice = np.argmax(values, axis=1)  # the first best: options run least risk first
        rows = np.arange(len(tables))
        for i in range(len(flop_opts)):
            weight = np.where(choice == i, tc.weight, 0)
            m = sparse.csr_matrix((weight, (tc.klass, rows)), shape=(len(classes.codes), len(rows)), dtype=np.int64)
            sums[:, i] += np.asarray(m @ tables.reshape(len(rows), -1)).reshape(len(classes.codes), 2, NCOLS6)
        if done is not None:
            done(len(p.flop_cards))
        if not keep:
            return ShardCount(TurnSums(sums), {})
        keys = state_keys(colex_codes(flop_rows), colex_codes(p.holdings))
        turns = tc.bets if game.turn else np.zeros_like(tc.bets)
        return ShardCount(TurnSums(sums), {"keys": keys, "options": choice.astype(np.int8), "turns": turns})


def _turn_shard(job: TurnJob, flops: list[FlopClass], threads: int | None = None) -> dict[str, object]:
    """One shard's class sums, as the result store keeps them."""
    return job.count(flops, threads, keep=False).sums.to_json()


def _sums_from_json(data: dict[str, Any]) -> np.ndarray:
    return np.array(data["sums"], dtype=np.int64).reshape(tuple(int(n) for n in data["shape"]))


def _preflop(
    game: GameSpec,
    classes: PreflopClasses,
    sums: np.ndarray,
    scale: int,
    ante: np.ndarray,
    unit: np.ndarray,
    turn_bet: int,
    grid: list[str] | None = None,
) -> StreetFigures:
    """Decide before the flop per class of hole cards (or take the option ``grid`` names),
    and gather the counts of each path."""
    flop_opts = game.flop or (Option("check"),)
    fold = int(game.fold_value * scale)
    counts: dict[tuple[str, int, str, str], int] = {}
    decisions: dict[tuple[str, str], int] = {}
    rows = []
    turn_words = ("check", f"bet {turn_bet}")

    def dot(table: np.ndarray, vec: np.ndarray) -> int:
        return sum(int(a) * int(b) for a, b in zip(table.tolist(), vec.tolist()))

    for h in range(len(classes.codes)):
        tables = sums[h]
        deals = int(tables.sum())
        base = sum(dot(tables[i, t], ante) for i in range(len(flop_opts)) for t in range(2))
        later = sum(
            dot(tables[i, t], unit) * (o.multiple + (turn_bet if t else 0))
            for i, o in enumerate(flop_opts)
            for t in range(2)
        )
        margin = sum(dot(tables[i, t], unit) for i in range(len(flop_opts)) for t in range(2))
        values = [deals * fold if o.kind == "fold" else base + later + o.multiple * margin for o in game.preflop]
        best = (
            [str(o) for o in game.preflop].index(grid[h])
            if grid is not None
            else max(range(len(values)), key=lambda i: (values[i], -i))
        )
        chosen = game.preflop[best]
        evs = {f"EV({o})": Fraction(v, scale * deals) for o, v in zip(game.preflop, values)}
        rows.append({"class": h, "option": str(chosen), "deals": deals} | evs)
        decisions[("preflop", str(chosen))] = decisions.get(("preflop", str(chosen)), 0) + deals
        if chosen.kind == "fold":
            counts[("fold", 0, "", "")] = counts.get(("fold", 0, "", ""), 0) + deals
            continue
        for i, o in enumerate(flop_opts):
            if game.flop:
                key = ("flop", str(o))
                decisions[key] = decisions.get(key, 0) + int(tables[i].sum())
            for t in range(2):
                if game.turn:
                    key = ("turn", turn_words[t])
                    decisions[key] = decisions.get(key, 0) + int(tables[i, t].sum())
                multiple = chosen.multiple + o.multiple + (turn_bet if t else 0)
                for j, n in enumerate(tables[i, t].tolist()):
                    if n:
                        k = ("showdown", multiple, CATEGORIES[j // len(RESULTS6)], RESULTS6[j % len(RESULTS6)])
                        counts[k] = counts.get(k, 0) + int(n)
    total = sum(counts.values())
    if total != 2 * game.rules.total_combinations:  # the turn and the river in their order
        raise SolveError(f"{game.name}: the counts add up to {total} deals, not {2 * game.rules.total_combinations}")
    preflop = pd.DataFrame(rows)
    preflop.insert(1, "hole cards", [format_cards(int(c) for c in ex) for ex in classes.example])
    preflop.insert(2, "holdings", classes.size)
    points = {"preflop": game.preflop, "flop": flop_opts, "turn": (Option("check"), Option("bet", turn_bet))}
    order = {(s, str(o)): (i, j) for i, (s, opts) in enumerate(points.items()) for j, o in enumerate(opts)}
    decisions = {k: n for k, n in sorted(decisions.items(), key=lambda kv: order[kv[0]]) if n}
    every = sums.sum(axis=(0, 1, 2)).tolist()
    every_deal = {
        (CATEGORIES[j // len(RESULTS6)], RESULTS6[j % len(RESULTS6)]): int(n) for j, n in enumerate(every) if n
    }
    return StreetFigures(game, total, counts, decisions, preflop, classes, every_deal)
