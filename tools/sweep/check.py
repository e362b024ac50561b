"""One sweep check against the store: read the sweep's memory, judge, keep the memory, the ranking table and each
run's relative judgement (what ``stop_run`` may act on when a person enabled pruning)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..store import Store, new_id
from .collect import RunObjectives, build_sweep_view
from .policy import SweepMemory
from .relative import SweepJudgement, fmt, judge_sweep

TABLE_ROWS = 200  # rows of the ranking table kept with the sweep (the best, the prune list and the worst first)


@dataclass(frozen=True)
class SweepCheck:
    key: str
    judgement: SweepJudgement
    judgement_ids: dict[str, str]  # run -> its stored judgement id


def ranking_table(j: SweepJudgement, rows: int = TABLE_ROWS) -> list[str]:
    """The ranking as markdown rows: rank, run, step, value, projected final [low, high], recommendation."""
    order = sorted(j.runs.values(), key=lambda r: (r.rank is None, r.rank or 0, r.run))
    keep = {r.run for r in order[: rows // 2]} | set(j.summary.prune) | {r.run for r in order[-(rows // 4):]}
    out = [f"| rank | run | step | {j.summary.metric} | projected at {int(j.summary.final_step)} [low, high] | "
           "recommend |", "|---|---|---|---|---|---|"]
    for r in order:
        if r.run not in keep:
            continue
        p = r.projected_final
        proj = f"{fmt(p.value)} [{fmt(p.low)}, {fmt(p.high)}]" if p else "-"
        step = "-" if r.step is None else str(int(r.step))
        out.append(f"| {r.rank or '-'} of {r.of or '-'} | {r.run.replace('|', '/')} | {step} | {fmt(r.value)} | "
                   f"{proj} | {r.recommend} |")
    if len(out) - 2 < len(order):
        out.append(f"| | ({len(order) - (len(out) - 2)} more runs) | | | | |")
    return out


def check_sweep(objs: list[RunObjectives], unreadable: dict[str, str], key: str, run_keys: dict[str, str],
                store: Store, extra: dict | None = None) -> SweepCheck | None:
    """Judge the sweep of ``objs`` with its stored memory and store the result; None when fewer than 4 runs share
    an objective. ``run_keys``: each run reference's store key."""
    stored = store.get_sweep(key) or {}
    memory = SweepMemory.from_dict(stored.get("memory"))
    stopped = {str(r) for r in stored.get("stopped", []) if isinstance(r, str)}
    view = build_sweep_view(objs, unreadable, stopped)
    if view is None:
        return None
    j = judge_sweep(view, memory)
    summary = j.summary.to_dict(key)
    table = ranking_table(j)
    ids = store.put_sweep(key, {**(extra or {}), "memory": j.memory.to_dict(), "stopped": sorted(stopped),
                                "summary": summary, "table": table, "check_id": new_id("swc"),
                                "checked_at": time.time()},
                          [(run_keys.get(r, r), rel.recommend, {"run": r, "relative": rel.to_dict()})
                           for r, rel in j.runs.items()])
    by_run = {r: ids[run_keys.get(r, r)] for r in j.runs if run_keys.get(r, r) in ids}
    return SweepCheck(key, j, by_run)


def sweep_assessment(store: Store, key: str) -> dict | None:
    """The sweep's last check as an assessment record for the pacing (tools/schedule.py): its worst verdict, and a
    warning when it recommends pruning (an anomaly: the next check comes sooner)."""
    stored = store.get_sweep(key)
    if stored is None:
        return None
    prune = (stored.get("summary") or {}).get("prune") or []
    findings = [{"signal": "sweep", "status": "warn", "message": f"{len(prune)} runs to prune"}] if prune else []
    return {"assessment_id": stored.get("check_id"), "run_key": key, "verdict": stored.get("worst") or "CONTINUE",
            "created_at": stored.get("checked_at"), "findings": findings,
            "summary": f"sweep check: {len(prune)} to prune"}


def mark_stopped(store: Store, key: str, run: str) -> None:
    """Remember that ``run`` was stopped on the sweep's advice: its curve then counts as a reference only."""
    stored = store.get_sweep(key)
    if stored is None:
        return
    stopped = sorted({*stored.get("stopped", []), run})
    store.put_sweep(key, {**stored, "stopped": stopped}, [])
