"""The reproduction kit a test lab runs on its own machine (``casino-omaha verify``): the
headline figures recomputed along paths independent of the ones that made them, each a
:class:`Check` (passed or not, what was expected and found, how long it took), and a
verification appendix (:mod:`analysis.report.appendix`: JSON, page and PDF) that the par sheet
made from the same store includes.

The checks, in the order they run (:data:`CHECKS`):

* **store checksums**: every shard's file and content against the SHA-256 the manifest
  records, the manifest against its own, and the store checksum recomputed from the shards';
* **closed-form totals**: the states' weights add up to the number of decision states, every
  state's counts to the completions of a state, and the whole store to the deals of the
  game, C(52,k)·C(52-k,3)·C(49-k,2)·C(47-k,k) (read with the store checksums, in one pass);
* **derived arrays**: every array kept beside the shards (the engine's packed counts, ...)
  hashed in full against its recorded SHA-256 and made from this store, and the engine's
  totals equal to the game's deals;
* **naive state counts**: N random stored states (seeded), each with a random suit
  permutation, counted naively over all their completions with the batch evaluators only
  (:mod:`analysis.counting.naive`), equal the store's row and the engine's packed counts
  exactly;
* **small-deck brute force**: on a small deck, the enumerator equals a brute force over
  every player holding, dealer holding and board on every count of every state, and every
  state maps to its row with the right weight;
* **Monte Carlo**: M random hands dealt, evaluated and settled by the rules directly
  (:mod:`analysis.engine.simulation`) agree with the exact house edge within 4 standard
  errors, for optimal play and for always calling;
* **published Casino Hold'em edge**: Casino Hold'em through the same pipeline gives the
  Wizard of Odds figures (house edge 2.16%, element of risk 0.82%, call rate 82%) to the
  published digits, and exactly 1363917077/63213204600.

A check that meets a damaged store fails with the store's message; nothing here prints.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from analysis.counting.enumeration import count_flops, plan
from analysis.counting.naive import brute_force, naive_state_counts
from analysis.counting.symmetry import canonical_states
from analysis.engine.return_engine import PAY_SOURCES, REST_SOURCES, ReturnEngine, load_engine
from analysis.engine.simulation import simulate_strategies
from analysis.model.cards import RANKS, SUITS, format_cards
from analysis.model.errors import AnalysisError, InputError
from analysis.model.game import GameSpec
from analysis.model.outcomes import COLUMNS, state_keys
from analysis.model.rules import Rules, as_rules, preset
from analysis.parallel.options import RunOptions
from analysis.report.appendix import Check, Verification, keep
from analysis.store.outcome_store import OutcomeStore, content_digest
from analysis.store.runs import ensure_store
from analysis.store.shards import StoreError

#: The checks' names, in the order they run.
CHECKS = (
    "store checksums",
    "closed-form totals",
    "derived arrays",
    "naive state counts",
    "small-deck brute force",
    "Monte Carlo, optimal",
    "Monte Carlo, always call",
    "published Casino Hold'em edge",
)
#: Defaults sized for under 2 minutes on 2 cores with the store present (measured: Casino Omaha
#: 47 s, of which 13 s reading the store once and about 4 s a naive state; Casino Hold'em 8 s).
DEFAULT_STATES = 5
DEFAULT_HANDS = 1_000_000
DEFAULT_SEED = 2026
#: Standard errors within which the Monte Carlo must agree.
Z_LIMIT = 4
#: The small deck of each game (ranks, suits): every kind of hand that decides a count.
SMALL_DECKS = {"casino-omaha": ("89TJQKA", "cd"), "casino-holdem": ("9TJQKA", "cd")}
#: Casino Hold'em, AnteWin table on the ante, optimal play (Wizard of Odds, "Casino Hold'em"):
#: figures as published (percent, digits) and the exact house edge they tie down.
PUBLISHED_HOLDEM = {"house edge": ("2.16", 2), "element of risk": ("0.82", 2), "call rate": ("82", 0)}
HOLDEM_EXACT_EDGE = Fraction(1363917077, 63213204600)
PUBLISHED_SOURCE = "Wizard of Odds, Casino Hold'em (house edge 2.16%, element of risk 0.82%, call rate 82%)"


def sample_states(rows: int, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The stored rows the naive check counts (``n`` of ``rows``, seeded, in order) and a
    suit permutation for each (n x 4): the state is counted as that image of the row."""
    rng = np.random.default_rng(seed)
    chosen = np.sort(rng.choice(rows, min(n, rows), replace=False))
    return chosen, np.array([rng.permutation(4) for _ in chosen], dtype=np.int64).reshape(len(chosen), 4)


