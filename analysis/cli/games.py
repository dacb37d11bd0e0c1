"""``casino-omaha games``: the games that ship with the package (each a TOML file that a
designer can copy and change), with their cards, qualifier and decision points."""

from __future__ import annotations

import argparse

from analysis.cli.common import Subparsers, add_format, print_json
from analysis.model.no_board import RANKINGS, NoBoard

NAME = "games"


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(NAME, help="list the shipped games (game files)", description=__doc__.replace("``", ""))
    add_format(p)


def run(args: argparse.Namespace) -> int:
    from analysis.model.game import load_game, shipped_games

    rows = []
    for name, path in shipped_games().items():
        g = load_game(name)
        if g.hand_paid is not None:
            hp = g.hand_paid
            rows.append(
                {
                    "name": name,
                    "title": g.title,
                    "hole cards": hp.hole,
                    "hand": f"{sum(hp.streets)} community cards turned {', '.join(map(str, hp.streets))}, "
                    "the five cards paid on a table",
                    "qualifier": "no dealer",
                    "decisions": "; ".join(
                        f"holding {s}: {', '.join(map(str, ms))}" for s, ms in zip(hp.seen, hp.before) if ms
                    ),
                    "engine": "by the cards held (solve)",
                    "file": str(path),
                }
            )
            continue
        if g.no_board is not None:
            rows.append(
                {
                    "name": name,
                    "title": g.title,
                    "hole cards": g.no_board.hole,
                    "hand": _no_board_hand(g.no_board),
                    "qualifier": g.no_board.qualifier_phrase,
                    "decisions": "; ".join(f"{s}: {', '.join(map(str, o))}" for s, o in g.streets.items()),
                    "engine": "hand by hand (solve)",
                    "file": str(path),
                }
            )
            continue
        rows.append(
            {
                "name": name,
                "title": g.title,
                "hole cards": g.rules.hole_cards,
                "hand": "exactly 2 hole + 3 board" if g.rules.omaha else "best five of seven",
                "qualifier": g.rules.qualifier_phrase,
                "decisions": "; ".join(f"{s}: {', '.join(map(str, o))}" for s, o in g.streets.items()),
                "engine": "return engine (instant pay tables)" if g.single_decision else "street engine (solve)",
                "file": str(path),
            }
        )
    if args.format == "json":
        print_json(rows)
        return 0
    for r in rows:
        print(f"{r['name']:24} {r['title']}")
        print(f"{'':24} {r['hole cards']} hole cards, {r['hand']}; {r['qualifier']}")
        print(f"{'':24} {r['decisions']}  [{r['engine']}]")
    return 0


def _no_board_hand(nb: NoBoard) -> str:
    """How a game without a board makes its hands, in words."""
    best = nb.hole > RANKINGS[nb.ranking][0]
    cards = f"the best {RANKINGS[nb.ranking][0]} of {nb.hole} cards" if best else f"all {nb.hole} cards"
    dealer = f" (the dealer's of {nb.dealer_cards})" if nb.dealer_cards != nb.hole else ""
    seen = f", {nb.up} of the dealer's seen before the decision" if nb.up else ""
    return f"{cards}{dealer}, no board ({nb.ranking} ranking){seen}"
