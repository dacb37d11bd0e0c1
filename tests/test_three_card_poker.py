"""Three Card Poker from its game file, through the one entry point: the published figures,
the strategy, every deal of a small deck settled by code of its own, and sampled deals."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_solve import check_shape

import analysis
from analysis.engine.no_board import weakest_played
from analysis.engine.no_board_simulation import deal_nets, sample_no_board
from analysis.engine.streets import solve_streets
from analysis.hands.three_card import three_card_values
from analysis.model.cards import format_cards, parse_cards
from analysis.model.errors import InputError
from analysis.model.game import game_from_document, load_game, shipped_games

SMALL_CARDS = {"hole": 3, "board": 0, "hand": "three-card", "ranks": "89TJQKA", "suits": "cdh"}


def doc(**changes: object) -> dict:
    """Three Card Poker's file as a document, with some tables replaced."""
    base = {
        "name": "tcp",
        "cards": {"hole": 3, "board": 0, "hand": "three-card"},
        "dealer": {"qualifier": "queen-high"},
        "betting": {"preflop": ["fold", "bet 1"]},
        "ante": {"pays": "even", "dealer_not_qualifying": "pays", "bonus": {"straight_flush": 5, "straight": 1}},
        "play": {"dealer_not_qualifying": "push"},
        "hand_bets": {"pair-plus": {"title": "Pair Plus", "pays": {"pair": 1}}},
    }
    return base | changes


@pytest.fixture(scope="module")
def tcp():
    return analysis.solve("three-card-poker")


def test_the_published_figures(tcp):
    """House edge 3.3730% of the ante, element of risk 2.01%; Pair Plus 7.28% (40/30/6/3/1)
    and 2.32% with a flush paying 4."""
    e = tcp.exact
    assert e.deals == 22_100 * 18_424
    assert round(float(e.house_edge) * 100, 4) == 3.3730
    assert round(float(e.element_of_risk) * 100, 2) == 2.01
    assert e.average_wager == 1 + e.call_rate
    check_shape(tcp)
    bets = tcp.hand_bets()
    assert bets["pair-plus"].hands == {
        "straight_flush": 48,
        "three_of_a_kind": 52,
        "straight": 720,
        "flush": 1096,
        "pair": 3744,
        "high_card": 16440,
    }
    assert round(float(bets["pair-plus"].exact.house_edge) * 100, 2) == 7.28
    flush4 = dict(load_game("three-card-poker").no_board.hand_bets["pair-plus"].pays) | {"flush": Fraction(4)}
    assert round(float(tcp.hand_bets({"pair-plus": flush4})["pair-plus"].exact.house_edge) * 100, 2) == 2.32


def test_the_strategy_plays_q_6_4_or_better_and_ties_go_to_the_fold(tcp):
    s = tcp.strategy
    assert weakest_played(tcp) == "Q-6-4"
    q64, q63 = (int(three_card_values([parse_cards(t)])[0]) for t in ("Qc 6d 4h", "Qc 6d 3h"))
    assert (s.loc[s["value"] >= q64, "option"] == "bet 1").all()
    assert (s.loc[s["value"] <= q63, "option"] == "fold").all()
    assert ((s["option"] == "bet 1") == (s["EV(bet 1)"] > s["EV(fold)"])).all()  # an exact tie folds
    assert tcp.decisions[("preflop", "bet 1")] == int(s.loc[s["option"] == "bet 1", "hands"].sum()) * 18_424


