"""Run references: one string names a run in every tool.

Forms: ``entity/project/run_id``, ``project/run_id``, ``run_id``, a W&B run
URL; a local path (log file, ``.wandb`` file, run directory, ``wandb/``
directory, an MLflow store: ``mlflow.db``, ``mlruns/``, a DVCLive folder, an offline store of Comet (its ``.zip``
or folder), Neptune (``.neptune/``) or ClearML (an ``offline-<id>`` session or its ``.zip``));
``ssh://[user@]host[:port]/abs/path`` or ``host:/abs/path``. A path may name
one run of a store that holds several: ``path/to/mlflow.db#<run_id>``, ``.neptune#<run uuid>``.
``mlflow:<run_id>`` (or ``mlflow:latest``) names a run of the MLflow tracking
server that ``MLFLOW_TRACKING_URI`` (or the user's config) points at: a
reference names a run, never a host to fetch from.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass
from urllib.parse import unquote, urlparse

from .errors import BadInput

MAX_REF_LEN = 4096
LOG_SUFFIXES = (".log", ".txt", ".out", ".err", ".jsonl", ".json", ".csv", ".wandb", ".stdout", ".stderr", ".tsv",
                ".db", ".sqlite", ".sqlite3", ".zip")
STORE_NAMES = ("wandb", "trainer_state.json", "mlruns", "dvclive", ".neptune", ".cometml-runs")  # always paths
_ID = r"[A-Za-z0-9][A-Za-z0-9_.\-]*"
_WANDB_PATH = re.compile(rf"^(?:({_ID})/)?(?:({_ID})/)?({_ID})$")
_SCP_LIKE = re.compile(r"^(?:(?P<user>[A-Za-z0-9_.\-]+)@)?(?P<host>[A-Za-z0-9_.\-]+|\[[0-9A-Fa-f:]+\]):(?P<path>/.*)$")
_HOST = re.compile(r"^[A-Za-z0-9_.\-]+$|^\[[0-9A-Fa-f:]+\]$")


@dataclass(frozen=True)
class RunRef:
    """A parsed run reference. ``key`` is the canonical string the store files everything under."""

    raw: str
    kind: str  # "wandb" | "local" | "ssh"
    path: str | None = None
    host: str | None = None
    user: str | None = None
    port: int | None = None
    entity: str | None = None
    project: str | None = None
    run_id: str | None = None  # W&B: the run; a store's path or "mlflow": the run named in it (None: the latest)

    @property
    def key(self) -> str:
        if self.kind == "wandb":
            return f"wandb:{self.entity or '?'}/{self.project or '?'}/{self.run_id}"
        if self.kind == "mlflow":
            return f"mlflow:{self.run_id or 'latest'}"
        run = f"#{self.run_id}" if self.run_id else ""
        if self.kind == "ssh":
            user = f"{self.user}@" if self.user else ""
            port = f":{self.port}" if self.port else ""
            return f"ssh://{user}{self.host}{port}{self.path}{run}"
        return f"file:{self.path}{run}"

    @property
    def url(self) -> str | None:
        if self.kind == "wandb" and self.entity and self.project:
            return f"https://wandb.ai/{self.entity}/{self.project}/runs/{self.run_id}"
        return None

    def __str__(self) -> str:
        return self.key


def _check_text(ref: str, what: str = "run reference") -> str:
    if not isinstance(ref, str):
        raise BadInput(f"{what} must be a string, got {type(ref).__name__}")
    ref = ref.strip()
    if not ref:
        raise BadInput(f"{what} is empty: pass a W&B run path, a log file path, or ssh://host/path")
    if len(ref) > MAX_REF_LEN:
        raise BadInput(f"{what} is {len(ref)} characters long (limit {MAX_REF_LEN}): pass a shorter path")
    if any(ord(c) < 32 or ord(c) == 127 for c in ref):
        raise BadInput(f"{what} contains a control character (newline, NUL, ...): pass a plain path or run id")
    return ref


def _remote_path(path: str, raw: str) -> str:
    path = unquote(path)
    if not path.startswith("/"):
        raise BadInput(f"remote path in {raw!r} must be absolute (ssh://host/abs/path or host:/abs/path)")
    return posixpath.normpath(path) if path != "/" else path


_STORE_RUN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_\-]{0,63}$")  # a tracker's run id (MLflow: 32 hex digits)
MLFLOW_PREFIX = "mlflow:"


def _store_run(raw: str, run_id: str) -> str:
    if not _STORE_RUN.match(run_id):
        raise BadInput(f"bad run id {run_id!r} in {raw!r}: letters, digits, '_' and '-' only (an MLflow run id is "
                       f"32 hex digits)")
    return run_id


def _mlflow(raw: str) -> RunRef:
    """``mlflow:<run_id>`` / ``mlflow:latest``: a run of the tracking server the user configured."""
    run = raw[len(MLFLOW_PREFIX):].strip()
    if "/" in run or ":" in run:
        raise BadInput(f"{raw!r}: name an MLflow run as mlflow:<run_id> (or mlflow:latest); the server comes from "
                       f"MLFLOW_TRACKING_URI or your config, never from a run reference")
    return RunRef(raw, "mlflow", run_id=None if run in ("", "latest") else _store_run(raw, run))


def _split_run(raw: str, ref: RunRef) -> RunRef:
    """``path#run_id`` (a store holding several runs: ``mlflow.db#<id>``), when the whole text names no file."""
    path, sep, run = (ref.path or "").rpartition("#")
    if not sep or not path or "/" in run or (ref.kind == "local" and os.path.exists(ref.path or "")):
        return ref  # no run named: a "#" inside a folder's name stays part of the path
    return RunRef(raw, ref.kind, path=path, host=ref.host, user=ref.user, port=ref.port, run_id=_store_run(raw, run))


