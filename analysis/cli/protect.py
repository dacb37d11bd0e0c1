"""``casino-omaha protect``: what information the player should not have is worth to him.

``--exposed 1``: one dealer card seen, exactly (every state decided; the breakdown by the
rank of the card seen, the pattern of play surveillance looks for, and the simple
strategy an advantage player would use); in a game with several decision points, also
with one card of the flop seen before the pre-flop decision; in a game whose dealer shows
a card (Caribbean Stud), a hole card seen beside it (minutes: 145 million states).
``--exposed 2``, ``--turn`` (the turn card seen before the decision) and ``--colluders K``
(K other seats' hole cards known): states drawn at random (``--samples``, ``--seed``), each
one's EV exact, the edge given with its standard error, 95% interval and the states needed
for ``--half-width``. The shards run on
dask (a local cluster by default; ``--scheduler`` for an existing one) and are kept, so
an interrupted run resumes.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from analysis.cli.common import (
    Subparsers,
    add_cluster_options,
    add_format,
    add_game_options,
    add_pay_options,
    cluster_for,
    game_for,
    options_for,
    positive,
    print_json,
    rules_for,
    seed,
    whole_number,
)

if TYPE_CHECKING:
    from analysis.engine.return_engine import ReturnEngine
    from analysis.model.game import GameSpec
    from analysis.model.paytable import PayTable
    from analysis.model.rules import Rules
    from analysis.parallel.cluster import Cluster
    from analysis.protection.seen_card import BoardCardFigures

NAME = "protect"
MAX_SAMPLES = 10**8


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(
        NAME,
        help="the player's edge with a flashed dealer card, the turn seen early or colluding seats",
        description=__doc__.replace("``", ""),
    )
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--exposed", type=whole_number(1, 3, "dealer cards seen"), metavar="N", help="dealer cards seen (1: exact)"
    )
    what.add_argument("--turn", action="store_true", help="the turn card is seen before the decision (sampled)")
    what.add_argument(
        "--colluders",
        type=whole_number(1, 6, "colluding seats"),
        metavar="K",
        help="other seats' hands known (sampled)",
    )
    p.add_argument(
        "--samples", type=whole_number(2, MAX_SAMPLES, "samples"), default=20_000, help="states drawn (default 20000)"
    )
    p.add_argument("--seed", type=seed, default=0, help="seed of the draws (default 0)")
    p.add_argument(
        "--half-width", type=positive, default=None, help="report the states needed for a 95%% interval this wide"
    )
    p.add_argument("--plain", action="store_true", help="the plain mean of the states (no base-game control variate)")
    p.add_argument(
        "--runout-card",
        action="store_true",
        help="with --exposed 1 in a game with several decision points: also a turn or river card seen before the "
        "first decision (about twice the time)",
    )
    p.add_argument(
        "--results",
        type=Path,
        default=None,
        metavar="DIR",
        help="where the runs' results are kept, to resume and reuse (default: protection/ under the store root)",
    )
    add_game_options(p)
    add_pay_options(p)
    add_cluster_options(p)
    add_format(p)


def run(args: argparse.Namespace) -> int:
    from analysis.engine.return_engine import ReturnEngine
    from analysis.model.paytable import PayTable
    from analysis.model.rules import PRESETS
    from analysis.store.runs import ensure_store

    if args.game not in PRESETS:
        from analysis.model.game import load_game

        game = load_game(args.game)
        if game.no_board is not None:
            from analysis.cli.protect_no_board import run_no_board

            return run_no_board(args, game)
        if game.hand_paid is not None:
            from analysis.cli.hand_paid import run_protect

            return run_protect(args, game)
        if not game.single_decision:
            return _streets(args, game)
    if args.runout_card:
        from analysis.model.errors import InputError

        raise InputError(
            "--runout-card is counted in games with several decision points (Ultimate Texas Hold'em); in a game "
            "with one decision, `--turn` gives the turn card seen before it"
        )
    rules, paytable = rules_for(args), PayTable.load(args.paytable)
    with cluster_for(args) as cluster:
        engine = ReturnEngine.from_store(ensure_store(rules, options_for(args, cluster)))
        if args.exposed == 1:
            return _exact(args, rules, paytable, engine, cluster)
        return _sampled(args, rules, paytable, engine, cluster)


def _streets(args: argparse.Namespace, game: GameSpec) -> int:
    """A game with several decision points: one dealer card seen, every street decided
    knowing it, exactly."""
    from analysis.model.errors import InputError
    from analysis.protection.seen_card import seen_card_fits, solve_seen_card
    from analysis.report.wording import STREET_WORDS

    if not seen_card_fits(game):
        raise InputError(
            f"{game.title}: `protect` counts one dealer card seen in games of two hole cards and the best five of "
            "seven, with bets that do not add up; `advise` with `--board` gives one state's exact decisions"
        )
    if args.exposed != 1:
        raise InputError(
            f"{game.title}: `protect` counts one dealer card seen (`--exposed 1`) in a game with several decision "
            "points; two cards seen, the turn seen early and colluding seats are not counted for it yet"
        )
    game = game_for(args)
    with cluster_for(args) as cluster:
        e = solve_seen_card(game, options_for(args, cluster), runout=args.runout_card)
    base = e.base.house_edge
    rates = e.decision_rates()
    changes = e.preflop_changes()
    summary = {
        "game": game.name,
        "exposed": 1,
        "house_edge": float(e.house_edge),
        "house_edge_exact": str(e.house_edge),
        "base_house_edge": float(base),
        "base_house_edge_exact": str(base),
        "deals": e.deals,
        "decisions": [
            {"street": street, "option": option, "with_the_card": mine, "without_it": theirs}
            for street, option, mine, theirs in rates.itertuples(index=False)
        ],
        "preflop_changes": {k: float(v) for k, v in changes.items()},
        "ev_by_rank_seen": {r: str(v) for r, v in e.by_rank.items()},
        "with_a_flop_card_seen": _board_card(e.flop_card),
        "with_a_turn_or_river_card_seen": _board_card(e.runout_card),
        "results": str(e.store),
        "checksum": e.checksum,
    }
    if args.format == "json":
        print_json(summary)
        return 0
    print(f"{game.title}: one dealer card seen from the start, every street decided knowing it, exactly")
    print(f"house edge          {float(e.house_edge):+.4%} per ante  (exact {e.house_edge})")
    print(f"  without the card  {float(base):+.4%}")
    print(f"deals               {e.deals:,} (each deal once per dealer card)")
    print("\nhow often each option is taken, with the card and by the optimal player without it:")
    for street, option, mine, theirs in rates.itertuples(index=False):
        print(f"  {STREET_WORDS[street] + ', ' + option:28} {mine:8.2%}  {theirs:8.2%}")
    print("\nwhat gives him away, before the flop (share of deals):")
    for what, share in changes.items():
        print(f"  {what:40} {float(share):.2%}")
    print("\nby the rank of the card seen, the player's expected result per hand:")
    for rank, ev in e.by_rank.items():
        print(f"  {rank}  {float(ev):+.4f} antes")
    for card, f in (("one card of the flop", e.flop_card), ("the turn or the river card", e.runout_card)):
        if f is not None:
            print(f"\nwith {card} seen too (a bottom card flashed), before the pre-flop decision:")
            print(f"house edge          {float(f.house_edge):+.4%} per ante  (exact {f.house_edge})")
            print("  before the flop   " + ", ".join(f"{o} {n / f.deals:.2%}" for o, n in f.preflop.items()))
    print(f"\nresults {e.store}  checksum {(e.checksum or '')[:16]}")
    return 0


def _board_card(f: BoardCardFigures | None) -> dict[str, object] | None:
    """The JSON of the game with one board card seen too."""
    if f is None:
        return None
    return {
        "house_edge": float(f.house_edge),
        "house_edge_exact": str(f.house_edge),
        "deals": f.deals,
        "classes": f.classes,
        "preflop": {o: float(Fraction(n, f.deals)) for o, n in f.preflop.items()},
    }


def _exact(
    args: argparse.Namespace, rules: Rules, paytable: PayTable, engine: ReturnEngine, cluster: Cluster | None
) -> int:
    from analysis.protection.edges import exposure_result
    from analysis.protection.runs import exposure_run

    _, sums, info = exposure_run(rules, paytable, args.pays_on, engine, options_for(args, cluster))
    result = exposure_result(rules, paytable, args.pays_on, sums)
    if args.format == "json":
        print_json(result.summary() | {"results": str(info.path), "checksum": info.checksum})
        return 0
    s, e = result.summary(), result.result.exact
    print(f"{rules.name}, pay table {paytable.name} (pays on the {args.pays_on}): one dealer card seen, exactly")
    print(f"house edge          {s['house_edge']:+.6%} per ante  (exact {e.house_edge})")
    print(f"  without the card  {s['base_house_edge']:+.6%}")
    print(f"element of risk     {s['element_of_risk']:+.6%}")
    print(f"call rate           {s['call_rate']:.4%}")
    print(f"total combinations  {s['deals']:,}")
    print("\nby the rank of the card seen:")
    print(result.by_rank.drop(columns="house_edge_exact").to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    print("\nby what the card seen pairs:")
    print(result.by_relation.drop(columns="house_edge_exact").to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    a = result.advantage
    print(f"\nan advantage player's simple strategy (house edge {float(a.house_edge):+.4%}, exact {a.house_edge}):")
    for i, line in enumerate(a.describe(), 1):
        print(f"  {i}. {line}")
    print(f"  it calls {float(a.calls_basic_folds):.2%} of hands that the optimal basic player folds")
    print(f"\nresults {info.path}  checksum {info.checksum[:16]}")
    return 0


def _sampled(
    args: argparse.Namespace, rules: Rules, paytable: PayTable, engine: ReturnEngine, cluster: Cluster | None
) -> int:
    from analysis.protection.runs import sampled_run
    from analysis.protection.sampling import BaseGameControl, Information, estimate_edge

    if args.exposed:
        information = Information("exposed", args.exposed)
    elif args.turn:
        information = Information("turn")
    else:
        information = Information("colluders", args.colluders)
    job, margins, info = sampled_run(
        rules, information, args.samples, args.seed, paytable, args.pays_on, options_for(args, cluster)
    )
    control = None if args.plain else BaseGameControl(engine, paytable, args.pays_on)
    e = estimate_edge(job, margins, control)
    half = float(args.half_width) if args.half_width is not None else None
    s = e.summary(half)
    head = {
        "game": rules.name,
        "exposed": args.exposed,
        "turn": args.turn,
        "colluders": args.colluders,
        "paytable": paytable.name,
        "pays_on": args.pays_on,
        "seed": args.seed,
        "completions_per_state": information.completions(rules),
    }
    if args.format == "json":
        print_json(head | s | {"results": str(info.path), "checksum": info.checksum})
        return 0
    print(f"{rules.name}, pay table {paytable.name} (pays on the {args.pays_on}): {information.describe()}, sampled")
    print(f"house edge          {s['house_edge']:+.4%} per ante (estimate)")
    print(f"standard error      {s['std_error']:.4%}")
    if e.normal_interval:
        print(f"95% interval        {s['ci95_low']:+.4%} .. {s['ci95_high']:+.4%}")
    else:
        print(f"95% interval        none: {e.too_few}")
    print(f"call rate           {s['call_rate']:.2%}")
    print(f"states              {s['samples']:,} drawn with seed {args.seed}, each enumerated exactly")
    print(f"method              {s['method']}")
    if half is not None:
        needed = f"{s['states_needed']:,} states" if e.normal_interval else f"unknown: {e.too_few}"
        print(f"for +/- {half:.4%}   {needed}")
    print(f"results {info.path}  checksum {info.checksum[:16]}")
    return 0
