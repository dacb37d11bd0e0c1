"""Names a user chooses (a side bet's, a pay-table file's) reach the workbook as text: a
name that looks like a formula is neither evaluated when the workbook is opened nor when
its cell is edited (OWASP, CSV injection), and numbers stay numbers."""

from pathlib import Path

import openpyxl
import pytest

from analysis.counting.enumeration import count_flops, plan
from analysis.engine.return_engine import ReturnEngine
from analysis.model.rules import preset
from analysis.report.build import build_report
from deadline import deadline

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.filterwarnings("ignore:Glyph 65309")  # the plots' font has no full-width "＝"
HOSTILE = ['=HYPERLINK("http://x","y")', "#REF!", "\uff1dSUM(1)", "@SUM(1)"]  # full-width "＝" third


def side_bet(folder: Path, name: str, i: int) -> Path:
    path = folder / f"bet{i}.csv"
    quoted = name.replace('"', '""')
    path.write_text(f'bet,"{quoted}"\nkind,final\nline,pays\nroyal_flush,100\nflush,5\n', encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def hostile_book(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    paytable = folder / "=2+3.csv"
    paytable.write_text((ROOT / "analysis/model/paytables/antewin.csv").read_text(encoding="utf-8"), encoding="utf-8")
    bets = [side_bet(folder, name, i) for i, name in enumerate(HOSTILE)]
    rules = preset("casino-holdem").small_deck("9TJQKA", "cd")
    with deadline(120):
        engine = ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules)
        report = build_report(engine, paytable=str(paytable), sidebets=[str(b) for b in bets])
        xlsx, _, _ = report.write(folder / "out")
    return report, openpyxl.load_workbook(xlsx)


def test_formula_like_names_are_quoted_text(hostile_book):
    _, book = hostile_book
    names = [c for c in book["Side bets"]["A"][1:]]
    assert [c.value for c in names] == HOSTILE
    assert [(c.data_type, c.quotePrefix) for c in names] == [("s", True), ("s", False), ("s", True), ("s", True)]
    lines = [c for c in book["Side bet lines"]["A"][1:] if c.value == HOSTILE[0]]
    assert len(lines) == 3 and {(c.data_type, c.quotePrefix) for c in lines} == {("s", True)}
    meta = {row[0].value: row[1] for row in book["Metadata"].iter_rows(min_row=2)}
    assert (meta["pay table"].value, meta["pay table"].data_type, meta["pay table"].quotePrefix) == ("=2+3", "s", True)
    assert (meta["game"].value, meta["game"].quotePrefix) == ("casino-holdem[9TJQKA/cd]", False)


def test_no_cell_is_a_formula_or_an_error_and_numbers_stay_numbers(hostile_book):
    report, book = hostile_book
    kinds = {c.data_type for sheet in book for row in sheet.iter_rows() for c in row if c.value is not None}
    assert kinds == {"s", "n", "b"}  # text, numbers and yes/no
    returns = book["Return table"]
    column = [c.value for c in returns[1]].index("Deals")
    counts = [row[column] for row in returns.iter_rows(min_row=2)]
    assert {c.data_type for c in counts} == {"n"}
    assert [c.value for c in counts] == report.result.table.combinations.tolist()
    summary = {row[0].value: row for row in book["Summary"].iter_rows(min_row=2)}
    exact = summary["house edge"][2]
    assert (exact.value, exact.data_type) == (str(report.result.exact.house_edge), "s")
