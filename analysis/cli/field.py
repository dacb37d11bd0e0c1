"""``casino-omaha field``: each live table's hold against the game's exact figures.

A table game's records are its win and its drop (the cash and markers bought in at the
table), and win / drop is not the hold on the amount wagered (the handle), many times the
drop. So the handle comes from the hands and the average wager per hand (--hands,
--average-wager), or from the drop with the handle recorded (--drop, --handle: the
drop-to-handle ratio measured) or assumed (--drop alone, --drop-to-handle, default 1/25);
with the table's ante (--ante) the hands are the handle / (ante x the game's exact average
wager per hand). The hold is win / handle; the bands theoretical hold -/+ z x the standard
deviation of the hold, from the game's exact variance per hand (z = 1.960 for 95%, 2.576 for
99%). The output says which conversion each table's handle came from.
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
    game_for,
    hands,
    number,
    options_for,
    out_file,
    print_json,
)

NAME = "field"


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(NAME, help="field trial: each table's hold against the exact bands", description=__doc__)
    add_game_options(p)
    add_pay_options(p)
    p.add_argument("--strategy", choices=("optimal", "always-call", "simple"), default="optimal")
    one = p.add_argument_group("one table (instead of --sessions)")
    one.add_argument("--win", type=number, default=None, metavar="Y", help="the house's win at the table")
    one.add_argument("--drop", type=number, default=None, metavar="D", help="the drop: cash and markers bought in")
    one.add_argument(
        "--handle", type=number, default=None, metavar="H", help="the handle (total wagered), when recorded"
    )
    one.add_argument("--ante", type=number, default=None, metavar="A", help="the table's ante (with --drop)")
    one.add_argument("--hands", type=hands, default=None, help="hands played (with --average-wager)")
    one.add_argument(
        "--average-wager", type=number, default=None, metavar="W", help="average wager per hand, ante and call"
    )
    one.add_argument("--table", default="table", help="the table's name (default 'table')")
    p.add_argument(
        "--sessions",
        type=Path,
        default=None,
        metavar="FILE.csv",
        help="one row per table and session: columns table, session, win and hands, average_wager [, drop] "
        "or drop, handle, ante or drop, ante",
    )
    p.add_argument(
        "--drop-to-handle",
        type=number,
        default=None,
        metavar="R",
        help="the drop as a share of the handle, assumed where only the drop is recorded (default 1/25)",
    )
    p.add_argument("--plot", type=out_file, default=None, metavar="FILE.png", help="write the funnel plot here")
    add_format(p)


def run(args: argparse.Namespace) -> int:
    from analysis.engine.field import check_tables, read_sessions, recorded
    from analysis.engine.solve import solve
    from analysis.model.errors import InputError
    from analysis.model.game import game_title
    from analysis.model.rules import PRESETS
    from analysis.report.field_plots import conversion_note, plot_field
    from analysis.strategy.registry import strategy_named

    one = {k: getattr(args, k) for k in ("hands", "average_wager", "drop", "handle", "ante")}
    if args.sessions is not None:
        if args.win is not None or any(v is not None for v in one.values()):
            raise InputError("give either --sessions FILE or one table's --win, --drop, ..., not both")
        if not args.sessions.is_file():
            raise InputError(f"{args.sessions}: no such sessions file")
        tables = read_sessions(args.sessions)
    elif args.win is not None:
        tables = [recorded(args.table, args.win, **one)]
    else:
        raise InputError("give one table's --win with its --drop or --hands (see --help), or --sessions FILE.csv")

    if args.game in PRESETS:
        engine = engine_for(args)
        result = engine.decide(args.paytable, strategy_named(args.strategy), args.pays_on)
        name, title, exact, paytable = (
            engine.rules.name,
            game_title(engine.rules.name),
            result.exact,
            result.paytable.name,
        )
    else:  # any other game: its exact figures under the optimal strategy
        game = game_for(args)
        exact = solve(game, options=options_for(args)).exact
        name, title, paytable = game.name, game.title, "the game file's"
    trial = check_tables(exact, tables, args.drop_to_handle)
    note = conversion_note(trial)
    if args.plot is not None:
        from analysis.report.plots import png

        args.plot.write_bytes(png(plot_field(trial, f"{title}: each table's hold against the game")))

    frame = trial.frame()
    e = trial.expected
    if args.format == "json":
        print_json(
            {
                "game": name,
                "strategy": args.strategy,
                "paytable": paytable,
                "house_edge": e.house_edge,
                "average_wager": e.average_wager,
                "variance": e.variance,
                "standard_deviation": e.standard_deviation,
                "theoretical_hold": e.hold,
                "handle_from": trial.handles_from,
                "assumed_drop_to_handle": trial.assumed,
                "conversion": note,
                "tables": frame.astype(object).where(frame.notna(), None).to_dict(orient="records"),
                "outside_99": trial.outside(0.99),
                "outside_95": trial.outside(0.95),
                "plot": None if args.plot is None else str(args.plot),
            }
        )
        return 0
    print(
        f"{title}, {args.strategy} strategy: theoretical hold {float(e.hold):.4%} of the handle "
        f"(house edge {float(e.house_edge):.4%} of the ante / average wager {float(e.average_wager):.4f} antes; "
        f"standard deviation {e.standard_deviation:.4f} antes per hand)"
    )
    print(f"{note}.")
    if trial.assumed is not None:
        print(
            "The drop-to-handle ratio is an assumption: set it with --drop-to-handle, or measure it by giving "
            "the handle (or the hands and the average wager)."
        )
    print(
        "Bands: theoretical hold -/+ z x the standard deviation of the hold (the game's exact variance per hand "
        "over the table's hands and stakes, normal approximation; z 1.960 for 95%, 2.576 for 99%)."
    )
    print(
        f"{'table':<16} {'hands':>13} {'drop':>14} {'handle':>15} {'drop/handle':>11} {'win':>13} "
        f"{'win/drop':>8} {'hold':>8} {'99% band':>17} {'z':>7}  result"
    )
    for t, (_, r) in zip(trial.tables, frame.iterrows()):
        estimated = "~" if t.recorded.handle_from != "hands" else ""
        drop = "" if r["drop"] is None else f"{r['drop']:,.2f}"
        ratio = "" if r.drop_to_handle is None else f"{r.drop_to_handle:.2%}"
        per_drop = "" if r.win_over_drop is None else f"{r.win_over_drop:.1%}"
        print(
            f"{str(r.table)[:16]:<16} {estimated + f'{r.hands:,.0f}':>13} {drop:>14} {r.handle:>15,.2f} "
            f"{ratio:>11} {r.win:>13,.2f} {per_drop:>8} {r.hold:>8.3%} "
            f"{r['low_99%']:>8.3%}..{r['high_99%']:<7.3%} {r.z:>+7.2f}  {r.flag}"
        )
    flagged = trial.outside(0.99)
    print(f"Outside the 99% band: {', '.join(flagged) if flagged else 'none'}.")
    if args.plot is not None:
        print(f"Funnel plot: {args.plot}")
    return 0
