"""The return engine on the full Casino Omaha store (the store must exist; `make report`
builds it): command wall times, a new pay table in the tuner, memory (advice:
``bench/bench_advise.py``).

Each command runs in a fresh process, as a user runs it (imports included); medians of
``BENCH_REPEAT`` runs. Memory is the peak resident set of a process that loads the engine
and decides one pay table (the packed counts are mapped: their pages count once read).
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

from analysis import STRATEGIES, PayTable, Tuner, load_engine
from analysis.parallel.options import RunOptions

REPEAT = int(os.environ.get("BENCH_REPEAT", "3"))
CLI = [sys.executable, "-m", "analysis.cli"]


def wall(args: list[str]) -> float:
    """Median wall seconds of a command over REPEAT runs."""
    return statistics.median(
        _seconds(lambda: subprocess.run(args, check=True, capture_output=True)) for _ in range(REPEAT)
    )


def main() -> None:
    # builds the store and its derived arrays if missing
    engine = load_engine("casino-omaha", RunOptions(progress=False))
    engine.decide(None, STRATEGIES["simple"])  # and the hand profile
    print("return engine, Casino Omaha (fresh process per command; median of", REPEAT, "runs):")
    json_wall = wall(CLI + ["report", "--format", "json", "--no-progress"])
    print(f"  casino-omaha report --format json: {json_wall:.2f} s")
    with tempfile.TemporaryDirectory() as out:
        report_wall = wall(CLI + ["report", "--out", out, "--no-progress"])
    print(f"  casino-omaha report --out DIR (make report): {report_wall:.2f} s")
    help_wall = wall(CLI + ["--help"])
    print(f"  casino-omaha --help: {help_wall:.2f} s")

    load = (
        "import time\nfrom analysis import RunOptions, load_engine\n"
        "t = time.perf_counter(); load_engine('casino-omaha', RunOptions(progress=False))\n"
        "print(time.perf_counter() - t)\n"
    )
    loads = [_python(load) for _ in range(REPEAT)]
    print(
        f"  load the engine, every block of its arrays checked (imports excluded): "
        f"median {statistics.median(loads):.2f} s"
    )

    code = (
        "import resource, time\nfrom analysis import PayTable, RunOptions, Tuner, load_engine\n"
        "t = time.perf_counter(); e = load_engine('casino-omaha', RunOptions(progress=False))\n"
        "r = Tuner(e).evaluate(PayTable.load(None).replace(flush=3)); took = time.perf_counter() - t\n"
        "print(took, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20)\n"
    )
    firsts, peaks = [], []
    for _ in range(REPEAT):
        took, peak = subprocess.run(
            [sys.executable, "-c", code], check=True, capture_output=True, text=True
        ).stdout.split()
        firsts.append(float(took))
        peaks.append(float(peak))
    print(
        f"  load the engine and evaluate a first new pay table: {statistics.median(firsts):.2f} s; "
        f"peak memory of that process {max(peaks):.2f} GiB"
    )

    tuner = Tuner(engine)
    base = PayTable.load(None)
    tables = [
        base,
        base.replace(flush=3),
        base.replace(full_house=4),
        base.replace(pair="1.5"),
        base.replace(royal_flush=500, straight_flush=50),
        PayTable.load("madrid"),
        base.replace(high_card=0),
    ]
    times = [_seconds(lambda t=t: tuner.evaluate(t)) for t in tables]
    solve = _seconds(lambda: tuner.solve(0.02, "flush", bounds=(0, 10)))
    print(
        f"  new pay table, strategy re-optimised, full return table: median {statistics.median(times):.3f} s, "
        f"max {max(times):.3f} s over {len(tables)} tables"
    )
    print(f"  exact solve of the flush pay for a 2% house edge: {solve:.1f} s")


def _python(code: str) -> float:
    """What a fresh interpreter running ``code`` prints (a number of seconds)."""
    return float(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout)


def _seconds(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
