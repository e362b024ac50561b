"""Claude Code (npm @anthropic-ai/claude-code) starts our server from a clone's .mcp.json and lists it Connected."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO, require

CLAUDE_TIMEOUT_S = 120


def test_slash_command_copy_is_identical_to_the_prompt():
    src = (REPO / "prompts" / "training-check.md").read_text(encoding="utf-8")
    copy = (REPO / ".claude" / "commands" / "training-check.md").read_text(encoding="utf-8")
    assert copy == src, "regenerate: training-check install-command --project ."
    front = src.split("---")[1]
    assert "description:" in front and "argument-hint:" in front and "allowed-tools:" in front
    for tool in ("assess_run", "escalate_to_reviewer", "stop_run", "reschedule"):
        assert f"mcp__training-check__{tool}" in front
    assert "CronCreate" in front and "CronDelete" in front and "$ARGUMENTS" in src


def test_mcp_json_names_the_venv_console_script():
    cfg = json.loads((REPO / ".mcp.json").read_text())
    server = cfg["mcpServers"]["training-check"]
    assert server["command"] == ".venv/bin/training-check" and server["args"] == ["serve"]


@pytest.fixture
def clone(tmp_path) -> Path:
    """A fresh clone of this repo whose .venv is the venv running the tests (the README's set-up, already done)."""
    require(shutil.which("git") is not None, "git")
    dest = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(REPO), str(dest)], check=True, timeout=60)
    # The committed .mcp.json and command are what we test; copy the working tree's in case they are not committed yet.
    shutil.copy(REPO / ".mcp.json", dest / ".mcp.json")
    (dest / ".venv").symlink_to(Path(sys.prefix))
    (dest / ".claude").mkdir(exist_ok=True)
    (dest / ".claude" / "settings.local.json").write_text(json.dumps({"enableAllProjectMcpServers": True}))
    return dest


def _claude(clone: Path, tmp_path: Path, *args: str) -> str:
    exe = shutil.which("claude")
    require(exe is not None, "Claude Code (npm install -g @anthropic-ai/claude-code)")
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
    env.update(HOME=str(home), TRAINING_CHECK_HOME=str(tmp_path / "tc-home"), DISABLE_AUTOUPDATER="1")
    p = subprocess.run([exe, *args], cwd=clone, env=env, capture_output=True, text=True, timeout=CLAUDE_TIMEOUT_S,
                       stdin=subprocess.DEVNULL)
    assert p.returncode == 0, f"claude {' '.join(args)}: {p.stdout[-1500:]} {p.stderr[-1500:]}"
    return p.stdout


def test_claude_code_connects_to_the_project_server(clone, tmp_path):
    out = _claude(clone, tmp_path, "mcp", "list")
    line = next((ln for ln in out.splitlines() if ln.startswith("training-check")), "")
    assert "Connected" in line, out
    got = _claude(clone, tmp_path, "mcp", "get", "training-check")
    assert "training-check" in got and "Connected" in got and ".venv/bin/training-check" in got, got


def test_claude_code_user_scope_install(tmp_path):
    """The README's user-scope command: `claude mcp add -s user training-check -- <venv>/bin/training-check serve`."""
    script = Path(sys.prefix) / "bin" / "training-check"
    require(script.exists(), "the training-check console script in the venv (pip install -e .)")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    _claude(elsewhere, tmp_path, "mcp", "add", "-s", "user", "training-check", "--", str(script), "serve")
    out = _claude(elsewhere, tmp_path, "mcp", "list")
    line = next((ln for ln in out.splitlines() if ln.startswith("training-check")), "")
    assert "Connected" in line, out
