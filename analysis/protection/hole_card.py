"""A flashed hole card in a game without a board whose dealer already shows a card
(Caribbean Stud, Four Card Poker), counted exactly: the player then knows two of the
dealer's cards, so every state is his hand with a pair of the dealer's cards (145 million
of them for five-card hands: C(47, 2) per class), too many to keep, so they are counted a
chunk of classes at a time (:func:`~analysis.counting.no_board.no_board_chunks`), each state
decided on the spot and only the sums kept: a chunk's sums are a shard of a result store, so
a run resumes and a par sheet reads what ``protect`` counted.

A state's pair of seen cards is a set: either may be the up card, the other the flashed
one, two deals of the same counts. What gives the player away (his decision against the
base game's, which sees the up card alone) and what the flashed card is worth by its rank
are taken over both.

>>> from dataclasses import replace
>>> from analysis.model.game import load_game
>>> game = load_game("caribbean-stud")
>>> small = replace(game, rules=game.rules.small_deck("TJQKA", "cdh"))
>>> import tempfile
>>> e = hole_card_exposure(small, RunOptions(root=tempfile.mkdtemp(), progress=False))
>>> e.deals, e.house_edge  # every deal played out gives the same (tests/test_four_card_poker.py)
(15135120, Fraction(-40252, 21021))
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import ceil, comb
from pathlib import Path

import numpy as np
from tqdm import tqdm

from analysis.counting.no_board import NoBoardCounts, chunk_classes, no_board_chunks
from analysis.engine.no_board import NoBoardFigures, best_options, option_values, solve_no_board
from analysis.hands.rankings import RANKINGS
from analysis.model.cards import RANKS
from analysis.model.errors import InputError
from analysis.model.game import GameSpec
from analysis.parallel.options import RunOptions
from analysis.store.result_store import ResultStore, results_folder
from analysis.store.runs import holding

#: States counted at a time (about 1.2 GB of arrays): a chunk's sums are kept as one shard.
CHUNK = 8_000_000
#: The method's version: part of a job's key.
METHOD = "hole-card/1"


@dataclass(frozen=True)
class HoleCardExposure:
    """The game with one hole card seen beside the up card, exactly: the house edge (per
    ante; negative when the player has the edge), the deals (up card and flashed card in
    their roles), the share of deals played, played where the base strategy folds and
    folded where it plays, and the player's expected result by the rank of the flashed card."""

    base: NoBoardFigures = field(compare=False)
    house_edge: Fraction
    deals: int
    states: int
    call_rate: Fraction
    plays_folded: Fraction
    folds_played: Fraction
    by_rank: dict[str, Fraction]
    #: the result store the sums are kept in
    store: Path | None = None


def hole_card_exposure(
    game: GameSpec, options: RunOptions | None = None, chunk: int = CHUNK, base: NoBoardFigures | None = None
) -> HoleCardExposure:
    """``game`` (whose dealer shows one card) with one of his hole cards seen too, every
    state decided exactly and every deal counted; ``base``: the game already solved.

    Each chunk's sums are kept in a result store (the options' protection results folder)
    as it is counted: an interrupted run resumes at the chunks it had not kept, and a
    counted game is read back (:func:`stored_hole_card`)."""
    options = options or RunOptions()
    _check(game)
    base = solve_no_board(game, options=options) if base is None else base
    store, sizes = _store(game, chunk, options), _chunks(game, base, chunk)
    if not store.has(sizes):
        with holding(store, options.show_progress(), "another count of this hole card is running"):
            store.forget_damaged()
            todo = [i for i in sizes if store.size(i) < 1]
            with tqdm(
                total=len(sizes),
                initial=len(sizes) - len(todo),
                desc=f"{game.name}: a hole card seen, every deal",
                unit="chunk",
                disable=not options.show_progress(),
                file=sys.stderr,
            ) as bar:
                for i, part in zip(todo, _counts(game, options.threads, chunk, todo)):
                    store.write(i, _sums(game, base, part, i * chunk_classes(_per(game), chunk)), 1)
                    bar.update()
    return _read(game, base, store, sizes)


def stored_hole_card(
    game: GameSpec, base: NoBoardFigures, options: RunOptions | None = None
) -> HoleCardExposure | None:
    """What an earlier :func:`hole_card_exposure` of ``game`` kept, or None: nothing is
    counted here (a par sheet shows what is there and names the command that counts it)."""
    options = options or RunOptions()
    if game.no_board is None or game.no_board.up != 1:
        return None
    store, sizes = _store(game, CHUNK, options), _chunks(game, base, CHUNK)
    if not store.manifest_path.exists() or not store.has(sizes):
        return None
    return _read(game, base, store, sizes)


def _check(game: GameSpec) -> None:
    nb = game.no_board
    if nb is None or nb.up != 1:
        raise InputError(f"{game.title}: counted here is a game without a board whose dealer shows one card")


