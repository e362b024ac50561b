"""The ``training-check`` command line: tables, exit codes, install-command, sweep (assess_runs) over real runs."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from training_check.server.cli import VERDICT_EXIT, main
from training_check.tools.assess_runs import ORDER, assess_runs, expand_runs, local_run_dirs
from training_check.tools.errors import BadInput

from .conftest import REPO
from .mcp_client import server_env
from .test_server import write_llmc_log
from .test_watch import write_plateau_log

CLI = [sys.executable, "-m", "training_check.server.cli"]


def cli(tc_home: Path, *args: str, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120, env=server_env(tc_home, **env),
                          cwd=cwd or tc_home.parent)


def test_read_prints_a_table_and_json(tc_home, tmp_path):
    log = write_llmc_log(tmp_path / "train.log", 200)
    p = cli(tc_home, "read", str(log))
    assert p.returncode == 0, p.stderr
    header = next(ln for ln in p.stdout.splitlines() if ln.startswith("metric"))
    assert "last" in header and "nan/inf" in header
    row = next(ln for ln in p.stdout.splitlines() if ln.startswith("train_loss"))
    assert " 199 " in row
    j = cli(tc_home, "read", str(log), "--json", "--keys", "train_loss,lr", "--max-points", "8")
    data = json.loads(j.stdout)
    assert {m["name"] for m in data["metrics"]} == {"train_loss", "lr"}
    assert all(len(m["series"]) <= 8 for m in data["metrics"])


def test_check_exit_code_is_the_verdict(tc_home, tmp_path):
    ok = write_llmc_log(tmp_path / "ok.log", 400)
    bad = write_llmc_log(tmp_path / "bad.log", 400, diverge_at=200)
    plateau = write_plateau_log(tmp_path / "plateau.log")
    tiny = write_llmc_log(tmp_path / "tiny.log", 3)
    assert cli(tc_home, "check", str(ok)).returncode == VERDICT_EXIT["CONTINUE"] == 0
    p = cli(tc_home, "check", str(bad))
    assert p.returncode == VERDICT_EXIT["STOP"] == 2 and "STOP" in p.stdout and "nonfinite" in p.stdout
    assert cli(tc_home, "check", str(plateau)).returncode == VERDICT_EXIT["ESCALATE"] == 1
    assert cli(tc_home, "check", str(tiny)).returncode == VERDICT_EXIT["WAIT"] == 3
    j = json.loads(cli(tc_home, "check", str(ok), "--json").stdout)
    assert j["verdict"] == "CONTINUE" and j["assessment_id"]
    missing = cli(tc_home, "check", str(tmp_path / "missing.log"))
    assert missing.returncode == 64 and missing.stderr.count("\n") == 1 and "missing.log" in missing.stderr
    unreachable = cli(tc_home, "check", "ssh://nobody@127.0.0.1:1/tmp/train.log")
    assert unreachable.returncode == 4 and "Traceback" not in unreachable.stderr


def test_check_leaves_at_once_with_its_answer_written_and_stored(tc_home, tmp_path):
    """``check`` leaves without unloading the interpreter: its whole answer still reaches a file and a pipe, and the
    assessment is in the store (the next check, another process, reads it as the previous one)."""
    log = write_llmc_log(tmp_path / "train.log", 400)
    out = tmp_path / "answer.json"
    with out.open("w") as f:
        p = subprocess.run([*CLI, "check", str(log), "--json"], stdout=f, stderr=subprocess.PIPE, text=True,
                           timeout=120, env=server_env(tc_home))
    assert p.returncode == 0 and p.stderr == ""
    first = json.loads(out.read_text())
    again = cli(tc_home, "check", str(log), "--json")
    assert again.returncode == 0
    second = json.loads(again.stdout)
    stale = next(f for f in second["findings"] if f["signal"] == "staleness")
    assert second["assessment_id"] != first["assessment_id"] and "no new steps since the last check" in stale["message"]


def test_usage_errors_exit_64_with_one_line(tc_home, tmp_path):
    commands = ("'serve', 'read', 'check', 'sweep', 'review', 'stop', 'target', 'reschedule', 'install-command', "
                "'watch', 'plot'")
    for args, line in (
            (["check"], "training-check check: the following arguments are required: run "
                        "(see training-check check --help)"),
            (["bogus"], f"training-check: argument COMMAND: invalid choice: 'bogus' (choose from {commands}) "
                        f"(see training-check --help)"),
            (["read", "x.log", "--max-points", "many"], "training-check read: argument --max-points: invalid int "
                                                        "value: 'many' (see training-check read --help)"),
            (["stop", "x.log"], "training-check stop: the following arguments are required: --reason "
                                "(see training-check stop --help)")):
        p = cli(tc_home, *args)
        assert p.returncode == 64, (args, p.stderr)
        assert p.stderr == line + "\n"
    assert main(["check", "--baseline", "{not json", "x.log"]) == 64


def test_reschedule_stop_review_and_plot_wrappers(tc_home, tmp_path):
    bad = write_llmc_log(tmp_path / "bad.log", 300, diverge_at=100)
    a = json.loads(cli(tc_home, "check", str(bad), "--json").stdout)
    s = json.loads(cli(tc_home, "reschedule", str(bad), "--assessment-id", a["assessment_id"], "--json").stdout)
    assert s["summary"]
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        dry = cli(tc_home, "stop", str(bad), "--reason", "NaN loss", "--assessment-id", a["assessment_id"],
                  "--target", f"pid:{proc.pid}", "--dry-run")
        assert dry.returncode == 0 and dry.stdout.strip() and proc.poll() is None
        ok = write_llmc_log(tmp_path / "ok.log", 300)
        assert cli(tc_home, "check", str(ok)).returncode == 0
        refused = cli(tc_home, "stop", str(ok), "--reason", "why not", "--target", f"pid:{proc.pid}")
        assert refused.returncode == 70 and proc.poll() is None and "Traceback" not in refused.stderr
        assert "says CONTINUE, not STOP" in refused.stderr
        # no --assessment-id: the run's latest judgment (STOP) allows it
        stopped = cli(tc_home, "stop", str(bad), "--reason", "NaN", "--target", f"pid:{proc.pid}", "--grace-s", "2")
        assert stopped.returncode == 0 and f"assessment {a['assessment_id']} (STOP" in stopped.stdout
        assert proc.wait(timeout=20) is not None
    finally:
        proc.kill()
        proc.wait()
    r = cli(tc_home, "review", "--run", str(bad), "--concern", "is this bad?")
    assert r.returncode == 70 and "reviewer" in r.stderr.lower() and "Traceback" not in r.stderr
    out = tmp_path / "bad.png"
    pl = cli(tc_home, "plot", str(bad), "-o", str(out))
    assert pl.returncode == 0 and out.read_bytes()[:4] == b"\x89PNG"


def test_install_command_project_and_user(tc_home, tmp_path):
    proj = tmp_path / "proj"
    proj.mkdir()
    p = cli(tc_home, "install-command", "--project", str(proj))
    dest = proj / ".claude" / "commands" / "training-check.md"
    assert p.returncode == 0 and dest.read_text() == (REPO / "prompts" / "training-check.md").read_text()
    assert "already up to date" in cli(tc_home, "install-command", "--project", str(proj)).stdout
    home = tmp_path / "home"
    u = cli(tc_home, "install-command", "--user", HOME=str(home))
    assert u.returncode == 0 and (home / ".claude" / "commands" / "training-check.md").is_file()
    here = cli(tc_home, "install-command", cwd=proj)
    assert here.returncode == 0
    assert cli(tc_home, "install-command", "--project", str(tmp_path / "nope")).returncode == 64


def test_sweep_orders_worst_first_and_reports_errors_per_run(tc_home, tmp_path):
    ok = write_llmc_log(tmp_path / "ok.log", 400)
    bad = write_llmc_log(tmp_path / "bad.log", 400, diverge_at=200)
    plateau = write_plateau_log(tmp_path / "plateau.log")
    p = cli(tc_home, "sweep", str(ok), str(plateau), str(tmp_path / "missing.log"), str(bad), "--json")
    assert p.returncode == VERDICT_EXIT["STOP"], p.stderr
    data = json.loads(p.stdout)
    assert [r["verdict"] for r in data["runs"]] == ["STOP", "ESCALATE", "ERROR", "CONTINUE"]
    assert data["counts"] == {"STOP": 1, "ESCALATE": 1, "ERROR": 1, "CONTINUE": 1}
    assert all(len(r["line"]) <= 160 for r in data["runs"])


def test_assess_runs_many_runs_bounded_concurrency(store, config, tmp_path):
    runs = [str(write_llmc_log(tmp_path / f"r{i}.log", 150, diverge_at=100 if i % 10 == 3 else None))
            for i in range(60)]
    rep = assess_runs(runs, store=store, config=config, max_concurrency=4)
    assert len(rep.runs) == 60 and rep.counts.get("STOP") == 6
    assert [r.verdict for r in rep.runs][:6] == ["STOP"] * 6
    sev = [ORDER.index(r.verdict) for r in rep.runs]
    assert sev == sorted(sev)
    assert "60 runs checked" in rep.summary
    with pytest.raises(BadInput):
        assess_runs(runs, store=store, config=config, max_concurrency=0)


def test_a_local_wandb_folder_expands_to_its_runs(store, config, tmp_path):
    from .wandb_runs import write_offline_run

    base = tmp_path / "proj"
    healthy = [{"train/loss": 10 * math.exp(-s / 30) + 2, "_step": s} for s in range(120)]
    broken = [{"train/loss": (10 * math.exp(-s / 30) + 2) if s < 40 else float("nan"), "_step": s} for s in range(120)]
    write_offline_run(base, healthy, name="healthy")
    write_offline_run(base, broken, name="broken")
    dirs = local_run_dirs(str(base / "wandb"))
    assert dirs and len(dirs) == 2
    targets, expanded = expand_runs([str(base / "wandb")], None, config)
    assert sorted(targets) == sorted(dirs) and expanded
    rep = assess_runs([str(base / "wandb")], store=store, config=config)
    assert [r.verdict for r in rep.runs][0] == "STOP" and len(rep.runs) == 2


def test_progress_display_on_a_terminal_only():
    import io

    from training_check.server.cli import terminal_progress

    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert terminal_progress("reading x", io.StringIO()) is None  # not a terminal: no display
    out = Tty()
    now = [0.0]
    show = terminal_progress("reading x", out, min_interval_s=0.0, clock=lambda: now[0])
    show(10, 100, "chunk")
    assert out.getvalue() == ""  # nothing in the first 2 s: a short read shows no progress
    now[0] = 2.5
    show(50, 100, "chunk")
    show(100, 100, "done")
    text = out.getvalue()
    assert "reading x:  50.0% chunk" in text and text.endswith("\r\x1b[2K")  # the line is cleared at the end
