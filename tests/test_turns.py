"""Texas Hold'em Bonus and games whose bets add up: a decision at the turn, every bet in
action to the showdown. Small decks equal a brute force that plays the whole game tree,
node by node; the full deck gives the published figures."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations

import numpy as np
import pytest

import analysis
from analysis.engine.turns import solve_turns
from analysis.engine.wagers import wager_figures
from analysis.hands.evaluate import best_strength, category_of
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.game import Option, game_from_document, load_game


def tree(game) -> tuple[Counter, dict]:
    """Every deal of ``game`` played through its game tree: each option of each node valued
    by averaging over every card and dealer hand still to come (bets add up; the ante is
    paid on a winning straight or better, else pushes on a win; a tie pushes all)."""
    deck = game.rules.deck
    strength = {}
    for seven in combinations(deck, 7):
        strength[frozenset(seven)] = int(best_strength([list(seven)])[0])
    straight = CATEGORIES.index("straight")
    turn_bet = max((o.multiple for o in game.turn), default=0)
    flop_bets = [o.multiple for o in game.flop]

    def net(hole, board, dealer, bets):
        mine, theirs = strength[frozenset(hole + board)], strength[frozenset(dealer + board)]
        sign = (mine > theirs) - (mine < theirs)
        ante = -1 if sign < 0 else int(sign > 0 and category_of([mine])[0] >= straight)
        return ante + sign * bets

    def rest(used):
        return [c for c in deck if c not in used]

    @cache
    def at_turn(hole, board4, bets):
        """EV of checking and of betting at the turn."""
        out = []
        for extra in (0, turn_bet) if game.turn else (0,):
            total, n = Fraction(0), 0
            for river in rest(hole + board4):
                for dealer in combinations(rest(hole + board4 + (river,)), 2):
                    total += net(hole, board4 + (river,), dealer, bets + extra)
                    n += 1
            out.append(total / n)
        return out

    @cache
    def at_flop(hole, flop, bets):
        out = []
        for m in flop_bets or [0]:
            turns = rest(hole + flop)
            out.append(sum((max(at_turn(hole, flop + (t,), bets + m)) for t in turns), Fraction(0)) / len(turns))
        return out

    counts: Counter = Counter()
    preflop = {}
    for hole in combinations(deck, 2):
        flops = list(combinations(rest(hole), 3))
        play = {
            o: sum((max(at_flop(hole, f, o.multiple)) for f in flops), Fraction(0)) / len(flops)
            for o in game.preflop
            if o.kind == "bet"
        }
        values = {"fold": Fraction(-1)} | {str(o): v for o, v in play.items()}
        preflop[hole] = values
        choice = max(values, key=lambda o: values[o])  # the first best: fold, then the smaller bet
        per_flop = len(rest(hole)) - 3
        completions = per_flop * (per_flop - 1) * (per_flop - 2) * (per_flop - 3) // 2
        if choice == "fold":
            counts[("fold", 0, "", "")] += len(flops) * completions
            continue
        bets = int(choice.split()[1])
        for flop in flops:
            fv = at_flop(hole, flop, bets)
            m = (flop_bets or [0])[fv.index(max(fv))]
            for turn, river in permutations(rest(hole + flop), 2):
                tv = at_turn(hole, flop + (turn,), bets + m)
                extra = (0, turn_bet)[tv.index(max(tv))]
                board = flop + (turn, river)
                for dealer in combinations(rest(hole + board), 2):
                    mine, theirs = strength[frozenset(hole + board)], strength[frozenset(dealer + board)]
                    result = "win" if mine > theirs else "tie" if mine == theirs else "loss"
                    category = CATEGORIES[int(category_of([mine])[0])]
                    counts[("showdown", bets + m + extra, category, result)] += 1
    return counts, preflop


@pytest.mark.parametrize(
    "changes",
    [{}, {"flop": ["check", "bet 1", "bet 2"]}, {"turn": []}],
    ids=["bonus", "two-flop-bets", "no-turn-decision"],
)
def test_every_count_and_every_decision_equal_the_whole_game_tree(changes):
    doc = {
        "name": "small-bonus",
        "cards": {"hole": 2, "hand": "best-five", "ranks": "TJQKA", "suits": "cd"},
        "dealer": {"qualifier": "none"},
        "betting": {
            "bets": "add up",
            "preflop": ["fold", "bet 2"],
            "flop": ["check", "bet 1"],
            "turn": ["check", "bet 1"],
        }
        | changes,
        "ante": {"pays": {c: 1 for c in CATEGORIES[CATEGORIES.index("straight") :]}},
        "play": {"dealer_not_qualifying": "action"},
    }
    game = game_from_document(doc, "small")
    figures = solve_turns(game)
    counts, preflop = tree(game)
    assert figures.counts == dict(counts)
    assert figures.total == sum(counts.values())
    for hole, values in preflop.items():
        row = figures.preflop.iloc[int(figures.classes.of(np.array([hole]), game.rules)[0])]
        assert {o: row[f"EV({o})"] for o in values} == values


@pytest.fixture(scope="module")
def bonus():
    return analysis.solve("texas-holdem-bonus")


def test_the_published_figures(bonus):
    """Texas Hold'em Bonus, Las Vegas rules: 2.03692% of the ante, element of risk 0.5335%,
    average wager 3.8181 antes (Wizard of Odds), every deal counted. The published standard
    deviation (3.500839) is not this one (3.507271): it is within 3e-5 of the deviation with
    the folds' squared loss left out of the second moment (3.500814), and no exact-tie rule
    moves it (ties change the average wager, which agrees)."""
    e = bonus.exact
    assert e.deals == 1326 * 19600 * 47 * 46 * 990
    assert e.house_edge == Fraction(578107733, 28381438800)
    assert round(float(e.house_edge) * 100, 5) == 2.03692
    assert round(float(e.element_of_risk) * 100, 4) == 0.5335
    assert round(float(e.average_wager), 4) == 3.8181
    assert round(e.standard_deviation, 6) == 3.507271
    folds = Fraction(bonus.counts[("fold", 0, "", "")], e.deals)
    assert round(float(e.variance - folds) ** 0.5, 6) == 3.500814
    assert sum(w.expected for w in wager_figures(bonus.outcomes(), bonus.settlement)) == -e.house_edge


def test_the_published_strategy_before_the_flop(bonus):
    """Fold 2-3 to 2-7 unsuited, play every other hand; the published two-card EVs of the
    flop bet (2-3 unsuited -1.155927, 2-8 unsuited -0.896002)."""
    pre = bonus.preflop.set_index("hole cards")
    assert sorted(pre.index[pre["option"] == "fold"]) == ["2d 3c", "2d 4c", "2d 5c", "2d 6c", "2d 7c"]
    assert round(float(pre.loc["2d 3c", "EV(bet 2)"]), 6) == -1.155927
    assert round(float(pre.loc["2d 8c", "EV(bet 2)"]), 6) == -0.896002


@pytest.mark.parametrize(
    ("rule", "published"),
    [
        ("Atlantic City: the ante is paid on a flush or better", "5.5935"),
        ("Colorado: a flop bet of one ante", "2.3496"),
    ],
)
def test_the_other_published_rule_sets(rule, published):
    game = load_game("texas-holdem-bonus")
    if rule.startswith("Atlantic"):
        game = replace(game, ante_pays=game.ante_pays.with_pays({"straight": 0}))
    else:
        game = replace(game, preflop=(Option("fold"), Option("bet", 1)))
    assert f"{float(analysis.solve(game).exact.house_edge) * 100:.4f}" == published


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"betting": {"preflop": ["fold", "bet 2"], "turn": ["check", "bet 1"]}}, 'needs bets = "add up"'),
        ({"betting": {"bets": "add up", "preflop": ["check", "bet 2"]}}, "preflop: 'fold' and one or more"),
        (
            {"betting": {"bets": "add up", "preflop": ["fold", "bet 2"], "river": ["fold", "bet 1"]}},
            "no decision after",
        ),
        ({"betting": {"bets": "sometimes", "preflop": ["fold", "bet 2"]}}, "[betting] bets: one of"),
        ({"dealer": {"qualifier": "4"}}, 'qualifier = "none" when bets add up'),
    ],
)
def test_a_bad_file_is_refused_naming_file_and_key(changes, message):
    doc = {
        "name": "bad",
        "cards": {"hole": 2, "hand": "best-five"},
        "dealer": {"qualifier": "none"},
        "betting": {"bets": "add up", "preflop": ["fold", "bet 2"], "flop": ["check", "bet 1"]},
    } | changes
    with pytest.raises(InputError, match="bad.toml") as e:
        game_from_document(doc, "bad.toml")
    assert message in str(e.value)


def test_the_commands_that_take_it_and_the_one_line_of_those_that_do_not(cli, tmp_path):
    sheet = cli("report", "--game", "texas-holdem-bonus", "--out", tmp_path / "sheet", "--no-progress")
    assert sheet.returncode == 0, sheet.stderr
    page = (tmp_path / "sheet" / "texas-holdem-bonus-optimal-par-sheet.html").read_text()
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<(style|script)[^>]*>.*?</\1>|<img[^>]*>", "", page, flags=re.S))
    assert "2.0369%" in text and "578107733/28381438800" in text
    assert "After the turn and before the river, each player in turn who has not folded shall check" in text
    assert "every bet stays in action to the showdown" in text and "played to the showdown" in text
    advice = cli("advise", "--game", "texas-holdem-bonus", "2d 3c", "--format", "json").json()
    assert advice["best"] == "fold" and Fraction(advice["evs"]["bet 2"]) == Fraction(-275527229, 238360500)
    for command in (["simulate"], ["verify"], ["advise", "As Ks", "--flop", "2c 3d 4h"]):
        run = cli(*command, "--game", "texas-holdem-bonus")
        assert run.returncode == 2 and "Texas Hold'em Bonus's bets add up:" in run.stderr, command
        assert len(run.stderr.splitlines()) == 1
