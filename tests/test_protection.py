"""Game protection figures: the exposure run's return table and breakdowns add up to the
exact figures, recover the base game's, and the advantage player's strategy has the EV a
state-by-state brute force gives it; the report's protection sheet."""

from fractions import Fraction

import numpy as np
import pytest

from analysis import STRATEGIES
from analysis.counting.enumeration import count_flops, plan, prepare
from analysis.engine.return_engine import ReturnEngine
from analysis.hands.classes import HAND_CLASSES
from analysis.model.payoffs import margin_coefficients
from analysis.model.paytable import PayTable
from analysis.model.rules import preset
from analysis.protection.advantage import PAIRS_FLOP, group_axes
from analysis.protection.edges import exposure_result, information_table, seen_card_table
from analysis.protection.exposure import ExposedGame, ExposureJob, holding_groups
from analysis.protection.sampling import Information, SampleJob, estimate_edge
from analysis.strategy.simple import derive_simple_strategy
from brute_force import brute_force_exposed
from deadline import deadline

DECKS = [("casino-holdem", "9TJQKA", "cd"), ("casino-omaha", "89TJQKA", "cd")]


def run_exposure(game, ranks, suits, paytable="antewin", pays_on="ante"):
    rules = preset(game).small_deck(ranks, suits)
    engine = ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules)
    table = PayTable.load(paytable)
    job = ExposureJob(rules, table, pays_on, derive_simple_strategy(engine, table, pays_on))
    sums = job.run(plan(rules), threads=2)
    return rules, engine, job, sums, exposure_result(rules, table, pays_on, sums)


def optimal_edge_by_brute_force(rules, job) -> Fraction:
    """The house edge against a player who sees one dealer card and calls exactly when that
    gains (an exact tie folds): every state (hole, flop, card seen) settled from the brute
    force's counts, in exact integers."""
    game = ExposedGame(rules)
    coef, base, _ = margin_coefficients(job.paytable, rules, job.pays_on, game.completions)
    reference = brute_force_exposed(rules, [fc.cards for fc in plan(rules)])
    p = prepare(rules, plan(rules))
    flops = np.repeat(p.flop_cards, np.diff(p.hold_offsets), axis=0)
    gained = states = 0  # sum of weight x max(margin, 0); states
    for row, (flop, hole) in enumerate(zip(flops, p.holdings)):
        f, h = tuple(int(c) for c in flop), tuple(int(c) for c in hole)
        counts = np.array([reference[(f, h, e)] for e in rules.deck if e not in f and e not in h])
        margins = base + counts @ np.array(coef, dtype=np.int64)
        gained += int(p.weights[row]) * int(np.maximum(margins, 0).sum())
        states += int(p.weights[row]) * len(counts)
    assert states == game.states
    return -(Fraction(gained, base) - states) / states  # EV(call) = margin / base - 1, EV(fold) = -1


@pytest.mark.parametrize("game, ranks, suits", DECKS)
def test_figures_add_up_and_recover_the_base_game(game, ranks, suits):
    rules, engine, job, sums, result = run_exposure(game, ranks, suits)
    e = result.result.exact
    assert e.deals == rules.hole_cards * rules.total_combinations
    assert e.deals == ExposedGame(rules).total_combinations
    assert result.base_house_edge == engine.decide(job.paytable).exact.house_edge
    assert e.house_edge == optimal_edge_by_brute_force(rules, job)
    assert e.house_edge < result.base_house_edge  # seeing a card is worth something
    # the breakdowns are partitions: their states and EVs add up to the whole
    for table in (result.by_rank, result.by_relation):
        shares = [Fraction(x) for x in table["house_edge_exact"]]
        weights = table["share"].to_numpy()
        assert abs(weights.sum() - 1) < 1e-12
        assert abs(float(sum(Fraction(w) * s for w, s in zip(weights, shares)) - e.house_edge)) < 1e-12
    assert abs(result.pattern["share"].sum() - 1) < 1e-12
    # the simple strategy, played through the groups, is the engine's simple strategy exactly
    a = result.advantage
    assert a.simple_house_edge == engine.decide(job.paytable, STRATEGIES["simple"]).exact.house_edge
    assert e.house_edge <= a.house_edge <= a.simple_house_edge
    assert len(a.describe()) == 4


def test_advantage_strategy_ev_matches_a_state_by_state_brute_force():
    rules, engine, job, sums, result = run_exposure("casino-holdem", "9TJQKA", "cd", "madrid", "call")
    a = result.advantage
    game = ExposedGame(rules)
    coef, base, _ = margin_coefficients(job.paytable, rules, job.pays_on, game.completions)
    reference = brute_force_exposed(rules, [fc.cards for fc in plan(rules)])
    p = prepare(rules, plan(rules))
    flops = np.repeat(p.flop_cards, np.diff(p.hold_offsets), axis=0)
    groups = holding_groups(rules, p.holdings, flops, job.simple)
    low, high = a.low_rank, a.high_rank
    flop_calls = {HAND_CLASSES.index(c) for c in a.flop_pair_calls}
    high_folds = {HAND_CLASSES.index(c) for c in a.high_folds}
    total = Fraction(0)
    states = 0
    for row, (flop, hole) in enumerate(zip(flops, p.holdings)):
        f, h = tuple(int(c) for c in flop), tuple(int(c) for c in hole)
        hand, simple = divmod(int(groups[row]), 2)
        for e in (c for c in rules.deck if c not in f and c not in h):
            rank = e >> 2
            if rank in {x >> 2 for x in f}:
                call = hand in flop_calls
            else:
                call = rank <= low or (simple and not (rank >= high and hand in high_folds))
            margin = base + int(np.dot(coef, reference[(f, h, e)]))
            total += int(p.weights[row]) * (Fraction(margin, base) - 1 if call else -1)
            states += int(p.weights[row])
    assert states == game.states
    assert a.house_edge == -total / states
    assert PAIRS_FLOP == 1 and group_axes(sums).states.sum() == states


