"""Command line: ``casino-omaha report | solve | games | enumerate | simulate | tune | advise | equity |
final-hands | sidebet | protect | field | verify | app``.

This package owns every parser and every printed line; the domain modules return data.
Each command is one module with ``NAME``, ``add_parser(subparsers)`` and ``run(args)``,
listed in :data:`COMMANDS`; the modules import only argparse at load time and their
heavy imports inside ``run``, so ``casino-omaha --help`` is instant.

Errors the user can act on (bad arguments, cards, pay tables, game names, files, stores:
:class:`analysis.model.errors.AnalysisError` and file errors) end with one line on stderr
and exit code 2; anything else is a bug and shows its traceback (exit code 1). Output
piped into a program that stops reading (``| head``) ends quietly; an interrupted
enumeration keeps its finished shards (exit 130).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

from analysis.cli import (
    advise,
    app,
    enumerate_,
    equity,
    field,
    final_hands,
    games,
    protect,
    report,
    sidebet,
    simulate,
    solve,
    tune,
    verify,
)
from analysis.model.errors import AnalysisError

COMMANDS = (
    report,
    solve,
    games,
    enumerate_,
    simulate,
    tune,
    advise,
    equity,
    final_hands,
    sidebet,
    protect,
    field,
    verify,
    app,
)
PROG = "casino-omaha"


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr (exit 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def parser() -> argparse.ArgumentParser:
    top = Parser(prog=PROG, description="Exact mathematics of Casino Omaha Poker and its family.")
    sub = top.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in COMMANDS:
        command.add_parser(sub)
        sub.choices[command.NAME].set_defaults(run=command.run)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        code = args.run(args)
        sys.stdout.flush()
        return code
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted; finished shards are kept and the next run resumes", file=sys.stderr)
        return 130
    except (AnalysisError, OSError) as e:  # what the user typed, a file, a store, a scheduler
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except Exception:  # a bug: its traceback follows, and the exit code is 1
        print(f"{PROG}: internal error (a bug, please report it with the traceback below)", file=sys.stderr)
        raise
