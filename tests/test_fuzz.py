"""Fuzz tests (hypothesis) of what users type: card text, pay-table files and numeric
options; and hostile input to the command line and the API (numbers that would expand
without end, folders that cannot be written, arguments of the wrong type). Every input
gives a result or one clear error (exit code 2 on the command line), never a traceback, a
crash or a hang: each hostile input answers within a deadline, before any work starts."""

import io
import os
import re
from contextlib import redirect_stderr, redirect_stdout
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis.cli import main, parser
from analysis.counting.enumeration import count_flops, plan
from analysis.engine.return_engine import ReturnEngine, load_engine
from analysis.model.cards import RANKS, SUITS, parse_cards
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.paytable import PayTable, PayTableError
from analysis.model.rules import preset
from analysis.omaha4.distribution import final_hand_distribution
from analysis.protection.runs import sampled_run
from analysis.protection.sampling import Information
from analysis.sidebets.bet import SideBet, SideBetError
from analysis.tuning.tuner import Tuner
from deadline import deadline

HUGE = "9" * 5000  # echoed back cut short: '9999999999999999999...' (5,000 characters)
OUT_OF_RANGE = (
    "is out of range: an exact number has at most 40 digits (in p/q, each of p and q) and an exponent within ±40"
)

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


NUMBERS = st.one_of(
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(["", "x", "1.5", "3/2", "-0", "1e9", "1/0", "1e400", "1e999999999", "-1e-999999999", HUGE]),
)
OPTIONS = [
    (["report"], "--threads"),
    (["enumerate"], "--threads"),
    (["simulate"], "--hands"),
    (["simulate"], "--seed"),
    (["equity", "As Ah Ks Kh", "7c 8d 9c Td"], "--pot-chips"),
    (["tune"], "--target"),
    (["protect", "--turn"], "--half-width"),
    (["sidebet", "--bet", "aa-bonus"], "--meter"),
    (["sidebet", "--bet", "aa-bonus"], "--seats"),
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
        with deadline():
            args = parser().parse_args([*command, option, value])
    except SystemExit:
        with deadline():
            code, err = run([*command, option, value])
        assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err and len(err) < 400
    else:  # accepted values are within their bounds
        number = getattr(args, option[2:].replace("-", "_"))
        assert {
            "--threads": 1 <= number <= 256,
            "--hands": 1 <= number <= 10**9,
            "--seed": 0 <= number,
            "--pot-chips": 1 <= number,
            "--target": abs(number) <= 10**30,
            "--half-width": 0 < number <= 10**30,
            "--meter": abs(number) <= 10**30,
            "--seats": 1 <= number <= 100,
        }[option]


@settings(max_examples=60, deadline=None)
@given(CARD_TEXT, CARD_TEXT)
def test_equity_command_answers_or_gives_one_line(first, second):
    code, err = run(["equity", first, second, "--board", "2c 3d 4h 5s", "--format", "json"])
    assert code in (0, 2)
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    "args, message",
    [
        (["tune", "--target", "1e999999999"], f"argument --target: '1e999999999' {OUT_OF_RANGE}"),
        (["tune", "--target", "1e400"], f"argument --target: '1e400' {OUT_OF_RANGE}"),
        (["tune", "--bounds", "0", "1e999999999"], f"argument --bounds: '1e999999999' {OUT_OF_RANGE}"),
        (["tune", "--set", "flush=1e999999999"], f"flush: pay '1e999999999' {OUT_OF_RANGE}"),
        (["tune", "--set", f"flush={HUGE}"], f"flush: pay '9999999999999999999...' (5,000 characters) {OUT_OF_RANGE}"),
        (["tune", "--sweep", "flush=1:1e999999999:1"], f"bad range '1:1e999999999:1': '1e999999999' {OUT_OF_RANGE}"),
        (["tune", "--set", f"{HUGE}"], "expected CATEGORY=VALUE, got '9999999999999999999...' (5,000 characters)"),
        (["protect", "--turn", "--half-width", "1e999999999"], f"argument --half-width: '1e999999999' {OUT_OF_RANGE}"),
        (["protect", "--turn", "--half-width=-1/2"], "argument --half-width: '-1/2' must be positive"),
        (["sidebet", "--bet", "aa-bonus", "--meter", "1e999999999"], f"argument --meter: '1e999999999' {OUT_OF_RANGE}"),
        (["sidebet", "--bet", "aa-bonus", "--stake", HUGE], "argument --stake: '9999999999999999999...' (5,000"),
        (
            ["sidebet", "--bet", "aa-bonus", "--seats", HUGE],
            "seats must be from 1 to 100, got '9999999999999999999...'",
        ),
        (["simulate", "--hands", HUGE], "hands must be from 1 to 1,000,000,000, got '9999999999999999999...' (5,000"),
        (["final-hands", "--paytable", "BAD"], "argument --paytable: BAD: cannot read the pay table"),
        (["final-hands", "--hole-cards", "5"], "argument --hole-cards: hole cards must be from 3 to 4, got 5"),
    ],
)
def test_hostile_arguments_fail_at_once_in_one_short_line(args, message, cli):
    with deadline():
        out = cli(*args)
    assert out.returncode == 2 and out.stdout == "" and message in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and len(out.stderr) < 400


