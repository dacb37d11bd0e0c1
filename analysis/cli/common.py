"""What the commands share: the game and pay-table options, argument types that reject bad
values at parse time, and printing JSON. Only argparse and the standard library are
imported here (and the package's light modules), so ``casino-omaha --help`` stays instant."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from analysis.model.errors import InputError
from analysis.model.numbers import as_fraction, shown
from analysis.model.rules import PAYS_ON, PRESETS, Rules, parse_qualifier
from analysis.parallel.options import RunOptions
from analysis.parallel.threads import MAX_THREADS

if TYPE_CHECKING:
    from analysis.engine.hand_bets import HandBetFigures
    from analysis.engine.result import Outcome
    from analysis.engine.return_engine import ReturnEngine
    from analysis.engine.statistics import ExactFigures
    from analysis.engine.wagers import WagerFigures
    from analysis.model.game import GameSpec
    from analysis.model.paytable import PayTable
    from analysis.model.settlement import Settlement
    from analysis.parallel.cluster import Cluster

MAX_HANDS = 10**9

#: What each command's ``add_parser`` adds its parser to: the top parser's sub-commands.
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def whole_number(low: int, high: int | None = None, what: str = "a number") -> Callable[[str], int]:
    """An argparse type: a whole number in [low, high]."""

    def parse(text: str) -> int:
        limit = f"from {low:,} to {high:,}" if high is not None else f"at least {low:,}"
        if len(text.strip()) > 30:  # int() of thousands of digits is slow, or refused
            raise argparse.ArgumentTypeError(f"{what} must be {limit}, got {shown(text)}")
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{what} must be {limit}, got {value:,}")
        return value

    return parse


threads = whole_number(1, MAX_THREADS, "threads")
workers = whole_number(1, MAX_THREADS, "workers")
hands = whole_number(1, MAX_HANDS, "hands")
seed = whole_number(0, 2**63 - 1, "the seed")


def number(text: str) -> Fraction:
    """An argparse type: an exact number (``0.02``, ``3/2``), bounded (see
    :mod:`analysis.model.numbers`), so a huge one fails here and fast."""
    try:
        return as_fraction(text)
    except InputError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def positive(text: str) -> Fraction:
    """An argparse type: a positive exact number."""
    value = number(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be positive")
    return value


def paytable(text: str) -> PayTable:
    """An argparse type: a pay table (a CSV file or the name of one that ships), loaded and
    checked while the arguments are read, before any work starts."""
    from analysis.model.paytable import PayTable

    try:
        return PayTable.load(text)
    except InputError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def out_folder(text: str) -> Path:
    """An argparse type: a folder to write into, made later if missing; checked now (not a
    file, writable) so that a bad one fails before any work starts."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{path} is a file, not a folder")
    _check_writable(path)
    return path


