"""Pay-table tuning: re-optimise the strategy for any pay table at once, sweep pays, and
solve for the pay table that hits a target house edge.

No re-enumeration: the per-state counts do not depend on pays. A :class:`Tuner` keeps
one float64 matrix of the 22 pay-relevant counts per state (dealer not qualifying and
player wins per category, ties, dealer wins). For a pay table, the optimal decisions are
the signs of one matrix-vector product and the return table's counts a second one; both
are exact, as every partial sum is an integer below 2**53.

>>> from analysis.rules import preset
>>> from analysis.enumeration import count_flops, plan
>>> rules = preset("casino-holdem").small_deck("9TJQKA", "cd")
>>> tuner = Tuner(count_flops(rules, plan(rules)), rules)
>>> base = tuner.evaluate(None)
>>> richer = tuner.evaluate(base.paytable.replace(flush=5))
>>> richer.exact["house_edge"] < base.exact["house_edge"]
True
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pandas as pd
from scipy.optimize import brentq

from .enumeration import COLUMNS, StateCounts
from .paytable import PayTable
from .returns import PAYS_ON, GameResult, game_result, outcome_payoffs
from .rules import Rules
from .tables import CATEGORIES

#: The tuner's columns: per category not qualifying, per category player wins, tie, loss.
KEYS = (
    [("dealer_not_qualifying", c) for c in CATEGORIES]
    + [("player_wins", c) for c in CATEGORIES]
    + [("tie", ""), ("dealer_wins", "")]
)
_EXACT_LIMIT = 2**53
SUMMARY_FIELDS = ("house_edge", "element_of_risk", "call_rate", "std_dev", "hit_frequency")


class Tuner:
    """Optimal play and returns of one game for any pay table (see the module docstring)."""

    def __init__(self, sc: StateCounts, rules: Rules, pays_on: str = "ante"):
        if pays_on not in PAYS_ON:
            raise ValueError(f"pays_on must be one of {PAYS_ON}, not {pays_on!r}")
        self.rules, self.pays_on = rules, pays_on
        self.weight = sc.weight.astype(np.float64)
        # column-major: every product below reads whole columns
        self.counts = np.zeros((len(sc), len(KEYS)), dtype=np.float64, order="F")
        for j, name in enumerate(COLUMNS):
            result, category = name.split("_", 1)
            if result in ("noqual", "win"):
                key = ("dealer_not_qualifying" if result == "noqual" else "player_wins", category)
                self.counts[:, KEYS.index(key)] = sc.counts[:, j]
            else:
                self.counts[:, KEYS.index(("tie", "") if result == "tie" else ("dealer_wins", ""))] += sc.counts[:, j]

    def decisions(self, paytable: PayTable) -> np.ndarray:
        """Exact optimal decision per state: call when EV(call) > EV(fold).

        Pays scaled by their common denominator give integer margins that float64 holds
        exactly. Pays with large denominators (e.g. an exact solved pay) are decided in
        float64 and every state within rounding of a tie is settled in Fractions.
        """
        payoffs = [outcome_payoffs(paytable, self.rules, self.pays_on)[k] for k in KEYS]
        z = self.rules.completions  # folding loses 1 per completion
        d = int(np.lcm.reduce([p.denominator for p in payoffs]))
        coef = np.array([int(p * d) for p in payoffs], dtype=np.float64)
        if (np.abs(coef).max() + d) * z < _EXACT_LIMIT:  # a state's counts add up to z
            return self.counts @ coef + d * z > 0
        approx = self.counts @ np.array([float(p) for p in payoffs]) + z
        tolerance = 1e-9 * (max(abs(float(p)) for p in payoffs) + 1) * z
        calls = approx > 0
        for i in np.flatnonzero(np.abs(approx) <= tolerance):
            calls[i] = sum(int(n) * p for n, p in zip(self.counts[i], payoffs)) + z > 0
        return calls

    def evaluate(self, paytable=None, strategy: str = "optimal") -> GameResult:
        """The return table and summary of a pay table (PayTable, CSV path, dict or
        DataFrame; None for the default) with the strategy re-optimised for it."""
        paytable = PayTable.load(paytable)
        if strategy == "optimal":
            calls = self.decisions(paytable)
        elif strategy == "always-call":
            calls = np.ones(len(self.weight), dtype=bool)
        else:
            raise ValueError(f"the tuner plays 'optimal' or 'always-call', not {strategy!r}")
        w = np.where(calls, self.weight, 0.0)
        sums = w @ self.counts
        if sums.sum() >= _EXACT_LIMIT:
            raise OverflowError("sums too large for exact float64 accumulation")
        called = {k: int(v) for k, v in zip(KEYS, sums)}
        return game_result(self.rules, paytable, strategy, self.pays_on, called, int(w.sum()), calls)

    def house_edge(self, paytable) -> Fraction:
        return self.evaluate(paytable).exact["house_edge"]

    def sweep(self, base=None, **ranges) -> pd.DataFrame:
        """Re-optimised figures over a grid of one or two pays, e.g.
        ``sweep(flush=range(1, 8))`` or ``sweep(flush=[2, 3], full_house=[3, 4, 5])``.

        Returns one tidy row per pay combination: the varied pays, then house edge,
        element of risk, call rate, standard deviation and hit frequency.
        """
        base = PayTable.load(base)
        if not 1 <= len(ranges) <= 2:
            raise ValueError("sweep varies one or two pays")
        unknown = [c for c in ranges if c not in CATEGORIES]
        if unknown:
            raise ValueError(f"unknown categories: {', '.join(unknown)} (known: {', '.join(CATEGORIES)})")
        rows = []
        for values in itertools.product(*ranges.values()):
            pays = dict(zip(ranges, values))
            s = self.evaluate(base.replace(name=f"{base.name} sweep", **pays)).summary()
            rows.append({**{c: float(Fraction(v)) for c, v in pays.items()}, **{f: s[f] for f in SUMMARY_FIELDS}})
        return pd.DataFrame(rows)

    def solve(self, target_house_edge: float, vary, bounds=(0, 1000), integer: bool = False, base=None,
              best: int = 3) -> pd.DataFrame:
        """Pay tables whose re-optimised house edge hits ``target_house_edge``.

        ``vary``: a category or a list of categories; ``bounds``: (low, high) for all of
        them or a dict of bounds per category. One continuous pay is solved exactly (root
        finding, then the exact root of the final linear piece, as a Fraction). With
        ``integer=True`` the pays are whole numbers: for every combination of the other
        pays the last one is found by bisection (the edge never rises when a pay rises);
        the ``best`` tables closest to the target are returned. Raises ValueError when the
        target is out of reach within the bounds.
        """
        base = PayTable.load(base)
        vary = [vary] if isinstance(vary, str) else list(vary)
        unknown = [c for c in vary if c not in CATEGORIES]
        if unknown or not vary:
            raise ValueError(f"vary names pay-table categories (known: {', '.join(CATEGORIES)})")
        if not integer and len(vary) > 1:
            raise ValueError("a continuous solve varies one pay; give integer=True to search several")
        limits = {c: tuple(bounds[c] if isinstance(bounds, dict) else bounds) for c in vary}
        for c, (lo, hi) in limits.items():
            if not 0 <= lo <= hi:
                raise ValueError(f"bounds for {c} must satisfy 0 <= low <= high, got {lo}, {hi}")
        target = Fraction(str(target_house_edge)) if isinstance(target_house_edge, float) else Fraction(target_house_edge)
        low_edge = self.house_edge(base.replace(**{c: limits[c][1] for c in vary}))
        high_edge = self.house_edge(base.replace(**{c: limits[c][0] for c in vary}))
        if not low_edge <= target <= high_edge:
            raise ValueError(
                f"target house edge {float(target):.4%} is out of reach: with "
                f"{', '.join(f'{c} paying {float(lo):g} to {float(hi):g}' for c, (lo, hi) in limits.items())} "
                f"the house edge ranges from {float(low_edge):.4%} to {float(high_edge):.4%}"
            )
        if integer:
            found = self._solve_integer(target, vary, limits, base)
        else:
            found = [self._solve_continuous(target, vary[0], limits[vary[0]], base)]
        rows = []
        for pays, edge in sorted(found, key=lambda f: abs(f[1] - target))[:best]:
            rows.append({**{c: float(pays[c]) for c in vary}, "house_edge": float(edge),
                         "error": float(edge - target), "exact_pays": {c: pays[c] for c in vary},
                         "exact_house_edge": edge})
        return pd.DataFrame(rows)

    def _solve_continuous(self, target: Fraction, category: str, limits, base: PayTable):
        """Exact pay in [low, high] whose re-optimised house edge equals the target."""
        lo, hi = (Fraction(x) for x in limits)

        def gap(pay: float) -> float:  # root finding on pays of at most 4 decimals
            table = base.replace(**{category: Fraction(pay).limit_denominator(10**4)})
            return float(self.house_edge(table) - target)

        guess = Fraction(brentq(gap, float(lo), float(hi), xtol=1e-7)).limit_denominator(10**4) if lo < hi else lo
        # while the decisions stay the same, the edge is linear in the pay: solve that piece
        # exactly, then check the decisions at the exact root (repeat if they changed)
        for _ in range(50):
            calls = self.decisions(base.replace(**{category: guess}))
            edge = self._edge_with_calls(calls, base, category)
            at0, slope = edge(Fraction(0)), edge(Fraction(1)) - edge(Fraction(0))
            root = guess if slope == 0 else min(max((target - at0) / slope, lo), hi)
            if root == guess or np.array_equal(self.decisions(base.replace(**{category: root})), calls):
                return {category: root}, edge(root)
            guess = root
        raise RuntimeError(f"no exact root for {category}: decisions keep changing near {float(guess)}")

    def _edge_with_calls(self, calls: np.ndarray, base: PayTable, category: str):
        """House edge as a function of one pay, the decisions held fixed."""
        w = np.where(calls, self.weight, 0.0)
        called = {k: int(v) for k, v in zip(KEYS, w @ self.counts)}
        called_states = int(w.sum())

        def edge(pay: Fraction) -> Fraction:
            table = base.replace(**{category: pay})
            return game_result(self.rules, table, "fixed", self.pays_on, called, called_states, calls).exact["house_edge"]

        return edge

    def _solve_integer(self, target: Fraction, vary: list[str], limits, base: PayTable):
        *outer, last = vary
        lo_last, hi_last = int(np.ceil(limits[last][0])), int(np.floor(limits[last][1]))
        grids = [range(int(np.ceil(limits[c][0])), int(np.floor(limits[c][1])) + 1) for c in outer]
        if np.prod([len(g) for g in grids], dtype=float) > 2000:
            raise ValueError("integer search grid too large: narrow the bounds of the outer pays")
        found = []
        for values in itertools.product(*grids):
            pays = dict(zip(outer, values))

            def edge(v: int) -> Fraction:
                return self.house_edge(base.replace(**pays, **{last: v}))

            # the edge does not rise with the pay: bisect for the last pay whose edge >= target
            a, b = lo_last, hi_last
            if edge(a) < target:
                found.append(({**pays, last: a}, edge(a)))
                continue
            while b - a > 1:
                mid = (a + b) // 2
                if edge(mid) >= target:
                    a = mid
                else:
                    b = mid
            for v in {a, b}:
                found.append(({**pays, last: v}, edge(v)))
        return found


def solve_paytable(target_house_edge: float, vary, bounds=(0, 1000), integer: bool = False, *,
                   game: str = "casino-omaha", base=None, pays_on: str = "ante", tuner: Tuner | None = None,
                   best: int = 3) -> pd.DataFrame:
    """The pay table(s) of ``game`` whose re-optimised house edge hits the target, and how
    close they come (see :meth:`Tuner.solve`); pass ``tuner`` to reuse a loaded game."""
    if tuner is None:
        from .exact import load_outcomes
        from .rules import preset

        rules = preset(game)
        tuner = Tuner(load_outcomes(rules), rules, pays_on)
    return tuner.solve(target_house_edge, vary, bounds, integer, base, best)


def compare_paytables(games, paytables, conventions=PAYS_ON, states: dict | None = None, root=None) -> pd.DataFrame:
    """Optimal-play figures of every game x pay table x convention, side by side.

    ``states`` may hold already loaded per-state counts by game name.
    """
    from .exact import load_outcomes
    from .rules import preset

    rows = []
    for game in games:
        rules = preset(game)
        sc = (states or {}).get(game)
        if sc is None:
            sc = load_outcomes(rules, root)
        for pays_on in conventions:
            tuner = Tuner(sc, rules, pays_on)
            for spec in paytables:
                s = tuner.evaluate(spec).summary()
                rows.append({"game": game, "paytable": s["paytable"], "pays_on": pays_on,
                             **{f: s[f] for f in SUMMARY_FIELDS}})
            del tuner  # one tuner matrix at a time
    return pd.DataFrame(rows)


def plot_sweep(frame: pd.DataFrame, x: str, by: str | None = None, y: str = "house_edge", ax=None):
    """House edge (or another figure) against one pay, a line per value of ``by``."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.6))
    groups = frame.groupby(by) if by else [(None, frame)]
    for value, part in groups:
        ax.plot(part[x], part[y], marker="o", label=f"{by.replace('_', ' ')} pays {value:g}" if by else None)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel(f"{x.replace('_', ' ')} pays (to 1)")
    ax.set_ylabel(y.replace("_", " "))
    if y in ("house_edge", "element_of_risk", "call_rate", "hit_frequency"):
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    if by:
        ax.legend()
    ax.set_title(f"{y.replace('_', ' ')} with the strategy re-optimised for each table")
    return ax


