"""Games without a board exact in a fresh process: Three Card Poker (every player hand against
every dealer hand, 407,170,400 deals), Caribbean Stud (each hand with each card the dealer
shows, 19,933,230,517,200 deals) and Four Card Poker (five cards against six, 167,439,136,344,480
deals), the solve alone and with the interpreter's start and imports, with peak memory;
medians of ``BENCH_REPEAT`` runs. The issue's targets: under 2 s and under 60 s (Caribbean
Stud)."""

from bench.bench_hand_paid import solve_fresh


def main() -> None:
    solve_fresh(("three-card-poker", "caribbean-stud", "four-card-poker"))


if __name__ == "__main__":
    main()
