"""Sampled runs with more information: each state exact, the estimate covers the exact
figures where they are known, its standard error shrinks as 1/sqrt(N), and it is
reproducible whatever the order of the shards."""

from fractions import Fraction
from math import ceil

import numpy as np
import pytest

from analysis.counting.enumeration import count_flops, plan
from analysis.counting.informed import Knowledge, state_counts
from analysis.engine.return_engine import ReturnEngine
from analysis.engine.statistics import z_score
from analysis.model.payoffs import margin_coefficients
from analysis.model.paytable import PayTable
from analysis.model.rules import preset
from analysis.protection.exposure import ExposedGame, ExposureJob
from analysis.protection.sampling import (
    MIN_NORMAL_SAMPLES,
    BaseGameControl,
    Information,
    SampleJob,
    estimate_edge,
    margins_digest,
)
from analysis.strategy.simple import derive_simple_strategy


@pytest.fixture(scope="module")
def small():
    rules = preset("casino-omaha").small_deck("89TJQKA", "cd")
    return rules, ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules), PayTable.load(None)


def run(job, samples):
    return [m for i, c in enumerate(job.shards(samples)) for m in job.margins(i, c, threads=2)]


def test_no_information_covers_the_base_games_exact_edge_and_shrinks_as_one_over_root_n(small):
    rules, engine, table = small
    exact = engine.decide(table).exact.house_edge
    job = SampleJob(rules, table, "ante", Information("none"), seed=2026)
    margins = run(job, 4096)
    short, long = estimate_edge(job, margins[:1024]), estimate_edge(job, margins)
    for e in (short, long):
        low, high = e.interval()
        assert low <= exact <= high, (e.house_edge, e.std_error, float(exact))
    assert 0.4 < long.std_error / short.std_error < 0.6  # 1/sqrt(4) = 0.5
    # with the base game as control variate, no information is the base game itself
    control = estimate_edge(job, margins[:512], BaseGameControl(engine, table, "ante"))
    assert control.house_edge == exact and control.std_error == 0


def test_one_seen_card_covers_the_exact_exposure_edge(small):
    rules, engine, table = small
    simple = derive_simple_strategy(engine, table, "ante")
    sums = ExposureJob(rules, table, "ante", simple).run(plan(rules), threads=2)
    game = ExposedGame(rules)
    _, scale, _ = margin_coefficients(table, rules, "ante", game.completions)
    total = int(sums.states.sum())
    exact = -Fraction(int(sums.margins[..., 1].sum()) - total * scale, total * scale)
    job = SampleJob(rules, table, "ante", Information("exposed", 1), seed=5)
    margins = run(job, 2048)
    plain, paired = estimate_edge(job, margins), estimate_edge(job, margins, BaseGameControl(engine, table, "ante"))
    for e in (plain, paired):
        assert abs(float(e.house_edge - exact)) < 3 * e.std_error, (float(e.house_edge), e.std_error, float(exact))
    assert paired.std_error < plain.std_error  # the control variate pays
    assert paired.states_needed(0.01) < plain.states_needed(0.01)


def test_each_state_is_exact_and_runs_are_reproducible(small):
    rules, _, table = small
    job = SampleJob(rules, table, "call", Information("colluders", 1), seed=11, batch=50)
    first = run(job, 120)
    assert first == run(job, 120) and first[:70] == run(job, 70)  # a longer run extends a shorter one
    backwards = {i: job.margins(i, c, threads=1) for i, c in reversed(list(enumerate(job.shards(120))))}
    assert margins_digest([m for i in sorted(backwards) for m in backwards[i]]) == margins_digest(first)
    states = job.draw(1, 3)
    k = rules.hole_cards
    coef, base, _ = margin_coefficients(table, rules, "call", job.information.completions(rules))
    for i in range(3):
        dead = tuple(c for c in rules.deck if int(states["dead"][i]) >> c & 1)
        assert len(dead) == k  # one colluder's hole cards
        counts = state_counts(rules, states["holes"][i].tolist(), states["flops"][i].tolist(), Knowledge(dead=dead))
        assert first[50 + i] == base + int(np.dot(coef, counts))
    assert SampleJob(rules, table, "call", Information("colluders", 1), seed=12, batch=50).margins(0, 5) != first[:5]


@pytest.mark.parametrize(
    "kind, amount, message",
    [
        ("exposed", 4, "the dealer holds 3 cards; 4 cannot be seen"),
        ("colluders", 0, "give a number"),
        ("turn", 2, "give a number"),
        ("peek", 0, "unknown information 'peek'"),
    ],
)
def test_bad_information_is_refused(kind, amount, message):
    with pytest.raises(ValueError, match=message):
        Information(kind, amount).sizes(preset("casino-omaha"))


def test_too_few_states_give_no_normal_interval(small):
    """From 29 states the estimate stands, but no 95% interval or states-needed figure does."""
    rules, _, table = small
    job = SampleJob(rules, table, "ante", Information("none"), seed=3)
    margins = run(job, MIN_NORMAL_SAMPLES)
    few, enough = estimate_edge(job, margins[:-1]), estimate_edge(job, margins)
    assert MIN_NORMAL_SAMPLES == 30 and few.samples == 29 and not few.normal_interval
    assert few.interval() is None and few.states_needed(0.01) is None
    s = few.summary(0.01)
    assert (s["normal_interval"], s["ci95_low"], s["ci95_high"], s["states_needed"]) == (False, None, None, None)
    assert s["note"] == few.too_few == "too few samples for a normal interval (29 < 30)"
    assert enough.normal_interval and enough.too_few == "" and "note" not in enough.summary()
    half = z_score(0.95) * enough.std_error
    assert enough.interval() == (float(enough.house_edge) - half, float(enough.house_edge) + half) and half > 0
    assert enough.states_needed(0.01) == max(30, ceil((z_score(0.95) * enough.standard_deviation / 0.01) ** 2))
