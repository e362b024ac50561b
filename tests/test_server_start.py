"""`training-check serve` (stdio): first answers within 0.3 s, the same answers as the SDK's, clean exit on signals."""

from __future__ import annotations

import json
import signal
import statistics
import subprocess
import time

import pytest
from training_check.server.stdio_front import CACHE_NAME, cache_dirs, fingerprint

from .mcp_client import SERVER_ARGV, server_env

INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
LISTS = ("tools/list", "prompts/list", "resources/list", "resources/templates/list")


class Server:
    def __init__(self, tc_home):
        self.t0 = time.perf_counter()
        self.p = subprocess.Popen(SERVER_ARGV, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  env=server_env(tc_home))

    def send(self, msg: dict) -> None:
        self.p.stdin.write((json.dumps(msg) + "\n").encode())
        self.p.stdin.flush()

    def answer(self, want_id: int) -> dict:
        while True:
            line = self.p.stdout.readline()
            assert line, f"the server exited: {self.p.stderr.read().decode()[-800:]}"
            msg = json.loads(line)
            if msg.get("id") == want_id:
                return msg

    def handshake(self) -> tuple[dict, float]:
        """initialize, then every list; returns the answers and the seconds to the tools/list answer."""
        self.send(INIT)
        got = {"initialize": self.answer(0)["result"]}
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        self.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        got["tools/list"] = self.answer(1)["result"]
        took = time.perf_counter() - self.t0
        for i, method in enumerate(LISTS[1:], start=2):
            self.send({"jsonrpc": "2.0", "id": i, "method": method})
            got[method] = self.answer(i)["result"]
        return got, took

    def close(self) -> tuple[int, str]:
        self.p.stdin.close()
        rc = self.p.wait(10)
        return rc, self.p.stderr.read().decode()


def _clear_cache() -> None:
    for d in cache_dirs():
        (d / CACHE_NAME.format(fingerprint())).unlink(missing_ok=True)


def test_recorded_first_answers_equal_the_sdks_and_come_within_0_3_s(tc_home):
    _clear_cache()
    cold = Server(tc_home)
    sdk_answers, cold_s = cold.handshake()  # nothing recorded: the SDK answered all of it
    assert cold.close()[0] == 0
    assert len(sdk_answers["tools/list"]["tools"]) == 6
    assert all(t.get("outputSchema", {}).get("type") == "object" for t in sdk_answers["tools/list"]["tools"])
    times = []
    for _ in range(3):
        warm = Server(tc_home)
        answers, took = warm.handshake()
        assert warm.close()[0] == 0
        assert answers == sdk_answers  # the front says exactly what the SDK says
        times.append(took)
    assert statistics.median(times) <= 0.3, f"tools/list answered after {times} s (cold start: {cold_s:.2f} s)"


def test_an_unknown_protocol_version_is_left_to_the_sdk(tc_home):
    s = Server(tc_home)
    s.send({**INIT, "params": {**INIT["params"], "protocolVersion": "1999-01-01"}})
    got = s.answer(0)["result"]
    assert got["protocolVersion"] != "1999-01-01" and got["serverInfo"]["name"] == "training-check"
    s.send({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert s.answer(1)["result"] == {}
    assert s.close()[0] == 0


@pytest.mark.parametrize("sig,when,code", [(signal.SIGINT, "serving", 130), (signal.SIGINT, "starting", 130),
                                           (signal.SIGTERM, "serving", 0)])
def test_a_signal_ends_the_server_within_a_second_without_a_traceback(tc_home, sig, when, code):
    s = Server(tc_home)
    if when == "serving":
        s.send(INIT)
        s.answer(0)
        s.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        s.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "reschedule", "arguments": {"run": str(tc_home / "x.log")}}})
        s.answer(1)  # the SDK is up and has answered a tool call
    else:
        s.send(INIT)
        s.answer(0)  # the front answered (recorded by the earlier starts); the SDK is still loading
    t = time.perf_counter()
    s.p.send_signal(sig)
    rc = s.p.wait(5)
    took = time.perf_counter() - t
    err = s.p.stderr.read().decode()
    assert rc == code and took < 1.0, (rc, took, err[-800:])  # 130: the shell's code for "ended by Ctrl-C"
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-800:]
    s.p.stdin.close()