SMALL = {"hole": 3, "board": 0, "hand": "three-card", "ranks": "2346JQA", "suits": "cdh"}


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {  # another qualifier, the ante pushed and the play bet in action against it, two play bets
            "dealer": {"qualifier": "king-high"},
            "betting": {"preflop": ["fold", "bet 1", "bet 3"]},
            "ante": {"dealer_not_qualifying": "push", "bonus": {"three_of_a_kind": 2, "flush": 1}},
            "play": {"dealer_not_qualifying": "action"},
        },
    ],
    ids=["three card poker", "king high, ante pushed, play in action, bet 1 or 3"],
)
def test_every_deal_of_a_small_deck_settled_by_its_own_code(changes):
    """1,330 player hands x 816 dealer hands, each settled by the sampler's own code with the
    solved strategy: the same expected value and variance, exactly."""
    game = game_from_document(doc(cards=SMALL, **changes), "small")
    solved = analysis.solve(game)
    deck = list(game.rules.deck)
    players, dealers = [], []
    for hand in combinations(deck, 3):
        rest = np.array([c for c in deck if c not in hand])
        others = rest[np.array(list(combinations(range(len(rest)), 3)))]
        players.append(np.repeat([hand], len(others), axis=0))
        dealers.append(others)
    player, dealer = np.concatenate(players), np.concatenate(dealers)
    nets = deal_nets(game, player, dealer, solved.play_bets(player))
    total, squares = int(nets.sum()), int((nets * nets).sum())
    assert len(nets) == solved.exact.deals == 1330 * 816
    assert Fraction(total, len(nets)) == solved.exact.ev
    assert Fraction(squares, len(nets)) - solved.exact.ev**2 == solved.exact.variance
    assert 0 < solved.exact.call_rate < 1 and len(solved.decisions) == len(game.preflop)  # every option taken
    assert {o.dealer for o in solved.outcomes()} >= {"noqual_win", "win", "tie", "loss"}


def test_sampled_deals_agree_and_a_wrong_strategy_is_caught(tcp):
    ev = float(tcp.exact.ev)
    sampled = sample_no_board(tcp.game, tcp.play_bets, 500_000, seed=7)
    assert sampled.within(ev)
    always = sample_no_board(tcp.game, lambda h, seen: np.ones(len(h), dtype=np.int64), 500_000, seed=7)
    assert not always.within(ev)


@pytest.mark.parametrize(
    ("ranking", "hole", "category"), [("three-card", 3, "pair"), ("five-card", 5, "two_pair"), ("four-card", 4, "pair")]
)
def test_a_category_qualifier_is_that_hand_or_better(ranking, hole, category):
    """A dealer who qualifies with a category or better: every hand of the deck of that
    category or better is at least the floor, every lower one below it."""
    from analysis.hands.rankings import RANKINGS

    r = RANKINGS[ranking]
    hands = np.array(list(combinations(range(52), r.cards)))
    values = r.values(hands)
    at_least = r.category(values) >= r.categories.index(category)
    floor = r.qualifying(None, category)
    assert (values[at_least] >= floor).all() and (values[~at_least] < floor).all() and at_least.any()


def test_a_game_whose_dealer_qualifies_with_a_pair():
    """The same file with ``qualifier = "pair"``: the rules say so, and the dealer, who
    qualifies less often than with a queen high, gives the player more; every state's
    counts against every dealer hand played out on a small deck."""
    from analysis.counting.no_board import count_state
    from analysis.engine.no_board import no_board_counts
    from analysis.hands.rankings import RANKINGS
    from analysis.report.no_board import rules_of_play

    game = game_from_document(doc(dealer={"qualifier": "pair"}), "pair.toml")
    solved = analysis.solve(game)
    assert "the dealer qualifies with a pair or better" in " ".join(
        clause for section in rules_of_play(solved) for clause in section.clauses
    )
    assert solved.exact.house_edge < analysis.solve(game_from_document(doc(), "q.toml")).exact.house_edge
    small = game_from_document(doc(dealer={"qualifier": "pair"}, cards=SMALL_CARDS), "small.toml")
    three = RANKINGS["three-card"]
    counted = no_board_counts(small)
    floor = three.qualifying(None, "pair")
    for hand, row in zip(counted.hands.tolist()[::7], counted.counts[::7]):
        assert (count_state(small.rules.deck, hand, [], three.values, floor) == row).all()
    assert counted.counts[:, :3].sum() > 0  # some dealer hands do not qualify


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"dealer": {"qualifier": "queen"}}, r"x.toml: \[dealer\] qualifier: 'RANK-high'"),
        ({"cards": {"hole": 2, "board": 0, "hand": "three-card"}}, r"x.toml: \[cards\] hole: a three-card hand is 3"),
        ({"cards": {"hole": 3, "board": 1, "hand": "three-card"}}, r"x.toml: \[cards\] board is 0"),
        ({"cards": {"hole": 3, "board": 0, "hand": "best-five"}}, r"x.toml: \[cards\] hand of a game without a board"),
        ({"ante": {"bonus": {"full_house": 3}}}, r"x.toml: \[ante\] bonus: 'full_house' is not a category here"),
        ({"hand_bets": {"pp": {"pays": {"pair": -1}}}}, r"x.toml: \[hand_bets.pp\] pays: pair: a pay is between"),
        ({"hand_bets": {"pp": {"odds": 1}}}, r"x.toml: \[hand_bets.pp\]: a table of 'title' and 'pays'"),
        ({"betting": {"preflop": ["check", "bet 1"]}}, r"x.toml: \[betting\] a game without a board decides once"),
        ({"betting": {"preflop": ["fold", "bet 1"], "river": ["fold", "bet 1"]}}, "decides once"),
    ],
)
def test_a_bad_file_is_refused_naming_file_and_key(changes, message):
    with pytest.raises(InputError, match=message):
        game_from_document(doc(**changes), "x.toml")


