"""Games without a dealer (Mississippi Stud, Let It Ride) from their game files: the
published figures, and on small decks every count and every decision equal to a brute
force that plays the whole game tree, deal by deal, with a hand classifier of its own."""

from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from functools import cache
from itertools import combinations
from pathlib import Path

import pandas as pd
import pytest
from test_solve import check_shape

import analysis
import analysis.counting.hand_paid_tree as tree_module
from analysis.counting.hand_paid_tree import NO_LINE, HandPaidTree, line_of
from analysis.engine.hand_paid import OTHER, solve_hand_paid
from analysis.engine.hand_paid_simulation import sample_hand_paid
from analysis.model.cards import format_cards
from analysis.model.errors import InputError
from analysis.model.game import game_from_document, load_game
from analysis.report.hand_paid import worked_examples
from analysis.report.hand_paid_verification import CHECKS, verify_hand_paid
from analysis.tuning.street_tuner import StreetTuner

STUD = {
    "name": "small-stud",
    "cards": {"hole": 2, "streets": [1, 1, 1], "ranks": "9TJQKA", "suits": "cd"},
    "wagers": {"start": 1, "unit": "ante"},
    "betting": {"before": [["fold", "bet 1", "bet 3"]] * 3},
    "pays": {
        "straight_flush": 100,
        "flush": 6,
        "full_house": 10,
        "straight": 4,
        "three_of_a_kind": 3,
        "two_pair": 2,
        "pair J-A": 1,
        "pair 9-10": "push",
    },
}
RIDE = {
    "name": "small-ride",
    "cards": {"hole": 3, "streets": [1, 1], "ranks": "89TJQKA", "suits": "cd"},
    "wagers": {"start": 3, "unit": "bet"},
    "betting": {"before": [["pull back", "let it ride"]] * 2},
    "pays": {"straight_flush": 200, "flush": 8, "full_house": 11, "straight": 5, "two_pair": 2, "pair 10-A": 1},
}
# a pull back and a bet in one game, a street of two cards and a street without a decision
MIXED = {
    "name": "small-mixed",
    "cards": {"hole": 1, "streets": [2, 1, 1], "ranks": "9TJQKA", "suits": "cd"},
    "wagers": {"start": 2, "unit": "unit"},
    "betting": {"before": [["pull back", "let it ride", "bet 2"], [], ["fold", "let it ride", "bet 1"]]},
    "pays": {"three_of_a_kind": 3, "straight": 4, "two_pair": 2, "pair K-A": 1, "pair Q-Q": "push"},
}


@pytest.mark.parametrize("doc", [STUD, RIDE, MIXED], ids=["stud", "ride", "mixed"])
def test_every_count_and_every_decision_equal_the_whole_game_tree(doc):
    game = game_from_document(doc, doc["name"])
    figures = solve_hand_paid(game)
    tree = HandPaidTree(game)
    hp = game.hand_paid
    words = [[str(m) for m in hp.options(j)] for j in range(len(hp.before))]
    mine = Counter({(tuple(words[j][m] for j, m in enumerate(p)), line): n for (p, line), n in figures.counts.items()})
    assert OTHER == NO_LINE and mine == tree.count()
    assert figures.total == sum(mine.values())
    checked = 0
    for (point, held, units), options in tree.memo.items():
        moves = _moves_to(hp, point, units)
        if hp.before[point] and moves is not None:
            assert figures.evs(format_cards(held), moves) == options, (point, held, units)
            checked += 1
    assert checked > 100
    check_shape(figures)


def _moves_to(hp, point: int, units: int) -> list[str] | None:
    """Some earlier decisions (the options' words) that leave ``units`` in action, or None."""
    paths: list[tuple[list[str], int]] = [([], hp.start)]
    for j in range(point):
        if hp.before[j]:
            paths = [(p + [str(m)], u + m.change) for p, u in paths for m in hp.before[j] if m.kind != "fold"]
    return next((p for p, u in paths if u == units), None)


