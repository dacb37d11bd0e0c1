"""Exact results of a game: compute the outcome store (or reuse and resume it) and load it."""

from __future__ import annotations

import sys
import time
from concurrent.futures import ThreadPoolExecutor
from math import ceil
from pathlib import Path

from tqdm import tqdm

from .enumeration import StateCounts, plan, prepare, run
from .rules import Rules
from .store import OutcomeStore

#: Flop classes per shard: a shard is the unit of progress, resumption and parallel work.
FLOPS_PER_SHARD = 32


def ensure_store(
    rules: Rules,
    root: Path | None = None,
    threads: int | None = None,
    progress: bool | None = None,
) -> OutcomeStore:
    """The complete outcome store of the game, enumerating whatever shards are missing.

    Finished shards are kept when the run is interrupted; the next call resumes.
    The next shard is prepared (in Python) while the kernel counts the current one.
    """
    classes = plan(rules)
    shards = [classes[i : i + FLOPS_PER_SHARD] for i in range(0, len(classes), FLOPS_PER_SHARD)]
    store = OutcomeStore.for_rules(rules, len(shards), root)
    if store.complete:
        return store
    todo = [i for i in range(len(shards)) if i not in store.done()]
    show = sys.stderr.isatty() if progress is None else progress
    start = time.perf_counter()
    with (
        ThreadPoolExecutor(max_workers=1) as prep_pool,
        tqdm(
            total=len(shards),
            initial=len(shards) - len(todo),
            unit="shard",
            desc=f"{rules.name}: exact enumeration",
            disable=not show,
        ) as bar,
    ):
        pending = prep_pool.submit(prepare, rules, shards[todo[0]]) if todo else None
        for n, i in enumerate(todo):
            prepared = pending.result()
            if n + 1 < len(todo):
                pending = prep_pool.submit(prepare, rules, shards[todo[n + 1]])
            store.write_shard(i, run(prepared, threads))
            bar.update()
    store.finish(time.perf_counter() - start)
    return store


def load_outcomes(rules: Rules, root: Path | None = None, threads: int | None = None,
                  progress: bool | None = None) -> StateCounts:
    """Per-state counts of the whole game (from the store, computing it if needed)."""
    return ensure_store(rules, root, threads, progress).load()


def shard_count(rules: Rules) -> int:
    return ceil(len(plan(rules)) / FLOPS_PER_SHARD)