def parse_run_ref(ref: str, *, entity: str | None = None, project: str | None = None,
                  cwd: str | None = None) -> RunRef:
    """Parse a reference string. W&B entity/project left out of the string come from ``entity``/``project``."""
    raw = _check_text(ref)
    if raw.startswith("-"):
        raise BadInput(f"run reference {raw!r} looks like an option: pass a run path, or ./{raw} for a local file")
    if raw.lower().startswith(MLFLOW_PREFIX) and not raw.lower().startswith("mlflow://"):
        return _mlflow(raw)
    return _split_run(raw, _parse(raw, entity, project, cwd))


def _parse(raw: str, entity: str | None, project: str | None, cwd: str | None) -> RunRef:
    if raw.startswith("ssh://"):
        u = urlparse(raw)
        if not u.hostname:
            raise BadInput(f"no host in {raw!r}: use ssh://[user@]host[:port]/abs/path")
        try:
            port = u.port
        except ValueError:
            raise BadInput(f"bad port in {raw!r}: use ssh://[user@]host[:port]/abs/path") from None
        host = u.hostname
        if not _HOST.match(host) and ":" not in host:
            raise BadInput(f"bad host name {host!r} in {raw!r}")
        frag = f"#{u.fragment}" if u.fragment else ""  # path#run_id: split by _split_run
        return RunRef(raw, "ssh", path=_remote_path((u.path or "") + frag, raw), host=host,
                      user=unquote(u.username) if u.username else None, port=port)
    if re.match(r"^https?://", raw):
        u = urlparse(raw)
        parts = [p for p in u.path.split("/") if p]
        if "#/experiments/" in raw or u.path.rstrip("/").endswith("/mlflow"):
            raise BadInput(f"{raw[:120]!r} looks like an MLflow page: a run reference names a run, not a server; "
                           f"set MLFLOW_TRACKING_URI to the server and pass mlflow:<run_id>")
        # https://wandb.ai/<entity>/<project>/runs/<run_id>[/...]
        if "runs" in parts:
            i = parts.index("runs")
            if i >= 2 and i + 1 < len(parts):
                return _wandb(raw, parts[i - 2], parts[i - 1], parts[i + 1])
        raise BadInput(f"not a W&B run URL: {raw!r} (expected https://wandb.ai/<entity>/<project>/runs/<run_id>)")
    local = os.path.expanduser(raw)
    if not os.path.isabs(local):
        local = os.path.join(cwd or os.getcwd(), local)
    m = _SCP_LIKE.match(raw)
    if m and not os.path.exists(local):
        host = m.group("host").strip("[]")
        return RunRef(raw, "ssh", path=_remote_path(m.group("path"), raw), host=host, user=m.group("user"))
    bare = raw.rpartition("#")[0] or raw  # path#run_id
    looks_local = (raw.startswith(("/", "./", "../", "~")) or os.path.exists(local)
                   or os.path.exists(local.rpartition("#")[0] or local) or bare.lower().endswith(LOG_SUFFIXES)
                   or os.path.basename(bare) in STORE_NAMES)
    if looks_local:
        return RunRef(raw, "local", path=os.path.normpath(local))
    m = _WANDB_PATH.match(raw)
    if m:
        e, p, r = m.groups()
        if e and not p:  # two parts: project/run_id
            e, p = None, e
        return _wandb(raw, e or entity, p or project, r)
    raise BadInput(f"cannot read run reference {raw!r}: use entity/project/run_id, a W&B run URL, "
                   f"a local file path, or ssh://host/abs/path")


def _wandb(raw: str, entity: str | None, project: str | None, run_id: str) -> RunRef:
    for name, value in (("entity", entity), ("project", project), ("run id", run_id)):
        if value is not None and not re.fullmatch(_ID, value):
            raise BadInput(f"bad W&B {name} {value!r} in {raw!r}: letters, digits, '_', '-', '.' only")
    return RunRef(raw, "wandb", entity=entity, project=project, run_id=run_id)
