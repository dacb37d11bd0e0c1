"""Fuzz tests (hypothesis) of what users type: card text, pay-table files and numeric
options. Every input gives a result or one clear error (exit code 2 on the command line),
never a traceback or a crash."""

import io
from contextlib import redirect_stderr, redirect_stdout
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis.cli import main, parser
from analysis.model.cards import RANKS, SUITS, parse_cards
from analysis.model.categories import CATEGORIES
from analysis.model.paytable import PayTable, PayTableError

CARD_TEXT = st.text(alphabet=RANKS + SUITS + RANKS.lower() + SUITS.upper() + " ,10♠♥x", max_size=24)


@given(CARD_TEXT)
def test_card_text_parses_or_says_why(text):
    try:
        cards = parse_cards(text)
    except ValueError as e:
        assert str(e) and "\n" not in str(e)
    else:
        assert len(set(cards)) == len(cards) and all(0 <= c < 52 for c in cards)


LINES = st.one_of(
    st.sampled_from(["category,pays", "# comment", "", "\ufeffcategory,pays"]),
    st.builds(
        lambda c, p: f"{c},{p}",
        st.sampled_from(CATEGORIES + ("five_of_a_kind",)),
        st.one_of(st.integers(-5, 10**6).map(str), st.sampled_from(["1.5", "3/2", "1/0", "x", "1e3", "nan"])),
    ),
    st.text(max_size=20),
)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=150)
@given(st.one_of(st.lists(LINES, max_size=14).map(lambda lines: "\n".join(lines).encode()), st.binary(max_size=200)))
def test_pay_table_files_load_or_name_the_file(tmp_path, data):
    path = tmp_path / "table.csv"
    path.write_bytes(data)
    try:
        table = PayTable.from_csv(path)
    except PayTableError as e:
        assert str(e).startswith(str(path)) and "\n" not in str(e)
    else:
        assert set(table.pays) == set(CATEGORIES) and all(
            isinstance(p, Fraction) and p >= 0 for p in table.pays.values()
        )


NUMBERS = st.one_of(st.integers(-(10**30), 10**30).map(str), st.sampled_from(["", "x", "1.5", "3/2", "-0", "1e9"]))
OPTIONS = [
    (["report"], "--threads"),
    (["enumerate"], "--threads"),
    (["simulate"], "--hands"),
    (["simulate"], "--seed"),
    (["equity", "As Ah Ks Kh", "7c 8d 9c Td"], "--pot-chips"),
    (["tune"], "--target"),
]


def run(argv):
    err, out = io.StringIO(), io.StringIO()
    with redirect_stderr(err), redirect_stdout(out):
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code
    return code, err.getvalue()


@pytest.mark.parametrize("command, option", OPTIONS)
@settings(max_examples=40)
@given(value=NUMBERS)
def test_numeric_options_parse_or_give_one_line(command, option, value):
    try:
        args = parser().parse_args([*command, option, value])
    except SystemExit:
        code, err = run([*command, option, value])
        assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    else:  # accepted values are within their bounds
        number = getattr(args, option[2:].replace("-", "_"))
        assert {
            "--threads": 1 <= number <= 256,
            "--hands": 1 <= number <= 10**9,
            "--seed": 0 <= number,
            "--pot-chips": 1 <= number,
            "--target": True,
        }[option]


@settings(max_examples=60, deadline=None)
@given(CARD_TEXT, CARD_TEXT)
def test_equity_command_answers_or_gives_one_line(first, second):
    code, err = run(["equity", first, second, "--board", "2c 3d 4h 5s", "--format", "json"])
    assert code in (0, 2)
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
