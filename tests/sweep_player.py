"""The model's part in a sweep check, as the slash command's "A sweep check" section prescribes it, for the
Anthropic stub (tests/anthropic_stub.py): load the tools, one ``assess_runs``, per run ``stop_run`` only on a STOP
verdict, ``stop_run`` with ``prune`` for each run the sweep says to prune only when the arguments say prune=true,
``CronList``, ``reschedule`` with ``sweep`` (and ``prune``), ``CronDelete``/``CronCreate`` as answered, a final text
that names the runs to prune with their numbers."""

from __future__ import annotations

from .anthropic_stub import MCP, NEEDED, Check, Player, cron_jobs, cron_step

SWEEP_NEEDED = [*NEEDED, MCP + "assess_runs"]


def sweep_arguments(arguments: str) -> tuple[str, bool]:
    """(the run part, prune) of a sweep check's arguments (a job's mark dropped)."""
    words = [w for w in arguments.split() if not (w.startswith("#") and len(w) == 9)]
    prune = "prune=true" in words
    return " ".join(w for w in words if not w.startswith(("prune=", "durable="))), prune


class SweepPlayer(Player):
    def next(self, check: Check, tools: set[str]) -> tuple[str, dict] | str:
        done = [s[0] for s in check.steps]
        if not {MCP + "assess_runs", MCP + "stop_run", MCP + "reschedule", "CronList"} <= tools:
            if "ToolSearch" in tools and done.count("ToolSearch") < 2:
                return "ToolSearch", {"query": "select:" + ",".join(SWEEP_NEEDED)}
            return "The training-check tools are not connected; no check was made."
        run_part, prune = sweep_arguments(check.arguments)
        runs = run_part.split()
        last = {name: result for name, _, result in check.steps}
        report = last.get(MCP + "assess_runs")
        if report is None:
            return MCP + "assess_runs", {"runs": runs}
        lines = report.get("runs") or [] if isinstance(report, dict) else []
        stops = [inp.get("run") for name, inp, _ in check.steps if name == MCP + "stop_run"]
        for line in lines:
            if line.get("verdict") == "STOP" and line["run"] not in stops:
                return MCP + "stop_run", {"run": line["run"], "assessment_id": line.get("assessment_id"),
                                          "reason": line.get("line", "STOP")[:400]}
        sweep = report.get("sweep") or {} if isinstance(report, dict) else {}
        reasons = {ln["run"]: (ln.get("relative") or {}).get("reason", "") for ln in lines}
        if prune:
            for run in sweep.get("prune") or []:
                if run not in stops:
                    return MCP + "stop_run", {"run": run, "prune": True, "reason": reasons.get(run, "prune")[:400]}
        if "CronList" not in done:
            return "CronList", {}
        sched = last.get(MCP + "reschedule")
        if sched is None:
            args = {"run": run_part, "sweep": True, "jobs": cron_jobs(last["CronList"])}
            if prune:
                args["prune"] = True
            if self.lifetime:
                args["job_lifetime_days"] = self.lifetime
            return MCP + "reschedule", args
        cron = cron_step(check, sched)
        if cron is not None:
            return cron
        parts = [f"Sweep: leader {sweep.get('leader')}."]
        for run in sweep.get("prune") or []:
            stopped = [res for name, inp, res in check.steps if name == MCP + "stop_run" and inp.get("run") == run]
            what = (f"stopped, evidence {stopped[-1].get('evidence_path')}" if stopped and isinstance(stopped[-1], dict)
                    and stopped[-1].get("stopped") else "not stopped (add prune=true to stop it)")
            parts.append(f"Prune {run}: {reasons.get(run)} ({what}).")
        parts.append(sched.get("summary", ""))
        return " ".join(parts)
