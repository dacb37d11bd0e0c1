"""``casino-omaha verify`` for a game with several decision points: its figures recomputed
on this machine and checked along paths independent of the street engine, each a
:class:`~analysis.report.appendix.Check`, in the order they run (:data:`CHECKS`):

* **counted again**: the game counted and solved here, every shard of flop classes anew,
  equals the figures kept in its result store (every count and every decision), and the
  store's checksum is recomputed from its shards;
* **closed-form total**: the deals add up to C(n,k)·C(n-k,3)·C(n-k-3,2)·C(n-k-5,k);
* **small-deck game tree**: the same game file on a deck of 9 to ace in two suits, solved by
  the engine, equals every deal played through its whole game tree
  (:mod:`analysis.counting.game_tree`) on every count and every decision;
* **Monte Carlo, optimal**: random hands dealt, the river decided and every hand settled by
  the simulation's own code (:mod:`analysis.engine.street_simulation`), within 4 standard
  errors of the exact house edge;
* **published Ultimate Texas Hold'em edge**: the shipped Ultimate Texas Hold'em, through the
  same engine, gives the published house edge (2.1850% of the ante, Wizard of Odds) and
  exactly 50643648973/2317817502000.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from fractions import Fraction
from math import comb
from pathlib import Path

from analysis.counting.game_tree import game_tree
from analysis.engine.street_simulation import simulate_streets
from analysis.engine.streets import StreetFigures, count_streets_here, solve_streets
from analysis.model.game import GameSpec, load_game
from analysis.parallel.options import RunOptions
from analysis.report.appendix import Check, Verification
from analysis.report.verification import DEFAULT_HANDS, DEFAULT_SEED, Z_LIMIT, check_run_size, guarded, on_small_deck

#: The checks' names, in the order they run.
CHECKS = (
    "counted again",
    "closed-form total",
    "small-deck game tree",
    "Monte Carlo, optimal",
    "published Ultimate Texas Hold'em edge",
)
#: The small deck the game tree is played on (12 cards: every structure of a game file fits).
SMALL_DECK = ("9TJQKA", "cd")
#: Ultimate Texas Hold'em's published house edge (per ante, percent to the published digits)
#: and the exact fraction it rounds from.
PUBLISHED_UTH = ("2.1850", Fraction(50643648973, 2317817502000))
PUBLISHED_UTH_SOURCE = "Wizard of Odds, \u201cUltimate Texas Hold'em\u201d: house edge 2.1850% of the ante"


def verify_streets(
    game: GameSpec,
    options: RunOptions | None = None,
    hands: int = DEFAULT_HANDS,
    seed: int = DEFAULT_SEED,
    on_check: Callable[[Check], None] | None = None,
) -> Verification:
    """Run every check (:data:`CHECKS`) of ``game``'s figures; ``on_check`` is told each
    result as it comes."""
    check_run_size(hands, seed)
    options = options or RunOptions()
    checks: list[Check] = []
    kept = solve_streets(game, options)
    here: list[StreetFigures] = []

    def record(check: Check) -> None:
        checks.append(check)
        if on_check is not None:
            on_check(check)

    def counted() -> StreetFigures:
        if not here:
            here.append(count_streets_here(game, options.threads))
        return here[0]

    record(guarded("counted again", lambda: counted_again(kept, counted())))
    record(guarded("closed-form total", lambda: _closed_form(kept)))
    record(guarded("small-deck game tree", lambda: _game_tree(game)))
    record(guarded("Monte Carlo, optimal", lambda: monte_carlo(counted(), hands, seed, options.threads or 1)))
    record(guarded("published Ultimate Texas Hold'em edge", lambda: _published(game, kept, options)))
    deck = f"{SMALL_DECK[0]} in {SMALL_DECK[1]}"
    store = str(kept.store.name) if kept.store is not None else "counted in memory"
    return Verification(game.name, store, kept.checksum, None, hands, seed, deck, tuple(checks))


def counted_again(kept: StreetFigures, here: StreetFigures) -> tuple[bool, str, str, str]:
    """The check that figures read from a result store equal the game counted again here
    (the street and the turn engines' verification both run it)."""
    same = kept.counts == here.counts and kept.decisions == here.decisions
    return (
        same,
        "every flop class counted and solved again in this process, against the result store the figures were "
        "read from (read back and checked against its SHA-256 checksums)",
        f"{len(kept.counts):,} outcomes and {len(kept.decisions)} decision rates as kept",
        "every count and decision equal" if same else "counts or decisions differ",
    )


def _closed_form(f: StreetFigures) -> tuple[bool, str, str, str]:
    rules = f.game.rules
    n, k = len(rules.deck), rules.hole_cards
    deals = comb(n, k) * comb(n - k, 3) * comb(n - k - 3, 2) * comb(n - k - 5, k)
    return (
        f.total == deals,
        "the deals counted against C(n,k)·C(n-k,3)·C(n-k-3,2)·C(n-k-5,k): the player's cards, the flop, the turn "
        "and river, the dealer's cards",
        f"{deals:,}",
        f"{f.total:,}",
    )


def _game_tree(game: GameSpec) -> tuple[bool, str, str, str]:
    small, deck = on_small_deck(game, *SMALL_DECK)
    with tempfile.TemporaryDirectory() as folder:
        engine = solve_streets(small, RunOptions(root=Path(folder), progress=False))
    counts, decisions = game_tree(small)
    same = engine.counts == counts and engine.decisions == decisions
    return (
        same,
        f"the same game file on a deck of {deck}: the street engine against every deal played through the whole "
        "game tree, deal by deal (no suit symmetry, no inclusion-exclusion)",
        f"{sum(counts.values()):,} deals, {len(counts):,} outcomes and {len(decisions)} decision rates",
        "every count and decision equal" if same else "counts or decisions differ",
    )


def monte_carlo(f: StreetFigures, hands: int, seed: int, threads: int) -> tuple[bool, str, str, str]:
    """Random hands played with the figures' kept decisions (``keep_states``) against their
    exact house edge."""
    sim = simulate_streets(f, hands, seed, threads=threads)
    z = sim.z
    how = (
        "played with the flop and turn decisions the count kept"
        if f.game.adds
        else "the river decided over every dealer hand left"
    )
    return (
        z is not None and abs(z) < Z_LIMIT,
        f"{sim.hands:,} random hands (seed {seed}) dealt, {how} and every hand settled by the simulation's own "
        f"code; within {Z_LIMIT} standard errors of the exact house edge",
        f"{float(f.house_edge):.5%} (exact)",
        f"{sim.house_edge:.5%} ± {sim.standard_error:.5%} (z = {'n/a' if z is None else f'{z:+.2f}'})",
    )


def _published(game: GameSpec, kept: StreetFigures, options: RunOptions) -> tuple[bool, str, str, str]:
    uth = load_game("ultimate-texas-holdem")
    f = kept if game == uth else solve_streets(uth, options)
    shown, exact = f"{float(100 * f.house_edge):.4f}", f.house_edge
    return (
        shown == PUBLISHED_UTH[0] and exact == PUBLISHED_UTH[1],
        f"the shipped Ultimate Texas Hold'em, optimal play, through the same engine; {PUBLISHED_UTH_SOURCE}",
        f"house edge {PUBLISHED_UTH[0]}%; exactly {PUBLISHED_UTH[1]}",
        f"house edge {shown}%; exactly {exact}",
    )
