"""A simple human strategy, derived from the exact counts for a game and pay table.

The rules' shape is fixed (:data:`SIMPLE_RULES`): each rule covers a group of hand classes
and either calls the whole group, folds it, or calls when the player's two best hole
cards reach a threshold (with and without three to a flush). Each decision is the one that
loses least against the optimal strategy: the exact sums of EV(call) - EV(fold) of the
states of a rule, per top-two key, come from the return engine in one pass, and calling
the keys at or above a threshold is worth their suffix sum.

Only the engine's ``margin_sums`` and ``hand_profile`` are used; :mod:`analysis.strategy.registry`
offers it as the ``simple`` strategy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.engine.return_engine import ReturnEngine
from analysis.hands.classes import HAND_CLASSES, HandProfile
from analysis.model.cards import RANKS
from analysis.model.paytable import PayTable

#: Top-two key that no holding reaches: "never call".
NEVER = 13 * 13


@dataclass(frozen=True)
class SimpleRule:
    name: str
    label: str
    classes: tuple[str, ...]  # the hand classes it covers
    by_cards: bool  # a threshold on the two best hole cards (else the whole group calls or folds)


#: The shape of the simple strategy; its decisions are derived from the counts.
SIMPLE_RULES = (
    SimpleRule("made", "two pair or better, or a pair made with a hole card", HAND_CLASSES[:5], False),
    SimpleRule("strong draw", "four to a flush, or an open-ended straight draw", HAND_CLASSES[5:7], False),
    SimpleRule("gutshot", "a gutshot straight draw", HAND_CLASSES[7:8], True),
    SimpleRule("flop pair", "only the flop's pair", HAND_CLASSES[8:9], True),
    SimpleRule("rest", "anything else", HAND_CLASSES[9:], True),
)

#: Index into SIMPLE_RULES of each hand class.
RULE_OF_CLASS = np.array(
    [next(i for i, r in enumerate(SIMPLE_RULES) if c in r.classes) for c in HAND_CLASSES], dtype=np.int8
)


def top_two_text(key: int) -> str:
    """'K-9 or better' for a top-two threshold key."""
    if key <= 0:
        return "any cards"
    if key >= NEVER:
        return "no cards"
    return f"{RANKS[key // 13]}-{RANKS[key % 13]} or better"


def _normalise(key: int) -> int:
    """The smallest real top-two key (second <= highest) at or above ``key``."""
    while key < NEVER and key % 13 > key // 13:
        key += 1
    return key


@dataclass(frozen=True)
class SimpleStrategy:
    """Call thresholds per rule: (without, with three to a flush), as top-two keys.

    A state calls when its two best hole ranks, ``13 * highest + second``, reach the
    threshold of its rule: 0 calls every state of the rule, :data:`NEVER` none.
    """

    thresholds: dict[str, tuple[int, int]]

    def decide(self, profile: HandProfile) -> np.ndarray:
        """Call decision of every state."""
        limits = np.array([self.thresholds[r.name] for r in SIMPLE_RULES], dtype=np.int16)
        rule = RULE_OF_CLASS[profile.hand_class]
        return profile.top_two >= limits[rule, profile.three_flush.astype(np.int8)]

    def describe(self) -> list[str]:
        """The rules in words, in the order they are applied."""
        lines = []
        for rule in SIMPLE_RULES:
            plain, suited = self.thresholds[rule.name]
            if not rule.by_cards or plain == suited in (0, NEVER):
                action = "call" if plain == 0 else "fold"
            elif plain == suited:
                action = f"call with {top_two_text(plain)}, fold the rest"
            else:
                action = (
                    f"call with {top_two_text(suited)} when holding three to a flush, "
                    f"otherwise with {top_two_text(plain)}; fold the rest"
                )
            lines.append(f"{rule.label[0].upper()}{rule.label[1:]}: {action}.")
        return lines


def _groups(profile: HandProfile) -> np.ndarray:
    """Group of every state: (rule, three to a flush, top-two key); kept on the profile."""
    if "simple_groups" not in profile.__dict__:
        rule = RULE_OF_CLASS[profile.hand_class].astype(np.int32)
        profile.__dict__["simple_groups"] = (rule * 2 + profile.three_flush) * (NEVER + 1) + profile.top_two
    return profile.__dict__["simple_groups"]


def derive_simple_strategy(engine: ReturnEngine, paytable: PayTable, pays_on: str = "ante") -> SimpleStrategy:
    """The thresholds of :data:`SIMPLE_RULES` that lose least against optimal play (ties fold)."""
    margin, _, _ = engine.margin_sums(
        paytable, pays_on, _groups(engine.hand_profile()), len(SIMPLE_RULES) * 2 * (NEVER + 1)
    )
    thresholds: dict[str, tuple[int, int]] = {}
    for i, rule in enumerate(SIMPLE_RULES):
        by_key = [margin[(i * 2 + s) * (NEVER + 1) : (i * 2 + s + 1) * (NEVER + 1)] for s in (0, 1)]
        if not rule.by_cards:
            t = 0 if sum(by_key[0]) + sum(by_key[1]) > 0 else NEVER
            thresholds[rule.name] = (t, t)
            continue
        best = []
        for values in by_key:
            value_from = np.cumsum(np.array(values[::-1], dtype=object))[::-1]  # value of calling keys >= t
            top = max(value_from)
            t = max(k for k, v in enumerate(value_from) if v == top)  # the largest best threshold
            best.append(_normalise(t) if top > 0 else NEVER)
        thresholds[rule.name] = (best[0], best[1])
    return SimpleStrategy(thresholds)


def simple(engine: ReturnEngine, paytable: PayTable, pays_on: str = "ante") -> np.ndarray:
    """The decisions of the simple strategy derived for this game and pay table (the
    strategy named ``simple``: the name of this function)."""
    return derive_simple_strategy(engine, paytable, pays_on).decide(engine.hand_profile())