def test_the_board_games_load_as_before():
    """Their files name neither a board nor the no-board keys, and refuse those keys."""
    for name in shipped_games():
        game = load_game(name)
        assert (game.no_board is None) == (name not in ("three-card-poker", "caribbean-stud", "four-card-poker"))
        if game.no_board is None:
            assert game.settlement.ante_bonus is None
    with pytest.raises(InputError, match="Three Card Poker has no board or no dealer: solve it with analysis.solve"):
        solve_streets(load_game("three-card-poker"))
    holdem = {
        "name": "h",
        "cards": {"hole": 2, "hand": "best-five"},
        "dealer": {"qualifier": "4"},
        "betting": {"flop": ["fold", "bet 2"]},
    }
    assert load_game("casino-holdem").rules == game_from_document(holdem | {"name": "casino-holdem"}).rules
    with pytest.raises(InputError, match="unknown keys: hand_bets"):
        game_from_document(holdem | {"hand_bets": {}})
    with pytest.raises(InputError, match=r"\[ante\] has unknown keys 'bonus'"):
        game_from_document(holdem | {"ante": {"bonus": {"straight": 1}}})


def test_the_commands_that_take_it_and_the_one_line_of_those_that_do_not(cli):
    solved = cli("solve", "--game", "three-card-poker", "--format", "json").json()
    assert solved["house_edge_exact"] == str(analysis.solve("three-card-poker").exact.house_edge)
    assert solved["weakest_played"] == "Q-6-4"
    assert solved["hand_bets"]["pair-plus"]["house_edge_exact"] == "402/5525"
    wagers = {w["wager"]: Fraction(w["expected_exact"]) for w in solved["wagers"]}
    assert list(wagers) == ["ante", "play", "ante_bonus"]
    assert sum(wagers.values()) == -Fraction(solved["house_edge_exact"])  # the wagers split the edge
    assert wagers["ante_bonus"] == Fraction(48 * 5 + 52 * 4 + 720, 22_100)  # every bonus hand is played
    report = cli("report", "--game", "three-card-poker", "--format", "json").json()
    assert {k: v for k, v in report.items() if k in solved} == {k: v for k, v in solved.items() if k in report}
    assert set(solved) - set(report) == {"weakest_played", "strategy_in_words", "hand_bets"}
    assert solved["strategy_in_words"] == "play Q-6-4 or better, fold the rest"
    csv = cli("report", "--game", "three-card-poker", "--format", "csv").stdout.splitlines()
    assert csv[1].startswith("folded,") and csv[2].startswith("played,once the ante,straight flush,")
    play = cli("advise", "--game", "three-card-poker", "Qh 6d 4c", "--format", "json").json()
    fold = cli("advise", "--game", "three-card-poker", "Qs 6s 3c", "--format", "json").json()
    assert (play["best"], fold["best"]) == ("bet 1", "fold")
    assert Fraction(play["evs"]["bet 1"]) > -1 > Fraction(fold["evs"]["bet 1"])
    sim = cli("simulate", "--game", "three-card-poker", "--hands", "100000", "--seed", "3", "--format", "json").json()
    assert sim["exact_house_edge"] == float(Fraction(solved["house_edge_exact"])) and abs(sim["z"]) < 4
    tuned = cli("tune", "--game", "three-card-poker", "--set", "straight=2", "--format", "json").json()
    # every straight is played, so a bonus of 2 for 1 takes 720 / 22,100 of an ante off the edge
    assert Fraction(tuned["house_edge_exact"]) == Fraction(686689, 20358520) - Fraction(720, 22100)
    assert tuned["wager"] == "ante bonus"
    run = cli("protect", "--game", "three-card-poker", "--turn")
    assert run.returncode == 2 and "`--exposed N` only" in run.stderr and len(run.stderr.splitlines()) == 1


