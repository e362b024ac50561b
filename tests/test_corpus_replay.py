"""Both shared real-log corpora replayed as a cron checks them (bench/detection.py's replay: 24 checks spread over
each run, one store per run, so the judge sees its earlier assessments): no healthy file is ever stopped, and every
should-stop file of real-logs-2 ends stopped or escalated.

Healthy means what the corpus says: in real-logs, a manifest entry that bench/corpus_labels.py files as no-stop
(healthy, spike-recovered, and "other" runs such as GAN losses, crashes and hangs); in real-logs-2, an entry with
``"should_stop": false``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from .conftest import CORPUS, REPO, require

sys.path.insert(0, str(REPO / "bench"))

import corpus_labels  # noqa: E402
import detection  # noqa: E402

CORPUS2 = CORPUS.parent / "real-logs-2"
CHECKS = 24


def _entries(root: Path) -> list[dict]:
    manifest = root / "manifest.jsonl"
    if not manifest.is_file():
        return []
    return [json.loads(line) for line in manifest.read_text().splitlines() if line.strip()]


def _healthy(root: Path) -> list[str]:
    if root == CORPUS2:
        return [e["file"] for e in _entries(root) if e.get("should_stop") is False]
    return [e["file"] for e in _entries(root) if corpus_labels.manifest_category(e)[1] == "healthy"]


# Collected from the manifests; with a corpus missing, one case that fails in CI (skips elsewhere) says so.
HEALTHY = [(root, f) for root in (CORPUS, CORPUS2) for f in _healthy(root)] or [(CORPUS, "<corpus missing>")]
SHOULD_STOP = [e["file"] for e in _entries(CORPUS2) if e.get("should_stop") is True] or ["<corpus missing>"]


@pytest.fixture(scope="module")
def labelled() -> dict[tuple[Path, str], corpus_labels.LabelledRun]:
    """Every run of both corpora, labelled once (onsets mapped, total steps read) for the module."""
    out: dict[tuple[Path, str], corpus_labels.LabelledRun] = {}
    for root in (CORPUS, CORPUS2):
        if (root / "manifest.jsonl").is_file():
            out.update({(root, r.name): r for r in corpus_labels.load_corpus(root)})
    return out


def _replay(labelled, root: Path, name: str) -> detection.Replay:
    require((root / "manifest.jsonl").is_file(), f"the shared corpus at {root} (set TRAINING_CHECK_CORPUS)")
    run = labelled[(root, name)]
    rep = detection.replay(run, CHECKS)
    assert rep.error is None, f"{name}: {rep.error}"
    assert rep.checks and all(c.verdict != "ERROR" for c in rep.checks), rep.timeline()
    return rep


def test_the_manifests_name_healthy_and_should_stop_files():
    require(CORPUS.is_dir() and CORPUS2.is_dir(), f"the shared corpora at {CORPUS.parent}")
    assert len([h for h in HEALTHY if h[0] == CORPUS]) >= 30 and len([h for h in HEALTHY if h[0] == CORPUS2]) >= 15
    assert len(SHOULD_STOP) == 5


@pytest.mark.parametrize(("root", "name"), HEALTHY, ids=[f"{r.name}/{n}" for r, n in HEALTHY])
def test_no_stop_on_a_healthy_file(labelled, root, name):
    rep = _replay(labelled, root, name)
    stop = rep.first(("STOP",))
    assert stop is None, f"{name}: STOP at step {stop.step if stop else None}: {rep.timeline()}"


@pytest.mark.parametrize("name", SHOULD_STOP)
def test_a_should_stop_file_ends_stopped_or_escalated(labelled, name):
    rep = _replay(labelled, CORPUS2, name)
    assert rep.checks[-1].verdict in ("STOP", "ESCALATE"), f"{name}: {rep.timeline()}"
    assert rep.first(("STOP",)) is not None, f"{name}: never STOP: {rep.timeline()}"
