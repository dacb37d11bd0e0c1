"""Pay-table tuning: exact re-optimisation, closed-form strategies, monotonicity, solving."""

from fractions import Fraction

import numpy as np
import pytest

from analysis.counting.enumeration import count_flops, plan
from analysis.engine.return_engine import ReturnEngine
from analysis.model.categories import CATEGORIES
from analysis.model.paytable import PayTable, PayTableError
from analysis.model.rules import preset
from analysis.tuning.tuner import MAX_SWEEP, Tuner, compare_paytables, solve_paytable
from exact_figures import HOLDEM_OPTIMAL_EDGE

SMALL = preset("casino-holdem").small_deck("6789TJQKA", "cdhs")  # 4 suits, every state can win


@pytest.fixture(scope="module")
def engine():
    return ReturnEngine.from_counts(count_flops(SMALL, plan(SMALL)), SMALL)


@pytest.mark.parametrize("pays_on", ["ante", "call"])
def test_huge_pays_make_calling_always_right(engine, pays_on):
    huge = PayTable.from_mapping({c: 10**5 for c in CATEGORIES}, name="huge")
    result = Tuner(engine, pays_on).evaluate(huge)
    assert result.calls.all()
    assert result.exact == Tuner(engine, pays_on).evaluate(huge, "always-call").exact


@pytest.mark.parametrize("pays_on", ["ante", "call"])
@pytest.mark.parametrize("category", CATEGORIES)
def test_raising_a_pay_never_raises_the_house_edge(engine, category, pays_on):
    sweep = Tuner(engine, pays_on).sweep(None, **{category: [0, 1, 2, 3, 5, 10, 50, 200]})
    assert (np.diff(sweep["house_edge"]) <= 1e-15).all()
    assert sweep.columns.tolist() == [
        category,
        "house_edge",
        "element_of_risk",
        "call_rate",
        "standard_deviation",
        "hit_frequency",
    ]


def test_continuous_solve_hits_the_target_exactly(engine):
    tuner = Tuner(engine)
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


def test_integer_solve_brackets_the_target(engine):
    tuner = Tuner(engine)
    base = PayTable.load(None)
    target = (
        tuner.house_edge(base.replace(full_house=3, flush=2)) + tuner.house_edge(base.replace(full_house=3, flush=3))
    ) / 2
    found = tuner.solve(
        target, ["full_house", "flush"], bounds={"full_house": (1, 6), "flush": (0, 8)}, integer=True, best=50
    )
    assert (found["flush"] == found["flush"].round()).all() and (
        found["full_house"] == found["full_house"].round()
    ).all()
    three = found[found["full_house"] == 3].sort_values("flush")
    assert three["flush"].tolist() == [2, 3] and three["error"].iloc[0] > 0 > three["error"].iloc[1]
    best = found.iloc[0]
    assert abs(best["error"]) == found["error"].abs().min()
    table = base.replace(full_house=int(best["full_house"]), flush=int(best["flush"]))
    assert tuner.house_edge(table) == best["exact_house_edge"]


def test_unreachable_target_is_a_clear_error(engine):
    with pytest.raises(ValueError, match=r"out of reach: with flush paying 0 to 3 the house edge ranges from"):
        Tuner(engine).solve(0.9, "flush", bounds=(0, 3))
    with pytest.raises(ValueError, match="varies one pay"):
        Tuner(engine).solve(0.0, ["flush", "pair"], bounds=(0, 3))


def test_bad_tables_and_arguments(engine):
    tuner = Tuner(engine)
    with pytest.raises(PayTableError, match="missing categories: pair"):
        tuner.evaluate({c: 1 for c in CATEGORIES if c != "pair"})
    with pytest.raises(PayTableError, match="flush: pay -1 is negative"):
        tuner.evaluate(PayTable.load(None).pays | {"flush": -1})
    with pytest.raises(PayTableError, match="flush: pay 'two' is not a number"):
        tuner.evaluate(PayTable.load(None).pays | {"flush": "two"})
    with pytest.raises(ValueError, match="unknown categories: flsh"):
        tuner.sweep(None, flsh=[1, 2])
    with pytest.raises(ValueError, match="too large"):
        tuner.sweep(None, flush=range(MAX_SWEEP + 1))


def test_madrid_table_states_its_straight_flush_choice():
    from analysis.model.paytable import builtin_paytables

    text = builtin_paytables()["madrid"]
    madrid = PayTable.load("madrid")
    assert "straight flush" in text and "royal" in text
    assert madrid.pays["straight_flush"] == madrid.pays["royal_flush"] == madrid.pays["four_of_a_kind"] == 20
    assert [
        madrid.pays[c] for c in ("full_house", "flush", "straight", "three_of_a_kind", "two_pair", "pair", "high_card")
    ] == [7, 5, 4, 3, 2, 1, 1]


@pytest.mark.slow
def test_only_antewin_on_the_ante_is_offerable(holdem):
    frame = compare_paytables(["casino-holdem"], ["antewin", "madrid"], engines={"casino-holdem": holdem[1]})
    edge = frame.set_index(["paytable", "pays_on"])["house_edge"]
    assert edge[("antewin", "ante")] == float(HOLDEM_OPTIMAL_EDGE)
    assert (edge.drop(("antewin", "ante")) < 0).all()


def test_zero_pays_follow_the_closed_form(engine):
    # nothing paid on the ante: calling nets +2 when the player beats a qualifying dealer,
    # -3 when he loses, 0 otherwise, against -1 for folding
    sc = engine.source
    zero = PayTable.from_mapping({c: 0 for c in CATEGORIES}, name="zero")
    counts = sc.counts.astype(np.int64)
    win, loss = counts[:, 1::4].sum(axis=1), counts[:, 3::4].sum(axis=1)
    closed_form = 2 * win - 3 * loss > -SMALL.completions
    result = Tuner(engine).evaluate(zero)
    assert np.array_equal(result.calls, closed_form)
    assert 0 < closed_form.mean() < 1
    assert result.exact.call_rate == Fraction(int(sc.weight[closed_form].sum()), SMALL.states)


def test_a_solved_table_saved_as_csv_reads_back_exactly(engine, tmp_path):
    tuner = Tuner(engine)
    base = PayTable.load(None)
    low, high = (tuner.house_edge(base.replace(flush=p)) for p in (10, 0))
    found = tuner.solve(low + (high - low) / 7, "flush", bounds=(0, 10))
    table = tuner.solved_table(found)
    path = tmp_path / "solved.csv"
    path.write_text(table.to_csv())
    again = PayTable.load(path)
    assert again.pays == table.pays and again.pays["flush"] == found["exact_pays"][0]["flush"]
    assert tuner.house_edge(again) == found["exact_house_edge"][0]


@pytest.mark.slow
def test_a_solved_large_denominator_table_reports(holdem, cli, tmp_path):
    """Solve in the API, save the table, report it from the command line: the same figures."""
    rules, full = holdem
    tuner = Tuner(full)
    found = tuner.solve(0.0205, "flush", bounds=(0, 10))
    table = tuner.solved_table(found)
    assert table.pays["flush"].denominator > 10**6 and found["exact_house_edge"][0] == Fraction("0.0205")
    path = tmp_path / "solved.csv"
    path.write_text(table.to_csv())
    data = cli("report", "--game", "casino-holdem", "--paytable", path, "--format", "json", "--no-progress").json()
    assert Fraction(data["house_edge_exact"]) == Fraction("0.0205")
    assert sum(row["deals"] for row in data["return_table"]) == rules.total_combinations
