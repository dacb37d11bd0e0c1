"""Runs of the game-protection jobs: the exact one-card exposure (a shard = the flop classes
of an outcome-store shard) and the sampled runs (a shard = a batch of states), on a dask
cluster or in this process (:mod:`analysis.parallel.cluster`). Each shard's result is kept in the
job's result store (:mod:`analysis.store.result_store`) as it arrives, so a run that is interrupted
resumes where it stopped, and a damaged shard is computed again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from analysis.counting.symmetry import FlopClass
from analysis.engine.return_engine import ReturnEngine, load_engine
from analysis.model.errors import InputError
from analysis.model.numbers import shown
from analysis.model.paytable import PayTable, PayTableSpec
from analysis.model.rules import Rules, as_rules
from analysis.parallel.options import RunOptions
from analysis.protection.edges import ExposureResult, exposure_result
from analysis.protection.exposure import ExposureJob, ExposureSums
from analysis.protection.sampling import (
    BaseGameControl,
    Information,
    SampleEstimate,
    SampleJob,
    estimate_edge,
    margins_digest,
)
from analysis.store.outcome_store import OutcomeStore, shard_plan
from analysis.store.result_store import ResultStore, results_folder, stored_jobs
from analysis.store.runs import run_into_store
from analysis.strategy.simple import derive_simple_strategy


@dataclass
class RunInfo:
    """Where a run's results are kept and what it did."""

    path: Path
    checksum: str  # SHA-256 of the results' content: the same for any workers and order
    shards: int
    computed: int  # shards computed by this run (the others were kept from earlier runs)
    seconds: float


def _exposure_shard(job: ExposureJob, flops: list[FlopClass], threads: int | None = None) -> dict[str, list[int]]:
    return job.run(flops, threads).to_json()


def _sample_shard(job: SampleJob, shard: int, count: int, threads: int | None = None) -> list[int]:
    return job.margins(shard, count, threads)


def exposure_run(
    rules: Rules,
    paytable: PayTableSpec = None,
    pays_on: str = "ante",
    engine: ReturnEngine | None = None,
    options: RunOptions | None = None,
) -> tuple[ExposureJob, ExposureSums, RunInfo]:
    """Every state of the game with one dealer card seen, decided for the pay table and
    summed (the job's result store is reused and completed). ``engine``: the base game's
    (for the simple strategy the groups refer to; loaded from its store when None); the
    job's results are kept in ``options.results`` (default: ``protection/`` under the
    store root)."""
    options, rules = options or RunOptions(), as_rules(rules, "rules")
    paytable = PayTable.load(paytable)
    start = time.perf_counter()
    engine = engine if engine is not None else load_engine(rules, options)
    job = ExposureJob(rules, paytable, pays_on, derive_simple_strategy(engine, paytable, pays_on))
    job.coefficients()  # a pay table the kernel cannot take exactly is refused before any work
    plan = shard_plan(rules)
    store = ResultStore.for_job("exposure", job.key(), options.results or results_folder(options.root))
    computed = run_into_store(
        store,
        _exposure_shard,
        {i: (job, flops) for i, flops in enumerate(plan)},
        {i: len(flops) for i, flops in enumerate(plan)},
        f"{rules.name}: one dealer card seen, exactly",
        options,
    )
    sums = ExposureSums.zero()
    for i in range(len(plan)):
        sums = sums + ExposureSums.from_json(store.read(i))
    return job, sums, RunInfo(store.path, sums.digest(), len(plan), computed, time.perf_counter() - start)


