"""The picture: a real PNG drawn by matplotlib (Agg) with the latest findings marked."""

from __future__ import annotations

import struct

import matplotlib  # noqa: E402,F401  (the optional 'plot' extra; the test extra installs it: missing is a failure)
import pytest
from training_check.tools.assess import assess_run
from training_check.tools.errors import BadInput
from training_check.tools.plot import plot_run

from .test_server import write_llmc_log


def png_size(path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", head[16:24])


def test_plot_draws_every_panel_and_marks_the_findings(store, config, tmp_path):
    bad = write_llmc_log(tmp_path / "bad.log", 300, diverge_at=150)
    assess_run(str(bad), store=store, config=config)
    out = tmp_path / "out" / "bad.png"
    res = plot_run(str(bad), out, store=store, config=config)
    assert res.path == str(out) and out.is_file()
    w, h = png_size(out)
    assert w > 600 and h > 800  # four panels stacked
    assert res.panels == ["training loss", "eval metrics", "learning rate", "grad norm"]
    assert res.verdict == "STOP" and res.findings_marked >= 1 and res.last_step == 299
    assert str(out) in res.summary


def test_plot_without_an_assessment_and_default_path(store, config, tmp_path):
    log = write_llmc_log(tmp_path / "ok.log", 120)
    res = plot_run(str(log), store=store, config=config)
    assert res.verdict is None and res.findings_marked == 0
    assert res.path.startswith(str(config.home)) and png_size(__import__("pathlib").Path(res.path))[0] > 0


def test_plot_to_an_unwritable_place_is_one_clear_line(store, config, tmp_path):
    log = write_llmc_log(tmp_path / "ok.log", 60)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(BadInput) as e:
        plot_run(str(log), blocker / "x.png", store=store, config=config)
    assert str(e.value) == f"cannot write {blocker / 'x.png'}: File exists; pick another -o path"
