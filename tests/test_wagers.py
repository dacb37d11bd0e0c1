"""Each wager on its own (analysis.engine.wagers): its expected results add up to the
game's exact house edge, and its lines are hand-checkable splits of the return table."""

from fractions import Fraction

import pytest

from analysis.engine.streets import solve_streets
from analysis.engine.wagers import wager_figures
from analysis.model.game import game_from_document
from analysis.parallel.options import RunOptions
from test_streets import doc


def lines_of(figures, wager):
    return {(line.result, line.final_hand, line.net): line.deals for line in figures[wager].lines}


def test_a_one_decision_games_wagers_split_its_house_edge(holdem):
    _, engine = holdem
    result = engine.decide()
    wagers = {w.wager: w for w in wager_figures(result.outcomes(), result.settlement)}
    assert list(wagers) == ["ante", "play"]
    assert sum(w.expected for w in wagers.values()) == -result.exact.house_edge
    rows = dict(zip(zip(result.table.outcome, result.table.category), result.table.combinations))
    ante, play = lines_of(wagers, "ante"), lines_of(wagers, "play")
    # the ante: paid its table on a win and when the dealer does not qualify, lost on a fold or a loss
    assert (
        ante[("wins", "royal_flush", 100)]
        == rows[("player_wins", "royal_flush")] + rows[("dealer_not_qualifying", "royal_flush")]
    )
    assert ante[("loses", "", -1)] == rows[("fold", "")] + rows[("dealer_wins", "")]
    assert ante[("pushes", "", 0)] == rows[("tie", "")]
    # the call: not made on a fold; pushes on a tie and when the dealer does not qualify
    assert play[("not made", "", 0)] == rows[("fold", "")]
    noqual = sum(n for (o, _), n in rows.items() if o == "dealer_not_qualifying")
    assert play[("pushes", "", 0)] == rows[("tie", "")] + noqual
    assert wagers["play"].average_stake == 2 * result.exact.call_rate
    assert wagers["ante"].house_edge == -wagers["ante"].expected
    made = wagers["play"]
    assert made.share("wins") + made.share("pushes") + made.share("loses") == 1


@pytest.mark.parametrize("ante_rule", ["push", "pays"])
def test_a_multi_street_games_wagers_split_its_house_edge(tmp_path, ante_rule):
    game = game_from_document(doc(ante={"pays": "even", "dealer_not_qualifying": ante_rule}), "small")
    figures = solve_streets(game, RunOptions(root=tmp_path, progress=False))
    wagers = {w.wager: w for w in wager_figures(figures.outcomes(), game.settlement)}
    assert list(wagers) == ["ante", "blind", "play"]
    assert sum(w.expected for w in wagers.values()) == -figures.house_edge
    fold = figures.counts.get(("fold", 0, "", ""), 0)
    blind = lines_of(wagers, "blind")
    # the blind is paid only on a win with a straight or better, by its table; it loses on a fold
    assert {hand for (result, hand, _) in blind if result == "wins"} <= {
        "royal_flush",
        "straight_flush",
        "four_of_a_kind",
        "full_house",
        "flush",
        "straight",
    }
    assert blind[("wins", "flush", Fraction(3, 2))] == sum(
        n for (street, m, c, r), n in figures.counts.items() if c == "flush" and r in ("win", "noqual_win")
    )
    assert wagers["play"].lines[-1].result == "not made" and wagers["play"].lines[-1].deals == fold
    assert wagers["play"].average_stake == figures.average_wager - 2
    noqual = sum(n for k, n in figures.counts.items() if k[3].startswith("noqual"))
    ties = sum(n for k, n in figures.counts.items() if k[3] == "tie")
    # the ante pushes on a tie with a qualifying dealer, and on every deal whose dealer does not
    # qualify where the file says so (paid even money there otherwise)
    ante_pushes = lines_of(wagers, "ante").get(("pushes", "", 0), 0)
    assert ante_pushes == ties + (noqual if ante_rule == "push" else 0)


def test_a_check_to_the_showdown_makes_no_play_bet(tmp_path):
    # flop: check or bet twice the ante, no river decision: a check plays the hand with no play bet
    game = game_from_document(doc(betting={"flop": ["check", "bet 2"]}, blind=False), "checks")
    figures = solve_streets(game, RunOptions(root=tmp_path, progress=False))
    wagers = {w.wager: w for w in wager_figures(figures.outcomes(), game.settlement)}
    checked = sum(n for k, n in figures.counts.items() if k[0] != "fold" and k[1] == 0)
    assert checked > 0 and lines_of(wagers, "play")[("not made", "", 0)] == checked
    assert wagers["play"].made == figures.total - checked
    assert sum(w.expected for w in wagers.values()) == -figures.house_edge