@pytest.fixture
def read_only_folder(tmp_path):
    """A folder nothing can be written into: permission bits do not stop root, /sys does."""
    if os.geteuid() == 0:
        return "/sys"
    folder = tmp_path / "read-only"
    folder.mkdir(mode=0o555)
    return folder


def test_an_output_folder_that_cannot_be_written_fails_before_any_work(tmp_path, read_only_folder, cli):
    """Checked with the arguments: an empty --store would be enumerated first (minutes)."""
    store, a_file = tmp_path / "store", tmp_path / "a-file"
    store.mkdir()
    a_file.write_text("x")
    for out, message in [
        (a_file, f"argument --out: {a_file} is a file, not a folder"),
        (a_file / "reports", f"argument --out: {a_file / 'reports'}: {a_file} is a file, not a folder"),
        (
            f"{read_only_folder}/reports",
            f"--out: {read_only_folder}/reports: cannot write into {read_only_folder}",
        ),
    ]:
        with deadline():
            run = cli("report", "--game", "casino-holdem", "--store", store, "--out", out)
        assert run.returncode == 2 and message in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr
    for plot, message in [
        (tmp_path, f"argument --plot: {tmp_path} is a folder, not a file"),
        (tmp_path / "no" / "sweep.png", f"argument --plot: {tmp_path / 'no' / 'sweep.png'}: the folder"),
    ]:
        with deadline():
            run = cli("tune", "--store", store, "--sweep", "flush=1,2", "--plot", plot)
        assert run.returncode == 2 and message in run.stderr, run.stderr
    assert list(store.iterdir()) == [] and a_file.read_text() == "x"


def test_files_with_hostile_numbers_fail_at_once(tmp_path, cli):
    table = tmp_path / "table.csv"
    rows = [f"{c},1" for c in CATEGORIES if c != "flush"]
    for pay, shown in [("1e999999999", "'1e999999999'"), (HUGE, "'9999999999999999999...' (5,000 characters)")]:
        table.write_text("\n".join(["category,pays", *rows, f"flush,{pay}"]))
        with deadline():
            out = cli("report", "--paytable", table)
        assert out.returncode == 2 and len(out.stderr) < 400, out.stderr
        assert f"argument --paytable: {table}: row 11: pay for flush: {shown} {OUT_OF_RANGE}" in out.stderr
    bet = tmp_path / "bet.csv"
    bet.write_text("kind,final\nseed,1e999999999\nline,pays\nroyal_flush,meter\n")
    with deadline():
        out = cli("sidebet", "--bet", bet)
    assert out.returncode == 2 and f"{bet}: row 2: seed: '1e999999999' {OUT_OF_RANGE}" in out.stderr, out.stderr
    bet.write_text("kind,final\nseed,100\nline,pays\nroyal_flush,meter*1e-999999999%\n")
    with deadline():
        out = cli("sidebet", "--bet", bet)
    assert out.returncode == 2 and f"{bet}: row 4: meter share: '1e-999999999' {OUT_OF_RANGE}" in out.stderr


