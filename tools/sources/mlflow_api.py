"""An MLflow tracking server read over its REST API (``/api/2.0/mlflow/...``), with bounded retries.

The server's address comes only from ``MLFLOW_TRACKING_URI`` or the user's own config (``[mlflow] tracking_uri``),
never from a run reference (``mlflow:<run_id>`` names a run, not a host) nor a project's ``.training-check.toml``.
A ``sqlite:///...`` or ``file:...`` tracking URI is read as the local store it names (``mlflow_sqlite.py``,
``mlflow_files.py``). Credentials: ``MLFLOW_TRACKING_TOKEN`` (bearer) or ``MLFLOW_TRACKING_USERNAME`` /
``MLFLOW_TRACKING_PASSWORD`` (basic), from the environment only, never shown.

A check asks ``runs/get`` (the run's state and each metric's latest value), then ``metrics/get-history`` only for
the metrics whose latest value changed since the cursor; the history is ordered by (timestamp, step, value) and
only appended to, so the points after the count already read are the new ones. The server has no "since" filter:
the page that starts at the last point read is asked for (MLflow's page token is an offset) and used when that
point comes back first; otherwise (another server, a rewritten history) the metric's whole history is fetched, in
pages, and the points past the count kept. Every failure is one line: ``SourceUnreachable`` (server
down, timeouts, 5xx, 429 after the retries; an UNREACHABLE verdict, never a training one), ``AuthError`` (401/403),
``RunNotFound``.
"""

from __future__ import annotations

import base64
import json
import os
import time
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import unquote, urlparse

from ..config import Config
from ..errors import AuthError, BadInput, RunNotFound, SourceUnreachable, TrainingCheckError
from ..points import BatchBuilder, parse_number
from ..runref import RunRef
from .base import Progress, ReadResult, RunInfo, Source
from .mlflow_common import StepSequencer, chosen_note, config_subset, metric_value, run_state, total_steps_from_config
from .retry import DEFAULT_POLICY, RetryPolicy, with_retries

CURSOR_VERSION = 1
PAGE = 25_000  # points per get-history page (the server's own cap for bulk reads)
MAX_POINTS_PER_READ = 2_000_000  # points of one part of a long first read
MAX_EXPERIMENTS = 100
T = TypeVar("T")


class _Retryable(SourceUnreachable):
    """A failure worth another try (connection refused or reset, timeout, 5xx, 429)."""


def open_mlflow_server(ref: RunRef, config: Config) -> Source:
    """The source for ``mlflow:<run_id>``: the tracking server the user configured, or the local store its URI
    names."""
    uri = config.mlflow_tracking_uri
    if not uri:
        raise BadInput(f"{ref.raw!r} names a run of an MLflow tracking server, and none is set: set "
                       f"MLFLOW_TRACKING_URI (or [mlflow] tracking_uri in your config), or pass the store's path "
                       f"(mlflow.db, mlruns/)")
    u = urlparse(uri)
    if u.scheme in ("http", "https"):
        return MlflowApiSource(uri, ref.run_id)
    from . import open_path_source
    from .files import LocalFileSystem

    if u.scheme == "sqlite":
        path = unquote(u.path)
        path = path[1:] if path.startswith("//") else path  # sqlite:////abs -> /abs; sqlite:///rel -> rel
        return open_path_source(LocalFileSystem(), os.path.abspath(path), ref.run_id)
    if u.scheme in ("file", ""):
        return open_path_source(LocalFileSystem(), os.path.abspath(unquote(u.path) or uri), ref.run_id)
    raise BadInput(f"MLFLOW_TRACKING_URI's scheme {u.scheme!r} is not read by training-check: use an http(s) "
                   f"server, sqlite:///path/mlflow.db or a local mlruns folder")


