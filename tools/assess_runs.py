"""Many runs at once: assess every run of a list, a local ``wandb/`` folder or a W&B project, worst first.

Each run is checked by ``assess_run`` on a bounded thread pool; a run that
fails gets an ERROR or UNREACHABLE line instead of failing the call. Order,
worst first: STOP > ESCALATE > UNREACHABLE > ERROR > WAIT > CONTINUE — a STOP
needs action now and an ESCALATE a decision, while an unreachable run is a
connectivity report (never a judgment of the training) that still needs a look.

When at least 4 runs share an objective, the runs are also judged against each
other after their own checks (``tools/sweep``): each line gets a ``relative``
judgement (rank at equal steps, projected final, keep / lead / prune) and the
report a ``sweep`` summary; the per-run verdicts stay as they are. The answer
for an agent stays within ``ANSWER_BUDGET`` bytes whatever the number of runs.
"""

from __future__ import annotations

import functools
import json
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from . import check_pool
from .config import Config
from .errors import BadInput, RunNotFound, SourceUnreachable, TrainingCheckError
from .judge import CONTINUE, ESCALATE, STOP, UNREACHABLE, WAIT
from .sources.base import Progress
from .store import Store, new_id
from .sweep.collect import MIN_RUNS, RunObjectives, curves_to_bytes, objectives_of, sweep_key
from .sweep.relative import RelativeDict, SweepDict

if TYPE_CHECKING:
    from .reading import RunData

ERROR = "ERROR"  # a run whose check failed (not a verdict of the training)
ORDER = (STOP, ESCALATE, UNREACHABLE, ERROR, WAIT, CONTINUE)
MAX_RUNS = 1000
LINE_WIDTH = 160
ANSWER_BUDGET = 8000  # bytes of JSON an agent's answer may take (the CLI's --json has every run)
FULL_WORST = 5  # runs with a verdict other than CONTINUE kept in full first, worst first
FULL_LEADERS = 3  # the sweep's leaders kept in full
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
    relative: RelativeDict | None = None  # this run against its siblings (a sweep of >= 4 runs)
    total_steps: int | None = None

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
    sweep: SweepDict | None = None  # the runs judged against each other (>= 4 sharing an objective)
    more: dict[str, int] | None = None  # runs left out of an answer for room, counted per verdict / recommendation
    _budget: int | None = None  # bytes the answer may take; None: every run in full

    def to_dict(self) -> dict:
        full = {"runs": [r.to_dict() for r in self.runs], "counts": self.counts,
                "expanded_from": self.expanded_from, "elapsed_s": round(self.elapsed_s, 3), "notes": self.notes,
                "summary": self.summary}
        if self.sweep is not None:
            full["sweep"] = self.sweep
        if self._budget is None or _size(full) <= self._budget:
            return full
        return self._within(full, self._budget)

    def _within(self, full: dict, budget: int) -> dict:
        """The worst runs, the sweep's leaders and its prune list in full (as room allows, in that order); the rest
        counted in ``more``."""
        lines = {ln.run: ln for ln in self.runs}
        prune = list(self.sweep["prune"]) if self.sweep else []
        ranked = sorted((ln for ln in self.runs if ln.relative is not None and ln.relative["rank"]),
                        key=lambda ln: (ln.relative["rank"] or 0) if ln.relative is not None else 0)
        leader = self.sweep["leader"] if self.sweep else None
        leaders = ([leader] if leader else []) + [ln.run for ln in ranked[:FULL_LEADERS]]
        worst = [ln.run for ln in self.runs if ln.verdict != CONTINUE][:FULL_WORST]
        order = list(dict.fromkeys([*worst, *leaders[:FULL_LEADERS], *prune, *(ln.run for ln in self.runs)]))
        out = {k: v for k, v in full.items() if k != "runs"}
        if self.sweep is not None:
            sweep = dict(self.sweep)
            left = dict(self.sweep["left_out"])
            if len(left) > 10:
                sweep["left_out"] = dict(list(left.items())[:10])
                out["notes"] = [*self.notes, f"{len(left) - 10} more runs left out of the sweep comparison"]
            out["sweep"] = sweep
        kept: list[dict] = []
        out["runs"] = kept
        for name in order:
            row = lines[name].to_dict()
            kept.append(row)
            out["more"] = _counted(self.runs, {r["run"] for r in kept})
            if _size(out) > budget:
                kept.pop()
                row.pop("line", None)  # the relative judgement's reason says it
                kept.append(row)
                if _size(out) > budget:
                    kept.pop()
                    break
        out["more"] = _counted(self.runs, {r["run"] for r in kept})
        sweep_out = out.get("sweep")
        if sweep_out is not None and _size(out) > budget:
            names = sweep_out["prune"] = list(sweep_out["prune"])
            while names and _size(out) > budget:
                names.pop()
            out["notes"] = [*out["notes"], f"the prune list is cut for room: {len(prune)} runs in all (training-check "
                                           f"sweep --json lists every one)"]
        return out


