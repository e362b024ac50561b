"""W&B API connectivity faults through assess_run: the real ``wandb.Api`` against a 127.0.0.1 server that fails
every request (5xx, 429 + Retry-After, 401, too slow, connection reset). Bounded retries, then the fallback log,
else an UNREACHABLE verdict: never a training verdict from a connectivity failure, never the key in a message."""

from __future__ import annotations

import re
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from training_check.tools.assess import assess_run
from training_check.tools.sources.wandb_api import AUTH_MESSAGE

from tests.helpers import use_wandb_api

KEY = "tcfault" + "9876543210" * 3 + "wxyz"  # 40 characters like a real key
TRAINING_VERDICTS = {"CONTINUE", "STOP", "WAIT", "ESCALATE"}


class FailingApi:
    """Answers every request with ``status`` (after ``delay_s``); ``reset`` drops connections instead."""

    def __init__(self, status: int = 500, headers: dict | None = None, delay_s: float = 0.0, reset: bool = False):
        self.requests = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _any(self):
                outer.requests += 1
                n = int(self.headers.get("Content-Length") or 0)
                if n:
                    self.rfile.read(n)
                if reset:
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                               b"\x01\x00\x00\x00\x00\x00\x00\x00")
                    self.close_connection = True
                    return
                time.sleep(delay_s)
                body = b'{"errors":[{"message":"scripted failure"}]}'
                try:
                    self.send_response(status)
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass

            do_POST = do_GET = _any

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


FAULTS = {
    "http_500": dict(status=500),
    "http_502": dict(status=502),
    "http_429_retry_after": dict(status=429, headers={"Retry-After": "1"}),
    "auth_401": dict(status=401),
    "timeout": dict(status=200, delay_s=6.0),
    "connection_reset": dict(reset=True),
}
# Each slow fault spends the whole retry budget (~6 s) per call: check the fallback on half of them, the
# UNREACHABLE verdict on the other half (auth is fast: both).
WITH_FALLBACK = {"http_502": True, "timeout": True, "http_500": False, "http_429_retry_after": False,
                 "connection_reset": False}

# The whole one-line reason each fault gives (the summary is "UNREACHABLE: <reason>"); tries and seconds vary.
# wandb-core itself retries 5xx, 429 and resets until its own timeout, so these end as "did not answer in time".
_GAVE_UP = r" \(gave up after [12] tries in \d+\.\d s\)"
_SLOW = r"W&B did not answer in time while connecting to W&B" + _GAVE_UP
REASONS = {
    "http_500": _SLOW,
    "http_502": _SLOW,
    "http_429_retry_after": _SLOW,
    "auth_401": re.escape(AUTH_MESSAGE),
    "timeout": _SLOW,
    "connection_reset": _SLOW,
}


@pytest.fixture
def wandb_env(tmp_path, monkeypatch, tc_home):
    use_wandb_api(monkeypatch, tmp_path, KEY)
    return monkeypatch


@pytest.mark.parametrize("fault", list(FAULTS))
def test_fault_wandb_api(fault, wandb_env, tmp_path, store, config):
    api = FailingApi(**FAULTS[fault])
    wandb_env.setenv("WANDB_BASE_URL", api.url)
    log = tmp_path / "train.log"
    # a healthy run (loss still falling): judged from it, the verdict is CONTINUE, never a STOP or a question
    log.write_text("".join(f"step={s} loss={4.0 / (s + 1) ** 0.5 + 0.2:.5f}\n" for s in range(0, 2000, 5)))
    try:
        if WITH_FALLBACK.get(fault) is True:
            b = assess_run("ent/proj/runfault1", store=store, config=config, fallback_log=str(log))
            assert (b.verdict, b.source["kind"]) == ("CONTINUE", "log"), b.summary  # the fallback log is healthy
            assert re.fullmatch(REASONS[fault], b.fallback_reason or ""), b.fallback_reason
            assert 1 <= api.requests <= 30
            return
        t0 = time.monotonic()
        a = assess_run("ent/proj/runfault1", store=store, config=config)
        took = time.monotonic() - t0
        assert a.verdict == "UNREACHABLE" and a.verdict not in TRAINING_VERDICTS
        assert re.fullmatch(f"UNREACHABLE: {REASONS[fault]}", a.summary), a.summary
        assert took < 25, f"retries not bounded: {took:.1f}s"
        assert 1 <= api.requests <= 30
        stored = store.get_assessment(a.assessment_id)
        assert stored["verdict"] == "UNREACHABLE" and KEY not in repr(stored)
        if WITH_FALLBACK.get(fault) is False:
            return
        # with a fallback log the run is judged from the log, and the reason for the fallback is kept
        b = assess_run("ent/proj/runfault1", store=store, config=config, fallback_log=str(log))
        assert b.verdict == "CONTINUE", b.summary  # judged from the healthy fallback log
        assert re.fullmatch(REASONS[fault], b.fallback_reason or ""), b.fallback_reason
        assert b.source["kind"] == "log"
    finally:
        api.close()
