"""SSH faults through load_run/assess_run against a real sshd (tests/sshd_fixture.py), some through a TCP proxy
on 127.0.0.1 that throttles or resets the link: sshd stopped mid-read, connection reset mid-read, slow link, auth
refused, host key changed, unknown host. The cursor never moves past data not returned, an UNREACHABLE verdict is
never a training verdict, and after recovery the cached points equal an undisturbed read (nothing lost/duplicated)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from training_check.tools.assess import assess_run
from training_check.tools.errors import AuthError, HostKeyError, SourceUnreachable
from training_check.tools.reading import load_run
from training_check.tools.sources import open_path_source
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.ssh import POOL

from tests.helpers import as_points, whole
from tests.sshd_fixture import changed_host_key_pattern, keygen, unknown_host_message


class Proxy:
    """A TCP relay 127.0.0.1:port -> target; ``rate`` bytes/s per direction (None: full speed); ``reset()`` drops
    every open connection with RST; ``fault_after(n, fault)`` runs ``fault`` once ``n`` more bytes have passed, and
    records when (``fault_time``) and after how many bytes (``fault_at``)."""

    def __init__(self, target_port: int, rate: float | None = None):
        self.target_port = target_port
        self.rate = rate
        self.conns: list[socket.socket] = []
        self.relayed = 0
        self.lock = threading.Lock()
        self.trigger: tuple[int, Callable[[], None]] | None = None
        self.fault_at: int | None = None
        self.fault_time: float | None = None
        self.fault_thread: threading.Thread | None = None
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.stopped = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def port(self) -> int:
        return self.sock.getsockname()[1]

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                client, _ = self.sock.accept()
            except OSError:
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=5)
            except OSError:
                client.close()
                continue
            self.conns += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        chunk = 4096 if self.rate else 65536
        try:
            while True:
                data = src.recv(chunk)
                if not data:
                    break
                dst.sendall(data)
                with self.lock:
                    self.relayed += len(data)
                    fire = self.trigger if self.trigger and self.relayed >= self.trigger[0] else None
                    if fire:
                        self.trigger, self.fault_at, self.fault_time = None, self.relayed, time.monotonic()
                        self.fault_thread = threading.Thread(target=fire[1], daemon=True)
                        self.fault_thread.start()
                if self.rate:
                    time.sleep(len(data) / self.rate)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def fault_after(self, n_bytes: int, fault: Callable[[], None]) -> None:
        with self.lock:
            self.trigger, self.fault_at, self.fault_time = (self.relayed + n_bytes, fault), None, None

    def faulted(self) -> float:
        """When the fault ran, once it has finished (the test fails if it never ran)."""
        assert self.fault_thread is not None and self.fault_time is not None, "the fault never ran"
        self.fault_thread.join(30)
        return self.fault_time

    def reset(self) -> None:
        for s in self.conns:
            try:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                s.shutdown(socket.SHUT_RDWR)  # wakes the relay threads blocked in recv; close() then sends RST
                s.close()
            except OSError:
                pass
        self.conns.clear()

    def close(self) -> None:
        self.stopped.set()
        self.reset()
        self.sock.close()


def lines(a: int, b: int) -> bytes:
    return "".join(f"step={s} loss={5.0 / (s + 1) ** 0.5 + 0.1:.6f} grad_norm={1.0 + (s % 7) / 10:.3f}\n"
                   for s in range(a, b)).encode()



def undisturbed(path: Path) -> dict:
    return as_points(open_path_source(LocalFileSystem(), str(path)).read(None).batch)


def cache_of(store, run_key: str) -> tuple[dict | None, dict]:
    """(cursor, points) of the one source cached for ``run_key``."""
    import sqlite3

    with sqlite3.connect(store.path) as c:
        row = c.execute("SELECT source_id FROM sources WHERE run_key=?", (run_key,)).fetchone()
    if not row:
        return None, {}
    cached = store.load_source(row[0])
    return cached.cursor, as_points(cached.batch)


@pytest.fixture
def ssh_env(sshd, monkeypatch, tmp_path):
    """The fixture's client files, plus a known_hosts line for the proxy port (same host key)."""
    pub = Path(str(sshd.host_key) + ".pub").read_text().split()
    monkeypatch.setenv("TRAINING_CHECK_SSH_CONFIG", str(sshd.client_config))
    monkeypatch.setenv("TRAINING_CHECK_SSH_KNOWN_HOSTS", str(sshd.known_hosts))
    POOL.close_all()
    yield sshd, pub, monkeypatch
    POOL.close_all()


