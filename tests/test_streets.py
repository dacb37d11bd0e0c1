"""Games as data and the exact engine of several decision points.

The engine is checked against a brute force that plays the whole game tree deal by deal
(no symmetry, no inclusion-exclusion, no classes: every player holding, flop, turn/river
and dealer holding of a small deck), for each structure element a game file can state;
on the full deck against the return engine (Casino Hold'em) and the published exact
house edge of Ultimate Texas Hold'em.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

import analysis.engine.streets as streets
from analysis.counting.game_tree import category_name, game_tree, hand_values
from analysis.counting.streets import RESULTS6
from analysis.engine.streets import StreetFigures, count_streets_here, solve_streets
from analysis.hands.lookup import dealer_qualifier
from analysis.model.cards import format_card
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.game import game_from_document, load_game
from analysis.model.payoffs import outcome_payoffs
from analysis.model.paytable import PayTable
from analysis.model.rules import PRESETS
from analysis.parallel.options import RunOptions
from analysis.store.outcome_store import shard_plan
from analysis.strategy.street_advice import advise_street
from exact_figures import HOLDEM_OPTIMAL_EDGE

UTH_BLIND = {
    "royal_flush": 500,
    "straight_flush": 50,
    "four_of_a_kind": 10,
    "full_house": 3,
    "flush": "3/2",
    "straight": 1,
}


def doc(
    hole=2,
    hand="best-five",
    qualifier="2",
    ranks="9TJQKA",
    suits="cd",
    betting=None,
    ante=None,
    blind=True,
    play="action",
):
    d = {
        "name": "test-game",
        "cards": {"hole": hole, "hand": hand, "ranks": ranks, "suits": suits},
        "dealer": {"qualifier": qualifier},
        "betting": betting
        or {"preflop": ["check", "bet 3", "bet 4"], "flop": ["check", "bet 2"], "river": ["fold", "bet 1"]},
        "ante": ante or {"pays": "even", "dealer_not_qualifying": "push"},
        "play": {"dealer_not_qualifying": play},
    }
    if blind:
        d["blind"] = {"pays": UTH_BLIND}
    return d


STRUCTURES = {
    "ultimate (3 streets, blind, ante pushes)": doc(),
    "flop only, AnteWin, ante paid when no qualifier": doc(
        qualifier="J",
        betting={"flop": ["fold", "bet 2"]},
        ante={"pays": "antewin", "dealer_not_qualifying": "pays"},
        blind=False,
        play="push",
    ),
    "pre-flop and river, no qualifier, 3 hole cards exactly two": doc(
        hole=3,
        hand="two-hole-three-board",
        qualifier="none",
        betting={"preflop": ["check", "bet 2"], "river": ["fold", "bet 1"]},
        blind=False,
    ),
    "3 hole cards, three streets, blind": doc(hole=3, hand="two-hole-three-board", suits="cd", ranks="9TJQKA"),
    "flop and river with a fold and two bets, pre-flop fold": doc(
        suits="cdh",
        ranks="TJQK",
        qualifier="Q",
        betting={
            "preflop": ["fold", "check", "bet 1"],
            "flop": ["fold", "check", "bet 1", "bet 3"],
            "river": ["check", "bet 2"],
        },
    ),
}


@pytest.mark.parametrize("name", list(STRUCTURES))
def test_every_count_equals_the_game_tree_played_deal_by_deal(name, tmp_path, monkeypatch):
    game = game_from_document(STRUCTURES[name], name)
    monkeypatch.setattr(streets, "CHUNK", 5)  # several kernel calls per shard
    figures = solve_streets(game, RunOptions(root=tmp_path, threads=2))
    kept = count_streets_here(game, threads=1)  # in this process, states kept, no store
    assert kept.counts == figures.counts and kept.decisions == figures.decisions
    counts, decisions = game_tree(game)
    assert figures.total == game.rules.total_combinations == sum(counts.values())
    assert figures.counts == counts
    assert figures.decisions == decisions
    assert len(set(k[0] for k in counts)) >= 2  # the structure really branches


@pytest.mark.parametrize("name", ["ultimate-texas-holdem", "casino-omaha-ultimate", "small"])
def test_pairs_summed_by_class_count_as_holding_by_holding(name):
    # the kernel's two ways of adding a flop's turn/river pairs, on full-deck flops with and
    # without suit symmetry (thousands of holdings) and on a small deck's every flop
    from analysis.counting.enumeration import plan, prepare
    from analysis.counting.streets import count_streets, preflop_classes
    from analysis.engine.streets import street_values

    game = game_from_document(STRUCTURES[next(iter(STRUCTURES))], "small") if name == "small" else load_game(name)
    rules, v = game.rules, street_values(game)
    flops = plan(rules)
    p = prepare(rules, flops if name == "small" else [flops[i] for i in (0, 5, 700, 1754)])
    classes = preflop_classes(rules)
    summed = count_streets(p, v.river_coef, classes, 2, by_class=True)
    added = count_streets(p, v.river_coef, classes, 2, by_class=False)
    np.testing.assert_array_equal(summed.bet, added.bet)
    np.testing.assert_array_equal(summed.river, added.river)
    assert (added.bet.sum(axis=1) == rules.completions).all()


@pytest.mark.parametrize("name", ["casino-omaha-ultimate", "small"])
def test_preflop_class_lookup_is_the_canonical_form(name):
    from analysis.counting.streets import preflop_classes
    from analysis.counting.symmetry import canonical_codes, suit_permutations

    game = game_from_document(STRUCTURES[next(iter(STRUCTURES))], "small") if name == "small" else load_game(name)
    rules = game.rules
    classes = preflop_classes(rules)
    holds = np.array(list(combinations(rules.deck, rules.hole_cards)), dtype=np.int8)[::-1]
    want = np.searchsorted(classes.codes, canonical_codes(holds, suit_permutations(rules.suits)))
    np.testing.assert_array_equal(classes.of(holds, rules), want)
    assert np.array_equal(np.bincount(want, minlength=len(classes.codes)), classes.size)
    outside = [c for c in range(52) if c not in rules.deck]
    if outside:
        with pytest.raises(ValueError, match="outside the deck"):
            classes.of(np.array([[*rules.deck[: rules.hole_cards - 1], outside[-1]]]), rules)


def test_settlement_of_ultimate_outcomes():
    g = load_game("ultimate-texas-holdem")

    def value(m, cat, res):
        return g.showdown_values(m)[CATEGORIES.index(cat) * 6 + RESULTS6.index(res)]

    assert value(4, "royal_flush", "win") == 1 + 500 + 4
    assert value(1, "straight", "noqual_win") == 0 + 1 + 1  # ante pushes, blind 1:1, play 1:1
    assert value(2, "flush", "noqual_win") == Fraction(3, 2) + 2
    assert value(3, "two_pair", "win") == 1 + 0 + 3  # a win below a straight: blind pushes
    assert value(3, "high_card", "noqual_loss") == 0 - 1 - 3
    assert value(4, "pair", "loss") == -1 - 1 - 4
    assert value(1, "full_house", "tie") == 0
    assert g.fold_value == -2


def test_casino_holdem_file_settles_as_the_return_engine():
    g = load_game("casino-holdem")
    pays = outcome_payoffs(PayTable.load("antewin"), PRESETS["casino-holdem"])
    values = g.showdown_values(2)
    for cat in CATEGORIES:
        row = CATEGORIES.index(cat) * 6
        assert [values[row + RESULTS6.index(r)] for r in ("noqual_win", "noqual_tie", "noqual_loss")] == [
            pays[("dealer_not_qualifying", cat)]
        ] * 3
        assert values[row + RESULTS6.index("win")] == pays[("player_wins", cat)]
        assert values[row + RESULTS6.index("loss")] == pays[("dealer_wins", "")]
    assert g.fold_value == pays[("fold", "")]


@pytest.mark.slow
def test_casino_holdem_through_the_street_engine_equals_the_return_engine(tmp_path):
    figures = solve_streets(load_game("casino-holdem"), RunOptions(root=tmp_path))
    assert figures.house_edge == HOLDEM_OPTIMAL_EDGE
    assert figures.decisions == {("flop", "fold"): 5009105629440, ("flop", "bet 2"): 22804704394560}


@pytest.fixture(scope="module")
def uth() -> StreetFigures:
    return solve_streets(load_game("ultimate-texas-holdem"))


@pytest.mark.slow
def test_ultimate_texas_holdem_equals_its_published_house_edge(uth):
    # Wizard of Odds and Jacobson: house edge 2.185% of the ante, element of risk 0.53%,
    # standard deviation 4.94; our exact fraction and its decimals
    assert uth.house_edge == Fraction(50643648973, 2317817502000)
    assert round(float(uth.house_edge) * 100, 3) == 2.185
    assert round(float(uth.element_of_risk) * 100, 2) == 0.53
    assert round(uth.standard_deviation, 2) == 4.94
    assert uth.total == 1326 * 19600 * 1081 * 990


@pytest.mark.slow
def test_ultimate_texas_holdem_preflop_strategy_is_the_known_one(uth):
    # the well-known basic strategy: raise 4x with any pair of 3s or better, any ace, K2s+,
    # K5o+, Q6s+, Q8o+, J8s+, JTo; check 22 and everything else
    pre = uth.preflop.set_index("hole cards")["option"]
    assert pre["2c 2d"] == "check" and pre["3c 3d"] == "bet 4"
    assert pre["2c Ac"] == "bet 4" and pre["2d Ac"] == "bet 4"
    assert pre["2c Kc"] == "bet 4" and pre["4d Kc"] == "check" and pre["5d Kc"] == "bet 4"
    assert pre["6c Qc"] == "bet 4" and pre["5c Qc"] == "check" and pre["8d Qc"] == "bet 4" and pre["7d Qc"] == "check"
    assert pre["8c Jc"] == "bet 4" and pre["7c Jc"] == "check" and pre["Td Jc"] == "bet 4" and pre["9d Jc"] == "check"
    assert (uth.preflop["option"] == "bet 3").sum() == 0  # 3x is never better than 4x or checking


def test_a_game_file_names_the_key_it_cannot_use():
    bad = doc()
    bad["betting"] = {"turn": ["check", "bet 1"]}
    with pytest.raises(InputError, match=r"g.toml: \[betting\] turn: a decision at the turn needs bets = \"add up\""):
        game_from_document(bad, "g.toml")
    bad["betting"] = {"fourth": ["check", "bet 1"]}
    with pytest.raises(InputError, match=r"\[betting\] knows only bets, flop, preflop, river, turn, not fourth"):
        game_from_document(bad, "g.toml")
    bad = doc()
    bad["betting"]["flop"] = ["check", "raise 2"]
    with pytest.raises(InputError, match=r"g.toml: \[betting\] flop: option 'raise 2'"):
        game_from_document(bad, "g.toml")
    bad = doc()
    bad["blind"] = {"pays": {"flush": -1}}
    with pytest.raises(InputError, match=r"\[blind\] pays: flush: a pay is between 0 and 1,000,000"):
        game_from_document(bad, "g.toml")
    bad = doc()
    bad["betting"]["river"] = ["fold", "check", "bet 1", "bet 2", "bet 3"]
    with pytest.raises(InputError, match=r"\[betting\] river: at most 4 options"):
        game_from_document(bad, "g.toml")
    bad = doc(hole=4)
    with pytest.raises(InputError, match=r"\[cards\] hole must be 2 or 3"):
        game_from_document(bad, "g.toml")
    with pytest.raises(InputError, match="unknown game 'nope'"):
        load_game("nope")


@pytest.mark.parametrize(
    ("table", "key", "known"),
    [
        ("cards", "suit", "hand, hole, ranks, suits"),
        ("cards", "decks", "hand, hole, ranks, suits"),
        ("cards", "jokers", "hand, hole, ranks, suits"),
        ("dealer", "opens", "qualifier"),
        ("ante", "pay", "dealer_not_qualifying, pays"),
        ("play", "pays", "dealer_not_qualifying"),
    ],
)
def test_a_key_a_table_does_not_know_is_refused_by_name(table, key, known):
    # a misspelt key used to be ignored, and the file's game solved without it
    bad = doc()
    bad.setdefault(table, {})[key] = "cd"
    with pytest.raises(InputError, match=rf"g.toml: \[{table}\] has unknown keys '{key}' \(known: {known}\)"):
        game_from_document(bad, "g.toml")


def test_shipped_files_are_the_presets():
    for name, rules in PRESETS.items():
        assert load_game(name).rules == rules
    assert set(PRESETS) == {"casino-omaha", "casino-holdem"}


def test_advice_at_every_street_agrees_with_the_solved_game():
    from analysis.strategy.street_advice import advise_street

    game = game_from_document(doc(), "small ultimate")
    figures = solve_streets(game, keep_states=True)
    # before the flop: the class's EVs; their best, weighted by deals, is the game's EV
    total = Fraction(0)
    for _, row in figures.preflop.iterrows():
        advice = advise_street(game, row["hole cards"], figures=figures)
        assert advice.best == row["option"]
        total += advice.evs[advice.best] * row["deals"]
    assert total / figures.total == figures.expected
    rng = np.random.default_rng(7)
    deck = list(game.rules.deck)
    for _ in range(12):
        cards = [int(c) for c in rng.choice(deck, 7, replace=False)]
        hole, flop, board = cards[:2], cards[2:5], cards[2:7]
        text = " ".join(format_card(c) for c in hole)
        at_flop = advise_street(game, text, " ".join(format_card(c) for c in flop))
        kept = figures.flop_choice(np.array([hole]), np.array([flop]))[0]
        assert at_flop.best == str(game.flop[kept])
        # the river against every dealer hand, settled by the game's values, one by one
        at_river = advise_street(game, text, " ".join(format_card(c) for c in board))
        rest = [c for c in deck if c not in cards]
        q = dealer_qualifier(game.rules.qualifier_rank)
        p = hand_values(game, [tuple(sorted(hole))], tuple(board))[tuple(sorted(hole))]
        dealers = hand_values(game, list(combinations(rest, 2)), tuple(board))
        for option in game.river:
            ev = Fraction(0)
            for d in dealers.values():
                res = "win" if p > d else "tie" if p == d else "loss"
                res = res if d >= q else f"noqual_{res}"
                if option.kind == "fold":
                    ev += game.fold_value
                else:
                    ev += game.showdown_values(option.multiple)[
                        CATEGORIES.index(category_name(p)) * 6 + RESULTS6.index(res)
                    ]
            assert at_river.evs[str(option)] == ev / len(dealers)
    with pytest.raises(InputError, match="board: 0 cards"):
        advise_street(game, "Tc Jc", "Qc Kc")


SMALL_GAME = """
name = "small-ultimate"
title = "Ultimate on nine to ace, two suits"
[cards]
hole = 2
hand = "best-five"
ranks = "9TJQKA"
suits = "cd"
[dealer]
qualifier = "2"
[betting]
preflop = ["check", "bet 3", "bet 4"]
flop = ["check", "bet 2"]
river = ["fold", "bet 1"]
[ante]
pays = "even"
dealer_not_qualifying = "push"
[blind]
pays = { royal_flush = 500, straight_flush = 50, four_of_a_kind = 10, full_house = 3, flush = "3/2", straight = 1 }
[play]
dealer_not_qualifying = "action"
"""


def test_solve_and_games_commands(cli, tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL_GAME)
    exact = solve_streets(game_from_document(doc(), "x"), RunOptions(root=tmp_path / "api"))
    out = cli("solve", "--game", path, "--format", "json", "--no-progress", "--store", tmp_path / "cli").json()
    assert Fraction(out["house_edge_exact"]) == exact.house_edge
    assert out["deals"] == exact.total
    assert out["decisions"] == {f"{s}: {o}": n for (s, o), n in exact.decisions.items()}
    changed = cli(
        "solve", "--game", path, "--blind", "straight=2", "--qualifier", "none", "--format", "json", "--no-progress"
    )
    what_if = solve_streets(
        game_from_document(doc(), "x").with_blind({"straight": 2}).with_qualifier("none"),
        RunOptions(root=tmp_path / "api"),
    )
    assert Fraction(changed.json()["house_edge_exact"]) == what_if.house_edge != exact.house_edge
    bad = cli("solve", "--game", path, "--blind", "flush")
    assert bad.returncode == 2 and "--blind 'flush': give CATEGORY=PAYS" in bad.stderr
    games = cli("games", "--format", "json").json()
    assert [g["name"] for g in games] == [
        "caribbean-stud",
        "casino-holdem",
        "casino-omaha",
        "casino-omaha-ultimate",
        "four-card-poker",
        "let-it-ride",
        "mississippi-stud",
        "texas-holdem-bonus",
        "three-card-poker",
        "ultimate-texas-holdem",
    ]
    decisions = {g["name"]: g["decisions"] for g in games}
    assert decisions["let-it-ride"] == "holding 3: pull back, let it ride; holding 4: pull back, let it ride"
    assert decisions["texas-holdem-bonus"] == "preflop: fold, bet 2; flop: check, bet 1; turn: check, bet 1"
    assert decisions["four-card-poker"] == "preflop: fold, bet 1, bet 3"
    assert decisions["ultimate-texas-holdem"] == "preflop: check, bet 3, bet 4; flop: check, bet 2; river: fold, bet 1"


def test_a_solve_resumes_and_is_read_back(tmp_path):
    game = game_from_document(doc(ranks="TJQKA", suits="cdh"), "resume")
    options = RunOptions(root=tmp_path, threads=1)
    plan_size = len(streets.shard_plan(game.rules))
    assert plan_size >= 2
    calls = []
    original = streets._street_shard

    def failing(job, flops, threads=None):
        if len(calls) == 1:
            raise KeyboardInterrupt  # the run is stopped after its first shard
        calls.append(len(flops))
        return original(job, flops, threads)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(streets, "_street_shard", failing)
        with pytest.raises(KeyboardInterrupt):
            solve_streets(game, options)
    kept = sorted(p.name for p in (tmp_path / "streets").glob("*/shard-*"))
    assert len(kept) == 1
    first = solve_streets(game, options)  # computes the shards that are missing
    again = solve_streets(game, options)  # reads them back
    fresh = count_streets_here(game, threads=1)
    assert first.counts == again.counts == fresh.counts
    assert first.checksum == again.checksum and first.store == again.store


def test_a_solve_that_keeps_states_leaves_the_store_for_the_next(tmp_path, monkeypatch):
    game = game_from_document(doc(ranks="TJQKA", suits="cdh"), "kept")
    kept = solve_streets(game, RunOptions(root=tmp_path, threads=1), keep_states=True)

    def no_counting(*args, **kwargs):
        raise AssertionError("the shards were counted again")

    monkeypatch.setattr(streets, "_street_shard", no_counting)
    read = solve_streets(game, RunOptions(root=tmp_path, threads=1))
    assert read.counts == kept.counts and read.checksum is not None


def test_kept_flop_decisions_are_read_back_and_a_damaged_shard_counted_again(tmp_path, monkeypatch):
    game = game_from_document(doc(ranks="TJQKA", suits="cdh"), "kept")
    options = RunOptions(root=tmp_path, threads=1)
    here = count_streets_here(game, threads=1)
    first = solve_streets(game, options, keep_states=True)
    assert np.array_equal(first.flop_keys, here.flop_keys) and np.array_equal(first.flop_options, here.flop_options)
    counted = []
    original = streets.StreetJob.count

    def counting(job, flops, *args, **kwargs):
        counted.append(len(flops))
        return original(job, flops, *args, **kwargs)

    monkeypatch.setattr(streets.StreetJob, "count", counting)
    again = solve_streets(game, options, keep_states=True)
    assert counted == [] and again.counts == here.counts
    assert np.array_equal(again.flop_options, here.flop_options)
    (shard,) = (tmp_path / "streets").glob("streets-flop-*/shard-00000.npz")
    data = bytearray(shard.read_bytes())
    data[len(data) // 2] ^= 0xFF
    shard.write_bytes(bytes(data))
    mended = solve_streets(game, options, keep_states=True)
    assert counted == [len(shard_plan(game.rules)[0])]
    assert np.array_equal(mended.flop_keys, here.flop_keys) and np.array_equal(mended.flop_options, here.flop_options)


def test_advise_and_simulate_commands_play_a_game_file(cli, tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL_GAME)
    game = load_game(path)
    store = tmp_path / "store"
    pre = cli("advise", "Tc Jd", "--game", path, "--store", store, "--format", "json").json()
    figures = solve_streets(game, RunOptions(root=store))
    expected = advise_street(game, "Tc Jd", figures=figures)
    assert pre["street"] == "preflop" and pre["best"] == expected.best
    assert {o: Fraction(v) for o, v in pre["evs"].items()} == expected.evs
    flop = cli("advise", "Tc Jd", "--game", path, "--flop", "Qc Kd 9c", "--format", "json").json()
    assert flop["street"] == "flop" and flop["best"] == advise_street(game, "Tc Jd", "Qc Kd 9c").best
    river = cli("advise", "Tc Jd", "--game", path, "--board", "Qc Kd 9c Ad 9d")
    assert river.returncode == 0 and "(river decision)" in river.stdout and "<- best" in river.stdout
    both = cli("advise", "Tc Jd", "--game", path, "--flop", "Qc Kd 9c", "--board", "Qc Kd 9c Ad 9d")
    assert both.returncode == 2 and "not both" in both.stderr
    no_flop = cli("advise", "As Kd 7h", "--game", "casino-omaha")
    assert no_flop.returncode == 2 and "give the state's --flop" in no_flop.stderr
    sim = cli(
        "simulate", "--game", path, "--hands", "200000", "--seed", "3", "--store", store, "--format", "json"
    ).json()
    assert Fraction(sim["exact_house_edge"]).limit_denominator(10**12) == pytest.approx(float(figures.house_edge))
    assert abs(sim["z"]) < 4 and sim["hands"] == 200000
