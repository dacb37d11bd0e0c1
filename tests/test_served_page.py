"""The served tuning page against a hostile web (issue 17): ``casino-omaha app`` really
serving Casino Hold'em (the smaller store) on 127.0.0.1, asked over HTTP and websockets as
a DNS-rebinding or cross-site page would ask. Also: a busy port is refused (the server
never moves to another), and a stop signal leaves no server and no kernel.

Every request and wait has a time limit; the servers are stopped by the tests."""

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import uuid

import psutil
import pytest
import websocket

from analysis.tuning.serve import TOKEN_VARIABLE
from served import free_port, start_app, stop_app_process, time_limit

pytestmark = pytest.mark.slow  # each server loads a Casino Hold'em engine in its kernel
FOREIGN = "https://evil.example.com"


def get(port: int, path: str, host: str | None = None, timeout: float = 120) -> http.client.HTTPResponse:
    """GET path from the server with this Host header (default: the address itself)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    conn.request("GET", path, headers={"Host": host or f"127.0.0.1:{port}"})
    response = conn.getresponse()
    response.body = response.read()
    conn.close()
    return response


def open_page(served) -> tuple[str, str]:
    """The page as the user's browser gets it (token, Host localhost): its kernel's id and
    the login cookie the browser keeps."""
    page = get(served.port, f"/?token={served.token}", host=f"localhost:{served.port}", timeout=300)
    assert page.status == 200, page.body[:500]
    assert b"tuning_panel" not in page.body  # sources stripped
    kernel = re.search(rb'"kernelId": "([0-9a-f-]{36})"', page.body)[1].decode()
    (cookie,) = [c.split(";")[0] for c in page.headers.get_all("Set-Cookie") if c.startswith("username-")]
    return kernel, cookie


def kernel_info(served, kernel: str, origin: str, token: bool = True, **options: str) -> str:
    """A kernel_info_request over the kernel's websocket from ``origin`` (the token in the
    URL or not): the kernel's status and implementation as it answers, or ``refused
    <status>`` when the upgrade is refused."""
    query = f"?token={served.token}" if token else ""
    url = f"ws://127.0.0.1:{served.port}/api/kernels/{kernel}/channels{query}"
    try:
        ws = websocket.create_connection(url, origin=origin, timeout=60, **options)
    except websocket.WebSocketBadStatusException as e:
        return f"refused {e.status_code}"
    header = {"msg_id": uuid.uuid4().hex, "msg_type": "kernel_info_request", "session": uuid.uuid4().hex}
    ws.send(json.dumps({"header": header | {"username": "", "version": "5.3", "date": ""}, "parent_header": {},
                        "metadata": {}, "content": {}, "channel": "shell", "buffers": []}))  # fmt: skip
    try:
        for _ in range(200):
            reply = json.loads(ws.recv())
            if reply["msg_type"] == "kernel_info_reply" and reply["parent_header"]["msg_id"] == header["msg_id"]:
                return f"{reply['content']['status']} {reply['content']['implementation']}"
        raise AssertionError("no kernel_info_reply")
    finally:
        ws.close()


@pytest.fixture(scope="module")
def served(holdem, tmp_path_factory):
    s = start_app(tmp_path_factory.mktemp("served"), game="casino-holdem")
    try:
        yield s
    finally:
        stop_app_process(s.process)


@pytest.fixture(scope="module")
def page(served):
    return open_page(served)


def test_the_printed_address_has_a_token(served):
    assert len(served.token) >= 40  # 32 random bytes, url-safe base64
    assert f"tuning page for casino-holdem: {served.url}  (Ctrl-C stops the server)" in served.log.read_text()


@pytest.mark.parametrize(
    "host", ["evil.example.com", "evil.example.com:{port}", "localhost.evil.example.com:{port}", "127.0.0.1.nip.io"]
)
def test_a_foreign_host_is_refused_even_with_the_token(served, host):
    with time_limit(120):
        response = get(served.port, f"/?token={served.token}", host=host.format(port=served.port))
    assert response.status == 403
    assert b"kernelId" not in response.body


@pytest.mark.parametrize("query", ["", "?token=", "?token=0123456789abcdef", "?token={token}x"])
def test_no_page_without_the_token(served, query):
    with time_limit(120):
        response = get(served.port, "/" + query.format(token=served.token))
    assert response.status == 302 and response.getheader("Location").startswith("/login?")
    assert response.body == b""


def test_no_kernel_api_without_the_token(served, page):
    kernel, _ = page
    with time_limit(120):
        assert get(served.port, f"/api/kernels/{kernel}").status == 403
        assert get(served.port, f"/api/kernels/{kernel}?token={served.token}").status == 200
        assert kernel_info(served, kernel, f"http://127.0.0.1:{served.port}", token=False) == "refused 403"
        assert get(served.port, "/voila/files/tuning.ipynb").status == 403  # the untokened file route serves nothing


def test_the_kernel_websocket_refuses_a_foreign_origin(served, page):
    kernel, cookie = page
    with time_limit(240):
        assert kernel_info(served, kernel, FOREIGN) == "refused 403"  # even with the token
        assert kernel_info(served, kernel, "https://example.org") == "refused 403"
        # the browser's own cookie, sent along by a foreign page: refused
        assert kernel_info(served, kernel, FOREIGN, token=False, cookie=cookie) == "refused 403"
        # DNS rebinding: the page's origin is the foreign name, the Host too; refused for the Host
        assert kernel_info(served, kernel, "http://evil.example.com", host="evil.example.com") == "refused 403"
        # the page's own origin, by address or by name, with the token or the cookie, reaches the kernel
        assert kernel_info(served, kernel, f"http://127.0.0.1:{served.port}") == "ok ipython"
        by_name = {"origin": f"http://localhost:{served.port}", "host": f"localhost:{served.port}"}  # a browser's
        assert kernel_info(served, kernel, **by_name, token=False, cookie=cookie) == "ok ipython"


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: s.name)
def test_a_stop_signal_ends_the_server_and_its_kernel(holdem, tmp_path, stop):
    """The page opened (a kernel runs), then the signal to the command: Voilà and the kernel
    are gone (by pid), the port is free, and the origin given with --allow-origin was let in."""
    s = start_app(tmp_path, "--allow-origin", "https://Example.org", game="casino-holdem")
    try:
        with time_limit(600):
            kernel, _ = open_page(s)
            assert kernel_info(s, kernel, "https://example.org") == "ok ipython"
            assert kernel_info(s, kernel, FOREIGN) == "refused 403"
            below = s.below()
            names = [" ".join(p.cmdline()) for p in below]
            assert any("analysis.tuning.serve" in n for n in names) and any("ipykernel_launcher" in n for n in names)
            s.process.send_signal(stop)
            assert s.process.wait(120) == 128 + stop
            gone, alive = psutil.wait_procs(below, timeout=120)
            assert alive == [] and len(gone) == len(below)
            assert f"casino-omaha app: {stop.name}: the server and its kernels are stopped" in s.log.read_text()
            with pytest.raises(ConnectionRefusedError):
                socket.create_connection(("127.0.0.1", s.port), timeout=5)
    finally:
        stop_app_process(s.process)


def test_a_busy_port_is_refused_before_anything_starts(cli):
    with socket.socket() as busy, time_limit(60):
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        run = cli("app", "--game", "casino-holdem", "--port", port)
        assert run.returncode == 2 and run.stdout == ""
        assert run.stderr == (
            f"casino-omaha: error: port {port} on 127.0.0.1 is not free (Address already in use): "
            "choose another --port\n"
        )
        assert [p for p in psutil.Process().children(recursive=True) if str(port) in p.cmdline()] == []  # no server


def test_the_server_does_not_move_to_another_port(tmp_path):
    """Taken between the command's check and the server's start, the port is not traded for
    the next one: the server ends with an error (the command then ends with it)."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", free_port()))
        busy.listen()
        port = busy.getsockname()[1]
        run = subprocess.run(
            [sys.executable, "-m", "analysis.tuning.serve", str(port)],
            env=os.environ | {TOKEN_VARIABLE: "x" * 43},
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert run.returncode == 1
    assert "could not be started because no available port could be found" in run.stderr
    assert set(re.findall(r"[Pp]ort (\d+)", run.stderr)) == {str(port)}  # no other port was tried


@pytest.mark.parametrize(
    "origin", ["*", "evil.example.com", "javascript:alert(1)", "https://a.example/path", "https://" + "a" * 5000]
)
def test_allow_origin_takes_one_web_origin(cli, origin):
    with time_limit(30):
        run = cli("app", "--allow-origin", origin)
    assert run.returncode == 2 and len(run.stderr) < 400
    assert (
        "argument --allow-origin: give one web origin, http(s)://host[:port] such as https://example.org" in run.stderr
    )
