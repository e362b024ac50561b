"""Issue 10, the stop path: only the run is stopped, only on its latest judgment, and only a person overrides.

Every case uses real processes started here (Popen, a PID namespace through ``unshare`` for PID reuse, a process
of another user), the real store, the real CLI and the real MCP server over stdio with the SDK's client.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import anyio
import pytest
from mcp import types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from training_check.tools.errors import BadInput, StopRefused, StoreError
from training_check.tools.runref import parse_run_ref
from training_check.tools.stop_run import stop_run
from training_check.tools.stoppers import process
from training_check.tools.stoppers.processes import LocalProcesses

from tests.conftest import require
from tests.mcp_client import SERVER_ARGV, mcp_session, server_env
from tests.standins import Trainers


@pytest.fixture
def run_log(tmp_path) -> Path:
    p = tmp_path / "run" / "train.log"
    p.parent.mkdir()
    p.write_text("".join(f"step {s} loss nan\n" for s in range(50)))
    return p


@pytest.fixture
def procs(tmp_path):
    """Start real processes (tests/standins.py's trainer as proc.py, in tmp_path unless told); every one of them is
    killed (by its own PID) at the end."""
    trainers = Trainers(tmp_path, "proc.py")

    def start(*args: str, cwd: Path | None = None, **kw) -> subprocess.Popen:
        return trainers.start(*args, cwd=cwd or tmp_path, **kw)

    yield start
    trainers.close()


def stop_assessment(store, run: str, verdict: str = "STOP", **extra) -> str:
    key = parse_run_ref(run).key
    payload = {"run": run, "verdict": verdict, "summary": "loss is NaN", "findings": [],
               "progress": {"step": 49, "total_steps": None}, "key_metrics": {}, **extra}
    return store.add_assessment(key, verdict, 49, payload)


def alive(p: subprocess.Popen) -> bool:
    time.sleep(0.2)
    return p.poll() is None


# -- the target must be the run's --------------------------------------------------------------------------------
def test_a_stop_verdict_does_not_authorise_an_unrelated_process(store, config, run_log, procs, tmp_path):
    editor = procs(cwd=tmp_path)  # works elsewhere, holds nothing of the run open
    aid = stop_assessment(store, str(run_log))
    for target in (f"pid:{editor.pid}", f"cmd:{sys.executable} {tmp_path / 'proc.py'}"):
        with pytest.raises(StopRefused) as e:
            stop_run(str(run_log), "NaN", store=store, config=config, assessment_id=aid, target=target)
        assert str(e.value).startswith(f"PID {editor.pid} (") and "cannot be tied to run file:" in str(e.value)
        assert "nothing was stopped" in str(e.value)
    pidfile = tmp_path / "editor.pid"
    pidfile.write_text(f"{editor.pid}\n")
    with pytest.raises(StopRefused, match="cannot be tied to run"):
        stop_run(str(run_log), "NaN", store=store, config=config, assessment_id=aid, target=f"pidfile:{pidfile}")
    assert alive(editor)
    assert store.evidence_for(parse_run_ref(str(run_log)).key) == []


def test_the_training_process_of_the_run_is_stopped_with_evidence_first(store, config, run_log, procs, tmp_path):
    trainer = procs("--log", str(run_log), cwd=tmp_path)
    aid = stop_assessment(store, str(run_log))
    r = stop_run(str(run_log), "NaN", store=store, config=config, assessment_id=aid, target=f"pid:{trainer.pid}",
                 grace_s=5)
    assert r.stopped and trainer.wait(timeout=5) == 0
    assert f"target: tied to the run: PID {trainer.pid} writes the run's file {run_log}" in r.allowed_by
    kinds = [row["kind"] for row in store.evidence_for(r.run_key)]
    assert kinds == ["stop_outcome", "stop_plan"]  # newest first: the plan was saved before the signal


def test_a_process_the_training_started_ties_its_parent(store, config, run_log, procs, tmp_path):
    """A launcher (torchrun, a shell) holds nothing itself; the worker it started writes the log."""
    launcher = subprocess.Popen(["sh", "-c", f"{sys.executable} {tmp_path / 'proc.py'} --log {run_log}; exit 0"],
                                stdout=subprocess.PIPE, text=True, cwd="/")
    try:
        assert launcher.stdout.readline().strip() == "ready"
        aid = stop_assessment(store, str(run_log))
        r = stop_run(str(run_log), "NaN", store=store, config=config, assessment_id=aid,
                     target=f"pid:{launcher.pid}", dry_run=True)
        assert f"PID {launcher.pid} runs only the run: PID " in r.allowed_by
    finally:
        # only the children of the launcher we started
        subprocess.run(check=False, args=["pkill", "-P", str(launcher.pid)])
        launcher.kill()
        launcher.wait()


def test_working_in_the_folder_or_naming_the_run_does_not_tie(store, config, run_log, procs, tmp_path):
    """Issue 20: a process in the run's folder, or whose command line names the log, is not the run's."""
    in_folder = procs(cwd=run_log.parent)
    named = procs("--name", str(run_log), cwd=tmp_path)
    aid = stop_assessment(store, str(run_log))
    for p in (in_folder, named):
        with pytest.raises(StopRefused, match="has the run's files open for writing"):
            stop_run(str(run_log), "NaN", store=store, config=config, assessment_id=aid, target=f"pid:{p.pid}")
        assert alive(p)


def test_a_tmux_session_of_another_program_is_refused(store, config, run_log, tmp_path, monkeypatch):
    require(shutil.which("tmux") is not None, "tmux (apt-get install tmux)")
    (tmp_path / "tmux").mkdir()
    monkeypatch.setenv("TMUX_TMPDIR", str(tmp_path / "tmux"))
    monkeypatch.delenv("TMUX", raising=False)
    try:
        subprocess.run(["tmux", "new-session", "-d", "-s", "editor", "-c", str(tmp_path), "sleep 60"], check=True)
        subprocess.run(["tmux", "new-session", "-d", "-s", "train", "-c", str(tmp_path),
                        f"sh -c 'exec 3>>{run_log}; sleep 60'"], check=True)
        time.sleep(0.5)
        aid = stop_assessment(store, str(run_log))
        with pytest.raises(StopRefused, match="tmux editor on this machine cannot be tied to run"):
            stop_run(str(run_log), "NaN", store=store, config=config, assessment_id=aid, target="tmux:editor")
        r = stop_run(str(run_log), "NaN", store=store, config=config, assessment_id=aid, target="tmux:train",
                     grace_s=2)
        assert r.stopped and "a program of the session" in r.allowed_by
        assert subprocess.run(check=False, args=["tmux", "has-session", "-t", "=editor"]).returncode == 0
    finally:
        subprocess.run(check=False, args=["tmux", "kill-server"], capture_output=True)


def test_another_users_process_is_never_a_target_even_for_root(store, config, run_log, tmp_path):
    require(os.geteuid() == 0, "root (to start a process as another user)")
    other = subprocess.Popen(["/bin/sh", "-c", "sleep 60", str(run_log)], user=65534, cwd="/")
    try:
        time.sleep(0.3)
        aid = stop_assessment(store, str(run_log))
        for kw in ({"assessment_id": aid}, {"force": True}, {"named_by_person": True, "assessment_id": aid}):
            with pytest.raises(StopRefused) as e:
                stop_run(str(run_log), "NaN", store=store, config=config, target=f"pid:{other.pid}", **kw)
            assert str(e.value) == (f"PID {other.pid} on this machine belongs to uid 65534, not to this user (uid 0): "
                                    f"refusing to signal another user's process")
        assert other.poll() is None
    finally:
        other.kill()
        other.wait()


def test_training_check_and_its_ancestors_are_never_targets(tc_home, tmp_path, run_log):
    """A process running stop_run with --force on its own parent's parent (this pytest) is refused."""
    code = textwrap.dedent(f"""
        import os, sys
        from training_check.tools.config import load_config
        from training_check.tools.store import Store
        from training_check.tools.stop_run import stop_run
        from training_check.tools.errors import StopRefused
        c = load_config()
        try:
            stop_run({str(run_log)!r}, "x", store=Store(c.store_path), config=c, force=True,
                     target="pid:" + sys.argv[1])
            print("STOPPED")
        except StopRefused as e:
            print(e)
    """)
    script = tmp_path / "self_stop.py"
    script.write_text(code)
    out = subprocess.run(check=False, args=["sh", "-c", f'"{sys.executable}" "{script}" {os.getpid()}'],
                         capture_output=True, text=True, timeout=60,
                         env={**os.environ, "TRAINING_CHECK_HOME": str(tc_home)})
    assert out.stdout.strip() == (f"refusing to signal PID {os.getpid()} on this machine: it is init, "
                                  f"training-check itself or one of the processes that started it"), out.stderr
    local = LocalProcesses()
    with pytest.raises(StopRefused, match="refusing to signal PID 1 on this machine: it is init"):
        process.plan_pid(local, 1)
    with pytest.raises(StopRefused, match="refusing to signal PID 2 on this machine: it is a kernel thread"):
        process.plan_pid(local, 2)


PID_REUSE = textwrap.dedent("""
    import json, os, subprocess, sys, time
    from training_check.tools.config import load_config
    from training_check.tools.runref import parse_run_ref
    from training_check.tools.store import Store
    from training_check.tools.stop_run import name_target, stop_run
    from training_check.tools.errors import StopRefused
    log = sys.argv[1]
    c = load_config(); store = Store(c.store_path)
    trainer = subprocess.Popen(["sleep", "300"], cwd="/")      # the job the user named (holds nothing open)
    named = name_target(log, f"pid:{trainer.pid}", store=store, config=c)
    trainer.kill(); trainer.wait()
    with open("/proc/sys/kernel/ns_last_pid", "w") as f:      # the next process gets the same PID
        f.write(str(trainer.pid - 1))
    editor = subprocess.Popen(["sh", "-c", "sleep 300"], cwd="/")
    aid = store.add_assessment(parse_run_ref(log).key, "STOP", 49, {"verdict": "STOP", "summary": "NaN"})
    try:
        stop_run(log, "NaN", store=store, config=c, assessment_id=aid, target=f"pid:{trainer.pid}", grace_s=1)
        result = "STOPPED"
    except StopRefused as e:
        result = str(e)
    time.sleep(0.2)
    print(json.dumps({"same_pid": editor.pid == trainer.pid, "named": named, "result": result,
                      "editor_alive": editor.poll() is None}))
    editor.kill()
""")


def test_a_reused_pid_is_not_the_named_target(tc_home, tmp_path, run_log):
    require(os.geteuid() == 0 and shutil.which("unshare") is not None, "root and unshare (a PID namespace)")
    script = tmp_path / "reuse.py"
    script.write_text(PID_REUSE)
    out = subprocess.run(check=False, args=["unshare", "--pid", "--fork", "--mount-proc", sys.executable, str(script),
                                            str(run_log)],
                         capture_output=True, text=True, timeout=60,
                         env={**os.environ, "TRAINING_CHECK_HOME": str(tc_home)})
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    assert res["same_pid"] and res["editor_alive"], res
    assert "named by a person" in res["named"]
    assert res["result"].startswith("PID ") and "is not the target named for this run" in res["result"]
    assert "the PID or name was probably reused" in res["result"] and "nothing was stopped" in res["result"]


# -- only the latest judgment authorises, and not for long -------------------------------------------------------
def test_a_replay_does_not_authorise(store, config, run_log, procs):
    trainer = procs("--log", str(run_log))
    aid = stop_assessment(store, str(run_log), as_of_step=30)
    with pytest.raises(StopRefused) as e:
        stop_run(str(run_log), "NaN", store=store, config=config, assessment_id=aid, target=f"pid:{trainer.pid}")
    assert str(e.value) == (f"assessment {aid} is a replay (as_of_step=30): only a check of the run as it is now "
                            f"authorises a stop; nothing was stopped")
    assert alive(trainer)


def test_a_real_replay_is_marked_and_refused(store, config, run_log, procs):
    from training_check.tools.assess import assess_run

    trainer = procs("--log", str(run_log))
    a = assess_run(str(run_log), store=store, config=config, as_of_step=40)
    assert store.get_assessment(a.assessment_id)["as_of_step"] == 40
    with pytest.raises(StopRefused, match="is a replay"):
        stop_run(str(run_log), "NaN", store=store, config=config, assessment_id=a.assessment_id,
                 target=f"pid:{trainer.pid}")
    assert alive(trainer)


def test_a_stop_superseded_by_a_newer_continue_does_not_authorise(store, config, run_log, procs):
    trainer = procs("--log", str(run_log))
    key = parse_run_ref(str(run_log)).key
    old = stop_assessment(store, str(run_log))
    time.sleep(0.01)
    newer = stop_assessment(store, str(run_log), "CONTINUE")
    with pytest.raises(StopRefused) as e:
        stop_run(str(run_log), "NaN", store=store, config=config, assessment_id=old, target=f"pid:{trainer.pid}")
    assert str(e.value).startswith(f"assessment {old} is not the run's latest judgment: assessment {newer} "
                                   f"(CONTINUE, 0 min ago) came after it")
    esc = stop_assessment(store, str(run_log), "ESCALATE")
    rid = store.add_review(key, esc, "m", "h", "STOP", "diverging", {})
    time.sleep(0.01)
    stop_assessment(store, str(run_log), "CONTINUE")
    with pytest.raises(StopRefused, match=f"review {rid} is not the run's latest judgment"):
        stop_run(str(run_log), "NaN", store=store, config=config, review_id=rid, target=f"pid:{trainer.pid}")
    assert alive(trainer)


def _age(store, aid: str, minutes: float) -> None:
    with sqlite3.connect(store.path) as c:
        c.execute("UPDATE assessments SET created_at=? WHERE id=?", (time.time() - minutes * 60, aid))


def test_authority_expires_within_the_check_interval(store, config, run_log, procs):
    trainer = procs("--log", str(run_log))
    key = parse_run_ref(str(run_log)).key
    aid = stop_assessment(store, str(run_log))
    _age(store, aid, 25)  # no schedule yet: the first rung, 10 min -> 20 min of authority
    with pytest.raises(StopRefused) as e:
        stop_run(str(run_log), "NaN", store=store, config=config, assessment_id=aid, target=f"pid:{trainer.pid}")
    assert str(e.value) == (f"assessment {aid} is 25 min ago (limit 20 min: twice the check interval): assess the "
                            f"run again before stopping it")
    store.put_schedule(key, {"rung": 3, "interval": 60})  # at the 60-minute cap: 2 h at most
    _age(store, aid, 100)
    r = stop_run(str(run_log), "NaN", store=store, config=config, assessment_id=aid, target=f"pid:{trainer.pid}",
                 dry_run=True)
    assert r.allowed_by.startswith(f"assessment {aid} (STOP, 100 min ago)")
    _age(store, aid, 125)
    with pytest.raises(StopRefused, match=r"limit 120 min: twice the check interval"):
        stop_run(str(run_log), "NaN", store=store, config=config, assessment_id=aid, target=f"pid:{trainer.pid}")
    assert alive(trainer)


# -- a person overrides; the agent cannot --------------------------------------------------------------------------
def cli(*args: str, home: Path) -> subprocess.CompletedProcess:
    return subprocess.run(check=False, args=[sys.executable, "-m", "training_check.server.cli", *args],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TRAINING_CHECK_HOME": str(home)})


def test_a_person_stops_an_untied_process_with_force_on_the_cli(tc_home, run_log, procs, tmp_path):
    job = procs(cwd=tmp_path)
    out = cli("stop", str(run_log), "--reason", "I want it stopped", "--target", f"pid:{job.pid}", "--force",
              "--grace-s", "5", "--json", home=tc_home)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["stopped"] is True and job.wait(timeout=5) == 0
    assert d["allowed_by"] == ("force by a person (training-check stop --force); target: named by a person "
                               "(training-check)")
    assert Path(d["evidence_path"]).is_file()


def test_a_person_names_the_target_then_the_agent_stops_it_over_mcp(tc_home, tmp_path, procs):
    log = tmp_path / "run" / "train.log"
    log.parent.mkdir(exist_ok=True)
    log.write_text("".join(f"step {s} loss {4 - s / 100:.3f}\n" for s in range(100)) +
                   "".join(f"step {s} loss nan\n" for s in range(100, 160)))
    job = procs(cwd=tmp_path)  # e.g. a job whose log is written by another process
    named = cli("target", str(log), f"pid:{job.pid}", home=tc_home)
    assert named.returncode == 0, named.stderr
    assert named.stdout.strip().endswith(f"is the target of run file:{log} (named by a person (training-check))")

    async def main():
        async with mcp_session(tc_home) as s:
            e = await s.error("stop_run", {"run": str(tmp_path / "nope.log"), "reason": "x", "force": True,
                                           "target": f"pid:{job.pid}"})
            assert e.startswith("stop_run: unknown argument 'force'; accepted: run, reason, assessment_id")
            a = await s.ok("assess_run", {"run": str(log)})
            assert a["verdict"] == "STOP"
            rep = await s.ok("stop_run", {"run": str(log), "reason": "NaN", "assessment_id": a["assessment_id"],
                                          "target": f"pid:{job.pid}"})
            assert rep["stopped"] is True and "named for this run" in rep["allowed_by"]

    anyio.run(main)
    assert job.wait(timeout=10) == 0


async def _elicit_session(tc_home: Path, answer: bool | None, asked: list):
    async def on_elicit(context, params):
        asked.append(params.message)
        if answer is None:
            return types.ElicitResult(action="decline")
        return types.ElicitResult(action="accept", content={"stop": answer})

    params = StdioServerParameters(command=SERVER_ARGV[0], args=SERVER_ARGV[1:], env=server_env(tc_home),
                                   cwd=str(tc_home.parent))
    return params, on_elicit


@pytest.mark.parametrize("answer", [True, None])
def test_mcp_asks_the_user_before_stopping_an_untied_target(tc_home, tmp_path, procs, answer):
    log = tmp_path / "run" / "train.log"
    log.parent.mkdir(exist_ok=True)
    log.write_text("".join(f"step {s} loss nan\n" for s in range(60)))
    job = procs(cwd=tmp_path)
    asked: list[str] = []
    errlog = open(tmp_path / "stderr.log", "a")  # noqa: SIM115 - closed below, after the async client ends

    async def main():
        params, on_elicit = await _elicit_session(tc_home, answer, asked)
        async with stdio_client(params, errlog=errlog) as (read, write), \
                ClientSession(read, write, elicitation_callback=on_elicit, read_timeout_seconds=120) as client:
            await client.initialize()
            a = await client.call_tool("assess_run", {"run": str(log)})
            aid = a.structured_content["assessment_id"]
            return await client.call_tool("stop_run", {"run": str(log), "reason": "NaN",
                                                       "assessment_id": aid, "target": f"pid:{job.pid}"})

    try:
        res = anyio.run(main)
    finally:
        errlog.close()
    assert len(asked) == 1 and asked[0].startswith(f"Stop PID {job.pid} (") and "not tied to the run" in asked[0]
    if answer:
        assert not res.is_error and res.structured_content["stopped"] is True
        assert res.structured_content["allowed_by"].endswith("target: confirmed by the user when asked")
        assert job.wait(timeout=10) == 0
    else:
        assert res.is_error and "cannot be tied to run" in res.content[0].text
        assert alive(job)


# -- pidfiles and evidence ---------------------------------------------------------------------------------------
def test_a_fifo_pidfile_does_not_hang(store, config, run_log, tmp_path):
    fifo = tmp_path / "train.pid"
    os.mkfifo(fifo)
    aid = stop_assessment(store, str(run_log))
    t0 = time.monotonic()
    with pytest.raises(BadInput) as e:
        stop_run(str(run_log), "NaN", store=store, config=config, assessment_id=aid, target=f"pidfile:{fifo}")
    assert time.monotonic() - t0 < 2
    assert str(e.value) == f"pidfile {fifo} is not a regular file: pass the file the job wrote its PID into"


def test_a_pidfile_error_never_quotes_the_file(store, config, run_log, tmp_path):
    secret = tmp_path / ".env"
    secret.write_text("OPENAI_API_KEY=sk-live-0123456789abcdef\n")
    aid = stop_assessment(store, str(run_log))
    targets = [secret] + ([Path("/etc/shadow")] if Path("/etc/shadow").is_file() else [])
    for path in targets:
        with pytest.raises(StopRefused) as e:
            stop_run(str(run_log), "NaN", store=store, config=config, assessment_id=aid, target=f"pidfile:{path}")
        assert str(e.value) == f"pidfile {path} does not hold a PID (a single number); nothing was signalled"
    big = tmp_path / "big.pid"
    big.write_text("1" * 5000)
    with pytest.raises(BadInput, match="is 5000 bytes, too big for a pidfile"):
        stop_run(str(run_log), "NaN", store=store, config=config, assessment_id=aid, target=f"pidfile:{big}")


def test_evidence_is_private_and_never_written_through_a_symlink(store, config, run_log, procs, tmp_path):
    trainer = procs("--log", str(run_log))
    aid = stop_assessment(store, str(run_log))
    r = stop_run(str(run_log), "NaN", store=store, config=config, assessment_id=aid, target=f"pid:{trainer.pid}",
                 grace_s=5)
    assert stat.S_IMODE(os.stat(r.evidence_path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(config.evidence_dir).st_mode) == 0o700
    # the evidence folder replaced by a symlink to somewhere else: refused, nothing stopped
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.rmtree(config.evidence_dir)
    config.evidence_dir.symlink_to(elsewhere)
    second = procs("--log", str(run_log))
    aid2 = stop_assessment(store, str(run_log))
    with pytest.raises(StoreError, match="cannot write the evidence file .*; nothing was stopped"):
        stop_run(str(run_log), "NaN", store=store, config=config, assessment_id=aid2, target=f"pid:{second.pid}")
    assert list(elsewhere.iterdir()) == [] and alive(second)
