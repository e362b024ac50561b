"""The W&B API source, driven through the real ``wandb.Api`` against a GraphQL stand-in on 127.0.0.1.

``wandb.Api`` (0.31) sends its GraphQL through wandb-core to ``<base_url>/graphql``:
``Viewer`` on creation, ``Run`` (RunFragment) for metadata, ``RunHistoryKeys``,
``RunParquetHistory`` then ``HistoryPage`` pages for ``scan_history``, and the
``StopRun`` mutation for ``Run.stop()``. The stand-in answers those from the
recorded shapes in tests/fixtures/wandb_api/ and injects faults (5xx, 429 with
Retry-After, 401, slow answers, a deleted run) per operation.
"""

from __future__ import annotations

import json
import math
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from training_check.tools.config import load_config
from training_check.tools.errors import AuthError, BadInput, SourceUnreachable
from training_check.tools.points import BatchBuilder
from training_check.tools.reading import load_run, resolve_ref
from training_check.tools.runref import parse_run_ref
from training_check.tools.sources.wandb_api import (
    AUTH_MESSAGE,
    RetryPolicy,
    WandbApiSource,
    WandbRateLimited,
    WandbRunGone,
    WandbServerError,
    WandbTimeout,
    add_history_rows,
    call_with_retries,
    classify_error,
    history_page_rows,
    resolve_api_key,
    row_value,
    stop_wandb_run,
)

from tests.helpers import comparable_points, use_wandb_api, whole

FIXTURES = Path(__file__).parent / "fixtures" / "wandb_api"
FAKE_KEY = "tcfake" + "0123456789" * 3 + "abcd"  # 40 characters, like a real key; must never be echoed
FAST = RetryPolicy(attempts=3, total_s=6.0, attempt_timeout_s=2, backoff_s=0.1)


@dataclass
class Fault:
    status: int = 500
    body: bytes = b"internal error"
    headers: dict = field(default_factory=dict)
    delay_s: float = 0.0


class StandIn:
    """A tiny W&B GraphQL server: recorded run and history shapes, plus scripted faults per operation."""

    def __init__(self, entity: str = "ent", project: str = "proj"):
        self.entity, self.project = entity, project
        self.run = json.loads((FIXTURES / "run.json").read_text())
        self.rows = [json.loads(line) for line in (FIXTURES / "history_rows.jsonl").read_text().splitlines() if line]
        self.faults: dict[str, list[Fault]] = {}
        self.requests: list[tuple[float, str, dict]] = []
        self.deleted = False
        self.stop_takes_effect = False
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0) or 0))
                if self.path != "/graphql":  # wandb-core's telemetry: accept and ignore
                    self._send(200, b"")
                    return
                req = json.loads(body or b"{}")
                op = stand_in.operation(req.get("query", ""))
                stand_in.requests.append((time.monotonic(), op, req.get("variables") or {}))
                queue = stand_in.faults.get(op) or []
                if queue:
                    fault = queue.pop(0)
                    time.sleep(fault.delay_s)
                    if fault.status:
                        self._send(fault.status, fault.body, fault.headers)
                        return
                self._send(200, json.dumps({"data": stand_in.answer(op, req.get("variables") or {})}).encode(),
                           {"Content-Type": "application/json"})

            do_GET = do_POST

            def _send(self, status, body, headers=None):
                try:
                    self.send_response(status)
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @staticmethod
    def operation(query: str) -> str:
        for marker, op in (("viewer", "viewer"), ("StopRun", "stop"), ("query Runs(", "runs"),
                           ("RunParquetHistory", "parquet"), ("HistoryPage", "page"), ("RunHistoryKeys", "keys"),
                           ("RunFragment", "run")):
            if marker in query:
                return op
        return "other"

    def answer(self, op: str, variables: dict):
        if op == "viewer":
            return {"viewer": {"id": "VXNlcjox", "entity": self.entity, "username": "ada", "email": None,
                               "flags": None, "teams": {"edges": []}}}
        if op == "runs":  # a project with this run and a finished one; the filter picks by state
            want = json.loads(variables.get("filters") or "{}").get("state")
            nodes = [dict(self.run), dict(self.run, id="done9", name="done9", state="finished")]
            nodes = [n for n in nodes if want in (None, n.get("state"))]
            return {"project": {"internalId": "UHJvamVjdDox", "runCount": len(nodes), "readOnly": False,
                                "runs": {"edges": [{"node": n, "cursor": str(i)} for i, n in enumerate(nodes)],
                                         "pageInfo": {"endCursor": None, "hasNextPage": False}}}}
        if op == "stop":
            if self.stop_takes_effect:  # as W&B does once the run's process sees the flag at its heartbeat
                self.run = dict(self.run, state="killed")
            return {"stopRun": {"success": True, "clientMutationId": None}}
        if self.deleted or variables.get("entity") != self.entity or variables.get("project") != self.project:
            return {"project": {"run": None}}
        last = max(r["_step"] for r in self.rows)
        run = dict(self.run, historyKeys={"lastStep": last, "keys": self.run["historyKeys"]["keys"]},
                   historyLineCount=len(self.rows))
        if op == "page":
            lo, hi, n = variables["minStep"], variables["maxStep"], variables["pageSize"]
            rows = [r for r in self.rows if lo <= r["_step"] < hi][:n]
            return {"project": {"run": {"history": [json.dumps(r) for r in rows]}}}
        if op == "parquet":
            return {"project": {"run": {"parquetHistory": {"parquetUrls": [], "liveData": []}}}}
        return {"project": {"run": run}}

    def ops(self) -> list[str]:
        return [op for _, op, _ in self.requests]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def wandb_env(tmp_path, monkeypatch):
    use_wandb_api(monkeypatch, tmp_path, FAKE_KEY)
    return monkeypatch


