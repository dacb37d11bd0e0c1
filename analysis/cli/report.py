"""``casino-omaha report``: the return table and exact figures of a game, pay table and
strategy, or with ``--out`` the full report (Excel workbook and HTML page with plots)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from analysis.cli.common import (
    Subparsers,
    add_format,
    add_game_options,
    add_pay_options,
    engine_for,
    out_folder,
    print_json,
)

if TYPE_CHECKING:
    from analysis.engine.result import GameResult

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
        help="write the full report (Excel workbook and HTML page with plots) into DIR",
    )


def format_result(result: GameResult) -> str:
    """The return table and the summary figures as text."""
    t = result.table.copy()
    t["combinations"] = t["combinations"].map("{:,}".format)
    t["probability"] = t["probability"].map("{:.10f}".format)
    t["payoff"] = t["payoff"].map("{:+g}".format)
    t["contribution"] = t["contribution"].map("{:+.8f}".format)
    s, e = result.summary(), result.exact
    lines = [
        f"{result.rules.name}: pay table {result.paytable.name} (pays on the {result.pays_on}), "
        f"{result.strategy} strategy",
        f"{result.rules.qualifier_phrase}; the call bet is {result.rules.call_multiple}x the ante",
        "",
        t.to_string(index=False),
        "",
        f"total combinations  {s['total_combinations']:,}",
        f"house edge          {s['house_edge']:.6%} per ante  (exact {e.house_edge})",
        f"element of risk     {s['element_of_risk']:.6%} of the total wager  (exact {e.element_of_risk})",
        f"call rate           {s['call_rate']:.6%}",
        f"average wager       {s['average_wager']:.6f} antes",
        f"standard deviation  {s['std_dev']:.6f} antes per hand",
        f"hit frequency       {s['hit_frequency']:.6%}",
    ]
    if result.strategy == "optimal":
        lines.append("optimal strategy: call when EV(call) > EV(fold); fold on an exact tie")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from analysis.model.paytable import PayTable
    from analysis.store.outcome_store import OutcomeStore
    from analysis.strategy.registry import strategy_named

    paytable = PayTable.load(args.paytable)
    engine = engine_for(args)
    if args.out is not None:
        from analysis.report.build import build_report

        sidebets = () if args.no_sidebets else args.sidebet
        report = build_report(engine, paytable, args.strategy, args.pays_on, sidebets)
        xlsx, page = report.write(args.out)
        s = report.result.summary()
        print(
            f"{engine.rules.name}, pay table {paytable.name}, {args.strategy} strategy: house edge "
            f"{s['house_edge']:.4%}, element of risk {s['element_of_risk']:.4%}, call rate {s['call_rate']:.2%}"
        )
        print(f"report written to {xlsx.parent}/\n  {xlsx}\n  {page}")
        return 0
    result = engine.decide(paytable, strategy_named(args.strategy), args.pays_on)
    if args.format == "json":
        print_json(
            result.summary()
            | {
                "qualifier": engine.rules.describe()["qualifier"],
                "call_multiple": engine.rules.call_multiple,
                "store_checksum": engine.source.checksum if isinstance(engine.source, OutcomeStore) else None,
                "return_table": result.table.to_dict(orient="records"),
            }
        )
    elif args.format == "csv":
        print(result.table.to_csv(index=False), end="")
    else:
        print(format_result(result))
    return 0
