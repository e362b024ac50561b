"""The sweep's place in the check: one cron job for the whole sweep (its own key, paced by the last assess_runs), the
prune=true permission kept in the job's prompt, and the sweep's picture (real matplotlib, real PNG)."""

from __future__ import annotations

from training_check.tools.plot import plot_sweep
from training_check.tools.schedule import reschedule, split_arguments

from .test_sweep_stop import LOSER, checked_sweep


def test_one_job_for_the_sweep_paced_like_a_run_with_prune_kept_in_its_prompt(store, config, tmp_path):
    runs = checked_sweep(tmp_path, store, config)  # its last check recommends pruning: an anomaly
    whole = " ".join(runs)
    s = reschedule(whole, store=store, config=config, sweep=True, prune=True)
    assert s.interval_minutes == 10 and "sweep" in s.reason and s.cron_create is not None
    prompt = s.cron_create["prompt"]
    assert prompt.startswith("/training-check #") and prompt.endswith(" prune=true") and whole in prompt
    args = split_arguments(prompt[len("/training-check "):])
    assert args.prune and args.run == whole and args.tag
    # the job fires; CronList shows it (cut short): kept, not duplicated; one per sweep, apart from each run's
    line = f"job1 — {s.cron_create['cron']} (recurring) [session-only], next run soon: {prompt[:77]}…"
    again = reschedule(whole, store=store, config=config, sweep=True, prune=True, jobs=[{"line": line}])
    assert again.cron_create is None and again.keep_job_id == "job1" and again.cron_delete == []
    single = reschedule(runs[0], store=store, config=config, jobs=[{"line": line}])
    assert single.cron_create is not None and single.keep_job_id is None and single.cron_delete == []


def test_plot_sweep_draws_every_run_with_the_pruned_marked(store, config, tmp_path):
    runs = checked_sweep(tmp_path, store, config)
    res = plot_sweep(runs, tmp_path / "sweep.png", store=store, config=config, total_steps=800)
    png = (tmp_path / "sweep.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
    assert res.runs == len(runs) and res.prune == [str(tmp_path / f"{LOSER}.jsonl")] and res.leader in runs
    assert "1 to prune" in res.summary
