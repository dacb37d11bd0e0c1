"""The street engine checked from outside: a Monte Carlo simulation that plays its pre-flop
and flop decisions, takes the river decision by its own enumeration and settles from the
game file's fields agrees with its exact house edge (and its decision rates) within 4
standard errors, for every structure of a small deck and every shipped multi-street game;
a deliberately wrong strategy is caught, so the check can fail.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from itertools import combinations
from math import sqrt

import numpy as np
import pytest

from analysis.counting.streets import RESULTS6
from analysis.engine.simulation import deal
from analysis.engine.street_simulation import RiverDecider, Settlement, StreetSimulation, simulate_streets
from analysis.engine.streets import StreetFigures, solve_streets
from analysis.hands.evaluate import best_strength, omaha_strength
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.game import GameSpec, game_from_document, load_game, shipped_games
from analysis.parallel.options import RunOptions
from test_streets import STRUCTURES, doc


@cache
def figures_of(name: str) -> StreetFigures:
    """A game's exact figures with every flop decision kept, solved once per session."""
    game = game_from_document(STRUCTURES[name], name) if name in STRUCTURES else load_game(name)
    return solve_streets(game, RunOptions(threads=2), keep_states=True)


def rate_z(sim: StreetSimulation, figures: StreetFigures) -> dict[tuple[str, str], float]:
    """Binomial standard errors between each simulated decision rate and the exact one."""
    out = {}
    for key in set(sim.decisions) | set(figures.decisions):
        p = figures.decisions.get(key, 0) / figures.total
        se = sqrt(p * (1 - p) / sim.hands)
        diff = sim.decisions.get(key, 0.0) - p
        out[key] = diff / se if se else (0.0 if diff == 0 else float("inf"))  # p = 0 or 1: exact
    return out


def check(figures: StreetFigures, hands: int, seed: int) -> StreetSimulation:
    sim = simulate_streets(figures, hands, seed, threads=2)
    assert sim.exact_house_edge == float(figures.house_edge)
    assert sim.z is not None and abs(sim.z) < 4, (sim.house_edge, sim.exact_house_edge, sim.standard_error)
    zs = rate_z(sim, figures)
    assert all(abs(z) < 4 for z in zs.values()), zs
    return sim


def _all_games() -> list[GameSpec]:
    shipped = [load_game(n) for n in shipped_games()]
    boards = [g for g in shipped if g.no_board is None]  # a game without a board is sampled on its own
    return boards + [game_from_document(d, n) for n, d in STRUCTURES.items()]


@pytest.mark.parametrize("game", _all_games(), ids=lambda g: g.source)
def test_settlement_written_from_the_fields_equals_the_games_showdown_values(game):
    settle = Settlement(game)
    category = np.repeat(np.arange(len(CATEGORIES)), len(RESULTS6))
    qualifies = np.tile([r in ("win", "tie", "loss") for r in RESULTS6], len(CATEGORIES))
    sign = np.tile([{"win": 1, "tie": 0, "loss": -1}[r.removeprefix("noqual_")] for r in RESULTS6], len(CATEGORIES))
    for m in range(10):
        mine = settle.showdown(category, np.int64(m), qualifies, sign)
        assert [v * settle.scale for v in game.showdown_values(m)] == mine.tolist()
    assert settle.fold == game.fold_value * settle.scale


@pytest.mark.parametrize("name", ["3 hole cards, three streets, blind", "ultimate (3 streets, blind, ante pushes)"])
def test_dealer_holdings_of_the_river_are_every_holding_of_the_unseen_cards(name):
    game = figures_of(name).game
    decider = RiverDecider(game, Settlement(game))
    d = deal(game.rules, 3, np.random.default_rng(5))
    hole, board = d["player"].astype(np.int64), d["board"].astype(np.int64)
    got = decider.dealer_strengths(hole, board)
    for i in range(3):
        unseen = sorted(set(game.rules.deck) - set(hole[i]) - set(board[i]))
        holds = np.array(list(combinations(unseen, game.rules.hole_cards)), dtype=np.int8)
        boards = np.tile(board[i].astype(np.int8), (len(holds), 1))
        if game.rules.omaha:
            want = omaha_strength(holds, boards)
        else:
            want = best_strength(np.concatenate([holds, boards], axis=1))
        assert got[i].tolist() == want.tolist()


