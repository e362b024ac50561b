"""The client CLIs the end-to-end tests drive, as .ci/setup pins them: for each, the newest release people install
today and one older pinned release (a user upgrades when they like), side by side: the global npm install and one
under /opt/<name>-<version>. An environment variable overrides each path. A missing or different binary fails in CI
(``require``) and skips elsewhere."""

from __future__ import annotations

import functools
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from .conftest import require


@dataclass(frozen=True)
class Pin:
    package: str  # the npm package
    version: str
    default: str  # a bare command name (the global install) or an absolute path (the prefix install)
    env: str  # the variable that overrides the path

    def path(self) -> str | None:
        where = os.environ.get(self.env) or self.default
        return shutil.which(where) if os.sep not in where else (where if os.path.exists(where) else None)

    @property
    def install(self) -> str:
        prefix = "" if os.sep not in self.default else f"--prefix {self.default.split('/node_modules/')[0]} "
        return f"npm install {'-g ' if not prefix else prefix}{self.package}@{self.version} (bash .ci/setup)"

    def __str__(self) -> str:
        return self.version


def _prefix(name: str, version: str, exe: str) -> str:
    return f"/opt/{name}-{version}/node_modules/.bin/{exe}"


CLAUDE_CODE = (
    Pin("@anthropic-ai/claude-code", "2.1.197", "claude", "CLAUDE_CODE_OLD_BIN"),
    Pin("@anthropic-ai/claude-code", "2.1.337", _prefix("claude", "2.1.337", "claude"), "CLAUDE_CODE_NEW_BIN"),
)
CODEX = (
    Pin("@openai/codex", "0.154.0", _prefix("codex", "0.154.0", "codex"), "CODEX_OLD_BIN"),
    Pin("@openai/codex", "0.171.0", "codex", "CODEX_NEW_BIN"),
)
CODEX_TOO_OLD = Pin("@openai/codex", "0.140.0", _prefix("codex", "0.140.0", "codex"), "CODEX_TOO_OLD_BIN")
INSPECTOR = (
    Pin("@modelcontextprotocol/inspector", "0.15.0", "mcp-inspector", "MCP_INSPECTOR_OLD_BIN"),
    Pin("@modelcontextprotocol/inspector", "2.12.0", _prefix("mcp-inspector", "2.12.0", "mcp-inspector"),
        "MCP_INSPECTOR_NEW_BIN"),
)


@functools.cache
def _package_version(path: str, package: str) -> str:
    """The version in the package.json of ``package`` that holds the (resolved) binary."""
    here = Path(path).resolve().parent
    for d in (here, *here.parents):
        meta = d / "package.json"
        if meta.is_file():
            info = json.loads(meta.read_text(encoding="utf-8"))
            if info.get("name") == package:
                return str(info.get("version"))
    return "not from that package"


def binary(pin: Pin) -> str:
    """The pinned binary's path; fails in CI (skips elsewhere) when it is missing or another version."""
    path = pin.path()
    require(path is not None, f"{pin.package} {pin.version}: {pin.install}")
    assert path is not None
    got = _package_version(path, pin.package)
    require(got == pin.version, f"{pin.package} {pin.version} at {path} (it is {got}): {pin.install}")
    return path
