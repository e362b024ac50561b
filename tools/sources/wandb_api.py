"""W&B runs read through the public API (``wandb.Api``), incrementally, with bounded retries.

History is every logged row at full resolution after the last step read, without ``keys`` (keys logged in separate
``wandb.log`` calls each keep their own step), whereas ``history(keys=[a, b])`` keeps only rows holding all keys and
``history()`` is sampled (spikes lost). The rows are asked for with the very GraphQL query ``Run.scan_history`` has
wandb-core send (``HistoryPage``: ``history(minStep, maxStep, samples: pageSize)`` over windows of ``pageSize`` steps,
so no window can hold more rows than it returns), sent through the same ``wandb.Api`` client
(``ServiceApi.execute_graphql``), each answer's text read into points by the C kernel as it comes
(wandb_history.py; without the kernel each row parsed from its line): ``scan_history`` would hand every value of every
row over one by one (about 8 times the cost a row). Without that client call (another wandb) or the run's
last step, ``scan_history`` reads them. Only ``WandbClient`` touches ``wandb.Api``; everything else works on plain
rows.
Every failure becomes a one-line ``SourceUnreachable`` (``AuthError`` for a
refused key) so ``load_run`` can fall back to a log; the API key never appears
in a message.
"""

from __future__ import annotations

import inspect
import json
import math
import netrc
import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, TypeVar
from urllib.parse import urlparse

import numpy as np

from ..config import Config
from ..errors import AuthError, BadInput, SourceUnreachable, TrainingCheckError
from ..parsers.kernel import _KERNEL
from ..points import BatchBuilder
from ..redact import redact, remember_secret
from ..runref import RunRef
from .base import Progress, ReadResult, RunInfo
from .retry import DEFAULT_POLICY, RetryPolicy, with_retries
from .wandb_local import config_subset, total_steps_from_config

DEFAULT_BASE_URL = "https://api.wandb.ai"
AUTH_MESSAGE = "W&B refused the API key: run `wandb login` or set WANDB_API_KEY"
LISTED_FRESH_S = 30.0  # a run's metadata from a project listing this recent stands in for its own request
PAGE_STEPS = 1000  # steps a history page covers (wandb's scan_history page): at most as many rows, all returned
HISTORY_PAGE = """query HistoryPage($entity: String!, $project: String!, $run: String!, $minStep: Int64!,
    $maxStep: Int64!, $pageSize: Int!) {
  project(name: $project, entityName: $entity) {
    run(name: $run) { history(minStep: $minStep, maxStep: $maxStep, samples: $pageSize) }
  }
}"""  # the query wandb-core sends for Run.scan_history (wandb 0.31), the full rows of a window of steps
T = TypeVar("T")


class WandbRunGone(SourceUnreachable):
    """The W&B run does not exist (deleted, or a wrong entity/project/id)."""


class WandbTimeout(SourceUnreachable):
    """W&B did not answer in time."""


class WandbServerError(SourceUnreachable):
    """W&B answered with a server error (5xx) or could not be connected to."""


class WandbRateLimited(SourceUnreachable):
    """W&B asked us to slow down (HTTP 429)."""


@dataclass
class WandbRunMeta:
    """What the API says about a run besides its history."""

    name: str | None
    url: str | None
    state: str | None
    config: dict = field(default_factory=dict)
    summary: dict = field(default_factory=dict)
    storage_id: str | None = None
    last_step: int | None = None


# -- the API key ---------------------------------------------------------------------------------

