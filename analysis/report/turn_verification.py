"""``casino-omaha verify`` for a game whose bets add up (Texas Hold'em Bonus): its figures
solved on this machine and checked along paths independent of the turn kernel, each a
:class:`~analysis.report.appendix.Check`, in the order they run (:data:`CHECKS`):

* **counted again**: every flop class counted and solved again in this process, against the
  result store the figures were read from;
* **closed-form total**: the deals add up to C(n,2)·C(n-2,3)·(n-5)·(n-6)·C(n-7,2), the turn
  and the river in their order;
* **wagers add up**: the ante and the bets, each on its own, sum to the game's result;
* **small-deck game tree**: the same game file on a deck of ten to ace in two suits, solved
  by the engine, equals every deal played through the whole game tree
  (:mod:`analysis.counting.turn_tree`) on every count and every pre-flop EV;
* **Monte Carlo, optimal**: random hands played with the decisions the count in this
  process kept (before the flop, at the flop, at the turn) and settled by the simulation's
  own code (:mod:`analysis.engine.street_simulation`), within 4 standard errors of the exact
  house edge;
* **published edges**: the shipped Texas Hold'em Bonus and its Atlantic City and
  Colorado rules, through the same engine, give the published house edges.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from math import comb

import numpy as np

from analysis.counting.turn_tree import turn_tree
from analysis.engine.streets import StreetFigures
from analysis.engine.turns import count_turns_here, solve_turns
from analysis.engine.wagers import wager_figures
from analysis.model.errors import InputError
from analysis.model.game import GameSpec, Option, load_game
from analysis.parallel.options import RunOptions
from analysis.report.appendix import Check, Verification
from analysis.report.street_verification import counted_again, monte_carlo
from analysis.report.verification import DEFAULT_HANDS, DEFAULT_SEED, check_run_size, on_small_deck, run_checks

#: The checks' names, in the order they run.
CHECKS = (
    "counted again",
    "closed-form total",
    "wagers add up",
    "small-deck game tree",
    "Monte Carlo, optimal",
    "published edges",
)
#: The small deck the game tree is played on (10 cards: about 3 s).
SMALL_DECK = ("TJQKA", "cd")
#: Texas Hold'em Bonus's published house edges (Wizard of Odds; percent, to the printed digits).
PUBLISHED = {"Las Vegas": "2.03692", "Atlantic City": "5.5935", "Colorado": "2.3496"}


def verify_turns(
    game: GameSpec,
    options: RunOptions | None = None,
    hands: int = DEFAULT_HANDS,
    seed: int = DEFAULT_SEED,
    on_check: Callable[[Check], None] | None = None,
) -> Verification:
    """Run every check (:data:`CHECKS`) of ``game``'s figures; ``on_check`` is told each
    result as it comes."""
    if not game.adds:
        raise InputError(f"{game.title}: its bets end the betting: verify it by streets")
    check_run_size(hands, seed)
    options = options or RunOptions(progress=False)
    f = solve_turns(game, options)
    here: list[StreetFigures] = []

    def counted() -> StreetFigures:
        if not here:
            here.append(count_turns_here(game, options.threads))
        return here[0]

    steps = [
        ("counted again", lambda: counted_again(f, counted())),
        ("closed-form total", lambda: _closed_form(f)),
        ("wagers add up", lambda: _wagers(f)),
        ("small-deck game tree", lambda: _game_tree(game)),
        ("Monte Carlo, optimal", lambda: monte_carlo(counted(), hands, seed, options.threads or 1)),
        ("published edges", lambda: _published(game, f, options)),
    ]
    checks = run_checks(steps, on_check)
    deck = f"{SMALL_DECK[0]} in {SMALL_DECK[1]}"
    store = f.store.name if f.store is not None else "counted in memory"
    return Verification(game.name, store, f.checksum, None, hands, seed, deck, checks)


def _closed_form(f: StreetFigures) -> tuple[bool, str, str, str]:
    n = len(f.game.rules.deck)
    deals = comb(n, 2) * comb(n - 2, 3) * (n - 5) * (n - 6) * comb(n - 7, 2)
    return (
        f.total == deals,
        "the deals counted against C(n,2)·C(n-2,3)·(n-5)·(n-6)·C(n-7,2): the player's cards, the flop, the turn "
        "and the river in their order, the dealer's cards",
        f"{deals:,}",
        f"{f.total:,}",
    )


def _wagers(f: StreetFigures) -> tuple[bool, str, str, str]:
    total = sum(w.expected for w in wager_figures(f.outcomes(), f.settlement))
    return (
        total == -f.house_edge,
        "the ante and the bets, each settled on its own over every deal, summed against the game's result",
        f"{-f.house_edge} per hand",
        f"{total} per hand",
    )


def _game_tree(game: GameSpec) -> tuple[bool, str, str, str]:
    small, deck = on_small_deck(game, *SMALL_DECK)
    rules = small.rules
    engine = solve_turns(small)
    counts, preflop = turn_tree(small)
    same = engine.counts == dict(counts)
    for hole, values in preflop.items():
        row = engine.preflop.iloc[int(engine.classes.of(np.array([hole]), rules)[0])]
        same = same and {o: Fraction(row[f"EV({o})"]) for o in values} == values
    return (
        same,
        f"the same game file on a deck of {deck}: the engine against every deal played through the whole game "
        "tree, each option valued over every card and dealer hand to come, each hand settled by the tree's code",
        f"{sum(counts.values()):,} deals in {len(counts):,} outcomes; {len(preflop)} holdings' pre-flop EVs",
        "every count and EV equal" if same else "counts or EVs differ",
    )


def _published(game: GameSpec, f: StreetFigures, options: RunOptions) -> tuple[bool, str, str, str]:
    vegas = load_game("texas-holdem-bonus")
    assert vegas.ante_pays is not None
    rules = {
        "Las Vegas": vegas,
        "Atlantic City": replace(vegas, ante_pays=vegas.ante_pays.with_pays({"straight": 0})),
        "Colorado": replace(vegas, preflop=(Option("fold"), Option("bet", 1))),
    }
    found = {}
    for name, spec in rules.items():
        edge = (f if spec == game else solve_turns(spec, options)).house_edge
        found[name] = f"{float(100 * edge):.{len(PUBLISHED[name].split('.')[1])}f}"
    return (
        found == PUBLISHED,
        "the shipped Texas Hold'em Bonus (Las Vegas rules: the ante paid on a winning straight or better), the "
        "ante paid on a flush or better (Atlantic City) and a flop bet of one ante (Colorado), optimal play, "
        "through the same engine; Wizard of Odds, \u201cTexas Hold'em Bonus\u201d",
        ", ".join(f"{n} {p}%" for n, p in PUBLISHED.items()),
        ", ".join(f"{n} {p}%" for n, p in found.items()),
    )
