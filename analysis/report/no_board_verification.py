"""``casino-omaha verify`` for a game without a board (Three Card Poker, Caribbean Stud): its
figures solved on this machine and checked along paths independent of the compiled counts,
each a :class:`~analysis.report.appendix.Check`, in the order they run (:data:`CHECKS`):

* **hand ranking of every hand**: every hand of the full deck valued by the game's ranking,
  against the closed-form count of each category;
* **wagers add up**: each wager on its own (ante, play bet, ante bonus) over every outcome,
  their expected results summed, equals the game's, and every deal is one outcome;
* **bets on the hand** (a game that has them): every hand of the deck valued and put on its
  pay line of each bet on the player's hand alone (a category, or a pair by its rank), hand
  by hand, against the solve's count by class of hands;
* **small-deck states**: the same game file on a small deck, every state (a player hand,
  with the card the dealer shows) counted by the compiled core, against every dealer hand
  played out (:func:`~analysis.counting.no_board.count_state`);
* **small-deck deals settled apart**: every deal of that deck played by the solved strategy
  and settled by the sampler's own code: the same expected value and variance, exactly;
* **Monte Carlo, optimal**: random deals of the full deck, the same way, within 4 standard
  errors of the exact house edge;
* **published figures**: a shipped game gives its published house edge; any other file is
  checked by the shipped games of its ranking (Three Card Poker, Caribbean Stud, Four Card
  Poker) through the same engine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations
from math import comb, lcm

import numpy as np

from analysis.counting.no_board import card_sets, count_state
from analysis.engine.no_board import NoBoardFigures, no_board_counts, solve_no_board
from analysis.engine.no_board_simulation import deal_nets, sample_no_board
from analysis.engine.wagers import wager_figures
from analysis.hands.evaluate import pair_rank
from analysis.hands.rankings import RANKINGS
from analysis.model.categories import CATEGORY_COUNTS_5
from analysis.model.errors import InputError
from analysis.model.game import GameSpec, load_game
from analysis.report.appendix import Check, Verification
from analysis.report.no_board_sheet import no_board_digest
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
    "hand ranking of every hand",
    "wagers add up",
    "bets on the hand",
    "small-deck states",
    "small-deck deals settled apart",
    "Monte Carlo, optimal",
    "published figures",
)
#: The small deck of each ranking: both ways of the qualifier met, every category but the rarest.
SMALL_DECKS = {"three-card": ("23QKA", "cdh"), "five-card": ("79JQKA", "cd"), "four-card": ("2345A", "cdh")}
#: The closed-form count of each category of each ranking, weakest first.
CLOSED_FORM = {
    "three-card": (16_440, 3_744, 1_096, 720, 52, 48),
    "five-card": CATEGORY_COUNTS_5,
    # the best four of five cards (FOUR_CARD_CATEGORIES): four of a kind 13 x 48; a four-card
    # straight flush 44 x 48 less the 40 five-card ones, each counted twice; three of a kind
    # the five-card three of a kind and full houses; a flush every hand of four or five of a
    # suit (4 x 715 x 39 + 4 x 1,287) less the straight flushes; two pair the five-card two
    # pair; a pair the five-card pairs (1,098,240) less those of four ranks in a row (11 x 4
    # x 6 x 64) or four of a suit (715 x 4 x 4 x 3), not both (11 x 4 x 4 x 3); a straight
    # and high card the rest (by the same counting)
    "four-card": (1_150_080, 1_047_552, 123_552, 101_808, 114_616, 58_656, 2_072, 624),
}
#: The published house edges (percent, to the published digits) of the shipped games.
PUBLISHED = {
    "three-card-poker": ("3.3730", "Wizard of Odds, \u201cThree Card Poker\u201d: ante-play 3.3730% of the ante"),
    "caribbean-stud": ("5.224", "Wizard of Odds, \u201cCaribbean Stud Poker\u201d: 5.224% of the ante"),
    "four-card-poker": ("2.79", "Wizard of Odds, \u201cFour Card Poker\u201d: 2.79% of the ante"),
}


def verify_no_board(
    game: GameSpec,
    hands: int = DEFAULT_HANDS,
    seed: int = DEFAULT_SEED,
    on_check: Callable[[Check], None] | None = None,
) -> Verification:
    """Run every check (:data:`CHECKS`) of ``game``'s figures; ``on_check`` is told each
    result as it comes."""
    check_run_size(hands, seed)
    if game.no_board is None:
        raise InputError(f"{game.title} has a board: `verify` runs the street engine's checks on it")
    f = solve_no_board(game)
    small, deck = on_small_deck(game, *SMALL_DECKS[game.no_board.ranking])
    steps = [
        ("hand ranking of every hand", lambda: _ranking(game)),
        ("wagers add up", lambda: _wagers(f)),
        *([("bets on the hand", lambda: _hand_bets(f))] if game.no_board.hand_bets else []),
        ("small-deck states", lambda: _states(small, deck)),
        ("small-deck deals settled apart", lambda: _deals(small, deck)),
        ("Monte Carlo, optimal", lambda: _monte_carlo(f, hands, seed)),
        ("published figures", lambda: _published(f)),
    ]
    checks = run_checks(steps, on_check)
    return Verification(game.name, "solved in memory", no_board_digest(f), None, hands, seed, deck, checks)


def _ranking(game: GameSpec) -> tuple[bool, str, str, str]:
    nb = game.no_board
    assert nb is not None
    ranking = RANKINGS[nb.ranking]
    hands = np.array(list(combinations(range(52), nb.hole)), dtype=np.int64)
    found = Counter(ranking.category(ranking.values(hands)).tolist())
    expected = CLOSED_FORM[nb.ranking]
    return (
        [found.get(i, 0) for i in range(len(expected))] == list(expected),
        f"every {nb.hole}-card hand of the full deck ({len(hands):,}) valued by the game's ranking, against the "
        "closed-form count of each category",
        ", ".join(f"{c} {n:,}" for c, n in zip(ranking.categories, expected)),
        ", ".join(f"{c} {found.get(i, 0):,}" for i, c in enumerate(ranking.categories)),
    )


def _wagers(f: NoBoardFigures) -> tuple[bool, str, str, str]:
    outcomes = f.outcomes()
    total = sum(w.expected for w in wager_figures(outcomes, f.settlement))
    deals = sum(o.deals for o in outcomes)
    return (
        total == f.exact.ev and deals == f.total,
        "each wager on its own (ante, play bet, ante bonus) over every outcome: their expected results summed "
        "against the game's, and the outcomes' deals against every deal",
        f"{f.exact.ev} per hand over {f.total:,} deals",
        f"{total} per hand over {deals:,} deals",
    )


def _hand_bets(f: NoBoardFigures) -> tuple[bool, str, str, str]:
    nb = f.game.no_board
    assert nb is not None
    ranking = RANKINGS[nb.ranking]
    hands = card_sets(f.game.rules.deck, nb.hole)
    category, pair = ranking.category(ranking.values(hands)), pair_rank(hands)
    expected, found = [], []
    for b in f.hand_bets().values():
        line = np.array(nb.categories, dtype=object)[category]
        for x in b.bet.lines(nb.categories):
            if x.name != x.category:
                line[(category == nb.categories.index(x.category)) & (pair >= x.low) & (pair <= x.high)] = x.name
        counted = Counter(line.tolist())
        expected.append(f"{b.bet.title}: " + ", ".join(f"{k} {n:,}" for k, n in b.hands.items()))
        found.append(f"{b.bet.title}: " + ", ".join(f"{k} {counted.get(k, 0):,}" for k in b.hands))
        found[-1] += "" if set(counted) <= set(b.hands) else f"; lines the solve lacks: {set(counted) - set(b.hands)}"
    return (
        expected == found,
        f"each bet on the player's hand alone: every one of the {len(hands):,} hands of the deck valued and put on "
        "its pay line one by one, against the solve's hands of each line counted by class of hands",
        "; ".join(expected),
        "; ".join(found),
    )


def _states(small: GameSpec, deck: str) -> tuple[bool, str, str, str]:
    nb = small.no_board
    assert nb is not None
    ranking = RANKINGS[nb.ranking]
    floor = ranking.qualifying(nb.qualifier_ranks, nb.qualifier_category)
    counted = no_board_counts(small)
    wrong = sum(
        int((count_state(small.rules.deck, hand, seen, ranking.values, floor, nb.dealer_cards) != row).any())
        for hand, seen, row in zip(counted.hands.tolist(), counted.seen.tolist(), counted.counts)
    )
    return (
        wrong == 0,
        f"the same game file on a deck of {deck}: every state counted by the compiled core, against every "
        "dealer hand of the state played out one by one",
        f"{len(counted.hands):,} states, every count equal",
        f"{len(counted.hands) - wrong:,} equal, {wrong:,} differ",
    )


def _deals(small: GameSpec, deck: str) -> tuple[bool, str, str, str]:
    nb = small.no_board
    assert nb is not None
    solved = solve_no_board(small)
    cards = list(small.rules.deck)
    players, dealers = [], []
    for hand in combinations(cards, nb.hole):
        rest = [c for c in cards if c not in hand]
        for up in combinations(rest, nb.up):
            others = np.array(
                list(combinations([c for c in rest if c not in up], nb.dealer_cards - nb.up)), dtype=np.int64
            )
            players.append(np.repeat([hand], len(others), axis=0))
            dealers.append(np.hstack([np.tile(np.array(up, dtype=np.int64), (len(others), 1)), others]))
    player, dealer = np.concatenate(players), np.concatenate(dealers)
    nets = deal_nets(small, player, dealer, solved.play_bets(player, dealer[:, : nb.up] if nb.up else None))
    scale = lcm(*(solved.value(k).denominator for k in solved.counts))  # every net a whole number of these
    whole = np.rint(nets * scale).astype(np.int64)
    ev = Fraction(int(whole.sum()), scale * len(nets))
    variance = Fraction(int((whole * whole).sum()), scale * scale * len(nets)) - ev**2
    same = len(nets) == solved.exact.deals and ev == solved.exact.ev and variance == solved.exact.variance
    return (
        same,
        f"every deal of the deck of {deck} ({comb(len(cards), nb.hole):,} player hands, each dealer hand of the "
        "other cards) played by the solved strategy and settled by the sampler's own code: expected value and "
        "variance, exactly",
        f"EV {solved.exact.ev}, variance {solved.exact.variance} over {solved.exact.deals:,} deals",
        f"EV {ev}, variance {variance} over {len(nets):,} deals",
    )


def _monte_carlo(f: NoBoardFigures, hands: int, seed: int) -> tuple[bool, str, str, str]:
    sim = sample_no_board(f.game, f.play_bets, hands, seed)
    how = f"{sim.hands:,} random deals (seed {seed}) played by the strategy and settled by the sampler's own code"
    return sampled_check(f.exact.ev, f.exact.house_edge, sim.mean, sim.standard_error, how)


def _published(f: NoBoardFigures) -> tuple[bool, str, str, str]:
    shipped = {name: load_game(name) for name in PUBLISHED}
    if f.game in shipped.values():  # a shipped game: its own published figure (each takes seconds to minutes)
        shipped = {n: g for n, g in shipped.items() if g == f.game}
    else:  # another file: the shipped games hands are ranked alike in
        ranking = f.game.no_board.ranking if f.game.no_board else ""
        shipped = {n: g for n, g in shipped.items() if g.no_board and g.no_board.ranking == ranking}
    found = {n: (f if f.game == g else solve_no_board(g)).exact.house_edge for n, g in shipped.items()}
    return published_edges(found, PUBLISHED)
