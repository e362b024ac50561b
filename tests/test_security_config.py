"""Issue 10, folders take control: a project folder (a cloned repository) sets names only; commands, endpoints and
trust come from the environment or the user's own config file. Real CLI subprocesses, real HTTP servers that record
who called them, real files with real owners and modes."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from training_check.tools.config import load_config

from tests.conftest import require

OPENAI_KEY = "sk-planted-config-test-7f3a9c1e5b"
WANDB_KEY = "plantedCONFIGwandb" + "7c1e9b3a5d" * 2 + "ab"


class Recorder:
    """An HTTP server that records every request (path and headers) and answers 401."""

    def __init__(self):
        self.seen: list[tuple[str, str]] = []
        rec = self

        class H(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                n = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(n)
                rec.seen.append((self.path, str(self.headers)))
                body = b'{"errors":[{"message":"unauthorized"}]}'
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


@pytest.fixture
def recorders():
    made: list[Recorder] = []

    def make() -> Recorder:
        made.append(Recorder())
        return made[-1]

    yield make
    for r in made:
        r.close()


@pytest.fixture
def repo(tmp_path) -> Path:
    r = tmp_path / "cloned-repo"
    (r / ".git").mkdir(parents=True)
    return r


def cli(args: list[str], *, cwd: Path, home: Path, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "WANDB_", "REVIEWER_"))}
    return subprocess.run(check=False, args=[sys.executable, "-m", "training_check.server.cli", *args],
                          capture_output=True, text=True, timeout=120, cwd=str(cwd),
                          env={**base, "TRAINING_CHECK_HOME": str(home), "WANDB_SILENT": "true", **env})


def write_log(path: Path) -> Path:
    path.write_text("".join(f"step {s} loss {4 - s * 0.001:.4f}\n" for s in range(300)))
    return path


def test_a_project_codex_command_never_runs(repo, tc_home, tmp_path):
    canary = tmp_path / "pwned"
    (repo / ".training-check.toml").write_text(
        f'[reviewer]\nbackend = "codex"\ncodex_command = "sh -c \'touch {canary}\'"\n')
    log = write_log(repo / "train.log")
    out = cli(["review", "--run", str(log), "--concern", "plateau?"], cwd=repo, home=tc_home)
    assert not canary.exists()
    assert out.returncode == 70 and out.stderr.strip().endswith("training-check: no reviewer configured: set "
                                                                 "OPENAI_API_KEY (and optionally OPENAI_BASE_URL, "
                                                                 "REVIEWER_MODEL) or REVIEWER_BACKEND=codex")
    assert f"{repo / '.training-check.toml'}: ignored [reviewer] codex_command" in out.stderr


def test_a_project_base_url_never_gets_the_openai_key(repo, tc_home, recorders):
    attacker, mine = recorders(), recorders()
    (repo / ".training-check.toml").write_text(f'[reviewer]\nbackend = "openai"\nbase_url = "{attacker.url}/v1"\n')
    tc_home.mkdir(parents=True, exist_ok=True)
    (tc_home / "config.toml").write_text(f'[reviewer]\nbase_url = "{mine.url}/v1"\nmax_retries = 0\n')
    log = write_log(repo / "train.log")
    out = cli(["review", "--run", str(log), "--concern", "plateau?"], cwd=repo, home=tc_home,
              OPENAI_API_KEY=OPENAI_KEY, REVIEWER_TIMEOUT_S="5")
    assert attacker.seen == []
    assert mine.seen and OPENAI_KEY in mine.seen[0][1]  # the user's own endpoint was used
    assert OPENAI_KEY not in out.stderr + out.stdout


def test_a_repos_wandb_settings_never_gets_the_wandb_key(repo, tc_home, recorders):
    attacker, mine = recorders(), recorders()
    (repo / "wandb").mkdir()
    (repo / "wandb" / "settings").write_text(f"[default]\nbase_url = {attacker.url}\n")
    tc_home.mkdir(parents=True, exist_ok=True)
    (tc_home / "config.toml").write_text(f'[wandb]\nbase_url = "{mine.url}"\n')
    out = cli(["read", "ent/proj/abc12345"], cwd=repo, home=tc_home, WANDB_API_KEY=WANDB_KEY,
              WANDB_CONFIG_DIR=str(repo / "wandb-config"))
    assert attacker.seen == []
    assert mine.seen, out.stderr
    assert out.returncode == 4 and WANDB_KEY not in out.stderr + out.stdout


def test_a_project_cannot_accept_unknown_ssh_hosts(repo, tc_home):
    (repo / ".training-check.toml").write_text('[ssh]\naccept_unknown_hosts = true\n[wandb]\nentity = "team"\n')
    cfg = load_config(cwd=repo, env={"TRAINING_CHECK_HOME": str(tc_home)})
    assert cfg.ssh_accept_unknown_hosts is False and cfg.wandb_entity == "team"
    expected = (f"{repo / '.training-check.toml'}: ignored [ssh] accept_unknown_hosts: a project file may set only "
                f"[wandb] entity and project, [metrics] loss_metric and [security] redact_env; put other settings in "
                f"{Path.home() / '.config' / 'training-check' / 'config.toml'}")
    assert cfg.warnings == [expected]
    tc_home.mkdir(parents=True, exist_ok=True)
    (tc_home / "config.toml").write_text("[ssh]\naccept_unknown_hosts = true\n")
    assert load_config(cwd=repo, env={"TRAINING_CHECK_HOME": str(tc_home)}).ssh_accept_unknown_hosts is True


def test_the_upward_search_stops_at_the_repository_root(repo, tmp_path, tc_home):
    (tmp_path / ".training-check.toml").write_text('[wandb]\nentity = "someone-elses"\n')
    (repo / "src" / "deep").mkdir(parents=True)
    cfg = load_config(cwd=repo / "src" / "deep", env={"TRAINING_CHECK_HOME": str(tc_home)})
    assert cfg.wandb_entity is None and cfg.source_file is None
    (repo / ".training-check.toml").write_text('[wandb]\nentity = "ours"\n')
    cfg = load_config(cwd=repo / "src" / "deep", env={"TRAINING_CHECK_HOME": str(tc_home)})
    assert cfg.wandb_entity == "ours" and cfg.source_file == repo / ".training-check.toml"


def test_config_files_others_can_write_or_own_are_not_read(repo, tc_home):
    user = tc_home / "config.toml"
    tc_home.mkdir(parents=True, exist_ok=True)
    user.write_text('[reviewer]\ncodex_command = "/bin/true"\n')
    user.chmod(0o666)
    cfg = load_config(cwd=repo, env={"TRAINING_CHECK_HOME": str(tc_home)})
    assert cfg.reviewer == {} and cfg.warnings == [f"not reading {user}: it is writable by other users (chmod go-w it)"]
    user.chmod(0o600)
    assert load_config(cwd=repo, env={"TRAINING_CHECK_HOME": str(tc_home)}).reviewer == {"codex_command": "/bin/true"}
    require(os.geteuid() == 0, "root (to give a file to another user)")
    proj = repo / ".training-check.toml"
    proj.write_text('[wandb]\nentity = "planted"\n')
    os.chown(proj, 65534, 65534)
    cfg = load_config(cwd=repo, env={"TRAINING_CHECK_HOME": str(tc_home)})
    assert cfg.wandb_entity is None
    assert f"not reading {proj}: it is owned by uid 65534, not by this user (uid 0)" in cfg.warnings
