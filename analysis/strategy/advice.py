"""Advice for one decision state: EV(call), EV(fold) and the optimal decision, exactly.

The state's counts come from the outcome store: from the arrays derived from it once a
report made the engine's packed counts and the hand profile (:func:`stored_state` reads and
checks only the blocks that hold the state's row), else from the one shard that holds it
(:meth:`OutcomeStore.read_state`); without a complete store, from enumerating that state
alone. A player who saw dealer cards or knows dead cards (partners' hole cards) is in
another state: its counts are enumerated with that knowledge (:mod:`analysis.counting.informed`).
The pay table turns counts into EVs.

>>> a = advise("As Kd 7h", "Qs Jd 2c", enumerate_state=True)
>>> a.ev_fold, a.decision, a.ev_call
(Fraction(-1, 1), 'call', Fraction(-1221379, 4569180))
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import asdict, dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from analysis.counting.enumeration import count_state
from analysis.counting.informed import Knowledge, call_margin, completions
from analysis.counting.informed import state_counts as informed_counts
from analysis.counting.symmetry import canonical_states
from analysis.engine.packed import PAY_SOURCES, REST_SOURCES, Packed, count_width, counts_of
from analysis.hands.classes import HAND_CLASSES, hand_profile
from analysis.model.cards import disjoint, format_cards, parse_cards
from analysis.model.errors import InputError
from analysis.model.outcomes import STATE_KEYS, key_set, state_keys
from analysis.model.paytable import PayTable, PayTableSpec
from analysis.model.rules import Rules, as_rules
from analysis.store.outcome_store import OutcomeStore
from analysis.store.shards import StoreError

if TYPE_CHECKING:  # a frame is asked for in notebooks; the command line's advice needs no pandas
    import pandas as pd


def parse_state(rules: Rules, hole: str, flop: str) -> tuple[list[int], list[int]]:
    """Hole cards and flop from text, checked against the game (clear ValueErrors)."""
    h = parse_cards(hole, count=rules.hole_cards, what="hole cards")
    f = parse_cards(flop, count=3, what="flop")
    disjoint(h, f)
    outside = [c for c in h + f if c not in rules.deck]
    if outside:
        raise InputError(f"{format_cards(outside)} not in the deck of {rules.name}")
    return h, f


def state_counts(
    rules: Rules, hole: list[int], flop: list[int], store_root: Path | None = None, enumerate_state: bool = False
) -> tuple[np.ndarray, str, int | None]:
    """The 40 exact counts of one real state, where they came from, and its hand class
    when the store's hand profile gave it (else None)."""
    if not enumerate_state:
        store = OutcomeStore.for_rules(rules, store_root)
        if store.complete and store.checksum is not None:  # a complete store has its checksum
            source = f"outcome store {store.checksum[:16]}"
            stored = stored_state(store, hole, flop)
            if stored is not None:
                return stored[0], source, stored[1]
            return store.read_state(hole, flop), source, None
    source = "enumerated" if enumerate_state else "enumerated (no complete outcome store)"
    return count_state(rules, hole, flop).astype(np.int64), source, None


def stored_state(store: OutcomeStore, hole: list[int], flop: list[int]) -> tuple[np.ndarray, int] | None:
    """The 40 counts and the hand class of one real state from the arrays derived from the
    store: its row by a binary search of the sorted state keys, then that row of the
    engine's packed counts and of the hand profile, only the blocks read checked (no shard
    parsed, no flop class or hand table made). None when the engine's arrays or the hand
    profile were not made (a report makes them; one question does not): the shard answers.
    The state keys are made once when missing (a few seconds; simulations read them too)."""
    engine, profile = store.open_derived("engine"), store.open_derived("hand-profile")
    if engine is None or profile is None:
        return None
    found = store.open_derived(STATE_KEYS)
    if found is None:
        try:
            store.derived(STATE_KEYS, key_set)
        except StoreError:  # a store that cannot be written (read-only media): the shard answers
            return None
        found = store.open_derived(STATE_KEYS)
    if found is None:
        raise AssertionError(f"{store.path}: the state keys just made cannot be opened")
    keys = found["keys"]

    def key(row: int) -> int:
        return int(keys.rows(row)[0])

    wanted = int(state_keys(*canonical_states(np.array([hole]), np.array([flop]), store.rules.suits))[0])
    row = bisect_left(range(len(keys.array)), wanted, key=key)
    if row == len(keys.array) or key(row) != wanted:
        raise StoreError(f"{keys.path}: state {list(hole)} / {list(flop)} is missing; {store.fix_hint()}")
    width = count_width(store.rules)

    def packed(name: str, ncols: int) -> Packed:  # the row's bytes of one packed matrix
        stride = ncols * width
        return Packed(engine[name].rows(row * stride, (row + 1) * stride), 1, ncols, width)

    counts = counts_of(packed("pay", len(PAY_SOURCES)), packed("rest", len(REST_SOURCES)), [0])[0]
    return counts, int(profile["hand_class"].rows(row)[0])


