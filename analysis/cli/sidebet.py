"""``casino-omaha sidebet``: a side bet's exact return table and figures, alone and with the
main game; its progressive meter; the pay of a line for a target return; the floor figures."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analysis.cli.common import (
    Subparsers,
    add_format,
    add_game_options,
    add_pay_options,
    engine_for,
    game_for,
    number,
    options_for,
    positive,
    print_json,
    whole_number,
)
from analysis.model.errors import InputError

if TYPE_CHECKING:
    import pandas as pd

    from analysis.sidebets.bet import SideBet
    from analysis.sidebets.result import PricesSideBets, SideBetResult

NAME = "sidebet"


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(
        NAME,
        help="a side bet's return table, progressive meter, tuning and floor figures",
        description=__doc__.split("\n\n")[0].replace("``", ""),
    )
    p.add_argument("--bet", required=True, help="side bet: a CSV file or the name of one that ships (e.g. aa-bonus)")
    add_game_options(p)
    p.set_defaults(game=None)  # default: the game the bet was designed for, else casino-omaha
    add_pay_options(p)
    p.add_argument("--stake", type=positive, default=Fraction(1), help="the side stake, in antes (default 1)")
    p.add_argument("--meter", type=number, default=None, help="progressive: the meter's value (default its seed)")
    p.add_argument(
        "--strategy",
        choices=("joint", "separate"),
        default=None,
        help="forfeited bets: decide ante, call and side bet together (joint, default) or the main game alone",
    )
    p.add_argument("--target", type=number, help="solve for this return per unit staked (e.g. 0.95)")
    p.add_argument("--vary", metavar="LINE", help="with --target: the line whose pay is solved (e.g. pair:A)")
    p.add_argument("--bounds", nargs=2, type=number, default=(Fraction(0), Fraction(10_000)), metavar=("LOW", "HIGH"))
    p.add_argument("--hands-per-hour", type=positive, help="floor figures: hands a seat plays per hour")
    p.add_argument(
        "--seats", type=whole_number(1, 100, "seats"), default=7, help="floor figures: seats at the table (default 7)"
    )
    p.add_argument("--hours-per-day", type=positive, default=Fraction(16), help="floor figures (default 16)")
    p.add_argument("--ante", type=positive, default=Fraction(10), help="floor figures: average ante (default 10)")
    add_format(p)


def run(args: argparse.Namespace) -> int:
    from analysis.sidebets.bet import SideBet

    bet = SideBet.load(args.bet)
    if (args.target is None) != (args.vary is None):
        raise InputError("--target and --vary go together")
    args.game = args.game or bet.game or "casino-omaha"
    result, out = _street_bet(args, bet) if _multi_street(args.game) else _one_decision_bet(args, bet)
    if result is None or out is None:  # a pay solve, printed
        return 0
    floor = None
    if args.hands_per_hour is not None:
        from analysis.sidebets.floor import floor_figures, side_bet_wagers

        ante = float(args.ante)
        wagers = side_bet_wagers(result, ante, ante * float(args.stake))
        floor = floor_figures(wagers, float(args.hands_per_hour), args.seats, float(args.hours_per_day))
        out["floor"] = floor.to_dict(orient="records")
    if args.format == "json":
        print_json(out)
    else:
        print(format_sidebet(result, out, floor))
    return 0


def _multi_street(name: str) -> bool:
    from analysis.model.game import load_game
    from analysis.model.rules import PRESETS

    return name not in PRESETS and not load_game(name).single_decision


def _street_bet(args: argparse.Namespace, bet: SideBet) -> tuple[SideBetResult, dict[str, Any]] | tuple[None, None]:
    """A side bet on a multi-street game: priced on its exact solve (optimal strategy), with
    its pay solve and meter."""
    from analysis.engine.no_board import NoBoardFigures
    from analysis.engine.solve import solve
    from analysis.engine.streets import StreetFigures
    from analysis.sidebets.street_bets import StreetSideBets, street_side_bet

    game = game_for(args)
    figures = solve(game, options=options_for(args))
    if not isinstance(figures, (StreetFigures, NoBoardFigures)):  # a game without a dealer is refused before
        raise InputError(f"{game.title} has no dealer: its [pays] table is the game; a side bet needs a dealer's hand")
    bets = StreetSideBets(figures)
    if args.target is not None:
        _print_pay_solve(args, bet, bets, "separate")
        return None, None
    result = street_side_bet(figures, bet, args.stake, args.meter)
    out: dict[str, Any] = result.summary() | {"lines": result.table.to_dict(orient="records")}
    if bet.meter is not None:
        from analysis.sidebets.progressive import analyse_progressive

        out["progressive"] = analyse_progressive(bets, bet, args.stake, args.meter, "separate").summary()
    return result, out


def _print_pay_solve(args: argparse.Namespace, bet: SideBet, bets: PricesSideBets, strategy: str) -> None:
    """The pay of ``--vary`` for the ``--target`` return, exact, and the whole numbers beside it."""
    from analysis.sidebets.tuning import solve_side_bet

    frame = solve_side_bet(bets, bet, args.target, args.vary, tuple(args.bounds), args.stake, args.meter, strategy)
    if args.format == "json":
        print_json({"game": args.game, "bet": bet.name, "solutions": frame.to_dict(orient="records")})
    else:
        print(f"{bet.name} on {args.game}: {args.vary} for a return of {float(args.target):.4%}")
        print(frame.drop(columns=["pays_exact", "return_exact"]).to_string(index=False))
        for pay, ret in zip(frame["pays_exact"], frame["return_exact"]):
            print(f"exact: {args.vary} pays {pay} -> return {ret}")


def _one_decision_bet(
    args: argparse.Namespace, bet: SideBet
) -> tuple[SideBetResult, dict[str, Any]] | tuple[None, None]:
    """A side bet on a one-decision game, with its pay solve, meter and strategies."""
    from analysis.sidebets.returns import SideBetEngine

    strategy = args.strategy or "joint"
    bets = SideBetEngine(engine_for(args), args.paytable, args.pays_on)
    if args.target is not None:
        _print_pay_solve(args, bet, bets, strategy)
        return None, None
    result = bets.evaluate(bet, args.stake, args.meter, strategy)
    out: dict[str, Any] = result.summary() | {"lines": result.table.to_dict(orient="records")}
    if bet.meter is not None:
        from analysis.sidebets.progressive import analyse_progressive

        out["progressive"] = analyse_progressive(bets, bet, args.stake, args.meter, strategy).summary()
    if bet.forfeit:
        out["strategies"] = bets.compare(bet, args.stake, args.meter).to_dict(orient="records")
    return result, out


def format_sidebet(result: SideBetResult, out: dict[str, Any], floor: pd.DataFrame | None) -> str:
    """The side bet's return table and figures as text."""
    from analysis.engine.result import GameResult

    t = result.table.copy()
    t["combinations"] = t["combinations"].map("{:,}".format)
    t["probability"] = t["probability"].map("{:.10f}".format)
    t["one_in"] = t["one_in"].map("{:,.1f}".format)
    t["contribution"] = t["contribution"].map("{:+.8f}".format)
    e = result.exact
    forfeit = "forfeited when the player folds" if result.bet.forfeit else "settled whether the player folds or not"
    main = result.main
    played = (
        f"pay table {main.paytable.name}, {main.strategy} strategy"
        if isinstance(main, GameResult)
        else "its own pays, optimal strategy"
    )
    lines = [
        f"{result.bet.name} ({result.bet.kind}, {forfeit}) on {result.rules.name}; main game: {played}"
        + (f"; meter {float(result.meter):,.2f}" if result.meter is not None else ""),
        "",
        t.drop(columns=["net", "probability_exact"]).to_string(index=False),
        "",
        f"total combinations  {e.deals:,}",
        f"house edge          {float(e.house_edge):.6%} per unit staked  (exact {e.house_edge})",
        f"return              {float(e.player_return):.6%}",
        f"hit frequency       {float(e.hit_frequency):.6%}",
        f"standard deviation  {e.standard_deviation:.6f} per unit staked",
        f"with the main game  house edge {out['combined_house_edge_per_hand']:.6%} of an ante per hand "
        f"({out['combined_house_edge_per_unit_wagered']:.6%} of the total wagered, side stake "
        f"{out['stake_antes']} antes), standard deviation {out['combined_standard_deviation']:.4f} antes",
    ]
    if "strategies" in out:
        lines += ["", "main-game strategy with the side bet forfeited on a fold:"]
        lines += [
            f"  {s['strategy']:8s} call rate {s['call_rate']:.4%}, side bet house edge {s['side_house_edge']:.6%}, "
            f"together {s['combined_house_edge_per_hand']:.6%} per hand (exact {s['combined_house_edge_exact']})"
            for s in out["strategies"]
        ]
    if "progressive" in out:
        p = out["progressive"]
        lines += [
            "",
            f"progressive: seed {p['seed']:,.2f}, reset {p['reset']:,.2f}, contribution {p['contribution']:.2%} "
            f"of a stake of {p['stake']:g}",
            f"  return {p['return_empty_meter']:.6%} with an empty meter, +{p['return_per_unit_of_meter']:.6e} "
            f"per unit of meter",
            "  break-even meter "
            + (
                "none"
                if p["break_even_meter"] is None
                else f"{p['break_even_meter']:,.2f} (exact {p['break_even_meter_exact']})"
            ),
            f"  long-run return {p['long_run_return']:.6%} (contributions and resets paid back through the meter)",
        ]
    if floor is not None:
        f = floor.copy()
        for c in (
            "win_per_hour_per_seat",
            "win_per_hour_per_table",
            "expected_house_result",
            "range_low",
            "range_high",
        ):
            f[c] = f[c].map("{:,.2f}".format)
        f["house_edge"] = f["house_edge"].map("{:.4%}".format)
        f["hands_per_seat"] = f["hands_per_seat"].map("{:,.0f}".format)
        lines += ["", "floor figures (95% range of the house's result on one seat):", f.to_string(index=False)]
    return "\n".join(lines)
