"""Worked examples for a par sheet: one real deal for every way a hand of a one-decision
game is settled (a fold, a dealer who does not qualify, a win at each pay level of the pay
table, a tie, a dealer win), with the cards, both hands in words, the decision and the rule
that settles it.

The deals are not made up: they are the first deal of each case among random deals dealt
with a fixed seed by the Monte Carlo's own dealer and evaluators. Each is played as the
strategy the sheet is built with plays its state (the return engine's decision of that
stored state, with the state's exact EV(call)), so the fold example is a state the strategy
folds and every other a state it calls; a strategy that never folds has no fold example.
Each is settled by the Monte Carlo's :func:`~analysis.engine.simulation.settle` and by the
return table's payoff of its row (:func:`~analysis.model.payoffs.outcome_payoffs`), which
must agree. So a reader who checks the examples by hand checks the code that produced the
figures.

>>> from analysis.counting.enumeration import count_flops, plan
>>> from analysis.engine.return_engine import ReturnEngine
>>> from analysis.model.rules import preset
>>> rules = preset("casino-holdem").small_deck("9TJQKA", "cd")
>>> engine = ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules)
>>> examples = worked_examples(engine, engine.decide())
>>> [e.case for e in examples][:3]
['The player folds', 'The player wins with a royal flush', 'The player wins with a straight flush']
>>> examples[0].decision_words
'On the flop, EV(call) -1.757 antes against -1 for a fold: the player folds.'
>>> [e.case for e in worked_examples(engine, engine.decide(strategy="always-call"))][:1]
['The player wins with a royal flush']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import isclose

import numpy as np

from analysis.counting.informed import call_margin
from analysis.engine.result import GameResult
from analysis.engine.return_engine import ReturnEngine
from analysis.engine.simulation import dealt_batches, settle, stored_keys
from analysis.hands.evaluate import best_strength
from analysis.hands.lookup import dealer_qualifier, tables
from analysis.model.cards import format_cards
from analysis.model.categories import (
    CATEGORIES,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
)
from analysis.model.errors import InputError
from analysis.model.payoffs import RESULT_OUTCOME, RowKey, outcome_payoffs
from analysis.model.paytable import PayTable
from analysis.model.rules import Rules
from analysis.model.settlement import ONE_DECISION

#: The seed of the deals the examples are taken from.
SEED = 19
#: Deals per batch, and the most dealt before a case is given up as impossible (a royal
#: flush that wins shows up about once in 40,000 deals of Casino Hold'em).
BATCH = 100_000
MAX_DEALS = 2_000_000

RANK_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")


@dataclass(frozen=True)
class WorkedExample:
    """One deal and how it is settled; amounts are net results in antes (the ante is 1)."""

    case: str  # e.g. "The player folds", "The player wins with a flush", "Tie"
    hole: tuple[int, ...]  # the player's cards (card ints)
    board: tuple[int, ...]  # five community cards, flop first
    dealer: tuple[int, ...]
    decision: str  # "fold" or "call": the strategy's decision in the deal's state
    ev_call: Fraction  # the state's exact EV(call) in antes (a fold's is -1)
    decision_words: str  # e.g. "On the flop, EV(call) -1.757 antes against -1 for a fold: the player folds."
    player_hand: str  # the player's best five in words with the cards, e.g. "flush, ace high (As Js 9s 6s 2s)"
    dealer_hand: str
    dealer_qualifies: bool
    ante: Fraction  # the ante's net result
    call: Fraction  # the call bet's net result (0 on a fold or a push)
    net: Fraction  # ante + call: the package's settlement of the deal
    settlement: str  # one sentence: why, citing the rule


@dataclass(frozen=True)
class _Deal:
    """The cards of one deal and both final hands' strengths."""

    hole: tuple[int, ...]
    board: tuple[int, ...]
    dealer: tuple[int, ...]
    player_strength: int
    dealer_strength: int
    row: int  # the stored state of the player's cards and the flop


@dataclass(frozen=True)
class _Case:
    """A case to find: its name, the return-table outcome and, for a win, the category."""

    name: str
    outcome: str
    category: str = ""