def _size(d: dict) -> int:
    return len(json.dumps(d, separators=(",", ":"), ensure_ascii=False, default=str))


def _counted(runs: list[RunLine], kept: set[str]) -> dict[str, int]:
    """Runs left out of the answer: how many, per verdict, and per recommendation."""
    rest = [ln for ln in runs if ln.run not in kept]
    out: dict[str, int] = {"runs": len(rest)}
    for ln in rest:
        out[ln.verdict] = out.get(ln.verdict, 0) + 1
        rec = ln.relative["recommend"] if ln.relative is not None else None
        if rec:
            out[rec] = out.get(rec, 0) + 1
    return out


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


def check_one(run: str, *, store: Store, config: Config, assess: Callable[..., Any],
              total_steps: int | None = None) -> RunLine:
    """Assess one run; failures become an ERROR/UNREACHABLE line, never an exception."""
    return _line_of(run, lambda: assess(run, store=store, config=config,
                                        **({"total_steps": total_steps} if total_steps else {})))


def _line_of(run: str, check: Callable[[], Any]) -> RunLine:
    try:
        a = check()
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
                   step=step, total_steps=_get(progress, "total_steps") if progress else None)


def check_read_first(run: str, *, store: Store, config: Config, total_steps: int | None = None
                     ) -> tuple[RunLine, RunData, dict | None] | None:
    """Read the run, then judge what was read - or, when its source added nothing since a check that already saw
    nothing new, let that judgement stand (tools/recheck.py: the same answer, without judging again); with the
    steady mark of the judgement stored (None when it is not a fixed point). None when the read failed (the caller
    checks the run the ordinary way, which says why)."""
    from .assess import judge_read
    from .reading import load_run, loss_override
    from .recheck import derived_record, steady_record

    try:
        data = load_run(run, store=store, config=config, role_overrides=loss_override(None, config.loss_metric))
    except Exception:  # noqa: BLE001 - the ordinary check reads again and reports the failure in its line
        return None
    marks: list[dict | None] = []

    def check() -> Any:
        a = steady_record(data, store=store, config=config, total_steps=total_steps) \
            or derived_record(data, store=store, config=config, total_steps=total_steps) \
            or judge_read(run, data, store=store, config=config, total_steps=total_steps)
        marks.append(_get(a, "recheck"))
        return a

    return _line_of(run, check), data, (marks[0] if marks else None)


def _keep_curves(store: Store, mark: dict | None, objectives: RunObjectives) -> None:
    """A steady judgement's curves, stored for the checks it will stand for (tools/recheck.steady_quick)."""
    quick = mark.get("quick") if isinstance(mark, dict) else None
    if not isinstance(quick, dict):
        return
    try:
        store.put_curves(str(quick["source"]), str(quick["key"]), curves_to_bytes(objectives))
    except TrainingCheckError:  # the curves only save a later check a read; it reads the run instead
        pass


