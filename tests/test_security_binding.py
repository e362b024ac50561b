"""Issue 20, the binding: a STOP on run A stops run A's own process and nothing else.

Each case is the attack, with real processes: run B's trainer writing its own log in A's folder, ``tail -f`` of A's
log, an editor-like reader holding A's log read-only with the path in its argv, ``rsync -a`` of A's folder, a real
tmux server with two sessions (and a session a person opened in the folder), a launcher that also runs something
else. The run's own writer, its launcher and the process piping into ``tee`` are still stopped.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from training_check.tools.errors import StopRefused
from training_check.tools.stop_run import stop_run

from tests.conftest import require
from tests.standins import Trainers
from tests.test_security_stop import alive, stop_assessment


@pytest.fixture
def folder(tmp_path) -> Path:
    d = tmp_path / "runs"
    d.mkdir()
    (d / "train_a.log").write_text("".join(f"step {s} loss nan\n" for s in range(50)))
    return d


@pytest.fixture
def started():
    """Processes a test starts; each is killed by its own PID at the end."""
    procs: list[subprocess.Popen] = []
    yield procs
    for p in procs:
        if p.poll() is None:
            p.kill()
        p.wait(timeout=10)


def _stop(store, config, log: Path, target: str, **kw):
    aid = stop_assessment(store, str(log))
    return stop_run(str(log), "NaN", store=store, config=config, assessment_id=aid, target=target, grace_s=2, **kw)


def _refused(store, config, log: Path, target: str) -> str:
    with pytest.raises(StopRefused) as e:
        _stop(store, config, log, target)
    assert "cannot be tied to run" in str(e.value) and "nothing was stopped" in str(e.value)
    return str(e.value)


def _holding_open(started, path: Path, mode: str) -> subprocess.Popen:
    """A python process with ``path`` in its argv holding it open (``r``: like an editor or a pager)."""
    code = "import sys, time; f = open(sys.argv[1], sys.argv[2]); print('ready', flush=True); time.sleep(120)"
    p = subprocess.Popen([sys.executable, "-c", code, str(path), mode], stdout=subprocess.PIPE, text=True,
                         cwd=path.parent)
    started.append(p)
    assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    return p


def test_run_b_trainer_in_the_same_folder_is_not_run_a(store, config, folder, tmp_path):
    trainers = Trainers(tmp_path, "train.py")
    try:
        b = trainers.start("--log", str(folder / "train_b.log"), cwd=folder)  # run B: its own log, A's folder
        a = trainers.start("--log", str(folder / "train_a.log"), cwd=folder)
        _refused(store, config, folder / "train_a.log", f"pid:{b.pid}")
        assert alive(b)
        r = _stop(store, config, folder / "train_a.log", f"pid:{a.pid}")
        assert r.stopped and a.wait(timeout=5) == 0 and alive(b)
        # and B's STOP never reaches A's trainer either
        a2 = trainers.start("--log", str(folder / "train_a.log"), cwd=folder)
        _refused(store, config, folder / "train_b.log", f"pid:{a2.pid}")
        assert alive(a2)
    finally:
        trainers.close()


def test_tail_f_of_the_log_is_not_the_run(store, config, folder, started):
    tail = subprocess.Popen(["tail", "-f", str(folder / "train_a.log")], stdout=subprocess.DEVNULL, cwd=folder)
    started.append(tail)
    time.sleep(0.3)
    assert "has the run's files open for writing" in _refused(store, config, folder / "train_a.log",
                                                             f"pid:{tail.pid}")
    assert alive(tail)


def test_an_editor_holding_the_log_read_only_is_not_the_run(store, config, folder, started):
    editor = _holding_open(started, folder / "train_a.log", "r")  # vim-like: the log in argv, open read-only
    _refused(store, config, folder / "train_a.log", f"pid:{editor.pid}")
    _refused(store, config, folder / "train_a.log", f"cmd:{sys.executable} -c {editor.args[2]} "
                                                    f"{folder / 'train_a.log'} r")
    assert alive(editor)


def test_rsync_of_the_folder_is_not_the_run(store, config, folder, tmp_path, started):
    require(shutil.which("rsync") is not None, "rsync (apt-get install rsync)")
    big = folder / "train_a.log"
    with big.open("a") as f:
        f.write("x" * (4 << 20))
    dest = tmp_path / "copy"
    rsync = subprocess.Popen(["rsync", "-a", "--bwlimit=64", f"{folder}/", f"{dest}/"], cwd=folder,
                             start_new_session=True)  # rsync signals its whole group when stopped
    started.append(rsync)
    time.sleep(1.0)
    assert rsync.poll() is None
    _refused(store, config, big, f"pid:{rsync.pid}")
    assert alive(rsync)


@pytest.fixture
def tmux_server(tmp_path, monkeypatch):
    require(shutil.which("tmux") is not None, "tmux (apt-get install tmux)")
    (tmp_path / "tmux").mkdir()
    monkeypatch.setenv("TMUX_TMPDIR", str(tmp_path / "tmux"))  # a private tmux server for this test
    monkeypatch.delenv("TMUX", raising=False)
    yield
    subprocess.run(["tmux", "kill-server"], capture_output=True)


def _session(name: str, cwd: Path, command: str) -> None:
    subprocess.run(["tmux", "new-session", "-d", "-s", name, "-c", str(cwd), command], check=True)


def _has(name: str) -> bool:
    return subprocess.run(["tmux", "has-session", "-t", f"={name}"], capture_output=True).returncode == 0


def _server_pid() -> int:
    out = subprocess.run(["tmux", "display-message", "-p", "#{pid}"], capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


def test_tmux_server_and_a_session_in_the_folder_are_not_the_run(store, config, folder, tmux_server):
    log = folder / "train_a.log"
    _session("train", folder, f"sh -c 'exec 3>>{log}; sleep 120'")
    _session("notes", folder, "sleep 120")  # a person's session, working in the run's folder
    _session("viewer", folder, f"tail -f {log}")  # reads the log
    time.sleep(0.5)
    assert "never a run's launcher" in _refused(store, config, log, f"pid:{_server_pid()}")
    _refused(store, config, log, "tmux:notes")
    _refused(store, config, log, "tmux:viewer")
    assert _has("notes") and _has("viewer") and _has("train")
    r = _stop(store, config, log, "tmux:train")
    assert r.stopped and "a program of the session" in r.allowed_by
    assert not _has("train") and _has("notes") and _has("viewer")


def test_a_session_whose_other_pane_runs_something_else_is_refused(store, config, folder, tmux_server):
    log = folder / "train_a.log"
    _session("mixed", folder, f"sh -c 'exec 3>>{log}; sleep 120'")
    subprocess.run(["tmux", "split-window", "-t", "mixed:0", "-c", str(folder), "sleep 121"], check=True)
    time.sleep(0.5)
    assert "is not part of the run" in _refused(store, config, log, "tmux:mixed")
    assert _has("mixed")


def test_a_launcher_that_also_runs_something_else_is_refused(store, config, folder, tmp_path, started):
    trainers = Trainers(tmp_path, "train.py")
    log = folder / "train_a.log"
    launcher = subprocess.Popen(["sh", "-c", f"sleep 120 & {sys.executable} {trainers.script} --log {log}; wait"],
                                stdout=subprocess.PIPE, text=True, cwd=folder)
    started.append(launcher)
    assert launcher.stdout is not None and launcher.stdout.readline().strip() == "ready"
    try:
        assert "which is not part of the run" in _refused(store, config, log, f"pid:{launcher.pid}")
        assert alive(launcher)
    finally:
        subprocess.run(["pkill", "-P", str(launcher.pid)], check=False)  # only the children of our launcher


def test_the_process_piping_into_tee_is_the_run(store, config, folder, tmp_path, started):
    trainers = Trainers(tmp_path, "train.py")
    log = folder / "train_a.log"
    shell = subprocess.Popen(["sh", "-c", f"{sys.executable} {trainers.script} | tee -a {log}"],
                             stdout=subprocess.PIPE, text=True, cwd="/")
    started.append(shell)
    assert shell.stdout is not None and shell.stdout.readline().strip() == "ready"
    out = subprocess.run(["pgrep", "-P", str(shell.pid), "-f", str(trainers.script)], capture_output=True,
                         text=True).stdout.split()
    assert len(out) == 1
    r = _stop(store, config, log, f"pid:{out[0]}")
    assert r.stopped and "goes through a pipe into PID" in r.allowed_by
    assert shell.wait(timeout=10) == 0


def test_a_person_named_target_is_still_allowed_and_recorded(store, config, folder, started):
    log = folder / "train_a.log"
    reader = _holding_open(started, log, "r")
    r = stop_run(str(log), "a person says so", store=store, config=config, target=f"pid:{reader.pid}", force=True,
                 grace_s=2)
    assert r.stopped and "named by a person" in r.allowed_by
    assert [e["kind"] for e in store.evidence_for(r.run_key)] == ["stop_outcome", "stop_plan"]


# -- over SSH (a real sshd on this machine) ------------------------------------------------------------------
def test_ssh_to_this_machine_protects_our_ancestors(ssh_env, store, config, folder):
    """Issue 20: over SSH to this very machine, training-check, the client and its ancestors stay protected."""
    from training_check.tools.sources.ssh import resolve_target
    from training_check.tools.stoppers import process
    from training_check.tools.stoppers.outcome import remote_runner
    from training_check.tools.stoppers.processes import RemoteProcesses

    target = resolve_target("tc-test")
    remote = RemoteProcesses(remote_runner(target), target.label)
    guarded = remote.protected()
    assert {1, os.getpid(), os.getppid()} <= guarded
    for pid in (os.getpid(), os.getppid()):
        with pytest.raises(StopRefused, match="it is init, training-check itself or one of the processes"):
            process.plan_pid(remote, pid)  # planning only: nothing is signalled even on the old code


def test_ssh_a_path_with_newlines_does_not_fake_a_writer(ssh_env, store, config, folder, started):
    """A process writing a file whose path holds a newline then the run's log path is not the run's writer; an argv
    holding ``)`` and newlines does not garble the process's identity."""
    log = folder / "train_a.log"
    crafted = folder / "x\nF 3 02001 " / str(log).lstrip("/")  # .../x<newline>F 3 02001 /<the log's path>
    crafted.parent.mkdir(parents=True)
    mate = _holding_open(started, crafted, "w")
    run = f"ssh://tc-test{log}"
    aid = stop_assessment(store, run)
    with pytest.raises(StopRefused, match="cannot be tied to run"):
        stop_run(run, "NaN", store=store, config=config, assessment_id=aid, target=f"pid:{mate.pid}",
                 host="tc-test")
    assert alive(mate)
    writer = _holding_open(started, log, "a")
    r = stop_run(run, "NaN", store=store, config=config, assessment_id=aid, target=f"pid:{writer.pid}",
                 host="tc-test", grace_s=2)
    assert r.stopped and f"PID {writer.pid} writes the run's file {log}" in r.allowed_by


