"""One entry point for every game (analysis.solve): the same shape of result whichever
engine counts the game, and the figures each engine gives on its own."""

from fractions import Fraction

import pytest

import analysis
from analysis.engine.streets import solve_streets
from analysis.model.errors import InputError
from analysis.model.game import game_from_document
from analysis.parallel.options import RunOptions
from exact_figures import HOLDEM_OPTIMAL_EDGE
from test_streets import doc


def check_shape(solved):
    """The outcomes add up to the deals and the figures; the first decision point's options
    take every deal."""
    outcomes = solved.outcomes()
    assert sum(o.deals for o in outcomes) == solved.exact.deals
    assert -sum(o.net * o.deals for o in outcomes) / solved.exact.deals == solved.exact.house_edge
    first = next(iter(solved.decisions))[0]
    assert sum(n for (street, _), n in solved.decisions.items() if street == first) == solved.exact.deals


def test_a_one_decision_game_is_played_from_its_store(holdem):
    _, engine = holdem
    solved = analysis.solve("casino-holdem")
    assert solved.exact == engine.decide().exact and solved.exact.house_edge == HOLDEM_OPTIMAL_EDGE
    check_shape(solved)
    richer = engine.decide().paytable.replace(flush=3)
    assert analysis.solve("casino-holdem", paytable=richer).exact == engine.decide(richer).exact


def test_a_multi_street_game_is_solved_by_its_streets(tmp_path):
    game = game_from_document(doc(), "small")
    options = RunOptions(root=tmp_path, progress=False)
    solved = analysis.solve(game, options=options)
    assert solved.exact == solve_streets(game, options).exact
    check_shape(solved)
    assert solved.exact.call_rate == Fraction(
        solved.exact.deals - solved.counts.get(("fold", 0, "", ""), 0), solved.exact.deals
    )
    with pytest.raises(InputError, match="paytable, strategy only for a one-decision game"):
        analysis.solve(game, paytable="antewin", strategy="always-call", options=options)