@pytest.fixture
def stand_in(wandb_env):
    s = StandIn()
    wandb_env.setenv("WANDB_BASE_URL", s.url)
    yield s
    s.close()


def ref(run: str = "ent/proj/runabc123"):
    return parse_run_ref(run)


def points(result) -> dict[str, list]:
    return comparable_points(result.batch)


EXPECTED = {
    "train/loss": [(0, 3.2), (1, 3.0), (2, "nan"), (4, 2.6), (5, 2.5), (7, 2.31)],
    "lr": [(0, 0.0), (1, 0.0001), (2, 0.0002), (4, 0.0003)],
    "grad_norm": [(2, math.inf), (5, -math.inf)],
    "eval/loss": [(3, 2.9), (7, 2.4)],
    "eval/acc": [(6, 0.41)],
}


# -- recorded shapes, no server ------------------------------------------------------------------------

def _built(add, rows: list[dict], after: int) -> tuple[int, list[tuple[str, list, list]]]:
    b = BatchBuilder()
    last = add(rows, b, after)
    batch = b.build()
    return last, [(k, c.steps.tolist(), [repr(v) for v in c.values.tolist()]) for k, c in batch.columns.items()]


def test_rows_taken_column_by_column_give_the_row_by_row_points_names_and_order():
    """Pages of a few shapes go column by column (``_add_columns``): the same points, in the same order per metric,
    the metrics named in the same order, the same last step as the row-by-row pass - including sparse eval rows,
    rows of W&B's own and system keys, steps out of order, repeated or at or before the cursor; any other rows (a
    string, a bool, a null, a float step) take the row-by-row pass itself."""
    import random

    from training_check.tools.sources.wandb_api import _add_columns, _add_rows

    rng = random.Random(7)
    taken = 0
    for case in range(300):
        rows = []
        for i in range(rng.randrange(0, 60)):
            step = rng.choice([i, i, i, rng.randrange(-3, 80)])
            row: dict = {"_step": step} if rng.random() > 0.03 else {}
            for key in rng.sample(["loss", "lr", "_runtime", "system/gpu", "eval/acc", "z", "a"], rng.randrange(1, 5)):
                row[key] = rng.choice([rng.random(), rng.randrange(-5, 5), float("nan"), float("inf")])
            if rng.random() < 0.3:
                row = dict(reversed(list(row.items())))
            if case % 5 == 0 and rng.random() < 0.05:
                row["loss"] = rng.choice(["NaN", None, True, {"_type": "histogram"}, 1.5])
            if case % 7 == 0 and rng.random() < 0.05:
                row["_step"] = float(step)
            rows.append(row)
        after = rng.choice([-1, -1, 5, 30])
        expected = _built(_add_rows, rows, after)
        assert _built(add_history_rows, rows, after) == expected
        b = BatchBuilder()
        taken += _add_columns(rows, b, after) is not None
    assert taken > 50  # many cases took the columns (the others: more shapes, a string, a float step)

