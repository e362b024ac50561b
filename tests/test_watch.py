"""The agent-less watcher: real logs, a real webhook receiver on 127.0.0.1, real processes and signals."""

from __future__ import annotations

import json
import math
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from training_check.tools.watch import STATE_PREFIX, Watcher, next_due

from .cli_runner import TC, tc, trainer_starter
from .fake_openai_server import FakeOpenAI, Reply
from .mcp_client import server_env
from .test_server import write_llmc_log

CLI = [sys.executable, "-m", "training_check.server.cli"]


def write_plateau_log(path: Path, steps: int = 600) -> Path:
    """A loss that falls, then sits flat while eval creeps up: an ambiguous run (ESCALATE)."""
    lines = []
    for s in range(steps):
        loss = 10 * math.exp(-s / 40) + 3.0 if s < 200 else 3.0 + 0.05 * math.sin(s)
        lines.append(f"s:{s} trl:{loss:.5f}")
        if s % 50 == 0 and s:
            lines.append(f"s:{s} tel:{3.2 + (0.002 * (s - 200) if s > 200 else 0):.4f}")
    path.write_text("\n".join(lines) + "\n")
    return path


class WebhookReceiver:
    """A Slack-incoming-webhook stand-in: records every JSON POST."""

    def __init__(self):
        self.posts: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                outer.posts.append(json.loads(body))
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/hooks/T000/B000/XXX"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def cli(tc_home: Path, *args: str, timeout: float = 120, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout,
                          env=server_env(tc_home, **env), cwd=tc_home.parent)


def test_watch_once_notifies_anomalies_and_resumes_from_the_store(tc_home, tmp_path):
    ok = write_llmc_log(tmp_path / "ok.log", 400)
    bad = write_llmc_log(tmp_path / "bad.log", 400, diverge_at=200)
    with WebhookReceiver() as hook:
        p = cli(tc_home, "watch", "--once", "--webhook", hook.url, str(ok), str(bad))
        assert p.returncode == 2, p.stderr  # the worst verdict: STOP
        lines = p.stdout.splitlines()
        assert any("CONTINUE" in ln and "ok.log" in ln and "[alert]" not in ln for ln in lines), p.stdout
        assert any("[alert] STOP" in ln and "bad.log" in ln for ln in lines), p.stdout
        assert "--allow-stop" in p.stdout  # it would stop, but was not allowed to
        assert len(hook.posts) == 1 and "bad.log" in hook.posts[0]["text"] and "STOP" in hook.posts[0]["text"]
        assert hook.posts[0]["event"]["verdict"] == "STOP"
        stop_line = next(ln for ln in lines if "[alert] STOP" in ln)
        assert "(next check" not in stop_line  # a STOP ends the checks of that run
        # A restarted watcher resumes: nothing is due for 10 minutes, and it says so; the STOP run stays unchecked
        again = cli(tc_home, "watch", "--once", "--json", str(ok), str(bad))
        assert again.returncode == 2, again.stdout  # the worst latest verdict is still that STOP
        said = [json.loads(ln) for ln in again.stdout.splitlines()]
        assert any("not checking" in d.get("info", "") and d.get("halted") == str(bad) for d in said), said
        (due,) = [d for d in said if "waiting" in d]
        assert due["info"].startswith(f"nothing due: next check of {ok} at ") and list(due["waiting"]) == [str(ok)]
        assert len(hook.posts) == 1


def test_vanished_run_is_reported_and_the_rest_watched(store, config, tmp_path):
    ok = write_llmc_log(tmp_path / "ok.log", 300)
    gone = write_llmc_log(tmp_path / "gone.log", 300)
    events = []
    w = Watcher([str(ok), str(gone)], store=store, config=config, notify=events.append, use_reviewer=False)
    assert [e.verdict for e in w.check_due()] == ["CONTINUE", "CONTINUE"]
    gone.unlink()
    later = Watcher([str(ok), str(gone)], store=store, config=config, notify=events.append, use_reviewer=False,
                    clock=lambda: time.time() + 3 * 3600)
    got = {e.run: e for e in later.check_due()}
    assert got[str(gone)].verdict == "VANISHED" and "still watching 1 other run" in got[str(gone)].line
    assert got[str(ok)].verdict == "CONTINUE"
    assert later.active == [str(ok)] and later.vanished == [str(gone)]
    # a restart remembers what vanished
    again = Watcher([str(ok), str(gone)], store=store, config=config, use_reviewer=False)
    assert again.vanished == [str(gone)]
    key = "file:" + str(ok)
    assert store.get_schedule(STATE_PREFIX + key)["last_verdict"] == "CONTINUE"