def resolve_api_key(base_url: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The W&B API key: ``WANDB_API_KEY``, else the ``~/.netrc`` entry ``wandb login`` wrote for the host."""
    env = os.environ if env is None else env
    key = env.get("WANDB_API_KEY", "").strip()
    if key:
        return key
    host = urlparse(base_url or env.get("WANDB_BASE_URL") or DEFAULT_BASE_URL).hostname or "api.wandb.ai"
    path = env.get("NETRC") or os.path.join(os.path.expanduser("~"), ".netrc")
    try:
        auth = netrc.netrc(path).authenticators(host)
    except (OSError, netrc.NetrcParseError):
        auth = None
    if auth and auth[2]:
        remember_secret(auth[2], "netrc:wandb")  # a key read from a file is a secret like the variable's
        return auth[2]
    raise AuthError("no W&B API key found: run `wandb login` or set WANDB_API_KEY")


# -- errors ----------------------------------------------------------------------------------------

def _http_status(exc: BaseException) -> int | None:
    seen: set[int] = set()
    todo: list[Any] = [exc]
    while todo:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        resp = getattr(e, "response", None)
        for attr in ("http_status", "status_code"):
            status = getattr(resp, attr, None)
            if isinstance(status, int) and status:
                return status
        todo.extend([getattr(e, "exc", None), e.__cause__, e.__context__])
    return None


def classify_error(exc: BaseException, what: str, api_key: str | None = None) -> SourceUnreachable:
    """One line for a failed W&B call: AuthError for a refused key, else a SourceUnreachable subclass."""
    if isinstance(exc, SourceUnreachable):
        return exc
    text = redact(" ".join(str(exc).split()), {"WANDB_API_KEY": api_key})
    low = text.lower()
    status = _http_status(exc)
    short = text if len(text) <= 200 else text[:200] + "..."
    if "did not respond in time" in low or "timed out" in low or "timeout" in low or status in (408, 504):
        return WandbTimeout(f"W&B did not answer in time while {what}")
    if status in (401, 403) or (status is None and (
            "401" in low or "403" in low or "unauthorized" in low or "permission denied" in low
            or "failed to verify credentials" in low)):
        return AuthError(AUTH_MESSAGE)
    if status == 429 or "429" in low or "too many requests" in low or "rate limit" in low:
        return WandbRateLimited(f"W&B rate-limited the requests while {what} (HTTP 429); try again in a minute")
    if status == 404 or "could not find run" in low or "not found" in low or "does not exist" in low:
        return WandbRunGone(f"W&B has no such run while {what} (deleted, or a wrong entity/project/run id)")
    if (status and status >= 500) or any(s in low for s in ("500", "502", "503", "bad gateway", "internal server error",
                                                             "service unavailable")):
        return WandbServerError(f"W&B answered with a server error while {what}"
                                + (f" (HTTP {status})" if status else ""))
    if "connection" in low or "refused" in low or "resolve" in low or "unreachable" in low:
        return WandbServerError(f"cannot connect to W&B while {what}: {short}")
    return SourceUnreachable(f"W&B API error while {what}: {short}")


_RETRYABLE = (WandbTimeout, WandbServerError, WandbRateLimited)


def call_with_retries(fn: Callable[[], T], policy: RetryPolicy, what: str, api_key: str | None = None,
                      sleep: Callable[[float], None] = time.sleep) -> T:
    """``fn()``, retried on timeouts, 5xx and 429 with doubling waits, within ``policy``'s attempts and time."""

    def failure(e: Exception) -> tuple[Exception, bool]:
        if isinstance(e, TrainingCheckError) and not isinstance(e, SourceUnreachable):
            return e, False
        # wandb raises CommError, ValueError, requests errors... map them all
        err = e if isinstance(e, SourceUnreachable) else classify_error(e, what, api_key)
        return err, isinstance(err, _RETRYABLE)

    return with_retries(fn, policy, failure, sleep=sleep)


# -- the adapter: the only code that touches wandb.Api -----------------------------------------------

class WandbClient:
    """A thin adapter over ``wandb.Api``: run metadata, history rows after a step, and stop."""

    def __init__(self, api_key: str, base_url: str | None = None, timeout_s: float = 3):
        import wandb

        self.api_key = api_key
        # Always explicit: wandb.Api would otherwise take base_url from a ./wandb/settings file in the working
        # folder (a cloned repository's), and send the key there.
        overrides = {"base_url": base_url or os.environ.get("WANDB_BASE_URL") or DEFAULT_BASE_URL}
        try:
            # wandb.Api takes whole seconds
            self._api = wandb.Api(overrides=overrides, api_key=api_key, timeout=math.ceil(timeout_s))
        except Exception as e:
            raise classify_error(e, "connecting to W&B", api_key) from None
        self._runs: dict[str, Any] = {}
        self._listed: dict[str, float] = {}  # path -> when a project listing brought the run's metadata

    def _run(self, path: str, refresh: bool = False):
        run = self._runs.get(path)
        if run is None:
            run = self._runs[path] = self._api.run(path)
        elif refresh:
            run.load(force=True)
        return run

    def run_meta(self, entity: str, project: str, run_id: str) -> WandbRunMeta:
        """The run's metadata: from the project listing that just named it (once, within ``LISTED_FRESH_S``), else
        asked for afresh - so a sweep of a project costs the listing's pages, not a request per run, when nothing
        is new."""
        path = f"{entity}/{project}/{run_id}"
        listed = self._listed.pop(path, None)
        run = self._run(path, refresh=listed is None or time.monotonic() - listed > LISTED_FRESH_S)
        summary = {}
        try:
            summary = {k: v for k, v in dict(run.summary).items() if isinstance(v, (int, float, str, bool))}
        except Exception:  # a summary that does not parse leaves the rest of the metadata usable
            summary = {}
        hk = run._attrs.get("historyKeys") if hasattr(run, "_attrs") else None
        last_step = hk.get("lastStep") if isinstance(hk, dict) else None
        return WandbRunMeta(name=run.display_name or run.name, url=run.url, state=run.state,
                            config=dict(run.config or {}), summary=summary, storage_id=run.storage_id,
                            last_step=int(last_step) if isinstance(last_step, (int, float)) else None)

    def history_rows(self, entity: str, project: str, run_id: str, min_step: int, last_step: int | None = None,
                     page_size: int = PAGE_STEPS) -> Iterator[dict]:
        """The run's history rows from ``min_step`` on, in step order: the ``HistoryPage`` query page by page up to
        ``last_step`` (the run's, from its metadata), else ``scan_history``."""
        pages = self.history_pages(entity, project, run_id, min_step, last_step, page_size)
        if pages is None:
            run = self._run(f"{entity}/{project}/{run_id}")
            return iter(run.scan_history(min_step=min_step, page_size=page_size, use_cache=False))
        return (row for page in pages for row in history_page_rows(page_history(json.loads(page))
                                                                   if isinstance(page, str) else page))

    def history_pages(self, entity: str, project: str, run_id: str, min_step: int, last_step: int | None,
                      page_size: int = PAGE_STEPS) -> Iterator[Any] | None:
        """The run's history from ``min_step`` on as the ``HistoryPage`` answers' lists of row lines, page by page
        up to ``last_step``; None without the run's last step or the client call (then ``history_rows``)."""
        execute = getattr(getattr(self._api, "_service_api", None), "execute_graphql", None)
        if last_step is None or not callable(execute):
            return None
        return self._pages(execute, entity, project, run_id, min_step, last_step, page_size)

    @staticmethod
    def _pages(execute: Callable[..., Any], entity: str, project: str, run_id: str, min_step: int, last_step: int,
               page_size: int) -> Iterator[Any]:
        """Each answer's history lines; with the kernel, each answer's text as it came (``parse=str``: the kernel
        reads it, wandb_history.HistoryPoints.add_page, else ``page_history`` of its JSON)."""
        raw = {"parse": str} if _KERNEL is not None and _takes_parse(execute) else {}
        for lo in range(max(min_step, 0), last_step + 1, page_size):
            data = execute(HISTORY_PAGE, {"entity": entity, "project": project, "run": run_id, "minStep": lo,
                                          "maxStep": lo + page_size, "pageSize": page_size}, **raw)
            yield data if raw and isinstance(data, str) else page_history(data)

    def stop(self, entity: str, project: str, run_id: str) -> None:
        self._run(f"{entity}/{project}/{run_id}").stop()

    def run_ids(self, entity: str, project: str, state: str | None = None, limit: int = 1000) -> list[str]:
        """Ids of a project's runs (only those in ``state`` when given), newest first, at most ``limit``. Each run's
        full metadata comes with the listing (50 runs a page, W&B's default, not a request per run) and stands for
        the next ``run_meta`` of the run."""
        filters = {"state": state} if state else {}
        out: list[str] = []
        now = time.monotonic()
        self._api.flush()  # wandb.Api keeps each listing it made: a later one would never see new runs or steps
        for run in self._api.runs(f"{entity}/{project}", filters=filters, per_page=min(50, limit), lazy=False):
            out.append(run.id)
            path = f"{entity}/{project}/{run.id}"
            self._runs[path] = run
            self._listed[path] = now
            if len(out) >= limit:
                break
        return out


def _takes_parse(execute: Callable[..., Any]) -> bool:
    """Whether wandb's ``execute_graphql`` hands the answer's text to a ``parse`` of ours (wandb 0.31)."""
    try:
        return "parse" in inspect.signature(execute).parameters
    except (TypeError, ValueError):
        return False


def page_history(data: Any) -> Any:
    """A decoded ``HistoryPage`` answer's history lines; LookupError when it names no run (deleted, a wrong id)."""
    run = ((data or {}).get("project") or {}).get("run") if isinstance(data, dict) else None
    if not isinstance(run, dict):
        raise LookupError("could not find run")
    return run.get("history")


_CLIENTS: dict[tuple[str | None, str, float], WandbClient] = {}
_CLIENTS_LOCK = threading.Lock()


def client_for(api_key: str, base_url: str | None = None, timeout_s: float = 3) -> WandbClient:
    """One client per (base URL, key, timeout) in this process: ``wandb.Api()`` verifies the key on creation."""
    key = (base_url or os.environ.get("WANDB_BASE_URL"), api_key, timeout_s)
    with _CLIENTS_LOCK:
        client = _CLIENTS.get(key)
        if client is None:
            client = _CLIENTS[key] = WandbClient(api_key, base_url, timeout_s)
        return client


# -- rows to points ----------------------------------------------------------------------------------

_NONFINITE = {"nan": math.nan, "-nan": math.nan, "infinity": math.inf, "inf": math.inf, "+infinity": math.inf,
              "-infinity": -math.inf, "-inf": -math.inf}


def row_value(value: Any) -> float | None:
    """A metric value from a history row: numbers, and NaN/Infinity however the API spells them; else None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        return _NONFINITE.get(value.strip().lower())
    return None


_DECODE = json.JSONDecoder().raw_decode  # one row's object from its line, without json.loads' checks per call


def history_page_rows(lines: Any) -> list[dict]:
    """A ``HistoryPage`` answer's rows, each line one JSON object; a line that is not exactly one costs that line
    only."""
    if not isinstance(lines, list):
        return []
    rows: list[dict] = []
    add = rows.append
    for t in lines:
        if type(t) is not str and not isinstance(t, str):
            continue
        try:
            row, end = _DECODE(t)
        except (ValueError, RecursionError):
            continue
        if type(row) is dict and (end == len(t) or not t[end:].strip()):
            add(row)
    return rows


def add_history_rows(rows: Iterable[dict], builder: BatchBuilder, after_step: int = -1) -> int:
    """Add each row's metrics at its ``_step`` (rows at or before ``after_step`` skipped); returns the last step.
    Rows of a few shapes (the same keys, whole-number steps, numbers only: a page as W&B keeps it) go column by
    column (``_add_columns``); any other rows one by one, with the very same points, order and names."""
    rows = rows if isinstance(rows, list) else list(rows)
    last = _add_columns(rows, builder, after_step)
    return last if last is not None else _add_rows(rows, builder, after_step)


_IGNORED_PREFIXES = ("system/", "system.")
MAX_SHAPES = 16  # key sets of one read's rows taken column by column (train rows, eval rows, ...)


def _ignored(key: str) -> bool:
    """W&B's own keys (_runtime, _timestamp...) and system metrics: never points."""
    return key[:1] == "_" or key.startswith(_IGNORED_PREFIXES)


def _add_columns(rows: list[dict], builder: BatchBuilder, after_step: int) -> int | None:
    """``_add_rows`` for rows of at most ``MAX_SHAPES`` key sets, each holding an int ``_step`` and only ints and
    floats: each shape's rows transposed at once, each metric's points in row order, each metric named in the order
    the row-by-row pass names it (its first row, then its place in that row); None (nothing added) for any other
    rows."""
    shapes: dict[tuple[str, ...], list[int]] = {}
    for i, keys in enumerate(map(tuple, rows)):
        shape = shapes.get(keys)
        if shape is None:
            if len(shapes) >= MAX_SHAPES:
                return None
            shape = shapes[keys] = []
        shape.append(i)
    last = after_step
    found: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}  # key -> (row index, step, value) pieces
    first: dict[str, tuple[int, int]] = {}  # key -> (its first row, its place there)
    for keys, index in shapes.items():
        if "_step" not in keys:
            continue  # rows without a step add nothing
        group = [rows[i] for i in index]
        cols = [list(map(itemgetter(k), group)) for k in keys]
        steps_col = cols[keys.index("_step")]
        if set(map(type, steps_col)) != {int}:
            return None  # a float, a bool or no number as the step: the row-by-row pass
        try:
            steps = np.fromiter(steps_col, np.int64, len(steps_col))
        except OverflowError:
            return None
        valid = steps > after_step
        if not valid.any():
            continue
        last = max(last, int(steps[valid].max()))
        at = np.asarray(index, dtype=np.int64)[valid]
        first_row = int(at[0])
        for j, key in enumerate(keys):
            if key == "_step" or _ignored(key):
                continue
            col = cols[j]
            if not set(map(type, col)) <= {float, int}:
                return None  # a string, a bool, a null, a table: the row-by-row pass
            try:
                values = np.fromiter(map(float, col), np.float64, len(col))
            except OverflowError:
                return None
            found.setdefault(key, []).append((at, steps[valid], values[valid]))
            if key not in first or first[key] > (first_row, j):
                first[key] = (first_row, j)
    for key in sorted(first, key=first.__getitem__):
        pieces = found[key]
        if len(pieces) == 1:
            builder.extend(key, pieces[0][1], pieces[0][2])
            continue
        order = np.argsort(np.concatenate([p[0] for p in pieces]), kind="stable")
        builder.extend(key, np.concatenate([p[1] for p in pieces])[order],
                       np.concatenate([p[2] for p in pieces])[order])
    return last


