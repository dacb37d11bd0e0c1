"""``casino-omaha simulate``: a Monte Carlo check of the exact figures (seeded)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from analysis.cli.common import (
    Subparsers,
    add_format,
    add_game_options,
    add_pay_options,
    engine_for,
    hands,
    print_json,
    print_sampled,
    seed,
)

if TYPE_CHECKING:
    from analysis.model.game import GameSpec

NAME = "simulate"


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(NAME, help="Monte Carlo check of the exact figures", description=__doc__)
    add_game_options(p)
    add_pay_options(p)
    p.add_argument(
        "--strategy",
        choices=("optimal", "always-call", "simple", "written"),
        default="optimal",
        help="optimal (default); always-call and simple for casino-omaha and casino-holdem; written: the "
        "strategy in words of a game that has one (Ultimate Texas Hold'em, Texas Hold'em Bonus)",
    )
    p.add_argument("--hands", type=hands, default=1_000_000, help="hands to deal (default 1,000,000)")
    p.add_argument("--seed", type=seed, default=2026, help="random seed, a whole number >= 0 (default 2026)")
    add_format(p)


def run(args: argparse.Namespace) -> int:
    from analysis.engine.simulation import simulate_strategy
    from analysis.model.rules import PRESETS
    from analysis.strategy.registry import strategy_named

    if args.game not in PRESETS:
        return run_streets(args)

    engine = engine_for(args)
    sim = simulate_strategy(engine, args.paytable, strategy_named(args.strategy), args.hands, args.seed, args.pays_on)
    if args.format == "json":
        print_json(
            {
                "game": engine.rules.name,
                "strategy": args.strategy,
                "pays_on": args.pays_on,
                "hands": sim.hands,
                "seed": args.seed,
                "house_edge": sim.house_edge,
                "standard_error": sim.standard_error,
                "call_rate": sim.call_rate,
                "exact_house_edge": sim.exact_house_edge,
                "z": sim.z,
            }
        )
        return 0
    z = "n/a (no spread in the results)" if sim.z is None else f"{sim.z:+.2f}"
    print(
        f"{engine.rules.name}, {args.strategy}: simulated house edge {sim.house_edge:.5%} ± {sim.standard_error:.5%} "
        f"(1 s.e., {sim.hands:,} hands, seed {args.seed}); exact {sim.exact_house_edge:.5%}; z = {z}"
    )
    return 0


def run_streets(args: argparse.Namespace) -> int:
    """A multi-street game's optimal strategy played hand by hand (its flop decisions need
    the game counted in this process: about 20 s for Ultimate Texas Hold'em)."""
    from analysis.engine.street_simulation import simulate_streets
    from analysis.engine.streets import solve_streets
    from analysis.model.errors import InputError
    from analysis.model.game import load_game
    from analysis.parallel.options import RunOptions

    if args.strategy not in ("optimal", "written") or args.paytable.name != "antewin" or args.pays_on != "ante":
        raise InputError(
            "--strategy always-call or simple, --paytable and --pays-on are for casino-omaha and casino-holdem"
        )
    game = load_game(args.game)
    written = args.strategy == "written"
    if written and (game.no_board is not None or game.hand_paid is not None):
        raise InputError(f"--strategy written: {game.title} has no strategy in words")
    if game.hand_paid is not None:
        from analysis.cli.hand_paid import run_simulate

        return run_simulate(args, game)
    if game.no_board is not None:
        return run_no_board(args, game)
    if args.qualifier is not None:
        game = game.with_qualifier(args.qualifier)
    figures = solve_streets(game, RunOptions(root=args.store), keep_states=not written, written=written)
    sim = simulate_streets(figures, args.hands, args.seed, written=written)
    if args.format == "json":
        print_json(
            {
                "game": game.name,
                "strategy": args.strategy,
                "hands": sim.hands,
                "seed": args.seed,
                "house_edge": sim.house_edge,
                "standard_error": sim.standard_error,
                "exact_house_edge": sim.exact_house_edge,
                "z": sim.z,
                "decisions": {f"{s}: {o}": rate for (s, o), rate in sim.decisions.items()},
            }
        )
        return 0
    z = "n/a" if sim.z is None else f"{sim.z:+.2f}"
    print(
        f"{game.name}, {args.strategy}: simulated house edge {sim.house_edge:.5%} ± {sim.standard_error:.5%} "
        f"(1 s.e., {sim.hands:,} hands, seed {args.seed}); exact {sim.exact_house_edge:.5%}; z = {z}"
    )
    return 0


def run_no_board(args: argparse.Namespace, game: GameSpec) -> int:
    """A game without a board: its optimal strategy played on sampled deals, each settled
    by the sampler's own code, against the exact figures."""
    from analysis.engine.no_board import solve_no_board
    from analysis.engine.no_board_simulation import sample_no_board
    from analysis.model.errors import InputError

    if args.qualifier is not None:
        raise InputError(f"{game.title}: --qualifier is for the board games; change its game file")
    figures = solve_no_board(game)
    sim = sample_no_board(game, figures.play_bets, args.hands, args.seed)
    return print_sampled(args, game.name, sim.hands, sim.mean, sim.standard_error, float(figures.exact.house_edge))
