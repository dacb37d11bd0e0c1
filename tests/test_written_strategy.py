"""The written strategy of a Hold'em-hand game with decisions at the flop and the river
(Ultimate Texas Hold'em): the optimal pre-flop grid, then the rules of
:mod:`analysis.hands.written` at the flop and at the river. A small deck's every deal played
by those rules, card by card, equals the engine's counts (the river rule decided inside the
kernel board by board); the full deck's figure agrees with a simulation that plays the rules
hand by hand and settles with its own code."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import sqrt

import numpy as np
import pytest

from analysis.counting.streets import RESULTS6
from analysis.engine.street_simulation import simulate_streets
from analysis.engine.streets import solve_streets
from analysis.hands.evaluate import best_strength
from analysis.hands.lookup import dealer_qualifier, tables
from analysis.hands.written import flop_bets, river_bets
from analysis.model.cards import parse_cards
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.game import game_from_document, load_game, shipped_games
from analysis.parallel.options import RunOptions
from analysis.report.render import document_html
from analysis.report.streets import build_street_report, street_document
from analysis.strategy.street_advice import advise_street
from test_streets import doc


def every_deal(deck: list[int]) -> np.ndarray:
    """Every deal of the deck: hole 2, flop 3, turn and river (unordered), dealer 2."""
    rows = []
    for hole in combinations(deck, 2):
        rest = [c for c in deck if c not in hole]
        for flop in combinations(rest, 3):
            left = [c for c in rest if c not in flop]
            for tr in combinations(left, 2):
                last = [c for c in left if c not in tr]
                rows.extend([*hole, *flop, *tr, *dealer] for dealer in combinations(last, 2))
    return np.array(rows, dtype=np.int64)


def test_a_small_deck_played_by_the_rules_card_by_card_equals_the_engine(tmp_path):
    game = game_from_document(doc(), "small ultimate")
    options = RunOptions(root=tmp_path, threads=2)
    optimal = solve_streets(game, options)
    written = solve_streets(game, options, written=True)
    d = every_deal(list(game.rules.deck))
    hole, flop, board, dealer = d[:, :2], d[:, 2:5], d[:, 2:7], d[:, 7:9]
    grid = optimal.preflop_choice(hole)
    pre = np.array([o.multiple if o.kind == "bet" else 0 for o in grid])
    player = best_strength(np.concatenate([hole, board], axis=1)).astype(np.int64)
    theirs = best_strength(np.concatenate([dealer, board], axis=1)).astype(np.int64)
    qualifies = theirs >= dealer_qualifier(game.rules.qualifier_rank)
    result = np.where(player > theirs, 0, np.where(player == theirs, 1, 2)) + 3 * qualifies
    at_flop, at_river = flop_bets(hole, flop), river_bets(hole, board, game.rules.deck)
    assert 0 < at_flop[pre == 0].mean() < 1 and 0 < at_river[(pre == 0) & ~at_flop].mean() < 1
    street = np.where(pre > 0, 0, np.where(at_flop, 1, np.where(at_river, 2, 3)))
    multiple = np.where(pre > 0, pre, np.where(at_flop, game.flop[1].multiple, game.river[1].multiple))
    streets = ("preflop", "flop", "river")
    counts: Counter = Counter(
        ("fold", 0, "", "") if s == 3 else (streets[s], int(m), CATEGORIES[c], RESULTS6[r])
        for s, m, c, r in zip(street.tolist(), multiple.tolist(), tables().category[player].tolist(), result.tolist())
    )
    assert written.counts == dict(counts)
    assert written.total == len(d) == game.rules.total_combinations
    assert list(written.preflop["option"]) == list(optimal.preflop["option"])
    assert written.house_edge > optimal.house_edge


def test_a_game_the_rules_do_not_fit_is_refused():
    with pytest.raises(InputError, match="the written strategy is written for two hole cards"):
        solve_streets(load_game("casino-omaha-ultimate"), written=True)


@pytest.mark.slow
def test_ultimate_texas_holdem_played_by_the_rules_hand_by_hand_agrees():
    # the written rules played on random full-deck hands by the simulation (the flop and the
    # river tested on each hand's cards, the river's outs counted card by card among the 45
    # unseen) and settled by its own code, against the engine's exact figure; and the par
    # sheet prints the rules and their cost
    game = load_game("ultimate-texas-holdem")
    optimal, written = solve_streets(game), solve_streets(game, written=True)
    assert written.house_edge == Fraction(54758439, 2299422125)  # 2.3814%, 0.1964% above optimal play
    sim = simulate_streets(written, 200_000, seed=11, written=True)
    assert sim.exact_house_edge == float(written.house_edge) and sim.z is not None and abs(sim.z) < 4, sim.z
    # the river's fold rate: the rules' (18.06% of all deals) and not optimal play's (19.19%,
    # 13 standard errors away at this many hands)
    fold = written.decisions[("river", "fold")] / written.total
    assert abs(sim.decisions[("river", "fold")] - fold) < 4 * sqrt(fold * (1 - fold) / sim.hands)
    assert abs(optimal.decisions[("river", "fold")] / optimal.total - fold) > 10 * sqrt(fold * (1 - fold) / sim.hands)
    report = build_street_report(game)
    assert report.written is not None and report.written.house_edge == written.house_edge
    text = document_html(street_document(report))
    assert "fewer than 21 of the 45 cards you cannot see" in text and "4552857539/2317817502000" in text


def test_the_command_line_solves_it_and_refuses_the_games_it_does_not_fit(cli, tmp_path):
    # Ultimate Texas Hold'em's own file on nine to ace in two suits
    path = tmp_path / "small.toml"
    shipped = shipped_games()["ultimate-texas-holdem"].read_text()
    path.write_text(shipped.replace("[cards]\n", '[cards]\nranks = "9TJQKA"\nsuits = "cd"\n'))
    data = cli("solve", "--game", path, "--written", "--store", tmp_path / "store", "--format", "json").json()
    written = solve_streets(load_game(path), RunOptions(root=tmp_path / "store"), written=True)
    assert data["strategy"] == "written" and Fraction(data["house_edge_exact"]) == written.house_edge
    optimal = cli("solve", "--game", path, "--store", tmp_path / "store", "--format", "json").json()
    assert Fraction(optimal["house_edge_exact"]) < written.house_edge
    for name, message in (
        ("casino-omaha-ultimate", "the written strategy is written for two hole cards, the best five of seven"),
        ("three-card-poker", "--written: Three Card Poker has no written strategy"),
    ):
        run = cli("solve", "--game", name, "--written")
        assert run.returncode == 2 and message in run.stderr and len(run.stderr.splitlines()) == 1
    sim = cli("simulate", "--game", path, "--strategy", "written", "--store", tmp_path / "store", "--hands", "50000")
    assert sim.returncode == 0 and f"exact {float(written.house_edge):.5%}" in sim.stdout, sim.stderr
    refused = cli("simulate", "--game", "three-card-poker", "--strategy", "written")
    assert refused.returncode == 2 and "--strategy written: Three Card Poker has no strategy in words" in refused.stderr


def test_advice_says_what_the_rules_do_and_what_it_costs_there(cli):
    # at the river of a full deck: A-7 on K-9-4-3-2 has 18 outs (a pair of the board or an
    # ace), so the rules bet, as optimal play does; 7-6 on A-K-Q-J-2 folds, 16 to a straight
    bet = cli("advise", "As 7d", "--game", "ultimate-texas-holdem", "--board", "Kc 9h 4s 3d 2c").stdout
    assert "the strategy in words: bet 1 (the best option;" in bet
    game = load_game("ultimate-texas-holdem")
    cases = {
        ("7s 6d", "Ac Kh Qs Jd 2c"): "fold",  # no hidden pair; every ten and many pairs beat it
        ("9s 9d", "Ac Kh 4s"): "bet 2",  # a hidden pair
        ("Qs 3s", "As 8s 2d"): "bet 2",  # four to a flush with the queen of it in the hand
        ("Kd 3c", "As 8s 2d"): "check",  # nothing the rules name
    }
    for (hole, board), want in cases.items():
        advice = advise_street(game, hole, board)
        cards = np.array([parse_cards(hole)]), np.array([parse_cards(board)])
        rule = flop_bets(*cards)[0] if advice.street == "flop" else river_bets(*cards)[0]
        assert advice.written == want == str((game.flop if advice.street == "flop" else game.river)[int(rule)])
