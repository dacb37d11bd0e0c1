"""Omaha speed, side by side in one run: this package against phevaluator, poker-equity and
pokerkit (``python -m bench.bench_omaha``; ``make bench`` runs it too). Medians of
``BENCH_REPEAT`` runs (default 3); every comparison first checks that the libraries agree.

* Omaha-high evaluation of random deals: our compiled batch call against phevaluator's
  per-hand C call (``_pheval.evaluate_omaha_cards``, what its public function wraps) and
  pokerkit's per-hand hand object; 8-or-better low against pokerkit (phevaluator has none).
* Exact equity: heads-up preflop (1,086,008 boards), high and Hi/Lo, against poker-equity's
  exact enumeration (its default threads); a flop spot against pokerkit hand by hand.
* Final-hand category counts over every deal (no public library to compare with).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np

from analysis.model.cards import format_cards, parse_cards
from analysis.omaha4.distribution import final_hand_counts
from analysis.omaha4.equity import compute_equity
from analysis.omaha4.evaluators import NO_LOW, omaha_high, omaha_low
from analysis.parallel.threads import default_threads
from bench.run import REPEAT, median_time

THREADS = default_threads()


def random_deals(n: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    cards = np.argsort(rng.random((n, 52)), axis=1)[:, :9].astype(np.int8)
    return np.ascontiguousarray(cards[:, :4]), np.ascontiguousarray(cards[:, 4:])


def text(cards) -> str:
    return format_cards(cards).replace(" ", "")


def same_order(ours: np.ndarray, theirs: np.ndarray, sign: int) -> bool:
    """Do two value arrays order the hands alike (sign -1: theirs is smaller-is-better)?"""
    order = np.argsort(sign * theirs, kind="stable")
    a, b = ours[order].astype(np.int64), sign * theirs[order]
    return bool(np.all(np.diff(a) >= 0) and np.array_equal(np.diff(a) == 0, np.diff(b) == 0))


def table(title: str, rows: list[tuple[str, float, str]], unit: str, base: float) -> None:
    """Print rates (bigger is better) with each row's ratio to ``base``."""
    print(title)
    for name, rate, note in rows:
        print(f"  {name:42s} {rate:>16,.0f} {unit}   x{base / rate:>8.1f}  {note}")


def evaluation() -> None:
    import pokerkit
    from phevaluator import _pheval

    n = 1_000_000
    hole, board = random_deals(n)
    ours_1 = n / median_time(lambda: omaha_high(hole, board, threads=1))
    ours_t = n / median_time(lambda: omaha_high(hole, board, threads=THREADS))
    high = omaha_high(hole, board)

    m = 200_000
    ph_rows = [[int(c) for c in np.concatenate([b, h])] for h, b in zip(hole[:m], board[:m])]
    ph = np.array([_pheval.evaluate_omaha_cards(*r) for r in ph_rows])
    ph_rate = m / median_time(lambda: [_pheval.evaluate_omaha_cards(*r) for r in ph_rows])
    if not same_order(high[:m], ph, -1):
        raise AssertionError("phevaluator orders Omaha hands differently")

    k = 1_000
    pk_args = [(text(h), text(b)) for h, b in zip(hole[:k], board[:k])]
    pk = [pokerkit.OmahaHoldemHand.from_game(h, b) for h, b in pk_args]
    pk_rate = k / median_time(lambda: [pokerkit.OmahaHoldemHand.from_game(h, b) for h, b in pk_args])
    if not all(
        (high[i] > high[i + 1]) == (pk[i] > pk[i + 1]) and (high[i] == high[i + 1]) == (pk[i] == pk[i + 1])
        for i in range(k - 1)
    ):
        raise AssertionError("pokerkit orders Omaha hands differently")

    table(
        f"Omaha high evaluation (4 hole + 5 board cards, random deals), hands per second, median of {REPEAT};"
        " x = times slower than analysis (1 thread)",
        [
            ("analysis omaha_high (batch, 1 thread)", ours_1, f"{n:,} hands"),
            (f"analysis omaha_high (batch, {THREADS} threads)", ours_t, f"{n:,} hands"),
            ("phevaluator (per-hand C call from Python)", ph_rate, f"{m:,} hands"),
            ("pokerkit OmahaHoldemHand (per hand)", pk_rate, f"{k:,} hands"),
        ],
        "hands/s",
        ours_1,
    )
    print(
        f"  => analysis (1 thread) is {ours_1 / ph_rate:.1f}x phevaluator's per-hand call "
        f"({ours_t / ph_rate:.1f}x with {THREADS} threads)"
    )

    low = omaha_low(hole, board)
    low_1 = n / median_time(lambda: omaha_low(hole, board, threads=1))

    def pk_low(h, b):
        try:
            return pokerkit.OmahaEightOrBetterLowHand.from_game(h, b)
        except ValueError:  # no qualifying low
            return None

    pkl = [pk_low(h, b) for h, b in pk_args]
    pkl_rate = k / median_time(lambda: [pk_low(h, b) for h, b in pk_args])
    if [v == NO_LOW for v in low[:k]] != [v is None for v in pkl]:
        raise AssertionError("pokerkit finds other qualifying lows")
    print()
    table(
        "Omaha 8-or-better low evaluation, hands per second",
        [
            ("analysis omaha_low (batch, 1 thread)", low_1, f"{n:,} hands"),
            ("pokerkit OmahaEightOrBetterLowHand (per hand)", pkl_rate, f"{k:,} hands"),
        ],
        "hands/s",
        low_1,
    )