def parse_assignment(text: str) -> tuple[str, str]:
    """``"flush=3"`` -> ("flush", "3")."""
    name, sep, value = text.partition("=")
    if not sep or not name or not value:
        raise ValueError(f"expected CATEGORY=VALUE, got {text!r}")
    return name.strip(), value.strip()


def parse_range(text: str) -> list[Fraction]:
    """``"1:3:0.5"`` -> [1, 1.5, 2, 2.5, 3] (inclusive), or a comma list ``"1,2,5"``."""
    try:
        if ":" in text:
            lo, hi, step = (Fraction(p) for p in text.split(":"))
            if step <= 0 or hi < lo:
                raise ValueError
            n = int((hi - lo) / step)
            return [lo + i * step for i in range(n + 1)]
        return [Fraction(p) for p in text.split(",")]
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"bad range {text!r}: use LOW:HIGH:STEP or a comma list") from None


def add_command(sub) -> None:
    from .cli import add_game_options, add_pay_options

    p = sub.add_parser("tune", help="re-optimise for a changed pay table, sweep pays, or solve for a target edge")
    add_game_options(p)
    add_pay_options(p)
    p.add_argument("--set", action="append", default=[], metavar="CATEGORY=PAY", help="change one pay of the table")
    p.add_argument("--sweep", action="append", default=[], metavar="CATEGORY=LOW:HIGH:STEP",
                   help="vary one pay (twice for a grid)")
    p.add_argument("--target", type=float, help="solve for this house edge per ante (e.g. 0.02)")
    p.add_argument("--vary", action="append", default=[], metavar="CATEGORY", help="pay(s) to solve for")
    p.add_argument("--bounds", nargs=2, type=float, default=(0.0, 1000.0), metavar=("LOW", "HIGH"))
    p.add_argument("--integer", action="store_true", help="whole-number pays only")
    p.add_argument("--plot", type=str, help="with --sweep: write the plot to this PNG file")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(handler=cmd_tune)


