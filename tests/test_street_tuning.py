"""Tuning a multi-street game: a changed blind pay re-solves every decision point exactly,
and a target edge is solved to its exact pay; both checked against the game tree played
deal by deal on a small deck (an oracle that shares no counting with the engine)."""

from fractions import Fraction

import pytest

from analysis.counting.game_tree import game_tree
from analysis.model.errors import InputError
from analysis.model.game import GameSpec, game_from_document, load_game
from analysis.tuning.street_tuner import StreetTuner
from test_streets import SMALL_GAME, doc

SIGN = {"win": 1, "tie": 0, "loss": -1}


def tree_edge(game: GameSpec) -> Fraction:
    """The house edge of optimal play, from the game tree's counts."""
    counts, _ = game_tree(game)
    ev = Fraction(0)
    for (street, multiple, category, result), n in counts.items():
        if street == "fold":
            ev += n * game.fold_value
        else:
            qualifies, outcome = not result.startswith("noqual"), result.removeprefix("noqual_")
            ev += n * game.settlement.net(category, qualifies, SIGN[outcome], multiple)
    return -ev / sum(counts.values())


def test_a_changed_blind_pay_and_a_target_edge_match_the_game_tree(cli, tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL_GAME)
    game = load_game(path)
    target = tree_edge(game.with_blind({"straight": Fraction(7, 3)}))
    assert target != tree_edge(game)  # the pay moves the edge
    store = tmp_path / "store"
    common = ("--game", path, "--format", "json", "--no-progress", "--store", store)
    changed = cli("tune", "--set", "straight=7/3", *common).json()
    assert Fraction(changed["house_edge_exact"]) == target
    # the pay that gives that edge is found again, exactly
    (row,) = cli("tune", f"--target={target}", "--vary", "straight", "--bounds", "0", "10", *common).json()
    assert row["exact_pays"] == {"straight": "7/3"} and Fraction(row["exact_house_edge"]) == target
    assert row["error"] == 0


def test_a_game_without_a_pay_table_has_nothing_to_tune():
    game = game_from_document(doc(blind=False), "even money")
    with pytest.raises(InputError, match="no wager is paid by a table"):
        StreetTuner(game)