def equity() -> None:
    import poker_equity

    spots = [
        ("omaha", False, ["As Ah Ks Kh", "7c 8d 9c Td"], ""),
        ("omaha_hi_lo", True, ["As 2h Ks 3h", "7c 8d 9c Td"], ""),
        ("omaha_hi_lo", True, ["As 2s 3d Kd", "Ah 4h 5c Qc", "7d 8d 9h Th"], ""),
    ]
    print("\nExact equity, every board enumerated: seconds per call, median of", REPEAT)
    for game, hilo, hands, board in spots:
        ours = compute_equity(hands, board, hilo=hilo)
        args = (game, [h.replace(" ", "") for h in hands], board.replace(" ", ""), "")
        theirs = poker_equity.exact_from_text(*args)
        shares = [u / ours.units_per_pot for u in ours.pot_units()]
        if theirs["samples"] != ours.boards or not np.allclose(shares, theirs["share_sum"], rtol=1e-12, atol=1e-6):
            raise AssertionError(f"poker-equity disagrees on {hands}")
        t1 = median_time(lambda h=hands, b=board, lo=hilo: compute_equity(h, b, hilo=lo, threads=1))
        tt = median_time(lambda h=hands, b=board, lo=hilo: compute_equity(h, b, hilo=lo, threads=THREADS))
        tpe = median_time(lambda a=args: poker_equity.exact_from_text(*a))
        name = ("Hi/Lo " if hilo else "high ") + " vs ".join(hands)
        print(
            f"  {name} ({ours.boards:,} boards; equities " + ", ".join(f"{float(e):.6f}" for e in ours.equities()) + ")"
        )
        print(f"    analysis, 1 thread        {t1:8.4f} s")
        print(f"    analysis, {THREADS} threads       {tt:8.4f} s")
        print(
            f"    poker-equity (exact)      {tpe:8.4f} s   {tpe / t1:6.1f}x analysis (1 thread), "
            f"{tpe / tt:6.1f}x analysis ({THREADS} threads)"
        )

    import pokerkit

    hands, board = ["As 2d 5h Kc", "Ac 3c 4s Qd"], "2s 3h Kd"
    parsed, b = [parse_cards(h) for h in hands], parse_cards(board)
    rest = [c for c in range(52) if c not in {*b, *parsed[0], *parsed[1]}]

    def pokerkit_outcomes():
        out = Counter()
        for draw in combinations(rest, 2):
            full = text(b + list(draw))
            highs = [pokerkit.OmahaHoldemHand.from_game(text(h), full) for h in parsed]
            lows = []
            for h in parsed:
                try:
                    lows.append(pokerkit.OmahaEightOrBetterLowHand.from_game(text(h), full))
                except ValueError:
                    lows.append(None)
            made = [v for v in lows if v is not None]
            out[
                sum(1 << i for i, v in enumerate(highs) if v == max(highs)),
                sum(1 << i for i, v in enumerate(lows) if made and v is not None and v == max(made)),
            ] += 1
        return out

    if pokerkit_outcomes() != Counter(compute_equity(parsed, b, hilo=True).outcomes):
        raise AssertionError("pokerkit disagrees on the flop spot")
    t1 = median_time(lambda: compute_equity(parsed, b, hilo=True, threads=1))
    tpe = median_time(
        lambda: poker_equity.exact_from_text(
            "omaha_hi_lo", [h.replace(" ", "") for h in hands], board.replace(" ", ""), ""
        )
    )
    tpk = median_time(pokerkit_outcomes)
    print(f"  Hi/Lo flop spot {' vs '.join(hands)} on {board} ({len(rest) * (len(rest) - 1) // 2} boards)")
    print(f"    analysis, 1 thread        {t1:8.5f} s")
    print(f"    poker-equity (exact)      {tpe:8.5f} s   {tpe / t1:8.1f}x analysis")
    print(f"    pokerkit (hand by hand)   {tpk:8.5f} s   {tpk / t1:8.0f}x analysis")


def distribution() -> None:
    from analysis.omaha4.distribution import _board_groups, _final_hand_counts

    print("\nFinal-hand category counts over every deal (board grouping included), seconds, median of", REPEAT)
    for k, deals in ((4, "C(52,4) C(48,5)"), (3, "C(52,3) C(49,5)")):

        def run(k=k):
            _board_groups.cache_clear()
            _final_hand_counts.cache_clear()
            final_hand_counts(k)

        print(f"  {k} hole cards, {deals} deals: {median_time(run):.2f} s ({THREADS} threads)")


def main() -> None:
    print(f"bench_omaha: {THREADS} threads available")
    evaluation()
    equity()
    distribution()


if __name__ == "__main__":
    main()
