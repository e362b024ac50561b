"""Every tool's outputSchema tells the truth: each answer, in each of its variants, validates against the schema the
server lists (the ``jsonschema`` package, through a real MCP client session over stdio), and the schema names exactly
the keys the answer can carry."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import pytest
from pydantic import ValidationError
from training_check.server import stdio_front
from training_check.server.shaping import SchemaError, model_for, model_for_path, shape

from .fake_openai_server import FakeOpenAI, Reply
from .mcp_client import mcp_session, schema_errors, server_env

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "corpus"
HEALTHY, NAN, PLATEAU = "healthy_gpt_cosine", "nan_fp16_no_loss_scaler", "plateau_lr_zero"
NO_KEY_RUN = "ent/proj/run1"  # a W&B run with no API key in the server's environment: unreachable, at once

# What each answer can carry (tools/*.py: to_dict() and the result dataclasses); required = always sent.
CONTRACT = {
    "read_metrics": ({"run", "run_key", "source", "fallback_reason", "info", "first_step", "last_step", "n_steps",
                      "new_points", "metrics", "notes", "summary", "run_data"},
                     {"run", "run_key", "source", "info", "n_steps", "new_points", "metrics", "notes", "summary",
                      "run_data"}),
    "assess_run": ({"assessment_id", "run", "verdict", "summary", "concern", "progress", "findings", "source",
                    "fallback_reason", "diagnosis", "notes"},
                   {"assessment_id", "run", "verdict", "summary", "progress", "findings"}),
    "escalate_to_reviewer": ({"review_id", "run_key", "assessment_id", "decision", "reason", "model", "backend",
                              "prompt_hash", "elapsed_s", "attempts", "summary"},
                             {"review_id", "run_key", "decision", "reason", "backend", "prompt_hash", "elapsed_s",
                              "attempts", "summary"}),
    "stop_run": ({"run", "run_key", "method", "target", "host", "dry_run", "allowed_by", "plan", "stopped",
                  "final_state", "actions", "elapsed_s", "evidence_id", "evidence_path", "reason", "warnings",
                  "summary"},
                 {"run", "run_key", "method", "dry_run", "allowed_by", "plan", "stopped", "actions", "reason",
                  "warnings", "summary"}),
    "reschedule": ({"run", "interval_minutes", "reason", "next_check_at", "cron", "job_prompt", "cron_delete",
                    "cron_create", "keep_job_id", "renew_by", "stopped", "assessment_id", "summary"},
                   {"run", "reason", "job_prompt", "cron_delete", "stopped", "summary"}),
    "assess_runs": ({"runs", "counts", "expanded_from", "elapsed_s", "notes", "summary", "sweep", "more"},
                    {"runs", "counts", "expanded_from", "elapsed_s", "notes", "summary"}),
}


def example_log(name: str, into: Path) -> str:
    """A copy of an example run's log (its label names the file), so a test may hold it open or stop its reader."""
    label = json.loads((EXAMPLES / name / "label.json").read_text())
    dest = into / name
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy(EXAMPLES / name / label["source"], dest / label["source"])
    return str(dest / label["source"])


def objects(schema: dict, path: str = "") -> list[tuple[str, dict]]:
    """Every object schema inside ``schema`` that names its properties (the root, $defs, nested), with its path."""
    out = [(path or "(top)", schema)] if "properties" in schema else []
    for key, value in schema.items():
        if isinstance(value, dict):
            out += objects(value, f"{path}/{key}")
    return out


def run(main) -> None:
    anyio.run(main)


def test_listed_schemas_name_exactly_what_answers_carry(tc_home):
    async def main():
        async with mcp_session(tc_home) as s:
            tools = {t.name: t.output_schema for t in (await s.client.list_tools()).tools}
        assert set(tools) == set(CONTRACT)
        for name, schema in tools.items():
            keys, required = CONTRACT[name]
            assert set(schema["properties"]) == keys, name
            assert set(schema.get("required", [])) == required, name
            for where, obj in objects(schema):  # no key the definitions do not name, no key sent as null
                assert obj.get("additionalProperties") is False, f"{name} {where} allows unnamed keys"
                for key, prop in obj["properties"].items():
                    assert {"type": "null"} not in prop.get("anyOf", []) and "default" not in prop, \
                        f"{name} {where}.{key}: a left-out key is advertised as null"
        assess = tools["assess_run"]
        assert assess["properties"]["source"]["type"] == "string"  # the source's kind, not a free-form value
        finding = assess["$defs"]["Finding"]
        assert set(finding["properties"]) == {"signal", "status", "message", "steps", "numbers", "concern"}
        assert set(finding["required"]) == {"signal", "status"}  # sustained/fresh are the judge's, never sent
        assert assess["properties"]["findings"] == {"items": {"$ref": "#/$defs/Finding"}, "title": "Findings",
                                                    "type": "array"}
        metric = tools["read_metrics"]["$defs"]["MetricSummary"]
        assert set(metric["required"]) == {"name", "role", "count", "last_step", "nan_count", "inf_count", "series"}
        line = tools["assess_runs"]["$defs"]["RunLine"]
        assert set(line["properties"]) == {"run", "verdict", "line", "assessment_id", "step", "error", "relative",
                                           "total_steps"}
        relative = tools["assess_runs"]["$defs"]["Relative"]
        assert {"rank", "of", "projected_final", "recommend", "reason"} <= set(relative["properties"])
        assert {"recommend", "reason"} <= set(relative["required"])

    run(main)


