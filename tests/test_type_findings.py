"""What type checking found: each test fails on the code before its fix (the commit that
added it says how), and passes since."""

from types import MappingProxyType

import pytest

from analysis.cli import main
from analysis.counting.enumeration import count_flops, plan
from analysis.engine.return_engine import ReturnEngine
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.paytable import PayTable, PayTableError
from analysis.model.rules import preset
from analysis.tuning.tuner import Tuner, compare_paytables


@pytest.fixture(scope="module")
def small_engine():
    rules = preset("casino-holdem").small_deck("9TJQKA", "cd")
    return ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules)


def test_a_pay_table_loads_from_any_mapping():
    # load() took only a dict: another mapping fell through to the CSV reader (a TypeError)
    pays = MappingProxyType({c: 2 for c in CATEGORIES})
    assert PayTable.load(pays).pays == PayTable.from_mapping(dict(pays)).pays


def test_pays_from_a_mapping_never_rename_the_table():
    # replace(**pays) with a category named "name" renamed the table (or raised a TypeError)
    with pytest.raises(PayTableError, match="unknown categories: name"):
        PayTable.load(None).with_pays({"name": 3})
    assert PayTable.load(None).with_pays({"flush": 3}, name="t").pays["flush"] == 3


def test_tune_set_name_is_an_unknown_category(capsys):
    # `tune --set name=3` passed name twice to PayTable.replace: a TypeError, shown as a bug
    assert main(["tune", "--set", "name=3"]) == 2
    assert "unknown categories: name" in capsys.readouterr().err


def test_a_sweep_takes_every_keyword_as_a_pay(small_engine):
    # base and strategy could be given by keyword: a pay named base was a TypeError, one
    # named strategy was played as the strategy
    tuner = Tuner(small_engine)
    with pytest.raises(InputError, match="unknown categories: base"):
        tuner.sweep(None, **{"base": [1, 2]})
    with pytest.raises(InputError, match="unknown categories: strategy"):
        tuner.sweep(None, **{"strategy": [1, 2], "flush": [1]})
    assert len(tuner.sweep(None, "optimal", flush=[1, 2])) == 2


def test_a_solve_refuses_a_category_named_twice(small_engine):
    # an integer solve varying one pay twice passed it twice to PayTable.replace: a TypeError
    with pytest.raises(InputError, match="named more than once: flush"):
        Tuner(small_engine).solve(-6, ["flush", "flush"], (0, 10), integer=True)


def test_compare_paytables_takes_any_iterable(small_engine):
    # the pay tables were gone through once per convention: a generator gave the first only
    frame = compare_paytables(["g"], (t for t in (None, "madrid")), engines={"g": small_engine})
    assert len(frame) == 4 and list(frame["pays_on"]) == ["ante", "ante", "call", "call"]