def test_the_par_sheet_in_words(cli, tmp_path):
    run = cli("report", "--game", "three-card-poker", "--out", tmp_path / "sheet")
    assert run.returncode == 0, run.stderr
    stem = tmp_path / "sheet" / "three-card-poker-optimal-par-sheet"
    assert all(Path(f"{stem}.{ext}").stat().st_size > 0 for ext in ("xlsx", "html", "pdf"))
    sheets = pd.read_excel(f"{stem}.xlsx", sheet_name=None)
    assert {"Summary", "Rules", "Strategy", "Return table", "Odds per wager", "Bets on the hand"} <= set(sheets)
    protection = sheets["Game protection"]
    exact = protection[[c for c in protection.columns if c.lower() == "house edge (exact)"][0]]
    assert exact.tolist() == ["686689/20358520", "-443162/12724075", "-2501649/14541800"]  # as published
    page = Path(f"{stem}.html").read_text()
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<(style|script)[^>]*>.*?</\1>|<img[^>]*>", "", page, flags=re.S))
    assert "play Q-6-4 or better" in text and "3.3730%" in text and "686689/20358520" in text
    assert "king, ace, two is not a straight" in text and "queen high or better" in text
    assert "Game protection" in text and "-3.4829%" in text
    assert not re.search(r"\b\w+_\w+\b|bet 1|preflop|before the flop", text)  # in words: no identifiers


def test_an_exact_tie_folds():
    """On a deck of 2 to 6, queen, king and ace in two suits, king-six-four unsuited plays to an
    expected -1 ante exactly, as folding does (its dealer hands settled one by one by the
    sampler's own code say so too): the option that risks less, the fold, is taken."""
    cards = {"hole": 3, "board": 0, "hand": "three-card", "ranks": "23456QKA", "suits": "cd"}
    game = game_from_document(doc(cards=cards), "small")
    solved = analysis.solve(game)
    assert solved.evs("Kd 6c 4c") == {"fold": -1, "bet 1": -1}
    assert solved.play_bets(np.array([parse_cards("Kd 6c 4c")]))[0] == 0
    hand = parse_cards("Kd 6c 4c")
    others = np.array(list(combinations([c for c in game.rules.deck if c not in hand], 3)))
    nets = deal_nets(game, np.repeat([hand], len(others), axis=0), others, np.ones(len(others), dtype=np.int64))
    assert Fraction(int(nets.sum()), len(others)) == -1


def test_verify_runs_its_checks_and_a_wrong_settlement_fails(cli, monkeypatch):
    from analysis.report import no_board_verification as v
    from analysis.report.no_board_verification import CHECKS

    run = cli("verify", "--game", "three-card-poker", "--format", "json", "--hands", "200000")
    assert run.returncode == 0, run.stderr
    checks = run.json()["checks"]
    assert [c["name"] for c in checks] == list(CHECKS) and all(c["passed"] for c in checks)
    assert checks[-1]["found"] == "three-card-poker 3.3730% (exactly 686689/20358520)"
    settled = v.deal_nets
    monkeypatch.setattr(v, "deal_nets", lambda *a: -settled(*a))  # every deal's result the wrong way round
    failed = cli("verify", "--game", "three-card-poker", "--format", "json", "--hands", "200000")
    assert failed.returncode == 1
    checks = json.loads(failed.stdout)["checks"]
    assert [c["name"] for c in checks if not c["passed"]] == ["small-deck deals settled apart"]