def _per(game: GameSpec) -> int:
    """The exposed game's states per class of player hands: each pair of the dealer's cards."""
    assert game.no_board is not None
    return comb(len(game.rules.deck) - game.no_board.hole, 2)


def _chunks(game: GameSpec, base: NoBoardFigures, chunk: int) -> dict[int, int]:
    """The chunks of the count, each of size 1 in the store."""
    return {i: 1 for i in range(ceil(len(base.states.codes) / chunk_classes(_per(game), chunk)))}


def _store(game: GameSpec, chunk: int, options: RunOptions) -> ResultStore:
    """The count's result store: its key is everything the counts and the decisions depend on."""
    nb = game.no_board
    assert nb is not None
    key = {
        "method": METHOD,
        "game": game.name,
        "rules": game.rules.fingerprint(),
        "hands": [nb.ranking, nb.hole, nb.dealer_cards, list(nb.qualifier_ranks or ()), nb.qualifier_category, nb.ties],
        "options": [str(o) for o in game.preflop],
        "settlement": repr(game.settlement),
        "chunk": chunk,
    }
    return ResultStore.for_job("hole-card", key, options.results or results_folder(options.root))


def _counts(game: GameSpec, threads: int | None, chunk: int, only: list[int]) -> Iterator[NoBoardCounts]:
    nb = game.no_board
    assert nb is not None
    ranking = RANKINGS[nb.ranking]
    floor = ranking.qualifying(nb.qualifier_ranks, nb.qualifier_category)
    deck = sorted(game.rules.deck)
    return no_board_chunks(deck, nb.hole, ranking.values, floor, 2, threads, nb.dealer_cards, chunk, only=only)


def _sums(game: GameSpec, base: NoBoardFigures, part: NoBoardCounts, first: int) -> dict[str, object]:
    """One chunk's exact sums (its classes start at class ``first``): the integers kept."""
    nb = game.no_board
    assert nb is not None
    exposed = replace(game, name=f"{game.name}+1", no_board=replace(nb, up=2))
    fold = next(i for i, o in enumerate(game.preflop) if o.kind == "fold")
    deck = np.array(sorted(game.rules.deck), dtype=np.int64)
    ups = len(deck) - nb.hole  # the base game's states per class: each card the dealer may show
    values, denominator = option_values(exposed, part.counts, RANKINGS[nb.ranking].category(part.value))
    chosen = best_options(exposed, values)
    best = values[np.arange(len(chosen)), chosen]
    w, plays = part.weight, chosen != fold
    plays_folded = folds_played = 0
    rank_net, rank_weight = [0] * 13, [0] * 13
    cls = first + np.arange(len(chosen)) // _per(game)  # the chunks hold whole classes, in the base game's order
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
    return {
        "classes": len(chosen) // _per(game),
        "states": len(chosen),
        "dealer_hands": part.dealer_hands,
        "denominator": denominator,
        "net": int((w * best).sum()),
        "weights": int(w.sum()),
        "played": int(w[plays].sum()),
        "plays_folded": plays_folded,
        "folds_played": folds_played,
        "rank_net": rank_net,
        "rank_weight": rank_weight,
    }


def _read(game: GameSpec, base: NoBoardFigures, store: ResultStore, sizes: dict[int, int]) -> HoleCardExposure:
    """The kept chunks' sums, each checked on read, added up into the figures."""
    parts = [store.read(i) for i in sorted(sizes)]
    keys = {"classes", "states", "dealer_hands", "denominator", "net", "weights", "played", "plays_folded"}
    keys |= {"folds_played", "rank_net", "rank_weight"}
    if any(not isinstance(p, dict) or set(p) != keys or len(p["rank_net"]) != 13 for p in parts):
        raise InputError(f"{store.path}: a chunk holds sums of another shape; {store.fix_hint()}")
    classes = sum(p["classes"] for p in parts)
    if classes != len(base.states.codes) or len({(p["dealer_hands"], p["denominator"]) for p in parts}) != 1:
        raise InputError(
            f"{store.path}: {classes:,} classes counted, not {len(base.states.codes):,}, or chunks of other pays; "
            f"{store.fix_hint()}"
        )

    def total(name: str) -> int:
        return sum(int(p[name]) for p in parts)

    scale, weights = parts[0]["dealer_hands"] * parts[0]["denominator"], total("weights")
    rank_net = [sum(int(p["rank_net"][r]) for p in parts) for r in range(13)]
    rank_weight = [sum(int(p["rank_weight"][r]) for p in parts) for r in range(13)]
    return HoleCardExposure(
        base,
        -Fraction(total("net"), scale * weights),
        2 * weights * parts[0]["dealer_hands"],
        total("states"),
        Fraction(total("played"), weights),
        Fraction(total("plays_folded"), 2 * weights),
        Fraction(total("folds_played"), 2 * weights),
        {RANKS[r]: Fraction(rank_net[r], scale * rank_weight[r]) for r in range(13) if rank_weight[r]},
        store.path,
    )
