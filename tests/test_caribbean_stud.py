"""Caribbean Stud from its game file: five cards each, one of the dealer's seen before the
decision, an ace-king qualifier and a pay table on the call. Checked against the published
return table line by line and the published total loss of five written strategies (Wizard of
Odds, over all 19,933,230,517,200 deals), every state of small decks and random states of
the full deck against every dealer hand played out, every deal of a small deck settled by
the sampler's own code, and sampled deals."""

from __future__ import annotations

import html
import re
from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_solve import check_shape

import analysis
from analysis.counting.no_board import count_no_board, count_state
from analysis.engine.no_board import cost_of, state_evs
from analysis.engine.no_board_simulation import deal_nets, sample_no_board
from analysis.hands.rankings import RANKINGS
from analysis.model.cards import format_cards
from analysis.model.errors import InputError
from analysis.model.game import game_from_document, load_game, shipped_games
from analysis.report.no_board import strategy_words
from analysis.report.no_board_sheet import no_board_sheets
from analysis.strategy.caribbean_rules import RULES

FIVE = RANKINGS["five-card"]

#: The published return table (Wizard of Odds, "Caribbean Stud Poker", U.S. rules): deals of each line.
PUBLISHED = {
    "royal_flush": 16_759_740,
    "straight_flush": 156_929_720,
    "four_of_a_kind": 2_832_435_800,
    "full_house": 16_624_475_280,
    "flush": 21_856_990_280,
    "straight": 43_805_516_100,
    "three_of_a_kind": 234_242_908_320,
    "two_pair": 488_012_139_360,
    "pair or less": 2_343_248_003_808,
    "dealer does not qualify": 4_532_514_033_720,
    "push": 321_623_100,
    "fold": 9_523_005_974_460,
    "dealer wins": 2_726_592_727_512,
}
#: The published total loss of each strategy over every deal, in antes (the same source).
PUBLISHED_LOSS = {
    "three rules of thumb": 1_041_417_758_724,
    "ace-king-jack-8-3 or better": 1_059_715_400_580,
    "a pair or better": 1_090_272_101_460,
    "ace-king or better": 1_132_600_203_540,
    "always call": 3_310_360_338_060,
}


def doc(**changes: object) -> dict:
    base = {
        "name": "stud",
        "cards": {"hole": 5, "board": 0, "hand": "five-card"},
        "dealer": {"qualifier": "ace-king", "up": 1},
        "betting": {"preflop": ["fold", "bet 2"]},
        "ante": {"pays": "even", "dealer_not_qualifying": "pays"},
        "play": {
            "dealer_not_qualifying": "push",
            "pays": {"straight_flush": 50, "flush": 5, "pair": 1, "high_card": 1},
        },
    }
    return base | changes


@pytest.fixture(scope="module")
def stud():
    return analysis.solve("caribbean-stud")


@pytest.mark.slow
def test_the_published_return_table_to_the_deal(stud):
    lines: Counter[str] = Counter()
    for o in stud.outcomes():
        if o.ended == "fold":
            lines["fold"] += o.deals
        elif o.dealer.startswith("noqual"):
            lines["dealer does not qualify"] += o.deals
        elif o.dealer == "tie":
            lines["push"] += o.deals
        elif o.dealer == "loss":
            lines["dealer wins"] += o.deals
        else:
            lines[o.final_hand if o.final_hand not in ("pair", "high_card") else "pair or less"] += o.deals
    assert dict(lines) == PUBLISHED
    assert stud.exact.deals == 19_933_230_517_200
    assert stud.exact.house_edge == Fraction(1_041_372_912_372, 19_933_230_517_200)
    assert (f"{float(stud.exact.house_edge):.3%}", f"{float(stud.exact.element_of_risk):.3%}") == ("5.224%", "2.555%")
    check_shape(stud)


