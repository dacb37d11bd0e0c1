"""Games without a board exact in a fresh process: Three Card Poker (every player hand against
every dealer hand, 407,170,400 deals) and Caribbean Stud (each hand with each card the dealer
shows, 19,933,230,517,200 deals), the solve alone and with the interpreter's start and
imports, with peak memory; medians of ``BENCH_REPEAT`` runs. The issue's targets: under 2 s
and under 60 s."""

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
    for game in ("three-card-poker", "caribbean-stud"):
        runs = []
        for _ in range(REPEAT):
            out = subprocess.run([sys.executable, "-c", SOLVE, game], capture_output=True, text=True, check=True)
            solve_s, total_s, rss_kib, edge = out.stdout.split()
            runs.append((float(solve_s), float(total_s), int(rss_kib) / 2**20, edge))
        print(
            f"{game}, exact (median of {REPEAT}): solve {statistics.median(r[0] for r in runs):.2f} s, "
            f"with start-up and imports {statistics.median(r[1] for r in runs):.2f} s, "
            f"peak {max(r[2] for r in runs):.2f} GiB; house edge {runs[0][3]}"
        )


if __name__ == "__main__":
    main()
