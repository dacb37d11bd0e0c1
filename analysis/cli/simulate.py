"""``casino-omaha simulate``: a Monte Carlo check of the exact figures (seeded)."""

from __future__ import annotations

import argparse

from analysis.cli.common import (
    Subparsers,
    add_format,
    add_game_options,
    add_pay_options,
    engine_for,
    hands,
    print_json,
    seed,
)

NAME = "simulate"


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(NAME, help="Monte Carlo check of the exact figures", description=__doc__)
    add_game_options(p)
    add_pay_options(p)
    p.add_argument("--strategy", choices=("optimal", "always-call", "simple"), default="optimal")
    p.add_argument("--hands", type=hands, default=1_000_000, help="hands to deal (default 1,000,000)")
    p.add_argument("--seed", type=seed, default=2026, help="random seed, a whole number >= 0 (default 2026)")
    add_format(p)


def run(args: argparse.Namespace) -> int:
    from analysis.engine.simulation import simulate_strategy
    from analysis.strategy.registry import strategy_named

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
