"""What type checking found: each test fails on the code before its fix (the commit that
added it says how), and passes since."""

from types import MappingProxyType

import pytest

from analysis.cli import main
from analysis.model.categories import CATEGORIES
from analysis.model.paytable import PayTable, PayTableError


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