# -- a PID reused during the grace period is never signalled --------------------------------------------------
def test_a_signal_goes_only_to_the_planned_process(started, ssh_env, tmp_path):
    """Between the plan and each signal the PID may be reused: the signal is sent through a pidfd (here) or a
    start-time check in the same command (over SSH), so a process with another start time is never hit."""
    from training_check.tools.sources.ssh import resolve_target
    from training_check.tools.stoppers.outcome import remote_runner
    from training_check.tools.stoppers.processes import LocalProcesses, RemoteProcesses

    target = resolve_target("tc-test")
    for procs in (LocalProcesses(), RemoteProcesses(remote_runner(target), target.label)):
        p = subprocess.Popen(["sleep", "120"])
        started.append(p)
        info = procs.info(p.pid)
        assert info is not None
        assert procs.send(p.pid, "TERM", start=str(int(info.start) + 1)) == "gone"  # "another" process
        assert alive(p)
        assert procs.send(p.pid, "TERM", start=info.start) == "sent"
        assert p.wait(timeout=5) == -15


def test_a_run_folder_named_with_newlines_and_quotes(store, config, tmp_path, started, ssh_env):
    """A folder name is written by whoever made it: quotes and ``$(...)`` neither break the tie nor run, here or
    over SSH; a newline makes it no run reference at all."""
    from training_check.tools.errors import BadInput

    with pytest.raises(BadInput, match="control character"):
        _stop(store, config, tmp_path / "a\nb" / "train.log", "pid:1")
    folder = tmp_path / "run \"a\" 'b' $(touch pwned-tc20) `touch pwned-tc20`; touch pwned-tc20"
    folder.mkdir()
    log = folder / "train.log"
    log.write_text("step 1 loss nan\n")
    for run, host in ((str(log), None), (f"ssh://tc-test{log}", "tc-test")):
        writer = _holding_open(started, log, "a")
        reader = _holding_open(started, log, "r")
        aid = stop_assessment(store, run)
        with pytest.raises(StopRefused, match="cannot be tied to run"):
            stop_run(run, "NaN", store=store, config=config, assessment_id=aid, target=f"pid:{reader.pid}",
                     host=host)
        r = stop_run(run, "NaN", store=store, config=config, assessment_id=aid, target=f"pid:{writer.pid}",
                     host=host, grace_s=2)
        assert r.stopped and alive(reader) and Path(r.evidence_path or "").is_file()
    for where in (tmp_path, folder, Path.cwd(), Path.home(), Path("/")):
        assert not (where / "pwned-tc20").exists()


