"""Games with several decision points (the street engine): Ultimate Texas Hold'em exact
from nothing (a fresh result store), a new blind table (the solve again), the solve read
back from its store, the flush pay of the blind solved exactly for a 2% edge (tune --target;
its tables counted as it goes); Casino Omaha with Ultimate betting from nothing, once (minutes), with
what a cluster of N workers would take (its shards are independent). Each solve runs in a
fresh process that prints its wall time and peak memory; medians of ``BENCH_REPEAT`` runs.
``BENCH_SKIP_FULL=1`` skips the Casino Omaha solve.
"""

import os
import statistics
import subprocess
import sys
import tempfile

from bench.bench_engine import REPEAT

SOLVE = (
    "import resource, sys, time\n"
    "from analysis import RunOptions, load_game, solve_streets\n"
    "game = load_game(sys.argv[1])\n"
    "if sys.argv[3]: game = game.with_blind({'flush': 2})\n"
    "t = time.perf_counter(); f = solve_streets(game, RunOptions(root=sys.argv[2], progress=False))\n"
    "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, f.house_edge)\n"
)

TARGET = (
    "import sys, time\n"
    "from analysis import RunOptions, load_game\n"
    "from analysis.tuning.street_tuner import StreetTuner\n"
    "tuner = StreetTuner(load_game('ultimate-texas-holdem'), RunOptions(root=sys.argv[1], progress=False))\n"
    "t = time.perf_counter(); row = tuner.solve(0.02, 'flush', (0, 10)).iloc[0]\n"
    "print(time.perf_counter() - t, row['exact_pays']['flush'], row['exact_house_edge'])\n"
)


def target(root: str) -> tuple[float, str, str]:
    """Wall seconds, the exact flush pay and its house edge of one target solve."""
    out = subprocess.run([sys.executable, "-c", TARGET, root], capture_output=True, text=True, check=True)
    wall, pay, edge = out.stdout.split()
    return float(wall), pay, edge


def solve(game: str, root: str, new_blind: bool = False) -> tuple[float, float, str]:
    """Wall seconds, peak GiB and the exact house edge of one solve in a fresh process."""
    out = subprocess.run(
        [sys.executable, "-c", SOLVE, game, root, "1" if new_blind else ""], capture_output=True, text=True, check=True
    )
    wall, rss_kib, edge = out.stdout.split()
    return float(wall), int(rss_kib) / 2**20, edge


def main() -> None:
    print("street engine (fresh process per solve; median of", REPEAT, "runs):")
    fresh, blind, kept, targets = [], [], [], []
    for _ in range(REPEAT):
        with tempfile.TemporaryDirectory() as root:
            fresh.append(solve("ultimate-texas-holdem", root))
            kept.append(solve("ultimate-texas-holdem", root))
            blind.append(solve("ultimate-texas-holdem", root, new_blind=True))
            targets.append(target(root))
    for label, runs in (("from nothing", fresh), ("a new blind table (flush 2 to 1)", blind), ("read back", kept)):
        print(
            f"  Ultimate Texas Hold'em, {label}: {statistics.median(r[0] for r in runs):.1f} s, "
            f"peak {max(r[1] for r in runs):.2f} GiB, house edge {runs[0][2]}"
        )
    print(
        f"  Ultimate Texas Hold'em, the blind's flush for exactly 2%: "
        f"{statistics.median(t[0] for t in targets):.1f} s, "
        f"pays {targets[0][1]} (house edge {targets[0][2]})"
    )
    if os.environ.get("BENCH_SKIP_FULL") == "1":
        return
    with tempfile.TemporaryDirectory() as root:
        wall, peak, edge = solve("casino-omaha-ultimate", root)
    cores = os.cpu_count() or 1
    print(
        f"  Casino Omaha, Ultimate betting, from nothing (once): {wall:.0f} s on {cores} cores, peak {peak:.2f} GiB, "
        f"house edge {edge}"
    )
    for workers in (4, 16, 55):  # 55 independent shards: more workers than that would wait
        print(f"    on {workers} workers of {cores} cores each: about {wall / workers:.0f} s plus start-up")


if __name__ == "__main__":
    main()
