"""Hostile stop_run targets that reach a real remote shell: stop_run(host=<the test sshd>) in dry-run mode still runs
the read-only remote look-ups (tmux has-session, pgrep-like process scans, reading a pidfile) with the payload as an
argument. The sshd runs on this machine, so a payload that reached a remote shell would create the canary here."""

from __future__ import annotations

import pytest
from training_check.tools.errors import TrainingCheckError
from training_check.tools.stop_run import stop_run

from .test_hostile import PAYLOADS, fill, one_line

REMOTE_FORMS = ("cmd:", "tmux:", "pidfile:", "pid:")


@pytest.mark.parametrize("prefix", REMOTE_FORMS, ids=lambda p: p.rstrip(":"))
@pytest.mark.parametrize("name", [n for n in PAYLOADS if n != "oversized"])
def test_hostile_target_over_ssh(name, prefix, ssh_env, tmp_path, store, config):
    value, canary = fill(PAYLOADS[name], tmp_path)
    log = tmp_path / "train.log"
    log.write_text("step=1 loss=1.0\n")
    try:
        report = stop_run(ssh_env.url(str(log)), "hostile", store=store, config=config, force=True, dry_run=True,
                          target=prefix + value, host="tc-test")
        assert report.dry_run
    except TrainingCheckError as e:
        one_line(e)
    assert not canary.exists()