def test_a_tie_recorded_under_the_old_rule_is_checked_again(store, config, folder, tmp_path):
    """A store written by an older version recorded run B's trainer as "tied" (it worked in A's folder): that record
    alone no longer makes it stoppable for A; a person's naming still stands."""
    from training_check.tools.runref import parse_run_ref
    from training_check.tools.stoppers import binding
    from training_check.tools.stoppers.processes import LocalProcesses

    trainers = Trainers(tmp_path, "train.py")
    try:
        b = trainers.start("--log", str(folder / "train_b.log"), cwd=folder)
        key = parse_run_ref(str(folder / "train_a.log")).key
        ident = binding.identity_of("pid", str(b.pid), None, LocalProcesses().info(b.pid))
        binding.record(store, key, ident, f"tied to the run: PID {b.pid} works in the run's folder {folder}")
        _refused(store, config, folder / "train_a.log", f"pid:{b.pid}")
        assert alive(b)
        binding.record(store, key, ident, "named by a person (training-check)")
        r = _stop(store, config, folder / "train_a.log", f"pid:{b.pid}")
        assert r.stopped and "named for this run" in r.allowed_by
    finally:
        trainers.close()


def test_a_process_on_another_machine_writing_the_same_path_is_not_the_run(store, config, folder, started, ssh_env):
    """A path names a file on one machine: the remote run's STOP never reaches a local process that writes a file
    of the same path here (nor a local run's STOP a process over SSH)."""
    log = folder / "train_a.log"
    here = _holding_open(started, log, "a")
    remote_run = f"ssh://tc-test{log}"
    aid = stop_assessment(store, remote_run)
    with pytest.raises(StopRefused, match="the run's files are on .*tc-test.*, the target on this machine"):
        stop_run(remote_run, "NaN", store=store, config=config, assessment_id=aid, target=f"pid:{here.pid}",
                 host="local")
    aid = stop_assessment(store, str(log))
    with pytest.raises(StopRefused, match="the run.s files are on this machine, the target on root@tc-test"):
        stop_run(str(log), "NaN", store=store, config=config, assessment_id=aid, target=f"pid:{here.pid}",
                 host="tc-test")
    assert alive(here)


