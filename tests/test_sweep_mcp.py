"""A sweep check through the MCP server over stdio (the SDK's client): real run logs of the committed sweeps, one
clearly losing -> named prune with its numbers; stopped only with prune=true; the answer within 8 KB with 100+
runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import anyio

from tests.mcp_client import mcp_session
from tests.standins import Trainers

from .conftest import REPO
from .test_sweep_stop import LOSER, RUNS, write_logs

SWEEPS = REPO / "examples" / "sweeps"
BUDGET = 8000


def test_a_sweep_of_six_real_runs_names_the_loser_prune_and_stops_it_only_with_prune_true(tc_home, tmp_path):
    trainers = Trainers(tmp_path)
    loser = str(tmp_path / f"{LOSER}.jsonl")

    async def main():
        async with mcp_session(tc_home) as s:
            answers = []
            for lines in (15, 20):  # two checks: a prune needs two in a row
                runs = write_logs(tmp_path, lines)
                res = await s.call("assess_runs", {"runs": runs, "total_steps": 800})
                answers.append((res.structured_content, res.content[0].text))
            p = trainers.start("--log", loser)
            refused = await s.error("stop_run", {"run": loser, "reason": "sweep", "target": f"pid:{p.pid}"})
            alive = p.poll() is None
            done = await s.ok("stop_run", {"run": loser, "reason": "sweep says prune", "target": f"pid:{p.pid}",
                                           "prune": True})
            return answers, refused, alive, done, p.wait(timeout=10)

    try:
        answers, refused, alive, done, code = anyio.run(main)
    finally:
        trainers.close()
    first, (last, text) = answers[0][0], answers[1]
    assert first["sweep"]["prune"] == [] and len(text.encode()) < BUDGET
    assert last["sweep"]["prune"] == [loser] and last["sweep"]["compared"] == len(RUNS)
    assert last["sweep"]["metric"] == "eval_loss" and last["sweep"]["final_step"] == 800
    line = next(r for r in last["runs"] if r["run"] == loser)
    rel = line["relative"]
    assert rel["recommend"] == "prune" and rel["rank"] == 6 and rel["of"] == 6 and rel["step"] == 200
    assert rel["reason"].startswith("prune: eval_loss 2.2") and "6th of 6" in rel["reason"]
    assert rel["projected_final"]["at_step"] == 800 and rel["projected_final"]["low"] > 1.5
    assert line["verdict"] == "CONTINUE"  # its health verdict is unchanged: prune is not a STOP
    leader = next(r for r in last["runs"] if r["run"] == last["sweep"]["leader"])
    assert leader["relative"]["recommend"] == "lead"
    assert "pruning is not enabled" in refused and "\n" not in refused and alive
    assert done["stopped"] is True and "prune=true" in done["allowed_by"] and done["evidence_path"]
    assert "## Sweep comparison" in Path(done["evidence_path"]).read_text()
    assert code is not None


def test_the_answer_stays_within_8_kb_with_more_than_100_runs(tc_home, tmp_path):
    runs = []
    for i, log in enumerate(sorted(SWEEPS.glob("*/*.jsonl"))):  # 128 real runs of one objective (eval_loss)
        lines = log.read_text().splitlines()[:30]
        dest = tmp_path / f"r{i:03d}-{log.name}"
        dest.write_text("\n".join(lines) + "\n")
        runs.append(str(dest))
    assert len(runs) > 100

    async def main():
        async with mcp_session(tc_home) as s:
            res = await s.call("assess_runs", {"runs": runs, "total_steps": 800})
            return res.structured_content, res.content[0].text

    data, text = anyio.run(main)
    assert len(text.encode()) <= BUDGET and len(json.dumps(data).encode()) <= BUDGET + 200
    sweep = data["sweep"]
    assert sweep["compared"] == len(runs)
    shown = {r["run"] for r in data["runs"]}
    assert sweep["leader"] in shown
    worst = [r for r in data["runs"] if r["verdict"] != "CONTINUE"]
    assert worst and data["runs"][0]["verdict"] != "CONTINUE"
    more = data["more"]
    assert more["runs"] == len(runs) - len(data["runs"]) and more["runs"] > 50
    assert sum(data["counts"].values()) == len(runs)
    shutil.rmtree(tmp_path, ignore_errors=True)
