"""The command line: JSON and table output, and clean errors for bad input."""

import json
import subprocess
import sys

import pytest


def cli(*args):
    return subprocess.run([sys.executable, "-m", "analysis.cli", *args], capture_output=True, text=True)


@pytest.mark.slow
def test_report_json_for_casino_holdem(holdem):
    rules, _ = holdem  # builds the store once for the session
    out = cli("report", "--game", "casino-holdem", "--format", "json", "--no-progress")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    for key in ("game", "strategy", "total_combinations", "house_edge", "element_of_risk", "call_rate", "std_dev"):
        assert key in data
    assert data["total_combinations"] == rules.total_combinations
    assert sum(row["combinations"] for row in data["return_table"]) == rules.total_combinations
    table = cli("report", "--game", "casino-holdem", "--strategy", "always-call", "--no-progress")
    assert table.returncode == 0 and "house edge" in table.stdout and "dealer_wins" in table.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["report", "--game", "baccarat"], "unknown game 'baccarat'"),
        (["report", "--paytable", "/no/such/table.csv"], "cannot read the pay table"),
    ],
)
def test_bad_input_is_one_clear_line(args, message):
    out = cli(*args)
    assert out.returncode == 2
    assert message in out.stderr and "Traceback" not in out.stderr


def test_bad_pay_table_file(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("category,pays\nroyal_flush,-1\n")
    out = cli("report", "--paytable", str(bad))
    assert out.returncode == 2 and f"{bad}: row 2: pay -1 for royal_flush is negative" in out.stderr


def test_unknown_option_is_a_usage_error():
    out = cli("report", "--strategy", "sometimes")
    assert out.returncode == 2 and "invalid choice" in out.stderr


@pytest.mark.slow
def test_tune_changes_a_pay_and_solves(holdem):
    out = cli("tune", "--game", "casino-holdem", "--set", "flush=3", "--format", "json", "--no-progress")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["paytable"] == "antewin (changed)" and data["house_edge"] < 0.0216
    solved = cli("tune", "--game", "casino-holdem", "--target", "0.02", "--vary", "flush", "--bounds", "0", "10",
                 "--format", "json", "--no-progress")
    assert solved.returncode == 0, solved.stderr
    row = json.loads(solved.stdout)[0]
    assert row["exact_house_edge"] == "1/50" and 2 < row["flush"] < 2.1


@pytest.mark.parametrize(
    "args, message",
    [
        (["tune", "--target", "0.02"], "--target needs --vary CATEGORY"),
        (["tune", "--set", "flush"], "expected CATEGORY=VALUE, got 'flush'"),
        (["tune", "--set", "flsh=2"], "unknown categories: flsh"),
    ],
)
def test_tune_input_errors(args, message):
    out = cli(*args)
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr
