"""Acting on a sweep's prune advice only when a person enabled it: real run logs (the committed sweep), a real
stand-in trainer holding the losing run's log open, the real store, config files and evidence."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from training_check.tools.assess_runs import assess_runs
from training_check.tools.config import load_config
from training_check.tools.errors import StopRefused
from training_check.tools.runref import parse_run_ref
from training_check.tools.stop_run import stop_run
from training_check.tools.store import Store

from tests.standins import Trainers

from .conftest import REPO

SWEEP = REPO / "examples" / "sweeps" / "mlp_cls-s2"
RUNS = ("01", "06", "07", "13", "05", "08")  # 08: a clearly losing run (6th of 6 from the first evaluation on)
LOSER = "08"


def write_logs(folder: Path, lines: int) -> list[str]:
    """The first ``lines`` records of each run's real log, as a live run would have written them so far."""
    out = []
    for r in RUNS:
        text = (SWEEP / f"mlp_cls-s2-{r}.jsonl").read_text().splitlines()[:lines]
        (folder / f"{r}.jsonl").write_text("\n".join(text) + "\n")
        out.append(str(folder / f"{r}.jsonl"))
    return out


def checked_sweep(folder: Path, store: Store, config) -> list[str]:
    """Two checks of the sweep (steps 150 and 200): the loser's prune needs two in a row."""
    for lines in (15, 20):
        runs = write_logs(folder, lines)
        rep = assess_runs(runs, store=store, config=config, total_steps=800)
    assert rep.sweep is not None and rep.sweep["prune"] == [str(folder / f"{LOSER}.jsonl")]
    return runs


@pytest.fixture
def trainers(tmp_path):
    t = Trainers(tmp_path)
    yield t
    t.close()


def test_prune_true_stops_the_losing_run_through_its_binding_with_the_ranking_as_evidence(store, config, tmp_path,
                                                                                          trainers):
    runs = checked_sweep(tmp_path, store, config)
    loser = runs[RUNS.index(LOSER)]
    p = trainers.start("--log", loser)  # the run's own process: it holds the log open for writing
    bystander = trainers.start("--log", runs[0])
    r = stop_run(loser, "", store=store, config=config, target=f"pid:{p.pid}", prune=True, grace_s=5)
    assert r.stopped and p.wait(timeout=10) is not None
    assert bystander.poll() is None
    assert "sweep comparison swp_" in r.allowed_by and "pruning enabled by prune=true" in r.allowed_by
    assert "holds" in r.allowed_by or "writes" in r.allowed_by or "tied to the run" in r.allowed_by
    md = Path(r.evidence_path or "").read_text()
    assert "## Sweep comparison" in md and "### Ranking" in md and "6th of 6" in md
    assert f"| 6 of 6 | {loser} |" in md and "prune" in md and "projected final at step 800" in md
    assert oct(os.stat(r.evidence_path or "").st_mode & 0o777) == "0o600"
    ev = store.evidence_for(parse_run_ref(loser).key)
    assert any((e.get("sweep") or {}).get("relative", {}).get("recommend") == "prune" for e in ev)
    # the stopped run then counts as a reference only: never recommended again
    rep = assess_runs(runs, store=store, config=config, total_steps=800)
    line = next(ln for ln in rep.runs if ln.run == loser)
    assert line.relative is not None and line.relative["state"] == "stopped" and rep.sweep is not None
    assert loser not in rep.sweep["prune"]


def test_without_prune_enabled_the_stop_is_refused_in_one_line_and_nothing_is_stopped(store, config, tmp_path,
                                                                                       trainers):
    runs = checked_sweep(tmp_path, store, config)
    loser = runs[RUNS.index(LOSER)]
    p = trainers.start("--log", loser)
    with pytest.raises(StopRefused) as e:
        stop_run(loser, "", store=store, config=config, target=f"pid:{p.pid}")
    assert "says prune, but pruning is not enabled" in e.value.message and "\n" not in e.value.message
    assert p.poll() is None
    assert store.evidence_for(parse_run_ref(loser).key) == []
    # prune=true does not make a keep run stoppable
    keeper = runs[0]
    q = trainers.start("--log", keeper)
    with pytest.raises(StopRefused, match="says CONTINUE, not STOP"):
        stop_run(keeper, "", store=store, config=config, target=f"pid:{q.pid}", prune=True)
    assert q.poll() is None


def test_allow_prune_counts_in_the_users_config_never_in_a_cloned_projects(tc_home, tmp_path, trainers):
    project = tmp_path / "cloned"
    project.mkdir()
    (project / ".git").mkdir()
    (project / ".training-check.toml").write_text("[sweep]\nallow_prune = true\n")
    config = load_config(cwd=project)
    assert not config.sweep_allow_prune and any("allow_prune" in w for w in config.warnings)
    store = Store(config.store_path)
    runs = checked_sweep(project, store, config)
    loser = runs[RUNS.index(LOSER)]
    p = trainers.start("--log", loser)
    with pytest.raises(StopRefused, match="pruning is not enabled"):
        stop_run(loser, "", store=store, config=config, target=f"pid:{p.pid}")
    assert p.poll() is None

    tc_home.mkdir(parents=True, exist_ok=True)
    user = tc_home / "config.toml"
    user.write_text("[sweep]\nallow_prune = true\n")
    user.chmod(0o600)
    config = load_config(cwd=project)
    assert config.sweep_allow_prune
    r = stop_run(loser, "sweep says prune", store=store, config=config, target=f"pid:{p.pid}", grace_s=5)
    assert r.stopped and "allow_prune in the user's config" in r.allowed_by and p.wait(timeout=10) is not None