def test_the_published_figures():
    """Mississippi Stud 4.9149% of the ante, 3.7591% with a straight paying 5 (Barona); Let
    It Ride 3.51% of one bet, element of risk 2.86%."""
    stud = analysis.solve("mississippi-stud")
    assert stud.exact.deals == 1326 * 50 * 49 * 48
    assert stud.exact.house_edge == Fraction(53223, 1082900)
    assert round(float(stud.exact.house_edge) * 100, 4) == 4.9149
    check_shape(stud)
    ride = analysis.solve("let-it-ride")
    assert round(float(ride.exact.house_edge) * 100, 2) == 3.51
    assert round(float(ride.exact.element_of_risk) * 100, 2) == 2.86
    assert sum(w.expected for w in ride.wagers()) == -ride.exact.house_edge
    assert sum(w.expected for w in stud.wagers()) == -stud.exact.house_edge


def test_the_3_card_bonus_is_the_published_figure():
    """Let It Ride's 3-Card Bonus on the player's three cards, ranked as three-card hands:
    7.1% of the bet with its common pays (50/40/30/6/3/1), 2.14% with a flush paying 4
    (T. Sutton, "Let It Ride: 3-card Side Bet"; 7.09%: "Let It Ride Poker With 3 Card
    Bonus"). The 22,100 hands by line are the three-card closed forms, the mini royal the
    four ace-king-queen straight flushes."""
    bet = analysis.solve("let-it-ride").hand_bets()["three-card-bonus"]
    assert bet.hands == {
        "mini_royal": 4,
        "straight_flush": 44,
        "three_of_a_kind": 52,
        "straight": 720,
        "flush": 1096,
        "pair": 3744,
        "high_card": 16440,
    }
    assert bet.exact.house_edge == Fraction(392, 5525)
    assert f"{float(bet.exact.house_edge):.1%}" == "7.1%" and f"{float(bet.exact.house_edge):.2%}" == "7.10%"
    flush4 = dict(bet.bet.pays) | {"flush": Fraction(4)}
    changed = analysis.solve("let-it-ride").hand_bets({"three-card-bonus": flush4})["three-card-bonus"]
    assert f"{float(changed.exact.house_edge):.2%}" == "2.14%"


def brute_community_card(game, k):
    """The game with the card of street ``k`` seen from the start, every deal played through
    the tree by a player who decides on what he knows (the hand by its own line reader)."""
    hp, deck = game.hand_paid, list(game.rules.deck)
    nets = {p.name: p.net for p in hp.lines}
    streets = len(hp.streets)

    @cache
    def value(known: frozenset, j: int, units: int) -> Fraction:
        """The expected result from decision ``j`` on, knowing ``known`` (street k's card in it)."""
        if j == streets:  # every card turned
            return units * nets.get(line_of(tuple(sorted(known)), hp), Fraction(-1))
        rest = [c for c in deck if c not in known]

        def turn(u: int) -> Fraction:
            if j == k:  # this street's card is the one seen: nothing is drawn
                return value(known, j + 1, u)
            return sum((value(known | {c}, j + 1, u) for c in rest), Fraction(0)) / len(rest)

        return max(Fraction(-units) if m.kind == "fold" else turn(units + m.change) for m in hp.options(j))

    total, deals = Fraction(0), 0
    for hole in combinations(deck, hp.hole):
        for c in (x for x in deck if x not in hole):
            total += value(frozenset(hole) | {c}, 0, hp.start)
            deals += 1
    return -total / deals


@pytest.mark.parametrize("doc", [STUD, RIDE], ids=["stud", "ride"])
def test_a_community_card_seen_from_the_start_is_every_deal_played_through(doc):
    """Each street's card seen before the first decision: the backward induction on sets
    one card larger equals the game tree played with the card known, every deal."""
    from analysis.protection.hand_paid import community_card_exposure

    game = game_from_document(doc, doc["name"])
    found = community_card_exposure(game)
    base = solve_hand_paid(game).exact.house_edge
    assert [e.house_edge for e in found] == [brute_community_card(game, k) for k in range(len(found))]
    assert all(e.house_edge <= base for e in found) and min(e.house_edge for e in found) < base  # never worth less


