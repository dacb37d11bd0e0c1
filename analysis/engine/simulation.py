"""Monte Carlo simulation of a game, independent of the exact enumerator.

Hands are dealt at random, evaluated with the batch evaluators and settled by the rules
directly; only a strategy's *decisions* come from the return engine (they are looked up
per state). Agreement within a few standard errors checks the enumerator's counts and the
return-table arithmetic from outside.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import sqrt

import numpy as np

from analysis.counting.symmetry import canonical_states
from analysis.engine.return_engine import ReturnEngine
from analysis.engine.strategies import Strategy
from analysis.hands.evaluate import best_strength, omaha_strength
from analysis.hands.lookup import dealer_qualifier, tables
from analysis.model.cards import RANKS, SUITS
from analysis.model.errors import InputError
from analysis.model.outcomes import STATE_KEYS, key_set, state_keys
from analysis.model.payoffs import check_pays_on
from analysis.model.paytable import PayTable, PayTableSpec
from analysis.model.rules import Rules
from analysis.store.shards import StoreError


@dataclass
class Simulation:
    hands: int
    mean: float  # average net result per hand, in antes (minus the house edge)
    standard_deviation: float
    call_rate: float
    exact_house_edge: float | None = None  # the exact figure the simulation checks, when known

    @property
    def z(self) -> float | None:
        """Standard errors between the simulated and the exact house edge (None when unknown)."""
        if self.exact_house_edge is None or self.standard_error == 0:
            return None
        return (self.house_edge - self.exact_house_edge) / self.standard_error

    @property
    def standard_error(self) -> float:
        return self.standard_deviation / sqrt(self.hands)

    @property
    def house_edge(self) -> float:
        return -self.mean


def deal(rules: Rules, hands: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Random deals from the game's deck: player, flop, turn/river, dealer cards."""
    deck = np.array(rules.deck, dtype=np.int8)
    k = rules.hole_cards
    need = 2 * k + 5
    keys = rng.random((hands, len(deck)))
    picked = np.argpartition(keys, need - 1, axis=1)[:, :need]
    # order the picked cards by their random keys so every role gets a uniform card
    picked = np.take_along_axis(picked, np.argsort(np.take_along_axis(keys, picked, axis=1), axis=1), axis=1)
    cards = deck[picked]
    return {
        "player": cards[:, :k],
        "flop": cards[:, k : k + 3],
        "board": cards[:, k : k + 5],
        "dealer": cards[:, k + 5 :],
    }


def final_strengths(rules: Rules, hole: np.ndarray, board: np.ndarray) -> np.ndarray:
    if rules.omaha:
        return omaha_strength(hole, board).astype(np.int64)
    return best_strength(np.concatenate([hole, board], axis=1)).astype(np.int64)


def settle(
    rules: Rules, paytable: PayTable, calls: np.ndarray, player: np.ndarray, dealer: np.ndarray, pays_on: str = "ante"
) -> np.ndarray:
    """Net result in antes of each hand, straight from the rules."""
    m = rules.call_multiple
    pay = np.array([float(p) for p in paytable.vector()])[tables().category[player]]
    qualifies = dealer >= dealer_qualifier(rules.qualifier_rank)
    wins = player > dealer
    ante_win = pay if pays_on == "ante" else np.ones_like(pay)
    call_win = np.full_like(pay, m) if pays_on == "ante" else m * pay
    called = np.where(
        ~qualifies, ante_win, np.where(wins, ante_win + call_win, np.where(player == dealer, 0.0, -1.0 - m))
    )
    return np.where(calls, called, -1.0)


def state_rows(rules: Rules, keys: np.ndarray, hole: np.ndarray, flop: np.ndarray) -> np.ndarray:
    """The row, among the stored states of sorted ``keys``, of each dealt state."""
    flop_code, hole_code = canonical_states(hole, flop, rules.suits)
    wanted = state_keys(flop_code, hole_code)
    idx = np.searchsorted(keys, wanted)
    if idx.max(initial=0) >= len(keys) or not np.array_equal(keys[idx], wanted):
        raise StoreError("a dealt state is missing from the outcome store")
    return idx


@dataclass
class Dealt:
    """One batch of random deals, evaluated once: the cards (see :func:`deal`), both final
    hands' strengths and, when stored keys are given, each deal's stored state."""

    cards: dict[str, np.ndarray]
    player: np.ndarray
    dealer: np.ndarray
    rows: np.ndarray | None

    def __len__(self) -> int:
        return len(self.player)

    def calls(self, calls: np.ndarray | None) -> np.ndarray:
        """The decision of per-state ``calls`` in each deal (None: always call)."""
        if calls is None:
            return np.ones(len(self), dtype=bool)
        if self.rows is None:
            raise ValueError("per-state calls need the stored states' keys")
        return calls[self.rows]


def dealt_batches(
    rules: Rules,
    hands: int,
    seed: int,
    keys: np.ndarray | None = None,
    batch: int = 500_000,
    dealt_from: Rules | None = None,
) -> Iterator[Dealt]:
    """``hands`` random deals in batches, each dealt and evaluated once, so that several
    strategies and tables are settled on the same hands (the same deals for the same seed
    and batch size, whatever is settled on them). ``dealt_from``: the same game on another
    deck whose cards are dealt (a short deck), the states still looked up among ``rules``'."""
    dealing = rules if dealt_from is None else dealt_from
    if isinstance(hands, bool) or not isinstance(hands, (int, np.integer)) or hands < 1:
        raise InputError(f"hands must be a positive whole number, got {hands!r}")
    rng = np.random.default_rng(seed)
    done = 0
    while done < hands:
        n = min(batch, hands - done)
        d = deal(dealing, n, rng)
        rows = None if keys is None else state_rows(rules, keys, d["player"], d["flop"])
        yield Dealt(
            d, final_strengths(rules, d["player"], d["board"]), final_strengths(rules, d["dealer"], d["board"]), rows
        )
        done += n