def check_and_collect(run: str, *, store: Store, config: Config, assess: Callable[..., Any],
                      collect: bool, total_steps: int | None = None
                      ) -> tuple[RunLine, RunObjectives | None, str | None]:
    """``check_one`` (reading first: ``check_read_first``), then (``collect``) the run's objective curves for the
    sweep and its store key; a run whose curves cannot be read is left out of the sweep, never failed."""
    from .assess import assess_run

    first = check_read_first(run, store=store, config=config, total_steps=total_steps) if assess is assess_run \
        else None
    line = first[0] if first else check_one(run, store=store, config=config, assess=assess, total_steps=total_steps)
    if not collect or line.verdict in (ERROR, UNREACHABLE):
        return line, None, None
    from .reading import load_run, loss_override, recently_loaded

    try:  # the read the check just made, on this thread; else a read that finds nothing new
        overrides = loss_override(None, config.loss_metric)
        data = first[1] if first else (recently_loaded(run, overrides) or load_run(run, store=store, config=config,
                                                                                 role_overrides=overrides))
        objectives = objectives_of(run, data.frame, line.total_steps)
        if first:
            _keep_curves(store, first[2], objectives)
        return line, objectives, data.run_key
    except TrainingCheckError as e:
        line.error = line.error or f"left out of the sweep: {e.message}"
        return line, None, None
    except Exception as e:  # noqa: BLE001 - one run's curves must not fail the sweep
        line.error = line.error or f"left out of the sweep: internal error ({type(e).__name__})"
        return line, None, None


def standing_checks(targets: list[str], store: Store, config: Config, collect: bool, total_steps: int | None
                    ) -> list[Checked]:
    """The runs whose last judgement stands without a read (tools/recheck.steady_quick: a local log unchanged since a
    check that saw nothing new), each stored again as this check's - all in one transaction - with its curves.
    The other runs are checked the ordinary way."""
    from .recheck import steady_quick

    config_text = repr(config)
    found = []
    for run in targets:
        try:
            s = steady_quick(run, store=store, config=config, total_steps=total_steps, curves=collect,
                             config_text=config_text)
        except Exception:  # noqa: BLE001 - the ordinary check of the run says what is wrong
            s = None
        if s is not None:
            found.append((run, s, new_id("asm")))
    try:
        store.add_assessments([(aid, s.run_key, str(s.record.get("verdict")), (s.record.get("progress") or {})
                                .get("step"), s.record) for _, s, aid in found])
    except TrainingCheckError:
        return []
    out: list[Checked] = []
    for run, s, aid in found:
        record = {**s.record, "assessment_id": aid}
        out.append((_line_of(run, functools.partial(dict, record)), s.curves,
                    s.run_key if s.curves is not None else None))
    return out


def assess_runs(runs: list[str] | None = None, project: str | None = None, *, store: Store, config: Config,
                max_concurrency: int = 8, state: str | None = "running",
                progress: Progress | None = None, answer_budget: int | None = ANSWER_BUDGET,
                total_steps: int | None = None, workers: int | None = None) -> MultiReport:
    """Assess every run (a list, wandb/ folders, or a W&B project's runs in ``state``) with at most
    ``max_concurrency`` at once; one line per run, worst first; with >= 4 runs sharing an objective, each run
    judged against its siblings too. ``answer_budget``: bytes the answer may take (None: every run in full);
    ``total_steps``: the runs' planned length (else each run's own, from its source), where projections aim;
    ``workers``: worker processes for the local runs (tools/check_pool.py; None: one per core when there are many
    and the machine is not crowded, 0: none)."""
    if not runs and not project:
        raise BadInput("pass runs (a list of run references) or project (entity/project)")
    if total_steps is not None and (not isinstance(total_steps, int) or isinstance(total_steps, bool)
                                    or total_steps < 1):
        raise BadInput(f"total_steps must be a positive whole number, got {total_steps!r}")
    if not isinstance(max_concurrency, int) or not 1 <= max_concurrency <= 64:
        raise BadInput(f"max_concurrency must be an integer from 1 to 64, got {max_concurrency!r}")
    started = time.monotonic()
    targets, expanded = expand_runs(runs, project, config, state)
    lines: list[RunLine] = []
    objectives: list[RunObjectives] = []
    run_keys: dict[str, str] = {}
    collect = len(targets) >= MIN_RUNS
    order = {r: i for i, r in enumerate(targets)}
    for line, objective, run_key in _checked(targets, store, config, collect, total_steps, max_concurrency,
                                             progress, workers):
        lines.append(line)
        if objective is not None and run_key is not None:
            objectives.append(objective)
            run_keys[line.run] = run_key
    objectives.sort(key=lambda o: order[o.run])  # the sweep sees its runs in the call's order, however they finished
    lines.sort(key=lambda ln: (severity(ln.verdict), order[ln.run]))
    counts = {v: n for v in ORDER if (n := sum(1 for ln in lines if ln.verdict == v))}
    worst = lines[0].verdict
    parts = ", ".join(f"{n} {v}" for v, n in counts.items())
    n_runs = f"{len(lines)} run{'s' if len(lines) != 1 else ''}"
    summary = f"{n_runs} checked: {parts}" + (f"; worst: {lines[0].run} ({worst})" if worst != CONTINUE else "")
    notes = []
    if project and state:
        notes.append(f"only runs in state {state!r} of {project} were checked")
    sweep = None
    if collect:
        sweep = _judge_sweep(lines, objectives, run_keys, sweep_key(runs, project, config), store)
        if sweep is not None:
            pr = sweep["prune"]
            named = ", ".join(pr[:3]) + (", ..." if len(pr) > 3 else "")
            summary += (f"; sweep of {sweep['compared']} on {sweep['metric']}: leader {sweep['leader']}, "
                        + (f"prune {len(pr)} ({named})" if pr else "nothing to prune"))
    return MultiReport(lines, counts, expanded, time.monotonic() - started, notes, summary + ".", sweep,
                       _budget=answer_budget)


