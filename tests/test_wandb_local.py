"""The native .wandb reader, on runs written by the real wandb in offline mode, checked against ``wandb leet``."""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path

import pytest
from training_check.tools.errors import UnknownFormat
from training_check.tools.reading import load_run
from training_check.tools.sources import open_path_source
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.wandb_local import (
    BLOCK,
    FILE_HEADER_LEN,
    REC_HEADER,
    REC_HEADER_LEN,
    WandbLocalSource,
    config_subset,
    find_wandb_file,
    total_steps_from_config,
)

from tests.conftest import require
from tests.wandb_runs import leet_available, leet_records, wandb_file, write_offline_run

FS = LocalFileSystem()


def _rich_rows() -> list[dict]:
    rows: list[dict] = []
    for i in range(1200):  # several 32 KiB blocks
        rows.append({"train/loss": 2.0 / (i + 1) + 0.01, "lr": 1e-3 * min(1.0, i / 100), "tag": "str", "ok": True})
    rows.append({"train/loss": float("nan"), "grad_norm": float("inf")})
    rows.append({"train/loss": float("-inf"), "grad_norm": 1.5e-30})
    rows.append({"eval/loss": 1.25, "__step__": 1300})  # a jump forward (resumed from a checkpoint)
    rows.append({"eval/acc": 0.5, "__step__": 1300})  # another wandb.log call at the same step
    rows.append({"a": 1.0, "__commit__": False})  # custom step accumulation with commit=False
    rows.append({"b": 2, "__commit__": False})
    rows.append({"c": 3.5})
    rows.append({"eval/loss": 9.0, "__step__": 5})  # a step going backwards: wandb drops it
    rows.append({"nested": {"x": 1.5, "y": {"z": -2.0}}, "train/loss": 0.3})
    rows.append({f"wide/k{j:04d}": float(j) for j in range(2500)})  # one record larger than a block: fragments
    for i in range(300):
        rows.append({"train/loss": 0.2 - i * 1e-4, "__step__": 2000 + i})
    return rows


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("wandb-runs")
    out = {}
    out["rich"] = write_offline_run(base / "rich", _rich_rows(), name="rich-run",
                                    config={"lr": 1e-3, "batch_size": 64, "max_steps": 2300, "notes": "x" * 200,
                                            "optim": {"weight_decay": 0.1}})
    out["first"] = write_offline_run(base / "resumed", [{"loss": float(i)} for i in range(50)], run_id="resumeme01")
    out["resumed"] = write_offline_run(base / "resumed", [{"loss": 100.0 + i} for i in range(30)],
                                       run_id="resumeme01", resume="allow")
    out["failed"] = write_offline_run(base / "failed", [{"loss": 1.0}, {"loss": float("nan")}], exit_code=2)
    out["crashed"] = write_offline_run(base / "crashed", [{"loss": float(i), "acc": i / 3000} for i in range(3000)],
                                       crash=1.0)
    return out


def _norm(v: float):
    return "nan" if math.isnan(v) else v


def ours(path: Path | str, cursor: dict | None = None) -> tuple[dict[str, list], object]:
    result = WandbLocalSource(FS, str(path)).read(cursor)
    return {k: [(int(s), _norm(float(v))) for s, v in zip(c.steps, c.values, strict=True)]
            for k, c in result.batch.columns.items()}, result


def leet_history(path: Path) -> dict[str, list]:
    """The metric points of every history record leet prints: numbers and NaN/Infinity, no internal keys."""
    out: dict[str, list] = {}
    for rec in leet_records(path):
        if rec["type"] != "history":
            continue
        item = rec["history"]["item"]
        step = int(item.get("_step", rec["history"].get("step", {}).get("num", 0)))
        for key, value in item.items():
            if key.startswith("_") or key.startswith("system/") or isinstance(value, bool):
                continue
            if isinstance(value, (int, float)):
                v = float(value)
            elif value in ("NaN", "Infinity", "-Infinity"):
                v = float(value)
            else:
                continue
            out.setdefault(key, []).append((step, _norm(v)))
    return out