def test_a_community_card_seen_is_the_published_edge(cli):
    """E. Jacobson, "Mississippi Stud Poker Hole-Card Play" (888casino blog): the player's
    edge with the flop card (the first community card) seen is 54.8660%; "... Update #1":
    with the river card, 104.4668636686% (the exact 678763/649740 is 104.46686366854...%:
    equal to the ninth decimal, the tenth differs by one, as a floating-point sum may)."""
    run = cli("protect", "--game", "mississippi-stud", "--exposed", "1", "--format", "json").json()
    edges = [Fraction(r["house_edge_exact"]) for r in run["community_card_seen"]]
    assert f"{float(-edges[0]):.4%}" == "54.8660%" and edges[0] == Fraction(-254633, 464100)
    assert f"{float(-edges[2]) * 100:.9f}" == "104.466863669" and edges[2] == Fraction(-678763, 649740)
    assert edges[0] > edges[1] > edges[2] and run["base_house_edge_exact"] == "53223/1082900"
    text = cli("protect", "--game", "let-it-ride", "--exposed", "1").stdout
    assert "the second community card, seen from the start" in text and "(exact -66142/270725;" in text
    bad = cli("protect", "--game", "let-it-ride", "--exposed", "2")
    assert bad.returncode == 2 and "counts a community card seen from the start" in bad.stderr


def test_the_published_average_wager_breaks_ties_toward_the_bet():
    """Mississippi Stud's published average wager (3.59 antes, element of risk 1.37%) is
    the exact strategy's with every exact tie going to the larger bet; ours (to the option
    that risks less) wagers 3.4836 antes for the same house edge."""
    less, more = solve_hand_paid(load_game("mississippi-stud")), solve_hand_paid(load_game("mississippi-stud"), "more")
    assert less.exact.house_edge == more.exact.house_edge == Fraction(53223, 1082900)
    assert round(float(less.exact.average_wager), 4) == 3.4836
    assert round(float(more.exact.average_wager), 2) == 3.59
    assert round(float(more.exact.element_of_risk) * 100, 2) == 1.37
    assert round(float(less.exact.element_of_risk) * 100, 4) == 1.4109


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"cards": {"hole": 2, "streets": [1, 1]}}, "5 in all"),
        ({"dealer": {"qualifier": "none"}}, "no [dealer]"),
        ({"pays": {"pair 6-10": "push", "pair 9-A": 1}}, "two pair lines cover the same hands"),
        ({"hand_bets": {"bonus": {"pays": {"pair": 1}, "cards": 2}}}, "[hand_bets.bonus] cards: the player's first 3"),
        ({"hand_bets": {"bonus": {"pays": {"mini_royal": 1}, "cards": 5}}}, "unknown line 'mini_royal'"),
        ({"hand_bets": {"bonus": {"pays": {"pair": 1}, "cards": 3, "on": "hole"}}}, "'title', 'pays' and 'cards'"),
        ({"pays": {"pair 7-6": 1}}, "lower rank first"),
        ({"pays": {"flushes": 6}}, "unknown line 'flushes'"),
        ({"betting": {"before": [["fold"], [], []]}}, "at least two options"),
        ({"betting": {"before": [["pull back", "fold"], [], []]}}, "one must stay in action"),
        ({"betting": {"before": [["raise 2", "fold"], [], []]}}, "option 'raise 2'"),
        ({"wagers": {"start": 0}}, "[wagers] start"),
    ],
)
def test_a_bad_file_is_refused_naming_file_and_key(changes, message):
    with pytest.raises(InputError, match="bad.toml") as e:
        game_from_document({**STUD, "cards": {"hole": 2, "streets": [1, 1, 1]}} | changes, "bad.toml")
    assert message in str(e.value)


