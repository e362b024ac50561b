"""Secrets planted in the environment (OPENAI_API_KEY, WANDB_API_KEY, an SSH key passphrase) never show up in any
answer, MCP log message, server stderr, store row (every table dumped, raw db/WAL bytes too) or evidence file,
whether the tools are driven directly or through the MCP server over stdio. Servers that echo the key back in
their error bodies are used on purpose."""

from __future__ import annotations

import json
import logging
import sqlite3
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import anyio
import pytest

from tests.sshd_fixture import sshd  # noqa: F401  (fixture)

from .fake_openai_server import FakeOpenAI, Reply
from .mcp_client import mcp_session
from .standins import holding_log

OPENAI_KEY = "sk-planted-OPENAI-4f1c9a7e2b6d8035"
WANDB_KEY = "plantedWANDB" + "5a3c1e9b7d" * 2 + "abcdefgh"  # 40 characters
PASSPHRASE = "planted-ssh-passphrase-93b7e1"
SECRETS = (OPENAI_KEY, WANDB_KEY, PASSPHRASE)


class EchoingWandb:
    """A W&B stand-in that refuses the key and echoes the request's headers (the key included) in its body."""

    def __init__(self):
        class H(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                n = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(n)
                body = json.dumps({"errors": [{"message": f"bad credentials: {dict(self.headers)}"}]}).encode()
                self.send_response(401)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def write_log(path: Path, steps: int, diverge_at: int | None = None) -> Path:
    rows = []
    for s in range(steps):
        loss = 4.0 / (s + 1) ** 0.4 + 0.3
        if diverge_at is not None and s >= diverge_at:
            loss = float("nan")
        rows.append(f"step={s} loss={loss} lr=0.0003 grad_norm=1.0\n")
    path.write_text("".join(rows))
    return path


def passphrase_key(folder: Path) -> Path:
    key = folder / "id_protected"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", PASSPHRASE, "-f", str(key)], check=True)
    return key


def assert_clean(where: str, text: str) -> int:
    for s in SECRETS:
        assert s not in text, f"secret leaked in {where}"
    return 1


def store_and_evidence_text(home: Path) -> str:
    """Every table dumped, the raw database and WAL bytes, and every evidence file."""
    parts = []
    dbs = [home / "state.sqlite3"]
    assert dbs[0].exists(), "no store was written"
    for d in dbs:
        with sqlite3.connect(d) as c:
            parts.append("\n".join(c.iterdump()))
        for f in (d, Path(str(d) + "-wal")):
            if f.exists():
                parts.append(f.read_bytes().decode("latin-1"))
    for f in home.rglob("*"):
        if f.is_file() and f not in dbs:
            parts.append(f.read_bytes().decode("latin-1"))
    return "\n".join(parts)


@pytest.fixture
def planted(tc_home, tmp_path, monkeypatch, sshd):  # noqa: F811
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    monkeypatch.setenv("WANDB_API_KEY", WANDB_KEY)
    for name in ("SSH_KEY_PASSPHRASE", "TRAINING_CHECK_SSH_PASSPHRASE", "SSH_PASSPHRASE"):
        monkeypatch.setenv(name, PASSPHRASE)
    key = passphrase_key(tmp_path)
    cfg = tmp_path / "ssh_config_protected"
    cfg.write_text(f"Host 127.0.0.1\n    IdentityFile {key}\n    IdentitiesOnly yes\n")
    monkeypatch.setenv("TRAINING_CHECK_SSH_CONFIG", str(cfg))
    monkeypatch.setenv("TRAINING_CHECK_SSH_KNOWN_HOSTS", str(sshd.known_hosts))
    monkeypatch.setenv("WANDB_CONFIG_DIR", str(tmp_path / "wandb-config"))
    monkeypatch.setenv("WANDB_CACHE_DIR", str(tmp_path / "wandb-cache"))
    monkeypatch.setenv("WANDB_SILENT", "true")
    monkeypatch.setenv("REVIEWER_MAX_RETRIES", "0")
    monkeypatch.setenv("REVIEWER_TIMEOUT_S", "5")
    wb = EchoingWandb()
    monkeypatch.setenv("WANDB_BASE_URL", wb.url)
    yield sshd
    wb.close()


def test_secrets_absent_driving_every_tool_directly(planted, tmp_path, tc_home, store, config, caplog, capfd):
    from training_check.tools.assess import assess_run
    from training_check.tools.errors import TrainingCheckError
    from training_check.tools.read_metrics import read_metrics
    from training_check.tools.reviewer import escalate_to_reviewer
    from training_check.tools.schedule import reschedule
    from training_check.tools.stop_run import stop_run

    caplog.set_level(logging.DEBUG)
    good, bad = write_log(tmp_path / "good.log", 300), write_log(tmp_path / "bad.log", 300, diverge_at=150)
    answers: list[str] = []

    def call(fn, *a, **kw):
        try:
            r = fn(*a, **kw)
            answers.append(json.dumps(r.to_dict() if hasattr(r, "to_dict") else r, default=str))
            return r
        except TrainingCheckError as e:
            answers.append(str(e))
            return None

    # the run's training process: it holds its log open (stop_run stops only a process tied to the run)
    sleeper = holding_log(bad, 60)
    try:
        with FakeOpenAI() as fake:
            import os
            os.environ["OPENAI_BASE_URL"] = fake.base_url
            try:
                call(read_metrics, str(good), store=store, config=config)
                a = call(assess_run, str(good), store=store, config=config)
                call(reschedule, str(good), store=store, config=config, assessment_id=a.assessment_id)
                b = call(assess_run, str(bad), store=store, config=config)
                call(assess_run, "ent/proj/run1", store=store, config=config)  # W&B refuses (echoing the key)
                call(assess_run, "ent/proj/run1", store=store, config=config, fallback_log=str(good))
                call(assess_run, planted.url(str(good)), store=store, config=config)  # passphrase-protected key
                fake.script(Reply.decision("STOP", "loss is NaN"))
                call(escalate_to_reviewer, store=store, config=config, concern="NaN", assessment_id=b.assessment_id)
                fake.script(Reply(status=401, error_message=f"Incorrect API key provided: {OPENAI_KEY}"))
                call(escalate_to_reviewer, store=store, config=config, concern="NaN", assessment_id=b.assessment_id)
                call(stop_run, str(bad), "NaN loss", store=store, config=config, assessment_id=b.assessment_id,
                     target=f"pid:{sleeper.pid}", grace_s=5)
            finally:
                os.environ.pop("OPENAI_BASE_URL", None)
    finally:
        sleeper.kill()
        sleeper.wait()
    out, err = capfd.readouterr()
    checked = sum(assert_clean(f"answer {i}", t) for i, t in enumerate(answers))
    checked += assert_clean("log records", "\n".join(r.getMessage() for r in caplog.records))
    checked += assert_clean("stdout/stderr", out + err)
    checked += assert_clean("store and evidence", store_and_evidence_text(tc_home))
    assert checked >= 12
    assert any("evidence" in t for t in answers)  # the stop wrote evidence that was checked above
    assert list((tc_home / "evidence").rglob("*")), "no evidence file written"


def test_secrets_absent_through_the_mcp_server(planted, tmp_path, tc_home):
    good, bad = write_log(tmp_path / "good.log", 300), write_log(tmp_path / "bad.log", 300, diverge_at=150)
    # the run's training process: it holds its log open (stop_run stops only a process tied to the run)
    sleeper = holding_log(bad, 60)
    texts: list[str] = []
    import os

    env = {k: os.environ[k] for k in ("TRAINING_CHECK_SSH_CONFIG", "TRAINING_CHECK_SSH_KNOWN_HOSTS", "WANDB_BASE_URL",
                                      "WANDB_CONFIG_DIR", "WANDB_CACHE_DIR", "WANDB_SILENT", "REVIEWER_MAX_RETRIES",
                                      "REVIEWER_TIMEOUT_S", "SSH_KEY_PASSPHRASE", "TRAINING_CHECK_SSH_PASSPHRASE",
                                      "SSH_PASSPHRASE")}

    async def main(fake):
        async with mcp_session(tc_home, OPENAI_API_KEY=OPENAI_KEY, WANDB_API_KEY=WANDB_KEY,
                               OPENAI_BASE_URL=fake.base_url, **env) as s:
            async def call(tool, args):
                res = await s.call(tool, args)
                texts.append(" ".join(getattr(c, "text", "") for c in res.content))
                texts.append(json.dumps(res.structured_content, default=str))
                return res.structured_content or {}

            await call("read_metrics", {"run": str(good)})
            a = await call("assess_run", {"run": str(good)})
            await call("reschedule", {"run": str(good), "assessment_id": a.get("assessment_id")})
            b = await call("assess_run", {"run": str(bad)})
            await call("assess_run", {"run": "ent/proj/run1"})
            await call("assess_run", {"run": "ent/proj/run1", "fallback_log": str(good)})
            await call("assess_run", {"run": planted.url(str(good))})
            await call("assess_runs", {"runs": [str(good), str(bad), "ent/proj/run2", planted.url(str(bad))]})
            fake.script(Reply.decision("STOP", "loss is NaN"))
            await call("escalate_to_reviewer", {"concern": "NaN", "assessment_id": b.get("assessment_id")})
            fake.script(Reply(status=401, error_message=f"Incorrect API key provided: {OPENAI_KEY}"))
            await call("escalate_to_reviewer", {"concern": "NaN", "assessment_id": b.get("assessment_id")})
            await call("stop_run", {"run": str(bad), "reason": "NaN loss", "assessment_id": b.get("assessment_id"),
                                    "target": f"pid:{sleeper.pid}", "grace_s": 5})
            for uri in ("training-check://runs",):
                res = await s.client.read_resource(uri)
                texts.append(res.contents[0].text)
            texts.append("\n".join(str(e.data) for e in s.logs))

    try:
        with FakeOpenAI() as fake:
            anyio.run(main, fake)
    finally:
        sleeper.kill()
        sleeper.wait()
    stderr = (tc_home.parent / "server-stderr.log").read_text()
    checked = sum(assert_clean(f"MCP answer {i}", t) for i, t in enumerate(texts))
    checked += assert_clean("server stderr", stderr)
    checked += assert_clean("store and evidence", store_and_evidence_text(tc_home))
    assert checked >= 20
    assert any("STOP" in t for t in texts)
