"""``casino-omaha app``: the tuning panel as a web page for people without Jupyter, served
by Voilà on 127.0.0.1 (no code shown; :mod:`analysis.tuning.serve`). For a one-decision
game of the family the outcome store is computed first when it is missing (with progress);
every other game or game file gets :class:`~analysis.tuning.game_panel.GamePanel`, which
solves each table it is shown. Reports and saved pay tables go into ``--out``.

The page is the user's alone: the printed address carries a random token, and the server
refuses other Hosts (DNS rebinding) and websockets from other origins (``--allow-origin``
adds one). A busy port is refused before anything starts. SIGTERM, SIGINT or SIGHUP stop
the server and every kernel it started."""

from __future__ import annotations

import argparse
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path
from types import FrameType
from typing import Any

from analysis.cli.common import (
    Subparsers,
    add_format,
    add_game_options,
    game_for,
    options_for,
    out_folder,
    print_json,
    rules_for,
    whole_number,
)
from analysis.model.errors import InputError
from analysis.model.numbers import shown
from analysis.model.rules import PRESETS

NAME = "app"
HOST = "127.0.0.1"
#: The signals that stop the server (Ctrl-C, kill, a closed terminal).
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
#: Seconds Voilà gets to shut its kernels down before it and they are killed.
GRACE = 15.0
ORIGIN = re.compile(r"https?://[a-z0-9.-]+(:[0-9]{1,5})?|https?://\[[0-9a-f:.]+\](:[0-9]{1,5})?", re.IGNORECASE)


def web_origin(text: str) -> str:
    """An argparse type: a web origin, ``scheme://host[:port]`` (what a browser sends as Origin)."""
    if len(text) > 253 or not ORIGIN.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"give one web origin, http(s)://host[:port] such as https://example.org, got {shown(text)}"
        )
    return text.lower()


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(NAME, help="serve the tuning panel as a web page (Voilà, 127.0.0.1)", description=__doc__)
    add_game_options(p)
    p.add_argument("--port", type=whole_number(1024, 65535, "the port"), default=8866, help="port (default 8866)")
    p.add_argument("--out", type=out_folder, default="reports", help="folder for reports and saved tables")
    p.add_argument(
        "--allow-origin",
        type=web_origin,
        default=None,
        metavar="ORIGIN",
        help="also accept the page's kernel connection from this web origin (http(s)://host[:port], e.g. a "
        "site that embeds the page); default: only the page itself. The token is still required",
    )
    add_format(p)  # json: the address as {"url", "game", "store"} once the server listens


def check_port_free(port: int) -> None:
    """Refuse a port something already listens on (Voilà would otherwise fail or move)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as tornado binds: a closed port's TIME_WAIT is free
        try:
            s.bind((HOST, port))
        except OSError as e:
            raise InputError(f"port {port} on {HOST} is not free ({e.strerror}): choose another --port") from None


def run(args: argparse.Namespace) -> int:
    from analysis.store.runs import ensure_store
    from analysis.tuning.serve import TOKEN_VARIABLE

    check_port_free(args.port)  # before the store, which can take a minute
    token = secrets.token_urlsafe(32)
    env = os.environ | {
        TOKEN_VARIABLE: token,
        "CASINO_OMAHA_APP_OUT": str(args.out.resolve()),
        "CASINO_OMAHA_APP_QUALIFIER": args.qualifier or "own",
    }
    if args.game in PRESETS:
        rules = rules_for(args)
        store = ensure_store(rules, options_for(args))
        name, store_path = rules.name, str(store.path)
        env |= {
            "CASINO_OMAHA_STORE": str(store.path.parent),
            "CASINO_OMAHA_APP_GAME": args.game,
            "CASINO_OMAHA_APP_CALL": str(rules.call_multiple),
        }
    else:  # every other game: its panel solves each table (kept in the result store)
        from analysis.tuning.street_tuner import StreetTuner

        game = game_for(args)  # refuses the one-decision options; --qualifier applied
        StreetTuner(game)  # a game with no table to tune is refused here, not in the page
        path = Path(args.game)
        name, store_path = game.name, None
        env |= {"CASINO_OMAHA_APP_GAME": str(path.resolve()) if path.is_file() else args.game}
        if args.store is not None:  # where the panel keeps each table's solve
            env |= {"CASINO_OMAHA_STORE": str(Path(args.store).resolve())}
    command = [sys.executable, "-m", "analysis.tuning.serve", str(args.port), args.allow_origin or ""]
    with StopSignals() as signals:
        server = subprocess.Popen(command, env=env, start_new_session=True)  # its own group: no terminal signal
        try:
            if not listening(server, args.port):
                code = server.wait()
                print(f"casino-omaha app: the server stopped before it listened (exit code {code})", file=sys.stderr)
                return code or 1
            url = f"http://{HOST}:{args.port}/?token={token}"
            if args.format == "json":
                print_json({"url": url, "game": name, "store": store_path})
            else:
                print(f"tuning page for {name}: {url}  (Ctrl-C stops the server)")
            sys.stdout.flush()
            return server.wait()
        except Stop as stop:
            print(f"casino-omaha app: {stop.signal.name}: the server and its kernels are stopped", file=sys.stderr)
            return 128 + stop.signal
        finally:
            signals.armed = False  # a signal during the clean-up does not interrupt it
            stop_server(server)


class Stop(Exception):
    """A stop signal arrived (raised in the main thread by the handler)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signal = signal.Signals(signum)


class StopSignals:
    """Inside, the first SIGTERM/SIGINT/SIGHUP raises :class:`Stop` while ``armed``; later
    ones are only noted, so the clean-up finishes. The old handlers come back on exit."""

    def __init__(self) -> None:
        self.armed = True
        self._old: dict[signal.Signals, Any] = {}

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.armed:
            self.armed = False
            raise Stop(signum)

    def __enter__(self) -> StopSignals:
        self._old = {s: signal.signal(s, self._handle) for s in STOP_SIGNALS}
        return self

    def __exit__(self, *exc: object) -> None:
        for s, h in self._old.items():
            signal.signal(s, h)


def listening(server: subprocess.Popen[bytes], port: int) -> bool:
    """Wait until the server accepts connections on the port (True) or has exited (False)."""
    while server.poll() is None:
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return True
        except OSError:
            time.sleep(0.1)
    return False


def stop_server(server: subprocess.Popen[bytes]) -> None:
    """Stop Voilà and every process under it. SIGTERM to its process group lets it shut its
    kernels down; after :data:`GRACE` seconds the group is killed, then any kernel still
    alive (jupyter_client starts each kernel in a session of its own, out of the group)."""
    import psutil

    try:
        below = psutil.Process(server.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        below = []
    with suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(GRACE)
    except subprocess.TimeoutExpired:
        with suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    _, alive = psutil.wait_procs(below, timeout=GRACE)
    for p in alive:
        with suppress(psutil.NoSuchProcess):
            p.kill()
    psutil.wait_procs(alive, timeout=GRACE)