def sampled_run(
    rules: Rules,
    information: Information,
    samples: int,
    seed: int,
    paytable: PayTableSpec = None,
    pays_on: str = "ante",
    options: RunOptions | None = None,
) -> tuple[SampleJob, list[int], RunInfo]:
    """The exact margins of ``samples`` states drawn with ``seed`` (in shard order); shards
    kept from an earlier run of the same job are reused, and extended if it was shorter.
    The job's results are kept in ``options.results`` (default: ``protection/`` under the
    store root)."""
    options, rules = options or RunOptions(), as_rules(rules, "rules")
    paytable = PayTable.load(paytable)
    if not isinstance(information, Information):
        raise InputError(f"information: {shown(information)} is not an Information (e.g. Information('turn'))")
    information.sizes(rules)  # bad information is refused before any work
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 2:
        raise InputError(f"samples: a sampled run needs a whole number of at least 2 states, not {shown(samples)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise InputError(f"seed: a whole number from 0 to 2**63 - 1, not {shown(seed)}")
    start = time.perf_counter()
    job = SampleJob(rules, paytable, pays_on, information, seed)
    sizes = dict(enumerate(job.shards(samples)))
    store = ResultStore.for_job("sampled", job.key(), options.results or results_folder(options.root))
    computed = run_into_store(
        store,
        _sample_shard,
        {i: (job, i, count) for i, count in sizes.items()},
        sizes,
        f"{rules.name}: {information.describe()}, {samples:,} states",
        options,
    )
    margins = [m for i, count in sizes.items() for m in store.read(i)[:count]]
    return job, margins, RunInfo(store.path, margins_digest(margins), len(sizes), computed, time.perf_counter() - start)


@dataclass
class StoredProtection:
    """The protection results already computed for a game, pay table and pay rule."""

    exposure: ExposureResult | None
    sampled: list[SampleEstimate]  # the longest run of each kind of information
    sources: list[str]  # the result sets used, by name (no folder) with their checksums


def stored_protection(
    engine: ReturnEngine, paytable: PayTableSpec = None, pays_on: str = "ante", results: Path | None = None
) -> StoredProtection:
    """What earlier ``protect`` runs computed for the engine's game with this pay table
    (nothing is computed here: a report includes what is there and says what is not).
    ``results``: their folder (default: ``protection/`` beside the engine's store)."""
    paytable, rules = PayTable.load(paytable), engine.rules
    if results is None:
        results = results_folder(engine.source.path.parent if isinstance(engine.source, OutcomeStore) else None)
    job = ExposureJob(rules, paytable, pays_on, derive_simple_strategy(engine, paytable, pays_on))
    plan = shard_plan(rules)
    store = ResultStore.for_job("exposure", job.key(), results)
    exposure, sources = None, []
    if store.manifest_path.exists() and all(
        store.size(i) == len(flops) and store.shard_is_sound(i) for i, flops in enumerate(plan)
    ):
        sums = ExposureSums.zero()
        for i in range(len(plan)):
            sums = sums + ExposureSums.from_json(store.read(i))
        exposure = exposure_result(rules, paytable, pays_on, sums)
        sources.append(f"{store.path.name} (checksum {sums.digest()[:16]})")
    fields = {
        "rules": rules.fingerprint(),
        "call_multiple": rules.call_multiple,
        "paytable": job.key()["paytable"],
        "pays_on": pays_on,
    }
    longest: dict[tuple[Any, ...], tuple[SampleJob, list[int], ResultStore]] = {}
    for found in stored_jobs("sampled", results, **fields):
        sampled = SampleJob(rules, paytable, pays_on, Information(*found.key["information"]), found.key["seed"])
        margins = _prefix(found, sampled.batch)
        kind = tuple(found.key["information"])
        if len(margins) >= 2 and len(margins) > len(longest.get(kind, (None, []))[1]):
            longest[kind] = (sampled, margins, found)
    control = BaseGameControl(engine, paytable, pays_on) if longest else None
    estimates = []
    for sampled, margins, found in sorted(
        longest.values(), key=lambda x: (x[0].information.kind, x[0].information.amount)
    ):
        estimates.append(estimate_edge(sampled, margins, control))
        sources.append(f"{found.path.name} (checksum {margins_digest(margins)[:16]})")
    return StoredProtection(exposure, estimates, sources)


def _prefix(store: ResultStore, batch: int) -> list[int]:
    """The margins of the sound shards 0, 1, ... up to the first missing or short one."""
    margins, i = [], 0
    while store.size(i) and store.shard_is_sound(i):
        margins += store.read(i)[: store.size(i)]
        if store.size(i) < batch:
            break
        i += 1
    return margins
