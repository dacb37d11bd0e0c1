"""``casino-omaha enumerate``: build (or resume) the exact outcome store of a game."""

from __future__ import annotations

import argparse

from analysis.cli.common import (
    Subparsers,
    add_cluster_options,
    add_format,
    add_game_options,
    cluster_for,
    options_for,
    print_json,
    rules_for,
)

NAME = "enumerate"


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(NAME, help="build (or resume) the exact outcome store of a game", description=__doc__)
    add_game_options(p)
    p.add_argument(
        "--repair",
        action="store_true",
        help="check every shard and derived array against its checksums, enumerate the damaged or missing "
        "shards again and make the return engine's arrays again",
    )
    add_cluster_options(p)
    add_format(p)


def run(args: argparse.Namespace) -> int:
    from analysis.store.runs import ensure_store

    rules = rules_for(args)
    with cluster_for(args) as cluster:
        store = ensure_store(rules, options_for(args, cluster), repair=args.repair)
    if args.repair:
        from analysis.engine.return_engine import ReturnEngine

        ReturnEngine.from_store(store)  # the arrays every report reads: made again if the repair removed them
    m = store.manifest
    if args.format == "json":
        print_json(
            {
                "game": rules.name,
                "path": str(store.path),
                "rows": m["rows"],
                "states": m["total_states"],
                "deals": m["total_combinations"],
                "checksum": store.checksum,
                "elapsed_seconds": m.get("elapsed_seconds"),
                "derived_sha256": store.derived_sha256,
            }
        )
        return 0
    print(f"{rules.name}: {m['rows']:,} canonical states ({m['total_states']:,} states) in {store.path}")
    print(f"checksum {store.checksum}; enumerated in {m.get('elapsed_seconds', 0)} s")
    for name, digests in store.derived_sha256.items():
        print(f"derived/{name} checked: " + ", ".join(f"{key}.npy {sha[:16]}" for key, sha in digests.items()))
    return 0
