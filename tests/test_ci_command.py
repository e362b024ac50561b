"""CI runs exactly the README's test command, and that command includes the static checks."""

from __future__ import annotations

import re
import tomllib

from tests.conftest import REPO

COMMAND = "bash .ci/setup && .venv/bin/ruff check . && .venv/bin/mypy && .venv/bin/python -m pytest -q"


def test_ci_runs_the_readmes_second_command():
    blocks = re.findall(r"```bash\n(.*?)\n```", (REPO / "README.md").read_text(), flags=re.S)
    assert blocks[1] == COMMAND
    run = [line for line in (REPO / ".ci" / "run").read_text().splitlines() if line and not line.startswith("#")]
    assert run[-1] == COMMAND


def test_setup_installs_the_pinned_static_checkers():
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    assert [e for e in extras if e.startswith(("ruff", "mypy"))] == ["ruff==0.17.6", "mypy==2.4.1"]
    assert ".venv/bin/pip install -q --disable-pip-version-check -e '.[test]'" in (REPO / ".ci" / "setup").read_text()