def test_recorded_rows_become_points_by_step():
    rows = [json.loads(line) for line in (FIXTURES / "history_rows.jsonl").read_text().splitlines() if line]
    b = BatchBuilder()
    assert add_history_rows(rows, b) == 7
    # sparse keys keep their own steps; text, booleans and media are not metrics
    assert comparable_points(b.build()) == EXPECTED
    b2 = BatchBuilder()
    assert add_history_rows(rows, b2, after_step=5) == 7 and b2.build().max_step() == 7 and len(b2) == 3
    assert row_value("NaN") != row_value("NaN") and row_value("-Infinity") == -math.inf
    assert row_value(float("nan")) != row_value(float("nan")) and row_value("12") is None and row_value(True) is None


def test_error_mapping_shapes():
    class Resp:
        def __init__(self, status):
            self.http_status = status

    class Failed(Exception):
        def __init__(self, msg, status):
            super().__init__(msg)
            self.response = Resp(status)

    class CommError(Exception):
        def __init__(self, msg, exc):
            super().__init__(msg)
            self.exc = exc

    def wrapped(msg, status):
        return CommError(msg, Failed(msg, status))

    def mapped(exc, api_key=None):
        err = classify_error(exc, "x", api_key)
        return type(err), str(err)

    gone = (WandbRunGone, "W&B has no such run while x (deleted, or a wrong entity/project/run id)")
    assert mapped(wrapped("boom", 502)) == (WandbServerError, "W&B answered with a server error while x (HTTP 502)")
    assert mapped(wrapped("slow down", 429)) == (
        WandbRateLimited, "W&B rate-limited the requests while x (HTTP 429); try again in a minute")
    assert mapped(wrapped("nope", 404)) == gone
    assert mapped(wrapped(f"bad key {FAKE_KEY}", 401), FAKE_KEY) == (AuthError, AUTH_MESSAGE)
    assert mapped(ValueError("Could not find run <Run ent/proj/x>")) == gone
    assert mapped(Exception("Failed to verify credentials with http://h: Failed to execute API request: the service "
                            "process is busy and did not respond in time.")) == (
        WandbTimeout, "W&B did not answer in time while x")  # a slow server is not a refused key
    assert mapped(RuntimeError(f"weird failure mentioning {FAKE_KEY}"), FAKE_KEY) == (
        SourceUnreachable, "W&B API error while x: weird failure mentioning [redacted WANDB_API_KEY]")


def test_retries_back_off_and_stay_within_the_budget():
    calls, sleeps = [], []

    def flaky():
        calls.append(1)
        if len(calls) < 3:
            raise WandbServerError("W&B answered with a server error (HTTP 502)")
        return "ok"

    assert call_with_retries(flaky, RetryPolicy(attempts=3, total_s=10, attempt_timeout_s=1, backoff_s=0.5),
                             "x", sleep=sleeps.append) == "ok"
    assert sleeps == [0.5, 1.0]
    calls.clear()
    with pytest.raises(AuthError, match=whole(AUTH_MESSAGE)):  # a refused key is not retried
        call_with_retries(lambda: (_ for _ in ()).throw(AuthError(AUTH_MESSAGE)), RetryPolicy(), "x",
                          sleep=sleeps.append)
    t = time.monotonic()
    # waits 0.2 then 0.4 s; a third wait (0.8 s) would pass the 1 s budget
    with pytest.raises(WandbTimeout, match=r"\Aslow \(gave up after 3 tries in 0\.[5-9] s\)\Z"):
        call_with_retries(lambda: (_ for _ in ()).throw(WandbTimeout("slow")),
                          RetryPolicy(attempts=10, total_s=1.0, attempt_timeout_s=0, backoff_s=0.2), "x")
    assert time.monotonic() - t < 1.5