def worked_examples(engine: ReturnEngine, result: GameResult, seed: int = SEED) -> tuple[WorkedExample, ...]:
    """One example per settlement case that ``result``'s strategy meets, in par-sheet order:
    the player folds; the dealer does not qualify (only when there is a qualifier); the
    player beats a qualifying dealer, once per distinct pay of the table, with the best
    category paid it; a tie; the dealer wins. Each deal is played as the strategy plays its
    state (``result.calls``, one decision per stored state of ``engine``). A case that no
    deal played by the strategy ends in is left out: a fold for a strategy that always
    calls, a four of a kind on a deck too small for one. The same seed gives the same
    examples."""
    rules = result.rules
    cases = _cases(rules, result.paytable, _played_cases(engine, result.calls))
    found: dict[int, _Deal] = {}
    qualifier = dealer_qualifier(rules.qualifier_rank)
    category = tables().category
    for d in dealt_batches(rules, MAX_DEALS, seed, keys=stored_keys(engine), batch=BATCH):
        qualifies, called, rows = d.dealer >= qualifier, d.calls(result.calls), d.rows
        assert rows is not None  # the stored keys were given
        masks = {
            "fold": ~called,
            "dealer_not_qualifying": called & ~qualifies,
            "player_wins": called & qualifies & (d.player > d.dealer),
            "tie": called & qualifies & (d.player == d.dealer),
            "dealer_wins": called & qualifies & (d.player < d.dealer),
        }
        for i, case in enumerate(cases):
            if i in found:
                continue
            mask = masks[case.outcome]
            if case.category:
                mask = mask & (category[d.player] == CATEGORIES.index(case.category))
            hits = np.flatnonzero(mask)
            if hits.size:
                j = int(hits[0])
                hole, board, dealer = (tuple(int(c) for c in d.cards[k][j]) for k in ("player", "board", "dealer"))
                found[i] = _Deal(hole, board, dealer, int(d.player[j]), int(d.dealer[j]), int(rows[j]))
        if len(found) == len(cases):
            break
    missing = [c.name.lower() for i, c in enumerate(cases) if i not in found]
    if missing:
        raise InputError(f"{rules.name}: no deal among {MAX_DEALS:,} where {', '.join(missing)} (seed {seed})")
    return tuple(_example(engine, result, case, found[i]) for i, case in enumerate(cases))


def examples_note(strategy: str, examples: tuple[WorkedExample, ...]) -> str:
    """The sheet's words above the examples: where the deals come from, who plays them and,
    for a strategy that never folds, why no example folds."""
    never_folds = not any(x.decision == "fold" for x in examples)
    return (
        "Real deals, one for each way a hand is settled, found in dealt hands, each played as "
        f"{_strategy_words(strategy)} plays it and settled by the package's settlement code; "
        "results in antes (ante = 1)."
        + (f" There is no example of a fold: {_strategy_words(strategy)} never folds." if never_folds else "")
    )


def _played_cases(engine: ReturnEngine, calls: np.ndarray) -> set[tuple[str, str]]:
    """The (outcome, final hand) pairs of the deals the strategy plays: the called deals'
    (dealer result, player's category) pairs that occur, and a fold if any state folds."""
    played = {(RESULT_OUTCOME[r], c) for (r, c), n in engine.column_sums(calls).items() if n}
    return played | ({("fold", "")} if not calls.all() else set())


def _cases(rules: Rules, paytable: PayTable, played: set[tuple[str, str]]) -> list[_Case]:
    """The cases of the game and table that the ``played`` (outcome, final hand) pairs
    hold, in order. A pay level is named by the best category it pays; a level that pays
    only high card is left out when the dealer must qualify (a qualifying dealer holds a
    pair at least, so high card never beats one)."""

    def occurs(outcome: str, category: str = "") -> bool:
        return any(o == outcome and category in ("", c) for o, c in played)

    cases = [_Case("The player folds", "fold")] if occurs("fold") else []
    if rules.qualifier_rank is not None and occurs("dealer_not_qualifying"):
        cases.append(_Case("The dealer does not qualify", "dealer_not_qualifying"))
    best_of_level: dict[Fraction, str] = {}
    for name in reversed(CATEGORIES):
        if occurs("player_wins", name):
            best_of_level.setdefault(paytable.pays[name], name)
    strongest = {name: int(np.flatnonzero(tables().category == code).max()) for code, name in enumerate(CATEGORIES)}
    qualifier = dealer_qualifier(rules.qualifier_rank)
    cases += [
        _Case(f"The player wins with {with_article(name)}", "player_wins", name)
        for name in best_of_level.values()
        if strongest[name] > qualifier
    ]
    return cases + [c for c in (_Case("Tie", "tie"), _Case("The dealer wins", "dealer_wins")) if occurs(c.outcome)]


