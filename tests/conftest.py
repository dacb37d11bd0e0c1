"""Shared fixtures: the full-deck return engines are built once (their stores under
data/outcomes are reused by `make report`), and the command line is run as a user runs it.

Tests pass from any working folder: nothing here or in the tests depends on it."""

import json
import subprocess
import sys
from dataclasses import dataclass

import pytest

from analysis.engine.return_engine import load_engine
from analysis.model.rules import preset
from analysis.parallel.options import RunOptions


@pytest.fixture(scope="session")
def holdem():
    return preset("casino-holdem"), load_engine("casino-holdem", RunOptions(progress=False))


@pytest.fixture(scope="session")
def omaha():
    return preset("casino-omaha"), load_engine("casino-omaha", RunOptions(progress=False))


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str

    def json(self):
        assert self.returncode == 0, self.stderr
        return json.loads(self.stdout)


def run_cli(*args: str, cwd=None) -> Run:
    """``casino-omaha ARGS`` in a fresh interpreter, as a user runs it."""
    out = subprocess.run(
        [sys.executable, "-m", "analysis.cli", *map(str, args)], capture_output=True, text=True, cwd=cwd
    )
    return Run(out.returncode, out.stdout, out.stderr)


@pytest.fixture
def cli(tmp_path):
    """Run the command line from an empty folder (not the checkout)."""
    return lambda *args: run_cli(*args, cwd=tmp_path)
