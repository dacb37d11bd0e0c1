"""Command line: ``casino-omaha report | enumerate | simulate | ...``.

Errors in what the user typed (cards, pay tables, game names) end with one line on
stderr and exit code 2; an interrupted enumeration keeps its finished shards (exit 130).
Feature modules add their own subcommands: each module named in
:data:`COMMAND_MODULES` has ``add_command(subparsers)``, which registers a parser whose
``handler`` default is the function to run.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from pathlib import Path

import pandas as pd

from .exact import ensure_store
from .paytable import DEFAULT_PAYTABLE, PayTable
from .returns import PAYS_ON, STRATEGIES, GameResult, evaluate_strategy
from .rules import PRESETS, preset
from .store import StoreError

#: Modules that add subcommands (``add_command(subparsers)``).
COMMAND_MODULES: tuple[str, ...] = ("analysis.tune", "analysis.strategy", "analysis.equity", "analysis.distribution")


def add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", default="casino-omaha", help=f"one of: {', '.join(PRESETS)} (default casino-omaha)")
    p.add_argument("--store", type=Path, default=None, help="outcome store folder (default data/outcomes)")
    p.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def add_pay_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--paytable", default=str(DEFAULT_PAYTABLE), help="pay table CSV (default antewin.csv)")
    p.add_argument("--pays-on", choices=PAYS_ON, default="ante",
                   help="which bet the table pays: ante (AnteWin, default) or call (Caribbean)")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="casino-omaha", description="Exact mathematics of Casino Omaha Poker and its family.")
    sub = top.add_subparsers(dest="command", required=True)

    rep = sub.add_parser("report", help="return table and summary of a game, pay table and strategy")
    add_game_options(rep)
    add_pay_options(rep)
    rep.add_argument("--strategy", choices=(*STRATEGIES, "simple"), default="optimal",
                     help="optimal, always-call, or simple (the few-rule strategy derived for this game and table)")
    rep.add_argument("--format", choices=("table", "json", "csv"), default="table")
    rep.add_argument("--out", type=Path, default=None, metavar="DIR",
                     help="write the full report (Excel workbook and HTML page with plots) into DIR")
    rep.set_defaults(handler=cmd_report)

    enum = sub.add_parser("enumerate", help="build (or resume) the exact outcome store of a game")
    add_game_options(enum)
    enum.set_defaults(handler=cmd_enumerate)

    sim = sub.add_parser("simulate", help="Monte Carlo check of the exact figures")
    add_game_options(sim)
    add_pay_options(sim)
    sim.add_argument("--strategy", choices=STRATEGIES, default="optimal")
    sim.add_argument("--hands", type=int, default=1_000_000)
    sim.add_argument("--seed", type=int, default=2026)
    sim.set_defaults(handler=cmd_simulate)

    for name in COMMAND_MODULES:
        importlib.import_module(name).add_command(sub)
    return top


def format_table(result: GameResult) -> str:
    t = result.table.copy()
    t["combinations"] = t["combinations"].map("{:,}".format)
    t["probability"] = t["probability"].map("{:.10f}".format)
    t["payoff"] = t["payoff"].map("{:+g}".format)
    t["contribution"] = t["contribution"].map("{:+.8f}".format)
    s, e = result.summary(), result.exact
    lines = [
        f"{result.rules.name}: pay table {result.paytable.name} (pays on the {result.pays_on}), {result.strategy} strategy",
        "",
        t.to_string(index=False),
        "",
        f"total combinations  {s['total_combinations']:,}",
        f"house edge          {s['house_edge']:.6%} per ante  (exact {e['house_edge']})",
        f"element of risk     {s['element_of_risk']:.6%} of the total wager  (exact {e['element_of_risk']})",
        f"call rate           {s['call_rate']:.6%}",
        f"average wager       {s['average_wager']:.6f} antes",
        f"standard deviation  {s['std_dev']:.6f} antes per hand",
        f"hit frequency       {s['hit_frequency']:.6%}",
    ]
    if result.strategy == "optimal":
        lines.append("optimal strategy: call when EV(call) > EV(fold); fold on an exact tie")
    return "\n".join(lines)


def cmd_report(args) -> int:
    rules = preset(args.game)
    paytable = PayTable.load(args.paytable)
    store = ensure_store(rules, args.store, args.threads, progress=None if not args.no_progress else False)
    if args.out is not None or args.strategy == "simple":
        from .report import build_report

        report = build_report(rules, paytable, args.strategy, args.pays_on, store)
        result = report.result
        if args.out is not None:
            xlsx, page = report.write(args.out)
            s = result.summary()
            print(f"{rules.name}, pay table {paytable.name}, {result.strategy} strategy: house edge "
                  f"{s['house_edge']:.4%}, element of risk {s['element_of_risk']:.4%}, call rate {s['call_rate']:.2%}")
            print(f"report written to {xlsx.parent}/\n  {xlsx}\n  {page}")
            return 0
    else:
        result = evaluate_strategy(store.load(), rules, paytable, args.strategy, args.pays_on)
    if args.format == "json":
        out = result.summary() | {"store_checksum": store.checksum,
                                  "return_table": result.table.to_dict(orient="records")}
        print(json.dumps(out, indent=1, default=int))
    elif args.format == "csv":
        print(result.table.to_csv(index=False), end="")
    else:
        print(format_table(result))
    return 0


def cmd_enumerate(args) -> int:
    rules = preset(args.game)
    store = ensure_store(rules, args.store, args.threads, progress=None if not args.no_progress else False)
    m = store.manifest
    print(f"{rules.name}: {m['rows']:,} canonical states ({m['total_states']:,} states) in {store.path}")
    print(f"checksum {store.checksum}; enumerated in {m.get('elapsed_seconds', 0)} s")
    return 0


def cmd_simulate(args) -> int:
    from .simulate import simulate

    rules = preset(args.game)
    paytable = PayTable.load(args.paytable)
    if args.hands <= 0:
        raise ValueError("--hands must be positive")
    store = ensure_store(rules, args.store, args.threads, progress=None if not args.no_progress else False)
    sc = store.load()
    exact = evaluate_strategy(sc, rules, paytable, args.strategy, args.pays_on)
    sim = simulate(rules, paytable, args.hands, args.seed, args.strategy, sc, exact.calls, args.pays_on)
    z = (sim.house_edge - float(exact.exact["house_edge"])) / sim.standard_error
    print(f"{rules.name}, {args.strategy}: simulated house edge {sim.house_edge:.5%} ± {sim.standard_error:.5%} "
          f"(1 s.e., {args.hands:,} hands, seed {args.seed}); exact {float(exact.exact['house_edge']):.5%}; z = {z:+.2f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    pd.set_option("display.width", 200)
    try:
        return args.handler(args)
    except (ValueError, StoreError, OSError, LookupError) as e:
        print(f"casino-omaha: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head & co.
        sys.stdout = open(os.devnull, "w")
        return 0
    except KeyboardInterrupt:
        print("casino-omaha: interrupted; finished shards are kept and the next run resumes", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
