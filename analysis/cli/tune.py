"""``casino-omaha tune``: a changed pay table with the strategy re-optimised, sweeps of one
or two pays, the exact curve of the house edge in one pay (every breakpoint), or the pay
that hits a target house edge."""

from __future__ import annotations

import argparse
import time
from fractions import Fraction
from typing import TYPE_CHECKING

from analysis.cli.common import (
    Subparsers,
    add_format,
    add_game_options,
    add_pay_options,
    engine_for,
    game_for,
    number,
    options_for,
    out_file,
    print_json,
)
from analysis.cli.report import format_result
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.numbers import as_fraction, shown

if TYPE_CHECKING:
    from pathlib import Path

    import pandas as pd

    from analysis.engine.solve import Solved
    from analysis.model.paytable import PayTable
    from analysis.tuning.street_tuner import StreetTuner

NAME = "tune"


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(
        NAME,
        help="re-optimise for a changed pay table, sweep pays, or solve for a target edge",
        description=__doc__.replace("``", ""),
    )
    add_game_options(p)
    add_pay_options(p)
    p.add_argument("--set", action="append", default=[], metavar="CATEGORY=PAY", help="change one pay of the table")
    p.add_argument(
        "--sweep",
        action="append",
        default=[],
        metavar="CATEGORY=LOW:HIGH:STEP",
        help="vary one pay (twice for a grid); LOW:HIGH:STEP or a comma list",
    )
    p.add_argument(
        "--curve",
        metavar="CATEGORY",
        help="every breakpoint of the exact curve of the optimal house edge in this pay, between --bounds",
    )
    p.add_argument("--plot", type=out_file, help="with --sweep or --curve: write the plot to this PNG file")
    p.add_argument("--target", type=number, help="solve for this house edge per ante (e.g. 0.02)")
    p.add_argument("--vary", action="append", default=[], metavar="CATEGORY", help="pay(s) to solve for")
    p.add_argument(
        "--bounds",
        nargs=2,
        type=number,
        default=None,
        metavar=("LOW", "HIGH"),
        help="pays searched by --target (default 0 1000), drawn by --curve (default 0 to twice the pay, at least 10)",
    )
    p.add_argument("--integer", action="store_true", help="whole-number pays only")
    add_format(p)


