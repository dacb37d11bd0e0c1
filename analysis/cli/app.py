"""``casino-omaha app``: the tuning panel as a web page for people without Jupyter, served
by Voilà on 127.0.0.1 (no code shown). The game's outcome store is computed first when it
is missing (with progress); reports and saved pay tables go into ``--out``."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from analysis.cli.common import (
    Subparsers,
    add_format,
    add_game_options,
    options_for,
    out_folder,
    print_json,
    rules_for,
    whole_number,
)

NAME = "app"


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(NAME, help="serve the tuning panel as a web page (Voilà, 127.0.0.1)", description=__doc__)
    add_game_options(p)
    p.add_argument("--port", type=whole_number(1024, 65535, "the port"), default=8866, help="port (default 8866)")
    p.add_argument("--out", type=out_folder, default="reports", help="folder for reports and saved tables")
    add_format(p)  # json: the address as {"url", "game", "store"} before the server's own log


def voila_command(notebook: Path, port: int) -> list[str]:
    """Voilà serving one notebook on 127.0.0.1 only, sources stripped, no browser opened."""
    return [
        sys.executable,
        "-m",
        "voila",
        str(notebook),
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--strip_sources=True",
        "--show_tracebacks=False",
        "--theme=light",
        "--template=tuning",  # analysis/tuning/page/voila/templates/tuning: the lab template without CDN links
    ]


def run(args: argparse.Namespace) -> int:
    from importlib.resources import files

    from analysis.store.runs import ensure_store

    rules = rules_for(args)
    store = ensure_store(rules, options_for(args))
    apps = Path(str(files("analysis.tuning") / "page"))
    env = os.environ | {
        "JUPYTER_PATH": os.pathsep.join(filter(None, [str(apps), os.environ.get("JUPYTER_PATH")])),
        "CASINO_OMAHA_STORE": str(store.path.parent),
        "CASINO_OMAHA_APP_OUT": str(args.out.resolve()),
        "CASINO_OMAHA_APP_GAME": args.game,
        "CASINO_OMAHA_APP_QUALIFIER": args.qualifier or "own",
        "CASINO_OMAHA_APP_CALL": str(rules.call_multiple),
    }
    notebook = apps / "tuning.ipynb"
    url = f"http://127.0.0.1:{args.port}/"
    if args.format == "json":
        print_json({"url": url, "game": rules.name, "store": str(store.path)})
    else:
        print(f"tuning page for {rules.name}: {url}  (Ctrl-C stops the server)")
    sys.stdout.flush()
    server = subprocess.Popen(voila_command(notebook, args.port), env=env)
    try:
        return server.wait()
    except KeyboardInterrupt:
        server.terminate()
        server.wait(10)
        raise
