"""The tuning panel's speed on the full Casino Omaha store (the store must exist; `make
report` builds it): from a changed value to the updated figures.

* In a running process (the store loaded): a flush pay typed into the panel's box until
  the panel shows the new figures, median of ``BENCH_REPEAT`` x 3 changes.
* In the browser: the browser test (tests/test_app.py) starts ``casino-omaha app``, opens it
  in headless Chromium and times the app start (server launch to the first figures on the
  page) and each change of the flush pay (Enter pressed to the new house edge on the page);
  its timings are read from reports/bench/panel-browser.json.
"""

import json
import os
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

from analysis import load_engine, tuning_panel
from analysis.parallel.options import RunOptions

REPEAT = int(os.environ.get("BENCH_REPEAT", "3"))
ROOT = Path(__file__).resolve().parents[1]
TIMINGS = ROOT / "reports" / "bench" / "panel-browser.json"


def in_process() -> list[float]:
    panel = tuning_panel(engine=load_engine("casino-omaha", RunOptions(progress=False)))
    panel.wait()
    times = []
    for i in range(3 * REPEAT):
        pay = 2 + Fraction(i % 5 + 1, 4)
        began = time.perf_counter()
        panel.boxes["flush"].value = str(pay)  # the swept pay: its sweep is cached, only the marker moves
        while panel.result.paytable.pays["flush"] != pay:  # set once the figures are on screen
            time.sleep(0.002)
        times.append(time.perf_counter() - began)
        panel.wait()
    panel.close()
    return times


def main() -> None:
    times = in_process()
    print("tuning panel, Casino Omaha (store loaded):")
    print(
        f"  changed flush pay to figures, in a running process: median {statistics.median(times):.3f} s "
        f"(min {min(times):.3f}, max {max(times):.3f}, {len(times)} changes)"
    )
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(ROOT / "tests" / "test_app.py")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if out.returncode != 0:
        print("  browser test failed:\n" + out.stdout[-2000:])
        return
    t = json.loads(TIMINGS.read_text())
    lat = t["change_to_screen_s"]
    print(f"  app start (casino-omaha app launched to the first figures in Chromium): {t['app_start_s']:.1f} s")
    print(
        f"  changed flush pay to the new house edge on the page: median {statistics.median(lat):.3f} s "
        f"(all: {', '.join(f'{x:.3f}' for x in lat)})"
    )


if __name__ == "__main__":
    main()
