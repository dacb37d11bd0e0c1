"""The commands' answers for a game without a dealer (Mississippi Stud, Let It Ride): the
one JSON schema of every game's result, with each wager on its own, or the same in lines;
the EVs of one state; sampled deals against the exact figures; each community card seen
from the start (``protect``)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from analysis.cli.common import hand_bets_json, print_json, print_sampled, result_json

if TYPE_CHECKING:
    from analysis.engine.hand_paid import HandPaidFigures
    from analysis.model.game import GameSpec


def hand_paid_json(f: HandPaidFigures, report: bool = False) -> dict[str, object]:
    """The one schema of every game's result (the wagers are the game's own): ``solve``'s
    with the unit and the pay table, ``report``'s with the keys of every game's report."""
    hp = f.hand_paid
    if report:
        extra: dict[str, object] = {
            "paytable": "the game file's [pays]",
            "pays_on": hp.unit,
            "qualifier": "no dealer",
            "store_checksum": None,  # counted afresh in seconds: no store is kept
        }
    else:
        extra = {"unit": hp.unit, "pays": {x.name: "push" if x.net == 0 else str(x.net) for x in hp.lines}}
    data = result_json(f.game.name, f.game.title, "optimal", f.exact, f.decisions, f.outcomes(), None, f.wagers())
    wagers, rows = data.pop("wagers"), data.pop("return_table")
    bets = {"hand_bets": hand_bets_json(f.hand_bets())} if hp.hand_bets and not report else {}
    return data | extra | bets | {"wagers": wagers, "return_table": rows}


def hand_paid_lines(f: HandPaidFigures) -> list[str]:
    """The result in lines."""
    e, game, unit = f.exact, f.game, f.hand_paid.unit
    return [
        f"{game.title} ({game.source}), {e.deals:,} deals, optimal strategy, exact",
        f"house edge            {float(e.house_edge):.4%} of one {unit}  (exact {e.house_edge})",
        f"element of risk       {float(e.element_of_risk):.4%}  (exact {e.element_of_risk})",
        f"average wager         {float(e.average_wager):.4f} {unit}s",
        f"standard deviation    {e.standard_deviation:.4f} {unit}s",
        f"hit frequency         {float(e.hit_frequency):.4%}",
        *(f"{point:10} {option:12} {n / e.deals:.4%} of deals" for (point, option), n in f.decisions.items()),
        *(
            f"{w.wager:21} house edge {float(w.house_edge):.4%} per {unit} on it, "
            f"expected {float(w.expected):+.6f} per hand"
            for w in f.wagers()
        ),
        *(
            f"{b.bet.title:21} house edge {float(b.exact.house_edge):.4%}  (exact {b.exact.house_edge})"
            for b in f.hand_bets().values()
        ),
    ]


def run_solve(args: argparse.Namespace, game: GameSpec, report: bool = False) -> int:
    """``solve`` and ``report`` without ``--out``: the exact figures, in JSON, CSV or lines."""
    from analysis.engine.hand_paid import solve_hand_paid
    from analysis.model.errors import InputError

    if getattr(args, "qualifier", None) is not None or getattr(args, "blind", None):
        raise InputError(f"{game.title} has no dealer and no blind: change its game file")
    f = solve_hand_paid(game)
    if args.format == "json":
        print_json(hand_paid_json(f, report))
    elif args.format == "csv":
        from analysis.report.hand_paid import return_rows

        print(return_rows(f).to_csv(index=False), end="")
    else:
        print("\n".join(hand_paid_lines(f)))
    return 0


def run_advise(args: argparse.Namespace, game: GameSpec) -> int:
    """The exact EV of each option holding the hole cards and the community cards turned so
    far (``--board``), after the options ``--taken`` at the earlier decision points."""
    from analysis.engine.hand_paid import solve_hand_paid
    from analysis.model.errors import InputError

    if args.flop is not None or args.qualifier is not None:
        raise InputError(f"{game.title}: give the hole cards and --board (the community cards turned so far)")
    held = f"{args.hole} {args.board or ''}".strip()
    taken = [t.strip() for t in (args.taken or "").split(",") if t.strip()]
    evs = solve_hand_paid(game).evs(held, taken)
    best = max(evs, key=lambda o: evs[o])  # the first best: options are in the order of their risk
    if args.format == "json":
        print_json({"game": game.name, "held": held, "taken": taken, "evs": evs, "best": best})
        return 0
    print(f"{game.title}: holding {held}{' after ' + ', '.join(taken) if taken else ''}")
    for option, ev in evs.items():
        mark = "  <- best" if option == best else ""
        print(f"  EV({option}) {float(ev):+.6f} {game.hand_paid.unit if game.hand_paid else ''}s  (exact {ev}){mark}")
    return 0


def run_simulate(args: argparse.Namespace, game: GameSpec) -> int:
    """The optimal strategy played on sampled deals settled by the sampler's own code."""
    from analysis.engine.hand_paid import solve_hand_paid
    from analysis.engine.hand_paid_simulation import sample_hand_paid
    from analysis.model.errors import InputError

    if args.qualifier is not None:
        raise InputError(f"{game.title} has no dealer: change its game file")
    figures = solve_hand_paid(game)
    sim = sample_hand_paid(figures, args.hands, args.seed)
    return print_sampled(args, game.name, sim.hands, sim.mean, sim.standard_error, float(figures.exact.house_edge))


def run_protect(args: argparse.Namespace, game: GameSpec) -> int:
    """A game without a dealer: each community card seen from the start, exactly."""
    from analysis.model.errors import InputError
    from analysis.protection.hand_paid import community_card_exposure
    from analysis.report.wording import community_card_words

    if args.exposed != 1 or args.runout_card:
        raise InputError(
            f"{game.title} has no dealer: `--exposed 1` counts a community card seen from the start (each in turn)"
        )
    rows = community_card_exposure(game)
    base = rows[0].base.exact.house_edge
    if args.format == "json":
        print_json(
            {
                "game": game.name,
                "base_house_edge": float(base),
                "base_house_edge_exact": str(base),
                "community_card_seen": [
                    {"street": e.street + 1, "house_edge": float(e.house_edge), "house_edge_exact": str(e.house_edge)}
                    | {"deals": e.deals}
                    for e in rows
                ],
            }
        )
        return 0
    print(f"{game.title}: one community card seen from the start, every decision taken knowing it, exactly")
    print(f"  {'nothing seen':48} house edge {float(base):+.4%}  (exact {base})")
    for e in rows:
        what = community_card_words(e.street)
        print(f"  {what:48} house edge {float(e.house_edge):+.4%}  (exact {e.house_edge}; {e.deals:,} deals)")
    return 0
