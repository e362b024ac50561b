"""An OpenAI-compatible HTTP server on 127.0.0.1 for the reviewer tests (stdlib http.server, one thread).

POST /v1/responses and POST /v1/chat/completions answer from a script of
replies queued by the test (a valid decision, prose, an empty reply, HTTP 429
with Retry-After, HTTP 500, a slow answer...), in the shapes the real API
uses, and every request is recorded (path, headers, JSON body) for the test
to inspect. When the script is empty the server answers HTTP 500.

A Responses request with ``"stream": true`` (what the Codex CLI sends) is
answered as the real API streams it: server-sent events response.created,
response.output_item.added, response.content_part.added,
response.output_text.delta, response.output_text.done,
response.content_part.done, response.output_item.done, response.completed.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .standins import sse_event


@dataclass
class Reply:
    """One scripted answer: a text reply (``text``), or an HTTP error (``status``), after ``delay_s``."""

    text: str | None = None
    status: int = 200
    headers: dict = field(default_factory=dict)
    delay_s: float = 0.0
    error_message: str = "scripted error"

    @classmethod
    def decision(cls, decision: str, reason: str = "scripted reason", **kw) -> Reply:
        return cls(text=json.dumps({"decision": decision, "reason": reason}), **kw)


@dataclass
class Recorded:
    path: str
    headers: dict
    body: dict
    raw: bytes


class FakeOpenAI:
    """The server; use as a context manager. ``base_url`` is what the openai client takes."""

    def __init__(self, model_echo: bool = True):
        self.replies: deque[Reply] = deque()
        self.requests: list[Recorded] = []
        self.responses_sent: list[bytes] = []
        self.model_echo = model_echo
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def script(self, *replies: Reply) -> FakeOpenAI:
        with self._lock:
            self.replies.extend(replies)
        return self

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    # -- answers in the real API's shapes ----------------------------------------------
    @staticmethod
    def responses_body(model: str, text: str) -> dict:
        now = int(time.time())
        content = [{"type": "output_text", "text": text, "annotations": []}] if text else []
        return {
            "id": f"resp_{now}", "object": "response", "created_at": now, "status": "completed",
            "model": model, "error": None, "incomplete_details": None, "instructions": None,
            "output": [
                {"type": "reasoning", "id": "rs_1", "summary": []},
                {"type": "message", "id": "msg_1", "status": "completed", "role": "assistant", "content": content},
            ],
            "parallel_tool_calls": True, "tool_choice": "auto", "tools": [], "temperature": 1.0, "top_p": 1.0,
            "usage": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
                      "input_tokens_details": {"cached_tokens": 0},
                      "output_tokens_details": {"reasoning_tokens": 3}},
        }

    @staticmethod
    def chat_body(model: str, text: str) -> dict:
        now = int(time.time())
        return {
            "id": f"chatcmpl-{now}", "object": "chat.completion", "created": now, "model": model,
            "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                         "message": {"role": "assistant", "content": text, "refusal": None}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }

    def _handler_class(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep test output quiet
                pass

            def _send(self, status: int, body: dict, headers: dict | None = None) -> None:
                data = json.dumps(body).encode()
                fake.responses_sent.append(data)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, str(v))
                self.end_headers()
                try:
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _stream(self, model: str, text: str, headers: dict) -> None:
                body = fake.responses_body(model, text)
                message = body["output"][1]
                part = message["content"][0] if message["content"] else {"type": "output_text", "text": "",
                                                                          "annotations": []}
                started = {**body, "status": "in_progress", "output": [], "usage": None}
                events = [
                    {"type": "response.created", "response": started},
                    {"type": "response.in_progress", "response": started},
                    {"type": "response.output_item.added", "output_index": 0,
                     "item": {**message, "status": "in_progress", "content": []}},
                    {"type": "response.content_part.added", "item_id": message["id"], "output_index": 0,
                     "content_index": 0, "part": {**part, "text": ""}},
                    *({"type": "response.output_text.delta", "item_id": message["id"], "output_index": 0,
                       "content_index": 0, "delta": text[i:i + 40]} for i in range(0, len(text), 40)),
                    {"type": "response.output_text.done", "item_id": message["id"], "output_index": 0,
                     "content_index": 0, "text": text},
                    {"type": "response.content_part.done", "item_id": message["id"], "output_index": 0,
                     "content_index": 0, "part": part},
                    {"type": "response.output_item.done", "output_index": 0, "item": message},
                    {"type": "response.completed", "response": {**body, "output": [message]}},
                ]
                data = b"".join(sse_event(e["type"], {**e, "sequence_number": n}) for n, e in enumerate(events))
                fake.responses_sent.append(data)
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(data)))
                for k, v in headers.items():
                    self.send_header(k, str(v))
                self.end_headers()
                try:
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def do_POST(self):
                n = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(n)
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                with fake._lock:
                    fake.requests.append(Recorded(self.path, dict(self.headers.items()), body, raw))
                    reply = fake.replies.popleft() if fake.replies else Reply(status=500,
                                                                             error_message="script exhausted")
                if reply.delay_s and fake._stop.wait(reply.delay_s):
                    return
                if reply.status != 200:
                    self._send(reply.status, {"error": {"message": reply.error_message, "type": "server_error",
                                                        "param": None, "code": None}}, reply.headers)
                    return
                model = body.get("model", "unknown")
                if self.path.rstrip("/").endswith("/responses") and body.get("stream") is True:
                    self._stream(model, reply.text or "", reply.headers)
                elif self.path.rstrip("/").endswith("/responses"):
                    self._send(200, fake.responses_body(model, reply.text or ""), reply.headers)
                elif self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(200, fake.chat_body(model, reply.text or ""), reply.headers)
                else:
                    self._send(404, {"error": {"message": f"no route {self.path}", "type": "invalid_request_error"}})

        return Handler