@pytest.mark.slow
def test_the_written_strategies_cost_what_is_published(stud):
    s = stud.states
    hands, up = s.hands[s.cls], s.seen[:, 0]
    for name, loss in PUBLISHED_LOSS.items():
        cost = cost_of(stud, RULES[name].plays(hands, up))
        assert cost.net == -loss, name
        assert cost.cost > 0  # none beats the optimal strategy
    optimal = cost_of(stud, stud.states.chosen == 1)
    assert optimal.net == -1_041_372_912_372 and optimal.cost == 0
    assert optimal.element_of_risk == stud.exact.element_of_risk
    table = no_board_sheets(stud, None)["Written strategies"]
    assert table["net over every deal (antes)"].tolist()[1:] == [f"{-v:,}" for v in PUBLISHED_LOSS.values()]


@pytest.mark.slow
def test_the_strategy_calls_pairs_folds_below_ace_king_and_decides_ace_king_by_the_up_card(stud):
    words = strategy_words(stud)
    assert words.startswith("play A-K-Q-J-2 or better whatever the dealer shows; fold A-Q-J-T-9 or worse")
    by_category = stud.strategy.groupby("category")["option"].agg(set)
    assert all(by_category[c] == {"bet 2"} for c in FIVE.categories[1:])
    high = stud.strategy[stud.strategy["category"] == "high_card"]
    some = high[high["option"] == "by the up card"]
    assert len(some) == 7_800 and all(h.startswith("A") and h.split()[1][0] == "K" for h in some["hand"])
    assert stud.evs("As Kd 9c 5h 2s", "9d") == state_evs(stud.game, "As Kd 9c 5h 2s", "9d")
    assert stud.evs("As Kd 9c 5h 2s", "9d")["bet 2"] == Fraction(-32360, 32637)  # > -1: the matched 9 calls
    assert stud.evs("As Kd 9c 5h 2s", "8d")["bet 2"] < -1


@pytest.mark.slow
def test_random_full_deck_states_against_every_dealer_hand(stud):
    """40 random (hand, up card) states, not only the classes' own members: the kernel's
    counts and the decision against the 163,185 dealer hands of each, played out."""
    rng = np.random.default_rng(5)
    for _ in range(40):
        cards = rng.choice(52, size=6, replace=False)
        hand, up = format_cards(sorted(cards[:5].tolist())), format_cards([int(cards[5])])
        direct = state_evs(stud.game, hand, up)
        assert stud.evs(hand, up) == direct
        bet = stud.play_bets(np.array([cards[:5]]), np.array([[cards[5]]]))[0]
        assert bet == (2 if direct["bet 2"] > direct["fold"] else 0)


@pytest.mark.parametrize("ranks, suits", [("79JQKA", "cd"), ("9TJQKA", "cd"), ("89TJQK", "cdh")])
def test_every_state_of_small_decks_against_every_dealer_hand(ranks, suits):
    game = game_from_document(doc(cards={"hole": 5, "board": 0, "hand": "five-card", "ranks": ranks, "suits": suits}))
    deck = game.rules.deck
    floor = FIVE.floor((12, 11))
    counted = count_no_board(deck, 5, FIVE.values, floor, seen=1)
    for hand, up, row in zip(counted.hands.tolist(), counted.seen[:, 0].tolist(), counted.counts):
        assert (count_state(deck, hand, [up], FIVE.values, floor) == row).all()
    n = len(deck)
    assert int(counted.weight.sum()) == len(list(combinations(deck, 5))) * (n - 5)  # a state per hand and up card
    assert counted.deals == len(list(combinations(deck, 5))) * (n - 5) * len(list(combinations(range(n - 6), 4)))
    assert counted.counts[:, :3].sum() > 0 and counted.counts[:, 3:].sum() > 0  # the qualifier met both ways