def test_a_flashed_dealer_card_gives_the_published_edge_and_strategy(cli):
    """One dealer card seen before the decision (apheat.net, "Three Card Poker Hole-Card Play:
    Update #1"): the player's edge 3.4829%, hit frequency 54.2203%; the published strategy
    (a 2 to a jack seen: always play; a queen, king or ace: play that card-9-2 or better) is
    the exact optimal decision in every state."""
    from analysis.protection.no_board import exposure_no_board

    e = exposure_no_board(load_game("three-card-poker"), 1)
    exact = e.exposed.exact
    assert (f"{float(-exact.house_edge):.4%}", f"{float(exact.hit_frequency):.4%}") == ("3.4829%", "54.2203%")
    assert exact.house_edge == Fraction(-443162, 12724075) and exact.deals == 22_100 * 49 * 1_128
    s = e.exposed.states
    seen, values = s.seen[:, 0] >> 2, three_card_values(s.hands[s.cls])
    floor = {r: three_card_values(np.array([[r * 4 + 1, 7 * 4, 0]]))[0] for r in (10, 11, 12)}  # Q/K/A-9-2 offsuit
    published = np.where(seen <= 9, True, values >= np.array([floor.get(r, 0) for r in seen.tolist()]))
    assert np.array_equal(published, s.chosen == 1)
    assert sum(e.by_rank.values()) / 13 != 0 and e.plays_folded > e.folds_played > 0
    run = cli("protect", "--game", "three-card-poker", "--exposed", "2", "--format", "json").json()
    assert run["house_edge_exact"] == "-2501649/14541800" and run["exposed"] == 2


def examples_are_played_as_the_strategy_plays_them(solved) -> list[str]:
    """Each worked example's decision is the best option of its state counted on its own (every
    dealer hand played out; a tie to the fold) and its net is the sampler's own settlement."""
    from analysis.engine.no_board import state_evs
    from analysis.report.no_board import worked_examples

    nb = solved.game.no_board
    cases = []
    for case, deal in worked_examples(solved):
        up = format_cards(deal.dealer[: nb.up]) if nb.up else None
        evs = state_evs(solved.game, format_cards(deal.player), up)
        assert evs == deal.evs
        assert deal.taken == max(evs, key=lambda o: (evs[o], o == "fold")), case
        bet = 0 if deal.taken == "fold" else int(deal.taken.split()[1])
        net = deal_nets(solved.game, np.array([deal.player]), np.array([deal.dealer]), np.array([bet]))[0]
        assert Fraction(net).limit_denominator(1000) == deal.net, case
        cases.append(case)
    return cases


def test_each_worked_example_is_played_as_the_strategy_plays_it(tcp):
    cases = examples_are_played_as_the_strategy_plays_them(tcp)
    assert {"The player folds", "The dealer does not qualify", "A tie", "The dealer's hand is higher"} <= set(cases)
    assert "The player wins with straight flush" in cases


def test_a_side_bet_on_the_final_hand_prices_pair_plus_as_the_game_does(cli, tmp_path):
    """Pair Plus written as a side bet on the player's final hand: the side-bet machinery
    (every deal's final hand, whatever the player does) gives the game's own Pair Plus edge,
    and with the main game the two edges add up per hand."""
    bet = tmp_path / "pp.csv"
    bet.write_text(
        "bet,Pair Plus\nkind,final\nforfeit,no\ngame,three-card-poker\nline,pays\n"
        "straight_flush,40\nthree_of_a_kind,30\nstraight,6\nflush,3\npair,1\n"
    )
    data = cli("sidebet", "--game", "three-card-poker", "--bet", bet, "--format", "json").json()
    assert data["house_edge_exact"] == "402/5525"  # the hand bet's, as published (7.28%)
    combined = Fraction(data["combined_house_edge_exact"])
    assert combined == Fraction(686689, 20358520) + Fraction(402, 5525)
    refused = cli("sidebet", "--game", "mississippi-stud", "--bet", bet)
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1


def test_pays_too_fine_for_exact_sums_are_refused():
    bonus = {"straight": "1/999983", "three_of_a_kind": "1/999979", "straight_flush": "1/999961"}
    game = game_from_document(doc(ante={"pays": "even", "dealer_not_qualifying": "pays", "bonus": bonus}), "fine")
    with pytest.raises(InputError, match="too fine to sum exactly"):
        analysis.solve(game)
