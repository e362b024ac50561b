"""Drive our MCP server over stdio with the SDK's own client (a real subprocess, a real session)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema.validators import validator_for
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

REPO = Path(__file__).resolve().parents[1]
SERVER_ARGV = [sys.executable, "-m", "training_check.server.cli", "serve"]


def server_env(tc_home: Path, **extra: str) -> dict[str, str]:
    """The environment for a server process: our store home, no credentials from the developer's shell."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "WANDB_API_KEY", "WANDB_ENTITY", "WANDB_PROJECT",
                        "REVIEWER_BACKEND", "REVIEWER_MODEL")}
    env["TRAINING_CHECK_HOME"] = str(tc_home)
    env.update(extra)
    return env


def schema_errors(schema: dict[str, Any], data: Any) -> list[str]:
    """Every way ``data`` breaks the JSON Schema ``schema`` (checked first as a schema itself), one line each."""
    validator_cls = validator_for(schema)
    validator_cls.check_schema(schema)
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
            for e in validator_cls(schema).iter_errors(data)]


@dataclass
class Session:
    client: ClientSession
    logs: list[Any] = field(default_factory=list)
    init: Any = None
    output_schemas: dict[str, dict[str, Any]] = field(default_factory=dict)
    answers: list[tuple[str, dict]] = field(default_factory=list)  # (tool, answer) checked against its schema

    async def output_schema(self, tool: str) -> dict[str, Any]:
        """The outputSchema the server lists for ``tool`` (listed once per session)."""
        if not self.output_schemas:
            for t in (await self.client.list_tools()).tools:
                self.output_schemas[t.name] = t.output_schema or {}
        schema = self.output_schemas.get(tool)
        assert schema, f"{tool} lists no outputSchema"
        return schema

    async def check_answer(self, tool: str, res: Any) -> dict:
        """The structured content of a successful answer, after checking it against the tool's advertised
        outputSchema (with the jsonschema package) and that the text block carries the same JSON."""
        data = res.structured_content
        assert isinstance(data, dict), f"{tool} returned no structured content"
        errors = schema_errors(await self.output_schema(tool), data)
        assert not errors, f"{tool}'s answer breaks its outputSchema: {'; '.join(errors)}"
        assert json.loads(res.content[0].text) == data, f"{tool}: the text block differs from the structured content"
        self.answers.append((tool, data))
        return data

    async def call(self, tool: str, args: dict[str, Any] | None = None, progress: list | None = None):
        async def on_progress(done, total, message):
            if progress is not None:
                progress.append((done, total, message))

        res = await self.client.call_tool(tool, args or {}, progress_callback=on_progress if progress is not None
                                          else None)
        if not res.is_error:  # every successful answer is checked against the tool's advertised schema
            await self.check_answer(tool, res)
        return res

    async def ok(self, tool: str, args: dict[str, Any] | None = None, progress: list | None = None) -> dict:
        """Call a tool that must succeed; returns its structured content."""
        res = await self.call(tool, args, progress)
        text = " ".join(getattr(c, "text", "") for c in res.content)
        assert not res.is_error, f"{tool} failed: {text}"
        return res.structured_content

    async def error(self, tool: str, args: dict[str, Any] | None = None) -> str:
        """Call a tool that must fail; returns its error text."""
        res = await self.call(tool, args)
        text = " ".join(getattr(c, "text", "") for c in res.content)
        assert res.is_error, f"{tool} unexpectedly succeeded: {text[:300]}"
        return text


@asynccontextmanager
async def mcp_session(tc_home: Path, cwd: Path | None = None, argv: list[str] | None = None,
                      **env: str) -> AsyncIterator[Session]:
    """Start ``training-check serve`` and yield an initialised client session."""
    argv = argv or SERVER_ARGV
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=server_env(tc_home, **env),
                                   cwd=str(cwd or tc_home.parent))
    logs: list[Any] = []

    async def on_log(params):
        logs.append(params)

    errlog = open(tc_home.parent / "server-stderr.log", "a")
    try:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, logging_callback=on_log, read_timeout_seconds=120) as client:
                init = await client.initialize()
                yield Session(client, logs, init)
    finally:
        errlog.close()


def structured_from_text(res) -> dict:
    """The JSON a tool result carries in its text content (clients without structured content read this)."""
    return json.loads(res.content[0].text)