class MlflowApiSource:
    """One run of an MLflow tracking server, kind ``"mlflow_api"``."""

    kind = "mlflow_api"

    def __init__(self, base_url: str, run_id: str | None, *, policy: RetryPolicy = DEFAULT_POLICY):
        import httpx

        u = urlparse(base_url)
        self.host = f"{u.scheme}://{u.hostname}" + (f":{u.port}" if u.port else "")
        self.policy = policy
        headers, auth = {}, None
        token = os.environ.get("MLFLOW_TRACKING_TOKEN")
        if token:
            headers["Authorization"] = f"Bearer {token}"
        elif os.environ.get("MLFLOW_TRACKING_USERNAME"):
            auth = (os.environ["MLFLOW_TRACKING_USERNAME"], os.environ.get("MLFLOW_TRACKING_PASSWORD", ""))
        self._client = httpx.Client(base_url=base_url.rstrip("/") + "/api/2.0/mlflow/", headers=headers, auth=auth,
                                    timeout=policy.attempt_timeout_s, follow_redirects=False)
        self.run_id, self.chosen = self._choose(run_id)
        self.source_id = f"mlflow_api:{self.host}#{self.run_id}"

    def describe(self) -> str:
        return f"MLflow run {self.run_id} on {self.host}"

    # -- HTTP, bounded --------------------------------------------------------------------------
    def _call(self, method: str, path: str, what: str, **kw: Any) -> dict:
        def once() -> dict:
            import httpx

            try:
                resp = self._client.request(method, path, **kw)
            except httpx.TimeoutException:
                raise _Retryable(f"the MLflow server {self.host} did not answer in "
                                 f"{self.policy.attempt_timeout_s:g} s while {what}") from None
            except httpx.HTTPError as e:
                reason = " ".join(str(e).split())[:160] or type(e).__name__
                raise _Retryable(f"cannot reach the MLflow server {self.host} while {what}: {reason}") from None
            if resp.status_code in (401, 403):
                raise AuthError(f"the MLflow server {self.host} refused the credentials (HTTP {resp.status_code}) "
                                f"while {what}: set MLFLOW_TRACKING_TOKEN or MLFLOW_TRACKING_USERNAME/PASSWORD")
            if resp.status_code == 429 or resp.status_code >= 500:
                raise _Retryable(f"the MLflow server {self.host} answered HTTP {resp.status_code} while {what}")
            try:
                body = resp.json()
            except ValueError:
                body = None
            if resp.status_code == 404 or (isinstance(body, dict)
                                           and body.get("error_code") == "RESOURCE_DOES_NOT_EXIST"):
                raise RunNotFound(f"the MLflow server {self.host} has no such run while {what} (deleted, or a wrong "
                                  f"run id)")
            if resp.status_code >= 400 or not isinstance(body, dict):
                msg = body.get("message") if isinstance(body, dict) else None
                raise SourceUnreachable(f"the MLflow server {self.host} answered HTTP {resp.status_code} while "
                                        f"{what}" + (f": {str(msg)[:160]}" if msg else ""))
            return body

        return _with_retries(once, self.policy)

    def _choose(self, run_id: str | None) -> tuple[str, str]:
        if run_id:
            run = self._call("GET", "runs/get", f"looking up run {run_id}", params={"run_id": run_id})
            info = (run.get("run") or {}).get("info") or {}
            return run_id, chosen_note(run_id, info.get("run_name"), None, self.host, None, None)
        exps = self._call("POST", "experiments/search", "listing experiments",
                          json={"max_results": MAX_EXPERIMENTS, "view_type": "ACTIVE_ONLY"})
        ids = [str(e.get("experiment_id")) for e in exps.get("experiments") or [] if isinstance(e, dict)]
        if not ids:
            raise RunNotFound(f"the MLflow server {self.host} has no experiment yet")
        found = self._call("POST", "runs/search", "finding the latest run",
                           json={"experiment_ids": ids, "max_results": 1, "run_view_type": "ACTIVE_ONLY",
                                 "order_by": ["attributes.start_time DESC"]})
        runs = found.get("runs") or []
        if not runs:
            raise RunNotFound(f"the MLflow server {self.host} has no run yet")
        info = runs[0].get("info") or {}
        rid = str(info.get("run_id") or info.get("run_uuid"))
        return rid, chosen_note(rid, info.get("run_name"), None, self.host, None, "mlflow:<run_id>")

    # -- the read -----------------------------------------------------------------------------
    def read(self, cursor: dict | None = None, progress: Progress | None = None) -> ReadResult:
        cur = cursor if cursor and cursor.get("v") == CURSOR_VERSION and cursor.get("run") == self.run_id else None
        keys: dict[str, dict] = {k: dict(v) for k, v in ((cur or {}).get("keys") or {}).items()}
        run = self._call("GET", "runs/get", f"reading run {self.run_id}", params={"run_id": self.run_id})
        body = run.get("run") or {}
        info_d, data = body.get("info") or {}, body.get("data") or {}
        latest = {str(m.get("key")): m for m in data.get("metrics") or [] if isinstance(m, dict) and m.get("key")}
        builder = BatchBuilder()
        reset, more, total = False, False, 0
        for key in sorted(latest):
            m = latest[key]
            mark = [m.get("timestamp"), m.get("step"), str(m.get("value"))]
            state = keys.get(key) or {"n": 0}
            if state.get("last") == mark:
                continue
            if total >= MAX_POINTS_PER_READ:
                more = True
                break
            n = int(state.get("n", 0))
            fresh, count = self._new_points(key, n, state.get("tail"), progress)
            if count < n:
                reset = True  # the history shrank: rewritten; every metric re-read from the start
                break
            seq = StepSequencer({key: int(state.get("seq", 0))})
            for p in fresh:
                value = p.get("value")
                v = parse_number(value) if isinstance(value, str) else value
                step = p.get("step", 0)
                if not isinstance(v, (int, float)) or not isinstance(step, (int, str)):
                    continue
                try:
                    builder.add(seq.step(key, int(step)), key, metric_value(float(v)))
                except (TypeError, ValueError, OverflowError):
                    continue
            total += len(fresh)
            tail = _mark(fresh[-1]) if fresh else state.get("tail")
            keys[key] = {"n": count, "last": mark, "seq": seq.state.get(key, 0), "tail": tail}
            builder.flush()
        if reset:
            again = self.read(None, progress)
            again.reset = True
            again.notes.insert(0, f"a metric history of run {self.run_id} shrank: re-read from the start")
            return again
        params = {str(p.get("key")): _number(p.get("value")) for p in (data.get("params") or [])[:2000]
                  if isinstance(p, dict)}
        info = RunInfo(name=info_d.get("run_name"), state=run_state(info_d.get("status")),
                       config=config_subset(params), total_steps=total_steps_from_config(params))
        seq_all = StepSequencer({k: int(v.get("seq", 0)) for k, v in keys.items()})
        notes = [n for n in (seq_all.note(),) if n]
        return ReadResult(builder.build(), {"v": CURSOR_VERSION, "run": self.run_id, "keys": keys}, info=info,
                          notes=notes, more=more)

    def _new_points(self, key: str, n: int, tail: list | None, progress: Progress | None) -> tuple[list[dict], int]:
        """(the points of ``key``'s history after the ``n`` already read, the history's length). From the page that
        starts at the last point read (MLflow's page token is an offset) when the server gives that point back
        there; else the whole history, in pages."""
        if n > 0 and tail:
            token = base64.b64encode(json.dumps({"offset": n - 1}).encode()).decode()
            try:
                page = self._history(key, progress, token)
            except (RunNotFound, AuthError):
                raise
            except TrainingCheckError:
                page = []
            if page and _mark(page[0]) == tail:
                return page[1:], n - 1 + len(page)
        whole = self._history(key, progress)
        return whole[n:], len(whole)

    def _history(self, key: str, progress: Progress | None, token: str | None = None) -> list[dict]:
        out: list[dict] = []
        while True:
            params: dict[str, Any] = {"run_id": self.run_id, "metric_key": key, "max_results": PAGE}
            if token:
                params["page_token"] = token
            page = self._call("GET", "metrics/get-history", f"reading the history of {key[:60]!r}", params=params)
            out += [m for m in page.get("metrics") or [] if isinstance(m, dict)]
            token = page.get("next_page_token")
            if not token or len(out) > 50 * MAX_POINTS_PER_READ:
                return out
            if progress is not None:
                progress(float(len(out)), None, f"reading MLflow history of {key[:60]}")


def _mark(point: dict) -> list:
    """A history point as the cursor keeps it, to know it again."""
    return [point.get("timestamp"), point.get("step"), str(point.get("value"))]


def _number(text: object) -> object:
    s = str(text)
    for conv in (int, float):
        try:
            return conv(s)
        except ValueError:
            pass
    return s


def _with_retries(fn: Callable[[], T], policy: RetryPolicy, sleep: Callable[[float], None] = time.sleep) -> T:
    """``fn()``, tried again on a retryable failure with doubling waits, within ``policy``'s tries and time."""
    return with_retries(fn, policy, lambda e: (e, isinstance(e, _Retryable)), gave_up_as=SourceUnreachable,
                        sleep=sleep)