def out_file(text: str) -> Path:
    """An argparse type: a file to write, in a folder that exists and can be written to."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{path} is a folder, not a file")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"{path}: the folder {path.parent} does not exist")
    _check_writable(path.parent)
    return path


def _check_writable(path: Path) -> None:
    """That a file can be created in ``path`` or, while it does not exist yet, in the
    nearest folder above it (tried with a file, since permission bits say nothing to root)."""
    folder = path
    while not folder.exists():
        folder = folder.parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"{path}: {folder} is a file, not a folder")
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".casino-omaha-"):
            pass
    except OSError as e:
        raise argparse.ArgumentTypeError(f"{path}: cannot write into {folder} ({e.strerror})") from None


def qualifier(text: str) -> str:
    """An argparse type: the dealer's qualifier (a rank or ``none``), checked, kept as text."""
    try:
        parse_qualifier(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def game_or_file(text: str) -> str:
    """An argparse type: one of the return engine's games, a shipped multi-street game or a
    game file (.toml), checked (the file read and validated) before any work starts; kept as
    given."""
    if text in PRESETS:
        return text
    from analysis.model.game import load_game, shipped_games

    if not text.endswith(".toml") and text not in shipped_games():
        raise argparse.ArgumentTypeError(
            f"unknown game {shown(text)}; choose one of: {', '.join(shipped_games())} or a game file (.toml)"
        )
    try:
        load_game(text)
    except InputError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    except OSError as e:
        raise argparse.ArgumentTypeError(f"{shown(text)}: cannot read the game file ({e.strerror})") from None
    return text


def add_game_options(p: argparse.ArgumentParser, store: bool = True) -> None:
    """The game (any shipped game or game file: every command takes every game) and its
    rule knobs."""
    p.add_argument(
        "--game",
        type=game_or_file,
        default="casino-omaha",
        metavar="NAME|FILE",
        help=f"the game: {', '.join(PRESETS)}, a multi-street game that ships (see `games`) or a game "
        "file (.toml); default casino-omaha",
    )
    p.add_argument(
        "--qualifier",
        type=qualifier,
        default=None,
        metavar="RANK|none",
        help="the dealer qualifies with a pair of RANK (2..9, T, J, Q, K, A) or better, or always (none); "
        "default: the game's own (casino-omaha 7s, casino-holdem 4s). Another qualifier has its own counts: "
        "its store is computed on first use (about a minute for casino-omaha) and kept",
    )
    p.add_argument(
        "--call-multiple",
        type=whole_number(1, 4, "the call bet"),
        default=None,
        metavar="N",
        help="the call bet, N times the ante (1 to 4; default 2): the same counts, strategy re-optimised",
    )
    if store:
        add_run_options(p)


#: Where the stores are, unless --store says otherwise.
STORE_HELP = (
    "outcome store root (default: $CASINO_OMAHA_STORE, data/outcomes in a checkout, else a per-user cache folder)"
)


def add_run_options(p: argparse.ArgumentParser, store_help: str = STORE_HELP) -> None:
    """--store, --threads and --no-progress: what :func:`options_for` reads."""
    p.add_argument("--store", type=Path, default=None, help=store_help)
    p.add_argument("--threads", type=threads, default=None, help="worker threads (default: all cores)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def add_pay_options(p: argparse.ArgumentParser, default: str = "antewin") -> None:
    p.add_argument(
        "--paytable",
        type=paytable,
        default=default,
        help=f"pay table: a CSV file or the name of a table that ships with the package (default {default})",
    )
    p.add_argument(
        "--pays-on",
        choices=PAYS_ON,
        default="ante",
        help="which bet the table pays: ante (AnteWin, default) or call (Caribbean)",
    )


def scheduler(text: str) -> str:
    """An argparse type: a dask scheduler's address, checked before anything connects."""
    from analysis.parallel.cluster import check_scheduler

    try:
        return check_scheduler(text, source="")
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_cluster_options(p: argparse.ArgumentParser) -> None:
    """Where the shards of a heavy job run (see :mod:`analysis.parallel.cluster`): in this
    process unless a cluster is asked for, since on one machine that is the fast path (a
    Casino Omaha store in 18.5 s here against 29.7 s on a local cluster of 2 workers)."""
    p.add_argument(
        "--scheduler",
        type=scheduler,
        default=None,
        metavar="ADDR",
        help="run the shards on this dask scheduler, tcp://HOST:PORT or tls://HOST:PORT, e.g. tcp://10.0.0.5:8786 "
        "(also $DASK_SCHEDULER_ADDRESS; default: in this process, on --threads threads)",
    )
    p.add_argument(
        "--cluster",
        action="store_true",
        help="run the shards on a local dask cluster of --workers processes (slower than the default on one "
        "machine; a dashboard shows each shard)",
    )
    p.add_argument(
        "--workers", type=workers, default=None, help="worker processes of the local cluster (default: one per core)"
    )
    p.add_argument("--no-cluster", action="store_true", help="in this process even when $DASK_SCHEDULER_ADDRESS is set")


@contextmanager
def cluster_for(args: argparse.Namespace) -> Iterator[Cluster | None]:
    """The cluster the options ask for (None: this process), started when first used;
    its dashboard's address is printed then."""
    wanted = args.scheduler or args.cluster or args.workers is not None or os.environ.get("DASK_SCHEDULER_ADDRESS")
    if args.no_cluster or not wanted:
        yield None
        return
    from analysis.parallel.cluster import connect_cluster

    def started(cluster: Cluster) -> None:
        where = "local cluster" if cluster.local else f"scheduler {cluster.address}"
        dashboard = f"dashboard {cluster.dashboard}" if cluster.dashboard else "no dashboard"
        print(f"dask: {where}, {cluster.workers} workers; {dashboard}", file=sys.stderr, flush=True)

    with connect_cluster(args.scheduler, args.workers, started) as cluster:
        yield cluster


def add_format(p: argparse.ArgumentParser, *extra: str) -> None:
    p.add_argument("--format", choices=("table", "json", *extra), default="table", help="output format")


def options_for(args: argparse.Namespace, cluster: Cluster | None = None) -> RunOptions:
    """The run options the store, progress, result and cluster options ask for."""
    return RunOptions(
        root=args.store,
        results=getattr(args, "results", None),
        cluster=cluster,
        threads=getattr(args, "threads", None),
        progress=False if getattr(args, "no_progress", False) else None,
    )


def rules_for(args: argparse.Namespace) -> Rules:
    """The rules of ``--game`` with ``--qualifier`` and ``--call-multiple`` applied."""
    from dataclasses import replace

    if args.game not in PRESETS:
        raise InputError(one_decision_only(args))
    rules = PRESETS[args.game]
    if args.qualifier is not None:
        rules = replace(rules, qualifier_rank=parse_qualifier(args.qualifier))
    if args.call_multiple is not None:
        rules = replace(rules, call_multiple=args.call_multiple)
    return rules


#: What to do instead, for a command that plays only the one-decision games so far.
INSTEAD = {
    "enumerate": "`solve --game GAME` counts it and keeps its result store",
}


def one_decision_only(args: argparse.Namespace) -> str:
    """One line: why ``args.command`` does not take the multi-street game ``args.game`` yet,
    and what to do instead."""
    from analysis.model.game import load_game
    from analysis.report.wording import STREET_WORDS

    game = load_game(args.game)
    instead = INSTEAD.get(args.command, "`report` and `solve` take it").replace("GAME", args.game)
    if game.single_decision:  # a designer's own one-decision file: its store is not kept yet
        return (
            f"{game.title} is a one-decision game from a file: `{args.command}` takes the shipped ones so far "
            f"({', '.join(PRESETS)}); `report --game {args.game}` solves it exactly"
        )
    *first, last = [STREET_WORDS[s] for s in game.streets]
    points = f"{', '.join(first)} and {last}" if first else last
    return (
        f"{game.title} decides {points}: `{args.command}` takes the one-decision games so far "
        f"({', '.join(PRESETS)}); {instead}"
    )


#: The commands that take a game without a board (Three Card Poker) or without a dealer
#: (Mississippi Stud) so far.
NO_BOARD_COMMANDS = ("solve", "report", "advise", "simulate", "games", "field", "app")


#: The commands that take a game without a dealer, beyond those.
HAND_PAID_COMMANDS = ("tune", "verify", "protect")
#: ... and a game without a board.
BOARDLESS_COMMANDS = ("verify", "tune", "protect", "sidebet")


def refuse_without_board(args: argparse.Namespace) -> None:
    """One line, before any work, when ``args.command`` does not take the game without a
    board or without a dealer that ``args.game`` names yet."""
    game = getattr(args, "game", None)
    if not isinstance(game, (str, Path)) or game in PRESETS:
        return
    from analysis.model.game import load_game

    spec = load_game(game)
    what = "no board" if spec.no_board is not None else "no dealer" if spec.hand_paid is not None else ""
    taken = (
        args.command in NO_BOARD_COMMANDS
        or (spec.hand_paid is not None and args.command in HAND_PAID_COMMANDS)
        or (spec.no_board is not None and args.command in BOARDLESS_COMMANDS)
    )
    if what and not taken:
        raise InputError(
            f"{spec.title} has {what}: `{args.command}` does not take such a game yet; "
            f"`solve --game {game}` gives its exact figures and strategy, `advise --game {game} CARDS` "
            "the decision of a hand"
        )


#: The options that only the one-decision games take (a game file states its own pays
#: and is played with the optimal strategy), by flag and by what the flag's absence reads.
ONE_DECISION_OPTIONS = {
    "--paytable": lambda a: a.paytable.name != "antewin",
    "--pays-on": lambda a: a.pays_on != "ante",
    "--strategy": lambda a: getattr(a, "strategy", None) not in (None, "optimal"),
    "--call-multiple": lambda a: a.call_multiple is not None,
    "--sidebet": lambda a: bool(getattr(a, "sidebet", None)) or getattr(a, "no_sidebets", False),
}


def game_for(args: argparse.Namespace) -> GameSpec:
    """The multi-street game of ``--game`` (with ``--qualifier``), refusing in one line the
    options only the one-decision games take."""
    from analysis.model.game import load_game

    given = [
        flag for flag, on in ONE_DECISION_OPTIONS.items() if hasattr(args, flag[2:].replace("-", "_")) and on(args)
    ]
    if given:
        raise InputError(
            f"{', '.join(given)}: only for {' and '.join(PRESETS)}; a game file states its own pays "
            "and is played with the optimal strategy"
        )
    game = load_game(args.game)
    return game if args.qualifier is None else game.with_qualifier(args.qualifier)


def engine_for(args: argparse.Namespace) -> ReturnEngine:
    """The return engine of the game's rules from its store (enumerated first if missing)."""
    from analysis.engine.return_engine import load_engine

    return load_engine(rules_for(args), options_for(args))


def result_json(
    game: str,
    title: str,
    strategy: str,
    exact: ExactFigures,
    decisions: dict[tuple[str, str], int],
    outcomes: list[Outcome],
    settlement: Settlement | None,
    wagers: Sequence[WagerFigures] | None = None,
    **extra: object,
) -> dict[str, object]:
    """The one JSON schema of a game's result, whichever engine solved it: the game, the
    strategy, the figures (each a number and its exact "p/q" beside it), the deals that took
    each option at each decision point, then ``extra``, each wager on its own (``wagers``,
    else settled by ``settlement``) and the return table's rows."""
    from analysis.engine.wagers import wager_figures

    if wagers is None:
        if settlement is None:
            raise InputError(f"{title}: give its wagers or its settlement")
        wagers = wager_figures(outcomes, settlement)
    each = [
        {
            "wager": w.wager,
            "house_edge": float(w.house_edge),
            "house_edge_exact": str(w.house_edge),
            "expected_exact": str(w.expected),
            "average_stake_exact": str(w.average_stake),
            "wins": float(w.share("wins")),
            "pushes": float(w.share("pushes")),
            "loses": float(w.share("loses")),
            "lines": [
                {"result": x.result, "final_hand": x.final_hand, "net_exact": str(x.net), "deals": x.deals}
                for x in w.lines
            ],
        }
        for w in wagers
    ]
    rows = [
        {
            "ended": o.ended,
            "play_bet": o.play_bet,
            "final_hand": o.final_hand,
            "dealer": o.dealer,
            "deals": o.deals,
            "probability": o.deals / exact.deals,
            "probability_exact": str(Fraction(o.deals, exact.deals)),
            "net": float(o.net),
            "net_exact": str(o.net),
            "contribution": float(o.net * o.deals / exact.deals),
        }
        for o in outcomes
    ]
    return (
        {"game": game, "title": title, "strategy": strategy}
        | exact.summary()
        | {"decisions": {f"{street}: {option}": n for (street, option), n in decisions.items()}}
        | extra
        | {"wagers": each, "return_table": rows}
    )


def print_sampled(args: argparse.Namespace, game: str, hands: int, mean: float, error: float, exact: float) -> int:
    """``simulate``'s answer for sampled deals settled by their own code: the sampled house
    edge (minus the mean net) with its standard error against the exact one, and z."""
    z = (-mean - exact) / error
    if args.format == "json":
        data = {"game": game, "strategy": "optimal", "hands": hands, "seed": args.seed}
        print_json(data | {"house_edge": -mean, "standard_error": error, "exact_house_edge": exact, "z": z})
        return 0
    print(
        f"{game}, optimal: simulated house edge {-mean:.5%} ± {error:.5%} "
        f"(1 s.e., {hands:,} hands, seed {args.seed}); exact {exact:.5%}; z = {z:+.2f}"
    )
    return 0


def print_json(data: object) -> None:
    """One JSON object on stdout; exact numbers (Fractions) as text, numpy numbers as numbers."""
    json.dump(data, sys.stdout, indent=1, default=_plain)
    sys.stdout.write("\n")


def _plain(value: object) -> object:
    if isinstance(value, Fraction):
        return str(value)
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def hand_bets_json(bets: Mapping[str, HandBetFigures]) -> dict[str, object]:
    """The bets on the player's hand (or first cards) alone: title, pays, hands per line and
    the figures, with the names of every result."""
    return {
        name: {"title": b.bet.title, "pays": {c: str(p) for c, p in b.bet.pays.items()}, "hands": b.hands}
        | b.exact.summary()
        for name, b in bets.items()
    }
