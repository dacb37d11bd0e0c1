"""The exact optimal strategy and return of a game without a board (Three Card Poker,
Caribbean Stud): each state's counts against every dealer hand (:mod:`analysis.counting.no_board`;
a state is the player's hand and the dealer's cards he sees) priced by the game file's one
settlement in exact integers, the decision taken state by state (an exact tie goes to the
option that risks less), and the bets on the player's hand alone.

The result has the shape of every game's (:class:`analysis.engine.solve.Solved`): the
outcomes keyed as the street engine's, (street the betting ended, play bet, the player's
final category, the dealer's result), the decision being the pre-flop one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import comb, lcm

import numpy as np
import pandas as pd

from analysis.counting.no_board import NoBoardCounts, card_sets, count_state
from analysis.counting.streets import RESULTS6
from analysis.counting.symmetry import orbit_keys, suit_permutations
from analysis.engine.hand_bets import HandBetFigures, hand_bet_figures
from analysis.engine.result import Outcome
from analysis.engine.statistics import ExactFigures, figures_of
from analysis.hands.rankings import RANKINGS
from analysis.model.cards import format_cards, parse_cards
from analysis.model.errors import InputError
from analysis.model.game import GameSpec
from analysis.model.no_board import NoBoard
from analysis.model.outcomes import colex_codes
from analysis.model.settlement import Settlement
from analysis.parallel.options import RunOptions
from analysis.store.no_board_runs import kept_no_board_counts

#: The street of the one decision, in the vocabulary of every game's outcomes.
DECISION = "preflop"
#: The player's result against the dealer of each of the six dealer results, and whether
#: the dealer qualifies.
_SHOWDOWN = [(r.startswith("noqual") is False, {"win": 1, "tie": 0, "loss": -1}[r.split("_")[-1]]) for r in RESULTS6]
#: The strategy's word for a class of hands played against some of the dealer's up cards only.
BY_UP_CARD = "by the up card"

Key = tuple[str, int, str, str]


def no_board_counts(game: GameSpec, threads: int | None = None, options: RunOptions | None = None) -> NoBoardCounts:
    """The counts of a game without a board, on its deck, by its ranking and qualifier: read
    from their store when counted before (they do not depend on the pays), else counted into
    it (``options``: its root; default the outcome stores')."""
    nb = _no_board(game)
    ranking = RANKINGS[nb.ranking]
    floor = ranking.qualifying(nb.qualifier_ranks, nb.qualifier_category)
    options = options or RunOptions(threads=threads, progress=False)
    deck = sorted(game.rules.deck)
    classes = len(np.unique(orbit_keys(card_sets(deck, nb.hole))))
    key = {
        "deck": deck,
        "ranking": nb.ranking,
        "hole": nb.hole,
        "dealer": nb.dealer_cards,
        "up": nb.up,
        "qualifying value": floor,
    }
    return kept_no_board_counts(key, deck, nb.hole, ranking.values, floor, nb.up, nb.dealer_cards, classes, options)


@dataclass(frozen=True)
class States:
    """Every state of the decision (a class of player hands, one per suit orbit, with the
    dealer's cards he sees; class-major, the seen card ascending): the option taken and each
    option's exact value, integers over ``scale`` (dealer hands x the pays' common denominator)."""

    codes: np.ndarray  # classes: the orbit key of each (analysis.counting.symmetry.orbit_keys), ascending
    hands: np.ndarray  # classes x cards: a member of each
    cls: np.ndarray  # states: the class
    weight: np.ndarray  # states: the player hands each stands for
    seen: np.ndarray  # states x the dealer's cards seen
    chosen: np.ndarray  # states: the option taken (index into the game's options)
    values: np.ndarray = field(repr=False)  # states x options
    value: np.ndarray = field(repr=False)  # classes: the hand's value (bigger is better)
    category: np.ndarray = field(repr=False)  # classes: the hand's category (index into the ranking's)
    scale: int = 1

    def find(self, hands: np.ndarray, seen: np.ndarray, suits: tuple[int, ...]) -> np.ndarray:
        """The state of each row of player cards (with the dealer's seen cards, rows)."""
        hands = np.atleast_2d(np.asarray(hands, dtype=np.int64))
        codes = orbit_keys(hands)
        cls = np.minimum(np.searchsorted(self.codes, codes), len(self.codes) - 1)
        if np.any(self.codes[cls] != codes):
            raise InputError("a hand that is not in the game's deck")
        k = self.seen.shape[1]
        if k == 0:
            return cls
        up = np.asarray(seen, dtype=np.int64).reshape(len(hands), k)
        target, mapped = colex_codes(self.hands[cls]), np.full((len(hands), k), -1, dtype=np.int64)
        for p in suit_permutations(suits):  # the one taking a hand to its class's member takes its seen cards along
            hit = (mapped[:, 0] < 0) & (colex_codes(p[hands]) == target)
            mapped[hit] = p[up[hit]]
        want, keys = _keys(cls, np.sort(mapped, axis=1)), _keys(self.cls, self.seen)
        at = np.minimum(np.searchsorted(keys, want), len(keys) - 1)
        if np.any(keys[at] != want):
            raise InputError("a card the dealer shows is one of the player's, twice, or not in the deck")
        return at


@dataclass(frozen=True)
class PlayedDeal:
    """One deal played by the strategy: the cards, each option's exact EV in the state the
    player saw, the option taken, both hands and each wager's net result in antes."""

    player: tuple[int, ...]
    dealer: tuple[int, ...]  # the cards he showed first
    evs: dict[str, Fraction]
    taken: str
    category: str
    dealer_category: str
    qualifies: bool
    sign: int  # the player's hand against the dealer's: 1 higher, 0 equal, -1 lower
    nets: dict[str, Fraction]

    @property
    def net(self) -> Fraction:
        return sum(self.nets.values(), Fraction(0))


@dataclass(frozen=True)
class NoBoardFigures:
    """The exact figures of a game without a board under its optimal strategy: ``counts``
    maps each outcome to its deals (``("fold", 0, "", "")`` for folds), ``decisions`` the
    deals of each option, ``strategy`` one row per class of player hands (its decision, or
    :data:`BY_UP_CARD`, and each option's exact EV averaged over the cards the dealer may
    show, made when first asked for), ``states`` every decision."""

    game: GameSpec
    total: int
    counts: dict[Key, int]
    decisions: dict[tuple[str, str], int]
    states: States = field(repr=False)
    #: every deal by the player's hand and the dealer's result, whatever the player does (what
    #: a side bet on the final hands is settled on)
    every_deal: dict[tuple[str, str], int] = field(default_factory=dict, repr=False)

    @cached_property
    def strategy(self) -> pd.DataFrame:
        """One row per class of player hands, best first: its decision (or :data:`BY_UP_CARD`)
        and each option's exact EV, averaged over the cards the dealer may show."""
        return _strategy(self.game, self.states)

    @property
    def settlement(self) -> Settlement:
        """How the game file's wagers settle."""
        return self.game.settlement

    def value(self, key: Key) -> Fraction:
        """Net result in antes of one outcome."""
        street, multiple, category, result = key
        if street == "fold":
            return self.settlement.fold
        qualifies, sign = _SHOWDOWN[RESULTS6.index(result)]
        return self.settlement.net(category, qualifies, sign, multiple)

    @cached_property
    def exact(self) -> ExactFigures:
        """House edge, element of risk, ... with the same names as every game's."""
        payoffs = {k: self.value(k) for k in self.counts}
        played = self.total - self.counts.get(("fold", 0, "", ""), 0)
        wager = 1 + Fraction(sum(n * k[1] for k, n in self.counts.items()), self.total)
        return figures_of(self.counts, payoffs, Fraction(played, self.total), wager)

    def outcomes(self) -> list[Outcome]:
        """Every outcome: folds first, then the larger bet, the better hand, the dealer's result."""
        categories = _no_board(self.game).categories

        def order(key: Key) -> tuple[int, int, int, int]:
            street, multiple, category, result = key
            hand = -categories.index(category) if category else 0
            return street != "fold", -multiple, hand, RESULTS6.index(result) if result else 0

        return [Outcome(*k, n, self.value(k)) for k, n in sorted(self.counts.items(), key=lambda kv: order(kv[0]))]

    def evs(self, cards: str, up: str | None = None) -> dict[str, Fraction]:
        """The exact expected net result of each option of one player hand given as text
        (``"Qh 6d 4c"``) and, in a game that shows one, the dealer's up card, in antes per
        hand, in the options' order (the first best is taken)."""
        hand, seen = _state_cards(self.game, cards, up)
        state = int(self.states.find(np.array([hand]), np.array([seen]), self.game.rules.suits)[0])
        row = self.states.values[state]
        return {str(o): Fraction(int(v), self.states.scale) for o, v in zip(self.game.preflop, row.tolist())}

    def play_bets(self, hands: np.ndarray, seen: np.ndarray | None = None) -> np.ndarray:
        """The strategy's play bet in antes (0: fold) of each row of player cards (with the
        dealer's seen cards, rows, in a game that shows one)."""
        hands = np.atleast_2d(hands)
        at = self.states.find(hands, np.zeros((len(hands), 0)) if seen is None else seen, self.game.rules.suits)
        bets = np.array([0 if o.kind == "fold" else o.multiple for o in self.game.preflop], dtype=np.int64)
        return bets[self.states.chosen[at]]

    def play(self, player: list[int], dealer: list[int]) -> PlayedDeal:
        """One deal (the dealer's shown cards first) played by the strategy and settled."""
        nb = _no_board(self.game)
        ranking = RANKINGS[nb.ranking]
        state = int(self.states.find(np.array([player]), np.array([dealer[: nb.up]]), self.game.rules.suits)[0])
        options = self.game.preflop
        evs = {str(o): Fraction(int(v), self.states.scale) for o, v in zip(options, self.states.values[state].tolist())}
        taken = options[int(self.states.chosen[state])]
        mine, theirs = int(ranking.values(np.array([player]))[0]), int(ranking.values(np.array([dealer]))[0])
        category, dealer_category = (nb.categories[c] for c in ranking.category(np.array([mine, theirs])).tolist())
        floor = ranking.qualifying(nb.qualifier_ranks, nb.qualifier_category)
        qualifies, sign = bool(theirs >= floor), int(np.sign(mine - theirs))
        nets = (
            self.settlement.fold_nets
            if taken.kind == "fold"
            else self.settlement.wager_nets(category, qualifies, sign, taken.multiple)
        )
        return PlayedDeal(
            tuple(player), tuple(dealer), evs, str(taken), category, dealer_category, qualifies, sign, nets
        )

    def hand_bets(self, pays: dict[str, dict[str, Fraction]] | None = None) -> dict[str, HandBetFigures]:
        """The exact figures of each bet on the player's hand alone, with the file's pays or
        ``pays[name]`` instead."""
        states = self.states
        weight = states.weight[np.arange(len(states.codes)) * (len(states.cls) // len(states.codes))]
        nb = _no_board(self.game)
        return hand_bet_figures(nb.hand_bets, nb.categories, states.hands, weight, states.category, pays)


def option_values(game: GameSpec, counts: np.ndarray, category: np.ndarray) -> tuple[np.ndarray, int]:
    """Each option's value in each state (rows of the six counts, the player's category):
    exact integers, and the denominator that makes them antes x dealer hands."""
    nb, settlement, options = _no_board(game), game.settlement, game.preflop
    nets = [
        [
            [settlement.fold] * len(RESULTS6)
            if o.kind == "fold"
            else [settlement.net(c, q, s, o.multiple) for q, s in _SHOWDOWN]
            for o in options
        ]
        for c in nb.categories
    ]  # category x option x result
    denominator = lcm(*(v.denominator for by_option in nets for row in by_option for v in row))
    largest = max(abs(v) * denominator for by_option in nets for row in by_option for v in row)
    if largest * max(int(counts.sum(axis=1).max()), 1) >= 2**62:  # a state's sum must stay an exact int64
        raise InputError(f"{game.title}: pays whose common denominator is {denominator:,} are too fine to sum exactly")
    table = np.array([[[int(v * denominator) for v in row] for row in by_option] for by_option in nets], dtype=np.int64)
    return np.einsum("sr,sor->so", counts, table[category]), denominator  # exact: every term an int64


def best_options(game: GameSpec, values: np.ndarray) -> np.ndarray:
    """The option taken in each state (rows of :func:`option_values`): the best, an exact
    tie to the option that risks less."""
    by_risk = np.argsort([o.risk for o in game.preflop], kind="stable")
    return by_risk[np.argmax(values[:, by_risk], axis=1)]


def state_evs(game: GameSpec, cards: str, up: str | None = None) -> dict[str, Fraction]:
    """The exact expected net result of each option of one player hand given as text and, in
    a game that shows one, the dealer's up card, in antes per hand, in the options' order:
    that one state counted on its own (every dealer hand played out), without a solve."""
    return evs_of_state(game, *_state_cards(game, cards, up))


def evs_of_state(game: GameSpec, hand: list[int], seen: list[int]) -> dict[str, Fraction]:
    """:func:`state_evs` of card ints: the player's ``hand`` and any number of the dealer's
    cards ``seen`` (those he shows and those flashed), checked by the caller."""
    nb = _no_board(game)
    ranking = RANKINGS[nb.ranking]
    floor = ranking.qualifying(nb.qualifier_ranks, nb.qualifier_category)
    counts = count_state(game.rules.deck, hand, seen, ranking.values, floor, nb.dealer_cards)
    category = ranking.category(ranking.values(np.array([hand])))
    values, denominator = option_values(game, counts[None, :], category)
    scale = int(counts.sum()) * denominator
    return {str(o): Fraction(int(v), scale) for o, v in zip(game.preflop, values[0].tolist())}


def solve_no_board(
    game: GameSpec,
    threads: int | None = None,
    counted: NoBoardCounts | None = None,
    options: RunOptions | None = None,
) -> NoBoardFigures:
    """The optimal decision of every state of ``game`` and the exact figures; ``counted``:
    the game's counts already made (they do not depend on its pays: a tuner keeps them);
    ``options``: where the counts are kept."""
    nb = _no_board(game)
    counted = no_board_counts(game, threads, options) if counted is None else counted
    category = RANKINGS[nb.ranking].category(counted.value)
    values, denominator = option_values(game, counted.counts, category)
    chosen = best_options(game, values)
    counts: dict[Key, int] = {}
    decisions: dict[tuple[str, str], int] = {}
    for i, o in enumerate(game.preflop):
        taken = chosen == i
        deals = int(counted.weight[taken].sum()) * counted.dealer_hands
        if deals:
            decisions[(DECISION, str(o))] = deals
        if o.kind == "fold":
            if deals:
                counts[("fold", 0, "", "")] = deals
            continue
        for c, name in enumerate(nb.categories):
            rows = taken & (category == c)
            by_result = (counted.weight[rows, None] * counted.counts[rows]).sum(axis=0).tolist()
            counts |= {(DECISION, o.multiple, name, result): n for result, n in zip(RESULTS6, by_result) if n}
    if sum(counts.values()) != counted.deals:
        raise AssertionError(f"{game.name}: the outcomes add up to {sum(counts.values())} deals, not {counted.deals}")
    per = comb(len(game.rules.deck) - nb.hole, nb.up)  # the states of each class: the cards the dealer may show
    classes = len(counted.hands) // per
    first = np.arange(classes) * per
    states = States(
        codes=orbit_keys(counted.hands[first]),
        hands=counted.hands[first],
        cls=np.repeat(np.arange(classes), per),
        weight=counted.weight,
        seen=counted.seen.astype(np.int64),
        chosen=chosen,
        values=values,
        scale=counted.dealer_hands * denominator,
        value=counted.value[first],
        category=category[first],
    )
    every_deal: dict[tuple[str, str], int] = {}
    for c, name in enumerate(nb.categories):
        rows = category == c
        by_result = (counted.weight[rows, None] * counted.counts[rows]).sum(axis=0).tolist()
        every_deal |= {(name, result): n for result, n in zip(RESULTS6, by_result) if n}
    return NoBoardFigures(game, counted.deals, counts, decisions, states, every_deal)


@dataclass(frozen=True)
class RuleCost:
    """The exact result of a decision rule other than the optimal one: the net of every deal
    together (in antes), per ante (the house edge), per unit wagered, and what it costs
    against the optimal strategy (antes per hand)."""

    net: Fraction
    house_edge: Fraction
    element_of_risk: Fraction
    cost: Fraction


def cost_of(figures: NoBoardFigures, plays: np.ndarray) -> RuleCost:
    """The exact figures of a decision rule: ``plays``, one per state (as
    :attr:`NoBoardFigures.states`), is true where it makes the game's (first) play bet and
    false where it folds, or the play bet in antes (0: fold) where the game offers several."""
    s, options = figures.states, figures.game.preflop
    fold = _fold_index(figures.game)
    plays = np.asarray(plays)
    sizes = {o.multiple: i for i, o in reversed(list(enumerate(options))) if o.kind == "bet"}
    first = next((o.multiple for o in options if o.kind == "bet"), 0)
    bets = plays.astype(np.int64) * first if plays.dtype == bool else plays.astype(np.int64)
    if bets.shape != s.chosen.shape or fold < 0 or not set(np.unique(bets).tolist()) <= {0, *sizes}:
        raise InputError(f"a rule decides every state: to fold or to bet {' or '.join(map(str, sorted(sizes)))} antes")
    chosen = np.full(len(bets), fold)
    for multiple, i in sizes.items():
        chosen[bets == multiple] = i
    scaled = int((s.weight * s.values[np.arange(len(chosen)), chosen]).sum())
    dealer_hands = figures.total // int(s.weight.sum())
    net = Fraction(scaled * dealer_hands, s.scale)
    wagered = figures.total + int((s.weight * bets).sum()) * dealer_hands
    optimal = -figures.exact.house_edge
    return RuleCost(net, -net / figures.total, -net / wagered, optimal - net / figures.total)


def _strategy(game: GameSpec, states: States) -> pd.DataFrame:
    nb, options = _no_board(game), game.preflop
    per = len(states.cls) // len(states.codes)
    first = np.arange(len(states.codes)) * per
    chosen = states.chosen.reshape(-1, per)
    same = (chosen == chosen[:, :1]).all(axis=1)
    totals = states.values.reshape(-1, per, len(options)).sum(axis=1)
    frame = pd.DataFrame(
        {
            "code": states.codes,
            "hand": [format_cards(sorted(h, reverse=True)) for h in states.hands.tolist()],
            "hands": states.weight[first],
            "value": states.value,
            "category": [nb.categories[c] for c in states.category.tolist()],
            "option": [str(options[c]) if s else BY_UP_CARD for c, s in zip(chosen[:, 0].tolist(), same.tolist())],
        }
        | ({"up cards played against": (chosen != _fold_index(game)).sum(axis=1)} if nb.up else {})
        | {
            f"EV({o})": [Fraction(int(v), states.scale * per) for v in totals[:, i].tolist()]
            for i, o in enumerate(options)
        }
    )
    return frame.sort_values("value", ascending=False, kind="stable").reset_index(drop=True)


def _keys(cls: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """One sortable key per state: its class, then its seen cards (ascending)."""
    key = np.asarray(cls, dtype=np.int64).copy()
    for column in np.asarray(seen, dtype=np.int64).T:
        key = key * 64 + column
    return key


def _fold_index(game: GameSpec) -> int:
    return next((i for i, o in enumerate(game.preflop) if o.kind == "fold"), -1)


def weakest_played(figures: NoBoardFigures) -> str:
    """The ranks of the weakest hand the strategy plays ("Q-6-4"): the sheet's "plays Q-6-4
    or better", when every better hand is played too, whatever its suits and the dealer's
    up card (else an error says the strategy is no such threshold)."""
    option = figures.strategy["option"].to_numpy()
    ranks = np.flatnonzero(option != "fold")
    if len(ranks) == 0 or not ((option != "fold") & (option != BY_UP_CARD))[: ranks[-1] + 1].all():
        raise InputError(f"{figures.game.title}: the strategy is not 'play this hand or better'")
    return "-".join(card[0] for card in str(figures.strategy["hand"].iloc[ranks[-1]]).split())


def _state_cards(game: GameSpec, cards: str, up: str | None) -> tuple[list[int], list[int]]:
    """The player's cards and the dealer's seen cards of one state, given as text, checked."""
    nb = _no_board(game)
    hand = parse_cards(cards, nb.hole, "the player's hand")
    if up is not None and not nb.up:
        raise InputError(f"{game.title}: the dealer shows no card before the decision")
    if nb.up and up is None:
        raise InputError(f"{game.title}: give the dealer's up card too")
    seen = parse_cards(up, nb.up, "the dealer's up card") if up is not None else []
    if set(hand + seen) - set(game.rules.deck) or len(set(hand + seen)) < len(hand + seen):
        raise InputError(f"{cards[:40]!r} {(up or '')[:10]}: a card twice, or one not in {game.title}'s deck")
    return hand, seen


def _no_board(game: GameSpec) -> NoBoard:
    if game.no_board is None:
        raise InputError(f"{game.title} has a board: its figures come from the street engine")
    return game.no_board
