"""``casino-omaha solve``: the exact optimal strategy and figures of any game file,
including games with several decision points (Ultimate Texas Hold'em, Casino Omaha with
Ultimate betting, a new design): house edge, element of risk, standard deviation, hit
frequency and how often each option is taken at each street."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from analysis.cli.common import (
    Subparsers,
    add_format,
    add_run_options,
    game_or_file,
    options_for,
    print_json,
    result_json,
)

if TYPE_CHECKING:
    from analysis.model.game import GameSpec

NAME = "solve"


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(
        NAME, help="exact optimal strategy and figures of any game file", description=__doc__.replace("``", "")
    )
    p.add_argument(
        "--game",
        type=game_or_file,
        default="ultimate-texas-holdem",
        metavar="NAME|FILE",
        help="a shipped game (see `games`) or a game file (.toml); default ultimate-texas-holdem",
    )
    add_run_options(p, store_help="stores' root: the solve is kept under STORE/streets (resumable)")
    p.add_argument(
        "--blind",
        action="append",
        default=[],
        metavar="CATEGORY=PAYS",
        help="change a blind pay, e.g. flush=2 or full_house=5/2 (repeatable; 0 makes the category push)",
    )
    p.add_argument("--qualifier", default=None, metavar="RANK|none", help="another dealer qualifier")
    p.add_argument("--preflop", action="store_true", help="also print the pre-flop decision of every hand class")
    p.add_argument(
        "--written",
        action="store_true",
        help="the strategy in words instead of optimal play (a Hold'em-hand game deciding at the flop and the river, "
        "or at the flop and the turn with bets that add up: the pre-flop grid, then the rules the par sheet "
        "prints): its exact figures",
    )
    add_format(p)


def run(args: argparse.Namespace) -> int:
    from analysis.engine.streets import solve_streets
    from analysis.model.errors import InputError
    from analysis.model.game import load_game
    from analysis.parallel.options import RunOptions

    game = load_game(args.game)
    if args.written and (game.hand_paid is not None or game.no_board is not None):
        raise InputError(
            f"--written: {game.title} has no written strategy (it is for the board games' flop, turn and river)"
        )
    if game.hand_paid is not None:
        from analysis.cli.hand_paid import run_solve

        return run_solve(args, game)
    if game.no_board is not None:
        return _run_no_board(args, game)
    if args.blind:
        pays = {}
        for item in args.blind:
            category, sep, value = item.partition("=")
            if not sep:
                raise InputError(f"--blind {item[:40]!r}: give CATEGORY=PAYS, e.g. flush=2")
            pays[category.strip()] = value.strip()
        game = game.with_blind(pays)
    if args.qualifier is not None:
        game = game.with_qualifier(args.qualifier)
    options = RunOptions(root=args.store, threads=args.threads, progress=not args.no_progress)
    f = solve_streets(game, options, written=args.written)
    strategy = "written" if args.written else "optimal"
    if args.format == "json":
        data = result_json(game.name, game.title, strategy, f.exact, f.decisions, f.outcomes(), game.settlement)
        if args.preflop:
            data["preflop"] = f.preflop.to_dict("records")
        print_json(data)
        return 0
    print(f"{game.title} ({game.source}), {f.total:,} deals, {strategy} strategy, exact")
    print(f"house edge            {float(f.house_edge):.4%} of the ante  (exact {f.house_edge})")
    print(f"element of risk       {float(f.element_of_risk):.4%}")
    print(f"average wager         {float(f.average_wager):.4f} antes")
    print(f"standard deviation    {f.standard_deviation:.4f} antes")
    print(f"hit frequency         {float(f.hit_frequency):.4%}")
    for (street, option), n in f.decisions.items():
        print(f"{street:8} {option:8}      {n / f.total:.4%} of deals")
    if args.preflop:
        print(f.preflop[["hole cards", "holdings", "option"]].to_string(index=False))
    return 0


def _run_no_board(args: argparse.Namespace, game: GameSpec) -> int:
    """A game without a board: solved hand by hand; its bets on the player's hand alone too."""
    from analysis.cli.no_board import no_board_json, no_board_lines
    from analysis.engine.no_board import solve_no_board
    from analysis.model.errors import InputError

    if args.blind or args.qualifier is not None:
        raise InputError(f"{game.title}: --blind and --qualifier are for the board games; change its game file")
    f = solve_no_board(game, options=options_for(args))
    if args.format == "json":
        print_json(no_board_json(f, args.preflop))
    else:
        print("\n".join(no_board_lines(f, args.preflop)))
    return 0
