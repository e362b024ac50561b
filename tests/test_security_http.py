"""Issue 10, ``serve --http`` authenticates: a real server subprocess, hit by a plain HTTP client and by the SDK's
streamable-HTTP client, with and without the bearer token."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import time
from pathlib import Path

import anyio
import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from .mcp_client import SERVER_ARGV, server_env

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    def __init__(self, tc_home: Path, *extra: str, host: str = "127.0.0.1"):
        self.port = free_port()
        self.err = tc_home.parent / f"serve-{self.port}.err"
        with open(self.err, "w") as err:
            self.proc = subprocess.Popen([*SERVER_ARGV, "--http", "--host", host, "--port", str(self.port), *extra],
                                         env=server_env(tc_home), stdout=subprocess.DEVNULL, stderr=err)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    return
                time.sleep(0.2)
        pytest.fail("the HTTP server did not start in 30 s")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def stderr(self) -> str:
        return self.err.read_text()

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def served(tc_home):
    made: list[Served] = []

    def start(*extra: str, host: str = "127.0.0.1") -> Served:
        made.append(Served(tc_home, *extra, host=host))
        return made[-1]

    yield start
    for s in made:
        s.close()


def test_http_needs_the_bearer_token(served, tc_home, tmp_path):
    s = served()
    token_file = tc_home / "http-token"
    token = token_file.read_text().strip()
    assert len(token) >= 40 and stat.S_IMODE(token_file.stat().st_mode) == 0o600
    assert f"bearer token (shown once, saved in {token_file}): {token}" in s.stderr()
    for headers in ({}, {"Authorization": "Bearer wrong-token-0123456789"}, {"Authorization": token}):
        r = httpx2.post(s.url, json=INIT, headers={**HEADERS, **headers}, timeout=10)
        assert r.status_code == 401 and r.headers["www-authenticate"] == 'Bearer realm="training-check"'
        assert r.json()["error"].startswith("unauthorized")
    # a stop_run call without the token reaches nothing
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "stop_run", "arguments": {"run": "/x.log", "reason": "x", "target": "pid:1"}}}
    assert httpx2.post(s.url, json=call, headers=HEADERS, timeout=10).status_code == 401

    async def main():
        client = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
        async with client, streamable_http_client(s.url, http_client=client) as (read, write), \
                ClientSession(read, write) as session:
            init = await session.initialize()
            assert init.server_info.name == "training-check"
            tools = {t.name for t in (await session.list_tools()).tools}
            assert "stop_run" in tools

    anyio.run(main)
    s.close()
    again = served()  # the token is printed once: a restart points at the file
    assert token not in again.stderr()
    assert f"clients must send Authorization: Bearer <the token in {token_file}>" in again.stderr()
    r = httpx2.post(again.url, json=INIT, headers={**HEADERS, "Authorization": f"Bearer {token}"}, timeout=10)
    assert r.status_code == 200


def test_no_auth_is_refused_off_loopback(served, tc_home):
    s = served("--no-auth", host="0.0.0.0")
    assert s.proc.wait(timeout=30) == 64
    assert s.stderr().strip().endswith("training-check: refusing --no-auth on 0.0.0.0: other machines could stop "
                                       "your runs; serve on 127.0.0.1 or keep the bearer token")


def test_a_token_file_others_can_read_is_refused(served, tc_home):
    tc_home.mkdir(parents=True, exist_ok=True)
    f = tc_home / "http-token"
    f.write_text("x" * 43 + "\n")
    os.chmod(f, 0o644)
    s = served()
    assert s.proc.wait(timeout=30) == 64
    assert f"{f} is readable by other users: chmod 600 it" in s.stderr()


def test_the_token_from_the_environment(tc_home):
    port = free_port()
    env = {**server_env(tc_home), "TRAINING_CHECK_HTTP_TOKEN": "env-token-" + "a" * 30}
    proc = subprocess.Popen([*SERVER_ARGV, "--http", "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                r = httpx2.post(f"http://127.0.0.1:{port}/mcp", json=INIT, timeout=5,
                                headers={**HEADERS, "Authorization": "Bearer env-token-" + "a" * 30})
                break
            except httpx2.TransportError:
                time.sleep(0.2)
        assert r.status_code == 200 and "jsonrpc" in r.text
        assert not (tc_home / "http-token").exists()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert json.dumps(proc.stderr.read()).count("env-token-") == 0