@pytest.mark.parametrize("name", ["rich", "first", "resumed", "failed", "crashed"])
def test_reader_yields_exactly_what_leet_yields(runs, name):
    require(leet_available(), "`wandb leet inspect --json` (wandb >= 0.31)")
    path = wandb_file(runs[name])
    mine, _ = ours(path)
    theirs = leet_history(path)
    assert theirs, "leet printed no history: the run was not written"
    assert mine == theirs


def test_rich_run_values_and_info(runs):
    path = wandb_file(runs["rich"])
    mine, result = ours(path)
    assert mine["train/loss"][0] == (0, 2.01)
    assert (1200, "nan") in mine["train/loss"] and (1201, -math.inf) in mine["train/loss"]
    assert mine["grad_norm"] == [(1200, math.inf), (1201, 1.5e-30)]
    assert mine["eval/loss"] == [(1300, 1.25)]  # the backwards step 5 was dropped by wandb itself
    assert mine["eval/acc"] == [(1300, 0.5)]
    # commit=False rows join the open step (1300, still open after the step= calls)
    assert (mine["a"], mine["b"], mine["c"]) == ([(1300, 1.0)], [(1300, 2.0)], [(1300, 3.5)])
    assert mine["nested.x"] == [(1301, 1.5)] and mine["nested.y.z"] == [(1301, -2.0)]
    assert len([k for k in mine if k.startswith("wide/")]) == 2500
    assert "tag" not in mine and "ok" not in mine  # strings and booleans are not metrics
    assert not any(k.startswith("_") for k in mine)
    assert mine["train/loss"][-1] == (2299, pytest.approx(0.2 - 299e-4))
    info = result.info
    assert info.name == "rich-run" and info.state == "finished"
    assert info.url == f"https://wandb.ai/tc-entity/tc-test/runs/{runs['rich'].name.rsplit('-', 1)[-1]}"
    assert info.config == {"lr": 1e-3, "batch_size": 64, "max_steps": 2300, "optim.weight_decay": 0.1}
    assert info.total_steps == 2300
    assert result.cursor["offset"] == path.stat().st_size and not result.notes


def test_states_failed_and_still_running(runs):
    _, failed = ours(wandb_file(runs["failed"]))
    assert failed.info.state == "failed"
    path = wandb_file(runs["crashed"])
    mine, crashed = ours(path)
    assert crashed.info.state == "running"  # no exit record
    # wandb-core writes whole blocks: the killed run ends with a record whose fragments are not all there
    assert FILE_HEADER_LEN < crashed.cursor["offset"] <= path.stat().st_size
    assert mine["loss"] == [(i, float(i)) for i in range(len(mine["loss"]))]


def _copy_prefix(src: Path, dst: Path, n: int) -> None:
    with src.open("rb") as f:
        dst.write_bytes(f.read(n))


def _append_from(src: Path, dst: Path, start: int) -> None:
    with src.open("rb") as f, dst.open("r+b") as out:
        f.seek(start)
        out.seek(start)
        out.write(f.read())


