"""Runs of the exact enumeration: compute a game's outcome store shard by shard, resuming
whatever an interrupted run left, and load it."""

from __future__ import annotations

import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tqdm import tqdm

from .enumeration import prepare, run
from .outcomes import StateCounts
from .rules import Rules
from .store import OutcomeStore, shard_plan
from .threads import check_threads


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
    threads = check_threads(threads)
    shards = shard_plan(rules)
    store = OutcomeStore.for_rules(rules, root)
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


def load_outcomes(
    rules: Rules, root: Path | None = None, threads: int | None = None, progress: bool | None = None
) -> StateCounts:
    """Per-state counts of the whole game (from the store, computing it if needed)."""
    return ensure_store(rules, root, threads, progress).load()
