"""Where the heavy jobs run: shards on dask.distributed.

A job is a list of independent shards (flop classes of an enumeration, batches of sampled
states). :func:`connect_cluster` gives a cluster: an existing one at ``tcp://HOST:PORT`` or
``tls://HOST:PORT`` (a ``dask scheduler`` with ``dask worker`` processes, also found through
``$DASK_SCHEDULER_ADDRESS``; the address is checked before anything connects, and reaching
it, dask's handshake included, takes at most :data:`CONNECT_TIMEOUT`), or by default a
``LocalCluster`` of one single-threaded worker process per core, listening on 127.0.0.1
only. :func:`run_shards` submits the shards, shows progress, and hands each result to the
caller *in this process* as it arrives, so that the caller writes it (atomically, with its
checksum): a killed run loses only the shards not yet written (an outcome store's writer
holds at most one a thread), and a shard whose worker dies is simply run again by the
scheduler on another worker. Each shard's result depends on the shard alone, so a run's
results are the same for any number of workers and any completion order.

Without a cluster (``cluster=None``) the same shards run one after the other in this
process, each on ``threads`` threads of the compiled kernels. A script that starts a
LocalCluster needs the usual ``if __name__ == "__main__":`` guard (its workers are spawned).
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

from tqdm import tqdm

from analysis.model.errors import AnalysisError, InputError
from analysis.model.numbers import shown
from analysis.parallel.threads import check_threads, default_threads

if TYPE_CHECKING:
    from distributed import Client, LocalCluster

#: A shard's result.
T = TypeVar("T")

#: Environment variable naming a scheduler to use when none is given.
SCHEDULER_ENV = "DASK_SCHEDULER_ADDRESS"
#: Seconds to reach a scheduler, handshake included, before saying it cannot be reached.
CONNECT_TIMEOUT = 20.0
#: The comms a scheduler is reached over (dask's; ``inproc`` reaches only this process).
SCHEMES = ("tcp", "tls")
ADDRESS_FORM = "tcp://HOST:PORT or tls://HOST:PORT, PORT from 1 to 65535"
#: The dask settings a ``tls://`` scheduler needs (the client's key may be in its cert file).
TLS_SETTINGS = ("distributed.comm.tls.ca-file", "distributed.comm.tls.client.cert")


class ClusterError(AnalysisError, ConnectionError):
    """A dask scheduler that cannot be reached or used; the message names its address."""


def check_scheduler(address: str, source: str = "scheduler") -> str:
    """``address`` as ``scheme://host:port`` if it can name a dask scheduler (a bare
    ``HOST:PORT`` is tcp, as dask reads it), else InputError naming ``source`` (where the
    address came from, when the caller does not say it) and the form allowed; a tls address
    also needs its certificates set."""
    given = (f"{source}: " if source else "") + shown(address, 60)

    def bad(why: str) -> InputError:
        return InputError(f"{given} is not a dask scheduler address ({why}); use {ADDRESS_FORM}")

    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme not in SCHEMES:
        raise bad(f"dask is reached over tcp:// or tls://, not {parts.scheme[:10]}://")
    if not parts.hostname:
        raise bad("no host")
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is None or not 1 <= port <= 65535:
        raise bad("the port is missing or not from 1 to 65535")
    if parts.path or parts.query or parts.fragment or parts.username is not None:
        raise bad("nothing but scheme, host and port")
    if parts.scheme == "tls":
        import dask.config

        missing = [key for key in TLS_SETTINGS if not dask.config.get(key, None)]
        if missing:
            env = ", ".join("DASK_" + key.upper().replace(".", "__").replace("-", "_") for key in missing)
            raise InputError(
                f"{given} is a tls:// scheduler, and the client's certificates are not set: set "
                f"{' and '.join(missing)} in the dask configuration (or the environment: {env}; "
                "distributed.comm.tls.client.key too when the key is not in the cert file)"
            )
    return f"{parts.scheme}://{parts.netloc}"


async def _handshake(address: str, connection_args: dict[str, Any], timeout: float) -> None:
    """Connect to ``address`` and exchange dask's handshake, all within ``timeout``."""
    from distributed.comm import connect

    comm = await asyncio.wait_for(connect(address, timeout, **connection_args), timeout)
    await comm.close()


def probe_scheduler(address: str, connection_args: dict[str, Any], timeout: float) -> None:
    """ClusterError unless a dask server answers dask's handshake at ``address`` within
    ``timeout`` seconds: dask's own client waits for the handshake forever, and takes the
    first bytes of a peer that is not dask for the size of a message (exabytes: refused at
    once, or reserved but never filled until the timeout). Runs on its own thread and event
    loop, so that it works from a notebook's running loop too."""
    parts = urlsplit(address)
    try:  # a closed port is refused at once (dask's connect would retry it until the timeout)
        socket.create_connection((parts.hostname, parts.port or 0), timeout=timeout).close()
    except OSError as e:
        raise ClusterError(f"cannot reach the dask scheduler at {address} ({e})") from None
    with ThreadPoolExecutor(1) as pool:
        try:
            pool.submit(asyncio.run, _handshake(address, connection_args, timeout)).result()
        except asyncio.TimeoutError:
            raise ClusterError(
                f"no answer from the dask scheduler at {address} within {timeout:g} s: "
                "is a dask scheduler listening there?"
            ) from None
        except OSError as e:
            raise ClusterError(f"cannot reach the dask scheduler at {address} ({e})") from None
        except Exception:  # struct, msgpack or memory errors: dask reading what a stranger sent
            raise ClusterError(f"{address} answered, but not in dask's protocol: it is not a dask scheduler") from None


class Cluster:
    """A dask cluster, started (or reached) when a job first needs it: a run that finds
    its results already computed starts nothing. ``on_start(cluster)`` is told once."""

    def __init__(
        self,
        scheduler: str | None = None,
        workers: int | None = None,
        on_start: Callable[[Cluster], object] | None = None,
    ) -> None:
        if scheduler is not None:
            self.scheduler: str | None = check_scheduler(scheduler)
        elif os.environ.get(SCHEDULER_ENV):
            self.scheduler = check_scheduler(os.environ[SCHEDULER_ENV], f"${SCHEDULER_ENV}")
        else:
            self.scheduler = None
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
            from distributed.security import Security

            security, start = Security(), time.monotonic()  # the client's TLS settings, from dask's config
            probe_scheduler(self.scheduler, security.get_connection_args("client"), CONNECT_TIMEOUT)
            left = max(1.0, CONNECT_TIMEOUT - (time.monotonic() - start))
            try:
                self._client = client = Client(self.scheduler, timeout=left, security=security)
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
