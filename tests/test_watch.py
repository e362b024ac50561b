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

from training_check.tools.watch import STATE_PREFIX, Watcher, next_due

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
        assert p.returncode == 0, p.stderr
        lines = p.stdout.splitlines()
        assert any("CONTINUE" in ln and "ok.log" in ln and "[alert]" not in ln for ln in lines), p.stdout
        assert any("[alert] STOP" in ln and "bad.log" in ln for ln in lines), p.stdout
        assert "--allow-stop" in p.stdout  # it would stop, but was not allowed to
        assert len(hook.posts) == 1 and "bad.log" in hook.posts[0]["text"] and "STOP" in hook.posts[0]["text"]
        assert hook.posts[0]["event"]["verdict"] == "STOP"
        # A restarted watcher resumes: nothing is due again for 10 minutes.
        again = cli(tc_home, "watch", "--once", "--json", str(ok), str(bad))
        assert again.returncode == 0 and again.stdout.strip() == "", again.stdout
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
