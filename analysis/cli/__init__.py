"""Command line: ``casino-omaha report | solve | games | enumerate | simulate | tune | advise | equity |
final-hands | sidebet | protect | field | verify | app``.

This package owns every parser and every printed line; the domain modules return data.
Each command is one module with ``NAME``, ``add_parser(subparsers)`` and ``run(args)``,
listed in :data:`COMMANDS`; the modules import only argparse at load time and their
heavy imports inside ``run``, so ``casino-omaha --help`` is instant, and a command that
runs imports its own module only (a one-state ``advise`` is a fifth of a second).

Errors the user can act on (bad arguments, cards, pay tables, game names, files, stores:
:class:`analysis.model.errors.AnalysisError` and file errors) end with one line on stderr
and exit code 2; anything else is a bug and shows its traceback (exit code 1). Output
piped into a program that stops reading (``| head``) ends quietly; an interrupted
enumeration keeps its finished shards (exit 130).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from types import ModuleType
from typing import NoReturn

from analysis.model.errors import AnalysisError

#: Every command's name and the module of this package that holds it, in the help's order.
COMMANDS = {
    "report": "report",
    "solve": "solve",
    "games": "games",
    "enumerate": "enumerate_",
    "simulate": "simulate",
    "tune": "tune",
    "advise": "advise",
    "equity": "equity",
    "final-hands": "final_hands",
    "sidebet": "sidebet",
    "protect": "protect",
    "field": "field",
    "verify": "verify",
    "app": "app",
}
PROG = "casino-omaha"


def command_module(name: str) -> ModuleType:
    """The module of the command ``name`` (a key of :data:`COMMANDS`), imported."""
    return importlib.import_module(f"analysis.cli.{COMMANDS[name]}")


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr (exit 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: of every command, or of ``command`` only (what running
    it needs: the other commands' modules are not imported)."""
    top = Parser(prog=PROG, description="Exact mathematics of Casino Omaha Poker and its family.")
    sub = top.add_subparsers(dest="command", required=True, parser_class=Parser)
    for name in COMMANDS if command is None else [command]:
        module = command_module(name)
        module.add_parser(sub)
        sub.choices[module.NAME].set_defaults(run=module.run)
    return top


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parser(argv[0] if argv and argv[0] in COMMANDS else None).parse_args(argv)
    try:
        from analysis.cli.common import refuse_without_board

        refuse_without_board(args)
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
