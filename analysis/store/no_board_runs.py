"""The counts of a game without a board kept in a result store (``no-board`` under the
store root): counted a chunk of classes at a time (:func:`~analysis.counting.no_board.no_board_chunks`),
each chunk a shard written as it is counted, so an interrupted count resumes at the chunks
it had not kept and a counted game is read back (Four Card Poker: seconds instead of half a
minute). The counts do not depend on the pays, so every pay table of a game reads the same
store. Every shard is checked on read: its checksum, its shape, and each state's dealer
hands adding up.
"""

from __future__ import annotations

from collections.abc import Callable
from math import ceil, comb
from pathlib import Path
from typing import Any

import numpy as np

from analysis.counting.no_board import NoBoardCounts, chunk_classes, no_board_chunks
from analysis.model.errors import InputError
from analysis.parallel.options import RunOptions
from analysis.store.outcome_store import default_root
from analysis.store.result_store import ArrayResults
from analysis.store.runs import holding

#: States counted and kept per shard (about 0.15 GB of arrays while counted).
CHUNK = 4_000_000
#: The method's version: part of a job's key.
METHOD = "no-board-counts/1"


def kept_no_board_counts(
    key: dict[str, Any],
    deck: list[int],
    hole: int,
    values_of: Callable[[np.ndarray], np.ndarray],
    floor: int,
    seen: int,
    dealer_hole: int,
    classes: int,
    options: RunOptions,
) -> NoBoardCounts:
    """The game's counts (``key``: what they depend on; ``classes``: its classes of player
    hands), from its store when kept, else counted into it."""
    folder = Path(options.root) if options.root is not None else default_root()
    store = ArrayResults.for_job("no-board", {"method": METHOD, **key}, folder / "no-board")
    per = comb(len(deck) - hole, seen)
    sizes = {i: 1 for i in range(ceil(classes / chunk_classes(per, CHUNK)))}
    if not store.has(sizes):
        with holding(store, options.show_progress(), "another count of this game is running"):
            store.forget_damaged()
            todo = [i for i in sizes if store.size(i) < 1]
            parts = no_board_chunks(deck, hole, values_of, floor, seen, options.threads, dealer_hole, CHUNK, only=todo)
            for i, part in zip(todo, parts):
                store.write_arrays(
                    i,
                    1,
                    hands=part.hands.astype(np.int8),
                    weight=part.weight.astype(np.int32),
                    value=part.value,
                    counts=part.counts.astype(np.int32),
                    seen=np.asarray(part.seen, dtype=np.int8),
                    dealer_hands=np.array(part.dealer_hands, dtype=np.int64),
                )
    arrays = [store.read_arrays(i) for i in sorted(sizes)]
    names = {"hands", "weight", "value", "counts", "seen", "dealer_hands"}
    if any(set(a) != names or a["counts"].shape[1:] != (6,) or a["hands"].shape[1:] != (hole,) for a in arrays):
        raise InputError(f"{store.path}: a shard holds counts of another shape; {store.fix_hint()}")
    dealer_hands = {int(a["dealer_hands"]) for a in arrays}
    counts = np.concatenate([a["counts"] for a in arrays]).astype(np.int64)
    if len(dealer_hands) != 1 or np.any(counts.sum(axis=1) != next(iter(dealer_hands))) or np.any(counts < 0):
        raise InputError(f"{store.path}: the kept counts do not add up to the dealer's hands; {store.fix_hint()}")
    return NoBoardCounts(
        np.concatenate([a["hands"] for a in arrays]).astype(np.int64),
        np.concatenate([a["weight"] for a in arrays]).astype(np.int64),
        np.concatenate([a["value"] for a in arrays]),
        counts,
        next(iter(dealer_hands)),
        np.concatenate([a["seen"] for a in arrays]),
    )
