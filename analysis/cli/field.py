"""``casino-omaha field``: each live table's hold against the game's exact figures.

The hold is the house win / the total wagered (antes and call bets; a drop given instead is
taken as the amount wagered); the theoretical hold is the exact house edge per ante / the
average wager per hand. The bands are theoretical hold -/+ z x SD / (average wager x
sqrt(hands)), SD the game's exact standard deviation per hand (the ante taken as the one the
wagered total implies at the game's average wager); z = 1.960 (95%) and 2.576 (99%).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from analysis.cli.common import (
    Subparsers,
    add_format,
    add_game_options,
    add_pay_options,
    engine_for,
    hands,
    number,
    out_file,
    print_json,
)

NAME = "field"

CONVENTION = (
    "hold = house win / total wagered; theoretical hold = house edge / average wager; "
    "bands: theoretical hold -/+ z x SD per hand / (average wager x sqrt(hands)) (normal approximation)"
)


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(NAME, help="field trial: each table's hold against the exact bands", description=__doc__)
    add_game_options(p)
    add_pay_options(p)
    p.add_argument("--strategy", choices=("optimal", "always-call", "simple"), default="optimal")
    p.add_argument("--hands", type=hands, default=None, help="hands played at one table")
    p.add_argument(
        "--wagered", type=number, default=None, metavar="X", help="total wagered (or the drop) at that table"
    )
    p.add_argument("--house-win", type=number, default=None, metavar="Y", help="the house's win at that table")
    p.add_argument("--table", default="table", help="the table's name (with --hands; default 'table')")
    p.add_argument(
        "--sessions",
        type=Path,
        default=None,
        metavar="FILE.csv",
        help="sessions per table and day, columns table, day, hands, wagered, house_win (instead of --hands ...)",
    )
    p.add_argument("--plot", type=out_file, default=None, metavar="FILE.png", help="write the funnel plot here")
    add_format(p)


def run(args: argparse.Namespace) -> int:
    from analysis.engine.field import check_tables, observed, read_sessions
    from analysis.model.errors import InputError
    from analysis.strategy.registry import strategy_named

    one = (args.hands, args.wagered, args.house_win)
    if args.sessions is not None:
        if any(v is not None for v in one):
            raise InputError("give either --sessions FILE or --hands, --wagered and --house-win, not both")
        if not args.sessions.is_file():
            raise InputError(f"{args.sessions}: no such sessions file")
        tables = read_sessions(args.sessions)
    elif all(v is not None for v in one):
        tables = [observed(args.table, args.hands, args.wagered, args.house_win)]
    else:
        raise InputError("give --hands, --wagered and --house-win (one table), or --sessions FILE.csv")

    engine = engine_for(args)
    result = engine.decide(args.paytable, strategy_named(args.strategy), args.pays_on)
    trial = check_tables(result.exact, tables)
    if args.plot is not None:
        from analysis.report.field_plots import plot_field
        from analysis.report.plots import png

        args.plot.write_bytes(png(plot_field(trial, f"{engine.rules.name}: each table's hold against the game")))

    frame = trial.frame()
    if args.format == "json":
        print_json(
            {
                "game": engine.rules.name,
                "strategy": args.strategy,
                "paytable": result.paytable.name,
                "house_edge": result.exact.house_edge,
                "average_wager": result.exact.average_wager,
                "standard_deviation": result.exact.standard_deviation,
                "theoretical_hold": trial.expected.hold,
                "convention": CONVENTION,
                "tables": frame.to_dict(orient="records"),
                "outside_99": trial.outside(0.99),
                "outside_95": trial.outside(0.95),
                "plot": None if args.plot is None else str(args.plot),
            }
        )
        return 0
    e = trial.expected
    print(
        f"{engine.rules.name}, {args.strategy} strategy: theoretical hold {float(e.hold):.4%} "
        f"(house edge {float(e.house_edge):.4%} of the ante / average wager {float(e.average_wager):.4f} antes; "
        f"standard deviation {e.standard_deviation:.4f} antes per hand)"
    )
    print(f"Convention: {CONVENTION}.")
    head = (
        f"{'table':<16} {'hands':>12} {'wagered':>14} {'house win':>14} {'hold':>9} "
        f"{'95% band':>19} {'99% band':>19} {'z':>7}  result"
    )
    print(head)
    for _, r in frame.iterrows():
        print(
            f"{str(r.table)[:16]:<16} {r.hands:>12,} {r.wagered:>14,.2f} {r.house_win:>14,.2f} {r.hold:>9.3%} "
            f"{r['low_95%']:>9.3%}..{r['high_95%']:<8.3%} {r['low_99%']:>9.3%}..{r['high_99%']:<8.3%} "
            f"{r.z:>+7.2f}  {r.flag}"
        )
    flagged = trial.outside(0.99)
    print(f"Outside the 99% band: {', '.join(flagged) if flagged else 'none'}.")
    if args.plot is not None:
        print(f"Funnel plot: {args.plot}")
    return 0
