"""An Aim repository (``aim.Run(repo=...)`` -> ``.aim/``, RocksDB): recognised and named in one line, not read (only
the aim package opens RocksDB; no stdlib reader). The fixture is a real repository aim wrote
(bench/tracker_stores/aim_store.py; aim is in no extra: 15 packages with aimrocks and aim-ui)."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest
from training_check.tools.errors import UnknownFormat
from training_check.tools.reading import load_run

FIXTURE = Path(__file__).resolve().parent / "data" / "aim_repo"


def test_an_aim_repository_is_named_in_one_line_not_read_as_logs(tmp_path, store, config):
    """A real Aim repository (bench/tracker_stores/aim_store.py): RocksDB, which only the aim package opens;
    recognised as the folder or the project holding ``.aim/``, never read as a folder of ``*.log`` files."""
    project = tmp_path / "proj"
    shutil.copytree(FIXTURE, project)
    assert list((project / ".aim" / "meta" / "chunks").rglob("*.sst"))  # the real store's tables
    for ref in (project, project / ".aim"):
        with pytest.raises(UnknownFormat, match="is an Aim repository") as e:
            load_run(str(ref), store=store, config=config)
        assert "\n" not in str(e.value) and "training-check does not read Aim repositories yet" in str(e.value)
        assert ("pip install aim" in str(e.value)) == (importlib.util.find_spec("aim") is None)
