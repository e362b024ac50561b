"""A sweep of a W&B project through the real ``wandb.Api`` against the GraphQL stand-in (tests/test_wandb_api.py):
``assess_runs(project=...)`` lists the project's running runs, reads them concurrently, and judges them against
each other; the project is the sweep's key in the store."""

from __future__ import annotations

import json

import pytest
from training_check.tools.assess_runs import assess_runs

from tests.helpers import use_wandb_api

from .conftest import REPO
from .test_sweep_stop import LOSER, RUNS
from .test_wandb_api import FAKE_KEY, StandIn

SWEEP = REPO / "examples" / "sweeps" / "mlp_cls-s2"


class SweepStandIn(StandIn):
    """The stand-in serving six runs of a committed sweep (their real curves), up to ``upto`` steps."""

    def __init__(self) -> None:
        super().__init__()
        self.upto = 150
        self.curves = {}
        for r in RUNS:
            recs = [json.loads(line) for line in (SWEEP / f"mlp_cls-s2-{r}.jsonl").read_text().splitlines()]
            self.curves[f"run{r}"] = [{"_step": rec["step"], **{k: v for k, v in rec.items() if k != "step"}}
                                      for rec in recs]
        config = json.dumps({"max_steps": {"value": 800, "desc": None}})
        self.run = dict(self.run, config=config)

    def answer(self, op: str, variables: dict):
        name = variables.get("name") or variables.get("run")
        if op == "runs":
            nodes = [dict(self.run, id=f"id{n}", name=n, displayName=n) for n in self.curves]
            return {"project": {"internalId": "UHJvamVjdDox", "runCount": len(nodes), "readOnly": False,
                                "runs": {"edges": [{"node": n, "cursor": str(i)} for i, n in enumerate(nodes)],
                                         "pageInfo": {"endCursor": None, "hasNextPage": False}}}}
        if name not in self.curves or op not in ("page", "run", "keys"):
            return super().answer(op, variables)
        rows = [r for r in self.curves[name] if r["_step"] <= self.upto]  # per request: runs are read at once
        if op == "page":
            lo, hi, n = variables["minStep"], variables["maxStep"], variables["pageSize"]
            return {"project": {"run": {"history": [json.dumps(r) for r in rows if lo <= r["_step"] < hi][:n]}}}
        keys = {k: {"typeCounts": [{"type": "number", "count": len(rows)}]} for k in ("train_loss", "eval_loss")}
        return {"project": {"run": dict(self.run, name=name, displayName=name, historyLineCount=len(rows),
                                        historyKeys={"lastStep": rows[-1]["_step"], "keys": keys})}}


@pytest.fixture
def sweep_stand_in(tmp_path, monkeypatch):
    use_wandb_api(monkeypatch, tmp_path, FAKE_KEY)
    s = SweepStandIn()
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
