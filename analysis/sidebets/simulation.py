"""Monte Carlo of a side bet played with its main game, independent of the counts: hands are
dealt at random and settled from the dealt cards (:func:`analysis.engine.simulation.deal` and
:func:`analysis.engine.simulation.settle`); the side bet's outcome is read from the same cards with
the batch evaluators. Only the player's decisions come from the exact result (looked up per
state), so agreement within a few standard errors checks the side-bet counts, the joint
strategy's return table and the combined figures from outside.
"""

from __future__ import annotations

from math import sqrt

import numpy as np

from analysis.engine.return_engine import ReturnEngine
from analysis.engine.simulation import Simulation, deal, final_strengths, lookup_calls, settle, stored_keys
from analysis.hands.evaluate import best_strength, omaha_strength
from analysis.hands.lookup import dealer_qualifier, tables
from analysis.sidebets.result import SideBetResult
from analysis.sidebets.returns import line_nets


def simulate_side_bet(
    engine: ReturnEngine, result: SideBetResult, hands: int, seed: int, batch: int = 500_000
) -> tuple[Simulation, Simulation]:
    """(side bet per unit staked, main game plus side bet per hand in antes) over ``hands``
    random hands, played with the decisions of ``result``; each carries the exact figure."""
    rules, bet, main = result.rules, result.bet, result.main
    rng = np.random.default_rng(seed)
    keys = None if main.calls.all() else stored_keys(engine)
    nets = np.array([float(v) for v in line_nets(bet, result.meter)] + [-1.0])
    lines = bet.strength_lines() if bet.kind == "first-six" else bet.category_lines()
    t = tables()
    side_sum = side_sq = both_sum = both_sq = 0.0
    n_calls = done = 0
    while done < hands:
        n = min(batch, hands - done)
        d = deal(rules, n, rng)
        calls = (
            np.ones(n, dtype=bool) if keys is None else lookup_calls(rules, keys, main.calls, d["player"], d["flop"])
        )
        player = final_strengths(rules, d["player"], d["board"])
        dealer = final_strengths(rules, d["dealer"], d["board"])
        if bet.kind == "first-six":
            first_six = (
                omaha_strength(d["player"], d["flop"])
                if rules.omaha
                else best_strength(np.concatenate([d["player"], d["flop"]], axis=1))
            )
            line = lines[first_six]
        else:
            line = lines[t.category[player]]
            if bet.kind == "bad-beat":
                line = np.where((dealer >= dealer_qualifier(rules.qualifier_rank)) & (dealer > player), line, -1)
        side = nets[np.where(line >= 0, line, -1)]
        if bet.forfeit:
            side = np.where(calls, side, -1.0)
        both = settle(rules, main.paytable, calls, player, dealer, main.pays_on) + float(result.stake) * side
        side_sum, side_sq = side_sum + side.sum(), side_sq + (side**2).sum()
        both_sum, both_sq = both_sum + both.sum(), both_sq + (both**2).sum()
        n_calls += int(calls.sum())
        done += n
    out = []
    for total, squares, exact in (
        (side_sum, side_sq, result.exact.house_edge),
        (both_sum, both_sq, result.combined.house_edge),
    ):
        mean = total / hands
        out.append(Simulation(hands, mean, sqrt(max(squares / hands - mean**2, 0.0)), n_calls / hands, float(exact)))
    return out[0], out[1]
