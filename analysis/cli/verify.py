"""``casino-omaha verify``: the reproduction kit a test lab runs on its own machine. The
headline figures recomputed along independent paths: every store checksum and derived
array, the closed-form totals, random states counted naively, a small deck brute-forced,
a Monte Carlo, and Casino Hold'em's published house edge. A game with several decision
points: counted again here, its closed-form total, a small deck's whole game tree, a Monte
Carlo and Ultimate Texas Hold'em's published house edge. One PASS/FAIL line per check.

Exit codes: 0 when every check passes; 1 when a check fails (the figures did not
reproduce: not a usage error; a damaged store fails its check); 2 for bad input."""

from __future__ import annotations

import argparse
import sys

from analysis.cli.common import (
    Subparsers,
    add_format,
    add_run_options,
    game_or_file,
    hands,
    options_for,
    out_folder,
    print_json,
    seed,
    whole_number,
)
from analysis.model.rules import PRESETS

NAME = "verify"

EPILOG = """exit status:
  0  every check passed
  1  a check failed: its line says FAIL and names it (a result, not a usage error)
  2  bad input (an argument out of range, a folder that cannot be written); a damaged
     store is not bad input: the check that meets it fails (exit 1)"""


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(
        NAME,
        help="recompute the headline figures along independent paths (for test labs)",
        description=__doc__,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--game", type=game_or_file, default="casino-omaha", metavar="NAME|FILE", help="the game (default casino-omaha)"
    )
    p.add_argument(
        "--states",
        type=whole_number(1, 10_000, "states"),
        default=5,
        metavar="N",
        help="random stored states counted naively (default 5; about 4 s each for casino-omaha)",
    )
    p.add_argument(
        "--hands", type=hands, default=1_000_000, metavar="M", help="hands of the Monte Carlo (default 1,000,000)"
    )
    p.add_argument("--seed", type=seed, default=2026, help="random seed, a whole number >= 0 (default 2026)")
    p.add_argument(
        "--out",
        type=out_folder,
        default=None,
        metavar="DIR",
        help="write the appendix here: verification.json, .html and .pdf (with its .sha256)",
    )
    add_run_options(p)
    add_format(p)


def run(args: argparse.Namespace) -> int:
    from analysis.model.rules import preset
    from analysis.report.appendix import Check
    from analysis.report.verification import verify

    table = args.format == "table"

    def line(check: Check) -> None:
        if table:
            verdict = "PASS" if check.passed else "FAIL"
            print(f"{verdict}  {check.name:<31} {check.seconds:6.1f} s  {check.found}", flush=True)
            if not check.passed:
                print(f"      expected {check.expected}; {check.detail}", flush=True)

    if args.game in PRESETS:
        result = verify(preset(args.game), options_for(args), args.states, args.hands, args.seed, on_check=line)
    else:  # a game of several decision points: its own checks (no outcome store, so no naive states)
        from analysis.model.game import load_game

        game = load_game(args.game)
        if game.hand_paid is not None:
            from analysis.report.hand_paid_verification import verify_hand_paid

            result = verify_hand_paid(game, args.hands, args.seed, on_check=line)
        elif game.no_board is not None:
            from analysis.report.no_board_verification import verify_no_board

            result = verify_no_board(game, args.hands, args.seed, on_check=line)
        elif game.adds:
            from analysis.report.turn_verification import verify_turns

            result = verify_turns(game, options_for(args), args.hands, args.seed, on_check=line)
        else:
            from analysis.report.street_verification import verify_streets

            result = verify_streets(game, options_for(args), args.hands, args.seed, on_check=line)
    written = result.write(args.out) if args.out is not None else []
    if table:
        failed = ", ".join(c.name for c in result.failed)
        summary = "all checks passed" if result.passed else f"FAILED: {failed}"
        print(f"{result.game}: {summary} ({len(result.checks)} checks, {result.seconds:.1f} s)")
        for path in written:
            print(f"wrote {path}", file=sys.stderr)
    else:
        print_json(result.as_dict() | {"files": [str(p) for p in written]})
    return 0 if result.passed else 1
