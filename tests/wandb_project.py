"""A stand-in W&B project of many runs for the real ``wandb.Api``: the GraphQL stand-in of tests/test_wandb_api.py
serving each run's history from rows given as JSON text, the project's run listing paged as W&B pages it.

Used by tests/test_sweep_wandb.py (a committed sweep's six runs) and bench/sweep_scale.py ``--source wandb`` (a
folder of JSONL runs, one run per file, served from its own process so the server's work is not the reader's):

    .venv/bin/python -m tests.wandb_project FOLDER     # prints the base URL, serves until stdin closes
"""

from __future__ import annotations

import bisect
import io
import json
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tests.test_wandb_api import StandIn

History = list[tuple[int, str]]  # (step, the row as JSON text with its "_step"), in step order


class ProjectStandIn(StandIn):
    """The project ``ent/proj`` of the runs ``names`` (all running), each with the rows ``history(name)`` up to
    ``upto`` steps (None: all); ``config`` is every run's W&B config. Each answer takes ``delay_s`` at least; the
    most requests answered at once is ``most_in_flight``."""

    def __init__(self, names: list[str], history: Callable[[str], History], config: dict | None = None) -> None:
        super().__init__()
        self.names = list(names)
        self.history = history
        self.upto: int | None = None
        if config is not None:
            self.run = dict(self.run, config=json.dumps({k: {"value": v, "desc": None} for k, v in config.items()}))
        self._known = set(self.names)
        self.delay_s = 0.0
        self.in_flight = self.most_in_flight = 0
        self._lock = threading.Lock()
        self._encoded: dict[str, tuple[tuple, list[bytes]]] = {}  # name -> ((id, length, last of its rows), as JSON)
        self.server.RequestHandlerClass = self._pages_handler(self.server.RequestHandlerClass)

    def _pages_handler(self, base: type) -> type:
        """The stand-in's handler, a history page (no fault queued) written from its rows' JSON strings made once a
        run (``encoded``): a W&B server sends stored rows, it does not encode them again for each request, and this
        server's CPU shares the reader's two cores in bench/sweep_scale.py. Any other request as before."""
        stand_in = self

        class Handler(base):  # type: ignore[misc, valid-type]
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0) or 0))
                req = json.loads(body or b"{}") if self.path == "/graphql" else {}
                variables = req.get("variables") or {}
                if (stand_in.operation(req.get("query", "")) == "page" and not stand_in.faults.get("page")
                        and variables.get("run") in stand_in._known):
                    stand_in.requests.append((time.monotonic(), "page", variables))
                    self._send(200, stand_in.answer("page-text", variables), {"Content-Type": "application/json"})
                    return
                self.rfile = io.BytesIO(body)  # read again by the stand-in's own handler
                super().do_POST()

            do_GET = do_POST

        return Handler

    def encoded(self, name: str) -> list[bytes]:
        """Each row of ``name`` as a JSON string (its line, quoted and escaped), made once for the rows it has."""
        rows = self.history(name)
        have = self._encoded.get(name)
        mark = (id(rows), len(rows), rows[-1] if rows else None)
        if have is None or have[0] != mark:
            have = self._encoded[name] = (mark, [json.dumps(text).encode() for _, text in rows])
        return have[1]

    def encode_all(self) -> None:
        for name in self.names:
            self.encoded(name)

    def _rows(self, name: str) -> History:
        rows = self.history(name)
        if self.upto is None:
            return rows
        return rows[:bisect.bisect_right(rows, (self.upto, "\uffff"))]  # read per request: runs grow between checks

    def answer(self, op: str, variables: dict):
        with self._lock:
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            time.sleep(self.delay_s)
            return self._answer(op, variables)
        finally:
            with self._lock:
                self.in_flight -= 1

    def _answer(self, op: str, variables: dict):
        if op == "runs":
            start = int(variables["cursor"]) + 1 if variables.get("cursor") else 0
            names = self.names[start:start + int(variables.get("perPage") or 50)]
            edges = [{"node": self._node(n), "cursor": str(start + i)} for i, n in enumerate(names)]
            return {"project": {"internalId": "UHJvamVjdDox", "runCount": len(self.names), "readOnly": False,
                                "runs": {"edges": edges,
                                         "pageInfo": {"endCursor": edges[-1]["cursor"] if edges else None,
                                                      "hasNextPage": start + len(names) < len(self.names)}}}}
        name = variables.get("name") or variables.get("run")
        if name not in self._known or op not in ("page", "page-text", "run", "keys"):
            return super().answer(op, variables)
        if op == "page":
            rows = self._rows(name)
            lo, hi, n = variables["minStep"], variables["maxStep"], variables["pageSize"]
            i = bisect.bisect_left(rows, (lo, ""))
            return {"project": {"run": {"history": [text for step, text in rows[i:i + n] if step < hi]}}}
        if op == "page-text":  # the same answer, as the bytes of {"data": ...} (Handler above)
            rows = self._rows(name)
            lo, hi, n = variables["minStep"], variables["maxStep"], variables["pageSize"]
            i = bisect.bisect_left(rows, (lo, ""))
            j = i + sum(1 for step, _ in rows[i:i + n] if step < hi)
            return b'{"data": {"project": {"run": {"history": [' + b", ".join(self.encoded(name)[i:j]) + b"]}}}}"
        return {"project": {"run": self._node(name)}}

    def _node(self, name: str) -> dict:
        """The run as W&B describes it (RunFragment), its history's last step and count included."""
        rows = self._rows(name)
        keys = {k: {"typeCounts": [{"type": "number", "count": len(rows)}]} for k in ("train_loss", "eval_loss")}
        return dict(self.run, id=f"id{name}", name=name, displayName=name, historyLineCount=len(rows),
                    historyKeys={"lastStep": rows[-1][0] if rows else 0, "keys": keys})


def jsonl_history(path: Path) -> History:
    """A JSONL run (one record a line, its step under ``step``) as history rows; lines that start with the step are
    renamed as they are, the others through ``json``."""
    rows = []
    for line in path.read_text().splitlines():
        head, sep, rest = line.partition(", ")
        if head.startswith('{"step": ') and head[9:].isdigit() and sep:
            rows.append((int(head[9:]), '{"_step": ' + head[9:] + ", " + rest))
            continue
        rec = json.loads(line)
        step = rec.pop("step")
        rows.append((int(step), json.dumps({"_step": step, **rec})))
    return rows


def folder_project(folder: Path, config: dict | None = None) -> ProjectStandIn:
    """The JSONL runs of ``folder`` (``NAME.jsonl`` is run ``ent/proj/NAME``) as a project, every run read first (a
    listing describes each run's history, as W&B's does, in no time)."""
    runs = {p.stem: jsonl_history(p) for p in sorted(folder.glob("*.jsonl"))}
    return ProjectStandIn(list(runs), runs.__getitem__, config)


def main(argv: list[str]) -> int:
    config = json.loads(argv[1]) if len(argv) > 1 else None
    s = folder_project(Path(argv[0]), config)
    s.encode_all()
    print(s.url, flush=True)
    sys.stdin.read()  # until the parent closes it (or ends)
    s.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
