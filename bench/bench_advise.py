"""One state's advice from the command line, Casino Omaha, the store built (``python -m
bench.bench_advise``; ``make bench`` runs it): ``casino-omaha advise "As Kd 7h" --flop "Qs Jd
2c"`` in a fresh process each run, as a user runs it (the interpreter's start and every
import included), medians of ``BENCH_ADVISE_RUNS`` runs, the two ways side by side:

* the store with its derived arrays (state keys, the engine's packed counts, hand profile):
  the state's row of each is read, only the blocks that hold it checked;
* the same shards without derived arrays (a root of hard links to them): the state's shard
  is read and checked, and its hand class computed from the evaluator's tables.

The code before both (12-04: every derived array hashed whole on load, pandas imported for a
pay table, the shard read through pyarrow's dataset layer) cannot run beside them: its
figure is in docs/speed.md. Also: advise() in a running process, and whether the command
imported pandas or pyarrow.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from analysis import RunOptions, advise, load_engine
from analysis.engine.simulation import stored_keys

RUNS = int(os.environ.get("BENCH_ADVISE_RUNS", "9"))
STATE = ("As Kd 7h", "Qs Jd 2c")
COMMAND = [sys.executable, "-m", "analysis.cli", "advise", STATE[0], "--flop", STATE[1]]
#: What the command's process imported, printed after its advice.
PROBE = (
    "import sys\nfrom analysis.cli import main\nmain(sys.argv[1:])\n"
    "print(*(m for m in ('pandas', 'pyarrow', 'scipy', 'matplotlib', 'dask') if m in sys.modules))\n"
)


def walls(root: Path) -> list[float]:
    """Wall seconds of the command in a fresh process, RUNS times, the store under ``root``."""
    out = []
    for _ in range(RUNS):
        began = time.perf_counter()
        subprocess.run([*COMMAND, "--store", str(root)], check=True, capture_output=True)
        out.append(time.perf_counter() - began)
    return out


def imported(root: Path) -> str:
    """The heavy libraries the command's process imported."""
    args = ["advise", STATE[0], "--flop", STATE[1], "--store", str(root)]
    run = subprocess.run([sys.executable, "-c", PROBE, *args], check=True, capture_output=True, text=True)
    return run.stdout.splitlines()[-1].strip() or "none of pandas, pyarrow, scipy, matplotlib, dask"


def shards_only(store: Path, root: Path) -> None:
    """A root holding the same store's shards and manifest (hard links), no derived arrays."""
    (root / store.name).mkdir(parents=True)
    for path in store.iterdir():
        if path.is_file() and not path.name.startswith("."):
            os.link(path, root / store.name / path.name)


def line(what: str, times: list[float]) -> str:
    runs = ", ".join(f"{t:.2f}" for t in times)
    return f"  {what}: median {statistics.median(times):.3f} s (runs {runs})"


def main() -> None:
    # the store and the three sets the command reads, made if missing
    engine = load_engine("casino-omaha", RunOptions(progress=False))
    engine.hand_profile()
    stored_keys(engine)
    store = engine.source
    print(f"casino-omaha advise {STATE[0]!r} --flop {STATE[1]!r}, a fresh process a run, median of {RUNS}:")
    derived = walls(store.root)
    print(line("from the derived arrays (only the blocks of the state's rows checked)", derived))
    print(f"    imported: {imported(store.root)}")
    with tempfile.TemporaryDirectory(dir=store.root) as tmp:  # hard links need the same file system
        shards_only(store.path, Path(tmp))
        shard = walls(Path(tmp))
        print(line("from its shard (no derived arrays)", shard))
        print(f"    imported: {imported(Path(tmp))}")
    print(f"  ratio {statistics.median(shard) / statistics.median(derived):.1f}x")
    advise(*STATE)  # warm: modules imported
    api = []
    for _ in range(RUNS):
        began = time.perf_counter()
        advise(*STATE)
        api.append(time.perf_counter() - began)
    print(f"  advise() in a running process: median {1000 * statistics.median(api):.1f} ms")


if __name__ == "__main__":
    main()