@pytest.mark.parametrize("ranks, suits", [("TJQKA", "cdh"), ("9TJQK", "cdh")])
def test_every_deal_of_a_small_deck_settled_by_its_own_code(ranks, suits):
    """Each player hand, each card the dealer shows, each of his other hands: settled by the
    sampler's code with the solved strategy, the same EV and variance, exactly."""
    game = game_from_document(doc(cards={"hole": 5, "board": 0, "hand": "five-card", "ranks": ranks, "suits": suits}))
    solved = analysis.solve(game)
    deck = list(game.rules.deck)
    players, dealers = [], []
    for hand in combinations(deck, 5):
        for up in (c for c in deck if c not in hand):
            rest = [c for c in deck if c not in hand and c != up]
            others = np.array(list(combinations(rest, 4)))
            players.append(np.repeat([hand], len(others), axis=0))
            dealers.append(np.hstack([np.full((len(others), 1), up), others]))
    player, dealer = np.concatenate(players), np.concatenate(dealers)
    bets = solved.play_bets(player, dealer[:, :1])
    nets = deal_nets(game, player, dealer, bets)
    assert len(nets) == solved.exact.deals
    assert Fraction(int(nets.sum()), len(nets)) == solved.exact.ev
    assert Fraction(int((nets * nets).sum()), len(nets)) - solved.exact.ev**2 == solved.exact.variance
    assert len(solved.decisions) == 2  # both options taken
    check_shape(solved)


@pytest.mark.slow
def test_sampled_deals_agree_and_a_wrong_strategy_is_caught(stud):
    ev = float(stud.exact.ev)
    assert sample_no_board(stud.game, stud.play_bets, 400_000, seed=11).within(ev)
    blind = sample_no_board(stud.game, lambda h, seen: np.full(len(h), 2), 400_000, seed=11)
    assert not blind.within(ev)  # calling every hand (16.6% of the ante)


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"dealer": {"qualifier": "ace-king", "up": 2}}, r"\[dealer\] up: the dealer's cards dealt face up"),
        ({"dealer": {"qualifier": "king-ace"}}, r"\[dealer\] qualifier: 'RANK-high'"),
        ({"dealer": {"qualifier": "ace"}}, r"\[dealer\] qualifier: 'RANK-high'"),
        ({"play": {"pays": {"five_aces": 3}}}, r"\[play\] pays: unknown category 'five_aces'"),
        ({"cards": {"hole": 4, "board": 0, "hand": "five-card"}}, r"\[cards\] hole: a five-card hand is 5"),
    ],
)
def test_a_bad_file_is_refused_naming_file_and_key(changes, message):
    with pytest.raises(InputError, match=message):
        game_from_document(doc(**changes), "x.toml")


def test_a_board_game_refuses_a_play_table():
    holdem = {
        "name": "h",
        "cards": {"hole": 2, "hand": "best-five"},
        "dealer": {"qualifier": "4"},
        "betting": {"flop": ["fold", "bet 2"]},
        "play": {"pays": {"flush": 2}},
    }
    with pytest.raises(InputError, match=r"\[play\] has unknown keys 'pays'"):
        game_from_document(holdem)


def test_advise_and_the_one_line_of_the_commands_that_do_not_take_it(cli):
    call = cli("advise", "--game", "caribbean-stud", "As Kd 9c 5h 2s", "--up", "9d", "--format", "json").json()
    fold = cli("advise", "--game", "caribbean-stud", "As Kd 9c 5h 2s", "--up", "8d", "--format", "json").json()
    assert (call["best"], fold["best"], call["up"]) == ("bet 2", "fold", "9d")
    assert call["evs"]["bet 2"] == "-32360/32637"
    for args, message in [
        (("advise", "--game", "caribbean-stud", "As Kd 9c 5h 2s"), "give the dealer's up card too"),
        (("advise", "--game", "caribbean-stud", "As Kd 9c 5h 2s", "--up", "As"), "a card twice"),
        (("advise", "--game", "three-card-poker", "Qh 6d 4c", "--up", "9d"), "the dealer shows no card"),
        (("advise", "--game", "casino-holdem", "As Kd", "--flop", "2c 3d 4h", "--up", "9d"), "--up for Caribbean"),
    ]:
        run = cli(*args)
        assert run.returncode == 2 and message in run.stderr and len(run.stderr.splitlines()) == 1, run.stderr


