"""Games without a board exact in a fresh process: Three Card Poker (every player hand against
every dealer hand, 407,170,400 deals), Caribbean Stud (each hand with each card the dealer
shows, 19,933,230,517,200 deals) and Four Card Poker (five cards against six, 167,439,136,344,480
deals), the solve alone and with the interpreter's start and imports, with peak memory;
medians of ``BENCH_REPEAT`` runs. The issue's targets: under 2 s and under 60 s (Caribbean
Stud).

Then a target edge solved for one pay, side by side on the same counts (made once): read off
the exact curve of the edge in that pay (:mod:`analysis.engine.no_board_curve`) against
Newton's steps on whole solves (the tuner's way before the curve, still the way of games with
a board); the same exact pay from both."""

import statistics
import time
from fractions import Fraction

from bench.bench_engine import REPEAT
from bench.bench_hand_paid import solve_fresh

#: (game, pay solved for, target house edge): Caribbean Stud's pair pay turns the decision of
#: 14,104 breakpoints' states between 0 and 10; Three Card Poker's straight bonus none.
TARGETS = (("caribbean-stud", "pair", Fraction(3, 100)), ("three-card-poker", "straight", Fraction(3, 100)))


def target_side_by_side(name: str, category: str, target: Fraction) -> None:
    from analysis.model.game import load_game
    from analysis.tuning.street_tuner import StreetTuner
    from analysis.tuning.tuner import PayTuner

    tuner = StreetTuner(load_game(name))
    base, limits = tuner.table(), (Fraction(0), Fraction(10))
    tuner.evaluate(base)  # the counts, made once

    def by_curve() -> Fraction:
        tuner._curves.clear()  # the curve drawn again each time
        return tuner._solve_continuous(target, category, limits, base)[0][0][category]

    def by_newton() -> Fraction:  # the generic solve of every tuner, on the same counts
        return PayTuner._solve_continuous(tuner, target, category, limits, base)[0][0][category]

    times: dict[str, list[float]] = {"curve": [], "newton": []}
    found = {}
    for _ in range(REPEAT):  # alternating, so a change of the machine's load falls on both
        for label, fn in (("curve", by_curve), ("newton", by_newton)):
            start = time.perf_counter()
            found[label] = fn()
            times[label].append(time.perf_counter() - start)
    curve, newton = (statistics.median(times[k]) for k in ("curve", "newton"))
    same = "the same exact pay" if found["curve"] == found["newton"] else f"DIFFERENT pays {found}"
    print(
        f"{name}, {category} pay for a {float(target):.0%} edge, counts made: the exact curve {curve:.4f} s, "
        f"Newton's steps on whole solves {newton:.4f} s (x{newton / curve:.1f}; medians of {REPEAT}); "
        f"{same}: {found['curve']}"
    )


def main() -> None:
    solve_fresh(("three-card-poker", "caribbean-stud", "four-card-poker"))
    for name, category, target in TARGETS:
        target_side_by_side(name, category, target)


if __name__ == "__main__":
    main()