def _add_rows(rows: Iterable[dict], builder: BatchBuilder, after_step: int = -1) -> int:
    """``add_history_rows`` row by row, value by value (any rows)."""
    last = after_step
    columns: dict[str, tuple[list[int], list[float]]] = {}  # each metric's lists, looked up once a read
    ignored: set[str] = set()  # W&B's own keys (_runtime, _timestamp...) and system metrics
    for row in rows:
        step = row.get("_step")
        if not isinstance(step, (int, float)) or isinstance(step, bool) or step <= after_step:
            continue
        step = int(step)
        for key, value in row.items():
            v = value if type(value) is float else row_value(value)
            if v is None or key in ignored:
                continue
            c = columns.get(key)
            if c is None:
                if _ignored(key):
                    ignored.add(key)
                    continue
                c = columns[key] = builder.column(key)
            c[0].append(step)
            c[1].append(v)
        last = max(last, step)
    return last


# -- the source ---------------------------------------------------------------------------------------

class WandbApiSource:
    """A W&B run read through the API; the cursor is the last step returned."""

    kind = "wandb_api"

    def __init__(self, ref: RunRef, config: Config, *, client: WandbClient | None = None,
                 policy: RetryPolicy = DEFAULT_POLICY, base_url: str | None = None):
        if not (ref.entity and ref.project and ref.run_id):
            raise BadInput(f"W&B run {ref.run_id!r} needs an entity and a project: pass entity/project/run_id, "
                           f"or set WANDB_ENTITY and WANDB_PROJECT (or .training-check.toml)")
        self.ref = ref
        self.config = config
        self.policy = policy
        self.base_url = base_url or os.environ.get("WANDB_BASE_URL") or getattr(config, "wandb_base_url", None)
        self._client = client
        self.source_id = f"wandb_api:{ref.entity}/{ref.project}/{ref.run_id}"

    def describe(self) -> str:
        return f"W&B run {self.ref.entity}/{self.ref.project}/{self.ref.run_id} (API)"

    def client(self) -> WandbClient:
        if self._client is None:
            key = resolve_api_key(self.base_url)
            self._client = call_with_retries(
                lambda: client_for(key, self.base_url, self.policy.attempt_timeout_s), self.policy,
                "connecting to W&B", key)
        return self._client

    def read(self, cursor: dict | None, progress: Progress | None = None) -> ReadResult:
        last_step = int((cursor or {}).get("last_step", -1))
        client = self.client()
        e, p, r = self.ref.entity, self.ref.project, self.ref.run_id
        assert e and p and r
        what = f"reading W&B run {e}/{p}/{r}"
        meta = call_with_retries(lambda: client.run_meta(e, p, r), self.policy, what, client.api_key)
        info = RunInfo(name=meta.name, url=meta.url or self.ref.url, state=meta.state,
                       config=config_subset(meta.config), total_steps=total_steps_from_config(meta.config))
        builder = BatchBuilder()
        notes: list[str] = []
        if meta.last_step is not None and meta.last_step <= last_step:
            return ReadResult(builder.build(), {"last_step": last_step}, info=info)
        # Rows (one per step) arrive in step order, a page at a time, each page's rows read into points as it
        # comes (wandb_history.py: the C kernel, with the GIL released); a retry resumes after the last row
        # received, and a scan that fails for good keeps the rows received so far (the cursor moves only past those).
        from .wandb_history import HistoryPoints

        points = HistoryPoints(last_step)

        def scan() -> None:
            start = points.resume + 1 if points.resume is not None else last_step + 1
            pages = client.history_pages(e, p, r, start, meta.last_step)
            if pages is None:  # wandb's scan_history: rows one by one, taken a thousand at a time
                batch: list[dict] = []
                try:
                    for row in client.history_rows(e, p, r, start, meta.last_step):
                        batch.append(row)
                        if len(batch) >= 1000:
                            points.add_rows(batch)
                            batch = []
                            if progress and points.rows % 10000 == 0:
                                progress(float(points.rows), None, "reading W&B history")
                finally:  # the rows received before a failure count
                    points.add_rows(batch)
                return
            for page in pages:
                before = points.rows
                points.add_page(page)
                if progress and points.rows // 10000 > before // 10000:
                    progress(float(points.rows), None, "reading W&B history")

        try:
            call_with_retries(scan, self.policy, what, client.api_key)
        except SourceUnreachable as err:
            if not points.rows:
                raise
            notes.append(f"W&B history read stopped early ({err}); the rest comes with the next check")
        new_last = points.into(builder)
        return ReadResult(builder.build(), {"last_step": new_last}, info=info, notes=notes)


