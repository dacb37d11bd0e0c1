"""``casino-omaha report``: the return table and exact figures of a game, pay table and
strategy, or with ``--out`` the full report (Excel workbook, HTML page and typeset PDF). A game
with several decision points (a multi-street game that ships, or a game file) is solved
exactly and gets its own par sheet: the summary printed, or with ``--out`` the workbook and
page."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from analysis.cli.common import (
    Subparsers,
    add_format,
    add_game_options,
    add_pay_options,
    engine_for,
    game_for,
    options_for,
    out_folder,
    print_json,
    result_json,
)

if TYPE_CHECKING:
    from analysis.engine.result import GameResult
    from analysis.model.game import GameSpec
    from analysis.report.streets import StreetReport

NAME = "report"
STRATEGIES = ("optimal", "always-call", "simple")


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(
        NAME,
        help="return table and summary of a game, pay table and strategy",
        description=__doc__.split("\n\n")[0].replace("``", ""),
    )
    add_game_options(p)
    add_pay_options(p)
    p.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="optimal",
        help="optimal, always-call, or simple (the few-rule strategy derived for this game and table)",
    )
    p.add_argument(
        "--sidebet",
        action="append",
        metavar="NAME|FILE",
        help="with --out: a side bet to show (repeat for more; default those that ship for the game)",
    )
    p.add_argument("--no-sidebets", action="store_true", help="with --out: no side bets")
    add_format(p, "csv")
    p.add_argument(
        "--out",
        type=out_folder,
        default=None,
        metavar="DIR",
        help="write the full report (Excel workbook, HTML page and typeset PDF with its .sha256) into DIR",
    )


def format_result(result: GameResult) -> str:
    """The return table (in words, as the par sheet shows it) and the summary figures as text."""
    from analysis.report.wording import readable

    t = readable(result.table)
    s, e = result.summary(), result.exact
    lines = [
        f"{result.rules.name}: pay table {result.paytable.name} (pays on the {result.pays_on}), "
        f"{result.strategy} strategy",
        f"{result.rules.qualifier_phrase}; the call bet is {result.rules.call_multiple}x the ante",
        "",
        t.to_string(index=False),
        "",
        f"total combinations  {s['deals']:,}",
        f"house edge          {s['house_edge']:.6%} per ante  (exact {e.house_edge})",
        f"element of risk     {s['element_of_risk']:.6%} of the total wager  (exact {e.element_of_risk})",
        f"call rate           {s['call_rate']:.6%}",
        f"average wager       {s['average_wager']:.6f} antes",
        f"standard deviation  {s['standard_deviation']:.6f} antes per hand",
        f"hit frequency       {s['hit_frequency']:.6%}",
    ]
    if result.strategy == "optimal":
        lines.append("optimal strategy: call when EV(call) > EV(fold); fold on an exact tie")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from analysis.model.game import game_title, load_game
    from analysis.model.paytable import PayTable
    from analysis.model.rules import PRESETS

    if args.game not in PRESETS:
        game = load_game(args.game)
        if game.hand_paid is not None:
            return run_hand_paid(args, game)
        return run_no_board(args) if game.no_board is not None else run_streets(args)
    from analysis.store.outcome_store import OutcomeStore
    from analysis.strategy.registry import strategy_named

    paytable = PayTable.load(args.paytable)
    engine = engine_for(args)
    if args.out is not None:
        from analysis.report.build import build_report

        sidebets = () if args.no_sidebets else args.sidebet
        report = build_report(engine, paytable, args.strategy, args.pays_on, sidebets)
        written = report.write(args.out)
        s = report.result.summary()
        print(
            f"{engine.rules.name}, pay table {paytable.name}, {args.strategy} strategy: house edge "
            f"{s['house_edge']:.4%}, element of risk {s['element_of_risk']:.4%}, call rate {s['call_rate']:.2%}"
        )
        print(f"report written to {written.workbook.parent}/\n" + "\n".join(f"  {p}" for p in written))
        return 0
    result = engine.decide(paytable, strategy_named(args.strategy), args.pays_on)
    if args.format == "json":
        print_json(
            result_json(
                engine.rules.name,
                game_title(engine.rules.name),
                result.strategy,
                result.exact,
                result.decisions,
                result.outcomes(),
                result.settlement,
                paytable=paytable.name,
                pays_on=result.pays_on,
                qualifier=engine.rules.describe()["qualifier"],
                store_checksum=engine.source.checksum if isinstance(engine.source, OutcomeStore) else None,
            )
        )
    elif args.format == "csv":  # the one return table of every game, as the par sheet has it
        from analysis.report.tables import return_table

        print(return_table(result.outcomes()).to_csv(index=False), end="")
    else:
        print(format_result(result))
    return 0


def run_streets(args: argparse.Namespace) -> int:
    """The par sheet of a multi-street game (or any game file): solved exactly (read back
    from its result store when solved before)."""
    from analysis.report.streets import build_street_report

    game = game_for(args)
    report = build_street_report(
        game, options_for(args), game_file=_game_file(args.game), document=args.out is not None
    )
    if args.out is not None:
        written = report.write(args.out)
        print(summary_line(report))
        print(f"par sheet written to {written.workbook.parent}/\n" + "\n".join(f"  {p}" for p in written))
        return 0
    if args.format == "json":
        f = report.figures
        print_json(
            result_json(
                game.name,
                game.title,
                "optimal",
                f.exact,
                f.decisions,
                f.outcomes(),
                game.settlement,
                paytable=game.ante_pays.name if game.ante_pays is not None else "even money",
                pays_on="ante",
                qualifier=game.rules.describe()["qualifier"],
                store_checksum=f.checksum,
            )
        )
    elif args.format == "csv":
        print(report.sheets["Return table"].to_csv(index=False), end="")
    else:
        print(format_streets(report))
    return 0


def run_no_board(args: argparse.Namespace) -> int:
    """A game without a board: its exact figures, the decision of every hand and its return
    table; with ``--out`` its par sheet (workbook, page, PDF)."""
    from analysis.cli.no_board import no_board_lines, no_board_report_json
    from analysis.engine.no_board import solve_no_board
    from analysis.model.errors import InputError
    from analysis.model.game import load_game
    from analysis.report.tables import return_table

    game = load_game(args.game)
    game_for(args)  # refuses, in one line, the options of the one-decision games
    if args.qualifier is not None:
        raise InputError(f"{game.title}: --qualifier is for the board games; change its game file")
    f = solve_no_board(game, options=options_for(args))
    if args.out is not None:
        from analysis.report.no_board_sheet import write_no_board_report

        written = write_no_board_report(f, _game_file(args.game), args.out, options_for(args))
        print("\n".join(no_board_lines(f)[:3]))
        print(f"par sheet written to {written.workbook.parent}/\n" + "\n".join(f"  {p}" for p in written))
        return 0
    if args.format == "json":
        print_json(no_board_report_json(f))
    elif args.format == "csv":
        table = return_table(f.outcomes(), play="play")
        table["betting ended"] = table["betting ended"].replace("bet before the flop", "played")  # no flop to name
        print(table.to_csv(index=False), end="")
    else:
        print("\n".join(no_board_lines(f, by_hand=True)))
    return 0


def run_hand_paid(args: argparse.Namespace, game: GameSpec) -> int:
    """A game without a dealer: its exact figures and return table; with ``--out`` its par
    sheet (workbook, page, PDF)."""
    from analysis.cli.hand_paid import hand_paid_lines, run_solve

    game_for(args)  # refuses, in one line, the options of the one-decision games
    if args.out is None:
        return run_solve(args, game, report=True)
    from analysis.engine.hand_paid import solve_hand_paid
    from analysis.report.hand_paid import write_hand_paid_report

    f = solve_hand_paid(game)
    written = write_hand_paid_report(f, _game_file(args.game), args.out)
    print("\n".join(hand_paid_lines(f)[:3]))
    print(f"par sheet written to {written.workbook.parent}/\n" + "\n".join(f"  {p}" for p in written))
    return 0


def _game_file(spec: str) -> Path | None:
    from analysis.model.game import shipped_games

    path = Path(spec)
    return path if path.is_file() else shipped_games().get(spec)


def summary_line(report: StreetReport) -> str:
    f = report.figures
    return (
        f"{report.game.title}, optimal strategy: house edge {float(f.house_edge):.4%}, element of risk "
        f"{float(f.element_of_risk):.4%}, standard deviation {f.standard_deviation:.4f} antes"
    )


def format_streets(report: StreetReport) -> str:
    """The par sheet's summary and decisions as text."""
    f, game = report.figures, report.game
    summary = report.sheets["Summary"]
    width = max(len(str(x)) for x in summary["figure"])
    lines = [f"{game.title} ({game.source}): every deal counted exactly, optimal strategy", ""]
    for row in summary.itertuples(index=False):
        exact = "" if row.exact == str(row.value) or row.figure == "deals counted" else f"  (exact {row.exact})"
        lines.append(f"{row.figure:<{width}}  {row.shown}{exact}")
    lines.append("")
    decisions = report.sheets["Decisions"]
    for row in decisions.itertuples(index=False):
        lines.append(f"{row[0]:<16} {row[1]:<8} {row[3]:>9.4%} of deals")
    if f.checksum:
        lines.append(f"\nresult store {f.store.name if f.store else ''} (checksum {f.checksum[:16]})")
    return "\n".join(lines)
