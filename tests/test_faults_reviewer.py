"""Reviewer faults end to end: a real log assessed by assess_run, then escalate_to_reviewer through the real openai
client against tests/fake_openai_server.py (or a socket that resets). Every fault is one clear line, no decision is
made up or stored, reviews stored before the fault remain, and the next call after recovery works."""

from __future__ import annotations

import re
import socket
import sqlite3
import threading
import time

import pytest
from training_check.tools.assess import assess_run
from training_check.tools.errors import ReviewerError
from training_check.tools.reviewer import escalate_to_reviewer

from .fake_openai_server import FakeOpenAI, Reply

API_KEY = "sk-fault-test-7f3a9c1e5b-NEVER-PRINT"
REVIEWER_ENV = ("REVIEWER_BACKEND", "REVIEWER_MODEL", "REVIEWER_API", "REVIEWER_TIMEOUT_S", "REVIEWER_MAX_RETRIES",
                "REVIEWER_CODEX_COMMAND", "OPENAI_API_KEY", "OPENAI_BASE_URL")


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def env(tc_home, monkeypatch, fake):
    for var in REVIEWER_ENV:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
    monkeypatch.setenv("REVIEWER_MAX_RETRIES", "1")
    monkeypatch.setenv("REVIEWER_TIMEOUT_S", "5")
    return monkeypatch


@pytest.fixture
def assessed(tmp_path, store, config):
    log = tmp_path / "train.log"
    log.write_text("".join(f"step={s} loss={3.0 / (s + 1) ** 0.3 + 0.5:.5f} val_loss={3.1 / (s + 1) ** 0.3 + 0.6:.5f}\n"
                           for s in range(0, 3000, 10)))
    a = assess_run(str(log), store=store, config=config)
    return a


def reviews_table(store) -> list[tuple]:
    with sqlite3.connect(store.path) as c:
        return c.execute("SELECT id, decision, reason FROM reviews ORDER BY id").fetchall()


FAULTS = {
    "timeout": [Reply.decision("STOP", delay_s=4), Reply.decision("STOP", delay_s=4)],
    "429_retry_after_twice": [Reply(status=429, headers={"Retry-After": "1"}),
                              Reply(status=429, headers={"Retry-After": "1"})],
    "500_twice": [Reply(status=500), Reply(status=500)],
    "502_twice": [Reply(status=502), Reply(status=502)],
    "malformed_twice": [Reply(text="I think you should STOP this run."),
                        Reply(text='{"decision": "HALT", "reason": "x"}')],
    "empty_twice": [Reply(text=""), Reply(text="   ")],
    "two_objects": [Reply(text='{"decision":"STOP","reason":"a"} {"decision":"CONTINUE","reason":"b"}'),
                    Reply(text='{"decision":"STOP"}')],
    "auth_refused": [Reply(status=401, error_message=f"Incorrect API key provided: {API_KEY}")],
}
AT = "at {url} (responses API, model gpt-5.4)"
NO_DECISION = ("the reviewer gave no valid decision in 2 attempts (last: {last}); no decision was recorded: try "
               "again, or decide from the assessment's findings")
LINES = {  # the one line each fault gives (the key blanked)
    "timeout": f"the reviewer did not answer within 1s {AT}: try again later or raise REVIEWER_TIMEOUT_S",
    "429_retry_after_twice": "the reviewer is rate-limited (HTTP 429, server asks to retry after 1s) at {url} "
                             "(responses API, model gpt-5.4), after 1 retries: try again later",
    "500_twice": f"reviewer server error HTTP 500 {AT}: scripted error; try again later",
    "502_twice": f"reviewer server error HTTP 502 {AT}: scripted error; try again later",
    "malformed_twice": NO_DECISION.format(last="the reviewer decision 'HALT' is not one of STOP, CONTINUE, WAIT"),
    "empty_twice": NO_DECISION.format(last="the reviewer returned an empty reply"),
    "two_objects": NO_DECISION.format(last="the reviewer reply must hold exactly the keys decision and reason "
                                           "(missing ['reason'])"),
    "auth_refused": f"the reviewer refused the API key (HTTP 401) {AT}: check OPENAI_API_KEY",
}


@pytest.mark.parametrize("fault", list(FAULTS))
def test_fault_reviewer(fault, env, fake, store, config, assessed):
    fake.script(Reply.decision("CONTINUE", "loss falling"))
    first = escalate_to_reviewer(store=store, config=config, concern="check", assessment_id=assessed.assessment_id)
    before = reviews_table(store)
    fake.script(*FAULTS[fault])
    t0 = time.monotonic()
    with pytest.raises(ReviewerError) as err:
        escalate_to_reviewer(store=store, config=config, concern="plateau?", assessment_id=assessed.assessment_id,
                             timeout_s=1.0 if fault == "timeout" else None)
    assert str(err.value) == LINES[fault].format(url=fake.base_url)
    assert time.monotonic() - t0 < 15  # bounded retries
    assert reviews_table(store) == before  # no made-up decision stored; the earlier review intact
    assert store.get_review(first.review_id)["decision"] == "CONTINUE"
    # recovery: the next call gets a real decision
    fake.replies.clear()
    fake.script(Reply.decision("WAIT", "one more eval"))
    again = escalate_to_reviewer(store=store, config=config, concern="plateau?", assessment_id=assessed.assessment_id)
    assert again.decision == "WAIT" and len(reviews_table(store)) == len(before) + 1


def test_fault_reviewer_connection_reset(env, store, config, assessed):
    """A server that accepts and resets every connection: a clear 'cannot reach' error, nothing stored."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    stop = threading.Event()

    def serve():
        srv.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = srv.accept()
            except OSError:
                continue
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            conn.recv(1024)
            conn.close()  # RST

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    try:
        env.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{srv.getsockname()[1]}/v1")
        with pytest.raises(ReviewerError) as err:
            escalate_to_reviewer(store=store, config=config, concern="x", assessment_id=assessed.assessment_id)
        url = f"http://127.0.0.1:{srv.getsockname()[1]}/v1"
        assert re.fullmatch(rf"cannot reach the reviewer at {re.escape(url)} \(responses API, model gpt-5\.4\): "
                            rf"[^\n]+; check OPENAI_BASE_URL", str(err.value)), str(err.value)  # the cause varies
        assert reviews_table(store) == []
    finally:
        stop.set()
        t.join(2)
        srv.close()
