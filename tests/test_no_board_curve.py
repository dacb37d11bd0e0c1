"""The exact curve of a game without a board's optimal house edge in one pay: at every
breakpoint, between breakpoints and at random pays it equals the game solved again with that
pay (counts made once); a target is read off it exactly; the command prints it."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from analysis.engine.no_board import no_board_counts, solve_no_board
from analysis.engine.no_board_curve import NoBoardCurve
from analysis.model.errors import InputError
from analysis.model.game import game_from_document, load_game
from analysis.tuning.street_tuner import StreetTuner

STUD = {
    "name": "small-stud",
    "cards": {"hole": 5, "board": 0, "hand": "five-card", "ranks": "79JQKA", "suits": "cdh"},
    "dealer": {"qualifier": "ace-king", "up": 1},
    "betting": {"preflop": ["fold", "bet 2"]},
    "ante": {"pays": "even", "dealer_not_qualifying": "pays"},
    "play": {"dealer_not_qualifying": "push", "pays": {"straight": 4, "two_pair": 2, "pair": 1}},
}
FOUR = {
    "name": "small-four",
    "cards": {"hole": 5, "board": 0, "hand": "four-card", "ranks": "2345A", "suits": "cdh"},
    "dealer": {"hole": 6, "up": 1, "qualifier": "none", "ties": "player"},
    "betting": {"preflop": ["fold", "bet 1", "bet 3"]},
    "ante": {"pays": "even", "bonus": {"three_of_a_kind": 2}},
}


@pytest.mark.parametrize(
    "doc, category",
    [(STUD, "pair"), (STUD, "high_card"), (FOUR, "two_pair"), (FOUR, "straight"), (None, "high_card")],
)
def test_the_curve_is_the_game_solved_again_at_every_pay(doc, category):
    """Every breakpoint, the midpoint of every piece and random pays: the curve's exact edge
    is the solve's. With three options (fold, 1x, 3x) a state's best option turns twice."""
    game = load_game("three-card-poker") if doc is None else game_from_document(doc)
    tuner = StreetTuner(game)
    curve = tuner.curve(category)
    counted = no_board_counts(game)

    def solved(pay: Fraction) -> Fraction:
        return solve_no_board(
            tuner.game_with(tuner.table().with_pays({category: pay})), counted=counted
        ).exact.house_edge

    points = curve.breakpoints(Fraction(0), Fraction(5))
    assert len(points) > 4  # the pay turns decisions here
    rng = random.Random(7)
    pays = [p for p, _ in points] + [(a + b) / 2 for (a, _), (b, _) in zip(points, points[1:])]
    pays += [Fraction(rng.randrange(5000), rng.randrange(1, 997)) for _ in range(6)]
    for pay in pays:
        assert curve.house_edge(pay) == solved(pay), pay
    edges = [e for _, e in points]
    assert edges == sorted(edges, reverse=True)  # a pay to the player never raises the edge
    slopes = [(eb - ea) / (b - a) for (a, ea), (b, eb) in zip(points, points[1:])]
    assert slopes == sorted(slopes, reverse=True)  # concave: each piece falls at least as steeply as the last


def test_a_target_is_read_off_the_curve_exactly(cli):
    tuner = StreetTuner(game_from_document(STUD))
    found = tuner.solve(Fraction(-1, 10), "pair", (Fraction(0), Fraction(10)), False, tuner.table())
    pay = found["exact_pays"].iloc[0]["pair"]
    assert tuner.evaluate(tuner.table().with_pays({"pair": pay})).exact.house_edge == Fraction(-1, 10)
    assert tuner.curve("pair").pay_for(Fraction(-1, 10), Fraction(0), Fraction(10)) == pay
    # the guide's example, once solved by Newton's steps on whole solves
    out = cli("tune", "--game", "three-card-poker", "--target", "0.03", "--vary", "straight", "--format", "json")
    assert out.json()[0]["exact_pays"]["straight"] == "3695987/3316320"


def test_the_command_prints_every_breakpoint(cli, tmp_path):
    run = cli("tune", "--game", "three-card-poker", "--curve", "high_card", "--bounds", "0", "1", "--format", "json")
    rows = run.json()
    game = load_game("three-card-poker")
    tuner = StreetTuner(game)
    assert [Fraction(r["pay_exact"]) for r in rows] == [p for p, _ in tuner.curve("high_card").breakpoints(0, 1)]
    for r in rows[:: max(len(rows) // 5, 1)]:
        changed = tuner.evaluate(tuner.table().with_pays({"high_card": Fraction(r["pay_exact"])}))
        assert str(changed.exact.house_edge) == r["house_edge_exact"]
    # without --bounds: from 0 to twice the pay now, at least 10 (the straight's bonus is 1)
    drawn = cli("tune", "--game", "three-card-poker", "--curve", "straight", "--format", "json").json()
    assert (drawn[0]["pay_exact"], drawn[-1]["pay_exact"]) == ("0", "10")
    plot = tmp_path / "curve.png"
    cli("tune", "--game", "three-card-poker", "--curve", "straight", "--plot", plot)
    assert plot.read_bytes()[:4] == b"\x89PNG"
    for args, message in [
        (("--curve", "full_house"), "Three Card Poker has no full_house"),
        (("--curve", "pair", "--bounds", "2", "1"), "0 <= LOW < HIGH"),
    ]:
        bad = cli("tune", "--game", "three-card-poker", *args)
        assert bad.returncode == 2 and message in bad.stderr, bad.stderr
    board = cli("tune", "--game", "ultimate-texas-holdem", "--curve", "flush")
    assert board.returncode == 2 and "swept a solve per point" in board.stderr


def test_pays_over_other_denominators_are_refused():
    from dataclasses import replace

    game = load_game("three-card-poker")
    half = replace(game, no_board=replace(game.no_board, ante_bonus={"straight": Fraction(1, 2)}))
    with pytest.raises(InputError, match="different denominators"):
        NoBoardCurve(game, half, no_board_counts(game))
