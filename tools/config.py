"""Configuration: arguments > environment > the user's own config file > the project's ``.training-check.toml`` >
lines in ``CLAUDE.md``.

Whoever wrote a project folder (a cloned repository) does not get to run commands, choose endpoints or relax
trust: settings that do (the Codex command, OpenAI and W&B base URLs, the SSH host-key policy) come only from the
environment or the user's own config file, ``$TRAINING_CHECK_HOME/config.toml`` or
``~/.config/training-check/config.toml`` (``$XDG_CONFIG_HOME``)::

    [wandb]
    entity = "my-team"
    project = "llm"
    base_url = "https://api.wandb.ai"   # W&B server (env WANDB_BASE_URL wins)
    [ssh]
    accept_unknown_hosts = false
    [mlflow]
    tracking_uri = "http://127.0.0.1:5000"   # the MLflow server mlflow:<run_id> reads (env MLFLOW_TRACKING_URI wins)
    [reviewer]
    backend = "openai"          # or "codex"
    model = "gpt-5.4"
    api = "responses"           # or "chat" (vLLM, Ollama, ...)
    base_url = "https://..."    # OpenAI-compatible endpoint (env OPENAI_BASE_URL wins)
    codex_command = "codex"     # (env REVIEWER_CODEX_COMMAND wins)
    timeout_s = 120
    [security]
    redact_env = ["MYLAB_CLUSTER_PW"]   # more variables whose values are secrets (tools/redact.py)
    [sweep]
    allow_prune = false         # true: stop_run may stop a run its latest sweep comparison says to prune

The project file ``.training-check.toml`` (the working folder or a parent, up to the repository root, a folder
holding ``.git``, or HOME) may set names only: ``[wandb] entity`` and ``project``, ``[metrics] loss_metric``, and
``[security] redact_env``; anything else in it is ignored with a warning. A config file is read only when it is owned
by this user and nobody else can write it.

Redaction can only grow: both files may ADD variable names to redact and nothing can remove one. A name in the
user's own file is redacted whatever its value; a name a project file adds gets the test a secret-looking name gets
(8+ characters with letters and digits, not a path or a number), so a cloned repository can neither weaken
redaction nor blank out paths and numbers by naming ``HOME``. The user's file's secret-named keys (``api_key``,
``token`` ...) are redacted too; a project file's values never are (it could name ``loss``).
"""

from __future__ import annotations

import logging
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from . import redact
from .errors import BadInput
from .ownership import untrusted_stat

CONFIG_FILE = ".training-check.toml"
USER_CONFIG = "config.toml"
DEFAULT_WANDB_BASE_URL = "https://api.wandb.ai"
PROJECT_KEYS = {"wandb": {"entity", "project"}, "metrics": {"loss_metric"}, "security": {"redact_env"}}  # names only
log = logging.getLogger("training_check.config")


def home_dir(env: Mapping[str, str] | None = None) -> Path:
    source: Mapping[str, str] = os.environ if env is None else env
    root = source.get("TRAINING_CHECK_HOME")
    return Path(root).expanduser() if root else Path.home() / ".training-check"


