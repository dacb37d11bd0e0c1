"""Pay-table tuning: exact re-optimisation, closed-form strategies, monotonicity, solving."""

from fractions import Fraction

import numpy as np
import pytest

from analysis.enumeration import COLUMNS, count_flops, plan
from analysis.paytable import PayTable, PayTableError
from analysis.returns import evaluate_strategy
from analysis.rules import preset
from analysis.tables import CATEGORIES
from analysis.tune import Tuner, compare_paytables, parse_range, solve_paytable

SMALL = preset("casino-holdem").small_deck("6789TJQKA", "cdhs")  # 4 suits, every state can win


@pytest.fixture(scope="module")
def small():
    return count_flops(SMALL, plan(SMALL))


@pytest.mark.parametrize("pays_on", ["ante", "call"])
@pytest.mark.parametrize("table", ["antewin", "madrid"])
def test_reoptimising_reproduces_the_enumerator_figures(small, pays_on, table):
    paytable = PayTable.load(f"data/paytables/{table}.csv")
    fast = Tuner(small, SMALL, pays_on).evaluate(paytable)
    slow = evaluate_strategy(small, SMALL, paytable, "optimal", pays_on)
    assert fast.exact == slow.exact
    assert np.array_equal(fast.calls, slow.calls)
    assert fast.table["combinations"].tolist() == slow.table["combinations"].tolist()


@pytest.mark.slow
@pytest.mark.parametrize("game", ["holdem", "omaha"])
def test_reoptimising_the_full_games_with_the_default_table(game, request):
    rules, sc = request.getfixturevalue(game)
    assert Tuner(sc, rules).evaluate(None).exact == evaluate_strategy(sc, rules, None, "optimal").exact


@pytest.mark.parametrize("pays_on", ["ante", "call"])
def test_huge_pays_make_calling_always_right(small, pays_on):
    huge = PayTable.from_mapping({c: 10**5 for c in CATEGORIES}, name="huge")
    result = Tuner(small, SMALL, pays_on).evaluate(huge)
    assert result.calls.all()
    assert result.exact == evaluate_strategy(small, SMALL, huge, "always-call", pays_on).exact


def test_zero_pays_follow_the_closed_form(small):
    # nothing paid on the ante: calling nets +2 when the player beats a qualifying dealer,
    # -3 when he loses, 0 otherwise, against -1 for folding
    zero = PayTable.from_mapping({c: 0 for c in CATEGORIES}, name="zero")
    counts = small.counts.astype(np.int64)
    win = counts[:, [COLUMNS.index(f"win_{c}") for c in CATEGORIES]].sum(axis=1)
    loss = counts[:, [COLUMNS.index(f"loss_{c}") for c in CATEGORIES]].sum(axis=1)
    closed_form = 2 * win - 3 * loss > -SMALL.completions
    result = Tuner(small, SMALL).evaluate(zero)
    assert np.array_equal(result.calls, closed_form)
    assert 0 < closed_form.mean() < 1


@pytest.mark.parametrize("pays_on", ["ante", "call"])
@pytest.mark.parametrize("category", CATEGORIES)
def test_raising_a_pay_never_raises_the_house_edge(small, category, pays_on):
    sweep = Tuner(small, SMALL, pays_on).sweep(None, **{category: [0, 1, 2, 3, 5, 10, 50, 200]})
    assert (np.diff(sweep["house_edge"]) <= 1e-15).all()
    assert sweep.columns.tolist() == [category, "house_edge", "element_of_risk", "call_rate", "std_dev", "hit_frequency"]


def test_continuous_solve_hits_the_target_exactly(small):
    tuner = Tuner(small, SMALL)
    base = PayTable.load(None)
    low, high = (tuner.house_edge(base.replace(flush=p)) for p in (10, 0))
    target = low + (high - low) / 3
    found = tuner.solve(target, "flush", bounds=(0, 10))
    assert len(found) == 1 and found["exact_house_edge"][0] == target
    pay = found["exact_pays"][0]["flush"]
    assert 0 < pay < 10
    assert tuner.house_edge(base.replace(flush=pay)) == target
    again = solve_paytable(target, "flush", (0, 10), tuner=tuner)
    assert again["exact_pays"][0] == {"flush": pay}


def test_integer_solve_brackets_the_target(small):
    tuner = Tuner(small, SMALL)
    base = PayTable.load(None)
    target = (tuner.house_edge(base.replace(full_house=3, flush=2)) + tuner.house_edge(base.replace(full_house=3, flush=3))) / 2
    found = tuner.solve(target, ["full_house", "flush"], bounds={"full_house": (1, 6), "flush": (0, 8)}, integer=True, best=50)
    assert (found["flush"] == found["flush"].round()).all() and (found["full_house"] == found["full_house"].round()).all()
    three = found[found["full_house"] == 3].sort_values("flush")
    assert three["flush"].tolist() == [2, 3] and three["error"].iloc[0] > 0 > three["error"].iloc[1]
    best = found.iloc[0]
    assert abs(best["error"]) == found["error"].abs().min()
    table = base.replace(full_house=int(best["full_house"]), flush=int(best["flush"]))
    assert tuner.house_edge(table) == best["exact_house_edge"]


def test_unreachable_target_is_a_clear_error(small):
    with pytest.raises(ValueError, match=r"out of reach: with flush paying 0 to 3 the house edge ranges from"):
        Tuner(small, SMALL).solve(0.9, "flush", bounds=(0, 3))
    with pytest.raises(ValueError, match="varies one pay"):
        Tuner(small, SMALL).solve(0.0, ["flush", "pair"], bounds=(0, 3))


def test_bad_tables_and_arguments(small):
    tuner = Tuner(small, SMALL)
    with pytest.raises(PayTableError, match="missing categories: pair"):
        tuner.evaluate({c: 1 for c in CATEGORIES if c != "pair"})
    with pytest.raises(PayTableError, match="flush: pay -1 is negative"):
        tuner.evaluate(PayTable.load(None).pays | {"flush": -1})
    with pytest.raises(PayTableError, match="flush: pay 'two' is not a number"):
        tuner.evaluate(PayTable.load(None).pays | {"flush": "two"})
    with pytest.raises(ValueError, match="unknown categories: flsh"):
        tuner.sweep(None, flsh=[1, 2])
    with pytest.raises(ValueError, match="bad range"):
        parse_range("3:1:1")


def test_madrid_table_states_its_straight_flush_choice():
    text = open("data/paytables/madrid.csv").read()
    madrid = PayTable.load("data/paytables/madrid.csv")
    assert "straight flush" in text and "royal" in text
    assert madrid.pays["straight_flush"] == madrid.pays["royal_flush"] == madrid.pays["four_of_a_kind"] == 20
    assert [madrid.pays[c] for c in ("full_house", "flush", "straight", "three_of_a_kind", "two_pair", "pair", "high_card")] == [7, 5, 4, 3, 2, 1, 1]


@pytest.mark.slow
def test_only_antewin_on_the_ante_is_offerable(holdem):
    frame = compare_paytables(["casino-holdem"], ["data/paytables/antewin.csv", "data/paytables/madrid.csv"])
    edge = frame.set_index(["paytable", "pays_on"])["house_edge"]
    assert round(edge[("antewin", "ante")], 4) == 0.0216
    assert (edge.drop(("antewin", "ante")) < 0).all()
