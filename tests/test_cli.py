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
