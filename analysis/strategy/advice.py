"""Advice for one decision state: EV(call), EV(fold) and the optimal decision, exactly.

The state's counts come from the outcome store (:meth:`OutcomeStore.read_state` reads
only the shard that holds it) or, without a complete store, from enumerating that state
alone. A player who saw dealer cards or knows dead cards (partners' hole cards) is in
another state: its counts are enumerated with that knowledge (:mod:`analysis.counting.informed`).
The pay table turns counts into EVs.

>>> a = advise("As Kd 7h", "Qs Jd 2c", enumerate_state=True)
>>> a.ev_fold, a.decision, a.ev_call
(Fraction(-1, 1), 'call', Fraction(-1221379, 4569180))
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.counting.enumeration import count_state
from analysis.counting.informed import Knowledge, call_margin, completions
from analysis.counting.informed import state_counts as informed_counts
from analysis.hands.classes import HAND_CLASSES, hand_profile
from analysis.model.cards import disjoint, format_cards, parse_cards
from analysis.model.errors import InputError
from analysis.model.paytable import PayTable, PayTableSpec
from analysis.model.rules import Rules, as_rules
from analysis.store.outcome_store import OutcomeStore


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
) -> tuple[np.ndarray, str]:
    """The 40 exact counts of one real state and where they came from."""
    if not enumerate_state:
        store = OutcomeStore.for_rules(rules, store_root)
        if store.complete and store.checksum is not None:  # a complete store has its checksum
            return store.read_state(hole, flop), f"outcome store {store.checksum[:16]}"
    source = "enumerated" if enumerate_state else "enumerated (no complete outcome store)"
    return count_state(rules, hole, flop).astype(np.int64), source


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
        source = "enumerated with the seen and dead cards"
    else:
        counts, source = state_counts(rules, h, f, store_root, enumerate_state)
        total = rules.completions
        if int(counts.sum()) != total:
            raise AssertionError(f"the state's counts add up to {int(counts.sum())}, expected {total}")
    ev_fold = Fraction(-1)
    ev_call = ev_fold + call_margin(rules, counts, total, paytable, pays_on)
    return Advice(
        game=rules.name,
        hole=format_cards(h),
        flop=format_cards(f),
        exposed=format_cards(knowledge.seen),
        dead=format_cards(knowledge.dead),
        hand=HAND_CLASSES[int(hand_profile(rules, [h], [f]).hand_class[0])],
        paytable=paytable.name,
        pays_on=pays_on,
        source=source,
        ev_call=ev_call,
        ev_fold=ev_fold,
    )