@pytest.mark.parametrize("name", list(STRUCTURES))
def test_small_deck_simulation_agrees_with_the_exact_engine(name):
    # 9TJQKA in two suits: 12 cards, every structure a game file can state; many hands
    check(figures_of(name), 400_000, seed=18)


def test_a_wrong_flop_strategy_is_detected():
    # every flop decision flipped (check <-> bet 2) on the small-deck Ultimate without its
    # blind (whose 500-to-1 royal on a 12-card deck would swamp any difference)
    game = game_from_document(doc(blind=False), "no blind")
    figures = solve_streets(game, RunOptions(threads=2), keep_states=True)
    assert figures.flop_options is not None
    assert check(figures, 400_000, seed=18).z is not None
    flipped = replace(figures, flop_options=(1 - figures.flop_options).astype(np.int8))
    sim = simulate_streets(flipped, 400_000, seed=18)
    assert sim.z is not None and abs(sim.z) > 20, sim.z
    assert max(abs(z) for z in rate_z(sim, figures).values()) > 20


def test_hands_must_be_a_positive_whole_number():
    figures = figures_of("flop only, AnteWin, ante paid when no qualifier")
    for bad in (0, -5, 2.5, True):
        with pytest.raises(InputError, match="hands must be a positive whole number"):
            simulate_streets(figures, bad, seed=1)


@pytest.mark.slow
def test_ultimate_texas_holdem_simulation_agrees_with_the_exact_engine():
    check(figures_of("ultimate-texas-holdem"), 1_000_000, seed=18)


@pytest.mark.slow
def test_casino_holdem_through_the_street_engine_simulation_agrees():
    check(figures_of("casino-holdem"), 4_000_000, seed=18)


@pytest.mark.slow
def test_casino_omaha_ultimate_simulation_agrees_with_the_exact_engine():
    check(figures_of("casino-omaha-ultimate"), 500_000, seed=18)


def test_a_small_deck_whose_bets_add_up_agrees_and_a_wrong_turn_strategy_is_detected():
    # Texas Hold'em Bonus on ten to ace in two suits: the kept turn decisions are looked up
    # through each deal's suit map to its canonical state, so a wrong map or a wrong bit
    # shows here; every turn decision flipped is caught
    from test_turns import SMALL_BONUS

    game = game_from_document(SMALL_BONUS, "small bonus")
    figures = solve_streets(game, RunOptions(threads=2), keep_states=True)
    assert figures.turn_bets is not None
    check(figures, 400_000, seed=18)
    deck = np.uint64(sum(1 << c for c in game.rules.deck))
    flipped = replace(figures, turn_bets=figures.turn_bets ^ deck)
    sim = simulate_streets(flipped, 400_000, seed=18)
    assert sim.z is not None and abs(sim.z) > 20, sim.z
    assert abs(rate_z(sim, figures)[("turn", "bet 1")]) > 20


@pytest.mark.slow
def test_texas_holdem_bonus_simulation_agrees_and_its_turn_decisions_are_the_advice():
    from analysis.model.cards import format_cards
    from analysis.strategy.street_advice import advise_street

    figures = figures_of("texas-holdem-bonus")
    check(figures, 1_000_000, seed=18)
    # the kept turn decision of random deals (through their suit maps) against the advice,
    # counted from the deal's own cards by the evaluator
    d = deal(figures.game.rules, 40, np.random.default_rng(7))
    kept = figures.turn_choice(d["player"], d["flop"], d["board"][:, 3])
    for i in range(40):
        board = format_cards(d["board"][i, :4].tolist())
        advice = advise_street(figures.game, format_cards(d["player"][i].tolist()), board, taken=("bet 2", "check"))
        assert kept[i] == (advice.best == "bet 1"), (d["player"][i], board)
    assert 0 < kept.sum() < 40