def test_the_par_sheet_of_a_small_deck_file(cli, tmp_path):
    """A designer's own file (a 24-card deck): the commands take it and the sheet is in words."""
    text = Path(analysis.__file__).parent.joinpath("model/games/caribbean-stud.toml").read_text()
    game_file = tmp_path / "small-stud.toml"
    game_file.write_text(
        text.replace('name = "caribbean-stud"', 'name = "small-stud"').replace(
            'hand = "five-card"', 'hand = "five-card"\nranks = "9TJQKA"'
        )
    )
    solved = cli("solve", "--game", game_file, "--format", "json").json()
    report = cli("report", "--game", game_file, "--format", "json").json()
    assert {k: v for k, v in report.items() if k in solved} == {k: v for k, v in solved.items() if k in report}
    assert set(solved) - set(report) == {"strategy_in_words", "hand_bets"}
    sim = cli("simulate", "--game", game_file, "--hands", "100000", "--seed", "3", "--format", "json").json()
    assert abs(sim["z"]) < 4
    run = cli("report", "--game", game_file, "--out", tmp_path / "sheet")
    assert run.returncode == 0, run.stderr
    stem = tmp_path / "sheet" / "small-stud-optimal-par-sheet"
    sheets = pd.read_excel(f"{stem}.xlsx", sheet_name=None)
    assert {"Summary", "Rules", "Strategy", "Return table", "Odds per wager", "Written strategies"} <= set(sheets)
    assert "Bets on the hand" not in sheets and "Game protection" not in sheets  # none; its hole card: `protect`
    page = html.unescape(Path(f"{stem}.html").read_text())
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<(style|script)[^>]*>.*?</\1>|<img[^>]*>", "", page, flags=re.S))
    assert "one of the dealer's is dealt face up" in text and "ace and king or better" in text
    assert "100 to 1" in text and "three rules of thumb" in text
    assert "counted exactly in minutes by casino-omaha protect --game GAME-FILE --exposed 1" in text
    # once `protect` has counted the hole card, the sheet shows what it kept
    store = tmp_path / "store"
    hole = cli("protect", "--game", game_file, "--exposed", "1", "--store", store, "--format", "json").json()
    run = cli("report", "--game", game_file, "--store", store, "--out", tmp_path / "sheet")
    assert run.returncode == 0, run.stderr
    protection = pd.read_excel(f"{stem}.xlsx", sheet_name="Game protection", dtype=str)
    protection.columns = [c.lower() for c in protection.columns]
    assert protection["house edge (exact)"].tolist() == [report["house_edge_exact"], hole["house_edge_exact"]]
    assert protection["the player saw"].tolist()[1] == "one hole card beside the up card"
    assert not re.search(r"\b\w+_\w+\b|bet 2|preflop|before the flop", text)  # in words: no identifiers


