"""Configuration: arguments > environment > ``.training-check.toml`` > lines in ``CLAUDE.md``.

``.training-check.toml`` (found in the working directory or a parent)::

    [wandb]
    entity = "my-team"
    project = "llm"
    [ssh]
    accept_unknown_hosts = false
    [reviewer]
    backend = "openai"          # or "codex"
    model = "gpt-5.4"
    api = "responses"           # or "chat" (vLLM, Ollama, ...)
    timeout_s = 120
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .errors import BadInput

CONFIG_FILE = ".training-check.toml"


def home_dir(env: dict[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    root = env.get("TRAINING_CHECK_HOME")
    return Path(root).expanduser() if root else Path.home() / ".training-check"


def _find_upwards(start: Path, name: str) -> Path | None:
    for d in [start, *start.parents]:
        p = d / name
        if p.is_file():
            return p
    return None


def _claude_md_values(path: Path | None) -> dict[str, str]:
    """``WANDB_ENTITY: x`` / ``WANDB_PROJECT = y`` lines (optionally bulleted or in backticks) in CLAUDE.md."""
    out: dict[str, str] = {}
    if not path:
        return out
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return out
    for m in re.finditer(r"^[\s>*\-`]*(WANDB_ENTITY|WANDB_PROJECT)`?\s*[:=]\s*`?([A-Za-z0-9_.\-]+)`?", text, re.M):
        out.setdefault(m.group(1), m.group(2))
    return out


@dataclass
class Config:
    home: Path
    wandb_entity: str | None = None
    wandb_project: str | None = None
    ssh_accept_unknown_hosts: bool = False
    reviewer: dict = field(default_factory=dict)
    source_file: Path | None = None

    @property
    def store_path(self) -> Path:
        return self.home / "state.sqlite3"

    @property
    def evidence_dir(self) -> Path:
        return self.home / "evidence"


def load_config(cwd: str | Path | None = None, env: dict[str, str] | None = None) -> Config:
    env = dict(os.environ) if env is None else env
    start = Path(cwd or os.getcwd()).resolve()
    toml_path = _find_upwards(start, CONFIG_FILE)
    data: dict = {}
    if toml_path:
        try:
            data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as e:
            raise BadInput(f"cannot read {toml_path}: {e}; fix or remove the file") from None
    claude = _claude_md_values(_find_upwards(start, "CLAUDE.md"))
    wb = data.get("wandb", {}) if isinstance(data.get("wandb"), dict) else {}
    ssh = data.get("ssh", {}) if isinstance(data.get("ssh"), dict) else {}
    rv = data.get("reviewer", {}) if isinstance(data.get("reviewer"), dict) else {}
    accept = env.get("TRAINING_CHECK_SSH_ACCEPT_UNKNOWN_HOSTS")
    return Config(
        home=home_dir(env),
        wandb_entity=env.get("WANDB_ENTITY") or wb.get("entity") or claude.get("WANDB_ENTITY"),
        wandb_project=env.get("WANDB_PROJECT") or wb.get("project") or claude.get("WANDB_PROJECT"),
        ssh_accept_unknown_hosts=(accept.lower() in ("1", "true", "yes")) if accept else bool(ssh.get("accept_unknown_hosts", False)),
        reviewer=dict(rv),
        source_file=toml_path,
    )