def cmd_tune(args) -> int:
    import json
    import time

    from .cli import format_table
    from .exact import ensure_store
    from .rules import preset

    rules = preset(args.game)
    table = PayTable.load(args.paytable)
    if args.set:
        table = table.replace(name=f"{table.name} (changed)", **dict(parse_assignment(a) for a in args.set))
    sweeps = dict(parse_assignment(a) for a in args.sweep)
    if args.target is not None and not args.vary:
        raise ValueError("--target needs --vary CATEGORY")
    store = ensure_store(rules, args.store, args.threads, progress=None if not args.no_progress else False)
    tuner = Tuner(store.load(), rules, args.pays_on)
    if sweeps:
        frame = tuner.sweep(table, **{c: parse_range(v) for c, v in sweeps.items()})
        if args.plot:
            names = list(sweeps)
            ax = plot_sweep(frame, names[0], names[1] if len(names) > 1 else None)
            ax.figure.savefig(args.plot, dpi=120, bbox_inches="tight")
        print(frame.to_json(orient="records") if args.format == "json" else frame.to_string(index=False))
    elif args.target is not None:
        frame = tuner.solve(args.target, args.vary, tuple(args.bounds), args.integer, table)
        if args.format == "json":
            out = frame.drop(columns=["exact_pays", "exact_house_edge"]).assign(
                exact_pays=[{c: str(v) for c, v in p.items()} for p in frame["exact_pays"]],
                exact_house_edge=[str(e) for e in frame["exact_house_edge"]])
            print(out.to_json(orient="records"))
        else:
            print(frame.to_string(index=False))
    else:
        start = time.perf_counter()
        result = tuner.evaluate(table)
        took = time.perf_counter() - start
        if args.format == "json":
            print(json.dumps(result.summary() | {"seconds": round(took, 3)}, indent=1, default=int))
        else:
            print(format_table(result))
            print(f"re-optimised in {took:.2f} s")
    return 0