def test_api_key_resolution(tmp_path):
    netrc_file = tmp_path / "netrc"
    netrc_file.write_text("machine api.wandb.ai\n  login user\n  password key-from-netrc\n")
    netrc_file.chmod(0o600)
    assert resolve_api_key(env={"WANDB_API_KEY": "k1"}) == "k1"
    assert resolve_api_key(env={"NETRC": str(netrc_file)}) == "key-from-netrc"
    with pytest.raises(AuthError, match=whole("no W&B API key found: run `wandb login` or set WANDB_API_KEY")):
        resolve_api_key(env={"NETRC": str(tmp_path / "none")})


# -- the real wandb.Api against the stand-in ----------------------------------------------------------------

def test_reads_history_and_info_through_real_wandb_api(stand_in, config):
    src = WandbApiSource(ref(), config, policy=FAST)
    result = src.read(None)
    assert points(result) == EXPECTED
    assert result.cursor == {"last_step": 7}
    info = result.info
    assert info.name == "llama-lr3e-4" and info.state == "running"
    assert info.config == {"lr": 0.0003, "batch_size": 64, "max_steps": 5000} and info.total_steps == 5000
    assert info.url and info.url.endswith("/ent/proj/runs/runabc123")
    assert "page" in stand_in.ops()

    # nothing new: no history page is asked for
    stand_in.requests.clear()
    again = src.read(result.cursor)
    assert again.batch.is_empty() and again.cursor == {"last_step": 7} and "page" not in stand_in.ops()

    # two more steps: only they are fetched (minStep after the cursor)
    stand_in.rows += [{"_step": 8, "train/loss": 2.2}, {"_step": 9, "train/loss": "NaN", "eval/loss": 2.3}]
    stand_in.requests.clear()
    more = src.read(result.cursor)
    assert points(more) == {"train/loss": [(8, 2.2), (9, "nan")], "eval/loss": [(9, 2.3)]}
    pages = [v for _, op, v in stand_in.requests if op == "page"]
    assert pages and min(v["minStep"] for v in pages) == 8
    assert more.cursor == {"last_step": 9}


def test_429_retry_after_is_respected(stand_in, config):
    stand_in.faults["run"] = [Fault(429, b"slow down", {"Retry-After": "1"})]
    result = WandbApiSource(ref(), config, policy=FAST).read(None)
    assert points(result) == EXPECTED
    runs = [t for t, op, _ in stand_in.requests if op == "run"]
    assert len(runs) >= 2 and runs[1] - runs[0] >= 0.9


def test_502_then_recovery(stand_in, config):
    stand_in.faults["page"] = [Fault(502, b"bad gateway")]
    result = WandbApiSource(ref(), config, policy=FAST).read(None)
    assert points(result) == EXPECTED


def test_persistent_500_is_unreachable_within_the_budget(stand_in, config):
    stand_in.faults["run"] = [Fault(500) for _ in range(100)]
    policy = RetryPolicy(attempts=2, total_s=4.0, attempt_timeout_s=1, backoff_s=0.1)
    t = time.monotonic()
    # wandb-core may itself wait out the 500s, so the last try ends as a server error or a timeout
    with pytest.raises(SourceUnreachable, match=r"\AW&B (answered with a server error|did not answer in time) while "
                                                r"reading W&B run ent/proj/runabc123( \(HTTP 500\))? "
                                                r"\(gave up after [12] tries in \d+\.\d s\)\Z") as err:
        WandbApiSource(ref(), config, policy=policy).read(None)
    assert time.monotonic() - t < policy.total_s + 2.0
    assert isinstance(err.value, (WandbServerError, WandbTimeout)) and not isinstance(err.value, AuthError)
    assert "\n" not in str(err.value) and FAKE_KEY not in str(err.value)


def test_slow_answer_times_out(stand_in, config):
    stand_in.faults["run"] = [Fault(0, delay_s=4.0) for _ in range(3)]
    policy = RetryPolicy(attempts=2, total_s=2.5, attempt_timeout_s=1, backoff_s=0.1)
    t = time.monotonic()
    with pytest.raises(WandbTimeout, match=r"\AW&B did not answer in time while reading W&B run ent/proj/runabc123 "
                                           r"\(gave up after 2 tries in \d+\.\d s\)\Z"):
        WandbApiSource(ref(), config, policy=policy).read(None)
    assert time.monotonic() - t < 4.5


