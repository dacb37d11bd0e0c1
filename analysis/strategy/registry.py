"""Every strategy by name: the engine's own (optimal, always-call, always-fold) and the
simple strategy derived above it. What the command line, the panel and the report offer.

>>> sorted(STRATEGIES)
['always-call', 'always-fold', 'optimal', 'simple']
"""

from __future__ import annotations

from analysis.engine.strategies import BASIC_STRATEGIES, Strategy
from analysis.model.errors import InputError
from analysis.strategy.simple import simple

STRATEGIES: dict[str, Strategy] = BASIC_STRATEGIES | {"simple": simple}


def strategy_named(name: str) -> Strategy:
    """The strategy of that name; an unknown name is an InputError listing the choices."""
    try:
        return STRATEGIES[name]
    except (KeyError, TypeError):
        raise InputError(f"unknown strategy {name!r}; choose one of: {', '.join(STRATEGIES)}") from None
