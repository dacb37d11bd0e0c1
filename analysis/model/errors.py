"""The errors a user can cause: bad input (cards, rules, numbers, names, files) or a store
that cannot be used. The command line prints them as one line and exits 2; any other
exception is a bug and shows its traceback.

>>> issubclass(InputError, AnalysisError) and issubclass(InputError, ValueError)
True
"""

from __future__ import annotations


class AnalysisError(Exception):
    """Base of every error the user can act on; the message says what is wrong and where."""


class InputError(AnalysisError, ValueError):
    """A value given by the user, an option or a file that the tool does not take."""


class SolveError(AnalysisError, ArithmeticError):
    """A target (house edge, return, meter) that no exact value within the bounds reaches,
    for example because the decisions keep changing near the root."""