def test_allow_stop_stops_a_real_process(store, config, tmp_path):
    bad = write_llmc_log(tmp_path / "bad.log", 300, diverge_at=100)
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        w = Watcher([str(bad)], store=store, config=config, allow_stop=True, stop_target=f"pid:{proc.pid}",
                    use_reviewer=False)
        (named,) = w.prepare_stop()  # one run: the person-named --stop-target is named for it
        assert f"pid {proc.pid} " in named and f"is the target of run file:{bad}" in named
        (event,) = w.check_due()
        assert event.verdict == "STOP" and event.stop, event
        assert proc.wait(timeout=40) is not None
        assert w.active == []  # a stopped run is no longer watched
        assert store.evidence_for("file:" + str(bad))
    finally:
        if proc.poll() is None:
            proc.kill()


def test_escalate_goes_to_the_configured_reviewer(store, config, tmp_path, monkeypatch):
    log = write_plateau_log(tmp_path / "plateau.log")
    with FakeOpenAI().script(Reply.decision("CONTINUE", "plateau after warm-up is expected")) as fake:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-watch")
        monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
        monkeypatch.setenv("REVIEWER_API", "chat")
        w = Watcher([str(log)], store=store, config=config)
        assert w.use_reviewer
        (event,) = w.check_due()
    assert event.verdict == "ESCALATE" and event.anomaly
    assert event.review and event.review["decision"] == "CONTINUE", event
    assert "reviewer: CONTINUE" in event.line
    assert store.recent_reviews("file:" + str(log))


