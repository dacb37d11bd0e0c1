"""``make bench``: speed figures, measured side by side in one run, medians of repeats.

* Full exact enumeration of Casino Omaha and Casino Hold'em (wall time, peak memory),
  each in a fresh process writing a fresh store.
* 5- and 7-card evaluation throughput: this package's compiled batch evaluator against
  phevaluator, eval7, treys and pokerkit (each called per hand from Python, as they are
  meant to be used), on the same random hands; the results are checked to agree.

Results are printed and written to ``bench/results/latest.json``. Environment:
``BENCH_REPEAT`` (default 3) repeats, ``BENCH_SKIP_FULL=1`` skips the full enumerations.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from analysis.hands.evaluate import best_strength
from analysis.model.cards import format_card

REPEAT = int(os.environ.get("BENCH_REPEAT", "3"))
RESULTS = Path(__file__).resolve().parent / "results"


def median_time(fn, repeat=REPEAT) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def full_enumeration(game: str) -> dict:
    """Median wall time and peak RSS of enumerating a game into a fresh store."""
    walls, peaks = [], []
    for _ in range(REPEAT):
        with tempfile.TemporaryDirectory() as tmp:
            code = (
                "import resource, sys, time\n"
                "from analysis import RunOptions, ensure_store, preset\n"
                f"t = time.perf_counter(); ensure_store(preset({game!r}), RunOptions(root={tmp!r}, progress=False))\n"
                "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
            )
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
            wall, rss_kib = out.stdout.split()
            walls.append(float(wall))
            peaks.append(int(rss_kib) / 2**20)
    return {"game": game, "wall_s_median": statistics.median(walls), "wall_s_all": walls, "peak_gib_max": max(peaks)}


def random_hands(n: int, size: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :size].astype(np.int8)


def evaluator_rates(size: int, n: int = 200_000) -> list[dict]:
    """Hands per second of each evaluator on the same random hands of ``size`` cards."""
    import eval7
    import phevaluator
    import pokerkit
    import treys

    hands = random_hands(n, size)
    texts = [[format_card(int(c)) for c in row] for row in hands]
    ours = best_strength(hands).astype(np.int64)
    rows = []

    def add(name, seconds, count, note=""):
        rows.append({"evaluator": name, "cards": size, "hands_per_s": count / seconds, "note": note})

    add("analysis (batch, 1 thread)", median_time(lambda: best_strength(hands, threads=1)), n)
    add("analysis (batch, 2 threads)", median_time(lambda: best_strength(hands, threads=2)), n)

    ph_cards = [[int(c) for c in row] for row in hands]  # phevaluator uses the same card ints
    ph = np.array([phevaluator.evaluate_cards(*row) for row in ph_cards])
    add("phevaluator (per hand)", median_time(lambda: [phevaluator.evaluate_cards(*row) for row in ph_cards]), n)

    e7_cards = [[eval7.Card(t) for t in row] for row in texts]
    e7 = np.array([eval7.evaluate(row) for row in e7_cards])
    add("eval7 (per hand)", median_time(lambda: [eval7.evaluate(row) for row in e7_cards]), n)

    m = n // 10
    tr_eval = treys.Evaluator()
    tr_cards = [([treys.Card.new(t) for t in row[2:]], [treys.Card.new(t) for t in row[:2]]) for row in texts[:m]]
    tr = np.array([tr_eval.evaluate(b, h) for b, h in tr_cards])
    add("treys (per hand)", median_time(lambda: [tr_eval.evaluate(b, h) for b, h in tr_cards]), m, f"{m:,} hands")

    k = n // 100
    pk_args = [("".join(row[:2]), "".join(row[2:])) for row in texts[:k]]
    pk = [pokerkit.StandardHighHand.from_game(h, b) for h, b in pk_args]
    add(
        "pokerkit (per hand)",
        median_time(lambda: [pokerkit.StandardHighHand.from_game(h, b) for h, b in pk_args]),
        k,
        f"{k:,} hands",
    )

    # the libraries must order the hands as we do (phevaluator and treys: smaller is better)
    check = slice(0, min(2000, k))
    for name, theirs, sign in (("phevaluator", ph, -1), ("eval7", e7, 1), ("treys", tr, -1)):
        a, b = ours[check], sign * np.asarray(theirs)[check]
        if not np.array_equal(np.sign(a[:, None] - a[None, :]), np.sign(b[:, None] - b[None, :])):
            raise AssertionError(f"{name} orders {size}-card hands differently")
    a = ours[: len(pk)]
    if not all((a[i] > a[j]) == (pk[i] > pk[j]) for i in range(len(pk)) for j in range(i + 1, min(len(pk), i + 40))):
        raise AssertionError("pokerkit orders hands differently")
    ours_rate = rows[0]["hands_per_s"]
    for r in rows:
        r["analysis_1_thread_speedup"] = ours_rate / r["hands_per_s"]
    return rows


def main() -> None:
    report = {
        "machine": platform.platform(),
        "cpus": os.cpu_count(),
        "repeat": REPEAT,
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "enumeration": [],
        "evaluators": [],
    }
    if not os.environ.get("BENCH_SKIP_FULL"):
        for game in ("casino-omaha", "casino-holdem"):
            r = full_enumeration(game)
            report["enumeration"].append(r)
            print(
                f"{game:14s} exact enumeration: median {r['wall_s_median']:.1f} s "
                f"(runs {', '.join(f'{w:.1f}' for w in r['wall_s_all'])}), peak {r['peak_gib_max']:.2f} GiB"
            )
    for size in (5, 7):
        rows = evaluator_rates(size)
        report["evaluators"] += rows
        print(f"\n{size}-card evaluation, hands per second (median of {REPEAT}); speedup of analysis (1 thread)")
        for r in rows:
            speedup = r["analysis_1_thread_speedup"]
            print(f"  {r['evaluator']:28s} {r['hands_per_s']:>14,.0f}   x{speedup:>8.1f}  {r['note']}")
    for extra in sorted(Path(__file__).parent.glob("bench_*.py")):
        print()
        out = subprocess.run([sys.executable, "-m", f"bench.{extra.stem}"], capture_output=True, text=True)
        print(out.stdout, end="")
        if out.returncode:
            print(out.stderr, file=sys.stderr)
            raise SystemExit(out.returncode)
        report[extra.stem] = out.stdout
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "latest.json").write_text(json.dumps(report, indent=1) + "\n")
    print(
        f"\nwritten {RESULTS / 'latest.json'}; peak RSS of this process "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20:.2f} GiB"
    )


if __name__ == "__main__":
    main()
