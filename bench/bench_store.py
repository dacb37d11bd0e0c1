"""Where a cold Casino Omaha store's time goes, and the enumerator's two ways side by side
(``python -m bench.bench_store``; ``make bench`` runs it; ``bench/run.py`` times the whole
cold store in a fresh process).

* The kernel on the same sample of shards, each orbit's boards computed on the spot and
  added holding by holding (before 12-02) against every board's class results read from the
  table of board classes and summed by class; medians of ``BENCH_REPEAT``, the counts
  checked equal.
* The stages of a cold store in this process, one after the other: the board table, the
  shards' preparation (Python), the kernel, the writing (parquet, checksums). The run
  overlaps preparing and writing with the kernel, so on 2 cores its floor with these
  algorithms is the larger of the kernel's wall time and half the CPU time of every stage.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time

from analysis.counting.enumeration import board_results, prepare, run
from analysis.model.rules import preset
from analysis.store.outcome_store import OutcomeStore, shard_plan
from bench.run import REPEAT, median_time

THREADS = min(2, os.cpu_count() or 1)
SAMPLE = (0, 13, 27, 41, 54)


def _digest(counts) -> str:
    return hashlib.sha256(counts.tobytes()).hexdigest()


def side_by_side() -> None:
    rules = preset("casino-omaha")
    shards = shard_plan(rules)
    preps = [prepare(rules, shards[i]) for i in SAMPLE]
    began = time.perf_counter()
    boards = board_results(rules, THREADS)
    table = time.perf_counter() - began
    before = [_digest(run(p, THREADS).counts) for p in preps]
    after = [_digest(run(p, THREADS, boards).counts) for p in preps]
    if before != after:
        raise AssertionError("the board table counts differently")
    t0 = median_time(lambda: [run(p, THREADS) for p in preps])
    t1 = median_time(lambda: [run(p, THREADS, boards) for p in preps])
    rows = sum(len(p.holdings) for p in preps)
    print(f"enumerator kernel, Casino Omaha, shards {SAMPLE} ({rows:,} states), {THREADS} threads, median of {REPEAT}:")
    print(f"  each orbit computed, added holding by holding: {t0:.2f} s")
    print(f"  boards from the table, summed by class:        {t1:.2f} s   ({t0 / t1:.1f}x)")
    print(
        f"  the table: {boards.boards:,} board classes, {boards.nbytes / 2**30:.2f} GiB, built in {table:.1f} s "
        "(once per store)"
    )


def stages() -> None:
    rules = preset("casino-omaha")
    shards = shard_plan(rules)
    wall = {"board table": 0.0, "prepare": 0.0, "kernel": 0.0, "write": 0.0}
    cpu = dict(wall)

    def timed(stage, fn):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        wall[stage] += time.perf_counter() - w
        cpu[stage] += time.process_time() - c
        return out

    with tempfile.TemporaryDirectory() as root:
        store = OutcomeStore.for_rules(rules, root)
        boards = timed("board table", lambda: board_results(rules, THREADS))
        for i, flops in enumerate(shards):
            prepared = timed("prepare", lambda f=flops: prepare(rules, f))
            counts = timed("kernel", lambda p=prepared: run(p, THREADS, boards))
            timed("write", lambda c=counts, i=i: store.write_shard(i, c))
    print(f"a cold Casino Omaha store by stage, one after the other ({THREADS} threads for the table and the kernel):")
    for stage in wall:
        print(f"  {stage:12s} {wall[stage]:6.1f} s wall, {cpu[stage]:6.1f} s CPU")
    floor = max(wall["board table"] + wall["kernel"], sum(cpu.values()) / THREADS)
    print(
        f"  in sequence {sum(wall.values()):.1f} s; overlapped on {THREADS} cores the floor is {floor:.1f} s "
        "(bench/run.py times the real run)"
    )


def main() -> None:
    side_by_side()
    print()
    stages()


if __name__ == "__main__":
    main()