def test_assess_run_in_every_verdict_matches_its_schema(tc_home, tmp_path):
    healthy, nan, plateau = (example_log(n, tmp_path) for n in (HEALTHY, NAN, PLATEAU))

    async def main():
        async with mcp_session(tc_home) as s:
            got = {}
            for args in ({"run": healthy}, {"run": nan}, {"run": plateau}, {"run": healthy, "as_of_step": 5},
                         {"run": NO_KEY_RUN}):
                a = await s.ok("assess_run", args)
                got[a["verdict"]] = a
            fallback = await s.ok("assess_run", {"run": NO_KEY_RUN, "fallback_log": healthy, "total_steps": 2000,
                                                 "baseline": {"val_loss": [[100, 9.0]]}})
            return got, fallback, s.answers

    got, fallback, answers = anyio.run(main)
    assert set(got) == {"CONTINUE", "STOP", "ESCALATE", "WAIT", "UNREACHABLE"}
    assert len(answers) == 6 and all(tool == "assess_run" for tool, _ in answers)
    assert got["STOP"]["source"] == "log" and got["STOP"]["concern"]
    assert any(f["status"] == "critical" and f["numbers"] for f in got["STOP"]["findings"])
    assert got["UNREACHABLE"]["summary"] == ("UNREACHABLE: no W&B API key found: run `wandb login` or set "
                                             "WANDB_API_KEY")
    assert set(got["UNREACHABLE"]) == {"assessment_id", "run", "verdict", "summary", "progress", "findings"}
    assert fallback["source"] == "log" and fallback["fallback_reason"] == (
        "no W&B API key found: run `wandb login` or set WANDB_API_KEY")


def test_read_metrics_answers_match_their_schema(tc_home, tmp_path):
    healthy, nan = example_log(HEALTHY, tmp_path), example_log(NAN, tmp_path)

    async def main():
        async with mcp_session(tc_home) as s:
            full = await s.ok("read_metrics", {"run": healthy})
            some = await s.ok("read_metrics", {"run": healthy, "keys": ["lm loss"], "since_step": 100,
                                               "max_points": 5})
            nonfinite = await s.ok("read_metrics", {"run": nan, "max_points": 10})
            fallback = await s.ok("read_metrics", {"run": NO_KEY_RUN, "fallback_log": healthy})
            return full, some, nonfinite, fallback, len(s.answers)

    full, some, nonfinite, fallback, checked = anyio.run(main)
    assert checked == 4
    assert full["source"]["kind"] == "log" and "fallback_reason" not in full
    assert [m["name"] for m in some["metrics"]] == ["lm loss"] and len(some["metrics"][0]["series"]) <= 5
    loss = next(m for m in nonfinite["metrics"] if m["role"] == "train_loss")
    assert loss["nan_count"] > 0 and any(isinstance(v, str) for _, v in loss["series"])  # NaN sent as a string
    assert fallback["fallback_reason"] == "no W&B API key found: run `wandb login` or set WANDB_API_KEY"


def test_reviewer_decisions_match_their_schema(tc_home, tmp_path):
    plateau = example_log(PLATEAU, tmp_path)
    fake = FakeOpenAI().script(Reply.decision("STOP", "the loss is flat"), Reply.decision("CONTINUE", "warm-up"),
                               Reply.decision("WAIT", "too early"))

    async def main():
        async with mcp_session(tc_home, OPENAI_API_KEY="sk-test-schemas", OPENAI_BASE_URL=fake.base_url,
                               REVIEWER_API="chat") as s:
            a = await s.ok("assess_run", {"run": plateau})
            decisions = [await s.ok("escalate_to_reviewer", {"assessment_id": a["assessment_id"], "concern": c})
                         for c in ("plateau", "plateau again")]
            decisions.append(await s.ok("escalate_to_reviewer", {"run": plateau, "concern": "still flat",
                                                                 "baseline": "GPT-2 reaches 3.3 at 10k steps"}))
            return a, decisions

    with fake:
        a, decisions = anyio.run(main)
    assert a["verdict"] == "ESCALATE"
    assert [d["decision"] for d in decisions] == ["STOP", "CONTINUE", "WAIT"]
    assert all(d["assessment_id"] == a["assessment_id"] and d["backend"] == "openai" for d in decisions)


