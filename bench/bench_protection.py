"""Game protection: the exact one-card exposure, the speed-up on a dask cluster, and the
sampled estimators (the base games' stores must exist; `make report` builds Omaha's).

* Exact one-card exposure of Casino Omaha and Casino Hold'em: wall time and peak resident
  memory of a fresh process that decides every state (in this process, 2 threads) into a
  fresh result folder. With ``BENCH_SKIP_FULL=1`` Casino Omaha runs on every 25th flop
  class only, and the full cost is extrapolated by canonical holdings (the work is
  proportional to holdings x turn/river pairs, and every flop has the same pairs).
* Speed-up from 1 to 2 dask workers (a LocalCluster of single-threaded workers) on the same
  shards of Casino Omaha flop classes, medians of 5 runs alternating 1 and 2 workers. Not
  counted: the cluster's start-up, with each worker's first import of the package and its
  hand tables (about 0.5 s a worker, paid once for as long as the cluster runs: a real run
  of 55 shards of about 13 s each amortises it).
* States per second of the sampled estimator, per kind of information (2 threads).
* Ultimate Texas Hold'em with one dealer card seen, exactly, every street decided knowing
  it: wall time and peak memory of a fresh process (2 threads) into a fresh result folder,
  beside the published exact run's four days on four processes.
"""

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from analysis.counting.enumeration import plan, prepare
from analysis.engine.return_engine import load_engine
from analysis.model.paytable import PayTable
from analysis.parallel.cluster import connect_cluster, run_shards
from analysis.parallel.options import RunOptions
from analysis.protection.exposure import ExposureJob
from analysis.protection.runs import _exposure_shard
from analysis.protection.sampling import Information, SampleJob
from analysis.strategy.simple import derive_simple_strategy

SKIP_FULL = bool(os.environ.get("BENCH_SKIP_FULL"))
SAMPLE_STEP = 25
#: Runs of the dask speed-up, each with 1 then 2 workers (their medians are compared; one run can swing 10%).
REPEATS = 5


def exact_run(game: str) -> tuple[float, float]:
    """(wall seconds, peak GiB) of a fresh process running the whole exact exposure."""
    with tempfile.TemporaryDirectory() as tmp:
        code = (
            "import resource, time\nfrom analysis import RunOptions, load_engine\n"
            "from analysis.protection.runs import exposure_run\n"
            f"e = load_engine({game!r}, RunOptions(progress=False))\nt = time.perf_counter()\n"
            f"exposure_run(e.rules, engine=e, options=RunOptions(results={tmp!r}, progress=False, threads=2))\n"
            "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20)\n"
        )
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    wall, peak = out.stdout.split()
    return float(wall), float(peak)


def seen_card_run(game: str, runout: bool = False) -> tuple[float, float, list[str]]:
    """(wall seconds, peak GiB, house edges: one dealer card seen, with a flop card seen too
    and, with ``runout``, with a turn or river card seen too) of a fresh process counting a
    multi-street game (the game solved without the cards is read from its kept store)."""
    with tempfile.TemporaryDirectory() as tmp:
        code = (
            "import resource, time\nfrom analysis import RunOptions\nfrom analysis.model.game import load_game\n"
            "from analysis.engine.streets import solve_streets\n"
            "from analysis.protection.seen_card import solve_seen_card\n"
            f"g = load_game({game!r}); solve_streets(g, RunOptions(progress=False)); t = time.perf_counter()\n"
            f"f = solve_seen_card(g, RunOptions(results={tmp!r}, progress=False, threads=2), runout={runout})\n"
            "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, "
            "*(f'{float(x.house_edge):+.4%}' for x in (f, f.flop_card, f.runout_card) if x is not None))\n"
        )
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    wall, peak, *edges = out.stdout.split()
    return float(wall), float(peak), edges


def _warm_up() -> None:
    """What a worker's first shard would spend importing the package and reading its hand
    tables (about 0.5 s, once per worker for as long as the cluster runs)."""
    from analysis.hands.lookup import hand_tables
    from analysis.protection import runs  # noqa: F401 - imported for its modules

    hand_tables(True)


def main() -> None:
    table = PayTable.load(None)
    omaha = load_engine("casino-omaha", RunOptions(progress=False))
    job = ExposureJob(omaha.rules, table, "ante", derive_simple_strategy(omaha, table, "ante"))
    classes = plan(omaha.rules)
    print("game protection (default AnteWin table):")
    for game in ("casino-holdem",) + (() if SKIP_FULL else ("casino-omaha",)):
        wall, peak = exact_run(game)
        print(f"  {game} exact one-card exposure (2 threads): {wall:.1f} s, peak memory {peak:.2f} GiB")
    wall, peak, edges = seen_card_run("ultimate-texas-holdem")
    print(
        f"  ultimate-texas-holdem exact, one dealer card seen at every street (2 threads): {wall:.1f} s, peak memory "
        f"{peak:.2f} GiB, house edge {edges[0]} ({edges[1]} with a flop card seen too, from the same count); "
        f"published -13.5922% and -22.3286%: about 4 days and 8 days on 4 processes (x{12 * 86400 * 4 / 2 / wall:,.0f} "
        "per core)"
    )
    wall, peak, edges = seen_card_run("ultimate-texas-holdem", runout=True)
    print(
        f"  ... with a turn or river card seen too (--runout-card, the same count): {wall:.1f} s, peak memory "
        f"{peak:.2f} GiB, house edges {', '.join(edges)}; published -26.1867% for the turn or river card (8 days more)"
    )
    if SKIP_FULL:
        sample = classes[::SAMPLE_STEP]
        holdings = len(prepare(omaha.rules, sample).holdings)
        start = time.perf_counter()
        job.run(sample, threads=2)
        took = time.perf_counter() - start
        print(
            f"  casino-omaha exact one-card exposure on {len(sample)} of {len(classes)} flop classes "
            f"({holdings:,} of {omaha.states:,} holdings, 2 threads): {took:.1f} s; the whole game at this "
            f"rate: {took * omaha.states / holdings / 60:.1f} min; peak memory of this process "
            f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20:.2f} GiB"
        )

    shards = {i: (job, classes[300 + 2 * i : 302 + 2 * i]) for i in range(16)}
    times: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(REPEATS):  # alternating, so that a change in the machine's load hits both
        for workers in (1, 2):
            with connect_cluster(workers=workers) as cluster:
                cluster.client.wait_for_workers(workers)
                cluster.client.run(_warm_up)  # each worker's first import of the package is start-up too
                start = time.perf_counter()
                run_shards(cluster, _exposure_shard, shards, lambda i, r: None, "bench", progress=False)
                times[workers].append(time.perf_counter() - start)
    one, two = statistics.median(times[1]), statistics.median(times[2])
    print(
        f"  dask speed-up on 16 shards of 2 Omaha flop classes (medians of {REPEATS}): 1 worker {one:.1f} s, "
        f"2 workers {two:.1f} s: x{one / two:.2f}"
    )

    print("  sampled estimator, Casino Omaha, states per second (2 threads, every completion of each):")
    kinds = [Information("exposed", 1), Information("exposed", 2), Information("turn")]
    kinds += [Information("colluders", k) for k in (1, 3, 6)]
    for info in kinds:
        sample = SampleJob(omaha.rules, table, "ante", info, seed=1)
        start = time.perf_counter()
        sample.margins(0, 256, threads=2)
        print(f"    {info.describe():24s} {256 / (time.perf_counter() - start):8.1f} states/s")


if __name__ == "__main__":
    main()
