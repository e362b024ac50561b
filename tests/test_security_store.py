"""Issue 10, the store: a damaged store is moved aside with a warning, a full disk says so, a read-only home still
reads, and every file is this user's only. Real SQLite files, a real size-limited tmpfs and a real read-only bind
mount (in a private mount namespace through ``unshare -m``), and the real CLI."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import require

REPO = Path(__file__).resolve().parents[1]


def write_log(path: Path, steps: int = 300) -> Path:
    path.write_text("".join(f"step {s} loss {4 - s * 0.001:.4f}\n" for s in range(steps)))
    return path


def cli(*args: str, home: Path, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(check=False, args=[sys.executable, "-m", "training_check.server.cli", *args],
                          capture_output=True, text=True, timeout=120, cwd=str(cwd),
                          env={**os.environ, "TRAINING_CHECK_HOME": str(home)})


def need_mounts() -> None:
    require(os.geteuid() == 0 and shutil.which("unshare") is not None, "root and unshare -m (a mount namespace)")


def test_a_damaged_store_is_moved_aside_and_commands_work(tc_home, tmp_path):
    log = write_log(tmp_path / "train.log")
    tc_home.mkdir(parents=True)
    junk = b"this is not a database: " + os.urandom(8192)
    (tc_home / "state.sqlite3").write_bytes(junk)
    out = cli("check", str(log), home=tc_home, cwd=tmp_path)
    assert out.returncode in (0, 1, 3), out.stderr  # a verdict, not a store failure
    asides = sorted(tc_home.glob("state.sqlite3.damaged-*"))
    assert len(asides) == 1 and asides[0].read_bytes() == junk  # nothing lost: the damaged file is kept
    assert (f"the store {tc_home / 'state.sqlite3'} was damaged (file is not a database): moved aside to "
            f"{asides[0]}, starting a new one") in out.stderr
    again = cli("check", str(log), home=tc_home, cwd=tmp_path)
    assert again.returncode in (0, 1, 3) and "damaged" not in again.stderr


def test_an_emptied_store_is_said_out_loud(tc_home, tmp_path):
    log = write_log(tmp_path / "train.log")
    assert cli("check", str(log), home=tc_home, cwd=tmp_path).returncode in (0, 1, 3)
    (tc_home / "state.sqlite3").write_bytes(b"")
    for f in tc_home.glob("state.sqlite3-*"):
        f.unlink()
    out = cli("check", str(log), home=tc_home, cwd=tmp_path)
    assert (f"the store {tc_home / 'state.sqlite3'} was empty (truncated?): starting a new one; earlier "
            f"assessments, reviews and schedules are not in it") in out.stderr


def test_store_files_are_private(tc_home, tmp_path):
    log = write_log(tmp_path / "train.log")
    old = os.umask(0o022)
    try:
        assert cli("check", str(log), home=tc_home, cwd=tmp_path).returncode in (0, 1, 3)
    finally:
        os.umask(old)
    assert stat.S_IMODE(tc_home.stat().st_mode) == 0o700
    for f in tc_home.glob("state.sqlite3*"):
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f
    # an existing world-readable store is made private when opened
    os.chmod(tc_home / "state.sqlite3", 0o644)
    assert cli("check", str(log), home=tc_home, cwd=tmp_path).returncode in (0, 1, 3)
    assert stat.S_IMODE((tc_home / "state.sqlite3").stat().st_mode) == 0o600


DISK_FULL = textwrap.dedent("""
    import json, os, sys
    from pathlib import Path
    from training_check.tools.config import load_config
    from training_check.tools.reading import load_run
    from training_check.tools.store import Store
    from training_check.tools.errors import StoreError
    mnt, log = Path(sys.argv[1]), sys.argv[2]
    os.environ["TRAINING_CHECK_HOME"] = str(mnt / "home")
    c = load_config(); store = Store(c.store_path)
    lines = lambda a, b: "".join(f"step {s} loss {4 - s * 1e-5:.6f} lr 0.0003\\n" for s in range(a, b))
    Path(log).write_text(lines(0, 200))
    load_run(log, store=store, config=c)
    with open(log, "a") as f:
        f.write(lines(200, 60000))
    filler = mnt / "filler"
    with open(filler, "wb") as f:  # fill what is left of the disk
        try:
            while True:
                f.write(b"\\0" * 65536); f.flush()
        except OSError:
            pass
    try:
        load_run(log, store=store, config=c)
        first = "no error"
    except StoreError as e:
        first = str(e)
    filler.unlink()
    n = load_run(log, store=store, config=c).frame.history["loss"].count
    print(json.dumps({"first": first, "after": n}))
