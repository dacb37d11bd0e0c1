"""More information than one dealer card, sampled with stated confidence: two dealer cards
seen, the turn seen early, k other seats' hole cards known (collusion). These cannot be
enumerated over every state, so states are drawn at random (seeded) and each one's EV is
exact: every remaining completion is enumerated (:mod:`analysis.counting.informed`).

The estimate of the player's EV under optimal play is the mean of the states' exact
values max(EV(call), EV(fold)); with the base game's exact figures at hand it is the
mean *difference* to the same cards' value without the information, plus the base
game's exact EV (a control variate: the two values move together, so the difference
varies far less and fewer states reach the same confidence). Draws are made per shard
of ``batch`` states from the seed and the shard number, so a run is reproducible for any
number of workers, and a longer run extends a shorter one.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from fractions import Fraction
from math import ceil, lcm, sqrt
from typing import Any

import numpy as np

from analysis.counting.informed import Knowledge, completions, count_informed
from analysis.counting.symmetry import canonical_states
from analysis.engine.return_engine import ReturnEngine
from analysis.engine.statistics import z_score
from analysis.model.errors import InputError
from analysis.model.outcomes import STATE_KEYS, key_set, state_keys
from analysis.model.payoffs import margin_coefficients
from analysis.model.paytable import PayTable
from analysis.model.rules import Rules
from analysis.store.shards import StoreError

#: Kinds of information a sampled run can give the player.
KINDS = ("none", "exposed", "turn", "colluders")
#: States drawn per shard (the unit of work, progress and resumption).
BATCH = 256
#: Version of the sampling method; part of a run's key.
SAMPLING_VERSION = 1
#: Fewest states for a normal interval: from fewer the sample standard deviation is too
#: unsteady to stand for the true one (from 30 on, Student's t for the same interval is
#: within 5% of the normal z, 2.045 against 1.960 at 95%: the usual rule of thumb).
MIN_NORMAL_SAMPLES = 30


@dataclass(frozen=True)
class Information:
    """What the player knows: ``amount`` dealer cards seen (exposed) or colluding seats."""

    kind: str
    amount: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise InputError(f"unknown information {self.kind!r}; choose one of: {', '.join(KINDS)}")
        if (self.kind in ("exposed", "colluders")) != (self.amount > 0):
            raise InputError(f"{self.kind}: give a number of cards or seats (at least 1) only for exposed / colluders")

    def sizes(self, rules: Rules) -> tuple[int, int, bool]:
        """(dealer cards seen, dead cards, turn shown)."""
        if self.kind == "exposed" and self.amount > rules.hole_cards:
            raise InputError(f"the dealer holds {rules.hole_cards} cards; {self.amount} cannot be seen")
        seen = self.amount if self.kind == "exposed" else 0
        dead = self.amount * rules.hole_cards if self.kind == "colluders" else 0
        turn = self.kind == "turn"
        if len(rules.deck) - rules.hole_cards - 3 - seen - dead - turn < (1 if turn else 2) + rules.hole_cards - seen:
            raise InputError(f"{self.describe()}: the deck of {rules.name} has too few cards left to deal")
        return seen, dead, turn

    def describe(self) -> str:
        if self.kind == "exposed":
            return f"{self.amount} dealer card{'s' if self.amount > 1 else ''} seen"
        if self.kind == "colluders":
            return f"{self.amount} colluding seat{'s' if self.amount > 1 else ''}"
        return "the turn seen early" if self.kind == "turn" else "no information"

    def completions(self, rules: Rules) -> int:
        """Deals per state with this information."""
        seen, dead, turn = self.sizes(rules)
        return completions(rules, Knowledge(tuple(range(seen)), tuple(range(dead)), 0 if turn else None))


@dataclass(frozen=True)
class SampleJob:
    """A seeded sampled run (small and picklable, for a cluster)."""

    rules: Rules
    paytable: PayTable
    pays_on: str
    information: Information
    seed: int
    batch: int = BATCH

    def key(self) -> dict[str, Any]:
        """What the states and their values depend on (a result store is keyed by it)."""
        return {
            "version": SAMPLING_VERSION,
            "rules": self.rules.fingerprint(),
            "call_multiple": self.rules.call_multiple,
            "paytable": {c: str(p) for c, p in self.paytable.pays.items()},
            "pays_on": self.pays_on,
            "information": [self.information.kind, self.information.amount],
            "seed": self.seed,
            "batch": self.batch,
        }

    def shards(self, samples: int) -> list[int]:
        """States of each shard for a run of ``samples`` states."""
        return [min(self.batch, samples - start) for start in range(0, samples, self.batch)]

    def draw(self, shard: int, count: int) -> dict[str, np.ndarray]:
        """The first ``count`` states of a shard: hole, flop, seen, turn and dead cards."""
        rules = self.rules
        k = rules.hole_cards
        seen, dead, turn = self.information.sizes(rules)
        need = k + 3 + seen + dead + turn
        rng = np.random.default_rng([self.seed, shard])
        deck = np.array(rules.deck, dtype=np.int64)
        cards = deck[np.argsort(rng.random((self.batch, len(deck))), axis=1)[:count, :need]]
        dead_cards = cards[:, k + 3 + seen : k + 3 + seen + dead]
        return {
            "holes": cards[:, :k],
            "flops": cards[:, k : k + 3],
            "seen": np.concatenate([cards[:, k + 3 : k + 3 + seen], np.full((count, k - seen), -1)], axis=1),
            "turns": cards[:, need - 1] if turn else np.full(count, -1),
            "dead": (np.left_shift(np.uint64(1), dead_cards.astype(np.uint64))).sum(axis=1, dtype=np.uint64),
        }

    def margins(self, shard: int, count: int, threads: int | None = 1) -> list[int]:
        """Exact margins ``base + coef . counts`` (EV(call) - EV(fold), times the scale) of
        the first ``count`` states of a shard."""
        states = self.draw(shard, count)
        counts = count_informed(self.rules, threads=threads, **states).astype(np.int64)
        coef, base, _ = margin_coefficients(
            self.paytable, self.rules, self.pays_on, self.information.completions(self.rules)
        )
        return [base + int(v) for v in counts @ np.array(coef, dtype=object)]

    def scale(self) -> int:
        """What the margins are scaled by: d x completions."""
        return margin_coefficients(self.paytable, self.rules, self.pays_on, self.information.completions(self.rules))[1]


@dataclass
class BaseGameControl:
    """The base game's exact value of any (hole, flop), from its return engine: the control
    variate of a sampled run, with its exact mean."""

    engine: ReturnEngine
    paytable: PayTable
    pays_on: str

    def __post_init__(self) -> None:
        self.rules = self.engine.rules
        self.keys = self.engine.source.derived(STATE_KEYS, key_set)["keys"]
        self.coef, self.base, _ = self.engine.coefficients(self.paytable, self.pays_on)
        self.mean = -self.engine.decide(self.paytable, "optimal", self.pays_on).exact.house_edge

    def margins(self, holes: np.ndarray, flops: np.ndarray) -> list[int]:
        """Exact base-game margins (scaled by ``self.base``) of the given states."""
        wanted = state_keys(*canonical_states(holes, flops, self.rules.suits))
        rows = np.minimum(np.searchsorted(self.keys, wanted), len(self.keys) - 1)
        if not np.array_equal(self.keys[rows], wanted):
            raise StoreError("a sampled state is missing from the base game's outcome store")
        counts = self.engine.pay.unpack(rows)
        return [self.base + int(v) for v in counts @ np.array(self.coef, dtype=object)]


@dataclass
class SampleEstimate:
    """The player's EV with the information, estimated from ``samples`` exact states."""

    information: Information
    samples: int
    house_edge: Fraction  # the estimate (negative when the player has the edge)
    std_error: float
    call_rate: float
    method: str
    standard_deviation: float  # of one state's (difference) value: what the states needed follow from

    @property
    def normal_interval(self) -> bool:
        """Whether there are states enough (:data:`MIN_NORMAL_SAMPLES`) for a normal interval."""
        return self.samples >= MIN_NORMAL_SAMPLES

    @property
    def too_few(self) -> str:
        """What is said instead of an interval from too few states ("" with enough)."""
        return (
            ""
            if self.normal_interval
            else f"too few samples for a normal interval ({self.samples} < {MIN_NORMAL_SAMPLES})"
        )

    def interval(self, level: float = 0.95) -> tuple[float, float] | None:
        """The normal confidence interval of the house edge; None from too few states."""
        if not self.normal_interval:
            return None
        half = z_score(level) * self.std_error
        return float(self.house_edge) - half, float(self.house_edge) + half

    def states_needed(self, half_width: float, level: float = 0.95) -> int | None:
        """States for a confidence interval of +/- ``half_width`` (normal approximation);
        None from too few states to estimate the standard deviation."""
        if not half_width > 0:
            raise InputError(f"the half-width must be positive, got {half_width}")
        if not self.normal_interval:
            return None
        return max(MIN_NORMAL_SAMPLES, ceil((z_score(level) * self.standard_deviation / half_width) ** 2))

    def summary(self, half_width: float | None = None) -> dict[str, str | float | bool | None]:
        interval = self.interval()
        out: dict[str, str | float | bool | None] = {
            "information": self.information.describe(),
            "samples": self.samples,
            "house_edge": float(self.house_edge),
            "house_edge_estimate_exact": str(self.house_edge),
            "std_error": self.std_error,
            "normal_interval": self.normal_interval,
            "ci95_low": None if interval is None else interval[0],
            "ci95_high": None if interval is None else interval[1],
            "call_rate": self.call_rate,
            "method": self.method,
        }
        if not self.normal_interval:
            out["note"] = self.too_few
        if half_width is not None:
            out |= {"half_width": half_width, "states_needed": self.states_needed(half_width)}
        return out


