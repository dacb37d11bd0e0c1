"""Games without a board: Three Card Poker exact (every player hand against every dealer
hand, 407,170,400 deals) in a fresh process, the solve alone and with the interpreter's
start and imports; medians of ``BENCH_REPEAT`` runs. The issue's target is under 2 s."""

import statistics
import subprocess
import sys

from bench.bench_engine import REPEAT

SOLVE = (
    "import time\n"
    "t0 = time.perf_counter()\n"
    "from analysis import solve\n"
    "t = time.perf_counter(); f = solve('three-card-poker')\n"
    "print(time.perf_counter() - t, time.perf_counter() - t0, f.exact.house_edge)\n"
)


def main() -> None:
    runs = []
    for _ in range(REPEAT):
        out = subprocess.run([sys.executable, "-c", SOLVE], capture_output=True, text=True, check=True)
        solve_s, total_s, edge = out.stdout.split()
        runs.append((float(solve_s), float(total_s), edge))
    print(
        f"Three Card Poker, exact (median of {REPEAT}): solve {statistics.median(r[0] for r in runs):.2f} s, "
        f"with start-up and imports {statistics.median(r[1] for r in runs):.2f} s; house edge {runs[0][2]}"
    )


if __name__ == "__main__":
    main()