def test_information_table_says_what_is_missing():
    rules, engine, job, sums, result = run_exposure("casino-holdem", "9TJQKA", "cd")
    base = engine.decide(job.paytable)
    alone = information_table(base, None, [])
    assert list(alone["information"]) == [
        "none (optimal basic strategy)",
        "1 dealer card seen, 2 dealer cards seen, the turn seen early, colluding seats",
    ]
    assert alone["method"].iloc[-1].startswith("not computed yet")
    sample = SampleJob(rules, job.paytable, "ante", Information("turn"), seed=1)
    margins = [m for i, c in enumerate(sample.shards(300)) for m in sample.margins(i, c)]
    full = information_table(base, result, [estimate_edge(sample, margins)])
    assert list(full["information"][:4]) == [
        "none (optimal basic strategy)",
        "1 dealer card seen (optimal)",
        "1 dealer card seen (simple advantage strategy)",
        "the turn seen early",
    ]
    assert full["house_edge_exact"].iloc[1] == str(result.result.exact.house_edge)
    assert "2 dealer cards seen, colluding seats" == full["information"].iloc[-1]
    seen = seen_card_table(result)
    assert len(seen) == len(result.by_rank) + len(result.by_relation)


@pytest.mark.parametrize(
    "args, message",
    [
        ([], "one of the arguments --exposed --turn --colluders is required"),
        (["--exposed", "1", "--turn"], "not allowed with argument"),
        (["--exposed", "4"], "dealer cards seen must be from 1 to 3, got 4"),
        (["--colluders", "7"], "colluding seats must be from 1 to 6, got 7"),
        (["--turn", "--samples", "1"], "samples must be from 2"),
        (["--turn", "--seed", "-1"], "the seed must be from 0"),
        (
            ["--turn", "--half-width", "0", "--no-cluster", "--game", "casino-holdem"],
            "--half-width: '0' must be positive",
        ),
        (["--exposed", "3", "--game", "casino-holdem", "--no-cluster"], "the dealer holds 2 cards; 3 cannot be seen"),
    ],
)
def test_protect_refuses_bad_arguments_in_one_line(args, message, cli):
    out = cli("protect", *args)
    assert out.returncode == 2 and message in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_two_sampled_states_give_no_normal_interval(holdem, tmp_path, cli):
    """Two states make an estimate and a standard error, not a 95% interval (nor the states
    a half-width needs): the output says so, and the JSON has no interval."""
    args = ("protect", "--turn", "--samples", "2", "--game", "casino-holdem", "--no-cluster", "--results", tmp_path)
    with deadline(30):
        text, data = cli(*args, "--half-width", "0.01"), cli(*args, "--format", "json").json()
    assert text.returncode == 0, text.stderr
    assert "95% interval        none: too few samples for a normal interval (2 < 30)\n" in text.stdout
    assert "for +/- 1.0000%   unknown: too few samples for a normal interval (2 < 30)\n" in text.stdout
    assert (data["samples"], data["normal_interval"], data["ci95_low"], data["ci95_high"]) == (2, False, None, None)
    assert data["note"] == "too few samples for a normal interval (2 < 30)"


@pytest.mark.slow
def test_casino_holdem_one_seen_card_exactly(holdem, cli):
    """The whole game (kept in the shared result store once computed): the README's figures."""
    rules, engine = holdem
    data = cli("protect", "--exposed", "1", "--game", "casino-holdem", "--no-cluster", "--format", "json").json()
    assert (data["game"], data["exposed"], data["paytable"], data["pays_on"]) == ("casino-holdem", 1, "antewin", "ante")
    edge = Fraction(-165610697951, 1738363126500)  # the player's edge: 9.5268%
    # docs/results.md's 75.99%; exact, as the kernel's counts and group sums are the brute
    # force's on small decks (tests/test_exposure.py, the tests above)
    call_rate = Fraction(6825223, 8981700)
    assert data["house_edge_exact"] == str(edge) and data["house_edge"] == float(edge)
    assert data["call_rate"] == float(call_rate)
    assert data["element_of_risk"] == float(edge / (1 + 2 * call_rate))  # per unit wagered: the ante, 2 more called
    assert data["deals"] == 2 * rules.total_combinations
    assert data["base_house_edge"] == float(engine.decide().exact.house_edge)
    assert [row["rank_seen"] for row in data["by_rank"]] == list("23456789TJQKA")
    assert data["advantage_strategy"]["house_edge_exact"] == "-373902466307/6953452506000"
