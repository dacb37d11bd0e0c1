"""Runs of the exact enumeration: compute a game's outcome store shard by shard, resuming
whatever an interrupted run left, and load it. The shards run in this process, or on a
dask cluster (:mod:`analysis.parallel.cluster`) whose workers send each shard's counts back here to
be written."""

from __future__ import annotations

import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tqdm import tqdm

from analysis.counting.enumeration import board_results, count_flops, prepare, run
from analysis.model.outcomes import StateCounts
from analysis.model.rules import Rules
from analysis.parallel.cluster import Cluster, run_shards
from analysis.parallel.options import RunOptions
from analysis.parallel.threads import check_threads
from analysis.store.outcome_store import OutcomeStore, shard_plan
from analysis.store.result_store import ResultStore
from analysis.store.shards import ShardFolder, StoreError


def ensure_store(rules: Rules, options: RunOptions | None = None, repair: bool = False) -> OutcomeStore:
    """The complete outcome store of the game, enumerating whatever shards are missing.

    Finished shards are kept when the run is interrupted; the next call resumes. Only one
    process enumerates a store at a time (the store's lock): a second one waits, then finds
    the first one's shards. A shard file that went missing is enumerated again; with
    ``repair``, every shard is checked against its checksums first and the damaged ones
    too (a damaged manifest starts the store afresh), and every derived array is hashed:
    a damaged set is removed, to be made again from the shards when next used. In this
    process, the next shard is prepared and the last one written while the kernel counts
    the current one; with a cluster in the options, the shards are counted by its workers
    and encoded here on ``options.threads`` threads as they arrive.
    """
    options = options or RunOptions()
    store = _open(rules, options.root, repair)
    if store.complete and not repair and len(store.done()) == store.n_shards:
        return store
    show = options.show_progress()
    with holding(store, show, "another enumeration of this store is running"):
        damaged = store.verify() if repair else []
        gone = set(damaged) | {int(i) for i in store.manifest["shards"]} - store.done()
        if gone:
            store.forget(sorted(gone))
        if not store.complete:
            _enumerate(store, check_threads(options.threads), show, options.cluster)
        if repair:
            for problem in store.check_derived():
                tqdm.write(f"{problem}: removed; made again from the shards when next used", file=sys.stderr)
    return store


@contextmanager
def holding(store: ShardFolder, show: bool, holder: str) -> Iterator[None]:
    """Hold a store's lock (an OutcomeStore or a ResultStore), saying when ``holder`` has it
    and is waited for; then read its manifest again and clear what an interrupted writer left."""

    def waiting() -> None:
        if show:
            tqdm.write(f"{store.path}: {holder}; waiting for it", file=sys.stderr)

    with store.writing(on_wait=waiting):
        yield


def run_into_store(
    store: ResultStore,
    fn: Callable[..., object],
    todo: dict[int, tuple[Any, ...]],
    sizes: dict[int, int],
    desc: str,
    options: RunOptions,
) -> int:
    """Compute the shards ``todo`` of a job into its result store, holding its lock, in
    this process or on the options' cluster; a complete store is read as it is. Returns
    how many shards were computed (the others were kept from earlier runs)."""
    if store.has(sizes):
        return 0
    show = options.show_progress()
    with holding(store, show, "another run of this job is writing"):
        store.forget_damaged()
        todo = {i: args for i, args in todo.items() if store.size(i) < sizes[i]}
        run_shards(
            options.cluster,
            fn,
            todo,
            lambda i, result: store.write(i, result, sizes[i]),
            desc,
            show,
            total=len(sizes),
            threads=options.threads,
        )
    return len(todo)


def _open(rules: Rules, root: Path | None, repair: bool) -> OutcomeStore:
    try:
        return OutcomeStore.for_rules(rules, root)
    except StoreError:
        if not repair:
            raise
    store_path = OutcomeStore.path_for(rules, root)
    (store_path / "manifest.json").replace(store_path / "manifest.json.damaged")
    return OutcomeStore.for_rules(rules, root)


def _enumerate(store: OutcomeStore, threads: int, show: bool, cluster: Cluster | None) -> None:
    """Enumerate the store's missing shards and finish it (the caller holds the lock)."""
    rules, shards = store.rules, shard_plan(store.rules)
    todo = [i for i in range(len(shards)) if i not in store.done()]
    start = time.perf_counter()
    desc = f"{rules.name}: exact enumeration"
    if cluster is not None:
        jobs = {i: (rules, shards[i]) for i in todo}
        with _ShardWriter(store, threads) as writer:
            run_shards(cluster, count_flops, jobs, writer.put, desc, show, total=len(shards))
        store.finish(time.perf_counter() - start)
        return
    # the next shard is prepared and the last one written (parquet, hashes) while the
    # kernel counts: one of each in flight, so shards are written in order
    with (
        ThreadPoolExecutor(max_workers=1) as prep_pool,
        ThreadPoolExecutor(max_workers=1) as write_pool,
        tqdm(
            total=len(shards),
            initial=len(shards) - len(todo),
            unit="shard",
            desc=desc,
            disable=not show,
        ) as bar,
    ):
        pending = [prep_pool.submit(prepare, rules, shards[todo[0]])] if todo else []
        boards = board_results(rules, threads) if todo else None
        writing: Future[None] | None = None
        for n, i in enumerate(todo):
            prepared = pending.pop().result()
            if n + 1 < len(todo):
                pending.append(prep_pool.submit(prepare, rules, shards[todo[n + 1]]))
            counts = run(prepared, threads, boards)
            if writing is not None:
                writing.result()
                bar.update()
            writing = write_pool.submit(store.write_shard, i, counts)
        if writing is not None:
            writing.result()
            bar.update()
    store.finish(time.perf_counter() - start)


class _ShardWriter:
    """Writes a cluster's shards as they arrive, encoding them on ``threads`` threads: on one
    machine the client's writing (12 s of CPU for Casino Omaha) was the run's tail while the
    workers' results waited. Each shard's file and manifest entry are kept here, in this
    thread, in the order the shards came; at most ``threads`` wait to be kept, so a killed
    run loses only those (they are counted again next time)."""

    def __init__(self, store: OutcomeStore, threads: int) -> None:
        self.store, self.threads = store, threads
        self.pool = ThreadPoolExecutor(max_workers=threads)
        self.pending: deque[tuple[int, Future[tuple[bytes, dict[str, Any]]]]] = deque()

    def put(self, i: int, counts: StateCounts) -> None:
        self.pending.append((i, self.pool.submit(self.store.encode_shard, counts)))
        while len(self.pending) > self.threads or (self.pending and self.pending[0][1].done()):
            self._keep()

    def _keep(self) -> None:
        i, encoded = self.pending.popleft()
        data, fields = encoded.result()
        self.store.write_shard_bytes(i, data, **fields)

    def __enter__(self) -> _ShardWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        try:
            while self.pending and kind is None:  # after an error, the shards not yet kept are dropped
                self._keep()
        finally:
            self.pool.shutdown(wait=True, cancel_futures=True)


def load_outcomes(rules: Rules, options: RunOptions | None = None) -> StateCounts:
    """Per-state counts of the whole game (from the store, computing it if needed)."""
    return ensure_store(rules, options).load()
