"""The strategy in plain terms: advice for one state, the optimal strategy by hand class,
and a simple human strategy derived from the exact counts.

* :func:`advise` gives EV(call), EV(fold) and the optimal decision of one state, from the
  outcome store (reading only the shard that holds the state) or, without a store, by
  enumerating that state alone.
* :func:`hand_classes` sorts every state into the plain-terms classes of
  :data:`HAND_CLASSES` (made hands first, then draws, then high cards);
  :func:`class_profile` gives the optimal call rate of each.
* :func:`derive_simple_strategy` turns the classes into a few rules (:data:`SIMPLE_RULES`):
  each rule calls a whole group of classes, folds it, or calls when the player's two best
  hole cards reach a threshold. Each threshold is the one that loses least against the
  optimal strategy, computed exactly from the per-state call margins, so the rules follow
  the game and the pay table they are derived for.

Money is in antes; every comparison is made on exact integers.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import ceil, lcm

import numpy as np
import pandas as pd

from .cards import RANKS, disjoint, format_cards, parse_cards
from .enumeration import StateCounts, count_state, plan, state_keys
from .exact import FLOPS_PER_SHARD
from .features import StateFeatures, state_features
from .paytable import DEFAULT_PAYTABLE, PayTable
from .returns import PAYS_ON, call_margin, column_payoffs, evaluate_strategy
from .rules import PRESETS, Rules, preset
from .store import OutcomeStore
from .symmetry import canonical_states
from .tables import PAIR, STRAIGHT, TRIPS, TWO_PAIR

#: Plain-terms hand classes, first match wins (made hands, then draws, then high cards).
HAND_CLASSES = (
    "straight or better",
    "three of a kind",
    "two pair",
    "high pair with a hole card",
    "low pair with a hole card",
    "four to a flush",
    "open-ended straight draw",
    "gutshot straight draw",
    "the flop's pair only",
    "three to a flush",
    "two or more overcards",
    "one overcard",
    "nothing",
)

#: Made-hand and draw dimensions of :func:`call_rate_grid`.
MADE_HANDS = ("straight or better", "three of a kind", "two pair", "high pair with a hole card",
              "low pair with a hole card", "the flop's pair only", "high card")
DRAWS = ("four to a flush", "open-ended straight draw", "gutshot straight draw", "three to a flush", "no draw")

#: Top-two key that no holding reaches: "never call".
NEVER = 13 * 13


def class_notes(rules: Rules) -> dict[str, str]:
    """What each hand class means, in words, for this game."""
    q = RANKS[rules.qualifier_rank]
    cards = "exactly two hole cards and two flop cards" if rules.omaha else "hole cards and flop cards"
    return {
        "high pair with a hole card": f"a pair of {q}s or better (the dealer's qualifier) that uses a hole card",
        "low pair with a hole card": f"a pair below {q}s that uses a hole card",
        "four to a flush": f"four cards of a suit ({cards}): one more on the board makes a flush",
        "open-ended straight draw": f"two or more ranks complete a straight ({cards}); double gutshots included",
        "gutshot straight draw": f"one rank completes a straight ({cards})",
        "the flop's pair only": "the flop is paired and the hole cards add nothing to it",
        "three to a flush": "three cards of a suit (two hole cards in Omaha): both turn and river must match",
        "two or more overcards": "no pair, no draw; at least two hole cards above every flop card",
        "one overcard": "no pair, no draw; one hole card above every flop card",
        "nothing": "no pair, no draw, no overcard",
    }


def hand_classes(features: StateFeatures, rules: Rules) -> np.ndarray:
    """Index into :data:`HAND_CLASSES` of every state (the first class that fits)."""
    f = features
    hole_pair = (f.made == PAIR) & ~f.board_pair_only
    conditions = [
        f.made >= STRAIGHT,
        f.made == TRIPS,
        f.made == TWO_PAIR,
        hole_pair & (f.made_rank >= rules.qualifier_rank),
        hole_pair,
        f.flush_draw,
        f.straight_outs >= 2,
        f.straight_outs == 1,
        f.board_pair_only,
        f.backdoor_flush,
        f.overcards >= 2,
        f.overcards == 1,
    ]
    return np.select(conditions, np.arange(len(conditions), dtype=np.int8), default=len(conditions)).astype(np.int8)


def _made_and_draw(features: StateFeatures, classes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index into MADE_HANDS and DRAWS of every state."""
    f = features
    made = np.where(classes <= 4, classes, np.where(f.board_pair_only, 5, 6))
    draw = np.select([f.flush_draw, f.straight_outs >= 2, f.straight_outs == 1, f.backdoor_flush], [0, 1, 2, 3], default=4)
    return made.astype(np.int8), draw.astype(np.int8)