Checked = tuple[RunLine, RunObjectives | None, str | None]


def _checked(targets: list[str], store: Store, config: Config, collect: bool, total_steps: int | None,
             max_concurrency: int, progress: Progress | None, workers: int | None) -> Iterator[Checked]:
    """Every run checked (``check_and_collect``), as each finishes: local runs on worker processes when there are
    many and the cores are not crowded (tools/check_pool.py; ``workers`` processes when given), the others on at most
    ``max_concurrency`` threads; a run a worker could not return
    is checked on a thread."""
    from .assess import assess_run

    total = len(targets)
    standing = standing_checks(targets, store, config, collect, total_steps)
    for done, checked in enumerate(standing, 1):
        if progress:
            progress(done, total, f"checked {checked[0].run} (nothing new)")
        yield checked
    if standing:
        left = {c[0].run for c in standing}
        targets = [r for r in targets if r not in left]
        if not targets:
            return
    n = check_pool.pool_size(targets, config, max_concurrency, workers)
    procs = check_pool.open_pool(n, store, config) if n else None
    threads = ThreadPoolExecutor(max_workers=min(max_concurrency, len(targets)), thread_name_prefix="assess")

    def on_thread(run: str) -> Future:
        return threads.submit(check_and_collect, run, store=store, config=config, assess=assess_run,
                              collect=collect, total_steps=total_steps)

    try:
        futures: dict[Future, str] = {}
        on_worker: set[Future] = set()
        for r in targets:
            fut = check_pool.submit(procs, r, collect, total_steps) if procs and check_pool.is_local(r, config) \
                else None
            if fut is not None:
                on_worker.add(fut)
            futures[fut or on_thread(r)] = r
        done = len(standing)
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                run = futures.pop(fut)
                try:
                    result = fut.result()
                except Exception:  # a worker that died: the run is checked here instead (a thread's error stands)
                    if fut not in on_worker:
                        raise
                    retry = on_thread(run)
                    futures[retry] = run
                    pending.add(retry)
                    continue
                done += 1
                if progress:
                    progress(done, total, f"checked {run}")
                yield result
    finally:
        threads.shutdown(wait=True, cancel_futures=True)
        if procs is not None:
            procs.shutdown(wait=True, cancel_futures=True)


def _judge_sweep(lines: list[RunLine], objectives: list[RunObjectives], run_keys: dict[str, str],
                 key: str, store: Store) -> SweepDict | None:
    """The runs judged against each other (tools/sweep), the result stored and written into each line."""
    from .sweep.check import check_sweep

    unreadable = {ln.run: f"{ln.verdict.lower()}: {(ln.error or '')[:120]}" for ln in lines
                  if ln.verdict in (ERROR, UNREACHABLE)}
    worst = min((ln.verdict for ln in lines), key=severity, default=CONTINUE)
    done = check_sweep(objectives, unreadable, key, run_keys, store, {"worst": worst})
    if done is None:
        return None
    for ln in lines:
        rel = done.judgement.runs.get(ln.run)
        if rel is not None:
            ln.relative = rel.to_dict()
    return done.judgement.summary.to_dict(key)