def trust_proxy(ssh_env, proxy: Proxy, tmp_path: Path) -> str:
    sshd_, pub, mp = ssh_env
    kh = tmp_path / "known_hosts_proxy"
    kh.write_text(sshd_.known_hosts.read_text() + f"[127.0.0.1]:{proxy.port} {pub[0]} {pub[1]}\n")
    mp.setenv("TRAINING_CHECK_SSH_KNOWN_HOSTS", str(kh))
    return f"ssh://{sshd_.user}@127.0.0.1:{proxy.port}"


@contextlib.contextmanager
def proxied_log(ssh_env, tmp_path: Path, n_lines: int, rate: int) -> Iterator[tuple[Path, Proxy, str]]:
    """A log of ``n_lines`` read through a proxy passing ``rate`` bytes/s: (log, proxy, its ssh:// URL, which is
    also the store's key for it). The proxy closes at the end."""
    log = tmp_path / "train.log"
    log.write_bytes(lines(0, n_lines))
    proxy = Proxy(ssh_env[0].port, rate=rate)
    try:
        yield log, proxy, trust_proxy(ssh_env, proxy, tmp_path) + str(log)
    finally:
        proxy.close()


def unreachable_keeps_cursor(url: str, store, config, exc: type[Exception], pattern: str) -> None:
    """load_run fails with a message that ``pattern`` matches whole; the cursor and cache stay; assess_run says
    UNREACHABLE with that message."""
    before = cache_of(store, url)
    with pytest.raises(exc, match=rf"\A{pattern}\Z"):
        load_run(url, store=store, config=config)
    assert cache_of(store, url) == before, "the cursor or cache moved on a failed read"
    a = assess_run(url, store=store, config=config)
    assert a.verdict == "UNREACHABLE" and re.fullmatch(f"UNREACHABLE: {pattern}", a.summary), a.summary
    assert cache_of(store, url) == before


