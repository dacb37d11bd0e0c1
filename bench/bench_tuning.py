"""Pay-table re-optimisation speed on the full Casino Omaha store (median of several tables)."""

import statistics
import time

from analysis import PayTable, evaluate_strategy, load_outcomes, preset
from analysis.tune import Tuner


def main() -> None:
    rules = preset("casino-omaha")
    start = time.perf_counter()
    states = load_outcomes(rules, progress=False)
    loaded = time.perf_counter() - start
    start = time.perf_counter()
    tuner = Tuner(states, rules)
    built = time.perf_counter() - start
    base = PayTable.load(None)
    tables = [base, base.replace(flush=3), base.replace(full_house=4), base.replace(pair="1.5"),
              base.replace(royal_flush=500, straight_flush=50), PayTable.load("madrid"), base.replace(high_card=0)]
    start = time.perf_counter()
    tuner.evaluate(base)  # the first call also pays for touching fresh memory
    first = time.perf_counter() - start
    times = []
    for table in tables:
        start = time.perf_counter()
        tuner.evaluate(table)
        times.append(time.perf_counter() - start)
    start = time.perf_counter()
    evaluate_strategy(states, rules, base)
    direct = time.perf_counter() - start
    start = time.perf_counter()
    tuner.solve(0.02, "flush", bounds=(0, 10))
    solved = time.perf_counter() - start
    print(f"pay-table tuning, Casino Omaha ({len(states):,} states): store load {loaded:.1f} s, tuner build {built:.1f} s")
    print(f"  re-optimised return table per new pay table: median {statistics.median(times):.3f} s, "
          f"max {max(times):.3f} s over {len(tables)} tables after a first call of {first:.2f} s "
          f"(direct 40-column path: {direct:.2f} s)")
    print(f"  exact solve of the flush pay for a 2% house edge: {solved:.1f} s")


if __name__ == "__main__":
    main()
