"""Rule variants a designer turns: the dealer's qualifier and the call bet.

The two knobs cost very differently. The call bet only changes what a called hand wins or
loses, so another call multiple plays the same counts (:meth:`ReturnEngine.with_rules`):
a re-optimisation, about as fast as a new pay table. The qualifier decides which deals are
"dealer does not qualify", so it changes the counts: each qualifier has its own outcome
store, enumerated once (about a minute for Casino Omaha on 2 cores, seconds for Casino
Hold'em) and kept, so the second look is instant.

>>> from analysis.model.rules import preset
>>> r = variant_rules("casino-holdem", qualifier_rank=None, call_multiple=1)
>>> r.qualifier_phrase, r.call_multiple, r.fingerprint() == preset("casino-holdem").fingerprint()
('the dealer always qualifies', 1, False)
>>> [qualifier_label(q) for q in QUALIFIERS[:3]]
['none (the dealer always qualifies)', 'a pair of 2s or better', 'a pair of 3s or better']
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import replace
from typing import Final, Literal

import pandas as pd

from analysis.engine.return_engine import ReturnEngine, load_engine
from analysis.model.cards import RANKS
from analysis.model.payoffs import check_pays_on
from analysis.model.paytable import PayTable, PayTableSpec
from analysis.model.rules import Rules, as_rules, qualifier_text
from analysis.parallel.options import RunOptions
from analysis.store.outcome_store import OutcomeStore

#: Qualifier choices: None (the dealer always qualifies), then a pair of 2s ... aces.
QUALIFIERS: tuple[int | None, ...] = (None, *range(13))
#: Call bets a designer may choose, in antes.
CALL_MULTIPLES = (1, 2, 3, 4)
#: Keep the game's own value of a knob.
OWN: Final = "own"


def qualifier_label(rank: int | None) -> str:
    return "none (the dealer always qualifies)" if rank is None else f"a pair of {RANKS[rank]}s or better"


def variant_rules(
    game: str | Rules,
    qualifier_rank: int | None | Literal["own"] = OWN,
    call_multiple: int | Literal["own"] = OWN,
) -> Rules:
    """The rules of a game (a preset name or Rules) with the qualifier and call bet changed;
    ``OWN`` keeps the game's own."""
    rules = as_rules(game)
    if qualifier_rank != OWN:
        rules = replace(rules, qualifier_rank=qualifier_rank)
    if call_multiple != OWN:
        rules = replace(rules, call_multiple=call_multiple)
    return rules


class Engines:
    """The return engines of a game's variants, one per outcome store (game and qualifier),
    loaded on first use and kept; a call bet plays a loaded engine's counts. Safe to share
    between threads (a store is computed at most once at a time)."""

    def __init__(self, options: RunOptions | None = None) -> None:
        self.options = options or RunOptions(progress=False)
        self._loaded: dict[str, ReturnEngine] = {}
        self._lock = threading.Lock()

    def add(self, engine: ReturnEngine) -> None:
        """Keep an engine already loaded (e.g. a notebook's)."""
        with self._lock:
            self._loaded.setdefault(engine.rules.fingerprint(), engine)

    def loaded(self, rules: Rules) -> bool:
        return rules.fingerprint() in self._loaded

    def store(self, rules: Rules) -> OutcomeStore:
        """The rules' store as it is on disk now (possibly unfinished: see :meth:`shards_done`)."""
        return OutcomeStore.for_rules(rules, self.options.root)

    def shards_done(self, rules: Rules) -> tuple[int, int]:
        """(finished shards, all shards) of the rules' store: progress while it is computed."""
        store = self.store(rules)
        return len(store.done()), store.n_shards

    def get(self, rules: Rules) -> ReturnEngine:
        """The engine for these rules, computing the store first when it is missing."""
        key = rules.fingerprint()
        with self._lock:
            if key not in self._loaded:
                self._loaded[key] = load_engine(rules, self.options)
            engine = self._loaded[key]
        return engine if engine.rules == rules else engine.with_rules(rules)


def rule_grid(
    game: str | Rules,
    qualifiers: Iterable[int | None] = QUALIFIERS,
    call_multiples: Iterable[int] = CALL_MULTIPLES,
    paytable: PayTableSpec = None,
    pays_on: str = "ante",
    engines: Engines | None = None,
) -> pd.DataFrame:
    """Optimal-play house edge, element of risk and call rate over qualifier x call bet,
    one tidy row each (``house_edge_exact`` as a Fraction). Every qualifier not yet counted
    is enumerated and its store kept (see the module docstring for the cost)."""
    check_pays_on(pays_on)
    engines = engines or Engines()
    paytable = PayTable.load(paytable)
    rows = []
    for q in qualifiers:
        for m in call_multiples:
            rules = variant_rules(game, q, m)
            e = engines.get(rules).decide(paytable, "optimal", pays_on).exact
            rows.append(
                {
                    "qualifier": qualifier_text(q),
                    "call_multiple": m,
                    "house_edge": float(e.house_edge),
                    "element_of_risk": float(e.element_of_risk),
                    "call_rate": float(e.call_rate),
                    "house_edge_exact": e.house_edge,
                }
            )
    return pd.DataFrame(rows)