def _example(engine: ReturnEngine, result: GameResult, case: _Case, deal: _Deal) -> WorkedExample:
    """The example of one deal: its decision, settled by the package, split into the two
    bets, in words."""
    rules, paytable, pays_on = result.rules, result.paytable, result.pays_on
    hole, board, dealer = deal.hole, deal.board, deal.dealer
    player_strength, dealer_strength = deal.player_strength, deal.dealer_strength
    decision = "fold" if case.outcome == "fold" else "call"
    ev_call = call_margin(rules, engine.state_counts([deal.row])[0], rules.completions, paytable, pays_on) - 1
    if result.strategy == "optimal" and (ev_call > -1) != (decision == "call"):
        raise AssertionError(f"{case.name}: the optimal strategy's decision is not that of EV(call) {ev_call}")
    category = CATEGORIES[int(tables().category[player_strength])]
    row: RowKey = (case.outcome, category if case.outcome == "dealer_not_qualifying" else case.category)
    net = outcome_payoffs(paytable, rules, pays_on)[row]
    settled = settle(
        rules,
        paytable,
        np.array([decision == "call"]),
        np.array([player_strength]),
        np.array([dealer_strength]),
        pays_on,
    )
    if not isclose(float(net), float(settled[0]), rel_tol=1e-12, abs_tol=1e-12):
        raise AssertionError(f"the return table settles {case.name.lower()} at {net}, the simulation at {settled[0]}")
    qualifies = dealer_strength >= dealer_qualifier(rules.qualifier_rank)
    ante, call = _bets(rules, paytable, pays_on, decision, category, qualifies, player_strength - dealer_strength)
    if ante + call != net:
        raise AssertionError(f"{case.name}: the bets' results {ante} and {call} do not add up to {net}")
    player_words, player_five = hand_in_words(rules, hole, board, player_strength)
    dealer_words, dealer_five = hand_in_words(rules, dealer, board, dealer_strength)
    words = _Words(rules, paytable, pays_on, category, player_words, dealer_words, player_strength, dealer_strength)
    return WorkedExample(
        case=case.name,
        hole=hole,
        board=board,
        dealer=dealer,
        decision=decision,
        ev_call=ev_call,
        decision_words=_decision_words(result, decision, ev_call),
        player_hand=f"{player_words} ({format_cards(player_five)})",
        dealer_hand=f"{dealer_words} ({format_cards(dealer_five)})",
        dealer_qualifies=qualifies,
        ante=ante,
        call=call,
        net=net,
        settlement=f"{words.sentence(case.outcome)}: {signed_antes(net)}.",
    )


def _decision_words(result: GameResult, decision: str, ev_call: Fraction) -> str:
    """The decision and the state's exact EVs in words: the optimal strategy's follows from
    them; another strategy's is its own, and where optimal play differs it says so."""
    acts = "folds" if decision == "fold" else "calls"
    call, fold = ev_texts([ev_call, Fraction(-1)])
    evs = f"EV(call) {call} antes against {fold} for a fold"
    if result.strategy == "optimal":
        return f"On the flop, {evs}: the player {acts}."
    optimal = "call" if ev_call > -1 else "fold"
    differs = "" if optimal == decision else f"; the optimal strategy would {optimal}"
    where = "" if result.strategy == "always-call" else " in this state"
    return f"On the flop, the player {acts}, as {_strategy_words(result.strategy)} does{where} ({evs}{differs})."


def _strategy_words(strategy: str) -> str:
    """``"the optimal strategy"``, ``"a player who always calls"``."""
    return "a player who always calls" if strategy == "always-call" else f"the {strategy} strategy"


def ev_texts(values: Sequence[Fraction]) -> list[str]:
    """Each EV in antes, signed: a whole number as it is, others to three decimals, or to as
    many more as show values that differ as different numbers."""
    for places in range(3, 16):
        texts = [("+" if v > 0 else "") + str(v) if v.denominator == 1 else f"{float(v):+.{places}f}" for v in values]
        if len({float(t) for t in texts}) == len(set(values)):
            break
    return texts


def _bets(
    rules: Rules, paytable: PayTable, pays_on: str, decision: str, category: str, qualifies: bool, difference: int
) -> tuple[Fraction, Fraction]:
    """(ante, call bet) net results by the one-decision family's settlement (the table on
    the ante or the call bet, the other bet even money; ``difference``: the player's
    strength minus the dealer's); a fold loses the ante."""
    if decision == "fold":
        return Fraction(-1), Fraction(0)
    sign = (difference > 0) - (difference < 0)
    nets = ONE_DECISION.with_table(paytable, pays_on).wager_nets(category, qualifies, sign, rules.call_multiple)
    return nets["ante"], nets["play"]


