"""A sweep of a W&B project through the real ``wandb.Api`` against the GraphQL stand-in (tests/test_wandb_api.py):
``assess_runs(project=...)`` lists the project's running runs, reads them concurrently, and judges them against
each other; the project is the sweep's key in the store."""

from __future__ import annotations

import pytest
from training_check.tools.assess_runs import assess_runs

from tests.helpers import use_wandb_api

from .conftest import REPO
from .test_sweep_stop import LOSER, RUNS
from .test_wandb_api import FAKE_KEY
from .wandb_project import ProjectStandIn, jsonl_history

SWEEP = REPO / "examples" / "sweeps" / "mlp_cls-s2"


def sweep_project() -> ProjectStandIn:
    """The stand-in serving six runs of a committed sweep (their real curves), up to ``upto`` steps."""
    files = {f"run{r}": SWEEP / f"mlp_cls-s2-{r}.jsonl" for r in RUNS}
    curves = {name: jsonl_history(path) for name, path in files.items()}
    s = ProjectStandIn(list(curves), curves.__getitem__, config={"max_steps": 800})
    s.upto = 150
    return s


@pytest.fixture
def sweep_stand_in(tmp_path, monkeypatch):
    use_wandb_api(monkeypatch, tmp_path, FAKE_KEY)
    s = sweep_project()
    monkeypatch.setenv("WANDB_BASE_URL", s.url)
    yield s
    s.close()


def test_a_wandb_project_is_one_sweep_read_concurrently_and_the_loser_named(sweep_stand_in, store, config):
    first = assess_runs(project="ent/proj", store=store, config=config, max_concurrency=6)
    assert first.sweep is not None and first.sweep["key"] == "project:ent/proj" and first.sweep["compared"] == 6
    sweep_stand_in.upto = 200
    rep = assess_runs(project="ent/proj", store=store, config=config, max_concurrency=6)
    assert rep.sweep is not None and rep.sweep["final_step"] == 800
    assert rep.sweep["prune"] == [f"ent/proj/run{LOSER}"]
    line = next(ln for ln in rep.runs if ln.run == f"ent/proj/run{LOSER}")
    assert line.relative is not None and line.relative["rank"] == 6 and "6th of 6" in line.relative["reason"]
    assert store.get_sweep("project:ent/proj") is not None


def test_a_project_sweep_reads_its_runs_concurrently_within_the_bound_and_only_what_is_new(sweep_stand_in, store,
                                                                                          config):
    s = sweep_stand_in
    s.delay_s = 0.05  # each answer takes a while, as over a network: concurrent reads overlap
    everyone, s.names = s.names, s.names[:5]  # one run starts after the first sweep
    first = assess_runs(project="ent/proj", store=store, config=config, max_concurrency=3)
    assert len(first.runs) == 5
    assert 2 <= s.most_in_flight <= 3  # runs read at once, never more than max_concurrency
    pages = [v for _, op, v in s.requests if op == "page"]
    assert pages and min(v["minStep"] for v in pages) <= 1
    s.requests.clear()
    s.upto, s.names = 200, everyone
    rep = assess_runs(project="ent/proj", store=store, config=config, max_concurrency=3)
    assert len(rep.runs) == 6  # a later listing sees the new run
    pages = [v for _, op, v in s.requests if op == "page"]
    starts = {v["run"]: v["minStep"] for v in reversed(pages)}  # each run's first page
    assert starts == {**{n: 151 for n in everyone[:5]}, everyone[5]: 0}  # after the last step read; a new run whole
    assert all(ln.step == 200 for ln in rep.runs)
    s.requests.clear()
    again = assess_runs(project="ent/proj", store=store, config=config, max_concurrency=3)
    assert all(ln.step == 200 for ln in again.runs)
    assert "runs" in s.ops() and not {"page", "run", "keys"} & set(s.ops())  # nothing new: the listing says so
