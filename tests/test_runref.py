"""Run references: every form the tools accept, and clear errors for the rest."""

from __future__ import annotations

import pytest
from training_check.tools.config import load_config
from training_check.tools.errors import BadInput
from training_check.tools.runref import parse_run_ref

from tests.helpers import whole


@pytest.mark.parametrize("ref,kind,expect", [
    ("team/proj/abc123", "wandb", dict(entity="team", project="proj", run_id="abc123")),
    ("https://wandb.ai/team/proj/runs/abc123", "wandb", dict(entity="team", project="proj", run_id="abc123")),
    ("https://wandb.ai/team/proj/runs/abc123/overview?x=1", "wandb", dict(run_id="abc123")),
    ("ssh://alice@gpu1:2222/data/run/train.log", "ssh",
     dict(user="alice", host="gpu1", port=2222, path="/data/run/train.log")),
    ("ssh://gpu1/data/../data/train.log", "ssh", dict(host="gpu1", path="/data/train.log")),
    ("gpu1:/data/train.log", "ssh", dict(host="gpu1", path="/data/train.log")),
    ("bob@gpu1:/data/train.log", "ssh", dict(user="bob", host="gpu1")),
    ("/abs/train.log", "local", dict(path="/abs/train.log")),
    ("logs/train.log", "local", {}),
])
def test_forms(ref, kind, expect):
    r = parse_run_ref(ref)
    assert r.kind == kind
    for k, v in expect.items():
        assert getattr(r, k) == v


def test_short_wandb_forms_take_entity_and_project_from_arguments():
    r = parse_run_ref("proj/abc", entity="team")
    assert (r.entity, r.project, r.run_id) == ("team", "proj", "abc")
    r = parse_run_ref("abc", entity="team", project="p")
    assert r.key == "wandb:team/p/abc"


def test_entity_project_resolution_env_then_toml_then_claude_md(tmp_path, monkeypatch):
    monkeypatch.delenv("WANDB_ENTITY", raising=False)
    monkeypatch.delenv("WANDB_PROJECT", raising=False)
    (tmp_path / "CLAUDE.md").write_text("# notes\n- WANDB_ENTITY: from-claude\n- `WANDB_PROJECT: claude-proj`\n")
    cfg = load_config(cwd=tmp_path)
    assert (cfg.wandb_entity, cfg.wandb_project) == ("from-claude", "claude-proj")
    (tmp_path / ".training-check.toml").write_text('[wandb]\nentity = "from-toml"\n')
    cfg = load_config(cwd=tmp_path)
    assert (cfg.wandb_entity, cfg.wandb_project) == ("from-toml", "claude-proj")
    monkeypatch.setenv("WANDB_ENTITY", "from-env")
    assert load_config(cwd=tmp_path).wandb_entity == "from-env"


EMPTY = "run reference is empty: pass a W&B run path, a log file path, or ssh://host/path"
CONTROL = "run reference contains a control character (newline, NUL, ...): pass a plain path or run id"


@pytest.mark.parametrize("bad,message", [
    ("", EMPTY),
    ("   ", EMPTY),
    ("a\nb", CONTROL),
    ("x\x00y", CONTROL),
    ("-rf", "run reference '-rf' looks like an option: pass a run path, or ./-rf for a local file"),
    ("--help", "run reference '--help' looks like an option: pass a run path, or ./--help for a local file"),
    ("ssh://host/relative\x07", CONTROL),
    ("ssh:///no/host", "no host in 'ssh:///no/host': use ssh://[user@]host[:port]/abs/path"),
    ("https://example.com/nothing", "not a W&B run URL: 'https://example.com/nothing' "
                                    "(expected https://wandb.ai/<entity>/<project>/runs/<run_id>)"),
    ("a" * 5000, "run reference is 5000 characters long (limit 4096): pass a shorter path"),
    ("team/pr oj/x", "cannot read run reference 'team/pr oj/x': use entity/project/run_id, a W&B run URL, a local "
                     "file path, or ssh://host/abs/path"),
])
def test_bad_references_are_one_line_errors(bad, message):
    with pytest.raises(BadInput, match=whole(message)):
        parse_run_ref(bad)
