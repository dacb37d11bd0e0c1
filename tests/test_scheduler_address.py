"""A wrong dask scheduler is one clear error, soon: an address dask cannot use is refused
before anything connects, and a peer on 127.0.0.1 that never answers, or answers but not
as dask, fails within the connect timeout (dask itself would wait forever for the first,
and read the second as a message of exabytes)."""

import socket
import struct
import threading
import time
from contextlib import contextmanager

import dask.config
import pytest

from analysis.model.errors import InputError
from analysis.model.numbers import shown
from analysis.parallel import cluster as cluster_module
from analysis.parallel.cluster import Cluster, ClusterError, check_scheduler
from deadline import deadline

FORM = "use tcp://HOST:PORT or tls://HOST:PORT, PORT from 1 to 65535"
NO_TLS = {"distributed.comm.tls.ca-file": None, "distributed.comm.tls.client.cert": None}
PROTECT = ["protect", "--turn", "--game", "casino-holdem", "--samples", "10", "--no-progress"]


@contextmanager
def peer(answer: bytes | None):
    """A server on 127.0.0.1 that accepts and sends ``answer`` (None: nothing), then holds
    the connection open until the test ends. Yields its tcp:// address."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.05)  # to see the end of the test between connections
    done, held = threading.Event(), []

    def serve():
        while not done.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            held.append(conn)
            if answer is not None:
                conn.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        done.set()
        thread.join(5)
        listener.close()
        for conn in held:
            conn.close()


@pytest.mark.parametrize(
    "address, why",
    [
        ("tcp://127.0.0.1:99999", "the port is missing or not from 1 to 65535"),
        ("tcp://127.0.0.1", "the port is missing or not from 1 to 65535"),
        ("tcp://127.0.0.1:0", "the port is missing or not from 1 to 65535"),
        ("tcp://h:8786x", "the port is missing or not from 1 to 65535"),
        ("inproc://x", "dask is reached over tcp:// or tls://, not inproc://"),
        ("http://x", "dask is reached over tcp:// or tls://, not http://"),
        ("tcp://:8786", "no host"),
        ("tcp://h:8786/path", "nothing but scheme, host and port"),
        ("tcp://user@h:8786", "nothing but scheme, host and port"),
    ],
)
def test_an_address_dask_cannot_use_is_refused_before_connecting(address, why):
    with deadline(5), pytest.raises(InputError) as e:
        Cluster(address)
    assert str(e.value) == f"scheduler: {address!r} is not a dask scheduler address ({why}); {FORM}"


def test_a_long_address_is_not_echoed_whole():
    with deadline(5), pytest.raises(InputError) as e:
        Cluster("tcp://" + "h" * 5000)
    why = "the port is missing or not from 1 to 65535"
    cut = shown("tcp://" + "h" * 5000, 60)
    assert str(e.value) == f"scheduler: {cut} is not a dask scheduler address ({why}); {FORM}"
    assert cut.endswith("...' (5,006 characters)") and len(str(e.value)) < 250


def test_usable_addresses_are_kept_in_dask_form():
    with dask.config.set({"distributed.comm.tls.ca-file": "ca.pem", "distributed.comm.tls.client.cert": "c.pem"}):
        assert check_scheduler("tls://10.0.0.5:8786") == "tls://10.0.0.5:8786"
    assert check_scheduler("10.0.0.5:8786") == "tcp://10.0.0.5:8786"  # dask's default comm
    assert check_scheduler("TCP://[::1]:8786") == "tcp://[::1]:8786"


def test_tls_without_certificates_says_what_to_set():
    with deadline(5), dask.config.set(NO_TLS), pytest.raises(InputError) as e:
        Cluster("tls://host:1")
    assert str(e.value) == (
        "scheduler: 'tls://host:1' is a tls:// scheduler, and the client's certificates are not set: set "
        "distributed.comm.tls.ca-file and distributed.comm.tls.client.cert in the dask configuration (or the "
        "environment: DASK_DISTRIBUTED__COMM__TLS__CA_FILE, DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT; "
        "distributed.comm.tls.client.key too when the key is not in the cert file)"
    )


def test_the_command_line_and_the_environment_name_where_the_address_came_from(cli, monkeypatch):
    with deadline(10):
        out = cli(*PROTECT, "--scheduler", "inproc://x")
        assert out.returncode == 2
        assert out.stderr == (
            "casino-omaha protect: error: argument --scheduler: 'inproc://x' is not a dask scheduler address "
            f"(dask is reached over tcp:// or tls://, not inproc://); {FORM} (see casino-omaha protect --help)\n"
        )
        monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "http://x")
        out = cli(*PROTECT)
        assert out.returncode == 2
        assert out.stderr == (
            "casino-omaha: error: $DASK_SCHEDULER_ADDRESS: 'http://x' is not a dask scheduler address "
            f"(dask is reached over tcp:// or tls://, not http://); {FORM}\n"
        )


def test_a_silent_peer_fails_within_the_timeout(cli, monkeypatch):
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", 2.0)
    with peer(None) as address, deadline(15):
        start = time.monotonic()
        out = cli(*PROTECT, "--scheduler", address)
        took = time.monotonic() - start
    assert out.returncode == 2 and 2 <= took < 8
    assert out.stderr == (
        f"casino-omaha: error: no answer from the dask scheduler at {address} within 2 s: "
        "is a dask scheduler listening there?\n"
    )


@pytest.mark.parametrize(
    "answer",
    [
        b"HTTP/1.1 400 Bad Request\r\n\r\n",  # read by dask as a message of 3.5 EiB
        struct.pack("<Q", 16) + b"\xff" * 16,  # a message of 2**64 - 1 frames
        struct.pack("<Q", 5) + b"hello",  # a frame count without its frames
    ],
)
def test_a_peer_that_is_not_dask_is_one_clear_error(cli, monkeypatch, answer):
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", 5.0)
    with peer(answer) as address, deadline(15):
        out = cli(*PROTECT, "--scheduler", address)
    assert out.returncode == 2
    assert (
        out.stderr
        == f"casino-omaha: error: {address} answered, but not in dask's protocol: it is not a dask scheduler\n"
    )


def test_the_probe_raises_cluster_error_for_the_api(monkeypatch):
    with peer(b"HTTP/1.1 400 Bad Request\r\n\r\n") as address, deadline(15):
        with pytest.raises(ClusterError, match="answered, but not in dask's protocol"):
            with cluster_module.connect_cluster(address) as cluster:
                cluster.workers  # noqa: B018 (the cluster is reached on first use)
