"""Issue 20, ``serve --http`` and DNS rebinding: a real server process on a loopback address other than 127.0.0.1,
hit with real HTTP requests whose Host / Origin headers are forged, and a loopback check that is not a prefix."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

import httpx2
import pytest

from .mcp_client import SERVER_ARGV, server_env
from .test_security_http import HEADERS, INIT


def _port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


@pytest.fixture
def serve(tc_home: Path):
    procs: list[subprocess.Popen] = []

    def start(host: str, *extra: str) -> tuple[subprocess.Popen, int, Path]:
        port = _port(host if host == "127.0.0.2" else "127.0.0.1")
        err = tc_home.parent / f"serve-{port}.err"
        with open(err, "w") as f:
            p = subprocess.Popen([*SERVER_ARGV, "--http", "--host", host, "--port", str(port), *extra],
                                 env=server_env(tc_home), stdout=subprocess.DEVNULL, stderr=f)
        procs.append(p)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and p.poll() is None:
            try:
                socket.create_connection((host, port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        return p, port, err

    yield start
    for p in procs:
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def _post(host: str, port: int, **headers: str) -> httpx2.Response:
    with httpx2.Client(timeout=10) as c:
        return c.post(f"http://{host}:{port}/mcp", json=INIT, headers={**HEADERS, **headers})


def test_dns_rebinding_is_refused_on_any_loopback_address(serve):
    proc, port, err = serve("127.0.0.2", "--no-auth")
    assert proc.poll() is None, err.read_text()
    forged = [{"Host": "evil.example"}, {"Host": f"evil.example:{port}"},
              {"Host": f"127.0.0.2:{port}", "Origin": "http://evil.example"},
              {"Host": f"127.0.0.2:{port}", "Origin": f"http://evil.example:{port}"},
              {"Host": f"127.0.0.2.evil.example:{port}"}, {"Host": f"127.0.0.2:{port + 1}"}]
    for headers in forged:
        r = _post("127.0.0.2", port, **headers)
        assert r.status_code == 403 and "Host or Origin" in r.text, (headers, r.status_code, r.text[:200])
    with socket.create_connection(("127.0.0.2", port)) as raw:  # two Host headers, the evil one first
        raw.sendall(f"GET /mcp HTTP/1.1\r\nHost: evil.example\r\nHost: 127.0.0.2:{port}\r\n"
                    f"Connection: close\r\n\r\n".encode())
        assert raw.recv(64)[:12] in (b"HTTP/1.1 400", b"HTTP/1.1 403"), "duplicate Host headers"
    ok = _post("127.0.0.2", port)  # the client's own Host header: 127.0.0.2:<port>
    assert ok.status_code == 200, ok.text[:300]
    local = _post("127.0.0.2", port, Host=f"localhost:{port}", Origin="http://localhost:6274")
    assert local.status_code == 200


def test_dns_rebinding_is_refused_with_the_token_too(serve, tc_home):
    proc, port, err = serve("127.0.0.1")
    assert proc.poll() is None, err.read_text()
    token = (tc_home / "http-token").read_text().strip()
    r = _post("127.0.0.1", port, Host="evil.example", Authorization=f"Bearer {token}")
    assert r.status_code == 403
    assert _post("127.0.0.1", port, Authorization=f"Bearer {token}").status_code == 200


@pytest.mark.parametrize("host", ["127.rt-probe.invalid", "127.0.0.1.nip.io", "0.0.0.0"])
def test_no_auth_needs_a_real_loopback_address(serve, host):
    proc, _, err = serve(host, "--no-auth")
    assert proc.wait(timeout=30) != 0
    text = err.read_text().strip()
    assert f"refusing --no-auth on {host}" in text and len(text.splitlines()) == 1, text