def test_a_pay_is_tuned_on_counts_made_once_and_a_target_solved_exactly():
    """The play bet's table of a small-deck Caribbean Stud changed through the tuner (its counts
    made once) equals the changed file solved from nothing; a target edge is hit exactly."""

    from analysis.tuning.street_tuner import StreetTuner

    cards = {"hole": 5, "board": 0, "hand": "five-card", "ranks": "79JQKA", "suits": "cdh"}
    game = game_from_document(doc(cards=cards))
    tuner = StreetTuner(game)
    assert tuner.wager == "play" and tuner.table().pays["flush"] == 5
    changed = tuner.evaluate(tuner.table().with_pays({"flush": 9, "pair": 2}))
    pays = doc()["play"]["pays"] | {"flush": 9, "pair": 2}
    direct = analysis.solve(game_from_document(doc(cards=cards, play={"dealer_not_qualifying": "push", "pays": pays})))
    assert changed.exact == direct.exact and changed.counts == direct.counts
    assert changed.exact.house_edge != analysis.solve(game).exact.house_edge
    solved = tuner.solve(Fraction(-1, 10), "pair", (Fraction(0), Fraction(10)), False, tuner.table())
    exact = solved["exact_pays"].iloc[0]["pair"]
    assert tuner.evaluate(tuner.table().with_pays({"pair": exact})).exact.house_edge == Fraction(-1, 10)
    with pytest.raises(InputError, match="unknown categories: five_of_a_kind"):
        tuner.evaluate(tuner.table().with_pays({"five_of_a_kind": 3}))
    three = load_game("three-card-poker")
    bonus = StreetTuner(three)
    assert bonus.wager == "ante bonus"
    with pytest.raises(InputError, match="Three Card Poker has no full_house"):
        bonus.evaluate(bonus.table().with_pays({"full_house": 3}))


@pytest.mark.slow
def test_each_worked_example_is_played_as_the_strategy_plays_it(stud):
    from test_three_card_poker import examples_are_played_as_the_strategy_plays_them

    cases = examples_are_played_as_the_strategy_plays_them(stud)
    assert {"The player folds", "The dealer does not qualify", "The dealer's hand is higher"} <= set(cases)
    assert sum(c.startswith("The player wins with") for c in cases) == 3


def test_a_flashed_hole_card_beside_the_up_card_is_sampled_state_by_state(cli, tmp_path):
    """Random states each decided exactly against every dealer hand: on Three Card Poker
    (whose one flashed card is also counted exactly) the estimate agrees with the exact
    3.4829% within 4 standard errors, the control variate cutting the error; on Caribbean
    Stud (a small deck here) it agrees with the exact count the command makes."""
    from analysis.protection.no_board import sampled_exposure_no_board

    three = load_game("three-card-poker")
    exact = -443162 / 12724075
    sampled = sampled_exposure_no_board(three, 1, 3000, seed=4)
    plain = sampled_exposure_no_board(three, 1, 3000, seed=4, control=False)
    assert abs(sampled.house_edge - exact) < 4 * sampled.standard_error
    assert abs(plain.house_edge - exact) < 4 * plain.standard_error
    assert sampled.standard_error < plain.standard_error / 3
    text = Path(analysis.__file__).parent.joinpath("model/games/caribbean-stud.toml").read_text()
    small = tmp_path / "small-stud.toml"
    small.write_text(text.replace('hand = "five-card"', 'hand = "five-card"\nranks = "9TJQKA"'))
    data = cli("protect", "--game", small, "--exposed", "1", "--format", "json").json()
    stud = load_game(str(small))
    drawn = sampled_exposure_no_board(stud, 1, 300, seed=3)
    low, high = drawn.interval()
    assert data["states"] == 2_376 * comb(19, 2) and low < data["house_edge"] < high
    assert data["base_house_edge"] == float(analysis.solve(small).exact.house_edge)
    assert data["house_edge"] < data["base_house_edge"] and Fraction(data["house_edge_exact"]) != 0


#: Five-card hands of each category of a 52-card deck (of 2,598,960): the closed forms.
FIVE_CARD_HANDS = {"royal_flush": 4, "straight_flush": 36, "four_of_a_kind": 624, "full_house": 3744, "flush": 5108}