def test_sampled_deals_agree_and_a_wrong_strategy_is_caught():
    for name in ("mississippi-stud", "let-it-ride"):
        figures = analysis.solve(name)
        sampled = sample_hand_paid(figures, 300_000, seed=11)
        assert sampled.within(float(figures.exact.ev)), (name, sampled)
    # the same deals played with the options mirrored (folding where it should bet three) land far off
    stud = analysis.solve("mississippi-stud")
    bold = replace(stud, values=tuple({u: v[::-1] for u, v in point.items()} for point in stud.values))
    assert not sample_hand_paid(bold, 300_000, seed=11).within(float(stud.exact.ev))


def test_the_commands_that_take_it_and_the_one_line_of_those_that_do_not(cli):
    solved = cli("solve", "--game", "mississippi-stud", "--format", "json").json()
    assert solved["house_edge_exact"] == "53223/1082900" and solved["pays"]["pair 6-10"] == "push"
    wagers = {w["wager"]: Fraction(w["expected_exact"]) for w in solved["wagers"]}
    assert sum(wagers.values()) == -Fraction(solved["house_edge_exact"])  # the wagers split the edge
    report = cli("report", "--game", "let-it-ride", "--format", "json").json()
    assert report["house_edge_exact"] == "37963/1082900" and report["qualifier"] == "no dealer"
    csv = cli("report", "--game", "mississippi-stud", "--format", "csv").stdout.splitlines()
    assert csv[0].startswith("hand ended,antes in action,player's final hand") and csv[1].startswith("folded,5,")
    first = cli("advise", "--game", "mississippi-stud", "Ah Kh", "--format", "json").json()
    assert first["best"] == "bet 1" and first["evs"]["bet 3"] == "8203/9800"
    later = cli(
        "advise", "--game", "mississippi-stud", "6h 6d", "--board", "6c", "--taken", "bet 3", "--format", "json"
    )
    later = later.json()
    assert later["best"] == "bet 3" and Fraction(later["evs"]["fold"]) == -4
    bad = cli("advise", "--game", "mississippi-stud", "6h 6d", "--board", "6c")
    assert bad.returncode == 2 and "give the 1 earlier decision(s) taken, not 0" in bad.stderr
    sim = cli("simulate", "--game", "let-it-ride", "--hands", "100000", "--seed", "3", "--format", "json").json()
    assert abs(sim["z"]) < 4 and sim["exact_house_edge"] == float(Fraction(report["house_edge_exact"]))
    run = cli("sidebet", "--bet", "trips", "--game", "let-it-ride")
    assert run.returncode == 2 and "Let It Ride has no dealer:" in run.stderr
    assert len(run.stderr.splitlines()) == 1


def test_the_par_sheet_in_words(cli, tmp_path):
    run = cli("report", "--game", "mississippi-stud", "--out", tmp_path / "sheet")
    assert run.returncode == 0, run.stderr
    stem = tmp_path / "sheet" / "mississippi-stud-optimal-par-sheet"
    sheets = pd.read_excel(f"{stem}.xlsx", sheet_name=None)
    assert {
        "Summary",
        "Rules",
        "Decisions",
        "Examples",
        "Strategy 2 cards",
        "Strategy 4 cards",
        "Odds per wager",
    } <= set(sheets)
    first = sheets["Strategy 2 cards"].set_index("Cards held")
    assert len(first) == 169 and first.loc["Ad Ac", "Decision"] == "bet three antes more"
    page = Path(f"{stem}.html").read_text()
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<(style|script)[^>]*>.*?</\1>|<img[^>]*>", "", page, flags=re.S))
    assert "4.9149%" in text and "53223/1082900" in text and "Pair of sixes to tens" in text
    assert "turned over one at a time" in text and "bets add up" in text and "Worked examples" in text
    assert not re.search(r"\b\w+_\w+\b|bet 1|holding \d cards", text)  # in words: no identifiers
    run = cli("report", "--game", "let-it-ride", "--out", tmp_path / "ride")
    assert run.returncode == 0, run.stderr
    stem = tmp_path / "ride" / "let-it-ride-optimal-par-sheet"
    bets = pd.read_excel(f"{stem}.xlsx", sheet_name="Bets on the hand", dtype=str)
    assert bets.iloc[0, 1] == "mini royal (ace, king and queen of a suit)" and "7.0950%" in bets.to_string()
    page = html.unescape(Path(f"{stem}.html").read_text())
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<(style|script)[^>]*>.*?</\1>|<img[^>]*>", "", page, flags=re.S))
    assert "3-Card Bonus is a bet on the player's first three cards alone" in text
    assert "Any other straight flush" in text and not re.search(r"\b\w+_\w+\b", text)


