"""``casino-omaha verify`` for a game without a dealer: its figures solved on this machine
and checked along paths independent of the backward induction, each a
:class:`~analysis.report.appendix.Check`, in the order they run (:data:`CHECKS`):

* **pay lines of every hand**: every five-card hand of the full deck classified by the
  engine's pay lines, against the closed-form count of each category (and of each pair's
  rank: 84,480 hands each);
* **wagers add up**: each wager on its own (each starting unit, each street's bet), their
  expected results summed, equals the game's, and every deal is one outcome;
* **small-deck game tree**: the same game file on a deck of 9 to ace in two suits, solved by
  the engine, equals every deal played through its whole game tree
  (:mod:`analysis.counting.hand_paid_tree`) on every count and every option's EV;
* **Monte Carlo, optimal**: random deals played by the strategy and settled by the
  sampler's own classifier (:mod:`analysis.engine.hand_paid_simulation`), within 4
  standard errors of the exact house edge;
* **published edges**: the shipped Mississippi Stud and Let It Ride, through the same
  engine, give their published house edges.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from analysis.counting.hand_paid_tree import HandPaidTree
from analysis.engine.hand_paid import HandPaidFigures, pay_lines, set_codes, solve_hand_paid, subsets
from analysis.engine.hand_paid_simulation import sample_hand_paid
from analysis.model.categories import CATEGORIES, CATEGORY_COUNTS_5
from analysis.model.game import GameSpec, load_game
from analysis.report.appendix import Check, Verification
from analysis.report.hand_paid import hand_paid_digest
from analysis.report.verification import (
    DEFAULT_HANDS,
    DEFAULT_SEED,
    check_run_size,
    on_small_deck,
    published_edges,
    run_checks,
    sampled_check,
)

#: The checks' names, in the order they run.
CHECKS = (
    "pay lines of every hand",
    "wagers add up",
    "small-deck game tree",
    "Monte Carlo, optimal",
    "published edges",
)
#: The small deck the game tree is played on (12 cards).
SMALL_DECK = ("9TJQKA", "cd")
#: The published house edges (percent, to the published digits) of the shipped games.
PUBLISHED = {
    "mississippi-stud": ("4.9149", "Wizard of Odds, \u201cMississippi Stud\u201d: 4.9149% of the ante"),
    "let-it-ride": ("3.51", "Wizard of Odds, \u201cLet It Ride\u201d: 3.51% of one bet"),
}


def verify_hand_paid(
    game: GameSpec,
    hands: int = DEFAULT_HANDS,
    seed: int = DEFAULT_SEED,
    on_check: Callable[[Check], None] | None = None,
) -> Verification:
    """Run every check (:data:`CHECKS`) of ``game``'s figures; ``on_check`` is told each
    result as it comes."""
    check_run_size(hands, seed)
    f = solve_hand_paid(game)
    steps = [
        ("pay lines of every hand", lambda: _lines(f)),
        ("wagers add up", lambda: _wagers(f)),
        ("small-deck game tree", lambda: _game_tree(game)),
        ("Monte Carlo, optimal", lambda: _monte_carlo(f, hands, seed)),
        ("published edges", _published),
    ]
    checks = run_checks(steps, on_check)
    deck = f"{SMALL_DECK[0]} in {SMALL_DECK[1]}"
    return Verification(game.name, "solved in memory", hand_paid_digest(f), None, hands, seed, deck, checks)


def _lines(f: HandPaidFigures) -> tuple[bool, str, str, str]:
    hp = f.hand_paid
    deck = np.arange(52)
    line = pay_lines(deck[subsets(52, 5)], hp)
    counts = Counter(line.tolist())
    expected, found = [], []
    for i, p in enumerate(hp.lines):
        n = CATEGORY_COUNTS_5[CATEGORIES.index(p.category)]
        if p.category == "pair":
            n = n // 13 * (p.high - p.low + 1)
        elif p.category == "straight_flush" and all(x.category != "royal_flush" for x in hp.lines):
            n += CATEGORY_COUNTS_5[CATEGORIES.index("royal_flush")]  # no royal line: a royal is a straight flush
        expected.append(n)
        found.append(counts.get(i, 0))
    return (
        expected == found,
        "every five-card hand of the full deck classified by the engine's pay lines, against the closed-form count "
        "of each category (a pair's rank: one thirteenth of the pairs each)",
        ", ".join(f"{p.name} {n:,}" for p, n in zip(hp.lines, expected)),
        ", ".join(f"{p.name} {n:,}" for p, n in zip(hp.lines, found)),
    )


def _wagers(f: HandPaidFigures) -> tuple[bool, str, str, str]:
    total = sum(w.expected for w in f.wagers())
    deals = sum(o.deals for o in f.outcomes())
    return (
        total == f.exact.ev and deals == f.total,
        "each wager on its own (each starting unit, each street's bet) over every deal: their expected results "
        "summed against the game's, and the outcomes' deals against every deal",
        f"{f.exact.ev} per hand over {f.total:,} deals",
        f"{total} per hand over {deals:,} deals",
    )


def _game_tree(game: GameSpec) -> tuple[bool, str, str, str]:
    small, deck = on_small_deck(game, *SMALL_DECK)
    engine = solve_hand_paid(small)
    tree = HandPaidTree(small)
    counts = tree.count()
    hp = small.hand_paid
    assert hp is not None
    words = [[str(m) for m in hp.options(j)] for j in range(len(hp.before))]
    mine = Counter({(tuple(words[j][m] for j, m in enumerate(p)), line): n for (p, line), n in engine.counts.items()})
    evs = 0
    for (point, held, units), options in tree.memo.items():
        if not hp.before[point] or units not in engine.values[point]:
            continue
        row = engine.values[point][units][:, _code(engine, held)]
        scale = engine.scale * engine.completions[point]
        if [Fraction(int(v), scale) for v in row] != list(options.values()):
            return False, "the option values of a node differ", str(options), str(held)
        evs += 1
    same = mine == counts
    return (
        same,
        f"the same game file on a deck of {deck}: the engine against every deal played through the whole game "
        "tree, card by card as the streets turn them, each hand classified by the tree's own code",
        f"{sum(counts.values()):,} deals in {len(counts):,} outcomes; {evs:,} nodes' option values",
        "every count and option value equal" if same else "counts differ",
    )


def _code(f: HandPaidFigures, held: tuple[int, ...]) -> int:
    return int(set_codes(np.array([held]), f.game.rules.deck)[0])


def _monte_carlo(f: HandPaidFigures, hands: int, seed: int) -> tuple[bool, str, str, str]:
    sim = sample_hand_paid(f, hands, seed)
    how = f"{sim.hands:,} random deals (seed {seed}) played by the strategy and settled by the sampler's own classifier"
    return sampled_check(f.exact.ev, f.exact.house_edge, sim.mean, sim.standard_error, how)


def _published() -> tuple[bool, str, str, str]:
    found = {name: solve_hand_paid(load_game(name)).exact.house_edge for name in PUBLISHED}
    return published_edges(found, PUBLISHED)
