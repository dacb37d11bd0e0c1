"""The tuning panel's speed on the full Casino Omaha store (the store must exist; `make
report` builds it): from a changed value to the updated figures.

* In a running process (the store loaded): a flush pay typed into the panel's box until
  the panel shows the whole result (figures, return table) from the flush pay's exact
  curve, medians of ``BENCH_REPEAT`` x 3 changes, beside the engine's full pass for the
  same tables (what every change cost before the curve); and the time to build a pay's
  exact curve (one sort and one pass, the first drag of a new line); a side bet's pay typed
  in the side-bet tab until its figures from the bet's exact curve are on screen.
* In the browser: the browser test (tests/test_app.py) starts ``casino-omaha app``, opens it
  in headless Chromium and times the app start (server launch to the first figures on the
  page) and each change of the flush pay (Enter pressed to the new house edge on the
  page, from the flush pay's exact curve); its timings are read from
  reports/bench/panel-browser.json.
"""

import json
import os
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

from analysis import PayCurve, load_engine, tuning_panel
from analysis.parallel.options import RunOptions

REPEAT = int(os.environ.get("BENCH_REPEAT", "3"))
ROOT = Path(__file__).resolve().parents[1]
TIMINGS = ROOT / "reports" / "bench" / "panel-browser.json"


def in_process() -> tuple[list[float], list[float], list[float]]:
    """(changed value to the curve's result on screen, the engine's full pass for the same
    table, curve builds), seconds."""
    engine = load_engine("casino-omaha", RunOptions(progress=False))
    builds = []
    for category in ("flush", "full_house", "royal_flush"):
        began = time.perf_counter()
        PayCurve(engine, None, category)
        builds.append(time.perf_counter() - began)
    panel = tuning_panel(engine=engine)
    panel.wait()
    panel.boxes["flush"].value = "5/2"  # the flush pay's curve drawn (and kept)
    panel.wait()
    instant, full = [], []
    for i in range(3 * REPEAT):
        pay = 2 + Fraction(i % 5 + 1, 4)
        began = time.perf_counter()
        panel.boxes["flush"].value = str(pay)
        while panel.result is None or panel.result.paytable.pays["flush"] != pay:  # set once on screen
            time.sleep(0.0005)
        instant.append(time.perf_counter() - began)
        if panel.instant is not panel.result:
            raise AssertionError("the panel did not take the result from the flush pay's curve")
        panel.wait()
        began = time.perf_counter()
        engine.decide(panel.table)
        full.append(time.perf_counter() - began)
    panel.side_bet.value = "omaha-bad-beat"  # a forfeited bet: the joint strategy moves with its pays
    panel.side_tab.line.value = "three_of_a_kind"
    panel.side_tab.box.value = "16"  # its curve in that line built (and kept)
    panel.wait()
    side = []
    for i in range(3 * REPEAT):
        pay = 16 + Fraction(i % 5 + 1, 4)
        began = time.perf_counter()
        panel.side_tab.box.value = str(pay)
        while panel.side_tab.point is None or panel.side_tab.point.pay != pay:  # set once on screen
            time.sleep(0.0005)
        side.append(time.perf_counter() - began)
        panel.wait()
    panel.close()
    return instant, full, builds, side


def main() -> None:
    instant, times, builds, side = in_process()
    print("tuning panel, Casino Omaha (store loaded):")
    print(
        f"  changed flush pay to the whole result (figures, return table) from its curve on screen: median "
        f"{1000 * statistics.median(instant):.1f} ms (min {1000 * min(instant):.1f}, max {1000 * max(instant):.1f}, "
        f"{len(instant)} changes)"
    )
    print(
        f"  the engine's full pass for the same tables (each change before the curve): median "
        f"{statistics.median(times):.3f} s (min {min(times):.3f}, max {max(times):.3f}); ratio "
        f"{statistics.median(times) / statistics.median(instant):.0f}x"
    )
    built = ", ".join(f"{b:.2f} s" for b in builds)
    print(f"  a pay's exact curve built, the first drag of a line (flush, full house, royal flush): {built}")
    print(
        f"  Omaha Bad Beat's three-of-a-kind pay changed in the side-bet tab to its figures from the bet's exact "
        f"curve on screen (the main figures stay as they are): median {1000 * statistics.median(side):.1f} ms "
        f"(min {1000 * min(side):.1f}, max {1000 * max(side):.1f}, {len(side)} changes)"
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
        f"  changed flush pay to the new house edge on the page (from its curve): "
        f"median {statistics.median(lat):.3f} s "
        f"(all: {', '.join(f'{x:.3f}' for x in lat)})"
    )


if __name__ == "__main__":
    main()
