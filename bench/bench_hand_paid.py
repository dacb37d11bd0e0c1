"""Games without a dealer: Mississippi Stud (155,937,600 deals) and Let It Ride (51,979,200)
exact from nothing in a fresh process, the solve alone and with the interpreter's start and
imports, with peak memory; medians of ``BENCH_REPEAT`` runs. The issue's target is under 10 s."""

import statistics
import subprocess
import sys

from bench.bench_engine import REPEAT

SOLVE = (
    "import resource, sys, time\n"
    "t0 = time.perf_counter()\n"
    "from analysis import solve\n"
    "t = time.perf_counter(); f = solve(sys.argv[1])\n"
    "print(time.perf_counter() - t, time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,"
    " f.exact.house_edge)\n"
)


def main() -> None:
    solve_fresh(("mississippi-stud", "let-it-ride"))


def solve_fresh(games: tuple[str, ...]) -> None:
    """Each game solved exactly from nothing in fresh processes: medians and peak memory."""
    for game in games:
        runs = []
        for _ in range(REPEAT):
            out = subprocess.run([sys.executable, "-c", SOLVE, game], capture_output=True, text=True, check=True)
            solve_s, total_s, rss_kib, edge = out.stdout.split()
            runs.append((float(solve_s), float(total_s), int(rss_kib) / 2**20, edge))
        print(
            f"{game}, exact from nothing (median of {REPEAT}): solve {statistics.median(r[0] for r in runs):.2f} s, "
            f"with start-up and imports {statistics.median(r[1] for r in runs):.2f} s, "
            f"peak {max(r[2] for r in runs):.2f} GiB; house edge {runs[0][3]}"
        )


if __name__ == "__main__":
    main()
