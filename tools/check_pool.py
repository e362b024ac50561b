"""Many local runs checked on every core: worker processes for a many-run check (``assess_runs``).

Checking a local run is mostly Python (the format's detection, the history, the signals), so threads share one
core; a call that covers at least ``POOL_MIN_RUNS`` local runs on two or more cores that are not crowded hands each
local run's check to a pool of worker processes instead, one per core (remote runs stay on the caller's threads:
their time is the network's, and a W&B run's reading shares the cores with wandb-core - on two shared cores, W&B
runs on two workers took longer than on the threads, bench/sweep_scale.py). A worker makes the very check a thread
makes (``assess_runs.check_and_collect``) with:

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

import multiprocessing
import os
import sys
from collections.abc import Iterable
from concurrent.futures import Future, ProcessPoolExecutor
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


def cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def is_local(run: str, config: Config) -> bool:
    """Whether ``run`` names a run on this machine (a file or folder here), the kind a worker process speeds up."""
    try:
        return parse_run_ref(run.strip(), entity=config.wandb_entity, project=config.wandb_project).kind == "local"
    except TrainingCheckError:
        return False


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
    local = sum(1 for r in targets if is_local(r, config))
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


def _check(run: str, collect: bool, total_steps: int | None) -> tuple[RunLine, RunObjectives | None, str | None]:
    from .assess import assess_run
    from .assess_runs import check_and_collect

    assert _Worker.store is not None and _Worker.config is not None
    return check_and_collect(run, store=_Worker.store, config=_Worker.config, assess=assess_run, collect=collect,
                             total_steps=total_steps)


# -- the caller's side ----------------------------------------------------------------------------------------------
def _context():
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload(PRELOAD)
    return ctx


def open_pool(workers: int, store: Store, config: Config) -> ProcessPoolExecutor | None:
    """A pool of ``workers`` processes checking runs into ``store``; None when one cannot start here."""
    try:
        return ProcessPoolExecutor(max_workers=workers, mp_context=_context(), initializer=_start,
                                   initargs=(str(Path(store.path)), config, dict(os.environ), redact.known_state()))
    except (OSError, ValueError, NotImplementedError):
        return None


def submit(pool: ProcessPoolExecutor, run: str, collect: bool, total_steps: int | None) -> Future | None:
    """The check of ``run`` on a worker; None when the pool no longer takes work (the caller checks it itself)."""
    try:
        return pool.submit(_check, run, collect, total_steps)
    except (RuntimeError, OSError):  # broken or shut down
        return None