@pytest.fixture(scope="module")
def small_engine():
    rules = preset("casino-holdem").small_deck("9TJQKA", "cd")
    return ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules)


def test_hostile_numbers_from_python_fail_at_once_and_name_the_parameter(small_engine):
    tuner, bet = Tuner(small_engine), SideBet.load("aa-bonus")
    cases = [
        (lambda: PayTable.load(None).replace(flush="1e999999999"), f"flush: pay '1e999999999' {OUT_OF_RANGE}"),
        (lambda: PayTable.load(None).replace(flush=1e300), f"flush: pay 1e+300 {OUT_OF_RANGE}"),
        (lambda: PayTable.load(None).replace(flush=10**5000), "flush: pay an integer of about 5,001 digits is out"),
        (lambda: PayTable.load(None).replace(flush=float("inf")), "flush: pay inf is not a number"),
        (lambda: bet.with_pays({"pair:A": HUGE}), "line 'pair:A': pay '9999999999999999999...' (5,000 characters)"),
        (lambda: tuner.solve("1e999999999", "flush"), f"target house edge: '1e999999999' {OUT_OF_RANGE}"),
        (lambda: tuner.solve(0.02, "flush", (0, "1e400")), f"bounds of flush: high: '1e400' {OUT_OF_RANGE}"),
        (lambda: tuner.solve(0.02, "flush", {"straight": (0, 9)}), "bounds of flush: give (low, high), not None"),
        (lambda: tuner.sweep(None, "optimal", flush=[1, "1e999999999"]), f"sweep flush: '1e999999999' {OUT_OF_RANGE}"),
    ]
    for call, message in cases:
        with deadline(), pytest.raises(InputError, match=re.escape(message)):
            call()


@pytest.mark.parametrize(
    "call, error, message",
    [
        (
            lambda: load_engine(42),
            InputError,
            "game: 42 (int) is not a game: give a name (casino-omaha,",
        ),
        (lambda: load_engine("casino-holdem", 3), InputError, "options: 3 (int) is not a RunOptions"),
        (lambda: load_engine("baccarat"), InputError, "unknown game 'baccarat'; choose one of: casino-omaha"),
        (lambda: PayTable.load(123), PayTableError, "pay table 123 (int): give a PayTable, a CSV path, the name of a"),
        (lambda: SideBet.load(None), SideBetError, "side bet None (NoneType): give a SideBet, a CSV path or the name"),
        (lambda: preset("casino-omaha").small_deck("XYZ"), InputError, "small deck: unknown ranks 'XYZ' (known: 2345"),
        (lambda: preset("casino-omaha").small_deck("99TJQKA"), InputError, "small deck: ranks 9 named more than once"),
        (lambda: preset("casino-omaha").small_deck("9TJQKA", "cdcd"), InputError, "small deck: suits cd named more"),
        (lambda: preset("casino-omaha").small_deck(9), InputError, "small deck: ranks are a text of letters from"),
        (lambda: final_hand_distribution(4.0), InputError, "hole_cards must be 3 (Casino Omaha) or 4 (Omaha), got 4.0"),
        (lambda: sampled_run("casino-holdem", "turn", 30, 0), InputError, "information: 'turn' is not an Information"),
        (lambda: sampled_run("casino-holdem", Information("turn"), 2.5, 0), InputError, "samples: a sampled run needs"),
        (lambda: sampled_run("casino-holdem", Information("turn"), 30, -1), InputError, "seed: a whole number from 0"),
        (lambda: sampled_run(7, Information("turn"), 30, 0), InputError, "rules: 7 (int) is not a game"),
    ],
)
def test_api_misuse_names_the_parameter(call, error, message):
    with deadline(), pytest.raises(error) as e:
        call()
    assert str(e.value).startswith(message), str(e.value)