def test_refused_key_is_an_auth_error_without_the_key(stand_in, config):
    stand_in.faults["viewer"] = [Fault(401, b'{"errors": [{"message": "invalid api key"}]}')]
    with pytest.raises(AuthError) as err:
        WandbApiSource(ref(), config, policy=FAST, base_url=stand_in.url + "/").read(None)
    assert str(err.value) == AUTH_MESSAGE and FAKE_KEY not in str(err.value)


def test_deleted_run(stand_in, config):
    stand_in.deleted = True
    with pytest.raises(WandbRunGone, match=whole("W&B has no such run while reading W&B run ent/proj/runabc123 "
                                                 "(deleted, or a wrong entity/project/run id)")):
        WandbApiSource(ref(), config, policy=FAST).read(None)


def test_stop_sends_the_stop_mutation(stand_in, config):
    message = stop_wandb_run(ref(), config, policy=FAST)
    assert message == ("asked W&B to stop run ent/proj/runabc123; the run stops at its next heartbeat (the training "
                       "process must be online with W&B to see it)")
    stops = [v for _, op, v in stand_in.requests if op == "stop"]
    assert stops and stops[0]["id"] == stand_in.run["id"]


# -- through load_run: entity/project resolution and the fallback log -----------------------------------------

def test_entity_project_resolution_chain(tmp_path, tc_home, monkeypatch):
    work = tmp_path / "proj"
    (work / "sub").mkdir(parents=True)
    (work / "CLAUDE.md").write_text("# notes\n- WANDB_ENTITY: from-claude\n- `WANDB_PROJECT`: claude-proj\n")
    cfg = load_config(cwd=work / "sub", env={})
    r = resolve_ref("abc123", cfg)
    assert (r.entity, r.project, r.run_id) == ("from-claude", "claude-proj", "abc123")
    (work / ".training-check.toml").write_text('[wandb]\nentity = "from-toml"\n')
    cfg = load_config(cwd=work / "sub", env={})
    r = resolve_ref("abc123", cfg)
    assert (r.entity, r.project) == ("from-toml", "claude-proj")
    cfg = load_config(cwd=work / "sub", env={"WANDB_ENTITY": "from-env", "WANDB_PROJECT": "env-proj"})
    r = resolve_ref("p2/abc123", cfg)
    assert (r.entity, r.project) == ("from-env", "p2")


def test_load_run_resolves_a_bare_run_id_and_reads_the_api(stand_in, store, tmp_path, tc_home):
    (tmp_path / ".training-check.toml").write_text('[wandb]\nentity = "ent"\nproject = "proj"\n')
    cfg = load_config(cwd=tmp_path)
    data = load_run("runabc123", store=store, config=cfg)
    assert data.source.kind == "wandb_api" and data.fallback_reason is None
    assert data.frame.series["eval/loss"].to_dict() == {3: 2.9, 7: 2.4}
    assert math.isnan(data.frame.series["train/loss"].loc[2])


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_load_run_falls_back_to_the_log_when_the_api_fails(stand_in, store, config, tmp_path):
    stand_in.faults["viewer"] = [Fault(401, b"no")]
    log = tmp_path / "train.jsonl"
    log.write_text("".join(json.dumps({"step": i, "loss": 3.0 - i * 0.1}) + "\n" for i in range(20)))
    data = load_run("ent/proj/runabc123", store=store, config=config, fallback_log=str(log))
    assert data.fallback_reason == AUTH_MESSAGE
    assert data.source.kind == "log" and data.frame.last_step == 19
    assert data.info.url == "https://wandb.ai/ent/proj/runs/runabc123"
    stand_in.faults["viewer"] = [Fault(401, b"no")]
    with pytest.raises(AuthError, match=whole(AUTH_MESSAGE)):
        load_run("ent/proj/runabc123", store=store, config=config)


