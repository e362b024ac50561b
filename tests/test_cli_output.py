"""What the installed ``training-check`` prints and exits with, as a person's shell sees it: exit codes through a
closed pipe, help for every option, plain wording, the fallback log said, an install hint that works from a clone,
and progress on a slow first read shown on a terminal only (a real PTY, a real sshd behind a throttled link)."""

from __future__ import annotations

import argparse
import json
import os
import pty
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from training_check.server.cli import build_parser

from .cli_runner import TC, tc
from .mcp_client import server_env
from .test_faults_ssh import Proxy
from .test_server import write_llmc_log


# -- exit codes survive a reader that went away ------------------------------------------------------------------
def _exit_with_reader_gone(tc_home: Path, *args: str) -> tuple[int, str]:
    """Run the CLI with its stdout a pipe whose reading end is already closed (``| head -1`` having exited)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        p = subprocess.run([TC, *args], stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120,
                           env=server_env(tc_home), cwd=tc_home.parent)
    finally:
        os.close(write_end)
    return p.returncode, p.stderr


def test_check_exit_code_survives_a_closed_pipe_every_time(tc_home, tmp_path):
    bad = write_llmc_log(tmp_path / "bad.log", 300, diverge_at=100)
    got = [_exit_with_reader_gone(tc_home, "check", str(bad), *(["--json"] if i % 2 else [])) for i in range(12)]
    assert [code for code, _ in got] == [2] * 12, got
    assert all(err == "" for _, err in got), got  # no "Exception ignored ... BrokenPipeError" either
    sweep, _ = _exit_with_reader_gone(tc_home, "sweep", str(bad))
    assert sweep == 2


def test_check_piped_into_head_exits_with_the_verdict(tc_home, tmp_path):
    bad = write_llmc_log(tmp_path / "bad.log", 300, diverge_at=100)
    script = f"for i in 1 2 3 4; do {TC} check {bad} --json | head -1 > /dev/null; echo ${{PIPESTATUS[0]}}; done"
    p = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=300,
                       env=server_env(tc_home), cwd=tmp_path)
    assert p.stdout.split() == ["2"] * 4, p.stdout + p.stderr


# -- help and wording --------------------------------------------------------------------------------------------
def test_every_option_of_every_command_has_help():
    missing = []

    def walk(parser: argparse.ArgumentParser, name: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, sp in action.choices.items():
                    walk(sp, f"{name} {sub}")
            elif not isinstance(action, argparse._HelpAction) and not action.help:
                missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")

    walk(build_parser(), "training-check")
    assert missing == []
    out = subprocess.run([TC, "stop", "--help"], capture_output=True, text=True, timeout=60).stdout
    assert "the run's latest" in out and "--reason REASON why the run is stopped" in " ".join(out.split())


def test_wording_for_no_steps_and_one_run(tc_home, tmp_path):
    log = tmp_path / "starting.log"
    log.write_text("starting training\nloading data\n")
    p = tc(tc_home, "read", str(log))
    assert p.returncode == 0 and "steps: none read yet" in p.stdout, p.stdout
    assert "None" not in p.stdout and "-..-" not in p.stdout
    ok = write_llmc_log(tmp_path / "ok.log", 300)
    s = tc(tc_home, "sweep", str(ok))
    assert s.returncode == 0 and "1 run checked: 1 CONTINUE" in s.stdout, s.stdout


def test_check_says_when_it_read_the_fallback_log(tc_home, tmp_path):
    log = write_llmc_log(tmp_path / "train.log", 300)
    p = tc(tc_home, "check", "team/proj/abc123", "--fallback-log", str(log), WANDB_BASE_URL="http://127.0.0.1:1",
           WANDB_API_KEY="local-" + "0" * 34)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[1].startswith("read the fallback log because: "), p.stdout


def test_the_missing_matplotlib_hint_names_an_install_that_works(tc_home, tmp_path):
    log = write_llmc_log(tmp_path / "train.log", 300)
    code = ("import sys; sys.modules['matplotlib'] = None  # as if the plot extra were not installed\n"
            "from training_check.server.cli import main; sys.exit(main(['plot', sys.argv[1]]))")
    p = subprocess.run([sys.executable, "-c", code, str(log)], capture_output=True, text=True, timeout=120,
                       env=server_env(tc_home))
    assert p.returncode == 64, p.stderr
    assert f"{sys.executable} -m pip install 'matplotlib>=3.8'" in p.stderr
    assert ".venv/bin/pip install -e '.[plot]'" in p.stderr and "training-check[plot]" not in p.stderr
    extras = (Path(__file__).parents[1] / "pyproject.toml").read_text()
    assert 'plot = ["matplotlib>=3.8"]' in extras  # the extra the hint names exists


# -- progress on a long first read, on a terminal only -----------------------------------------------------------
def _run_with_stderr_on_a_pty(args: list[str], env: dict[str, str], cwd: Path,
                              interrupt: bool = False) -> tuple[int, str, str]:
    """(exit code, stdout, what the terminal showed on stderr); with ``interrupt``, SIGINT (Ctrl-C) as soon as a
    progress line is on the terminal."""
    master, slave = pty.openpty()
    shown: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:
                return
            if not data:
                return
            shown.append(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=slave, text=True, env=env, cwd=cwd)
    try:
        deadline = time.monotonic() + 120
        while interrupt and b"reading " not in b"".join(shown) and time.monotonic() < deadline:
            time.sleep(0.05)
        if interrupt:
            proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(slave)
    reader.join(timeout=10)
    os.close(master)
    return proc.returncode, out, b"".join(shown).decode(errors="replace")


@pytest.fixture
def slow_remote_log(sshd, tmp_path):
    """A 16 MB log (two 8 MB read chunks) on a real sshd reached through a link passing 2 MB/s: its first read lasts
    about 8 s, with a progress report after the first chunk."""
    (tmp_path / "remote").mkdir()
    log = write_llmc_log(tmp_path / "remote" / "train.log", 340_000)
    assert log.stat().st_size > 16_000_000  # more than one 8 MiB chunk, less than two parts
    proxy = Proxy(sshd.port, rate=2_000_000)
    pub = Path(str(sshd.host_key) + ".pub").read_text().split()
    known = tmp_path / "known_hosts"
    known.write_text(sshd.known_hosts.read_text() + f"[127.0.0.1]:{proxy.port} {pub[0]} {pub[1]}\n")
    env = {"TRAINING_CHECK_SSH_CONFIG": str(sshd.client_config), "TRAINING_CHECK_SSH_KNOWN_HOSTS": str(known)}
    try:
        yield f"ssh://{sshd.user}@127.0.0.1:{proxy.port}{log}", env
    finally:
        proxy.close()


def test_progress_shows_on_a_terminal_only_when_a_read_lasts(tc_home, tmp_path, slow_remote_log):
    url, ssh = slow_remote_log
    code, out, terminal = _run_with_stderr_on_a_pty([TC, "check", url], server_env(tc_home, **ssh), tmp_path)
    assert code in (0, 1, 3), out + terminal
    assert f"reading {url}:  4" in terminal, repr(terminal)  # the slow read showed its progress half way
    assert terminal.endswith("\r\x1b[2K"), repr(terminal[-80:])  # and cleared the line at the end
    fast = write_llmc_log(tmp_path / "fast.log", 300)
    code, out, terminal = _run_with_stderr_on_a_pty([TC, "check", str(fast)], server_env(tc_home), tmp_path)
    assert code == 0 and terminal == "", repr(terminal)  # a read under 2 s shows nothing
    # not a terminal (a pipe, a cron mail, a file): no progress noise, however long the read
    home2 = tmp_path / "home2"
    p = subprocess.run([TC, "check", url, "--json"], capture_output=True, text=True, timeout=300,
                       env=server_env(home2, **ssh), cwd=tmp_path)
    assert p.returncode in (0, 1, 3) and p.stderr == "", p.stderr
    assert json.loads(p.stdout)["progress"]["step"] == 339_999
    # Ctrl-C in the middle of a slow read: the progress line is erased before the one-line message
    code, out, terminal = _run_with_stderr_on_a_pty([TC, "check", url], server_env(tmp_path / "home3", **ssh),
                                                    tmp_path, interrupt=True)
    assert code == 130 and out == "", (code, out, terminal)
    assert "reading " in terminal and terminal.endswith("\r\x1b[2Ktraining-check: interrupted\r\n"), repr(terminal)
