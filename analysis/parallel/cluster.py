"""Where the heavy jobs run: shards on dask.distributed.

A job is a list of independent shards (flop classes of an enumeration, batches of sampled
states). :func:`connect_cluster` gives a cluster: an existing one at ``tcp://HOST:PORT`` (a
``dask scheduler`` with ``dask worker`` processes, also found through
``$DASK_SCHEDULER_ADDRESS``), or by default a ``LocalCluster`` of one single-threaded
worker process per core, listening on 127.0.0.1 only. :func:`run_shards` submits the
shards, shows progress, and hands each result to the caller *in this process* as it
arrives, so that the caller writes it (atomically, with its checksum) before the next one:
a killed run loses no finished shard, and a shard whose worker dies is simply run again
by the scheduler on another worker. Each shard's result depends on the shard alone, so a
run's results are the same for any number of workers and any completion order.

Without a cluster (``cluster=None``) the same shards run one after the other in this
process, each on ``threads`` threads of the compiled kernels. A script that starts a
LocalCluster needs the usual ``if __name__ == "__main__":`` guard (its workers are spawned).
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from tqdm import tqdm

from analysis.model.errors import AnalysisError
from analysis.parallel.threads import check_threads, default_threads

if TYPE_CHECKING:
    from distributed import Client, LocalCluster

#: A shard's result.
T = TypeVar("T")

#: Environment variable naming a scheduler to use when none is given.
SCHEDULER_ENV = "DASK_SCHEDULER_ADDRESS"
#: How long to try to reach a scheduler before saying it cannot be reached.
CONNECT_TIMEOUT = "20s"


class ClusterError(AnalysisError, ConnectionError):
    """A dask scheduler that cannot be reached or used; the message names its address."""


class Cluster:
    """A dask cluster, started (or reached) when a job first needs it: a run that finds
    its results already computed starts nothing. ``on_start(cluster)`` is told once."""

    def __init__(
        self,
        scheduler: str | None = None,
        workers: int | None = None,
        on_start: Callable[[Cluster], object] | None = None,
    ) -> None:
        self.scheduler = scheduler or os.environ.get(SCHEDULER_ENV)
        self.n_workers = check_threads(workers) if workers is not None else default_threads()
        self.on_start = on_start
        self._client: Client | None = None
        self._local: LocalCluster | None = None

    @property
    def local(self) -> bool:
        """Whether this is a LocalCluster started here (no scheduler was given)."""
        return not self.scheduler

    @property
    def client(self) -> Client:
        """The distributed.Client (the cluster is started or reached on first use)."""
        return self._client if self._client is not None else self._start()

    def _start(self) -> Client:
        from distributed import Client, LocalCluster

        if self.scheduler:
            try:
                self._client = client = Client(self.scheduler, timeout=CONNECT_TIMEOUT)
            except OSError as e:
                raise ClusterError(f"cannot reach the dask scheduler at {self.scheduler} ({e})") from None
        else:
            self._local = LocalCluster(
                n_workers=self.n_workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address="127.0.0.1:0",
                silence_logs=logging.ERROR,
            )
            self._client = client = Client(self._local)
        if self.on_start is not None:
            self.on_start(self)
        return client

    @property
    def address(self) -> str:
        scheduler = self.client.scheduler
        address = None if scheduler is None else scheduler.address
        if address is None:  # a client knows its scheduler's address until it is closed
            raise ClusterError("the dask client is closed")
        return str(address)

    @property
    def dashboard(self) -> str | None:
        """The dashboard's address, when the scheduler has one."""
        try:
            return self.client.dashboard_link
        except (KeyError, AttributeError):
            return None

    @property
    def workers(self) -> int:
        return len(self.client.scheduler_info().get("workers", {}))

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
        if self._local is not None:
            self._local.close()
        self._client = self._local = None


@contextmanager
def connect_cluster(
    scheduler: str | None = None, workers: int | None = None, on_start: Callable[[Cluster], object] | None = None
) -> Iterator[Cluster]:
    """A cluster for the duration of the block: ``scheduler`` (or ``$DASK_SCHEDULER_ADDRESS``)
    when given, else a LocalCluster of ``workers`` single-threaded processes (default: one
    per core) on 127.0.0.1; started on first use, shut down (or left) at the end."""
    cluster = Cluster(scheduler, workers, on_start)
    try:
        yield cluster
    finally:
        cluster.close()


def _on_worker(fn: Callable[..., T], *args: Any) -> T:
    """Run one shard on a dask worker: one kernel thread per task (a worker with n
    threads runs n tasks at a time)."""
    return fn(*args, threads=1)


def run_shards(
    cluster: Cluster | None,
    fn: Callable[..., T],
    shards: dict[int, tuple[Any, ...]],
    done: Callable[[int, T], None],
    desc: str,
    progress: bool | None = None,
    total: int | None = None,
    threads: int | None = None,
) -> None:
    """Compute ``fn(*shards[i], threads=...)`` for every shard i and call ``done(i, result)``
    in this process as each result arrives (in completion order)."""
    show = sys.stderr.isatty() if progress is None else progress
    total = len(shards) if total is None else total
    if not shards:  # all kept from an earlier run: no cluster to start
        return
    with tqdm(total=total, initial=total - len(shards), unit="shard", desc=desc, disable=not show) as bar:
        if cluster is None:
            threads = check_threads(threads)
            for i, args in shards.items():
                done(i, fn(*args, threads=threads))
                bar.update()
            return
        from distributed import as_completed

        futures = {cluster.client.submit(_on_worker, fn, *args, pure=False): i for i, args in shards.items()}
        try:
            for future in as_completed(list(futures)):
                done(futures.pop(future), future.result())
                future.release()  # the cluster may forget the result once it is written
                bar.update()
        finally:
            cluster.client.cancel(list(futures))