def margin_scale(rules: Rules, paytable: PayTable, pays_on: str = "ante") -> int:
    """The factor of :func:`analysis.returns.call_margin`: completions x the pays' common denominator."""
    return lcm(*(p.denominator for p in column_payoffs(paytable, rules, pays_on))) * rules.completions


def _group_sums(groups: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """Exact int64 sum of the values of each group 0..n-1."""
    out = np.zeros(n, dtype=np.int64)
    np.add.at(out, groups, values)
    return out


def class_profile(sc: StateCounts, classes: np.ndarray, margin: np.ndarray, scale: int, calls: np.ndarray,
                  names=HAND_CLASSES) -> pd.DataFrame:
    """Per class: real states, share, call rate of ``calls``, mean EV(call) - EV(fold) in antes."""
    n = len(names)
    states = _group_sums(classes, sc.weight, n)
    called = _group_sums(classes, np.where(calls, sc.weight, 0), n)
    gain = _group_sums(classes, margin.astype(np.int64) * sc.weight, n)
    total = int(sc.weight.sum())
    with np.errstate(invalid="ignore", divide="ignore"):
        return pd.DataFrame({
            "hand": list(names),
            "states": states,
            "share": states / total,
            "called_states": called,
            "call_rate": called / states,
            "mean_call_minus_fold": gain / (states * float(scale)),
        })


def call_rate_grid(sc: StateCounts, features: StateFeatures, classes: np.ndarray, calls: np.ndarray) -> pd.DataFrame:
    """Call rate by made hand (rows) and draw (columns); empty cells are NaN."""
    made, draw = _made_and_draw(features, classes)
    cell = made.astype(np.int16) * len(DRAWS) + draw
    states = _group_sums(cell, sc.weight, len(MADE_HANDS) * len(DRAWS)).reshape(len(MADE_HANDS), len(DRAWS))
    called = _group_sums(cell, np.where(calls, sc.weight, 0), states.size).reshape(states.shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(states > 0, called / states, np.nan)
    return pd.DataFrame(rate, index=pd.Index(MADE_HANDS, name="made hand"), columns=pd.Index(DRAWS, name="draw"))


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
    rules: tuple[SimpleRule, ...] = SIMPLE_RULES

    def rule_index(self, classes: np.ndarray) -> np.ndarray:
        """Index into ``rules`` of every state."""
        of_class = np.zeros(len(HAND_CLASSES), dtype=np.int8)
        for i, rule in enumerate(self.rules):
            of_class[[HAND_CLASSES.index(c) for c in rule.classes]] = i
        return of_class[classes]

    def decide(self, features: StateFeatures, classes: np.ndarray) -> np.ndarray:
        """Call decision of every state."""
        rule = self.rule_index(classes)
        limits = np.array([self.thresholds[r.name] for r in self.rules], dtype=np.int16)
        return features.top_two >= limits[rule, features.backdoor_flush.astype(np.int8)]

    def describe(self) -> list[str]:
        """The rules in words, in the order they are applied."""
        lines = []
        for rule in self.rules:
            plain, suited = self.thresholds[rule.name]
            if not rule.by_cards or plain == suited in (0, NEVER):
                action = "call" if plain == 0 else "fold"
            elif plain == suited:
                action = f"call with {top_two_text(plain)}, fold the rest"
            else:
                action = (f"call with {top_two_text(suited)} when holding three to a flush, "
                          f"otherwise with {top_two_text(plain)}; fold the rest")
            lines.append(f"{rule.label[0].upper()}{rule.label[1:]}: {action}.")
        return lines


def derive_simple_strategy(sc: StateCounts, features: StateFeatures, classes: np.ndarray,
                           margin: np.ndarray) -> SimpleStrategy:
    """Thresholds of :data:`SIMPLE_RULES` that lose least against the optimal strategy.

    For each rule (and, for threshold rules, with and without three to a flush) the call
    margins of its states are summed exactly per top-two key; calling the keys at or above
    the threshold is worth the suffix sum, and the best threshold maximises it (ties fold).
    """
    gain = margin.astype(np.int64) * sc.weight
    base = SimpleStrategy({r.name: (0, 0) for r in SIMPLE_RULES})
    rule_of = base.rule_index(classes)
    key = features.top_two
    thresholds = {}
    for i, rule in enumerate(SIMPLE_RULES):
        in_rule = rule_of == i
        if not rule.by_cards:
            t = 0 if gain[in_rule].sum() > 0 else NEVER
            thresholds[rule.name] = (t, t)
            continue
        best = []
        for suited in (False, True):
            sel = in_rule & (features.backdoor_flush == suited)
            by_key = _group_sums(key[sel], gain[sel], NEVER + 1)
            value_from = np.cumsum(by_key[::-1])[::-1]  # value of calling keys >= t
            t = int(NEVER - np.argmax(value_from[::-1]))  # the largest best threshold
            best.append(_normalise(t) if value_from[t] > 0 else NEVER)
        thresholds[rule.name] = (best[0], best[1])
    return SimpleStrategy(thresholds)


@dataclass
class StrategyAnalysis:
    """The optimal strategy in plain terms and the simple strategy, for one game and pay table."""

    rules: Rules
    paytable: PayTable
    pays_on: str
    features: StateFeatures
    classes: np.ndarray
    weight: np.ndarray  # real states per stored state
    margin: np.ndarray  # (EV(call) - EV(fold)) x scale per state, exact integers
    scale: int
    optimal_calls: np.ndarray
    simple: SimpleStrategy
    simple_calls: np.ndarray
    profile: pd.DataFrame  # per hand class: optimal and simple call rates
    grid: pd.DataFrame  # optimal call rate by made hand and draw
    rule_costs: pd.DataFrame  # per simple rule: share, call rates, exact cost against optimal
    comparison: pd.DataFrame  # optimal, simple, always call: exact house edge and cost
    results: dict  # GameResult of "optimal", "simple" and "always-call"

    def margin_antes(self) -> np.ndarray:
        """EV(call) - EV(fold) per state, in antes (floats, for plots)."""
        return self.margin / float(self.scale)


def analyse_strategy(sc: StateCounts, rules: Rules, paytable=None, pays_on: str = "ante",
                     optimal=None) -> StrategyAnalysis:
    """Characterise the optimal strategy and derive and evaluate the simple one.

    ``optimal`` is the optimal strategy's GameResult when already computed.
    """
    paytable = PayTable.load(paytable)
    margin = call_margin(sc, paytable, rules, pays_on)
    scale = margin_scale(rules, paytable, pays_on)
    features = state_features(rules, sc.hole, sc.flop)
    classes = hand_classes(features, rules)
    if optimal is None:
        def optimal(_states):  # the margin is at hand: do not compute it a second time
            return margin > 0

        optimal = evaluate_strategy(sc, rules, paytable, optimal, pays_on)
    derived = derive_simple_strategy(sc, features, classes, margin)
    simple_calls = derived.decide(features, classes)

    def simple(_states):
        return simple_calls

    results = {
        "optimal": optimal,
        "simple": evaluate_strategy(sc, rules, paytable, simple, pays_on),
        "always-call": evaluate_strategy(sc, rules, paytable, "always-call", pays_on),
    }
    base = optimal.exact["house_edge"]
    comparison = pd.DataFrame([{
        "strategy": name,
        "house_edge": float(r.exact["house_edge"]),
        "element_of_risk": float(r.exact["element_of_risk"]),
        "call_rate": float(r.exact["call_rate"]),
        "std_dev": r.exact["std_dev"],
        "cost_vs_optimal": float(r.exact["house_edge"] - base),
        "house_edge_exact": str(r.exact["house_edge"]),
        "cost_vs_optimal_exact": str(r.exact["house_edge"] - base),
    } for name, r in results.items()])

    profile = class_profile(sc, classes, margin, scale, optimal.calls).rename(columns={"call_rate": "optimal_call_rate"})
    profile["simple_call_rate"] = class_profile(sc, classes, margin, scale, simple_calls)["call_rate"]
    profile = profile.drop(columns="called_states")

    rule_of = derived.rule_index(classes)
    gain = margin.astype(np.int64) * sc.weight
    lost = np.where(optimal.calls & ~simple_calls, gain, 0) - np.where(simple_calls & ~optimal.calls, gain, 0)
    n_rules = len(derived.rules)
    per_rule_lost = _group_sums(rule_of, lost, n_rules)
    states = _group_sums(rule_of, sc.weight, n_rules)
    called = _group_sums(rule_of, np.where(simple_calls, sc.weight, 0), n_rules)
    opt_called = _group_sums(rule_of, np.where(optimal.calls, sc.weight, 0), n_rules)
    costs = [Fraction(int(x), rules.states * scale) for x in per_rule_lost]
    rule_costs = pd.DataFrame({
        "rule": derived.describe(),
        "share": states / rules.states,
        "simple_call_rate": called / states,
        "optimal_call_rate": opt_called / states,
        "cost_vs_optimal": [float(c) for c in costs],
        "cost_vs_optimal_exact": [str(c) for c in costs],
    })
    return StrategyAnalysis(rules, paytable, pays_on, features, classes, sc.weight, margin, scale, optimal.calls, derived,
                            simple_calls, profile, call_rate_grid(sc, features, classes, optimal.calls),
                            rule_costs, comparison, results)


# ---------------------------------------------------------------------------------------
# advice for one state


def _parse_state(rules: Rules, hole: str, flop: str) -> tuple[list[int], list[int]]:
    h = parse_cards(hole, count=rules.hole_cards, what="hole cards")
    f = parse_cards(flop, count=3, what="flop")
    disjoint(h, f)
    outside = [c for c in h + f if c not in rules.deck]
    if outside:
        raise ValueError(f"{format_cards(outside)} not in the deck of {rules.name}")
    return h, f


def state_counts(rules: Rules, hole: list[int], flop: list[int], store_root=None,
                 states: StateCounts | None = None) -> tuple[np.ndarray, str]:
    """The 40 exact counts of one real state and where they came from.

    From ``states`` when given, else from the complete outcome store (only the shard that
    holds the state is read), else by enumerating the state alone.
    """
    flop_code, hole_code = canonical_states(np.array([hole]), np.array([flop]), rules.suits)
    key = state_keys(flop_code, hole_code)[0]
    if states is None:
        classes = plan(rules)
        store = OutcomeStore.for_rules(rules, ceil(len(classes) / FLOPS_PER_SHARD), store_root)
        if not store.complete:
            return count_state(rules, hole, flop).astype(np.int64), "enumerated (no complete outcome store)"
        codes = np.array([fc.code for fc in classes])
        shard = int(np.searchsorted(codes, flop_code[0])) // FLOPS_PER_SHARD
        states, source = store.read_shard(shard), f"outcome store {store.checksum[:16]}"
    else:
        source = "outcome states in memory"
    keys = states.keys
    row = int(np.searchsorted(keys, key))
    if row >= len(keys) or keys[row] != key:
        raise LookupError(f"state {format_cards(hole)} / {format_cards(flop)} is missing from the outcome store")
    return states.counts[row].astype(np.int64), source


def advise(hole: str, flop: str, game: str = "casino-omaha", paytable=None, pays_on: str = "ante",
           store_root=None, states: StateCounts | None = None, enumerate_state: bool = False) -> pd.DataFrame:
    """EV(call), EV(fold) and the optimal decision of one state, in antes.

    Returns one row per action (``ev`` as a float, ``ev_exact`` as a Fraction, ``optimal``);
    ``attrs`` holds the state, the hand class and where the counts came from.

    >>> a = advise("As Kd 7h", "Qs Jd 2c", enumerate_state=True)
    >>> a.loc["fold", "ev_exact"], bool(a.loc["call", "optimal"])
    (Fraction(-1, 1), True)
    """
    rules = preset(game) if isinstance(game, str) else game
    paytable = PayTable.load(paytable)
    h, f = _parse_state(rules, hole, flop)
    if enumerate_state:
        counts, source = count_state(rules, h, f).astype(np.int64), "enumerated"
    else:
        counts, source = state_counts(rules, h, f, store_root, states)
    if int(counts.sum()) != rules.completions:
        raise AssertionError(f"the state's counts add up to {int(counts.sum())}, expected {rules.completions}")
    pays = column_payoffs(paytable, rules, pays_on)
    ev_call = sum(p * int(n) for p, n in zip(pays, counts)) / Fraction(rules.completions)
    ev_fold = Fraction(-1)
    features = state_features(rules, [h], [f])
    out = pd.DataFrame({"ev": [float(ev_call), float(ev_fold)], "ev_exact": [ev_call, ev_fold],
                        "optimal": [ev_call > ev_fold, ev_call <= ev_fold]},
                       index=pd.Index(["call", "fold"], name="action"))
    out.attrs = {"game": rules.name, "hole": format_cards(h), "flop": format_cards(f), "source": source,
                 "hand": HAND_CLASSES[int(hand_classes(features, rules)[0])], "paytable": paytable.name,
                 "pays_on": pays_on}
    return out


def format_advice(a: pd.DataFrame) -> str:
    call, fold = a.loc["call"], a.loc["fold"]
    decision = "CALL" if call["optimal"] else "FOLD"
    diff = call["ev_exact"] - fold["ev_exact"]
    return "\n".join([
        f"{a.attrs['game']}: hole {a.attrs['hole']}, flop {a.attrs['flop']}  "
        f"(pay table {a.attrs['paytable']}, pays on the {a.attrs['pays_on']})",
        f"hand now   {a.attrs['hand']}",
        f"EV(call)   {call['ev']:+.6f} antes  (exact {call['ev_exact']})",
        f"EV(fold)   {fold['ev']:+.6f} antes",
        f"optimal    {decision}  (EV(call) - EV(fold) = {float(diff):+.6f} antes{'; a tie folds' if diff == 0 else ''})",
        f"counts     {a.attrs['source']}",
    ])


def cmd_advise(args) -> int:
    a = advise(args.hole, args.flop, args.game, args.paytable, args.pays_on, args.store, enumerate_state=args.enumerate)
    print(format_advice(a))
    return 0


def add_command(subparsers) -> None:
    p = subparsers.add_parser("advise", help="EV(call), EV(fold) and the optimal decision of one state",
                              description="Exact EV of calling and folding one state (hole cards and flop).")
    p.add_argument("hole", help='the player\'s hole cards, e.g. "As Kd 7h"')
    p.add_argument("--flop", required=True, help='the three flop cards, e.g. "Qs Jd 2c"')
    p.add_argument("--game", default="casino-omaha", help=f"one of: {', '.join(PRESETS)} (default casino-omaha)")
    p.add_argument("--paytable", default=str(DEFAULT_PAYTABLE), help="pay table CSV (default antewin.csv)")
    p.add_argument("--pays-on", choices=PAYS_ON, default="ante", help="which bet the table pays (default ante)")
    p.add_argument("--store", default=None, help="outcome store folder (default data/outcomes)")
    p.add_argument("--enumerate", action="store_true", help="enumerate the state even when a store exists")
    p.set_defaults(handler=cmd_advise)


