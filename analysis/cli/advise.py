"""``casino-omaha advise``: the exact EV of calling and folding one state (hole cards and
flop, and the dealer cards seen or dead cards known, if any), and the optimal decision."""

from __future__ import annotations

from pathlib import Path

from analysis.cli.common import add_format, add_game_options, add_pay_options, print_json, rules_for

NAME = "advise"


def add_parser(sub) -> None:
    p = sub.add_parser(
        NAME, help="EV(call), EV(fold) and the optimal decision of one state", description=__doc__.replace("``", "")
    )
    p.add_argument("hole", help='the player\'s hole cards, e.g. "As Kd 7h"')
    p.add_argument("--flop", required=True, help='the three flop cards, e.g. "Qs Jd 2c"')
    add_game_options(p, store=False)
    add_pay_options(p)
    p.add_argument("--store", type=Path, default=None, help="outcome store root (see `report --help`)")
    p.add_argument("--enumerate", action="store_true", help="enumerate the state even when a store exists")
    p.add_argument("--exposed", default=None, metavar="CARDS", help='dealer cards the player saw, e.g. "3c"')
    p.add_argument(
        "--dead", default=None, metavar="CARDS", help='cards out of play (other seats\' hole cards), e.g. "3c 4c 5d"'
    )
    add_format(p)


def format_advice(a) -> str:
    call, fold = a.loc["call"], a.loc["fold"]
    decision = "CALL" if call["optimal"] else "FOLD"
    diff = call["ev_exact"] - fold["ev_exact"]
    return "\n".join(
        [
            f"{a.attrs['game']}: hole {a.attrs['hole']}, flop {a.attrs['flop']}  "
            f"(pay table {a.attrs['paytable']}, pays on the {a.attrs['pays_on']})",
            *([f"seen       dealer {a.attrs['exposed']}"] if a.attrs["exposed"] else []),
            *([f"dead       {a.attrs['dead']}"] if a.attrs["dead"] else []),
            f"hand now   {a.attrs['hand']}",
            f"EV(call)   {call['ev']:+.6f} antes  (exact {call['ev_exact']})",
            f"EV(fold)   {fold['ev']:+.6f} antes",
            f"optimal    {decision}  (EV(call) - EV(fold) = {float(diff):+.6f} antes"
            f"{'; a tie folds' if diff == 0 else ''})",
            f"counts     {a.attrs['source']}",
        ]
    )


def run(args) -> int:
    from analysis.strategy.advice import advise

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
        call, fold = a.loc["call"], a.loc["fold"]
        print_json(
            a.attrs
            | {
                "ev_call": call["ev"],
                "ev_call_exact": call["ev_exact"],
                "ev_fold": fold["ev"],
                "ev_fold_exact": fold["ev_exact"],
                "decision": "call" if call["optimal"] else "fold",
            }
        )
    else:
        print(format_advice(a))
    return 0
