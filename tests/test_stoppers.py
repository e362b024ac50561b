"""Stop methods on real processes: signals here and over a real sshd, a real tmux session, a real Slurm job."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from training_check.tools.errors import BadInput, StopRefused, TrainingCheckError
from training_check.tools.sources.ssh import POOL, resolve_target
from training_check.tools.stoppers import process, slurm, tmux
from training_check.tools.stoppers.outcome import local_runner, remote_runner
from training_check.tools.stoppers.processes import LocalProcesses, RemoteProcesses, cmdline_matches, parse_pid

from tests.conftest import require
from tests.sshd_fixture import sshd  # noqa: F401  (fixture)
from tests.standins import Trainers

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from slurm_cluster import SlurmNotUp, private_slurm  # noqa: E402


@pytest.fixture
def trainers(tmp_path):
    t = Trainers(tmp_path)
    yield t
    t.close()  # only the children this test started, by their PID


@pytest.fixture
def child_script(trainers) -> Path:
    return trainers.script


@pytest.fixture
def spawn(trainers):
    return trainers.start  # spawn("trap" | "ignore", *extra)


def test_sigint_stops_a_trapping_process(spawn):
    p = spawn("trap")
    procs = LocalProcesses()
    plan = process.plan_pid(procs, p.pid, grace_s=5)
    out = process.execute(procs, plan)
    assert out.stopped and out.final_state == "gone" and out.signal_used == "INT"
    assert p.wait(timeout=5) == 0  # exited through its SIGINT handler
    assert out.elapsed_s < 3 and any("SIGINT" in a for a in out.actions)


def test_sigkill_after_grace_for_a_process_ignoring_int_and_term(spawn):
    p = spawn("ignore")
    procs = LocalProcesses()
    out = process.execute(procs, process.plan_pid(procs, str(p.pid), grace_s=0.6))
    assert out.stopped and out.signal_used == "KILL"
    assert [a.split(" ", 1)[1] for a in out.actions[:3]] == [f"sent SIGINT to PID {p.pid}",
                                                             f"sent SIGTERM to PID {p.pid}",
                                                             f"sent SIGKILL to PID {p.pid}"]
    assert p.wait(timeout=5) == -9
    assert 0.5 < out.elapsed_s < 5


def test_no_kill_after_leaves_it_running_and_says_so(spawn):
    p = spawn("ignore")
    procs = LocalProcesses()
    out = process.execute(procs, process.plan_pid(procs, p.pid, grace_s=0.2), kill_after=False)
    assert not out.stopped and out.final_state == "still running" and p.poll() is None
    assert out.actions[-1].split(" ", 1)[1] == f"PID {p.pid} is STILL RUNNING"


def test_pidfile(spawn, tmp_path):
    p = spawn("trap")
    pf = tmp_path / "train.pid"
    pf.write_text(f"{p.pid}\n")
    procs = LocalProcesses()
    out = process.execute(procs, process.plan_pidfile(procs, str(pf), grace_s=5))
    assert out.stopped and p.wait(timeout=5) == 0
    pf.write_text("not a pid")
    with pytest.raises(StopRefused, match="does not hold a PID"):
        process.plan_pidfile(procs, str(pf))
    with pytest.raises(Exception, match="no pidfile"):
        process.plan_pidfile(procs, str(tmp_path / "missing.pid"))


def test_exact_cmdline_match_never_matches_a_longer_command(spawn, child_script):
    longer = spawn("trap", "--tag", "exact-test-longer")
    procs = LocalProcesses()
    short_cmd = f"{sys.executable} {child_script} trap --tag"
    with pytest.raises(StopRefused, match="exactly the command line"):
        process.plan_cmdline(procs, short_cmd)
    with pytest.raises(StopRefused, match="exactly the command line"):
        process.plan_cmdline(procs, f"{sys.executable} {child_script} trap --tag exact-test-lon")
    plan = process.plan_cmdline(procs, f"{sys.executable} {child_script} trap --tag exact-test-longer", grace_s=5)
    assert plan.info.pid == longer.pid
    assert process.execute(procs, plan).stopped
    assert not cmdline_matches(("python", "train.py", "--lr", "1"), "python train.py")
    assert cmdline_matches(("python", "a b.py"), "python 'a b.py'")


def test_two_identical_command_lines_are_ambiguous(spawn, child_script):
    spawn("trap", "--tag", "twin")
    spawn("trap", "--tag", "twin")
    with pytest.raises(StopRefused, match="2 processes"):
        process.plan_cmdline(LocalProcesses(), f"{sys.executable} {child_script} trap --tag twin")


def test_refusals_pid_missing_protected_other_user():
    procs = LocalProcesses()
    for pid in (1, os.getpid(), os.getppid()):
        with pytest.raises(StopRefused, match="refusing"):
            process.plan_pid(procs, pid)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    with pytest.raises(StopRefused, match="no process with PID"):
        process.plan_pid(procs, gone.pid)
    kthread = next((pid for pid in procs.pids() if (i := procs.info(pid)) and not i.argv and i.uid == 0), None)
    if kthread:
        with pytest.raises(StopRefused, match="kernel thread"):
            process.plan_pid(procs, kthread)


def test_other_users_process_refused_when_not_root(spawn):
    """Run as an unprivileged user: a root-owned (or any other user's) process is refused."""
    p = spawn("trap")
    procs = LocalProcesses()

    class AsNobody(LocalProcesses):
        def euid(self) -> int:
            return 65534

    with pytest.raises(StopRefused, match="belongs to uid"):
        process.plan_pid(AsNobody(), p.pid)
    assert p.poll() is None and procs.info(p.pid) is not None


HOSTILE = ["; rm -rf /tmp/x", "$(touch {canary})", "`touch {canary}`", "1\ntouch {canary}", "-rf", "--help",
           "1; touch {canary}", "1 && touch {canary}", "| touch {canary}", "../../etc/passwd", "-1", "1.5",
           "=foo", "a:b", "a.b", "", " "]


@pytest.mark.parametrize("value", HOSTILE)
def test_hostile_values_rejected_by_every_validator(value, tmp_path):
    canary = tmp_path / "pwned"
    v = value.format(canary=canary)
    with pytest.raises(BadInput):
        parse_pid(v)
    with pytest.raises(BadInput):
        slurm.check_job_id(v)
    with pytest.raises(BadInput):
        tmux.check_session_name(v)
    assert not canary.exists()


def test_valid_ids_accepted():
    assert parse_pid("123") == 123 and parse_pid(7) == 7
    assert slurm.check_job_id("4242") == "4242" and slurm.check_job_id("4242_7") == "4242_7"
    assert tmux.check_session_name("train-run_1") == "train-run_1"
    for bad_pid in (True, "0", 0, "99999999999", 1 << 23, None, 1.0):
        with pytest.raises(BadInput):
            parse_pid(bad_pid)


# -- tmux -------------------------------------------------------------------------------------------------
@pytest.fixture
def tmux_env(tmp_path, monkeypatch):
    require(shutil.which("tmux") is not None, "tmux (apt-get install tmux)")
    sock_dir = tmp_path / "tmux"
    sock_dir.mkdir()
    monkeypatch.setenv("TMUX_TMPDIR", str(sock_dir))  # a private tmux server for this test
    monkeypatch.delenv("TMUX", raising=False)
    yield
    subprocess.run(["tmux", "kill-server"], capture_output=True)


def test_tmux_session_stopped_by_ctrl_c(tmux_env, child_script):
    subprocess.run(["tmux", "new-session", "-d", "-s", "tc-train", f"{sys.executable} {child_script} trap"], check=True)
    subprocess.run(["tmux", "new-session", "-d", "-s", "tc-train-other", "sleep 60"], check=True)
    time.sleep(0.5)
    name, steps = tmux.plan(local_runner, "tc-train", "this machine")
    assert "kill-session -t =tc-train" in " ".join(steps)
    out = tmux.execute(local_runner, name, "this machine", None, grace_s=5)
    assert out.stopped and out.final_state == "session gone"
    assert subprocess.run(["tmux", "has-session", "-t", "=tc-train"], capture_output=True).returncode != 0
    # the session whose name merely starts with the same text is untouched
    assert subprocess.run(["tmux", "has-session", "-t", "=tc-train-other"], capture_output=True).returncode == 0


def test_tmux_session_ignoring_ctrl_c_is_killed(tmux_env, child_script):
    subprocess.run(["tmux", "new-session", "-d", "-s", "stubborn", f"{sys.executable} {child_script} ignore"],
                   check=True)
    time.sleep(0.5)
    out = tmux.execute(local_runner, "stubborn", "this machine", None, grace_s=0.5)
    assert out.stopped and out.signal_used == "HUP"
    assert any("kill-session" in a for a in out.actions)


def test_tmux_missing_session_refused(tmux_env):
    subprocess.run(["tmux", "new-session", "-d", "-s", "longer-name", "sleep 30"], check=True)
    with pytest.raises(StopRefused, match="no tmux session named exactly"):
        tmux.plan(local_runner, "longer", "this machine")  # a prefix must not match


# -- over the real sshd -------------------------------------------------------------------------------------
@pytest.fixture
def remote_procs(sshd, monkeypatch):  # noqa: F811
    for k, v in sshd.env().items():
        monkeypatch.setenv(k, v)
    POOL.close_all()
    target = resolve_target("tc-test")
    yield RemoteProcesses(remote_runner(target), target.label)
    POOL.close_all()


def test_remote_sigint_and_sigkill(remote_procs, spawn):
    p = spawn("trap")
    out = process.execute(remote_procs, process.plan_pid(remote_procs, p.pid, grace_s=5))
    assert out.stopped and out.signal_used == "INT" and p.wait(timeout=5) == 0
    q = spawn("ignore")
    out = process.execute(remote_procs, process.plan_pid(remote_procs, q.pid, grace_s=0.6))
    assert out.stopped and out.signal_used == "KILL" and q.wait(timeout=5) == -9


def test_remote_pidfile_and_exact_cmdline(remote_procs, spawn, child_script, tmp_path):
    p = spawn("trap", "--tag", "remote-exact")
    with pytest.raises(StopRefused, match="exactly the command line"):
        process.plan_cmdline(remote_procs, f"{sys.executable} {child_script} trap --tag")
    plan = process.plan_cmdline(remote_procs, f"{sys.executable} {child_script} trap --tag remote-exact", grace_s=5)
    assert plan.info.pid == p.pid
    pf = tmp_path / "t.pid"
    pf.write_text(str(p.pid))
    assert process.plan_pidfile(remote_procs, str(pf)).info.pid == p.pid
    assert process.execute(remote_procs, plan).stopped


def test_remote_hostile_pidfile_and_cmdline_inert(remote_procs, tmp_path):
    canary = tmp_path / "pwned"
    for path in (f"/tmp/x; touch {canary}", f"/tmp/$(touch {canary})", f"/tmp/`touch {canary}`"):
        with pytest.raises(TrainingCheckError):
            process.plan_pidfile(remote_procs, path)
    for cmd in (f"sleep 1; touch {canary}", f"$(touch {canary})", f"`touch {canary}`"):
        with pytest.raises(StopRefused):
            process.plan_cmdline(remote_procs, cmd)
    with pytest.raises(BadInput):
        process.plan_cmdline(remote_procs, f"a\ntouch {canary}")
    with pytest.raises(BadInput):
        process.plan_pidfile(remote_procs, "relative/-rf")
    assert not canary.exists()


def test_remote_missing_pid_refused(remote_procs):
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    with pytest.raises(StopRefused, match="no process with PID"):
        process.plan_pid(remote_procs, gone.pid)
    with pytest.raises(StopRefused, match="refusing"):
        process.plan_pid(remote_procs, 1)


# -- Slurm (a real single-node slurmctld + slurmd, as root) --------------------------------------------------
@pytest.fixture(scope="module")
def slurm_cluster(tmp_path_factory):
    require(all(shutil.which(b) for b in ("slurmctld", "slurmd", "munged", "mungekey", "scancel", "sbatch")),
            "slurm (apt-get install slurmctld slurmd slurm-client munge)")
    require(os.geteuid() == 0, "root (the single-node Slurm test runs slurmd as root)")
    d = tmp_path_factory.mktemp("slurm")
    old = os.environ.get("SLURM_CONF")
    try:
        with private_slurm(d, name="tc", cpus=os.cpu_count() or 1, wait_s=30, quiet=False) as env:
            os.environ["SLURM_CONF"] = env["SLURM_CONF"]
            yield d
    except SlurmNotUp as e:
        pytest.fail(str(e))
    finally:
        if old is None:
            os.environ.pop("SLURM_CONF", None)
        else:
            os.environ["SLURM_CONF"] = old


def test_real_scancel(slurm_cluster):
    r = subprocess.run(["sbatch", "--parsable", "-o", "/dev/null", "--wrap", "sleep 300"], capture_output=True,
                       text=True, check=True)
    job = r.stdout.strip().split(";")[0]
    deadline = time.monotonic() + 20
    while slurm.job_state(local_runner, job, "here") != "RUNNING" and time.monotonic() < deadline:
        time.sleep(0.3)
    job_id, steps = slurm.plan(local_runner, job, "this machine")
    assert steps[0].startswith(f"scancel {job}")
    out = slurm.execute(local_runner, job_id, "this machine", None, grace_s=10, poll_s=0.2)
    assert out.stopped and out.final_state in ("CANCELLED", "gone"), out
    with pytest.raises(StopRefused, match="already CANCELLED|does not know"):
        slurm.plan(local_runner, job, "this machine")
    with pytest.raises(StopRefused, match="does not know"):
        slurm.plan(local_runner, "999999", "this machine")


def _running_job(*sbatch_args: str) -> str:
    r = subprocess.run(["sbatch", "--parsable", *sbatch_args], capture_output=True, text=True, check=True)
    job = r.stdout.strip().split(";")[0]
    deadline = time.monotonic() + 20
    while slurm.job_state(local_runner, job, "here") != "RUNNING" and time.monotonic() < deadline:
        time.sleep(0.3)
    while time.monotonic() < deadline:  # the batch script and its sleep have started
        pids = subprocess.run(["scontrol", "listpids", job], capture_output=True, text=True).stdout
        if len(pids.splitlines()) >= 3:
            break
        time.sleep(0.3)
    return job


def test_slurm_binding_workdir_never_ties_output_or_a_writing_step_does(slurm_cluster, store, config, tmp_path):
    """Issue 20: a job that merely works in the run's folder is not the run; its output file or a step writing the
    run's log is."""
    from training_check.tools.stop_run import stop_run

    from tests.test_security_stop import stop_assessment

    folder = tmp_path / "runs"
    folder.mkdir()
    log = folder / "train_a.log"
    log.write_text("step 1 loss nan\n")
    aid = stop_assessment(store, str(log))
    jobs: list[str] = []
    try:  # one job at a time: the test cluster runs one
        jobs.append(_running_job("-D", str(folder), "-o", "/dev/null", "--wrap", "sleep 300"))  # WorkDir: the folder
        with pytest.raises(StopRefused, match="cannot be tied to run.*work folder, command or name does not count"):
            stop_run(str(log), "NaN", store=store, config=config, assessment_id=aid, target=f"slurm:{jobs[-1]}")
        assert slurm.job_state(local_runner, jobs[-1], "here") == "RUNNING"
        subprocess.run(["scancel", jobs[-1]], capture_output=True)
        # a job whose NAME holds " StdOut=<the run's log>" does not write the log
        jobs.append(_running_job("-D", "/tmp", "-o", "/dev/null", "-J", f"x StdOut={log} StdErr={log}",
                                 "--wrap", "sleep 300"))
        with pytest.raises(StopRefused, match="cannot be tied to run"):
            stop_run(str(log), "NaN", store=store, config=config, assessment_id=aid, target=f"slurm:{jobs[-1]}")
        assert slurm.job_state(local_runner, jobs[-1], "here") == "RUNNING"
        subprocess.run(["scancel", jobs[-1]], capture_output=True)
        jobs.append(_running_job("-D", "/tmp", "-o", "/dev/null", "--wrap", f"exec 3>>{log}; sleep 300"))
        r = stop_run(str(log), "NaN", store=store, config=config, assessment_id=aid, target=f"slurm:{jobs[-1]}",
                     grace_s=5)
        assert r.stopped and "of the job writes the run's file" in r.allowed_by
        jobs.append(_running_job("-D", "/tmp", "-o", str(log), "--wrap", "sleep 300"))
        r = stop_run(str(log), "NaN", store=store, config=config, assessment_id=aid, target=f"slurm:{jobs[-1]}",
                     grace_s=5)
        assert r.stopped and f"the job's StdOut is the run's file {log}" in r.allowed_by
    finally:
        subprocess.run(["scancel", *jobs], capture_output=True)
