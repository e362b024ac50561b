"""Shared fixtures. Real components (sshd, wandb, MCP Inspector) live in their own fixture modules."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from training_check.tools.config import Config, load_config
from training_check.tools.store import Store

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("TRAINING_CHECK_CORPUS", REPO.parent / "shared" / "corpus" / "real-logs"))

# The real sshd fixtures (`sshd`, `ssh_env`) for every test module, without importing them by name (an imported
# fixture is shadowed by the test's parameter of the same name, which linters rightly flag).
pytest_plugins = ["tests.sshd_fixture"]


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def require(condition: bool, what: str) -> None:
    """A missing real component fails in CI and skips elsewhere (a developer machine may lack it)."""
    if condition:
        return
    if in_ci():
        pytest.fail(f"required component missing in CI: {what}")
    pytest.skip(f"missing: {what}")


@pytest.fixture
def tc_home(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "tc-home"
    monkeypatch.setenv("TRAINING_CHECK_HOME", str(home))
    for var in ("WANDB_ENTITY", "WANDB_PROJECT", "OPENAI_API_KEY", "OPENAI_BASE_URL", "REVIEWER_MODEL",
                "REVIEWER_BACKEND", "REVIEWER_API", "REVIEWER_TIMEOUT_S", "REVIEWER_MAX_RETRIES",
                "REVIEWER_CODEX_COMMAND"):
        monkeypatch.delenv(var, raising=False)
    return home


@pytest.fixture
def config(tc_home, tmp_path) -> Config:
    return load_config(cwd=tmp_path)


@pytest.fixture
def store(config) -> Store:
    return Store(config.store_path)


@pytest.fixture
def corpus() -> Path:
    require(CORPUS.is_dir(), f"the shared corpus at {CORPUS} (set TRAINING_CHECK_CORPUS)")
    return CORPUS
