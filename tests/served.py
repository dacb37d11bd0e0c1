"""``casino-omaha app`` started and stopped for the tests: a free port on 127.0.0.1, the log
in a file (a pipe nobody reads would stop the server when full), the printed address and
its token, and the processes under it (Voilà, its kernels); and a time limit for the tests
that feed hostile input."""

import re
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psutil


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Served:
    process: subprocess.Popen
    port: int
    url: str  # as printed, with the token
    token: str
    log: Path
    began: float  # time.perf_counter() when the command started

    def below(self) -> list[psutil.Process]:
        """Every process the command started (Voilà, the kernels), alive now."""
        return psutil.Process(self.process.pid).children(recursive=True)


def start_app(folder: Path, *options: str, game: str = "casino-omaha", limit: float = 600) -> Served:
    """The command serving ``game`` from ``folder``, once it has printed its address (which
    it does when the server listens)."""
    port, log = free_port(), folder / "app.log"
    began = time.perf_counter()
    with open(log, "w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "analysis.cli", "app", "--game", game, "--port", str(port), "--no-progress"]
            + ["--out", str(folder), *options],
            cwd=folder,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    printed = re.compile(rf"tuning page for \S+: (http://127\.0\.0\.1:{port}/\?token=([A-Za-z0-9_-]+)) ")
    deadline = time.monotonic() + limit
    while not (found := printed.search(log.read_text())):
        if process.poll() is not None or time.monotonic() > deadline:
            stop_app_process(process)
            raise AssertionError(f"the app printed no address:\n{log.read_text()}")
        time.sleep(0.1)
    return Served(process, port, found[1], found[2], log, began)


def stop_app_process(process: subprocess.Popen) -> None:
    """SIGTERM to the command (what it is built to handle); should it not end, it and every
    process under it are killed, so no test leaves a server behind (tests/test_served_page.py
    checks that SIGTERM alone is enough)."""
    try:
        below = psutil.Process(process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        below = []
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        process.wait(60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)
    for p in psutil.wait_procs(below, timeout=30)[1]:
        p.kill()


@contextmanager
def time_limit(seconds: int):
    """Fail (rather than hang) when the block takes longer than ``seconds``."""

    def expired(signum, frame):
        raise TimeoutError(f"more than {seconds} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
