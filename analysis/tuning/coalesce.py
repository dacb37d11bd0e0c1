"""One background worker whose requests coalesce: while a job runs, newer requests replace
the waiting one (the last wins), so a slider dragged across twenty values costs two or
three computations, not twenty, and the screen always ends on the last value.

>>> import threading
>>> seen, gate = [], threading.Event()
>>> w = LatestWorker("doc")
>>> w.submit(gate.wait)  # busy until the gate opens
>>> for v in range(5):
...     w.submit(lambda v=v: seen.append(v))
>>> gate.set(); w.wait(5)
True
>>> seen  # 0..3 were replaced while the first job ran
[4]
>>> w.close()
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class LatestWorker:
    """Runs jobs one at a time on a daemon thread. :meth:`submit` keeps only the newest
    waiting request (a recomputation); :meth:`queue` keeps every action, in order (a button
    press). Errors are passed to ``on_error`` and the worker goes on."""

    def __init__(self, name: str, on_error: Callable[[BaseException], None] | None = None) -> None:
        self._cond = threading.Condition()
        self._latest: Callable[[], object] | None = None
        self._actions: list[Callable[[], object]] = []
        self._busy = self._closed = False
        self.on_error = on_error
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def submit(self, job: Callable[[], object]) -> None:
        """Run ``job`` soon, replacing a request that has not started yet."""
        with self._cond:
            self._latest = job
            self._cond.notify_all()

    def queue(self, job: Callable[[], object]) -> None:
        """Run ``job`` after the jobs already waiting (nothing replaces it)."""
        with self._cond:
            self._actions.append(job)
            self._cond.notify_all()

    def superseded(self) -> bool:
        """Whether a newer request waits: a long job (a sweep) may stop early and let it run."""
        with self._cond:
            return self._latest is not None

    def idle(self) -> bool:
        with self._cond:
            return not (self._busy or self._latest or self._actions)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until every waiting job has run; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not (self._busy or self._latest or self._actions), timeout)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def _loop(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._closed or self._latest or self._actions)
                if self._closed:
                    return
                latest = self._latest
                if self._actions:
                    job = self._actions.pop(0)
                elif latest is not None:
                    job, self._latest = latest, None
                else:  # not reached: the wait ends on a job or on close
                    continue
                self._busy = True
            try:
                job()
            except BaseException as e:  # noqa: BLE001 - reported, the worker lives on
                if self.on_error is not None:
                    self.on_error(e)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()
