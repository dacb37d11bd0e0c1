"""Monte Carlo of a side bet played with its main game, independent of the counts: hands are
dealt at random and settled from the dealt cards (:func:`analysis.engine.simulation.dealt_batches`
and :func:`analysis.engine.simulation.settle`); the side bet's outcome is read from the same cards with
the batch evaluators. Only the player's decisions come from the exact result (looked up per
state), so agreement within a few standard errors checks the side-bet counts, the joint
strategy's return table and the combined figures from outside.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from analysis.engine.result import GameResult
from analysis.engine.return_engine import ReturnEngine
from analysis.engine.simulation import Simulation, Tally, dealt_batches, settle, stored_keys
from analysis.hands.evaluate import best_strength, omaha_strength
from analysis.hands.lookup import dealer_qualifier, tables
from analysis.model.errors import InputError
from analysis.sidebets.result import SideBetResult
from analysis.sidebets.returns import line_nets


def simulate_side_bets(
    engine: ReturnEngine, results: Sequence[SideBetResult], hands: int, seed: int, batch: int = 500_000
) -> list[tuple[Simulation, Simulation]]:
    """For each result, (side bet per unit staked, main game plus side bet per hand in antes)
    over the same ``hands`` random hands (dealt and evaluated once), each played with the
    decisions of its result; each carries the exact figure."""
    rules = engine.rules
    for result in results:
        if result.rules.fingerprint() != rules.fingerprint():
            raise ValueError(f"a side bet of {result.rules.name} cannot be played on {rules.name}'s deals")
    mains = [r.main for r in results]
    if not all(isinstance(m, GameResult) for m in mains):
        raise InputError("the side-bet simulation plays side bets on the one-decision games")
    played = [m for m in mains if isinstance(m, GameResult)]
    calls = [None if m.calls.all() else m.calls for m in played]
    keys = None if all(c is None for c in calls) else stored_keys(engine)
    nets = [np.array([float(v) for v in line_nets(r.bet, r.meter)] + [-1.0]) for r in results]
    lines = [r.bet.strength_lines() if r.bet.kind == "first-six" else r.bet.category_lines() for r in results]
    t = tables()
    tallies = [(Tally(), Tally()) for _ in results]
    for d in dealt_batches(rules, hands, seed, keys, batch):
        first_six = None  # the best hand of the hole cards and the flop, for every first-six bet
        for result, main, per_state, net, line_of, (side_tally, both_tally) in zip(
            results, played, calls, nets, lines, tallies
        ):
            bet = result.bet
            called = d.calls(per_state)
            if bet.kind == "first-six":
                if first_six is None:
                    hole, flop = d.cards["player"], d.cards["flop"]
                    first_six = (
                        omaha_strength(hole, flop)
                        if rules.omaha
                        else best_strength(np.concatenate([hole, flop], axis=1))
                    )
                line = line_of[first_six]
            else:
                line = line_of[t.category[d.player]]
                if bet.kind == "bad-beat":
                    lost = (d.dealer >= dealer_qualifier(result.rules.qualifier_rank)) & (d.dealer > d.player)
                    line = np.where(lost, line, -1)
            side = net[np.where(line >= 0, line, -1)]
            if bet.forfeit:
                side = np.where(called, side, -1.0)
            both = settle(result.rules, main.paytable, called, d.player, d.dealer, main.pays_on)
            side_tally.add(side, called)
            both_tally.add(both + float(result.stake) * side, called)
    return [
        (side.simulation(hands, float(r.exact.house_edge)), both.simulation(hands, float(r.combined.house_edge)))
        for r, (side, both) in zip(results, tallies)
    ]


def simulate_side_bet(
    engine: ReturnEngine, result: SideBetResult, hands: int, seed: int, batch: int = 500_000
) -> tuple[Simulation, Simulation]:
    """(side bet per unit staked, main game plus side bet per hand in antes) over ``hands``
    random hands, played with the decisions of ``result``; each carries the exact figure."""
    return simulate_side_bets(engine, [result], hands, seed, batch)[0]