@dataclass
class Tally:
    """Running sums of one settlement's results: a :class:`Simulation` at the end."""

    total: float = 0.0
    squares: float = 0.0
    calls: int = 0

    def add(self, result: np.ndarray, calls: np.ndarray) -> None:
        self.total += result.sum()
        self.squares += (result**2).sum()
        self.calls += int(calls.sum())

    def simulation(self, hands: int, exact_house_edge: float | None = None) -> Simulation:
        mean = self.total / hands
        return Simulation(
            hands, mean, sqrt(max(self.squares / hands - mean**2, 0.0)), self.calls / hands, exact_house_edge
        )


@dataclass(frozen=True, eq=False)
class Play:
    """One way to settle dealt hands: a pay table, the decisions (one per stored state;
    None: always call) and which bet the table pays."""

    paytable: PayTable
    calls: np.ndarray | None = None
    pays_on: str = "ante"


def stored_keys(engine: ReturnEngine) -> np.ndarray:
    """The sorted keys of the engine's stored states (for :func:`state_rows`; cached beside
    the store, since computing them takes longer than a simulation)."""

    return engine.source.derived(STATE_KEYS, key_set)["keys"]


def simulate_plays(
    rules: Rules,
    plays: Sequence[Play],
    hands: int,
    seed: int,
    keys: np.ndarray | None = None,
    batch: int = 500_000,
    dealt_from: Rules | None = None,
) -> list[Simulation]:
    """Deal and evaluate ``hands`` random hands once and settle every play on them; ``keys``:
    the sorted keys of the stored states (needed when a play has per-state calls);
    ``dealt_from``: the deck dealt, when not the game's own (see :func:`dealt_batches`)."""
    for play in plays:
        check_pays_on(play.pays_on)
    if keys is None and any(play.calls is not None for play in plays):
        raise ValueError("per-state calls need the stored states' keys")
    tallies = [Tally() for _ in plays]
    for d in dealt_batches(rules, hands, seed, keys, batch, dealt_from):
        for play, tally in zip(plays, tallies):
            decided = d.calls(play.calls)
            tally.add(settle(rules, play.paytable, decided, d.player, d.dealer, play.pays_on), decided)
    return [tally.simulation(hands) for tally in tallies]


def simulate(
    rules: Rules,
    paytable: PayTable,
    hands: int,
    seed: int,
    calls: np.ndarray | None = None,
    keys: np.ndarray | None = None,
    pays_on: str = "ante",
    batch: int = 500_000,
) -> Simulation:
    """Play ``hands`` random hands: always calling, or with per-state decisions ``calls``
    over the stored states of sorted ``keys``."""
    return simulate_plays(rules, [Play(paytable, calls, pays_on)], hands, seed, keys, batch)[0]


def simulate_strategies(
    engine: ReturnEngine,
    plays: Sequence[tuple[PayTableSpec, str | Strategy, str]],
    hands: int,
    seed: int,
    batch: int = 500_000,
) -> list[Simulation]:
    """Simulate several (paytable, strategy, pays_on) of the engine on the same random hands
    (dealt and evaluated once), each with the engine's exact house edge beside it."""
    exact = [engine.decide(paytable, strategy, pays_on) for paytable, strategy, pays_on in plays]
    settled = [Play(e.paytable, None if e.calls.all() else e.calls, e.pays_on) for e in exact]
    keys = None if all(p.calls is None for p in settled) else stored_keys(engine)
    sims = simulate_plays(engine.rules, settled, hands, seed, keys, batch)
    for sim, e in zip(sims, exact):
        sim.exact_house_edge = float(e.exact.house_edge)
    return sims


def simulate_strategy(
    engine: ReturnEngine,
    paytable: PayTableSpec,
    strategy: str | Strategy,
    hands: int,
    seed: int,
    pays_on: str = "ante",
) -> Simulation:
    """Simulate a strategy of the engine, with the engine's exact house edge beside it."""
    return simulate_strategies(engine, [(paytable, strategy, pays_on)], hands, seed)[0]


def simulate_table(
    engine: ReturnEngine,
    paytable: PayTableSpec,
    strategy: str | Strategy,
    hands: int,
    seed: int,
    ranks: str = RANKS,
    suits: str = SUITS,
    pays_on: str = "ante",
) -> Simulation:
    """A table's results over ``hands`` hands dealt from a deck of ``ranks`` and ``suits``
    (the full deck by default; ``ranks="3456789TJQKA"``: a shoe missing the four deuces),
    the player playing the engine's strategy as decided for the full deck: what a floor
    sees when a short deck is in play and nobody knows. The exact house edge beside it is
    the full deck's (what the table is checked against)."""
    exact = engine.decide(paytable, strategy, pays_on)
    calls = None if exact.calls.all() else exact.calls
    keys = None if calls is None else stored_keys(engine)
    rules = engine.rules
    dealt_from = None if (ranks, suits) == (RANKS, SUITS) else rules.small_deck(ranks, suits)
    sim = simulate_plays(rules, [Play(exact.paytable, calls, pays_on)], hands, seed, keys, dealt_from=dealt_from)[0]
    sim.exact_house_edge = float(exact.exact.house_edge)
    return sim