def test_fault_sshd_stopped_mid_read_then_restarted(ssh_env, tmp_path, store, config):
    sshd_ = ssh_env[0]
    # 150 KB/s: a read of ~3 s; sshd (and its sessions) stops once a quarter of the new bytes has passed
    with proxied_log(ssh_env, tmp_path, 2000, rate=150_000) as (log, proxy, url):
        try:
            load_run(url, store=store, config=config)
            new = lines(2000, 12000)  # ~450 KB
            with open(log, "ab") as f:
                f.write(new)
            before = cache_of(store, url)
            proxy.fault_after(len(new) // 4, sshd_.stop)
            start, t0 = proxy.relayed, time.monotonic()
            with pytest.raises(SourceUnreachable) as caught:
                load_run(url, store=store, config=config)
            t1 = time.monotonic()
            # the fault landed mid-read: the read had started, moved a quarter of the new bytes, and had not ended
            assert t0 < proxy.faulted() < t1 and proxy.fault_at is not None and proxy.fault_at - start < len(new)
            assert "\n" not in str(caught.value)
            assert cache_of(store, url) == before  # nothing half-stored
            # paramiko appends the socket error when the proxy's reset beats its close (no separator)
            unreachable_keeps_cursor(url, store, config, SourceUnreachable,
                                     rf"SSH handshake with {sshd_.user}@127\.0\.0\.1:{proxy.port} failed: Error "
                                     rf"reading SSH protocol banner(\[Errno 104\] Connection reset by peer)?; check "
                                     rf"that sshd runs there")
            sshd_.start()
            POOL.close_all()
            load_run(url, store=store, config=config)
            assert cache_of(store, url)[1] == undisturbed(log)
        finally:  # the other tests of this module need the sshd
            if sshd_.proc is None:
                sshd_.start()


def test_fault_connection_reset_mid_read(ssh_env, tmp_path, store, config):
    with proxied_log(ssh_env, tmp_path, 1000, rate=200_000) as (log, proxy, url):
        load_run(url, store=store, config=config)
        new = lines(1000, 6000)  # ~230 KB: a read of ~1 s through the proxy
        with open(log, "ab") as f:
            f.write(new)
        proxy.fault_after(len(new) // 4, proxy.reset)
        start, t0 = proxy.relayed, time.monotonic()
        try:
            load_run(url, store=store, config=config)  # the pool re-opens once: may complete
        except SourceUnreachable as e:
            assert "\n" not in str(e)
        t1 = time.monotonic()
        # the reset landed mid-read: after a quarter of the new bytes had passed, before the read returned
        assert t0 < proxy.faulted() < t1 and proxy.fault_at is not None and proxy.fault_at - start < len(new)
        _, pts = cache_of(store, url)
        full = undisturbed(log)
        # whatever was stored is an exact prefix of the truth: no point lost in the middle, none twice
        for k, v in pts.items():
            assert v == full[k][: len(v)]
        proxy.rate = None
        load_run(url, store=store, config=config)
        assert cache_of(store, url)[1] == undisturbed(log)


def test_fault_slow_link(ssh_env, tmp_path, store, config):
    with proxied_log(ssh_env, tmp_path, 3000, rate=100_000) as (log, _, url):
        data = load_run(url, store=store, config=config)
        assert data.frame.last_step == 2999
        with open(log, "ab") as f:
            f.write(lines(3000, 3500))
        load_run(url, store=store, config=config)
        assert cache_of(store, url)[1] == undisturbed(log)


def test_fault_auth_refused(ssh_env, tmp_path, store, config):
    sshd_, _, mp = ssh_env
    log = tmp_path / "train.log"
    log.write_bytes(lines(0, 500))
    url = sshd_.url(str(log))
    load_run(url, store=store, config=config)
    with open(log, "ab") as f:
        f.write(lines(500, 800))
    wrong = keygen(tmp_path / "wrong_key")
    cfg = tmp_path / "ssh_config_wrong"
    cfg.write_text(f"Host 127.0.0.1\n    IdentityFile {wrong}\n    IdentitiesOnly yes\n")
    mp.setenv("TRAINING_CHECK_SSH_CONFIG", str(cfg))
    POOL.close_all()
    unreachable_keeps_cursor(url, store, config, AuthError, re.escape(
                             f"SSH login to {sshd_.user}@127.0.0.1:{sshd_.port} refused (public key): add your key to "
                             f"the host's authorized_keys or set IdentityFile for it in ~/.ssh/config"))
    mp.setenv("TRAINING_CHECK_SSH_CONFIG", str(sshd_.client_config))
    POOL.close_all()
    load_run(url, store=store, config=config)
    assert cache_of(store, url)[1] == undisturbed(log)


def test_fault_unknown_host_refused_by_default(ssh_env, tmp_path, store, config):
    sshd_, _, mp = ssh_env
    log = tmp_path / "train.log"
    log.write_bytes(lines(0, 100))
    empty = tmp_path / "known_hosts_empty"
    empty.write_text("")
    mp.setenv("TRAINING_CHECK_SSH_KNOWN_HOSTS", str(empty))
    mp.delenv("TRAINING_CHECK_SSH_ACCEPT_UNKNOWN_HOSTS", raising=False)
    assert not config.ssh_accept_unknown_hosts
    with pytest.raises(HostKeyError, match=whole(unknown_host_message(sshd_.port))):
        load_run(sshd_.url(str(log)), store=store, config=config)
    assert empty.read_text() == ""  # nothing recorded without consent
    a = assess_run(sshd_.url(str(log)), store=store, config=config)
    assert (a.verdict, a.summary) == ("UNREACHABLE", f"UNREACHABLE: {unknown_host_message(sshd_.port)}")


def test_fault_host_key_changed_refused(ssh_env, tmp_path, store, config):
    sshd_ = ssh_env[0]
    log = tmp_path / "train.log"
    log.write_bytes(lines(0, 400))
    url = sshd_.url(str(log))
    load_run(url, store=store, config=config)
    saved = tmp_path / "saved-host-key"
    saved.mkdir()
    for suffix in ("", ".pub"):
        shutil.copy(str(sshd_.host_key) + suffix, saved / ("k" + suffix))
    try:
        sshd_.regenerate_host_key()
        POOL.close_all()
        with open(log, "ab") as f:
            f.write(lines(400, 600))
        before = cache_of(store, url)
        with pytest.raises(HostKeyError, match=changed_host_key_pattern(sshd_.port)):
            load_run(url, store=store, config=config)
        assert cache_of(store, url) == before
        assert assess_run(url, store=store, config=config).verdict == "UNREACHABLE"
    finally:  # put the original key back for the other tests of this module
        sshd_.stop()
        for suffix in ("", ".pub"):
            shutil.copy(saved / ("k" + suffix), str(sshd_.host_key) + suffix)
        os.chmod(sshd_.host_key, 0o600)
        sshd_.write_configs()
        sshd_.start()
        POOL.close_all()
    load_run(url, store=store, config=config)
    assert cache_of(store, url)[1] == undisturbed(log)
