"""Stopping as a person does it from the terminal, and as an agent does it over MCP, with real training processes:
the run's latest STOP verdict is used when no id is given (and said), a named target is remembered for the run,
the process writing the log is found when no target is given, and a person-named process that writes another
run's log is warned about. Every command goes through the installed console script."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time

import anyio
import pytest

from .cli_runner import tc, trainer_starter
from .mcp_client import mcp_session, server_env
from .test_server import write_llmc_log


@pytest.fixture
def trainers(tmp_path):
    yield from trainer_starter(tmp_path)


def _assessment_id(out: str) -> str:
    return next(ln.split()[-1] for ln in out.splitlines() if ln.startswith("assessment_id: "))


def test_stop_after_check_uses_the_latest_stop_verdict_and_says_which(tc_home, tmp_path, trainers):
    log = write_llmc_log(tmp_path / "train.log", 300, diverge_at=100)
    trainer = trainers("--log", str(log))
    check = tc(tc_home, "check", str(log))
    assert check.returncode == 2, check.stdout + check.stderr
    aid = _assessment_id(check.stdout)
    p = tc(tc_home, "stop", str(log), "--reason", "NaN loss", "--target", f"pid:{trainer.pid}", "--grace-s", "4")
    assert p.returncode == 0, p.stderr
    assert f"the run's latest judgment: assessment {aid} (STOP" in p.stdout, p.stdout
    assert trainer.wait(timeout=20) is not None


def test_stop_without_an_id_still_refuses_replays_superseded_and_expired_verdicts(tc_home, tmp_path, trainers):
    log = write_llmc_log(tmp_path / "train.log", 300, diverge_at=100)
    trainer = trainers("--log", str(log))
    stop = ("stop", str(log), "--reason", "NaN", "--target", f"pid:{trainer.pid}")
    # a replay only: no judgment of the run as it is now
    assert tc(tc_home, "check", str(log), "--as-of-step", "250").returncode == 2
    p = tc(tc_home, *stop)
    assert p.returncode == 70 and "has none" in p.stderr and "nothing was stopped" in p.stderr, p.stderr
    # expired: a STOP from 3 hours ago
    assert tc(tc_home, "check", str(log)).returncode == 2
    with sqlite3.connect(tc_home / "state.sqlite3") as db:
        db.execute("UPDATE assessments SET created_at = created_at - 3 * 3600")
    p = tc(tc_home, *stop)
    assert p.returncode == 70 and "the run's latest judgment" in p.stderr and "h ago (limit" in p.stderr, p.stderr
    # superseded: the log was replaced by a healthy one, and the newer check says CONTINUE
    write_llmc_log(log, 400)
    assert tc(tc_home, "check", str(log)).returncode == 0
    p = tc(tc_home, *stop)
    assert p.returncode == 70 and "says CONTINUE, not STOP" in p.stderr, p.stderr
    assert trainer.poll() is None


def test_a_named_target_is_remembered_for_later_stops(tc_home, tmp_path, trainers):
    log = write_llmc_log(tmp_path / "train.log", 300, diverge_at=100)
    launcher = trainers("--tag", "launcher")  # holds nothing of the run: only a person can name it
    named = tc(tc_home, "target", str(log), f"pid:{launcher.pid}")
    assert named.returncode == 0 and named.stdout.startswith("remembered for stop and watch: "), named.stderr
    assert tc(tc_home, "check", str(log)).returncode == 2
    dry = tc(tc_home, "stop", str(log), "--reason", "NaN", "--dry-run")
    assert dry.returncode == 0 and f"pid {launcher.pid}" in dry.stdout and "the target named for the run" in dry.stdout
    p = tc(tc_home, "stop", str(log), "--reason", "NaN", "--grace-s", "4")
    assert p.returncode == 0, p.stderr
    assert launcher.wait(timeout=20) is not None
    # the named process has exited: the process now writing the log (a restarted trainer) is the default again
    writer = trainers("--log", str(log))
    assert tc(tc_home, "check", str(log)).returncode == 2
    again = tc(tc_home, "stop", str(log), "--reason", "NaN", "--grace-s", "4")
    assert again.returncode == 0, again.stderr
    assert f"pid:{launcher.pid}, named for the run, has exited; the one process writing the run's log" in again.stdout
    assert writer.wait(timeout=20) is not None


def test_without_a_target_the_process_writing_the_log_is_stopped_and_a_reader_never(tc_home, tmp_path, trainers):
    log = write_llmc_log(tmp_path / "train.log", 300, diverge_at=100)
    reader = subprocess.Popen(["tail", "-f", str(log)], stdout=subprocess.DEVNULL)
    try:
        assert tc(tc_home, "check", str(log)).returncode == 2
        none = tc(tc_home, "stop", str(log), "--reason", "NaN")
        assert none.returncode == 64 and "no process of yours holds" in none.stderr, none.stderr
        assert "target='" not in none.stderr and f"training-check target {log} pid:N" in none.stderr
        writer = trainers("--log", str(log))
        p = tc(tc_home, "stop", str(log), "--reason", "NaN", "--grace-s", "4")
        assert p.returncode == 0 and "the one process writing the run's log" in p.stdout, p.stdout + p.stderr
        assert writer.wait(timeout=20) is not None and reader.poll() is None
    finally:
        reader.kill()
        reader.wait()


def test_a_person_named_target_that_writes_another_runs_log_is_warned_about(tc_home, tmp_path, trainers):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    log_a = write_llmc_log(tmp_path / "a" / "train.log", 300)
    log_b = write_llmc_log(tmp_path / "b" / "train.log", 300, diverge_at=100)
    with open(log_a, "a") as err:  # its stderr goes to the log too: two descriptors, one file
        trainer_a = trainers("--log", str(log_a), stderr=err)
    assert tc(tc_home, "check", str(log_a)).returncode == 0
    assert tc(tc_home, "check", str(log_b)).returncode == 2
    typo = ("stop", str(log_b), "--reason", "NaN", "--target", f"pid:{trainer_a.pid}", "--grace-s", "4")
    dry = tc(tc_home, *typo, "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert f"WARNING: PID {trainer_a.pid} writes the log of run file:{log_a}" in dry.stdout, dry.stdout
    assert trainer_a.poll() is None
    assert dry.stdout.count("WARNING") == 1  # its stdout and stderr: one file, one warning
    named = tc(tc_home, "target", str(log_b), f"pid:{trainer_a.pid}")
    assert f"WARNING: PID {trainer_a.pid} writes the log of run file:{log_a}" in named.stdout, named.stdout
    remembered = tc(tc_home, "stop", str(log_b), "--reason", "NaN", "--dry-run")
    assert f"WARNING: PID {trainer_a.pid} writes the log of run file:{log_a}" in remembered.stdout
    p = tc(tc_home, *typo)
    assert p.returncode == 0 and f"WARNING: PID {trainer_a.pid} writes the log of run file:{log_a}" in p.stdout
    assert trainer_a.wait(timeout=20) is not None


def test_mcp_stop_run_without_an_id_or_a_target(tc_home, tmp_path, trainers):
    """Over MCP: assessment_id is optional (the run's latest judgment), target too (the one named for the run)."""
    log = write_llmc_log(tmp_path / "train.log", 300, diverge_at=100)
    launcher = trainers("--tag", "launcher")
    assert tc(tc_home, "target", str(log), f"pid:{launcher.pid}").returncode == 0

    async def main():
        async with mcp_session(tc_home) as s:
            a = await s.ok("assess_run", {"run": str(log)})
            assert a["verdict"] == "STOP"
            rep = await s.ok("stop_run", {"run": str(log), "reason": "NaN loss"})
            assert rep["stopped"] is True, rep
            assert f"the run's latest judgment: assessment {a['assessment_id']}" in rep["allowed_by"]
            assert "the target named for the run" in rep["allowed_by"]

    anyio.run(main)
    assert launcher.wait(timeout=20) is not None



def test_a_launcher_script_and_its_trainer_both_writing_the_log_the_trainer_is_stopped(tc_home, tmp_path):
    """``bash run.sh > train.log`` starting ``python train.py``: both write the log; the trainer is the one stopped
    (a SIGTERM to the shell alone would leave the trainer running)."""
    log = write_llmc_log(tmp_path / "train.log", 300, diverge_at=100)
    script = tmp_path / "run.sh"
    script.write_text(f"echo launching\n{sys.executable} -c 'import time; time.sleep(300)'\necho done\n")
    with open(log, "a") as out:
        launcher = subprocess.Popen(["bash", str(script)], stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path.parent)
    try:
        deadline = time.monotonic() + 20
        while "launching" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)
        assert tc(tc_home, "check", str(log)).returncode == 2
        p = tc(tc_home, "stop", str(log), "--reason", "NaN", "--grace-s", "4")
        assert p.returncode == 0, p.stderr
        assert "the innermost of the processes writing the run's log" in p.stdout and "sleep(300)" in p.stdout
        assert launcher.wait(timeout=20) == 0 and log.read_text().endswith("done\n")  # the script went on and ended
    finally:
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait()


