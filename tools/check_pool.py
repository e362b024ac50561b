"""Many local runs checked on every core: worker processes for a many-run check (``assess_runs``).

Checking a local run is mostly Python (the format's detection, the history, the signals), so threads share one
core; a call that covers at least ``POOL_MIN_RUNS`` local runs on two or more cores that are not crowded hands each
local run's check to a pool of worker processes instead, one per core; a W&B run whose project listing says it
logged new steps goes there too, a few at a time on a worker's threads, with the listing's description of the run
(reading its history and judging it is this machine's work; one run parses while the others wait for W&B). Other
remote runs, and W&B runs with nothing new, stay on the caller's threads (their time is the network's). A worker
makes the very check a thread makes (``assess_runs.check_and_collect``) with:

- its own store connection to the same file (SQLite in WAL mode serves several processes; each write is one
  transaction, as in a thread);
- the caller's environment and every secret the caller knows (``redact.known_state``), so what it stores is
  redacted the same way;
- its stdout sent to stderr and both redacted (stdout may be the MCP stdio transport), its log records redacted.

Workers start from a fork server (``forkserver``; ``spawn`` where there is none), never by forking the caller (a
server's other threads may hold locks). A pool that cannot start, or a worker that dies, leaves the runs it had
not returned to the caller's threads: no run is lost, the answers are the same.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
from collections.abc import Iterable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from . import redact
from .config import Config
from .errors import TrainingCheckError
from .runref import parse_run_ref
from .store import Store

if TYPE_CHECKING:
    from .assess_runs import RunLine
    from .sweep.collect import RunObjectives

POOL_MIN_RUNS = 64  # local runs in one call before worker processes pay for their start (about 0.5 s of imports)
BUSY_LIMIT = 3.0  # load per core from which a sweep stays on threads (bench/sweep_scale.py, 2 shared cores: two
# workers took 0.4-1.2x the threads' time at load 4-5 (median 1.0x), 1.4-2x at load 8-14)
PRELOAD = ["training_check.tools.assess_runs", "training_check.tools.assess", "training_check.tools.measure",
           "training_check.tools.sources.logfile"]  # imported once by the fork server, not by every worker
WORKER_THREADS = 4  # W&B runs a worker checks at once (one parses while the others wait for W&B's answers)
PRELOAD_WANDB = ["training_check.tools.sources.wandb_api", "wandb", "wandb.apis.public"]  # a second or two each


def cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _kind(run: str, config: Config) -> str | None:
    try:
        return parse_run_ref(run.strip(), entity=config.wandb_entity, project=config.wandb_project).kind
    except TrainingCheckError:
        return None


def is_local(run: str, config: Config) -> bool:
    """Whether ``run`` names a run on this machine (a file or folder here), the kind a worker process speeds up."""
    return _kind(run, config) == "local"


POOLED_KINDS = ("local", "wandb")  # runs whose check is mostly this machine's work when there is much to read


def for_worker(run: str, config: Config, store: Store) -> tuple[bool, dict | None]:
    """(whether a worker process should check ``run``, what it needs besides the reference): a local run, always;
    a W&B run only when the project listing this process just made says it logged new steps (its reading and
    judging is then this machine's work, the server's answers waited for on the worker's threads), with the
    listing's description of the run (so the worker asks for no metadata); any other run stays on the caller's
    threads (its time is the network's)."""
    try:
        ref = parse_run_ref(run.strip(), entity=config.wandb_entity, project=config.wandb_project)
    except TrainingCheckError:
        return False, None
    if ref.kind == "local":
        return True, None
    if ref.kind != "wandb" or not (ref.entity and ref.project and ref.run_id):
        return False, None
    from .sources.wandb_api import listed_news

    try:
        state = store.source_state(f"wandb_api:{ref.entity}/{ref.project}/{ref.run_id}")
        last = json.loads(state[0]).get("last_step") if state and state[0] else None
    except (TrainingCheckError, ValueError, AttributeError):
        return False, None
    attrs = listed_news(ref, int(last) if isinstance(last, (int, float)) else None)
    return attrs is not None, attrs


def busy() -> float:
    """Processes waiting for a core, per core (the 1-minute load average over the cores); 0.0 where unknown."""
    try:
        return os.getloadavg()[0] / cores()
    except (AttributeError, OSError):
        return 0.0


def pool_size(targets: Iterable[str], config: Config, max_concurrency: int, workers: int | None = None) -> int:
    """Worker processes for a check of ``targets`` (0: none, every run on the caller's threads). ``workers`` given:
    that many (0: none) when any run is local. Else one per core, at most ``max_concurrency``, when at least
    ``POOL_MIN_RUNS`` runs are local, there are two or more cores and the machine is not crowded (``BUSY_LIMIT``):
    on cores every process already waits for, more processes only wait longer (and take more of the cores of the
    training a check watches)."""
    local = sum(1 for r in targets if _kind(r, config) in POOLED_KINDS)
    if workers is not None:
        return max(0, workers) if local else 0
    n = min(cores(), max_concurrency)
    return n if n >= 2 and local >= POOL_MIN_RUNS and busy() < BUSY_LIMIT else 0


# -- the worker side ----------------------------------------------------------------------------------------------
class _Worker:
    store: Store | None = None
    config: Config | None = None


def _start(store_path: str, config: Config, env: dict[str, str], known: dict) -> None:
    """A worker's start: the caller's environment and secrets, output redacted to stderr, its own store."""
    os.environ.clear()
    os.environ.update(env)
    redact.configure(**known)
    try:
        os.dup2(2, 1)  # nothing a worker prints reaches the caller's stdout (an MCP stdio transport)
    except OSError:
        pass
    sys.stdout = redact.RedactingStream(sys.__stderr__)
    sys.stderr = redact.RedactingStream(sys.__stderr__)
    redact.redact_log_records()
    _Worker.store, _Worker.config = Store(store_path), config


def _check(run: str, collect: bool, total_steps: int | None, listed: dict | None = None
           ) -> tuple[RunLine, RunObjectives | None, str | None]:
    from .assess import assess_run
    from .assess_runs import check_and_collect

    assert _Worker.store is not None and _Worker.config is not None
    if listed is not None:
        from .sources.wandb_api import adopt_listed

        try:
            adopt_listed(parse_run_ref(run.strip(), entity=_Worker.config.wandb_entity,
                                       project=_Worker.config.wandb_project), _Worker.config, listed)
        except Exception:  # noqa: BLE001 - the check asks W&B for the run's metadata itself (and says what fails)
            pass
    return check_and_collect(run, store=_Worker.store, config=_Worker.config, assess=assess_run, collect=collect,
                             total_steps=total_steps)


def _check_many(items: list[tuple[str, dict | None]], collect: bool, total_steps: int | None
                ) -> list[tuple[RunLine, RunObjectives | None, str | None]]:
    """``_check`` of several runs on this worker's threads (W&B runs: one parses while the others wait for W&B)."""
    with ThreadPoolExecutor(max_workers=min(len(items), WORKER_THREADS), thread_name_prefix="worker") as threads:
        return list(threads.map(lambda item: _check(item[0], collect, total_steps, item[1]), items))


# -- the caller's side ----------------------------------------------------------------------------------------------
def _context(preload: list[str]):
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload(preload)  # only before this process's fork server starts
    return ctx


def open_pool(workers: int, store: Store, config: Config, wandb: bool = False) -> ProcessPoolExecutor | None:
    """A pool of ``workers`` processes checking runs into ``store``; None when one cannot start here. ``wandb``:
    W&B runs may come (the fork server imports ``wandb`` once, if it is the one that starts it)."""
    try:
        preload = PRELOAD + (PRELOAD_WANDB if wandb else [])
        return ProcessPoolExecutor(max_workers=workers, mp_context=_context(preload), initializer=_start,
                                   initargs=(str(Path(store.path)), config, dict(os.environ), redact.known_state()))
    except (OSError, ValueError, NotImplementedError):
        return None


def submit_many(pool: ProcessPoolExecutor, items: list[tuple[str, dict | None]], collect: bool,
                total_steps: int | None) -> Future | None:
    """The checks of several W&B runs ``(run, as listed)`` on one worker's threads (a list of their results); None
    when the pool no longer takes work."""
    try:
        return pool.submit(_check_many, items, collect, total_steps)
    except (RuntimeError, OSError):
        return None


def submit(pool: ProcessPoolExecutor, run: str, collect: bool, total_steps: int | None,
           listed: dict | None = None) -> Future | None:
    """The check of ``run`` on a worker (``listed``: a W&B run as this process's listing described it,
    ``for_worker``); None when the pool no longer takes work (the caller checks it itself)."""
    try:
        return pool.submit(_check, run, collect, total_steps, listed)
    except (RuntimeError, OSError):  # broken or shut down
        return None
