"""Shared fixtures: the full-deck return engines are built once (their stores under
data/outcomes are reused by `make report`), and the command line is run through its entry
point, ``analysis.cli.main(argv)``, in this process (``cli``) or, where the process is the
point (exit codes, environment, the console script), in a fresh interpreter as a user runs
it (``cli_process``).

Tests pass from any working folder: nothing here or in the tests depends on it."""

import json
import subprocess
import sys
from dataclasses import dataclass

import pytest

from analysis.cli import main
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
def cli_process(tmp_path):
    """Run the command line in a fresh interpreter from an empty folder (not the checkout)."""
    return lambda *args: run_cli(*args, cwd=tmp_path)


@pytest.fixture
def cli(tmp_path, monkeypatch, capsys):
    """Run the command line in this process from an empty folder (not the checkout): what
    ``analysis.cli.main`` returns, or the code it exits with (argparse's usage errors), and
    what it wrote to stdout and stderr. A bug (any other exception) fails the test with its
    traceback, as it would end the process."""
    monkeypatch.chdir(tmp_path)

    def run(*args) -> Run:
        capsys.readouterr()  # only this command's output
        try:
            code = main([str(a) for a in args])
        except SystemExit as e:
            code = e.code
        out = capsys.readouterr()
        return Run(code, out.out, out.err)

    return run