def user_config_paths(env: Mapping[str, str] | None = None) -> list[Path]:
    """Where the user's own config may be, first found wins."""
    source: Mapping[str, str] = os.environ if env is None else env
    xdg = source.get("XDG_CONFIG_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".config"
    return [home_dir(source) / USER_CONFIG, base / "training-check" / USER_CONFIG]


def _find_upwards(start: Path, name: str) -> Path | None:
    """``name`` in ``start`` or a parent, stopping at the repository root (a folder holding .git) or HOME."""
    home = Path.home().resolve()
    for d in [start, *start.parents]:
        p = d / name
        if p.is_file():
            return p
        if (d / ".git").exists() or d == home:
            return None
    return None


def trusted(path: Path) -> str | None:
    """None when ``path`` may be read as config (owned by this user, not writable by group or others); else why not."""
    try:
        st = path.stat()
    except OSError as e:
        return f"cannot be read ({e.strerror})"
    return untrusted_stat(st)


def _load_toml(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise BadInput(f"cannot read {path}: {getattr(e, 'strerror', None) or 'not UTF-8 text'}; fix or remove the "
                       f"file") from None
    except tomllib.TOMLDecodeError as e:
        raise BadInput(f"cannot read {path}: {e}; fix or remove the file") from None


def _claude_md_values(path: Path | None) -> dict[str, str]:
    """``WANDB_ENTITY: x`` / ``WANDB_PROJECT = y`` lines (optionally bulleted or in backticks) in CLAUDE.md."""
    out: dict[str, str] = {}
    if not path:
        return out
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return out
    for m in re.finditer(r"^[\s>*\-`]*(WANDB_ENTITY|WANDB_PROJECT)`?\s*[:=]\s*`?([A-Za-z0-9_.\-]+)`?", text,
                         re.MULTILINE):
        out.setdefault(m.group(1), m.group(2))
    return out


@dataclass
class Config:
    home: Path
    wandb_entity: str | None = None
    wandb_project: str | None = None
    ssh_accept_unknown_hosts: bool = False
    reviewer: dict = field(default_factory=dict)  # from the user's config only
    source_file: Path | None = None  # the project file read (names only)
    wandb_base_url: str = DEFAULT_WANDB_BASE_URL
    user_file: Path | None = None
    warnings: list[str] = field(default_factory=list)
    loss_metric: str | None = None  # the metric to judge as the loss when none is named one (issue 19)
    redact_env: tuple[str, ...] = ()  # [security] redact_env of both files (tools/redact.py)
    mlflow_tracking_uri: str | None = None  # env MLFLOW_TRACKING_URI, else [mlflow] tracking_uri in the user's config
    sweep_allow_prune: bool = False  # [sweep] allow_prune in the USER's config only: a person enabled pruning

    @property
    def store_path(self) -> Path:
        return self.home / "state.sqlite3"

    @property
    def evidence_dir(self) -> Path:
        return self.home / "evidence"


def _table(data: dict, name: str) -> dict:
    value = data.get(name, {})
    return value if isinstance(value, dict) else {}


def _names_only(data: dict, path: Path, warnings: list[str]) -> dict:
    """The project file's names; every other setting is dropped with a warning."""
    kept: dict = {}
    for section, value in data.items():
        allowed = PROJECT_KEYS.get(section, set())
        for key in (value if isinstance(value, dict) else {section: value}):
            if isinstance(value, dict) and key in allowed and (
                    isinstance(value[key], str) or (key == "redact_env" and isinstance(value[key], list))):
                kept.setdefault(section, {})[key] = value[key]
            else:
                warnings.append(f"{path}: ignored [{section}] {key}: a project file may set only [wandb] entity "
                                f"and project, [metrics] loss_metric and [security] redact_env; put other settings "
                                f"in {user_config_paths()[1]}")
    return kept


def _if_trusted(path: Path | None, warnings: list[str]) -> Path | None:
    """``path`` when it may be read (see ``trusted``); else None, and a warning says why not."""
    if path is None:
        return None
    why = trusted(path)
    if why:
        warnings.append(f"not reading {path}: it {why}")
        return None
    return path


def redact_names(data: dict, path: Path | None, warnings: list[str]) -> tuple[str, ...]:
    """``[security] redact_env``: variable names (a list of strings), at most redact.MAX_EXTRA_NAMES."""
    names = _table(data, "security").get("redact_env", [])
    good = tuple(n for n in names if isinstance(n, str) and redact.ENV_NAME.match(n)) if isinstance(names, list) else ()
    if not isinstance(names, list) or len(good) != len(names) or len(good) > redact.MAX_EXTRA_NAMES:
        warnings.append(f"{path}: [security] redact_env must be a list of at most {redact.MAX_EXTRA_NAMES} variable "
                        f"names (letters, digits, _); the others are ignored")
    return good[: redact.MAX_EXTRA_NAMES]


def config_secrets(data: dict, path: Path | None) -> dict[str, str]:
    """{value: label} of the user's file's secret-named keys (``[reviewer] api_key``, a ``token`` ...; not a path
    such as ``key_file = "~/.ssh/id"``, nor a number)."""
    found: dict[str, str] = {}
    for section, table in data.items():
        for key, value in (table.items() if isinstance(table, dict) else [(section, table)]):
            if isinstance(key, str) and isinstance(value, str) and redact.secret_name(key) \
                    and redact.could_be_secret(value):
                found[value] = f"config:{section}.{key}" if isinstance(table, dict) else f"config:{key}"
    return found


def load_config(cwd: str | Path | None = None, env: dict[str, str] | None = None) -> Config:
    env = dict(os.environ) if env is None else env
    warnings: list[str] = []
    user_file = _if_trusted(next((p for p in user_config_paths(env) if p.is_file()), None), warnings)
    user_data: dict = _load_toml(user_file) if user_file else {}
    start = Path(cwd or os.getcwd()).resolve()
    toml_path = _if_trusted(_find_upwards(start, CONFIG_FILE), warnings)
    project: dict = _names_only(_load_toml(toml_path), toml_path, warnings) if toml_path else {}
    claude = _claude_md_values(_find_upwards(start, "CLAUDE.md"))
    uwb, pwb = _table(user_data, "wandb"), _table(project, "wandb")
    ssh, rv = _table(user_data, "ssh"), _table(user_data, "reviewer")
    mlflow_uri = env.get("MLFLOW_TRACKING_URI") or _table(user_data, "mlflow").get("tracking_uri")
    loss = env.get("TRAINING_CHECK_LOSS_METRIC") or _table(user_data, "metrics").get("loss_metric") \
        or _table(project, "metrics").get("loss_metric")
    accept = env.get("TRAINING_CHECK_SSH_ACCEPT_UNKNOWN_HOSTS")
    wandb_base_url = str(env.get("WANDB_BASE_URL") or uwb.get("base_url") or DEFAULT_WANDB_BASE_URL)
    user_names = redact_names(user_data, user_file, warnings)
    project_names = redact_names(project, toml_path, warnings)
    # process-wide: every place text leaves redacts with what any config read so far added (tools/redact.py)
    redact.configure(user_names=user_names, project_names=project_names,
                     values=config_secrets(user_data, user_file), wandb_base_url=wandb_base_url)
    for w in warnings:
        log.warning("%s", w)
    return Config(
        home=home_dir(env),
        # the user's own file wins over a (cloned) project's: a repository never redirects the user's runs
        wandb_entity=env.get("WANDB_ENTITY") or uwb.get("entity") or pwb.get("entity") or claude.get("WANDB_ENTITY"),
        wandb_project=(env.get("WANDB_PROJECT") or uwb.get("project") or pwb.get("project")
                       or claude.get("WANDB_PROJECT")),
        ssh_accept_unknown_hosts=((accept.lower() in ("1", "true", "yes")) if accept
                                  else ssh.get("accept_unknown_hosts") is True),
        reviewer=dict(rv),
        source_file=toml_path,
        wandb_base_url=wandb_base_url,
        user_file=user_file,
        warnings=warnings,
        loss_metric=str(loss)[:200] if isinstance(loss, str) and loss.strip() else None,
        redact_env=(*user_names, *project_names),
        mlflow_tracking_uri=str(mlflow_uri).strip() if isinstance(mlflow_uri, str) and mlflow_uri.strip() else None,
        sweep_allow_prune=_table(user_data, "sweep").get("allow_prune") is True,
    )
