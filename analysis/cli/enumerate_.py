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
        help="check every shard against its checksums and enumerate the damaged or missing ones again",
    )
    add_cluster_options(p)
    add_format(p)


def run(args: argparse.Namespace) -> int:
    from analysis.store.runs import ensure_store

    rules = rules_for(args)
    with cluster_for(args) as cluster:
        store = ensure_store(rules, options_for(args, cluster), repair=args.repair)
    m = store.manifest
    if args.format == "json":
        print_json(
            {
                "game": rules.name,
                "path": str(store.path),
                "rows": m["rows"],
                "states": m["total_states"],
                "total_combinations": m["total_combinations"],
                "checksum": store.checksum,
                "elapsed_seconds": m.get("elapsed_seconds"),
            }
        )
        return 0
    print(f"{rules.name}: {m['rows']:,} canonical states ({m['total_states']:,} states) in {store.path}")
    print(f"checksum {store.checksum}; enumerated in {m.get('elapsed_seconds', 0)} s")
    return 0