@dataclass(frozen=True)
class _Words:
    """The pieces of a settlement sentence for one deal."""

    rules: Rules
    paytable: PayTable
    pays_on: str
    category: str  # the player's
    player: str
    dealer: str
    player_strength: int
    dealer_strength: int

    def sentence(self, outcome: str) -> str:
        call_bet = f"the call bet of {_count(Fraction(self.rules.call_multiple))}"
        if outcome == "fold":
            return "The player folds and loses the ante, whatever the dealer holds (no call bet is made)"
        if outcome == "dealer_not_qualifying":
            return (
                f"The dealer's hand ({self.dealer}) does not qualify ({self._qualifier()} is needed), "
                f"so the ante pays {self._ante_pay()} and {call_bet} is returned (a push)"
            )
        qualifies = (
            "The dealer always qualifies (the game has no qualifier)"
            if self.rules.qualifier_rank is None
            else f"The dealer qualifies ({self._qualifier()})"
        )
        if outcome == "tie":
            return f"{qualifies} and the two hands tie (each {self.player}): the ante and {call_bet} push"
        kickers = " on the next highest cards" if self.player == self.dealer else ""
        if outcome == "dealer_wins":
            return (
                f"{qualifies} and the dealer's hand ({self.dealer}) beats the player's ({self.player}){kickers}: "
                f"the player loses the ante and {call_bet}"
            )
        call_pay = _table_pay(self.paytable, self.category) if self.pays_on == "call" else "1 to 1"
        return (
            f"{qualifies} and the player's hand ({self.player}) beats the dealer's ({self.dealer}){kickers}: "
            f"the ante pays {self._ante_pay()} and {call_bet} pays {call_pay}"
        )

    def _qualifier(self) -> str:
        rank = self.rules.qualifier_rank
        return "" if rank is None else f"a pair of {plural_rank(rank)} or better"

    def _ante_pay(self) -> str:
        return _table_pay(self.paytable, self.category) if self.pays_on == "ante" else "1 to 1"


def _table_pay(paytable: PayTable, category: str) -> str:
    """``"2 to 1 (the pay table's line for a flush)"``."""
    pay = paytable.pays[category]
    return f"{pay.numerator} to {pay.denominator} (the pay table's line for {with_article(category)})"


def signed_antes(amount: Fraction) -> str:
    """``"+4 antes"``, ``"-1 ante"``, ``"0 antes"``, ``"+7/2 antes"``."""
    return ("+" if amount > 0 else "") + _count(amount)


def _count(amount: Fraction) -> str:
    return f"{amount} ante{'' if abs(amount) == 1 else 's'}"


def with_article(category: str) -> str:
    """``"a flush"``, ``"two pair"``, ``"high card"``: a category as the object of "with"."""
    words = category.replace("_", " ")
    return words if category in ("high_card", "two_pair", "three_of_a_kind", "four_of_a_kind") else f"a {words}"


def plural_rank(rank: int) -> str:
    name = RANK_NAMES[rank]
    return f"{name}es" if name == "six" else f"{name}s"


def hand_in_words(
    rules: Rules, hole: tuple[int, ...], board: tuple[int, ...], strength: int
) -> tuple[str, tuple[int, ...]]:
    """A hand's best five (for Omaha exactly two hole and three board cards) in words, and
    the five in the order they are read: the sets of a rank, biggest first, then by rank."""
    if rules.omaha:
        fives = [h + b for h in combinations(hole, 2) for b in combinations(board, 3)]
    else:
        fives = list(combinations(hole + board, 5))
    values = best_strength(np.array(fives, dtype=np.int8))
    best = int(np.argmax(values))
    if int(values[best]) != strength:
        raise AssertionError(f"the best five of {format_cards(hole)} make {values[best]}, the deal {strength}")
    category = int(tables().category[strength])
    ranks = [c // 4 for c in fives[best]]
    five = sorted(fives[best], key=lambda c: (ranks.count(c // 4), c // 4, c % 4), reverse=True)
    if category in (STRAIGHT, STRAIGHT_FLUSH) and [c // 4 for c in five] == [12, 3, 2, 1, 0]:
        five = five[1:] + five[:1]  # the wheel: the ace plays low
    return _hand_words(category, [c // 4 for c in five]), tuple(five)


def _hand_words(category: int, ranks: list[int]) -> str:
    """``"flush, ace high"``, ``"full house, kings full of sevens"``, ``"pair of sixes"``."""
    top = ranks[0]
    if category == ROYAL_FLUSH:
        return "royal flush"
    if category == PAIR:
        return f"pair of {plural_rank(top)}"
    detail = {
        STRAIGHT_FLUSH: f"{RANK_NAMES[top]} high",
        QUADS: plural_rank(top),
        FULL_HOUSE: f"{plural_rank(top)} full of {plural_rank(ranks[3])}",
        FLUSH: f"{RANK_NAMES[top]} high",
        STRAIGHT: f"{RANK_NAMES[top]} high",
        TRIPS: plural_rank(top),
        TWO_PAIR: f"{plural_rank(top)} and {plural_rank(ranks[2])}",
        HIGH_CARD: RANK_NAMES[top],
    }[category]
    return f"{CATEGORIES[category].replace('_', ' ')}, {detail}"
