"""Exact mathematics of Casino Omaha Poker and its family.

Typical use::

    from analysis import load_engine
    engine = load_engine("casino-omaha")          # the outcome store is computed on first use
    result = engine.decide()                      # default AnteWin table, optimal strategy
    result.table, result.summary()
    engine.decide("madrid", "always-call", pays_on="call")

The public API is the list in ``analysis/__init__.pyi``; each name is imported on first
use, so that ``import analysis`` (and the command line's ``--help``) stays instant.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