@dataclass(frozen=True)
class Advice:
    """One state's exact EVs and the optimal decision (a tie folds), with what it was
    computed from."""

    game: str
    hole: str
    flop: str
    exposed: str  # dealer cards the player saw ("" for none)
    dead: str  # other cards he knows are out of play ("" for none)
    hand: str  # the state's plain-terms hand class
    paytable: str
    pays_on: str
    source: str  # where the counts came from
    ev_call: Fraction  # in antes
    ev_fold: Fraction

    @property
    def decision(self) -> str:
        """``"call"`` when EV(call) > EV(fold), else ``"fold"``."""
        return "call" if self.ev_call > self.ev_fold else "fold"

    def frame(self) -> pd.DataFrame:
        """One row per action: ``ev`` (float), ``ev_exact`` (Fraction), ``optimal``."""
        import pandas as pd

        evs = {"call": self.ev_call, "fold": self.ev_fold}
        return pd.DataFrame(
            {
                "ev": [float(v) for v in evs.values()],
                "ev_exact": list(evs.values()),
                "optimal": [action == self.decision for action in evs],
            },
            index=pd.Index(list(evs), name="action"),
        )

    def to_dict(self) -> dict[str, str | float | Fraction]:
        """JSON-ready: the state, the EVs as floats and exact, the decision."""
        return asdict(self) | {
            "ev_call": float(self.ev_call),
            "ev_call_exact": self.ev_call,
            "ev_fold": float(self.ev_fold),
            "ev_fold_exact": self.ev_fold,
            "decision": self.decision,
        }


def advise(
    hole: str,
    flop: str,
    game: str | Rules = "casino-omaha",
    paytable: PayTableSpec = None,
    pays_on: str = "ante",
    store_root: Path | None = None,
    enumerate_state: bool = False,
    exposed: str | None = None,
    dead: str | None = None,
) -> Advice:
    """EV(call), EV(fold) and the optimal decision of one state, in antes; ``exposed``:
    dealer cards the player saw, ``dead``: other cards he knows are out of play."""
    rules = as_rules(game)
    paytable = PayTable.load(paytable)
    h, f = parse_state(rules, hole, flop)
    knowledge = Knowledge(
        seen=tuple(parse_cards(exposed, what="exposed dealer cards")) if exposed else (),
        dead=tuple(parse_cards(dead, what="dead cards")) if dead else (),
    )
    if knowledge.cards():
        counts, total = informed_counts(rules, h, f, knowledge), completions(rules, knowledge)
        source, hand_class = "enumerated with the seen and dead cards", None
    else:
        counts, source, hand_class = state_counts(rules, h, f, store_root, enumerate_state)
        total = rules.completions
        if int(counts.sum()) != total:
            raise AssertionError(f"the state's counts add up to {int(counts.sum())}, expected {total}")
    if hand_class is None:
        hand_class = int(hand_profile(rules, [h], [f]).hand_class[0])
    ev_fold = Fraction(-1)
    ev_call = ev_fold + call_margin(rules, counts, total, paytable, pays_on)
    return Advice(
        game=rules.name,
        hole=format_cards(h),
        flop=format_cards(f),
        exposed=format_cards(knowledge.seen),
        dead=format_cards(knowledge.dead),
        hand=HAND_CLASSES[hand_class],
        paytable=paytable.name,
        pays_on=pays_on,
        source=source,
        ev_call=ev_call,
        ev_fold=ev_fold,
    )