@pytest.mark.slow
def test_the_progressive_jackpot_from_the_five_card_categories(stud):
    """The Caribbean Jackpot (a stake of 1 on the player's five cards) counted from the
    five-card closed forms: its return at any meter, the break-even meter, the long-run
    return; and the figures its file's comment states."""
    from analysis.sidebets.bet import SideBet
    from analysis.sidebets.progressive import analyse_progressive
    from analysis.sidebets.street_bets import StreetSideBets

    bet = SideBet.load("caribbean-jackpot")
    fixed = {"four_of_a_kind": 500, "full_house": 100, "flush": 50}
    n = FIVE_CARD_HANDS

    def returned(meter: Fraction) -> Fraction:  # what a stake of 1 brings back per hand, on average
        pays = fixed | {"royal_flush": meter, "straight_flush": meter / 10}
        return Fraction(sum(n[c] * (pays[c] + 1) for c in n), 2_598_960)

    bets = StreetSideBets(stud)
    for meter in (Fraction(0), Fraction(10_000), Fraction(123_456, 7)):
        assert bets.evaluate(bet, meter=meter).exact.player_return == returned(meter)
    p = analyse_progressive(bets, bet, strategy="separate")
    slope = Fraction(n["royal_flush"] + n["straight_flush"] / Fraction(10), 2_598_960)
    assert p.slope == slope and p.base == returned(Fraction(0))
    assert p.break_even == (1 - returned(Fraction(0))) / slope and returned(p.break_even) == 1
    assert p.reset_probability == Fraction(4, 2_598_960)
    assert p.long_run_return == returned(Fraction(0)) + Fraction(20, 100) + p.reset_probability * 10_000
    stated = (Path(__file__).parents[1] / "analysis" / "sidebets" / "shipped" / "caribbean-jackpot.csv").read_text()
    assert f"{float(returned(Fraction(10_000))):.2%}" in stated and f"{float(p.break_even):,.2f}" in stated
    assert f"{float(p.long_run_return):.2%}" in stated


def test_sidebet_takes_the_meter_of_a_game_without_a_board(cli, tmp_path):
    """The command's progressive block is the API's, on a small-deck Caribbean Stud."""
    from analysis.sidebets.progressive import analyse_progressive
    from analysis.sidebets.street_bets import StreetSideBets

    path = tmp_path / "small.toml"
    text = shipped_games()["caribbean-stud"].read_text()
    path.write_text(text.replace("[cards]\n", '[cards]\nranks = "9TJQKA"\n'))
    run = cli("sidebet", "--game", path, "--bet", "caribbean-jackpot", "--meter", "250000", "--format", "json")
    assert run.returncode == 0, run.stderr
    got = run.json()["progressive"]
    want = analyse_progressive(StreetSideBets(analysis.solve(path)), "caribbean-jackpot", 1, 250_000, "separate")
    assert got["long_run_return_exact"] == str(want.long_run_return) and got["meter"] == 250_000
    assert got["return_per_unit_of_meter"] == float(want.slope) and got["break_even_meter_exact"] == "0"
    # on 24 cards a royal flush is common: no flush pay brings the return down to 90%
    run = cli("sidebet", "--game", path, "--bet", "caribbean-jackpot", "--target", "0.9", "--vary", "flush")
    assert run.returncode == 2 and "target return 90.0000% is out of reach" in run.stderr
    # the par sheet of a game that ships a progressive shows it at its seed
    run = cli("report", "--game", path, "--out", tmp_path / "sheet")
    assert run.returncode == 0, run.stderr
    sheets = pd.read_excel(tmp_path / "sheet" / "caribbean-stud-optimal-par-sheet.xlsx", sheet_name=None)
    row = sheets["Side bets"].iloc[0]
    at_seed = analyse_progressive(StreetSideBets(analysis.solve(path)), "caribbean-jackpot", strategy="separate")
    assert row["Bet"] == "Caribbean Jackpot" and row["Meter (units)"] == 10_000
    assert row["House edge (exact)"] == str(at_seed.result.exact.house_edge)
    assert row["Long-run return"] == pytest.approx(float(at_seed.long_run_return), rel=1e-12)
    assert set(sheets["Side bet lines"]["Line"]) >= {"royal flush", "flush", "forfeited (player folds)"}