@dataclass
class Reader:
    """A stand-in for a run's training process: it holds the run's log open."""

    log: str
    proc: subprocess.Popen = field(init=False)

    def __post_init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c",
                                      f"import time; f = open({self.log!r}, 'a'); time.sleep(120)"])

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def test_stop_run_and_reschedule_answers_match_their_schemas(tc_home, tmp_path):
    healthy, nan = example_log(HEALTHY, tmp_path), example_log(NAN, tmp_path)
    reader = Reader(nan)

    async def main():
        async with mcp_session(tc_home) as s:
            ok = await s.ok("assess_run", {"run": healthy})
            first = await s.ok("reschedule", {"run": healthy, "assessment_id": ok["assessment_id"]})
            job = {"id": "job1", "schedule": first["cron"], "prompt": first["job_prompt"], "session_only": True}
            again = await s.ok("reschedule", {"run": healthy, "assessment_id": ok["assessment_id"], "jobs": [job],
                                              "current_job_id": "job1", "target": "tmux:train", "durable": True})
            refused = await s.error("stop_run", {"run": healthy, "reason": "looks fine", "assessment_id":
                                                 ok["assessment_id"], "target": f"pid:{reader.proc.pid}"})
            bad = await s.ok("assess_run", {"run": nan})
            plan = await s.ok("stop_run", {"run": nan, "reason": "NaN loss", "assessment_id": bad["assessment_id"],
                                           "target": f"pid:{reader.proc.pid}", "dry_run": True})
            alive_after_plan = reader.proc.poll() is None
            done = await s.ok("stop_run", {"run": nan, "reason": "NaN loss", "assessment_id": bad["assessment_id"],
                                           "target": f"pid:{reader.proc.pid}"})
            stop_job = {"id": "job2", "schedule": "*/10 * * * *", "prompt": f"/training-check {nan}",
                        "session_only": True}
            after = await s.ok("reschedule", {"run": nan, "assessment_id": bad["assessment_id"], "jobs": [stop_job]})
            return first, again, refused, plan, alive_after_plan, done, after, [t for t, _ in s.answers]

    try:
        first, again, refused, plan, alive_after_plan, done, after, tools = anyio.run(main)
    finally:
        reader.close()
    assert tools.count("reschedule") == 3 and tools.count("stop_run") == 2
    assert first["cron_create"] and first["interval_minutes"] and not first["cron_delete"]
    assert "target=tmux:train" in again["job_prompt"] and again["stopped"] is False
    assert "\n" not in refused and "STOP" in refused
    assert plan["dry_run"] is True and plan["plan"] and alive_after_plan and "evidence_path" not in plan
    assert done["stopped"] is True and done["evidence_path"] and done["final_state"]
    assert after["stopped"] is True and "cron_create" not in after and after["cron_delete"] == [{"id": "job2"}]


def test_assess_runs_lines_match_their_schema(tc_home, tmp_path):
    runs = [example_log(n, tmp_path) for n in (HEALTHY, NAN, PLATEAU)] + [str(tmp_path / "gone.log"), NO_KEY_RUN]

    async def main():
        async with mcp_session(tc_home) as s:
            return await s.ok("assess_runs", {"runs": runs, "max_concurrency": 2})

    many = anyio.run(main)
    assert [r["verdict"] for r in many["runs"]] == ["STOP", "ESCALATE", "UNREACHABLE", "ERROR", "CONTINUE"]
    assert many["counts"] == {"STOP": 1, "ESCALATE": 1, "UNREACHABLE": 1, "ERROR": 1, "CONTINUE": 1}
    gone = next(r for r in many["runs"] if r["verdict"] == "ERROR")
    assert gone["error"] and "assessment_id" not in gone and "step" not in gone


def test_errors_carry_no_structured_content(tc_home, tmp_path):
    healthy = example_log(HEALTHY, tmp_path)
    calls = {
        "read_metrics": {"run": str(tmp_path / "missing.log")},
        "assess_run": {"run": healthy, "baseline": "{not json"},
        "escalate_to_reviewer": {"run": healthy, "concern": "plateau"},
        "stop_run": {"run": healthy, "reason": "x"},
        "reschedule": {"run": healthy, "assessment_id": "asm_unknown"},
        "assess_runs": {"runs": []},
    }

    async def main():
        async with mcp_session(tc_home) as s:
            out = {}
            for tool, args in calls.items():
                res = await s.call(tool, args)
                out[tool] = (res.is_error, res.structured_content, " ".join(c.text for c in res.content))
            return out

    for tool, (is_error, structured, text) in anyio.run(main).items():
        assert is_error and structured is None, tool
        assert text and "\n" not in text and "Error executing tool" not in text, (tool, text)