def stop_wandb_run(ref: RunRef, config: Config, *, client: WandbClient | None = None,
                   policy: RetryPolicy = DEFAULT_POLICY, base_url: str | None = None) -> str:
    """Ask W&B to stop a run (``Run.stop()``: the App's "Stop run" flag, picked up by the run's heartbeat)."""
    source = WandbApiSource(ref, config, client=client, policy=policy, base_url=base_url)
    c = source.client()
    e, p, r = ref.entity, ref.project, ref.run_id
    assert e and p and r
    call_with_retries(lambda: c.stop(e, p, r), policy, f"stopping W&B run {e}/{p}/{r}", c.api_key)
    return (f"asked W&B to stop run {e}/{p}/{r}; the run stops at its next heartbeat "
            f"(the training process must be online with W&B to see it)")


def list_project_runs(project: str, config: Config, state: str | None = "running", *,
                      policy: RetryPolicy = DEFAULT_POLICY, base_url: str | None = None) -> list[str]:
    """``entity/project/run_id`` of the project's runs in ``state`` (all when None), for sweeps of many runs."""
    parts = [p for p in project.strip().strip("/").split("/") if p]
    if len(parts) == 1 and config.wandb_entity:
        parts = [config.wandb_entity, parts[0]]
    if len(parts) != 2 or not all(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.\-]*", p) for p in parts):
        raise BadInput(f"project must be entity/project, got {project[:100]!r} (or set WANDB_ENTITY)")
    entity, name = parts
    base_url = base_url or os.environ.get("WANDB_BASE_URL") or getattr(config, "wandb_base_url", None)
    api_key = resolve_api_key(base_url)
    c = client_for(api_key, base_url, policy.attempt_timeout_s)
    ids = call_with_retries(lambda: c.run_ids(entity, name, state), policy, f"listing the runs of W&B project "
                            f"{entity}/{name}", api_key)
    return [f"{entity}/{name}/{i}" for i in ids]
