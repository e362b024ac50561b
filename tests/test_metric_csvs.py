"""A folder of per-metric CSVs (TorchRL's CSVLogger: ``scalars/<name>.csv``, headerless ``step,value`` rows), read
as one run whether the reference names the folder or one of its files (tools/sources/metric_csvs.py); the files here
were written by the real TorchRL (examples/libraries5, bench/library_runs5/)."""

from __future__ import annotations

import shutil
from pathlib import Path

from training_check.tools.assess import assess_run
from training_check.tools.judge import STOP
from training_check.tools.reading import load_run
from training_check.tools.sources import open_path_source
from training_check.tools.sources.files import LocalFileSystem

SCALARS = Path(__file__).resolve().parents[1] / "examples" / "libraries5" / "torchrl_dqn_cartpole_info" / "scalars"


def test_one_metric_file_reads_its_folder(tmp_path, store, config):
    folder = tmp_path / "scalars"
    shutil.copytree(SCALARS, folder)
    for ref in (folder / "loss.csv", folder):
        src = open_path_source(LocalFileSystem(), str(ref))
        assert src.kind == "metric_csvs" and "per-metric CSV folder" in src.describe()
    data = load_run(str(folder / "loss.csv"), store=store, config=config)
    assert set(data.frame.series) == {"loss", "max_steps"}
    assert data.frame.primary_loss == "loss"
    assert len(data.frame.series["loss"]) == len((folder / "loss.csv").read_text().splitlines())


def test_the_td_loss_beside_a_moving_episode_length_is_no_divergence(tmp_path, store, config):
    folder = tmp_path / "scalars"
    shutil.copytree(SCALARS, folder)
    got = assess_run(str(folder / "loss.csv"), store=store, config=config)
    assert got.verdict != STOP, got.summary
    # the same loss alone (its neighbour gone) is judged as a loss, as before
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(folder / "loss.csv", alone / "loss.csv")
    assert open_path_source(LocalFileSystem(), str(alone / "loss.csv")).kind == "log"


def test_rows_appended_are_read_incrementally_and_bad_rows_cost_their_row(tmp_path, store, config):
    folder = tmp_path / "scalars"
    folder.mkdir()
    (folder / "loss.csv").write_text("".join(f"{100 * i},{1 / (i + 1)}\n" for i in range(10)))
    (folder / "reward.csv").write_text("".join(f"{100 * i},{i}\n" for i in range(10)))
    first = load_run(str(folder), store=store, config=config)
    assert first.new_points == 20
    with (folder / "loss.csv").open("a") as f:
        f.write("1000,0.05\nnot,a,row\n1100,0.04\n1200,0.0")  # the last row unterminated: read once complete
    again = load_run(str(folder), store=store, config=config)
    assert again.new_points == 2 and again.frame.series["loss"].index[-1] == 1100
    assert any("not metric rows" in n for n in again.notes)


def test_a_lone_headerless_csv_or_a_headed_one_stays_a_log(tmp_path):
    (tmp_path / "a.csv").write_text("0,1.0\n1,0.9\n")
    (tmp_path / "b.csv").write_text("step,loss\n0,1.0\n")
    assert open_path_source(LocalFileSystem(), str(tmp_path / "a.csv")).kind == "log"
    assert open_path_source(LocalFileSystem(), str(tmp_path / "b.csv")).kind == "log"
