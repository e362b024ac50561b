"""Many runs at once: assess every run of a list, a local ``wandb/`` folder or a W&B project, worst first.

Each run is checked by ``assess_run`` on a bounded thread pool; a run that
fails gets an ERROR or UNREACHABLE line instead of failing the call. Order,
worst first: STOP > ESCALATE > UNREACHABLE > ERROR > WAIT > CONTINUE — a STOP
needs action now and an ESCALATE a decision, while an unreachable run is a
connectivity report (never a judgment of the training) that still needs a look.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from typing import Any

from .config import Config
from .errors import BadInput, RunNotFound, SourceUnreachable, TrainingCheckError
from .judge import CONTINUE, ESCALATE, STOP, UNREACHABLE, WAIT
from .sources.base import Progress
from .store import Store

ERROR = "ERROR"  # a run whose check failed (not a verdict of the training)
ORDER = (STOP, ESCALATE, UNREACHABLE, ERROR, WAIT, CONTINUE)
MAX_RUNS = 1000
LINE_WIDTH = 160
RUN_DIR_PREFIXES = ("run-", "offline-run-")


@dataclass
class RunLine:
    """One run's result in a many-run check."""

    run: str
    verdict: str  # one of ORDER
    line: str  # the compact human line
    assessment_id: str | None = None
    step: int | None = None
    error: str | None = None

    def to_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass
class MultiReport:
    """Every run's line, worst first, with counts per verdict."""

    runs: list[RunLine]
    counts: dict[str, int]
    expanded_from: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0
    notes: list[str] = field(default_factory=list)
    summary: str = ""

    def to_dict(self) -> dict:
        return {"runs": [r.to_dict() for r in self.runs], "counts": self.counts, "expanded_from": self.expanded_from,
                "elapsed_s": round(self.elapsed_s, 3), "notes": self.notes, "summary": self.summary}


def severity(verdict: str) -> int:
    """Position in ORDER (unknown verdicts sort just before CONTINUE)."""
    return ORDER.index(verdict) if verdict in ORDER else len(ORDER) - 1


def local_run_dirs(path: str) -> list[str] | None:
    """The run folders under a local ``wandb/`` folder (or a project folder holding one); None if ``path`` is not
    one."""
    path = os.path.expanduser(path)
    if not os.path.isdir(path):
        return None
    for base in (path, os.path.join(path, "wandb")):
        if not os.path.isdir(base):
            continue
        try:
            entries = sorted(os.scandir(base), key=lambda e: e.name)
        except OSError:
            continue
        runs = [e.path for e in entries if e.name.startswith(RUN_DIR_PREFIXES) and e.is_dir(follow_symlinks=False)
                and any(n.endswith(".wandb") for n in os.listdir(e.path))]
        if runs:
            return runs
    return None


def project_runs(project: str, config: Config, state: str | None = "running") -> list[str]:
    """``entity/project/run_id`` of a W&B project's runs (optionally only those in ``state``), via the W&B adapter."""
    from .sources.wandb_api import list_project_runs

    return list_project_runs(project, config, state)


def expand_runs(runs: list[str] | None, project: str | None, config: Config,
                state: str | None = "running") -> tuple[list[str], list[str]]:
    """(runs to check, what was expanded): wandb/ folders become their runs, a project its (running) runs."""
    out: list[str] = []
    expanded: list[str] = []
    for run in runs or []:
        if not isinstance(run, str) or not run.strip():
            raise BadInput("every entry of runs must be a non-empty run reference string")
        dirs = local_run_dirs(run)
        if dirs and len(dirs) > 1 or (dirs and os.path.basename(os.path.normpath(run)) == "wandb"):
            out.extend(dirs)
            expanded.append(f"{run} -> {len(dirs)} runs")
        else:
            out.append(run.strip())
    if project:
        listed = project_runs(project, config, state)
        out.extend(listed)
        expanded.append(f"{project} -> {len(listed)} {state or ''} runs".replace("  ", " "))
    unique = list(dict.fromkeys(out))  # each run once, first mention first
    if not unique:
        raise RunNotFound("no runs to check: the list was empty or the project has no runs in that state")
    if len(unique) > MAX_RUNS:
        raise BadInput(f"{len(unique)} runs is more than {MAX_RUNS}: check them in smaller groups")
    return unique, expanded


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _line(verdict: str, run: str, step: int | None, text: str) -> str:
    at = f" @{step}" if step is not None else ""
    line = f"{verdict:<11} {run}{at}: {text}"
    return line if len(line) <= LINE_WIDTH else line[:LINE_WIDTH - 1] + "…"


def check_one(run: str, *, store: Store, config: Config, assess: Callable[..., Any]) -> RunLine:
    """Assess one run; failures become an ERROR/UNREACHABLE line, never an exception."""
    try:
        a = assess(run, store=store, config=config)
    except SourceUnreachable as e:
        return RunLine(run, UNREACHABLE, _line(UNREACHABLE, run, None, e.message), error=e.message)
    except TrainingCheckError as e:
        return RunLine(run, ERROR, _line(ERROR, run, None, e.message), error=e.message)
    except Exception as e:  # a bug in one run's check must not hide the others
        msg = f"internal error ({type(e).__name__}: {(str(e).splitlines() or [''])[0][:120]})"
        return RunLine(run, ERROR, _line(ERROR, run, None, msg), error=msg)
    verdict = str(_get(a, "verdict", ERROR))
    progress = _get(a, "progress") or {}
    step = _get(progress, "step") if progress else _get(a, "step")
    summary = _get(a, "summary") or ""
    return RunLine(run, verdict, _line(verdict, run, step, summary), assessment_id=_get(a, "assessment_id"),
                   step=step)


def assess_runs(runs: list[str] | None = None, project: str | None = None, *, store: Store, config: Config,
                max_concurrency: int = 8, state: str | None = "running",
                progress: Progress | None = None) -> MultiReport:
    """Assess every run (a list, wandb/ folders, or a W&B project's runs in ``state``) with at most
    ``max_concurrency`` at once; one line per run, worst first."""
    if not runs and not project:
        raise BadInput("pass runs (a list of run references) or project (entity/project)")
    if not isinstance(max_concurrency, int) or not 1 <= max_concurrency <= 64:
        raise BadInput(f"max_concurrency must be an integer from 1 to 64, got {max_concurrency!r}")
    from .assess import assess_run

    started = time.monotonic()
    targets, expanded = expand_runs(runs, project, config, state)
    lines: list[RunLine] = []
    with ThreadPoolExecutor(max_workers=min(max_concurrency, len(targets)), thread_name_prefix="assess") as pool:
        futures = {pool.submit(check_one, r, store=store, config=config, assess=assess_run): r for r in targets}
        for i, fut in enumerate(as_completed(futures), 1):
            lines.append(fut.result())
            if progress:
                progress(i, len(targets), f"checked {futures[fut]}")
    order = {r: i for i, r in enumerate(targets)}
    lines.sort(key=lambda ln: (severity(ln.verdict), order[ln.run]))
    counts = {v: n for v in ORDER if (n := sum(1 for ln in lines if ln.verdict == v))}
    worst = lines[0].verdict
    parts = ", ".join(f"{n} {v}" for v, n in counts.items())
    n_runs = f"{len(lines)} run{'s' if len(lines) != 1 else ''}"
    summary = f"{n_runs} checked: {parts}" + (f"; worst: {lines[0].run} ({worst})" if worst != CONTINUE else "")
    notes = []
    if project and state:
        notes.append(f"only runs in state {state!r} of {project} were checked")
    return MultiReport(lines, counts, expanded, time.monotonic() - started, notes, summary + ".")