def estimate_edge(job: SampleJob, margins: list[int], control: BaseGameControl | None = None) -> SampleEstimate:
    """The estimate from the states' exact margins (in shard order), with the base game's
    values of the same cards as control variate when ``control`` is given."""
    n, scale = len(margins), job.scale()
    if n < 2:
        raise InputError("a sampled run needs at least 2 states")
    calls = sum(m > 0 for m in margins)
    if control is None:
        unit = scale
        values = [max(m, 0) - scale for m in margins]  # EV x scale
        offset, method = Fraction(0), "mean of the states' exact values"
    else:
        states = [job.draw(i, c) for i, c in enumerate(job.shards(n))]
        base = control.margins(
            np.concatenate([s["holes"] for s in states]), np.concatenate([s["flops"] for s in states])
        )
        unit = lcm(scale, control.base)
        a, b = unit // scale, unit // control.base
        values = [a * (max(m, 0) - scale) - b * (max(x, 0) - control.base) for m, x in zip(margins, base)]
        offset, method = control.mean, "base game's exact EV + mean difference to the same cards without it"
    total, squares = sum(values), sum(v * v for v in values)
    mean = offset + Fraction(total, n * unit)
    variance = Fraction(n * squares - total * total, n * (n - 1) * unit * unit)  # unbiased sample variance
    sd = sqrt(variance)
    return SampleEstimate(job.information, n, -mean, sd / sqrt(n), calls / n, method, sd)


def margins_digest(margins: list[int]) -> str:
    """SHA-256 of a run's margins, in order (identical for any number of workers)."""
    return hashlib.sha256(json.dumps(margins, separators=(",", ":")).encode()).hexdigest()