""")


def test_a_full_disk_is_reported_as_such_and_recovers(tmp_path):
    need_mounts()
    mnt = tmp_path / "small-disk"
    mnt.mkdir()
    script = tmp_path / "full.py"
    script.write_text(DISK_FULL)
    log = tmp_path / "train.log"
    shell = f'mount -t tmpfs -o size=3m tmpfs "{mnt}" && exec "{sys.executable}" "{script}" "{mnt}" "{log}"'
    out = subprocess.run(check=False, args=["unshare", "-m", "sh", "-c", shell], capture_output=True, text=True,
                         timeout=120, cwd=str(REPO))
    assert out.returncode == 0, out.stderr[-2000:]
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert "cannot rollback" not in res["first"]
    db = mnt / "home" / "state.sqlite3"
    assert res["first"].startswith((f"store write failed ({db}): the disk is full (",
                                    f"cannot open the store {db}: the disk is full ("))
    assert res["first"].endswith("; nothing was changed; free disk space")
    assert res["after"] == 60000  # once space is back, nothing is missing


def test_a_read_only_home_still_reads(tc_home, tmp_path):
    need_mounts()
    log = write_log(tmp_path / "train.log")
    first = cli("check", str(log), home=tc_home, cwd=tmp_path)
    assert first.returncode in (0, 1, 3)
    before = sqlite3.connect(tc_home / "state.sqlite3").execute("SELECT COUNT(*) FROM assessments").fetchone()[0]
    env = {**os.environ, "TRAINING_CHECK_HOME": str(tc_home)}
    cmd = (f'mount --bind "{tc_home}" "{tc_home}" && mount -o remount,bind,ro "{tc_home}" && '
           f'"{sys.executable}" -m training_check.server.cli read "{log}" --json')
    out = subprocess.run(check=False, args=["unshare", "-m", "sh", "-c", cmd], capture_output=True, text=True,
                         timeout=120, cwd=str(tmp_path), env=env)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["last_step"] == 299
    assert re.fullmatch(rf"the store folder {re.escape(str(tc_home))} is read-only \(not writable\): using a temporary "
                        rf"copy at /\S+/state\.sqlite3; nothing recorded now will be kept \(set TRAINING_CHECK_HOME "
                        rf"to a writable folder\)\n", out.stderr), out.stderr
    after = sqlite3.connect(tc_home / "state.sqlite3").execute("SELECT COUNT(*) FROM assessments").fetchone()[0]
    assert after == before


@pytest.mark.parametrize("where", ["user", "project"])
def test_install_command_refuses_a_symlinked_destination(tmp_path, where, monkeypatch):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    home = tmp_path / "home"
    proj = tmp_path / "proj"
    base = (home if where == "user" else proj) / ".claude" / "commands"
    base.mkdir(parents=True)
    (base / "training-check.md").symlink_to(victim)
    args = ["install-command", "--user"] if where == "user" else ["install-command", "--project", str(proj)]
    out = subprocess.run(check=False, args=[sys.executable, "-m", "training_check.server.cli", *args],
                         capture_output=True, text=True, timeout=60, env={**os.environ, "HOME": str(home)})
    assert out.returncode == 64
    assert out.stderr.strip() == (f"training-check: refusing to write {base / 'training-check.md'}: it is a symbolic "
                                  f"link (to {victim}); remove it and run install-command again")
    assert victim.read_text() == "precious\n"
    # a symlinked commands folder is refused as well
    (base / "training-check.md").unlink()
    base.rmdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    base.symlink_to(elsewhere)
    out = subprocess.run(check=False, args=[sys.executable, "-m", "training_check.server.cli", *args],
                         capture_output=True, text=True, timeout=60, env={**os.environ, "HOME": str(home)})
    assert out.returncode == 64
    assert out.stderr.strip() == (f"training-check: refusing to write {base / 'training-check.md'}: {base} is a "
                                  f"symbolic link (to {elsewhere}); remove it and run install-command again")
    assert list(elsewhere.iterdir()) == []
