"""The written strategy of a Hold'em-hand game with decisions at the flop and the river
(Ultimate Texas Hold'em): the optimal pre-flop grid, then the rules of
:mod:`analysis.hands.written` at the flop and at the river. A small deck's every deal played
by those rules, card by card, equals the engine's counts (the river rule decided inside the
kernel board by board); the full deck's figure agrees with a simulation that plays the rules
hand by hand and settles with its own code."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations
from math import sqrt

import numpy as np
import pytest
from test_turns import SMALL_BONUS

from analysis.counting.streets import RESULTS6
from analysis.engine.street_simulation import simulate_streets
from analysis.engine.streets import solve_streets
from analysis.hands import written_turn
from analysis.hands.evaluate import best_strength
from analysis.hands.lookup import dealer_qualifier, tables
from analysis.hands.written import board_made, flop_bets, river_bets
from analysis.model.cards import parse_cards
from analysis.model.categories import CATEGORIES, PAIR, QUADS, TRIPS, TWO_PAIR
from analysis.model.errors import InputError
from analysis.model.game import game_from_document, load_game, shipped_games
from analysis.parallel.options import RunOptions
from analysis.report.render import document_html
from analysis.report.streets import build_street_report, street_document
from analysis.strategy.street_advice import advise_street
from test_streets import doc


def every_deal(deck: list[int], ordered: bool = False) -> np.ndarray:
    """Every deal of the deck: hole 2, flop 3, turn and river (unordered, or in their order
    for a game whose bets add up and decides between them), dealer 2."""
    runouts = permutations if ordered else combinations
    rows = []
    for hole in combinations(deck, 2):
        rest = [c for c in deck if c not in hole]
        for flop in combinations(rest, 3):
            left = [c for c in rest if c not in flop]
            for tr in runouts(left, 2):
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


def test_a_small_deck_of_texas_holdem_bonus_played_by_the_rules_card_by_card_equals_the_engine(tmp_path):
    # four to nine in two suits: pairs below and above sixes, runs and four of a suit often
    doc = SMALL_BONUS | {"cards": SMALL_BONUS["cards"] | {"ranks": "456789"}}
    game = game_from_document(doc, "small bonus")
    options = RunOptions(root=tmp_path, threads=2)
    optimal = solve_streets(game, options)
    written = solve_streets(game, options, written=True)
    d = every_deal(list(game.rules.deck), ordered=True)
    hole, flop, board, dealer = d[:, :2], d[:, 2:5], d[:, 2:7], d[:, 7:9]
    grid = optimal.preflop_choice(hole)
    pre = np.array([o.multiple if o.kind == "bet" else -1 for o in grid])
    at_flop, at_turn = written_turn.flop_bets(hole, flop), written_turn.turn_bets(hole, d[:, 2:6])
    for bets in (at_flop, at_turn):
        assert 0.1 < bets[pre > 0].mean() < 0.9
    player = best_strength(np.concatenate([hole, board], axis=1)).astype(np.int64)
    theirs = best_strength(np.concatenate([dealer, board], axis=1)).astype(np.int64)
    result = np.where(player > theirs, 3, np.where(player == theirs, 4, 5))
    multiple = pre + at_flop * game.flop[1].multiple + at_turn * game.turn[1].multiple
    counts: Counter = Counter(
        ("fold", 0, "", "") if p < 0 else ("showdown", int(m), CATEGORIES[c], RESULTS6[r])
        for p, m, c, r in zip(pre.tolist(), multiple.tolist(), tables().category[player].tolist(), result.tolist())
    )
    assert written.counts == dict(counts)
    assert written.total == len(d) == 2 * game.rules.total_combinations
    assert written.decisions[("turn", "bet 1")] == int(at_turn[pre > 0].sum())
    assert list(written.preflop["option"]) == list(optimal.preflop["option"])
    assert written.house_edge > optimal.house_edge


def test_the_rules_of_texas_holdem_bonus_read_the_cards_as_written():
    # the board's own pair, two pair or run never counts; a hole card must make the hand
    cases = {
        ("Ks Qd", "7s 7c 2h"): False,  # the flop's pair
        ("Ks 2d", "7s 7c 2h"): True,  # two pair with the deuce
        ("As 2d", "3c 4h 9d"): True,  # four in a row, the ace low
        ("Js 2s", "8s 5s Kd"): True,  # four of a suit
        ("Js 2d", "8s 5s Kd"): False,  # a gutshot, three of a suit
    }
    for (h, f), want in cases.items():
        assert written_turn.flop_bets(np.array([parse_cards(h)]), np.array([parse_cards(f)]))[0] == want, (h, f)
    cases = {
        ("6s 2d", "6h 9c Jd 3c"): True,  # a pair of sixes
        ("5s 2d", "5h 9c Jd 3c"): False,  # a pair of fives
        ("As Kd", "Qh Qc 9d 9c"): False,  # the board's two pair, an ace kicker
        ("2s 2d", "Qh Qc 9d 3c"): True,  # two pair, the deuces in the hand
        ("As 2s", "3s 4s 5s 9c"): True,  # a straight flush (four in a row of spades with the ace)
        ("Ad Kd", "5s 6s 7s 8s"): False,  # the board's own four in a row of spades, an ace high
        ("As Kd", "5s 6s 7s 8s"): True,  # the ace of spades makes a flush
        ("9s Kd", "5s 6s 7s 8s"): True,  # the nine makes a straight flush
        ("Kd Qd", "Jd Td 2c 3c"): True,  # four in a row of diamonds, both hole cards in it
    }
    for (h, b), want in cases.items():
        assert written_turn.turn_bets(np.array([parse_cards(h)]), np.array([parse_cards(b)]))[0] == want, (h, b)


def test_the_made_key_of_a_board_before_the_river_is_its_pairs_and_trips():
    # against Counter's reading of the ranks, on every 3-card and every 4-card board of a suitless rank set
    for size in (3, 4):
        boards = np.array(list(combinations(range(52), size)), dtype=np.int64)[::97]
        want = []
        for row in boards.tolist():
            by_count = sorted(((n, r) for r, n in Counter(c >> 2 for c in row).items()), reverse=True)
            n, r = by_count[0]
            if n >= 3:
                want.append((QUADS if n == 4 else TRIPS) * 14**5 + (r + 1) * 14**4)
            elif n == 2 and by_count[1][0] == 2:
                want.append(TWO_PAIR * 14**5 + (r + 1) * 14**4 + (by_count[1][1] + 1) * 14**3)
            else:
                want.append(PAIR * 14**5 + (r + 1) * 14**4 if n == 2 else 0)
        assert board_made(boards).tolist() == want


def test_a_game_the_rules_do_not_fit_is_refused():
    with pytest.raises(InputError, match="the written strategies are written for two hole cards"):
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


@pytest.mark.slow
def test_texas_holdem_bonus_played_by_the_published_rules_hand_by_hand_agrees(cli, tmp_path):
    # the rules played on random full-deck hands by the simulation (each flop and turn tested
    # on the hand's own cards) and settled by its own code, against the engine's exact figure
    game = load_game("texas-holdem-bonus")
    optimal, written = solve_streets(game), solve_streets(game, written=True)
    assert written.house_edge == Fraction(98632003669, 2317817502000)  # 4.2554%, 2.2185% above optimal play
    assert written.total == optimal.total and written.preflop["option"].equals(optimal.preflop["option"])
    sim = simulate_streets(written, 200_000, seed=11, written=True)
    assert sim.exact_house_edge == float(written.house_edge) and sim.z is not None and abs(sim.z) < 4, sim.z
    # the turn's bet rate: the rules' (37.13% of all deals) and not optimal play's (46.27%)
    bet = written.decisions[("turn", "bet 1")] / written.total
    assert abs(sim.decisions[("turn", "bet 1")] - bet) < 4 * sqrt(bet * (1 - bet) / sim.hands)
    assert abs(optimal.decisions[("turn", "bet 1")] / optimal.total - bet) > 20 * sqrt(bet * (1 - bet) / sim.hands)
    # the par sheet prints the rules and their cost; the advice names the rules' option
    sheet = cli("report", "--game", "texas-holdem-bonus", "--out", tmp_path / "sheet", "--no-progress")
    assert sheet.returncode == 0, sheet.stderr
    page = (tmp_path / "sheet" / "texas-holdem-bonus-optimal-par-sheet.html").read_text()
    assert "a pair of sixes or better made with a hole card" in page and "table-games-online.com" in page
    assert str(written.house_edge) in page and str(written.house_edge - optimal.house_edge) in page
    data = cli("solve", "--game", "texas-holdem-bonus", "--written", "--format", "json").json()
    assert data["strategy"] == "written" and Fraction(data["house_edge_exact"]) == written.house_edge
    advice = advise_street(game, "5s 4d", "5h 9c Jd 2c", taken=("bet 2", "check"))
    assert advice.written == "check" and advice.best == "bet 1"  # a pair of fives: the rules check, optimal bets


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
        ("casino-omaha-ultimate", "the written strategies are written for two hole cards, the best five of seven"),
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
