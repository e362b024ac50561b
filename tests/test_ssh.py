"""The SSH transport against a real OpenSSH sshd on 127.0.0.1: SFTP reads, aliases, host keys, auth, faults."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from training_check.tools.errors import AuthError, BadInput, HostKeyError, RunNotFound, SourceUnreachable
from training_check.tools.runref import parse_run_ref
from training_check.tools.sources import ssh as sshmod
from training_check.tools.sources.ssh import (
    POOL,
    ConnectionPool,
    SftpFileSystem,
    parse_host_spec,
    quote_argv,
    resolve_target,
    run_remote,
    ssh_filesystem,
)

from tests.helpers import whole
from tests.sshd_fixture import changed_host_key_pattern, keygen, unknown_host_message


@pytest.fixture
def remote_log(tmp_path) -> Path:
    p = tmp_path / "train.log"
    p.write_bytes(b"".join(f"step={i} loss={1.0 / (i + 1):.4f}\n".encode() for i in range(2000)))
    return p


def refused_message(ssh_env) -> str:
    """The error line when the test sshd is down: its port refuses connections."""
    label = f"{ssh_env.user}@127.0.0.1:{ssh_env.port}"
    return f"cannot connect to {label} (127.0.0.1:{ssh_env.port}): Connection refused; check that sshd runs there"


def test_stat_read_at_listdir_over_real_sftp(ssh_env, remote_log, config):
    fs = ssh_filesystem(parse_run_ref(ssh_env.url(str(remote_log))), config)
    st = fs.stat(str(remote_log))
    data = remote_log.read_bytes()
    assert st.size == len(data) and not st.is_dir
    assert fs.read_at(str(remote_log), 0, 10) == data[:10]
    assert fs.read_at(str(remote_log), 1000, 100_000) == data[1000:]  # large, pipelined read up to EOF
    assert fs.read_at(str(remote_log), len(data) + 5, 10) == b""
    names = {e.name: e for e in fs.listdir(str(remote_log.parent))}
    assert names["train.log"].size == len(data) and not names["train.log"].is_dir
    assert fs.describe("/x") == f"ssh://{ssh_env.user}@127.0.0.1:{ssh_env.port}/x"
    missing = str(remote_log) + ".missing"
    with pytest.raises(RunNotFound, match=whole(f"no such file: {fs.describe(missing)}; check the remote path")):
        fs.stat(missing)


def test_tail_read_transfers_only_the_tail(ssh_env, tmp_path, config):
    big = tmp_path / "big.log"
    with open(big, "wb") as f:
        f.truncate(50 << 20)  # 50 MB sparse file
    fs = ssh_filesystem(parse_run_ref(ssh_env.url(str(big))), config)
    fs.stat(str(big))
    before = sshmod.TRANSFER.snapshot()
    tail = fs.read_at(str(big), (50 << 20) - 65536, 65536)
    after = sshmod.TRANSFER.snapshot()
    assert len(tail) == 65536
    assert after["payload_read"] - before["payload_read"] == 65536
    assert after["wire_rx"] - before["wire_rx"] < 200_000  # the tail plus SSH framing, not 50 MB


def test_connection_reused_for_two_reads(ssh_env, remote_log, config):
    fs1 = ssh_filesystem(parse_run_ref(ssh_env.url(str(remote_log))), config)
    fs1.read_at(str(remote_log), 0, 100)
    t1 = POOL.transport_of(fs1.target)
    fs2 = ssh_filesystem(parse_run_ref(ssh_env.url(str(remote_log))), config)
    fs2.read_at(str(remote_log), 100, 100)
    assert POOL.transport_of(fs2.target) is t1 and t1.is_active()
    assert len(POOL) == 1


def test_ssh_config_alias(ssh_env, remote_log, config):
    ref = parse_run_ref(f"tc-test:{remote_log}")
    assert ref.kind == "ssh" and ref.host == "tc-test"
    fs = ssh_filesystem(ref, config)
    assert fs.target.hostname == "127.0.0.1" and fs.target.port == ssh_env.port
    assert fs.read_at(str(remote_log), 0, 6) == b"step=0"


def test_unknown_host_refused_then_accepted_and_recorded(ssh_env, remote_log, tmp_path, config):
    empty_known = tmp_path / "kh_empty"
    empty_known.write_text("")
    target = resolve_target("127.0.0.1", port=ssh_env.port, known_hosts_paths=(str(empty_known),))
    fs = SftpFileSystem(target, pool=ConnectionPool())
    with pytest.raises(HostKeyError, match=whole(unknown_host_message(ssh_env.port))):
        fs.stat(str(remote_log))
    accepting = SftpFileSystem(target, accept_unknown_hosts=True, pool=ConnectionPool())
    assert accepting.stat(str(remote_log)).size == remote_log.stat().st_size
    assert f"[127.0.0.1]:{ssh_env.port} ssh-ed25519 " in empty_known.read_text()
    # now recorded: the default (refusing) policy connects
    assert SftpFileSystem(target, pool=ConnectionPool()).stat(str(remote_log)).size == remote_log.stat().st_size


def test_changed_host_key_refused_even_when_accepting(ssh_env, remote_log, tmp_path):
    other = keygen(tmp_path / "other_host_key")
    pub = Path(str(other) + ".pub").read_text().split()
    kh = tmp_path / "kh_changed"
    kh.write_text(f"[127.0.0.1]:{ssh_env.port} {pub[0]} {pub[1]}\n")
    target = resolve_target("127.0.0.1", port=ssh_env.port, known_hosts_paths=(str(kh),))
    for accept in (False, True):
        with pytest.raises(HostKeyError, match=changed_host_key_pattern(ssh_env.port)):
            SftpFileSystem(target, accept_unknown_hosts=accept, pool=ConnectionPool()).stat(str(remote_log))
    assert kh.read_text().count("\n") == 1  # nothing recorded


def test_auth_refused(ssh_env, remote_log, tmp_path):
    wrong = keygen(tmp_path / "wrong_key")
    target = resolve_target("127.0.0.1", port=ssh_env.port)
    target = sshmod.SshTarget(**{**target.__dict__, "identity_files": (str(wrong),), "identities_only": True})
    with pytest.raises(AuthError, match=whole(f"SSH login to {target.label} refused (public key): add your key to the "
                                              f"host's authorized_keys or set IdentityFile for it in ~/.ssh/config")):
        SftpFileSystem(target, pool=ConnectionPool()).stat(str(remote_log))


def test_connection_refused_is_unreachable(tmp_path):
    from tests.sshd_fixture import free_port

    port = free_port()
    target = resolve_target("127.0.0.1", port=port, known_hosts_paths=(str(tmp_path / "kh"),))
    with pytest.raises(SourceUnreachable, match=whole(f"cannot connect to {target.label} (127.0.0.1:{port}): "
                                                      f"Connection refused; check that sshd runs there")):
        SftpFileSystem(target, pool=ConnectionPool()).stat("/etc/hostname")


def test_sshd_stopped_mid_read_then_recovers(ssh_env, remote_log, config):
    fs = ssh_filesystem(parse_run_ref(ssh_env.url(str(remote_log))), config)
    first = fs.read_at(str(remote_log), 0, 1000)
    ssh_env.stop()
    try:
        with pytest.raises(SourceUnreachable, match=whole(refused_message(ssh_env))):
            fs.read_at(str(remote_log), 1000, 1000)
    finally:
        ssh_env.start()
    # a dropped connection is re-opened once, transparently
    assert fs.read_at(str(remote_log), 1000, 1000) == remote_log.read_bytes()[1000:2000]
    assert first == remote_log.read_bytes()[:1000]


def test_reconnects_once_after_drop(ssh_env, remote_log, config):
    fs = ssh_filesystem(parse_run_ref(ssh_env.url(str(remote_log))), config)
    fs.read_at(str(remote_log), 0, 10)
    POOL.transport_of(fs.target).close()  # the link drops under us
    assert fs.read_at(str(remote_log), 0, 10) == b"step=0 los"


def test_run_remote_quotes_every_argument(ssh_env, tmp_path):
    canary = tmp_path / "pwned"
    target = resolve_target("tc-test")
    hostile = ["; touch " + str(canary), "$(touch " + str(canary) + ")", "`touch " + str(canary) + "`",
               "a\ntouch " + str(canary), "-rf", "--help", "'", '"', "|| touch " + str(canary)]
    rc, out, err = run_remote(target, ["printf", "%s\\n", *hostile], timeout=10)
    assert rc == 0, err
    assert out.split("\n")[:-1] == "\n".join(hostile).split("\n")
    assert not canary.exists()
    rc, out, _ = run_remote(target, ["sh", "-c", "exit 3"], timeout=10)
    assert rc == 3


def test_host_spec_parsing_rejects_option_like_and_metacharacters():
    assert parse_host_spec("alice@gpu1:2222") == ("alice", "gpu1", 2222)
    assert parse_host_spec("gpu1") == (None, "gpu1", None)
    assert parse_host_spec("ssh://bob@10.0.0.2") == ("bob", "10.0.0.2", None)
    alias = "pass user@host[:port] or an alias from ~/.ssh/config"
    name = "use a host name, an IP, or an alias from ~/.ssh/config"
    for bad, message in (
            ("-oProxyCommand=touch /tmp/x", f"bad host '-oProxyCommand=touch /tmp/x': {alias}"),
            ("h;rm -rf /", f"bad SSH host 'h;rm -rf /': {name}"),
            ("$(id)", f"bad SSH host '$(id)': {name}"),
            ("a b", f"bad SSH host 'a b': {name}"),
            ("h\nx", f"bad host 'h\\nx': {alias}"),
            ("u@h:99999", "bad SSH port 99999 in 'u@h:99999': 1-65535"),
            ("-rf", f"bad host '-rf': {alias}"),
            ("--help", f"bad host '--help': {alias}"),
            ("`id`@h", "bad SSH user '`id`' in '`id`@h': letters, digits, '_', '.', '-' only"),
            ("", f"host is empty: {alias}")):
        with pytest.raises(BadInput, match=whole(message)):
            parse_host_spec(bad)
    with pytest.raises(BadInput, match=whole("a remote command argument contains a NUL byte")):
        quote_argv(["a\x00b"])


def test_end_to_end_load_run_over_ssh(ssh_env, remote_log, store, config):
    from training_check.tools.reading import load_run

    url = ssh_env.url(str(remote_log))
    data = load_run(url, store=store, config=config)
    assert data.frame is not None and data.new_points == 2000  # one loss a line
    with open(remote_log, "ab") as f:
        f.write(b"step=2000 loss=0.0001\n")
    again = load_run(url, store=store, config=config)
    assert again.new_points == 1
    assert "ssh://" in again.source.description
    loss = again.frame.series["loss"]
    assert len(loss) == 2001 and loss.iloc[-1] == pytest.approx(0.0001)
    # sshd down during the next check: a clear error, the cursor stays; after recovery nothing lost or doubled
    with open(remote_log, "ab") as f:
        f.write(b"step=2001 loss=0.00005\n")
    ssh_env.stop()
    try:
        with pytest.raises(SourceUnreachable, match=whole(refused_message(ssh_env))):
            load_run(url, store=store, config=config)
    finally:
        ssh_env.start()
    third = load_run(url, store=store, config=config)
    assert third.new_points == 1 and len(third.frame.series["loss"]) == 2002


def test_real_ssh_client_agrees(ssh_env):
    """Sanity: the fixture works for OpenSSH's own client too (the files a user would have)."""
    r = subprocess.run(["ssh", "-F", str(ssh_env.client_config), "-o", f"UserKnownHostsFile={ssh_env.known_hosts}",
                        "-o", "BatchMode=yes", "tc-test", "echo", "ok"], capture_output=True, text=True, timeout=30,
                       env={**os.environ})
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
