"""``casino-omaha final-hands``: exact final-hand categories of Omaha (4 hole cards) or
Casino Omaha (3) over every deal, and a pay table applied to them."""

from __future__ import annotations

from analysis.cli.common import add_format, print_json

NAME = "final-hands"


def add_parser(sub) -> None:
    p = sub.add_parser(
        NAME,
        help="exact final-hand categories of Omaha (4 cards) or Casino Omaha (3 cards) over "
        "every deal, and a pay table applied to them",
        description=__doc__.replace("``", ""),
    )
    p.add_argument("--hole-cards", type=int, choices=(3, 4), default=4)
    p.add_argument(
        "--paytable",
        default="madrid",
        help="pay table: a CSV file or the name of a table that ships with the package (default madrid)",
    )
    add_format(p)


def run(args) -> int:
    from analysis.omaha4.distribution import final_hand_distribution, paytable_return

    df = paytable_return(final_hand_distribution(args.hole_cards), args.paytable)
    a = df.attrs
    if args.format == "json":
        print_json(
            {
                "hole_cards": a["hole_cards"],
                "total_deals": a["total"],
                "paytable": a["paytable"],
                "expected_pay": float(a["expected_pay"]),
                "expected_pay_fraction": str(a["expected_pay"]),
                "expected_return": float(a["expected_return"]),
                "categories": [
                    {
                        "category": r.category,
                        "combinations": r.combinations,
                        "probability": r.probability,
                        "pays": str(r.pays),
                    }
                    for r in df.itertuples()
                ],
            }
        )
        return 0
    shown = df[["category", "combinations", "probability", "pays", "contribution"]].copy()
    shown["combinations"] = shown["combinations"].map("{:,}".format)
    shown["probability"] = shown["probability"].map("{:.10f}".format)
    shown["pays"] = shown["pays"].map(str)
    shown["contribution"] = shown["contribution"].map("{:.8f}".format)
    game = "Omaha (4 hole cards)" if a["hole_cards"] == 4 else "Casino Omaha (3 hole cards)"
    print(f"{game}: final hand over all {a['total']:,} deals (exactly 2 hole + 3 board cards)\n")
    print(shown.to_string(index=False))
    print(f"\npay table {a['paytable']}: a unit bet on the final hand, paid 'to 1'")
    print(f"expected pay     {float(a['expected_pay']):.8f} per unit  (exact {a['expected_pay']})")
    print(f"expected return  {float(a['expected_return']):.8f} per unit, stake included")
    return 0
