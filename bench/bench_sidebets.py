"""Side bets on the full Casino Omaha store (the store must exist; `make report` builds it):
building the counts side bets need, a new side-bet pay table, the joint strategy of a
forfeited bet and its exact curve in one pay, a progressive's break-even meter, and the
command's wall time.

Medians of ``BENCH_REPEAT`` runs. "Counts present" means the first-six strength of every
state (a derived array beside the store) and the deals by side outcome under the main game's
optimal decisions (one pass per kind, kept by ``SideBetEngine``).
"""

import statistics
import sys
from fractions import Fraction

from analysis import SideBet, SideBetEngine, analyse_progressive, load_engine
from analysis.parallel.options import RunOptions
from analysis.sidebets.counts import first_six_strengths, outcome_counts
from analysis.sidebets.curve import SideBetCurve
from analysis.sidebets.tuning import solve_side_bet
from bench.bench_engine import REPEAT, _seconds, wall
from bench.run import median_time as median

CLI = [sys.executable, "-m", "analysis.cli", "sidebet", "--no-progress", "--bet"]


def main() -> None:
    engine = load_engine("casino-omaha", RunOptions(progress=False))
    bets = SideBetEngine(engine)
    rules, calls = engine.rules, bets.main.calls
    print("side bets, Casino Omaha (median of", REPEAT, "runs):")
    hole, flop = engine.cards()
    strengths = median(lambda: first_six_strengths(rules, hole, flop))
    by_kind = {kind: median(lambda kind=kind: outcome_counts(engine, kind, calls)) for kind in ("first-six", "final")}
    print(
        f"  new counts: first-six hand of all {engine.states:,} states {strengths:.2f} s; deals by side outcome "
        f"under the main game's decisions: first-six {by_kind['first-six']:.2f} s, final hands {by_kind['final']:.2f} s"
    )
    for name in ("omaha-flop-bonus", "omaha-jackpot"):  # the counts are present from here on
        bets.evaluate(SideBet.load(name).with_pays({}), strategy="separate")
    flop_bonus, jackpot = SideBet.load("omaha-flop-bonus"), SideBet.load("omaha-jackpot")
    tables = [flop_bonus.with_pays({"two_pair": p, "flush": 10 + p}) for p in range(1, 8)]
    first_six = [_seconds(lambda t=t: bets.evaluate(t)) for t in tables]
    finals = [
        _seconds(lambda p=p: bets.evaluate(jackpot.with_pays({"flush": p}), strategy="separate")) for p in range(1, 8)
    ]
    print(
        f"  new side-bet pay table, counts present: first-six median {statistics.median(first_six) * 1000:.1f} ms "
        f"(max {max(first_six) * 1000:.1f}), final hands median {statistics.median(finals) * 1000:.1f} ms "
        f"(max {max(finals) * 1000:.1f}) over {len(tables)} tables"
    )
    joint = [
        _seconds(lambda p=p: bets.evaluate(SideBet.load("omaha-bad-beat").with_pays({"flush": p})))
        for p in range(50, 53)
    ]
    jackpot_joint = [_seconds(lambda p=p: bets.evaluate(jackpot.with_pays({"flush": p}))) for p in range(4, 7)]
    print(
        f"  forfeited bet, main game re-optimised with it (joint): bad beat median {statistics.median(joint):.2f} s, "
        f"jackpot median {statistics.median(jackpot_joint):.2f} s"
    )
    bad_beat = SideBet.load("omaha-bad-beat")
    curve_build = _seconds(lambda: SideBetCurve(bets, bad_beat, "three_of_a_kind"))
    curve = SideBetCurve(bets, bad_beat, "three_of_a_kind")
    drags = statistics.median([_seconds(lambda p=p: curve.at(Fraction(p, 4))) for p in range(60, 80)])
    solve = median(lambda: solve_side_bet(bets, bad_beat, Fraction(92, 100), "three_of_a_kind"))
    pass_ = statistics.median(joint)
    print(
        f"  forfeited bet's exact curve in one pay (bad beat, three of a kind): built in {curve_build:.2f} s; a "
        f"changed pay's figures median {drags * 1000:.2f} ms against {pass_:.2f} s re-optimised "
        f"(x{pass_ / drags:,.0f}); the pay for a 92% return (solve_side_bet) {solve:.2f} s"
    )
    fresh = SideBetEngine(engine)
    fresh.main  # noqa: B018 - the main game's decisions, as a loaded SideBetEngine has them
    break_even = _seconds(lambda: analyse_progressive(fresh, jackpot))
    print(f"  Omaha Jackpot: exact break-even meter (joint strategy, from the seed) {break_even:.1f} s")
    for name in ("omaha-flop-bonus", "omaha-jackpot"):
        print(f"  casino-omaha sidebet --bet {name} (fresh process): {wall(CLI + [name]):.1f} s")


if __name__ == "__main__":
    main()