WANDB_TRAINER = """
import math, sys, time, wandb
wandb.init(project="p", mode="offline", dir=sys.argv[1])
print("ready", flush=True)
for s in range(100000):
    wandb.log({"loss": 5 * math.exp(-s / 50) + 1 if s < 60 else float("nan")}, step=s)
    time.sleep(0.01)
"""


def test_a_live_wandb_run_folder_stops_the_trainer_not_wandbs_service(tc_home, tmp_path):
    """A W&B offline run being written: the trainer and its child wandb-core both write the run folder; the
    trainer is stopped (stopping wandb-core would leave the training running)."""
    script = tmp_path / "wtrain.py"
    script.write_text(WANDB_TRAINER)
    proc = subprocess.Popen([sys.executable, str(script), str(tmp_path)], stdout=subprocess.PIPE, text=True,
                            stderr=subprocess.DEVNULL, env={**server_env(tc_home), "WANDB_SILENT": "true"})
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        (run_dir,) = (tmp_path / "wandb").glob("offline-run-*")
        deadline = time.monotonic() + 90
        while tc(tc_home, "check", str(run_dir)).returncode != 2:
            assert time.monotonic() < deadline, "the live W&B run never read as STOP"
            time.sleep(1)
        p = tc(tc_home, "stop", str(run_dir), "--reason", "NaN", "--grace-s", "6")
        assert p.returncode == 0, p.stderr
        assert f"pid {proc.pid} (" in p.stdout and "wandb-core" not in p.stdout.split(" stopped ")[0], p.stdout
        assert proc.wait(timeout=30) is not None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
