"""``casino-omaha final-hands``: exact final-hand categories of Omaha (4 hole cards) or
Casino Omaha (3) over every deal, and a pay table applied to them."""

from __future__ import annotations

import argparse

from analysis.cli.common import Subparsers, add_format, paytable, print_json, whole_number

NAME = "final-hands"


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(
        NAME,
        help="exact final-hand categories of Omaha (4 cards) or Casino Omaha (3 cards) over "
        "every deal, and a pay table applied to them",
        description=__doc__.replace("``", ""),
    )
    p.add_argument("--hole-cards", type=whole_number(3, 4, "hole cards"), default=4, metavar="4|3")
    p.add_argument(
        "--paytable",
        type=paytable,
        default="madrid",
        help="pay table: a CSV file or the name of a table that ships with the package (default madrid)",
    )
    add_format(p)


def run(args: argparse.Namespace) -> int:
    from analysis.omaha4.distribution import final_hand_distribution, paytable_return

    r = paytable_return(final_hand_distribution(args.hole_cards), args.paytable)
    df, hands = r.frame(), r.hands
    if args.format == "json":
        print_json(
            {
                "hole_cards": hands.hole_cards,
                "total_deals": hands.total,
                "paytable": r.paytable.name,
                "expected_pay": float(r.expected_pay),
                "expected_pay_fraction": str(r.expected_pay),
                "expected_return": float(r.expected_return),
                "categories": [
                    {
                        "category": row.category,
                        "combinations": row.combinations,
                        "probability": row.probability,
                        "pays": str(row.pays),
                    }
                    for row in df.itertuples()
                ],
            }
        )
        return 0
    shown = df[["category", "combinations", "probability", "pays", "contribution"]].copy()
    shown["combinations"] = shown["combinations"].map("{:,}".format)
    shown["probability"] = shown["probability"].map("{:.10f}".format)
    shown["pays"] = shown["pays"].map(str)
    shown["contribution"] = shown["contribution"].map("{:.8f}".format)
    game = "Omaha (4 hole cards)" if hands.hole_cards == 4 else "Casino Omaha (3 hole cards)"
    print(f"{game}: final hand over all {hands.total:,} deals (exactly 2 hole + 3 board cards)\n")
    print(shown.to_string(index=False))
    print(f"\npay table {r.paytable.name}: a unit bet on the final hand, paid 'to 1'")
    print(f"expected pay     {float(r.expected_pay):.8f} per unit  (exact {r.expected_pay})")
    print(f"expected return  {float(r.expected_return):.8f} per unit, stake included")
    return 0
