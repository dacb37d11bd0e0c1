"""``casino-omaha advise``: the exact EV of calling and folding one state (hole cards and
flop, and the dealer cards seen or dead cards known, if any), and the optimal decision."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from analysis.cli.common import Subparsers, add_format, add_game_options, add_pay_options, print_json, rules_for

if TYPE_CHECKING:
    from analysis.model.game import GameSpec
    from analysis.strategy.advice import Advice

NAME = "advise"


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(
        NAME, help="EV(call), EV(fold) and the optimal decision of one state", description=__doc__.replace("``", "")
    )
    p.add_argument("hole", help='the player\'s hole cards, e.g. "As Kd 7h"')
    p.add_argument(
        "--flop", default=None, help='the three flop cards, e.g. "Qs Jd 2c" (a multi-street game: omit before the flop)'
    )
    p.add_argument(
        "--board",
        default=None,
        metavar="CARDS",
        help="a multi-street game at the river: the five board cards (a game whose bets add up: the four at the "
        "turn); a game without a dealer: those turned so far",
    )
    p.add_argument(
        "--taken",
        default=None,
        metavar="OPTIONS",
        help="the options taken at the earlier decisions, a game without a dealer or one whose bets add up, "
        'e.g. "bet 1, bet 3"',
    )
    p.add_argument(
        "--up",
        default=None,
        metavar="CARD",
        help="a game that deals one of the dealer's cards face up before the decision (Caribbean Stud): "
        'that card, e.g. "9d"',
    )
    add_game_options(p, store=False)
    add_pay_options(p)
    p.add_argument("--store", type=Path, default=None, help="outcome store root (see `report --help`)")
    p.add_argument("--enumerate", action="store_true", help="enumerate the state even when a store exists")
    p.add_argument("--exposed", default=None, metavar="CARDS", help='dealer cards the player saw, e.g. "3c"')
    p.add_argument(
        "--flop-card",
        default=None,
        metavar="CARD",
        help="with --exposed, before the flop: a flop card the player saw too (the count of `protect --exposed 1`)",
    )
    p.add_argument(
        "--runout-card",
        default=None,
        metavar="CARD",
        help="with --exposed, before the flop: a turn or river card he saw too (`protect --exposed 1 --runout-card`)",
    )
    p.add_argument(
        "--dead", default=None, metavar="CARDS", help='cards out of play (other seats\' hole cards), e.g. "3c 4c 5d"'
    )
    add_format(p)


def format_advice(a: Advice) -> str:
    """The advice in lines (an :class:`analysis.strategy.advice.Advice`)."""
    diff = a.ev_call - a.ev_fold
    return "\n".join(
        [
            f"{a.game}: hole {a.hole}, flop {a.flop}  (pay table {a.paytable}, pays on the {a.pays_on})",
            *([f"seen       dealer {a.exposed}"] if a.exposed else []),
            *([f"dead       {a.dead}"] if a.dead else []),
            f"hand now   {a.hand}",
            f"EV(call)   {float(a.ev_call):+.6f} antes  (exact {a.ev_call})",
            f"EV(fold)   {float(a.ev_fold):+.6f} antes",
            f"optimal    {a.decision.upper()}  (EV(call) - EV(fold) = {float(diff):+.6f} antes"
            f"{'; a tie folds' if diff == 0 else ''})",
            f"counts     {a.source}",
        ]
    )


def run(args: argparse.Namespace) -> int:
    from analysis.model.errors import InputError
    from analysis.model.rules import PRESETS
    from analysis.strategy.advice import advise

    if args.game not in PRESETS:
        return run_streets(args)
    if args.flop is None or args.board is not None or args.taken is not None or args.up is not None:
        raise InputError(
            f"{args.game}: give the state's --flop (its one decision is at the flop); "
            "--board is for multi-street games, --up for Caribbean Stud"
        )

    a = advise(
        args.hole,
        args.flop,
        rules_for(args),
        args.paytable,
        args.pays_on,
        args.store,
        args.enumerate,
        args.exposed,
        args.dead,
    )
    if args.format == "json":
        print_json(a.to_dict())
    else:
        print(format_advice(a))
    return 0


def run_streets(args: argparse.Namespace) -> int:
    """Advice at one decision point of a multi-street game: before the flop (the game is
    solved, or read back from its result store), at the flop or at the river."""
    from analysis.engine.streets import solve_streets
    from analysis.model.errors import InputError
    from analysis.model.game import load_game
    from analysis.parallel.options import RunOptions
    from analysis.strategy.street_advice import advise_street

    if args.dead or args.enumerate:
        raise InputError("--dead and --enumerate are for casino-omaha and casino-holdem")
    if args.flop is not None and args.board is not None:
        raise InputError("give --flop (the flop decision) or --board (the river decision), not both")
    game = load_game(args.game)
    if args.flop_card and args.runout_card:
        raise InputError("give --flop-card or --runout-card: one board card seen")
    if (args.flop_card or args.runout_card) and not args.exposed:
        raise InputError("--flop-card and --runout-card go with --exposed (the dealer card seen too)")
    if args.exposed:
        return _run_seen_card(args, game)
    if game.hand_paid is not None:
        from analysis.cli.hand_paid import run_advise

        return run_advise(args, game)
    if args.taken is not None and not game.adds:
        raise InputError(
            "--taken is for the games without a dealer or whose bets add up (the options taken at earlier decisions)"
        )
    if game.no_board is not None:
        return _run_no_board(args, game)
    if args.up is not None:
        raise InputError(f"--up is for a game that deals the dealer a card face up (Caribbean Stud), not {game.title}")
    if args.qualifier is not None:
        game = game.with_qualifier(args.qualifier)
    board = args.board or args.flop or ""
    taken = None if args.taken is None else tuple(t for t in args.taken.split(",") if t.strip())
    figures = None if board else solve_streets(game, RunOptions(root=args.store))
    a = advise_street(game, args.hole, board, figures, taken=taken)
    if args.format == "json":
        print_json(
            {"game": a.game, "street": a.street, "hole": a.hole, "board": a.board, "evs": a.evs, "best": a.best}
            | ({"bets_made": a.bets} if game.adds else {})
            | ({"strategy_in_words": a.written} if a.written is not None else {})
        )
        return 0
    made = f"; {a.bets} antes bet so far, in the EVs" if game.adds and a.board else ""
    print(f"{game.title}: hole {a.hole}{', board ' + a.board if a.board else ''} ({a.street} decision{made})")
    for option, ev in a.evs.items():
        mark = "  <- best" if option == a.best else ""
        print(f"  EV({option}) {float(ev):+.6f} antes  (exact {ev}){mark}")
    if a.written is not None:
        cost = a.evs[a.best] - a.evs[a.written]
        verdict = "the best option" if cost == 0 else f"{float(cost):.6f} antes less than the best here"
        print(f"  the strategy in words: {a.written} ({verdict}; `report` prints the rules)")
    return 0


def _run_seen_card(args: argparse.Namespace, game: GameSpec) -> int:
    """Advice to a player who saw one of the dealer's cards, at any street of a game with
    several decision points (before the flop from the game solved with the card seen)."""
    from analysis.model.errors import InputError
    from analysis.parallel.options import RunOptions
    from analysis.protection.seen_card import seen_card_fits, solve_seen_card
    from analysis.protection.seen_card_advice import advise_seen_card

    if not seen_card_fits(game) or args.taken is not None or args.up is not None:
        raise InputError(
            f"--exposed: a dealer card seen is advised in games of two hole cards and the best five of seven whose "
            f"bets do not add up (not {game.title}), without --taken or --up"
        )
    if args.qualifier is not None:
        game = game.with_qualifier(args.qualifier)
    board = args.board or args.flop or ""
    card = args.flop_card or args.runout_card or ""
    figures = None if board else solve_seen_card(game, RunOptions(root=args.store), runout=bool(args.runout_card))
    a = advise_seen_card(game, args.hole, args.exposed, board, figures, card, runout=bool(args.runout_card))
    if args.format == "json":
        print_json(
            {"game": a.game, "street": a.street, "hole": a.hole, "seen": a.seen, "board": a.board, "evs": a.evs}
            | ({"board_card_seen": a.board_seen} if a.board_seen else {})
            | {"best": a.best}
        )
        return 0
    where = f", board {a.board}" if a.board else f", the {a.board_seen} seen" if a.board_seen else ""
    print(f"{game.title}: hole {a.hole}, the dealer's {a.seen} seen{where} ({a.street} decision)")
    for option, ev in a.evs.items():
        mark = "  <- best" if option == a.best else ""
        print(f"  EV({option}) {float(ev):+.6f} antes  (exact {ev}){mark}")
    return 0


def _run_no_board(args: argparse.Namespace, game: GameSpec) -> int:
    """A game without a board: the exact EV of each option of the player's hand."""
    from analysis.engine.no_board import state_evs
    from analysis.model.errors import InputError

    if args.flop is not None or args.board is not None or args.qualifier is not None:
        raise InputError(
            f"{game.title} has no board: give the player's hand (and --up, the dealer's card he sees) only "
            "(no --flop, --board, --qualifier)"
        )
    evs = state_evs(game, args.hole, args.up)
    best = max(evs, key=lambda o: evs[o])  # the first best: options are in the order of their risk
    if args.format == "json":
        print_json(
            {"game": game.name, "street": "preflop", "hole": args.hole, "board": "", "up": args.up or "", "evs": evs}
            | {"best": best}
        )
        return 0
    seen = f", the dealer showing {args.up}" if args.up else ""
    print(f"{game.title}: hand {args.hole}{seen} (the one decision)")
    for option, ev in evs.items():
        mark = "  <- best" if option == best else ""
        print(f"  EV({option}) {float(ev):+.6f} antes  (exact {ev}){mark}")
    return 0