def parse_assignment(text: str) -> tuple[str, str]:
    """``"flush=3"`` -> ("flush", "3")."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip() or not value.strip():
        raise InputError(f"expected CATEGORY=VALUE, got {shown(text)}")
    return name.strip(), value.strip()


def parse_range(text: str, limit: int) -> list[Fraction]:
    """``"1:3:0.5"`` -> [1, 1.5, 2, 2.5, 3] (inclusive), or a comma list ``"1,2,5"``; at
    most ``limit`` values."""
    try:
        if ":" in text:
            lo, hi, step = (as_fraction(p) for p in text.split(":"))
            if step <= 0 or hi < lo:
                raise ValueError
            n = int((hi - lo) / step) + 1
            if n > limit:
                raise OverflowError(n)
            return [lo + i * step for i in range(n)]
        return [as_fraction(p) for p in text.split(",")]
    except InputError as e:
        raise InputError(f"bad range {shown(text)}: {e}; use LOW:HIGH:STEP or a comma list") from None
    except ValueError:
        raise InputError(f"bad range {shown(text)}: use LOW:HIGH:STEP or a comma list") from None
    except OverflowError as e:
        raise InputError(f"range {text!r} has {e.args[0]:,} values, at most {limit:,}: widen the step") from None


def run(args: argparse.Namespace) -> int:
    from analysis.engine.result import GameResult
    from analysis.model.game import load_game
    from analysis.model.paytable import PayTable
    from analysis.model.rules import PRESETS
    from analysis.tuning.street_tuner import StreetTuner
    from analysis.tuning.tuner import MAX_SWEEP, PayTuner, Tuner

    streets = None
    if args.game not in PRESETS and not load_game(args.game).single_decision:
        streets = StreetTuner(game_for(args), options_for(args))
    table = streets.table() if streets is not None else PayTable.load(args.paytable)
    if args.set:
        table = table.with_pays(dict(parse_assignment(a) for a in args.set), name=f"{table.name} (changed)")
    sweeps = {c: parse_range(v, MAX_SWEEP) for c, v in map(parse_assignment, args.sweep)}
    if args.target is not None and not args.vary:
        raise InputError("--target needs --vary CATEGORY")
    if args.plot and not sweeps and not args.curve:
        raise InputError("--plot goes with --sweep or --curve")
    if args.curve is not None:
        frame = _curve(args, streets, table)
        if args.plot:
            _plot(frame, [args.curve], args.plot)
        text = frame.to_json(orient="records", double_precision=15) if args.format == "json" else None
        print(text or frame.to_string(index=False))
        return 0
    tuner: PayTuner = streets if streets is not None else Tuner(engine_for(args), args.pays_on)
    if sweeps:
        frame = tuner.sweep(table, **sweeps)
        if args.plot:
            _plot(frame, list(sweeps), args.plot)
        print(frame.to_json(orient="records") if args.format == "json" else frame.to_string(index=False))
    elif args.target is not None:
        bounds = (Fraction(0), Fraction(1000)) if args.bounds is None else tuple(args.bounds)
        frame = tuner.solve(args.target, args.vary, bounds, args.integer, table)
        if args.format == "json":
            print_json(frame.to_dict(orient="records"))
        else:
            print(frame.drop(columns=["exact_pays", "exact_house_edge"]).to_string(index=False))
            for pays, edge in zip(frame["exact_pays"], frame["exact_house_edge"]):
                print(f"exact: {', '.join(f'{c} pays {v}' for c, v in pays.items())} -> house edge {edge}")
    else:
        start = time.perf_counter()
        result = tuner.evaluate(table)
        took = time.perf_counter() - start
        summary: dict[str, int | float | str]
        if isinstance(result, GameResult):
            summary = result.summary()
            text = f"{format_result(result)}\nre-optimised in {took:.2f} s"
        else:
            assert streets is not None  # a multi-street game's result
            summary = {"game": streets.game.name, "wager": streets.wager, **result.exact.summary()}
            text = f"{format_solved(streets, table, result)}\nsolved in {took:.2f} s, every decision re-optimised"
        if args.format == "json":
            print_json(summary | {"seconds": round(took, 3)})
        else:
            print(text)
    return 0


def format_solved(tuner: StreetTuner, table: PayTable, result: Solved) -> str:
    """A multi-street game's figures with a changed table, as text."""
    e = result.exact
    changed = ", ".join(f"{c} {table.pays[c]}" for c in reversed(CATEGORIES) if table.pays[c])
    unit = tuner.game.hand_paid.unit if tuner.game.hand_paid is not None else "ante"
    return "\n".join(
        [
            f"{tuner.game.title}: {tuner.wager} pays {changed}; optimal strategy",
            f"house edge          {float(e.house_edge):.6%} per {unit}  (exact {e.house_edge})",
            f"element of risk     {float(e.element_of_risk):.6%} of the total wager",
            f"average wager       {float(e.average_wager):.6f} {unit}s",
            f"standard deviation  {e.standard_deviation:.6f} {unit}s per hand",
        ]
    )


def _curve(args: argparse.Namespace, streets: StreetTuner | None, table: PayTable) -> pd.DataFrame:
    """The curve's breakpoints between the bounds: pay and house edge, exact where the game's
    curve is (a game without a board), as floats for a one-decision game's."""
    import pandas as pd

    from analysis.engine.pay_curve import PayCurve

    c = args.curve
    if args.bounds is None:  # from nothing to well past the pay now
        low, high = Fraction(0), max(Fraction(10), 2 * table.pays.get(c, Fraction(0)))
    else:
        low, high = args.bounds
    if not 0 <= low < high:
        raise InputError(f"--bounds for a curve: 0 <= LOW < HIGH, not {low}, {high}")
    if streets is not None:
        points = streets.curve(c, table).breakpoints(low, high)
        return pd.DataFrame(
            {
                c: [float(p) for p, _ in points],
                "house_edge": [float(e) for _, e in points],
                "pay_exact": [str(p) for p, _ in points],
                "house_edge_exact": [str(e) for _, e in points],
            }
        )
    if c not in CATEGORIES:
        raise InputError(f"--curve: {shown(c)} is not a category ({', '.join(CATEGORIES)})")
    pays, edges = PayCurve(engine_for(args), table, c, args.pays_on).breakpoints(float(low), float(high))
    return pd.DataFrame({c: pays, "house_edge": edges})


def _plot(frame: pd.DataFrame, names: list[str], path: Path) -> None:
    """The house edge against the pay(s) swept, written to ``path`` (PNG)."""
    from matplotlib.figure import Figure

    from analysis.report.plots import plot_sweep
    from analysis.store.atomic import atomic_path

    fig = Figure(figsize=(6, 3.6))
    plot_sweep(frame, names[0], names[1] if len(names) > 1 else None, ax=fig.subplots())
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=120, bbox_inches="tight")