def test_a_pay_is_tuned_and_a_target_solved_exactly(cli):
    """The straight paying 5 gives the published 3.7591%; the straight's pay for exactly a 4%
    edge, solved, gives exactly 4% when the game is solved with it."""
    tuner = StreetTuner(load_game("mississippi-stud"))
    barona = tuner.evaluate(tuner.table().with_pays({"straight": 5}))
    assert round(float(barona.exact.house_edge) * 100, 4) == 3.7591
    row = tuner.solve(Fraction(1, 25), "straight", (0, 20)).iloc[0]
    pay = row["exact_pays"]["straight"]
    assert 4 < pay < 5 and row["exact_house_edge"] == Fraction(1, 25)
    assert tuner.evaluate(tuner.table().with_pays({"straight": pay})).exact.house_edge == Fraction(1, 25)
    pushed = tuner.game_with(tuner.table().with_pays({"two_pair": 0})).hand_paid
    assert {x.name: x.net for x in pushed.lines}["two_pair"] == 0  # a line paid 0 pushes
    out = cli("tune", "--game", "let-it-ride", "--set", "flush=6", "--format", "json").json()
    assert Fraction(out["house_edge_exact"]) > Fraction(37963, 1082900)
    refused = cli("tune", "--game", "let-it-ride", "--set", "pair=2")
    assert refused.returncode == 2 and "pays pairs by rank" in refused.stderr


def test_verify_checks_it_along_its_own_paths_and_a_wrong_count_fails(cli, monkeypatch):
    run = cli("verify", "--game", "let-it-ride", "--hands", "100000", "--format", "json")
    assert run.returncode == 0, run.stdout
    checks = {c["name"]: c for c in run.json()["checks"]}
    assert list(checks) == list(CHECKS) and all(c["passed"] for c in checks.values())
    assert "let-it-ride 3.51%" in checks["published edges"]["found"]
    # the oracle paying a pair of tens as a loss: the engine no longer equals the game tree
    original = tree_module.line_of
    monkeypatch.setattr(
        tree_module, "line_of", lambda cards, hp: "x" if original(cards, hp) == "pair 10-A" else original(cards, hp)
    )
    failed = verify_hand_paid(load_game("let-it-ride"), hands=1000)
    assert [c.name for c in failed.failed] == ["small-deck game tree"]


@pytest.mark.parametrize("name", ["mississippi-stud", "let-it-ride"])
def test_each_worked_example_is_played_as_the_strategy_plays_it(name):
    """Every example's decisions are the best of its exact EVs (asked again of the solve),
    and its net is the units in action times the pay the oracle's own classifier finds."""
    figures = analysis.solve(name)
    hp = figures.hand_paid
    examples = worked_examples(figures)
    cases = [case for case, _ in examples]
    assert any(case.startswith("The player wins") for case in cases) and any("loses" in c for c in cases)
    assert ("The player folds holding two cards" in cases) == (name == "mississippi-stud")
    for _, deal in examples:
        taken: list[str] = []
        for d in deal.decisions:
            assert figures.evs(format_cards(d.held), taken) == d.evs
            assert d.taken == max(d.evs, key=lambda o: d.evs[o])  # the first best: least risk
            taken.append(d.taken)
        if deal.folded:
            assert deal.net == -deal.units and taken[-1] == "fold"
        else:
            pay = {x.name: x.net for x in hp.lines}.get(line_of(deal.cards, hp), Fraction(-1))
            assert deal.net == deal.units * pay