def test_resume_from_any_cut_point_loses_and_duplicates_nothing(runs, tmp_path):
    src = wandb_file(runs["rich"])
    full, _ = ours(src)
    size = src.stat().st_size
    cuts = {0, 3, FILE_HEADER_LEN, FILE_HEADER_LEN + 3, size - 1, size // 2, size // 3 + 1}
    blocks = size // BLOCK
    for k in sorted({1, 2, blocks // 2, blocks - 1, blocks} - {0}):
        cuts.update({k * BLOCK - 8, k * BLOCK - 7, k * BLOCK - 3, k * BLOCK, k * BLOCK + 3, k * BLOCK + 7,
                     k * BLOCK + 8})
    grow = tmp_path / "run-growing.wandb"
    for cut in sorted(c for c in cuts if 0 <= c <= size):
        _copy_prefix(src, grow, cut)
        first, r1 = ours(grow)
        assert r1.cursor["offset"] <= cut and not r1.notes, cut
        _append_from(src, grow, cut)
        rest, r2 = ours(grow, r1.cursor)
        merged = {k: first.get(k, []) + rest.get(k, []) for k in full}
        assert merged == full, f"cut at byte {cut}"
        assert set(first) | set(rest) == set(full)
        assert r2.cursor["offset"] == size and not r2.reset


def test_record_split_across_blocks_waits_until_whole(runs, tmp_path):
    src = wandb_file(runs["rich"])
    full, _ = ours(src)
    data = src.read_bytes()
    grow = tmp_path / "run-frag.wandb"
    # find the first block boundary that falls inside the wide record: after it, no wide key may appear yet
    for k in range(1, len(data) // BLOCK + 1):
        grow.write_bytes(data[: k * BLOCK + 100])
        got, res = ours(grow)
        if "wide/k0000" not in got and res.cursor["offset"] < k * BLOCK - 100 and "c" in got:
            _append_from(src, grow, k * BLOCK + 100)
            rest, _ = ours(grow, res.cursor)
            assert "wide/k2499" in rest and rest["wide/k0000"] == full["wide/k0000"]
            return
    pytest.fail("no fragmented record found in the rich run (its wide row should exceed one block)")


def test_zero_padding_at_the_end_then_filled(runs, tmp_path):
    src = wandb_file(runs["rich"])
    full, _ = ours(src)
    data = src.read_bytes()
    cut = len(data) // 2
    grow = tmp_path / "run-padded.wandb"
    grow.write_bytes(data[:cut] + b"\0" * (len(data) - cut))  # space reserved, not yet written
    first, r1 = ours(grow)
    assert r1.cursor["offset"] <= cut and not r1.notes
    grow.write_bytes(data)
    rest, _ = ours(grow, r1.cursor)
    assert {k: first.get(k, []) + rest.get(k, []) for k in full} == full


@pytest.mark.parametrize("into", [1, 4, 6])
def test_zero_padding_from_inside_a_record_header_then_filled(runs, tmp_path, into):
    """The writer's reserved zeros can start inside a record header (its type byte, written last, still zero): that
    is a record not yet written, not a damaged one (a fresh-clone CI run whose file's middle fell there said
    "damaged record header")."""
    src = wandb_file(runs["rich"])
    full, _ = ours(src)
    data = src.read_bytes()
    pos = FILE_HEADER_LEN
    while True:  # the first record header past the file's middle
        if BLOCK - pos % BLOCK < REC_HEADER_LEN:
            pos += BLOCK - pos % BLOCK
        if pos > len(data) // 2:
            break
        pos += REC_HEADER_LEN + REC_HEADER.unpack_from(data, pos)[1]
    cut = pos + into
    grow = tmp_path / "run-padded.wandb"
    grow.write_bytes(data[:cut] + b"\0" * (len(data) - cut))
    first, r1 = ours(grow)
    assert r1.cursor["offset"] <= cut and not r1.notes, r1.notes
    grow.write_bytes(data)
    rest, _ = ours(grow, r1.cursor)
    assert {k: first.get(k, []) + rest.get(k, []) for k in full} == full


def test_corrupted_checksum_stops_with_a_note(runs, tmp_path):
    src = wandb_file(runs["rich"])
    data = bytearray(src.read_bytes())
    where = len(data) // 2
    data[where] ^= 0xFF
    bad = tmp_path / "run-bad.wandb"
    bad.write_bytes(bytes(data))
    got, res = ours(bad)
    assert res.notes and ("checksum" in res.notes[0] or "damaged" in res.notes[0])
    assert "\n" not in res.notes[0]
    assert FILE_HEADER_LEN < res.cursor["offset"] <= where
    full, _ = ours(src)
    assert got["train/loss"] == full["train/loss"][: len(got["train/loss"])]
    again, res2 = ours(bad, res.cursor)  # the next read stops at the same place, never skipping ahead
    assert again == {} and res2.cursor == res.cursor


def test_not_a_wandb_file_and_header_only_files(tmp_path):
    junk = tmp_path / "junk.wandb"
    junk.write_bytes(b"step 1 loss 2.0\n" * 10)
    with pytest.raises(UnknownFormat, match="not a W&B transaction log"):
        WandbLocalSource(FS, str(junk)).read(None)
    newer = tmp_path / "newer.wandb"
    newer.write_bytes(b":W&B\xe1\xbe\x07" + b"\0" * 20)
    with pytest.raises(UnknownFormat, match="version 7"):
        WandbLocalSource(FS, str(newer)).read(None)
    for content in (b"", b":W&", b":W&B\xe1\xbe\x00"):
        f = tmp_path / "fresh.wandb"
        f.write_bytes(content)
        res = WandbLocalSource(FS, str(f)).read(None)
        assert res.batch.is_empty() and res.cursor["offset"] <= max(len(content), 0) and not res.notes


def test_replaced_file_resets(runs, tmp_path):
    src = wandb_file(runs["first"])
    other = wandb_file(runs["failed"])
    target = tmp_path / "run-x.wandb"
    shutil.copy(src, target)
    _, r1 = ours(target)
    os.remove(target)
    shutil.copy(other, target)  # a new file (new inode) under the same name
    got, r2 = ours(target, r1.cursor)
    assert r2.reset and got["loss"][0] == (0, 1.0)


def test_find_wandb_file_forms(runs, tmp_path):
    rich = runs["rich"]
    f = wandb_file(rich)
    assert find_wandb_file(FS, str(rich)) == str(f)
    assert find_wandb_file(FS, str(rich.parent)) == str(f)  # wandb/ via latest-run
    assert find_wandb_file(FS, str(rich.parent.parent)) == str(f)  # a project folder holding wandb/
    resumed_dir = runs["resumed"].parent
    assert find_wandb_file(FS, str(resumed_dir)) == str(wandb_file(runs["resumed"]))
    # without the latest-run link: the newest run folder by the timestamp in its name
    copy = tmp_path / "wandb"
    for run in (runs["first"], runs["resumed"]):
        shutil.copytree(run, copy / run.name, symlinks=True)
    assert find_wandb_file(FS, str(copy)) == str(copy / runs["resumed"].name / wandb_file(runs["resumed"]).name)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert find_wandb_file(FS, str(empty)) is None
    assert isinstance(open_path_source(FS, str(rich.parent)), WandbLocalSource)
    assert isinstance(open_path_source(FS, str(f)), WandbLocalSource)


def test_config_subset_rules():
    cfg = {"lr": 0.1, "_wandb": {}, "model.name": "x", "optimizer": {"value": "adamw", "desc": None},
           "batch_size": 32, "blob": [1, 2], "max_steps": 10.0, "train.max_iters": 7, "unrelated": 3}
    assert config_subset(cfg) == {"lr": 0.1, "optimizer": "adamw", "batch_size": 32, "max_steps": 10.0,
                                  "train.max_iters": 7}
    assert total_steps_from_config(cfg) == 10
    assert total_steps_from_config({"epochs": 3}) is None


def test_load_run_end_to_end_on_a_wandb_dir(runs, store, config):
    rich = runs["rich"]
    data = load_run(str(rich.parent), store=store, config=config)
    assert data.source.kind == "wandb_local" and data.fallback_reason is None
    assert data.info.name == "rich-run" and data.info.state == "finished"
    loss = data.frame.series["train/loss"]
    full, _ = ours(wandb_file(rich))
    assert data.new_points == sum(len(v) for v in full.values())
    assert loss.iloc[0] == pytest.approx(2.01) and math.isnan(loss.loc[1200]) and loss.loc[1201] == -math.inf
    assert data.frame.series["eval/acc"].index.tolist() == [1300]  # separate log calls line up by step
    again = load_run(str(rich.parent), store=store, config=config)
    assert again.new_points == 0 and again.last_step_before == 2299