# -- the models themselves (no server) ------------------------------------------------------------------------------
def test_an_unknown_result_class_stops_the_server_with_its_name():
    with pytest.raises(SchemaError) as e:
        model_for_path("no_such_module", "Report")
    assert str(e.value) == ("cannot publish the output schema of training_check.tools.no_such_module.Report: "
                            "ModuleNotFoundError: No module named 'training_check.tools.no_such_module'; "
                            "reinstall training-check")
    with pytest.raises(SchemaError) as e:
        model_for_path("assess", "NoSuchClass")
    assert "training_check.tools.assess.NoSuchClass: AttributeError" in str(e.value)


@dataclass
class _Odd:
    name: str
    where: Path


def test_a_field_with_no_json_form_is_refused_by_name():
    with pytest.raises(SchemaError) as e:
        model_for(_Odd)
    assert str(e.value) == f"{__name__}._Odd.where: no JSON form for type {Path!r}"


def test_an_answer_cannot_carry_a_key_its_schema_does_not_name():
    from training_check.tools.read_metrics import MetricsReport

    model = model_for(MetricsReport)
    report = MetricsReport("r", "file:r", {"kind": "log"}, None, {}, 0, 9, 10, 10, [], summary="ok")
    data = shape(report, model).model_dump(mode="json", exclude_none=True)
    assert not schema_errors(model.model_json_schema(), data)
    with pytest.raises(ValidationError) as e:
        shape({**report.to_dict(), "elapsed_s": 1.0}, model)
    assert "elapsed_s" in str(e.value) and "Extra inputs are not permitted" in str(e.value)


def test_the_first_answer_cache_changes_when_a_result_definition_changes(tmp_path, monkeypatch):
    for sub in ("server", "tools", "prompts"):
        shutil.copytree(REPO / sub, tmp_path / sub, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(stdio_front, "PACKAGE", tmp_path)
    before = stdio_front.fingerprint()
    assert stdio_front.fingerprint() == before
    with (tmp_path / "tools" / "findings.py").open("a") as f:
        f.write("# a new field would change the published schema\n")
    assert stdio_front.fingerprint() != before


def test_the_server_does_not_start_without_a_result_definition(tc_home, tmp_path):
    """A result class that cannot be imported stops `training-check serve` once it builds the SDK server, in one line
    (no generic schema). The handshake of a version never recorded is what the SDK must answer."""
    code = ("import sys; import training_check.tools.schedule as s; del s.Schedule; "
            "from training_check.server.cli import main; sys.exit(main(['serve']))")
    init = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "1999-01-01", "capabilities": {},
                       "clientInfo": {"name": "t", "version": "1"}}}
    p = subprocess.run([sys.executable, "-c", code], input=json.dumps(init) + "\n", capture_output=True, text=True,
                       timeout=60, cwd=tmp_path, env=server_env(tc_home))
    assert p.returncode == 70 and p.stdout == ""
    assert p.stderr == ("training-check: internal error (SchemaError: cannot publish the output schema of "
                        "training_check.tools.schedule.Schedule: AttributeError: module 'training_check.tools."
                        "schedule' has no attribute 'Schedule'; reinstall training-check); rerun with "
                        "TRAINING_CHECK_DEBUG=1 and report it\n")


@pytest.mark.parametrize("budget", [100_000, 200])
def test_an_assessment_cut_to_its_budget_still_matches_the_schema(budget, store, config, tmp_path):
    """Past its byte budget an answer shortens the ok findings, then names them in one note, drops the numbers, then
    cuts the text: in full and cut, it is what the schema advertises."""
    from training_check.tools.assess import Assessment, assess_run

    a = assess_run(example_log("overfit_tiny_mlp", tmp_path), store=store, config=config)
    a.summary = a.summary + " " + "x" * 400  # long enough to be cut
    model = model_for(Assessment)
    data = shape(a.to_dict(budget), model).model_dump(mode="json", exclude_none=True)
    assert not schema_errors(model.model_json_schema(), data)
    cut = budget < 1000
    ok = [f for f in data["findings"] if f["status"] in ("ok", "info")]
    assert ok and all(f.get("message") for f in data["findings"])  # never a finding line without its words
    assert ([f["signal"] for f in ok] == ["others"]) is cut  # cut: the ok ones named in one note
    assert any("numbers" in f for f in data["findings"]) is not cut
    assert data["summary"].endswith("...") is cut and (len(data["summary"]) == 300) is cut