def verify(
    game: str | Rules = "casino-omaha",
    options: RunOptions | None = None,
    states: int = DEFAULT_STATES,
    hands: int = DEFAULT_HANDS,
    seed: int = DEFAULT_SEED,
    on_check: Callable[[Check], None] | None = None,
) -> Verification:
    """Run every check (:data:`CHECKS`) of ``game``'s figures on its outcome store (made
    first when missing); ``on_check`` is told each result as it comes."""
    for name, value, low in (("states", states, 1), ("hands", hands, 1), ("seed", seed, 0)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise InputError(f"{name} must be a whole number of at least {low}, got {value!r}")
    rules = as_rules(game)
    options = options or RunOptions()
    ranks, suits = SMALL_DECKS.get(rules.name, SMALL_DECKS["casino-omaha"])
    deck = f"{ranks} in {suits}"
    start = time.perf_counter()
    try:
        store = ensure_store(rules, options)
    except StoreError as e:  # a damaged manifest: nothing else can be read
        check = Check(
            "store checksums", False, str(e), "a readable store", "a damaged store", time.perf_counter() - start
        )
        if on_check is not None:
            on_check(check)
        path = OutcomeStore.path_for(rules, options.root)
        return Verification(rules.name, str(path), None, states, hands, seed, deck, (check,))
    checks: list[Check] = []
    engine: list[ReturnEngine] = []

    def record(check: Check) -> None:
        checks.append(check)
        if on_check is not None:
            on_check(check)

    def the_engine() -> ReturnEngine:
        if not engine:
            engine.append(ReturnEngine.from_store(store))
        return engine[0]

    for check in _store_checks(store):
        record(check)
    record(guarded("derived arrays", lambda: _derived(store, the_engine)))
    record(guarded("naive state counts", lambda: _naive(store, the_engine(), states, seed)))
    record(guarded("small-deck brute force", lambda: _small_deck(rules, options)))
    for check in _monte_carlo(the_engine, hands, seed):
        record(check)
    record(guarded("published Casino Hold'em edge", lambda: _published(rules, the_engine, options)))
    result = Verification(rules.name, str(store.path), store.checksum, states, hands, seed, deck, tuple(checks))
    keep(result, store)
    return result


def check_run_size(hands: int, seed: int) -> None:
    """That the sampled deals and the seed of a verification are whole numbers in range."""
    for name, value, low in (("hands", hands, 1), ("seed", seed, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise InputError(f"{name} must be a whole number of at least {low}, got {value!r}")


def published_edges(found: Mapping[str, Fraction], published: Mapping[str, tuple[str, str]]) -> CheckResult:
    """The check that each shipped game's exact house edge (``found``, by name) shows the
    published digits (``published[name]``: the percent as printed, and its source)."""
    shown = {n: f"{float(100 * e):.{len(published[n][0].split('.')[1])}f}" for n, e in found.items()}
    return (
        all(shown[n] == published[n][0] for n in found),
        "the shipped games, optimal play, through the same engine; " + "; ".join(published[n][1] for n in found),
        ", ".join(f"{n} {published[n][0]}%" for n in found),
        ", ".join(f"{n} {shown[n]}% (exactly {found[n]})" for n in found),
    )


def sampled_check(ev: Fraction, house_edge: Fraction, mean: float, error: float, how: str) -> CheckResult:
    """The check that a sampled mean net result (``mean`` with its standard ``error``) lies
    within :data:`Z_LIMIT` standard errors of the exact ``ev``; ``how`` says how it was sampled."""
    z = (mean - float(ev)) / error
    return (
        abs(z) < Z_LIMIT,
        f"{how}; within {Z_LIMIT} standard errors of the exact house edge",
        f"{float(house_edge):.5%} (exact)",
        f"{-mean:.5%} ± {error:.5%} (z = {z:+.2f})",
    )


def on_small_deck(game: GameSpec, ranks: str, suits: str) -> tuple[GameSpec, str]:
    """The same game file on a small deck (its name kept), and the deck in words."""
    rules = replace(game.rules.small_deck(ranks, suits), name=game.rules.name)
    deck = f"{' '.join(RANKS[r] for r in rules.ranks)} in {' '.join(SUITS[s] for s in rules.suits)}"
    return replace(game, rules=rules), deck


def run_checks(
    steps: Sequence[tuple[str, Callable[[], tuple[bool, str, str, str]]]],
    on_check: Callable[[Check], None] | None = None,
) -> tuple[Check, ...]:
    """Run each named check in order, guarded (:func:`guarded`); ``on_check`` is told each
    result as it comes."""
    checks = []
    for name, run in steps:
        checks.append(guarded(name, run))
        if on_check is not None:
            on_check(checks[-1])
    return tuple(checks)


#: What a check returns: passed, what it checks, what was expected and what was found.
CheckResult = tuple[bool, str, str, str]


def guarded(name: str, run: Callable[[], tuple[bool, str, str, str]]) -> Check:
    """Run one check, timed; a store or input problem it meets is its failure."""
    start = time.perf_counter()
    try:
        passed, detail, expected, found = run()
    except AnalysisError as e:
        passed, detail, expected, found = False, str(e), "the check to run", "an error"
    return Check(name, passed, detail, expected, found, time.perf_counter() - start)


@dataclass
class _ShardTotals:
    problem: str | None = None
    rows: int = 0
    weight: int = 0
    bad_rows: int = 0
    deals: int = 0


def _store_checks(store: OutcomeStore) -> Iterator[Check]:
    """Store checksums and closed-form totals, from one read of every shard."""
    rules = store.rules
    start = time.perf_counter()

    def one(i: int) -> _ShardTotals:
        try:
            part = store.read_shard(i)
        except AnalysisError as e:
            return _ShardTotals(problem=str(e))
        entry = store.manifest["shards"][str(i)]
        if content_digest(part) != entry["sha256"]:
            return _ShardTotals(problem=f"{store.shard_path(i)}: content does not match its checksum")
        counts = part.counts.astype(np.int64)
        return _ShardTotals(
            None,
            len(part),
            int(part.weight.sum()),
            int((counts.sum(axis=1) != rules.completions).sum()),
            sum(int(part.weight @ counts[:, j]) for j in range(counts.shape[1])),
        )

    with ThreadPoolExecutor(max_workers=2) as pool:
        shards = list(pool.map(one, range(store.n_shards)))
    digests = "".join(str(store.manifest["shards"].get(str(i), {}).get("sha256")) for i in range(store.n_shards))
    recomputed = hashlib.sha256(digests.encode()).hexdigest()
    problems = [s.problem for s in shards if s.problem is not None]
    if recomputed != store.checksum:
        problems.append(f"the store checksum {store.checksum} is not the one its shards give ({recomputed})")
    elapsed = time.perf_counter() - start
    sound = sum(s.problem is None for s in shards)
    yield Check(
        "store checksums",
        not problems,
        "every shard's file and content SHA-256 against the manifest, the manifest against its own SHA-256, "
        "the store checksum from the shards' (" + ("; ".join(problems) if problems else "all match") + ")",
        f"{store.n_shards} shards sound; store checksum {store.checksum}",
        f"{sound} shards sound; store checksum {recomputed}",
        elapsed * 0.5,
    )
    weight = sum(s.weight for s in shards)
    bad_rows = sum(s.bad_rows for s in shards)
    deals = sum(s.deals for s in shards)
    passed = not problems and weight == rules.states and bad_rows == 0 and deals == rules.total_combinations
    yield Check(
        "closed-form totals",
        passed,
        f"states (the rows' weights), deals per state ({rules.completions:,} for every row; rows that differ: "
        f"{bad_rows:,}) and deals of the game, from the counts",
        f"{rules.states:,} states, {rules.total_combinations:,} deals",
        f"{weight:,} states, {deals:,} deals",
        elapsed * 0.5,
    )


def _derived(store: OutcomeStore, the_engine: Callable[[], ReturnEngine]) -> tuple[bool, str, str, str]:
    engine = the_engine()  # made from the checked shards when missing or stale
    found = store.inspect_derived()
    bad = {name: problem for name, problem in found.items() if problem is not None}
    deals = sum(engine.totals.values())
    if deals != store.rules.total_combinations:
        bad["engine totals"] = f"the engine's arrays hold {deals:,} deals"
    detail = "every file of every set hashed in full against the set's checksums, made from this store's checksum"
    if bad:
        detail += ": " + "; ".join(f"{name}: {problem}" for name, problem in bad.items())
    return (
        not bad,
        detail,
        f"{_sets(len(found))} sound ({', '.join(name.replace('-', ' ') for name in found)})",
        f"{_sets(len(found) - len(bad))} sound",
    )


def _sets(n: int) -> str:
    return f"{n} set" if n == 1 else f"{n} sets"


def _naive(store: OutcomeStore, engine: ReturnEngine, n: int, seed: int) -> tuple[bool, str, str, str]:
    rules = store.rules
    rows, perms = sample_states(store.rows, n, seed)
    hole, flop = engine.cards()
    pay, rest = engine.pay.unpack(rows), engine.rest.unpack(rows)
    wrong = []
    for j, (row, perm) in enumerate(zip(rows, perms)):
        h = [int(c) // 4 * 4 + int(perm[int(c) % 4]) for c in hole[row]]
        f = [int(c) // 4 * 4 + int(perm[int(c) % 4]) for c in flop[row]]
        expected = naive_state_counts(rules, h, f)
        name = f"{format_cards(h)} / {format_cards(f)} (row {int(row):,})"
        stored = store.read_state(h, f)
        if not np.array_equal(stored, expected):
            diff = [COLUMNS[c].name.replace("_", " ") for c in np.flatnonzero(stored != expected)]
            wrong.append(f"{name}: the store differs in {', '.join(diff)}")
        packed = [sum(int(expected[c]) for c in src) for src in PAY_SOURCES]
        others = [sum(int(expected[c]) for c in src) for src in REST_SOURCES]
        if list(pay[j]) != packed or list(rest[j]) != others:
            wrong.append(f"{name}: the engine's packed counts differ")
    states = ", ".join(f"row {int(r):,}" for r in rows)
    detail = (
        f"all {rules.completions:,} completions of each state dealt and evaluated one by one "
        f"(batch evaluators only), suits permuted at random; {states}"
    )
    if wrong:
        detail += ". Differences: " + "; ".join(wrong)
    return (
        not wrong,
        detail,
        f"{len(rows)} states equal to the naive counts (40 counts each)",
        f"{len(rows) - len({w.split(' (row')[0] for w in wrong})} states equal",
    )


def _small_deck(rules: Rules, options: RunOptions) -> tuple[bool, str, str, str]:
    ranks, suits = SMALL_DECKS.get(rules.name, SMALL_DECKS["casino-omaha"])
    small = rules.small_deck(ranks, suits)
    sc = count_flops(small, plan(small), threads=options.threads)
    reference = brute_force(small)
    flops = np.array([s[0] for s in reference])
    holes = np.array([s[1] for s in reference])
    expected = np.array(list(reference.values()))
    wanted = state_keys(*canonical_states(holes, flops, small.suits))
    idx = np.minimum(np.searchsorted(sc.keys, wanted), len(sc) - 1)
    problems = []
    if not np.array_equal(sc.keys[idx], wanted):
        problems.append("states missing from the enumeration")
    else:
        counts = sc.counts[idx].astype(np.int64)
        differ = int((counts != expected).any(axis=1).sum())
        if differ:
            problems.append(f"{differ:,} states differ in their counts")
        if not np.array_equal(np.bincount(idx, minlength=len(sc)), sc.weight):
            problems.append("weights differ from the states that map to each row")
    deals = int(expected.sum())
    if deals != small.total_combinations:
        problems.append(f"the brute force deals {deals:,}, not {small.total_combinations:,}")
    detail = (
        f"{ranks} in suits {suits}: every player holding against every dealer holding on every board, "
        "each state's suit images mapped to its row"
    )
    if problems:
        detail += ": " + "; ".join(problems)
    return (
        not problems,
        detail,
        f"{len(reference):,} states, every count equal; {small.total_combinations:,} deals",
        f"{len(reference):,} states, {'every count equal' if not problems else 'differences'}; {deals:,} deals",
    )


def _monte_carlo(the_engine: Callable[[], ReturnEngine], hands: int, seed: int) -> Iterator[Check]:
    names = ("Monte Carlo, optimal", "Monte Carlo, always call")
    start = time.perf_counter()
    try:
        sims = simulate_strategies(
            the_engine(), [(None, "optimal", "ante"), (None, "always-call", "ante")], hands, seed
        )
    except AnalysisError as e:
        for name in names:
            yield Check(name, False, str(e), "the check to run", "an error", time.perf_counter() - start)
        return
    elapsed = (time.perf_counter() - start) / len(sims)
    for name, sim in zip(names, sims):
        z = sim.z
        passed = z is not None and abs(z) < Z_LIMIT
        exact = sim.exact_house_edge or 0.0
        yield Check(
            name,
            passed,
            f"{sim.hands:,} random hands (seed {seed}) dealt, evaluated and settled by the rules directly, "
            f"the same hands for both plays; within {Z_LIMIT} standard errors of the exact house edge",
            f"{exact:.5%} (exact)",
            f"{sim.house_edge:.5%} ± {sim.standard_error:.5%} (z = {'n/a' if z is None else f'{z:+.2f}'})",
            elapsed,
        )


def _published(rules: Rules, the_engine: Callable[[], ReturnEngine], options: RunOptions) -> tuple[bool, str, str, str]:
    holdem = preset("casino-holdem")
    engine = the_engine() if rules == holdem else load_engine(holdem, options)
    exact = engine.decide(None, "optimal").exact
    figures = {
        "house edge": exact.house_edge,
        "element of risk": exact.element_of_risk,
        "call rate": exact.call_rate,
    }
    shown = {name: f"{float(100 * figures[name]):.{digits}f}" for name, (_, digits) in PUBLISHED_HOLDEM.items()}
    differ = [name for name, (value, _) in PUBLISHED_HOLDEM.items() if shown[name] != value]
    if exact.house_edge != HOLDEM_EXACT_EDGE:
        differ.append("exact house edge")
    return (
        not differ,
        f"Casino Hold'em, AnteWin table on the ante, optimal play, through the same engine, to the published "
        f"digits; {PUBLISHED_SOURCE}" + (f"; differs: {', '.join(differ)}" if differ else ""),
        ", ".join(f"{name} {value}%" for name, (value, _) in PUBLISHED_HOLDEM.items())
        + f"; exactly {HOLDEM_EXACT_EDGE}",
        ", ".join(f"{name} {shown[name]}%" for name in PUBLISHED_HOLDEM) + f"; exactly {exact.house_edge}",
    )