TRAINER_WITH_HELPERS = r"""
import multiprocessing as mp, subprocess, sys, time
def worker():
    time.sleep(120)
if __name__ == "__main__":
    mp.set_start_method("fork")
    workers = [mp.Process(target=worker) for _ in range(2)]  # DataLoader-like workers: forks of the trainer
    for w in workers:
        w.start()
    # a logging service it starts (like wandb-core): the process that writes the run's file
    writer = subprocess.Popen([sys.executable, "-c", "import sys, time; f = open(sys.argv[1], 'a'); time.sleep(120)",
                               sys.argv[1]])
    if len(sys.argv) > 2:  # a launcher that also runs something else
        other = subprocess.Popen(["sleep", "121"])
    print("ready", flush=True)
    time.sleep(120)
"""


def test_a_trainer_with_workers_and_a_logging_child_is_the_run(store, config, folder, tmp_path, started):
    """A trainer whose forked workers read data and whose child writes the log (W&B's service does) is the run's
    launcher; the same with an unrelated child is not."""
    script = tmp_path / "trainer_with_helpers.py"
    script.write_text(TRAINER_WITH_HELPERS)
    log = folder / "train_a.log"
    for extra, ok in (((), True), (("other",), False)):
        p = subprocess.Popen([sys.executable, str(script), str(log), *extra], stdout=subprocess.PIPE, text=True,
                             start_new_session=True)
        started.append(p)
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
        time.sleep(0.3)
        try:
            if ok:
                r = _stop(store, config, log, f"pid:{p.pid}", dry_run=True)
                assert f"PID {p.pid} runs only the run: PID " in r.allowed_by
            else:
                assert "which is not part of the run" in _refused(store, config, log, f"pid:{p.pid}")
        finally:
            os.killpg(p.pid, 9)  # the session this test started: the trainer and its helpers
            p.wait()