def test_unreachable_api_without_fallback(wandb_env, store, config):
    wandb_env.setenv("WANDB_BASE_URL", f"http://127.0.0.1:{_closed_port()}")
    t = time.monotonic()
    # wandb-core does not report a refused port as such: the calls time out
    with pytest.raises(SourceUnreachable, match=r"\AW&B did not answer in time while connecting to W&B "
                                                r"\(gave up after \d+ tries in \d+\.\d s\)\Z") as err:
        load_run("ent/proj/runabc123", store=store, config=config)
    assert time.monotonic() - t < RetryPolicy().total_s + 5
    assert "\n" not in str(err.value) and FAKE_KEY not in str(err.value)


def test_stop_run_on_a_wandb_run_saves_evidence_then_stops_through_the_api(stand_in, store, config):
    from training_check.tools.stop_run import stop_run

    stand_in.stop_takes_effect = True
    r = stop_run("ent/proj/runabc123", "loss NaN for 300 steps", store=store, config=config, force=True)
    stops = [v for _, op, v in stand_in.requests if op == "stop"]
    assert stops and stops[0]["id"] == stand_in.run["id"]
    assert r.method == "wandb" and r.evidence_path and Path(r.evidence_path).read_text().count("runabc123")
    assert r.stopped and r.final_state == "W&B reports killed" and store.evidence_for("wandb:ent/proj/runabc123")
    assert FAKE_KEY not in json.dumps(r.to_dict())


def test_project_runs_are_listed_by_state_through_the_real_api(stand_in, config):
    from training_check.tools.sources.wandb_api import list_project_runs

    running = list_project_runs("ent/proj", config, state="running", policy=FAST)
    assert running == [f"ent/proj/{stand_in.run['name']}"]
    assert len(list_project_runs("ent/proj", config, state=None, policy=FAST)) == 2
    with pytest.raises(BadInput, match=whole("project must be entity/project, got 'just-one-part; rm -rf /' "
                                             "(or set WANDB_ENTITY)")):
        list_project_runs("just-one-part; rm -rf /", config)


# -- history pages: the query wandb-core sends for scan_history, parsed a page at a time --------------------------

def test_history_pages_are_the_rows_scan_history_gives(stand_in, config):
    """The HistoryPage path and wandb's own scan_history read the same rows from the same server; the pages ask for
    windows of steps from the cursor up to the run's last step."""
    src = WandbApiSource(ref(), config, policy=FAST)
    client = src.client()
    stand_in.requests.clear()
    paged = list(client.history_rows("ent", "proj", "runabc123", 0, last_step=7, page_size=3))
    windows = [(v["minStep"], v["maxStep"], v["pageSize"], v.get("run")) for _, op, v in stand_in.requests
               if op == "page"]
    assert windows == [(0, 3, 3, "runabc123"), (3, 6, 3, "runabc123"), (6, 9, 3, "runabc123")]
    scanned = list(client.history_rows("ent", "proj", "runabc123", 0))  # no last step: wandb's scan_history
    assert paged == scanned == stand_in.rows
    assert list(client.history_rows("ent", "proj", "runabc123", 5, last_step=7)) == [r for r in stand_in.rows
                                                                                  if r["_step"] >= 5]


def test_a_history_page_line_that_is_no_row_costs_that_line_only():
    good = [json.dumps({"_step": i, "loss": 1.0 / (i + 1)}) for i in range(3)]
    assert history_page_rows(good) == [json.loads(t) for t in good]
    # two rows on one line and a row cut in two: no line is read with another
    merged = [good[0] + "," + good[1], '{"_step": 9, "loss": "', '"}', good[2], good[0] + " trailing"]
    assert history_page_rows(merged) == [json.loads(good[2])]
    deep = '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}"
    assert history_page_rows([good[0], deep, "not json", '"a string"', good[1] + "  ", None]) == [
        json.loads(good[0]), json.loads(good[1])]
    assert history_page_rows(None) == [] and history_page_rows([]) == []


def test_a_run_gone_between_listing_and_history_is_said_so(stand_in, config):
    src = WandbApiSource(ref(), config, policy=FAST)
    client = src.client()
    stand_in.deleted = True
    with pytest.raises(SourceUnreachable, match="no such run"):
        call_with_retries(lambda: list(client.history_rows("ent", "proj", "runabc123", 0, last_step=7)), FAST,
                          "reading W&B run ent/proj/runabc123", FAKE_KEY)