def test_watch_loop_exits_cleanly_on_sigterm_and_sigint(tc_home, tmp_path):
    log = write_llmc_log(tmp_path / "ok.log", 100)
    for sig in (signal.SIGTERM, signal.SIGINT):
        proc = subprocess.Popen([*CLI, "watch", str(log), "--max-sleep", "1"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=server_env(tc_home), cwd=tmp_path)
        try:
            first = proc.stdout.readline()
            assert first.startswith("watching 1 run"), first + proc.stderr.read()
            time.sleep(0.5)
            proc.send_signal(sig)
            out, err = proc.communicate(timeout=30)
            assert proc.returncode == 0, err
            assert signal.Signals(sig).name in err and "Traceback" not in err
        finally:
            if proc.poll() is None:
                proc.kill()


def test_next_due_reads_time_or_interval():
    now = 1_000_000.0
    assert next_due({"next_check_at": "1970-01-12T13:46:40Z"}, now) == 1_000_000.0
    assert next_due({"interval_minutes": 20}, now) == now + 1200
    assert next_due({}, now) == now + 600


def test_watch_rejects_a_bad_webhook(tc_home, tmp_path):
    log = write_llmc_log(tmp_path / "ok.log", 50)
    p = cli(tc_home, "watch", "--once", "--webhook", "file:///etc/passwd", str(log))
    assert p.returncode == 64 and "webhook" in p.stderr and "Traceback" not in p.stderr


# -- stopping through stop_run's guard, per run; pacing a person can see ----------------------------------------
@pytest.fixture
def trainers(tmp_path):
    yield from trainer_starter(tmp_path)


def test_one_runs_stop_target_is_never_stopped_for_another_run(tc_home, tmp_path, trainers):
    """watch A B --allow-stop --stop-target pid:<A's trainer>: B's STOP must not stop A's trainer."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    log_a = write_llmc_log(tmp_path / "a" / "train.log", 300)
    log_b = write_llmc_log(tmp_path / "b" / "train.log", 300, diverge_at=100)
    trainer_a = trainers("--log", str(log_a))
    p = tc(tc_home, "watch", "--once", "--allow-stop", "--stop-target", f"pid:{trainer_a.pid}", str(log_a),
           str(log_b))
    assert p.returncode == 2, p.stdout + p.stderr
    time.sleep(1)
    assert trainer_a.poll() is None, p.stdout
    assert "stop failed" in p.stdout and "cannot be tied to run" in p.stdout and "nothing was stopped" in p.stdout


def test_allow_stop_without_a_target_stops_the_process_writing_the_log(tc_home, tmp_path, trainers):
    bad = write_llmc_log(tmp_path / "bad.log", 300, diverge_at=100)
    lonely = write_llmc_log(tmp_path / "lonely.log", 300, diverge_at=100)  # nobody writes it any more
    writer = trainers("--log", str(bad))
    p = tc(tc_home, "watch", "--once", "--allow-stop", str(bad), str(lonely))
    assert p.returncode == 2, p.stdout + p.stderr
    assert f"{bad}: a STOP stops pid:{writer.pid}" in p.stdout, p.stdout
    assert writer.wait(timeout=40) is not None
    note = next(ln for ln in p.stdout.splitlines() if "not stopped:" in ln)
    assert f"no process of yours holds {lonely} open for writing" in note
    assert "--stop-target pid:N" in note and "target='" not in p.stdout  # a person's words, not MCP syntax


def test_watch_every_minutes_says_what_it_waits_for_and_drops_a_stopped_run(tc_home, tmp_path):
    ok = write_llmc_log(tmp_path / "ok.log", 300)
    bad = write_llmc_log(tmp_path / "bad.log", 300, diverge_at=100)
    assert tc(tc_home, "watch", "--once", str(ok)).returncode == 0  # the ladder now says: next check in 10 min
    proc = subprocess.Popen([TC, "watch", "--every", "0.05", "--max-sleep", "0.5", str(ok), str(bad)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=server_env(tc_home),
                            cwd=tmp_path)
    try:
        time.sleep(12)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    lines = out.splitlines()
    assert lines[0] == "watching 2 runs, every 0.05 min (stopping disabled; --allow-stop enables it)", out
    ok_checks = [ln for ln in lines if f"CONTINUE {ok}" in ln]
    assert len(ok_checks) >= 3, out  # every 3 s, not 10 min later
    assert len([ln for ln in lines if f"STOP {bad}" in ln]) == 1, out  # checked once: a STOP ends its checks
    assert any(ln.startswith(f"waiting: next check of {ok} at ") for ln in lines), out
    assert not any(str(bad) in ln for ln in lines if ln.startswith("waiting:")), out


def test_a_restarted_watcher_says_when_it_checks_next(tc_home, tmp_path):
    ok = write_llmc_log(tmp_path / "ok.log", 300)
    assert tc(tc_home, "watch", "--once", str(ok)).returncode == 0
    proc = subprocess.Popen([TC, "watch", str(ok)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=server_env(tc_home), cwd=tmp_path)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith("watching 1 run, on the pacing ladder")
        waiting = proc.stdout.readline()
        assert waiting.startswith(f"waiting: next check of {ok} at ") and "(in 10 min)" in waiting, waiting
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)


def test_every_is_checked(tc_home, tmp_path):
    ok = write_llmc_log(tmp_path / "ok.log", 50)
    p = tc(tc_home, "watch", "--every", "0", str(ok))
    assert p.returncode == 64 and "--every takes minutes" in p.stderr and p.stderr.count("\n") == 1


def test_a_run_halted_by_a_stop_is_checked_again_once_a_newer_check_says_otherwise(store, config, tmp_path):
    from training_check.tools.assess import assess_run

    log = write_llmc_log(tmp_path / "train.log", 300, diverge_at=100)
    w = Watcher([str(log)], store=store, config=config, use_reviewer=False)
    (event,) = w.check_due()
    assert event.verdict == "STOP" and event.next_check_at is None and w.active == []
    again = Watcher([str(log)], store=store, config=config, use_reviewer=False)
    assert again.halted == [str(log)] and again.active == [] and again.worst() == "STOP"
    write_llmc_log(log, 400)  # the person fixed it and restarted the training into the same log
    assert assess_run(str(log), store=store, config=config).verdict == "CONTINUE"
    resumed = Watcher([str(log)], store=store, config=config, use_reviewer=False)
    assert resumed.active == [str(log)] and resumed.halted == []
    assert [e.verdict for e in resumed.check_due()] == ["CONTINUE"]


def test_a_cron_repeated_stop_target_is_named_once(store, config, tmp_path, trainers):
    """watch --once --stop-target pid:N from cron: named the first time only, so a PID reused later is refused by
    stop_run's guard instead of being named again by the next cron run."""
    log = write_llmc_log(tmp_path / "train.log", 300)
    job = trainers("--tag", "job")
    first = Watcher([str(log)], store=store, config=config, allow_stop=True, stop_target=f"pid:{job.pid}")
    assert "is the target of run" in first.prepare_stop()[0]
    later = Watcher([str(log)], store=store, config=config, allow_stop=True, stop_target=f"pid:{job.pid}")
    assert later.prepare_stop() == [f"{log}: a STOP stops pid:{job.pid}, named for this run before"]
