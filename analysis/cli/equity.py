"""``casino-omaha equity``: exact Omaha (high or Hi/Lo) equity of 2 to 6 four-card hands;
every completion of the board is dealt."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from analysis.cli.common import Subparsers, add_format, print_json, threads, whole_number

if TYPE_CHECKING:
    from analysis.omaha4.equity import EquityResult

NAME = "equity"


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(
        NAME, help="exact Omaha (high or Hi/Lo) equity of 2 to 6 four-card hands", description=__doc__.replace("``", "")
    )
    p.add_argument("hands", nargs="+", help='each hand as 4 cards, e.g. "As Ah Ks Kh"')
    p.add_argument("--board", default="", help="0, 3, 4 or 5 known board cards")
    p.add_argument("--dead", default="", help="cards known to be out of play")
    p.add_argument("--hilo", action="store_true", help="Omaha Hi/Lo, 8 or better (default: Omaha high)")
    p.add_argument(
        "--pot-chips",
        type=whole_number(1, 10**12, "pot chips"),
        default=None,
        help="also show expected chips won from a pot of this many whole chips (odd chip to high)",
    )
    p.add_argument("--threads", type=threads, default=None, help="worker threads (default: all cores)")
    add_format(p)


def format_equity(result: EquityResult, pot_chips: int | None) -> str:
    from analysis.model.cards import format_cards

    df = result.frame(pot_chips)
    shown = df.drop(columns=["equity_exact", "pot_units"])
    shown["equity"] = df["equity"].map("{:.6%}".format)
    if "odd_chip_effect" in shown:
        shown["chips"] = df["chips"].map("{:.6f}".format)
        shown["odd_chip_effect"] = df["odd_chip_effect"].map("{:+.3e}".format)
    game = "Omaha Hi/Lo (8 or better)" if result.hilo else "Omaha high"
    lines = [
        f"{game}: board [{format_cards(result.board)}], dead [{format_cards(result.dead)}], "
        f"{result.boards:,} boards enumerated",
        "",
        shown.to_string(index=False),
        "",
        "exact equities: " + ", ".join(str(e) for e in result.equities()),
    ]
    if result.hilo:
        lines.append(f"boards with no qualifying low: {result.no_low:,}")
    if pot_chips is not None:
        lines.append(
            f"chips: expected chips won from a pot of {pot_chips} chips; odd chip to the high half, "
            "leftover chips of a tied half in seat order"
        )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from analysis.omaha4.equity import compute_equity

    result = compute_equity(args.hands, args.board, args.dead, args.hilo, args.threads)
    if args.format == "json":
        print_json(result.to_dict(args.pot_chips))
    else:
        print(format_equity(result, args.pot_chips))
    return 0
