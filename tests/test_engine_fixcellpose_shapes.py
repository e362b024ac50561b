"""What examples/libraries_holdout76 showed of cellpose (fixcellpose). Its training prints Python logging's lines whose
message opens with a bare counter, the epoch, then a comma and named values: ``2026-12-07 11:10:46,972 [INFO] 5,
train_loss=1.6262, test_loss=2.3693, LR=0.111111, time 2.52s``, at epochs 0, 5, 10, 20, 30 ... (irregular), after tqdm
bars of the data's preparation (``  0%|   | 0/4 [...]100%|###| 4/4 [...]``, finished, never drawn again) and prose
or dict lines. A bare integer opening a record's message (after any logger preamble: a stamp, a level bracketed or
not), followed by a separator (a blank, a tab, or ``,`` ``:`` ``|`` ``;`` then a blank), then values the reader knows,
is the record's step, as a counter at line start is (CatBoost's ``0:\\tlearn: 0.69``:
tests/test_engine_opening_counter.py); the number after the level is no day or year of the stamp. Each read whole
and in pieces."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from training_check.tools.parsers.fields import message_start, plan_template, stamp_end, ungrouped_stamp

from .test_read_misses import _live, assert_at_truth, corpus_runs, points_at, primary_names, whole_as_live

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout76"


STAMPS = {
    "comma": lambda t: f"2026-12-07 11:{t // 60 % 60:02d}:{t % 60:02d},{t * 37 % 1000:03d}",
    "dot": lambda t: f"2026-12-07 11:{t // 60 % 60:02d}:{t % 60:02d}.{t * 37 % 1000:03d}",
    "slash": lambda t: f"2026/12/07 11:{t // 60 % 60:02d}:{t % 60:02d}",
    "bracket": lambda t: f"[2026-12-07 11:{t // 60 % 60:02d}:{t % 60:02d}]",
    "none": lambda t: "",
}
LEVELS = {"bracket": "[INFO] ", "plain": "INFO ", "colon": "INFO: ", "dash": "- INFO - ", "none": ""}
SEPS = {"comma": ", ", "colon": ": ", "pipe": " | ", "tab": "\t", "semicolon": "; ", "blank": " "}


def cellpose_log(epochs: int, stamp: str = "comma", level: str = "bracket", sep: str = "comma", seed: int = 0,
                 test: bool = True, bars: int = 2, every: int = 10, decimals: int = 4,
                 nan_from: int | None = None) -> tuple[str, list[tuple[int, float]]]:
    """A cellpose-like log: its preparation's lines (prose, a dict, ``bars`` finished tqdm bars of a few items),
    then the epoch lines at 0, 5 and every ``every`` th epoch and the last, each ``{e}{sep}train_loss=...``, behind
    the logger's preamble (``stamp`` and ``level``). The truth: the train loss at each printed epoch."""
    rng = random.Random(seed)
    t = rng.randrange(3000)

    def pre() -> str:
        s = STAMPS[stamp](t)
        return (s + " " if s else "") + LEVELS[level]

    out = [pre() + "WRITING LOG OUTPUT TO /tmp/run/.cellpose/run.log\n", pre() + "\n", "cellpose version: \t3.1.1.3 \n",
           pre() + ">>>> using CPU\n", pre() + ">>>> no model weights loaded\n"]
    for _ in range(bars):
        n = 3 + rng.randrange(6)
        out.append(pre() + "computing flows for labels\n")
        out.append(f"  0%|          | 0/{n} [00:00<?, ?it/s]100%|##########| {n}/{n} [00:00<00:00, "
                   f"{rng.random() * 900:.2f}it/s]\n")
    out.append(pre() + ">>> normalizing {'lowhigh': None, 'percentile': None, 'normalize': True, "
                       "'sharpen_radius': 0, 'smooth_radius': 0, 'tile_norm_blocksize': 0}\n")
    out.append(pre() + f">>> n_epochs={epochs}, n_train={3 + seed % 5}, n_test={2 + seed % 3}\n")
    out.append(pre() + f">>> AdamW, learning_rate={0.005 * (1 + seed % 3):.5f}, weight_decay=0.00001\n")
    shown = sorted({0, 5, epochs - 1} | set(range(0, epochs, every)))
    truth: list[tuple[int, float]] = []
    v = 1.2 + rng.random()
    for e in range(epochs):
        v = v * (0.93 + rng.random() * 0.1)
        t += 1 + rng.randrange(2)
        if e not in shown:
            continue
        val = float("nan") if nan_from is not None and e >= nan_from else round(v, decimals)
        truth.append((e, val))
        rest = f", test_loss={v * 1.3:.{decimals}f}" if test else ""
        out.append(pre() + f"{e}{SEPS[sep]}train_loss={val:.{decimals}f}{rest}, LR={0.005 * min(1, e / 10):.6f}, "
                           f"time {t * 0.41:.2f}s\n")
    out.append(pre() + "saving network parameters to /tmp/run/models/tiny\n")
    return "".join(out), truth


VARIANTS = [
    dict(epochs=41),
    dict(epochs=61, every=10, test=False),
    dict(epochs=30, level="plain", every=3),
    dict(epochs=25, level="colon", stamp="dot", sep="colon"),
    dict(epochs=40, level="dash", sep="pipe", bars=4, decimals=6),
    dict(epochs=33, stamp="slash", sep="tab", every=4),
    dict(epochs=50, stamp="bracket", level="plain", sep="semicolon"),
    dict(epochs=21, stamp="bracket", level="bracket", sep="blank", every=2),
    dict(epochs=41, level="none", bars=0),
    dict(epochs=41, stamp="none", level="none", sep="comma"),
    dict(epochs=41, nan_from=20),
    dict(epochs=120, every=7, bars=6, decimals=3),
]


def _same(got: list[tuple[int, float]], want: list[tuple[int, float]]) -> bool:
    return len(got) == len(want) and all(
        s == t and (v == w or math.isnan(v) and math.isnan(w)) for (s, v), (t, w) in zip(got, want, strict=True))


@pytest.mark.parametrize("kw", VARIANTS, ids=[str(i) for i in range(len(VARIANTS))])
def test_a_bare_counter_opening_the_message_is_the_records_step(tmp_path, kw):
    text, truth = cellpose_log(**kw, seed=len(str(kw)))
    data = text.encode()
    whole = _live(tmp_path, data, [], name="whole.log")
    assert _same(points_at(whole, "train_loss"), truth), (points_at(whole, "train_loss")[:4], truth[:4])
    assert primary_names(whole) == ["train_loss"]
    if kw.get("test", True):
        assert [s for s, _ in points_at(whole, "test_loss")] == [s for s, _ in truth]
    # in pieces: cut anywhere (mid-line too) past the first epoch's record (a first read of a young log holding the
    # settings' dict line and no record places that line by line order, as before this notion, whatever the
    # separator: tests/test_read_determinism.py's KNOWN; the loss is the same from any cut)
    start = data.index(f"{truth[1][0]}{SEPS[kw.get('sep', 'comma')]}train_loss".encode())
    rng = random.Random(len(data))
    for t in range(3):
        cuts = sorted(rng.sample(range(start, len(data)), 1 + 2 * t))
        live = _live(tmp_path, data, cuts, name=f"live{t}.log")
        assert json.dumps(live, sort_keys=True) == json.dumps(whole, sort_keys=True), cuts
    early = _live(tmp_path, data, [len(data) // 5, len(data) // 3], name="early.log")
    assert json.dumps(early["train_loss"]) == json.dumps(whole["train_loss"])


def test_the_counter_reads_so_at_any_width_and_at_bars_of_any_count(tmp_path):
    """Epochs of one digit to five, bars of any count before them: the epochs printed, never the bar's count."""
    for width, n in ((1, 3), (3, 40), (5, 8)):
        rng = random.Random(width)
        lines = [f"2026-12-07 11:00:0{i},123 [INFO] computing flows for labels\n"
                 f"  0%|          | 0/{n} [00:00<?, ?it/s]100%|##########| {n}/{n} [00:00<00:00, 99.00it/s]\n"
                 for i in range(2)]
        steps = sorted(rng.sample(range(10 ** (width - 1) if width > 1 else 0, 10 ** width), 6))
        truth = [(s, round(1 + rng.random(), 4)) for s in steps]
        lines += [f"2026-12-07 11:01:{i:02d},{i * 7:03d} [INFO] {s}, train_loss={v:.4f}, LR=0.001000, time 1.0s\n"
                  for i, (s, v) in enumerate(truth)]
        whole = whole_as_live(tmp_path, "".join(lines).encode(), f"w{width}.log")
        assert points_at(whole, "train_loss") == truth, width


def test_the_message_starts_after_the_stamp_and_its_level():
    """The number after a level is the message's, no day or year of the stamp; as the engine holds the line too
    (the clock's milliseconds ungrouped); a bare number opening prose, or values the reader does not know, no step."""
    line = b"2026-12-07 11:09:34,597 [INFO] 5, train_loss=1.6465, test_loss=2.1942, LR=0.002778, time 2.81s"
    assert stamp_end(line) == 23
    assert stamp_end(b"2026-12-07 11:09:34,597 INFO 5 loss=1.0") == len(b"2026-12-07 11:09:34,597 INFO")
    assert stamp_end(b"Sat Dec  5 20:28:13 2026 loss=1.0") == len(b"Sat Dec  5 20:28:13 2026")  # (a year after)
    assert ungrouped_stamp(b"2026-12-07 11:09:34597 5, loss=1") == len(b"2026-12-07 11:09:34597")
    for pre in (b"[INFO] ", b"INFO: ", b"- INFO - ", b"| WARNING | ", b""):
        head = b"2026-12-07 11:09:34,597 "
        assert message_start(head + pre + b"5, x", 23) == len(head + pre), pre
    for pre in (b"2026-12-07 11:09:34,597 [INFO] ", b"2026-12-07 11:09:34597 [INFO] ", b"2026-12-07 11:09:34,597 ",
                b"[2026-12-07 11:09:34] INFO: "):
        for sep in (b", ", b": ", b" | ", b"\t", b" "):
            plan = plan_template([pre + b"5" + sep + b"train_loss=1.6465, test_loss=2.1942"])
            assert plan is not None and plan.step is not None and sorted(plan.metrics.values()) == [
                "test_loss", "train_loss"], (pre, sep)
        for prose in (b"3, as planned, the rest", b"5, foo=3, bar=4", b"5,train_loss=1.0"):
            plan = plan_template([pre + prose])
            assert plan is None or plan.step is None, (pre, prose)


@pytest.mark.parametrize("run", corpus_runs(FOLDER, "cellpose_"))
def test_the_corpus_runs_read_at_the_truths_steps(tmp_path, run):
    folder = FOLDER / run
    truth = json.loads((folder / "truth.json").read_text())
    data = (folder / "train.log").read_bytes()
    pts = whole_as_live(tmp_path, data, "c.log")
    got = dict(zip(*pts["train_loss"], strict=True))
    assert sorted(got) == [s for s, _ in truth["train_loss"]], run
    assert_at_truth(got, truth, run)
    assert primary_names(pts) == ["train_loss"]
    live = _live(tmp_path, data, [int(c * len(data)) for c in (0.1, 0.5, 0.9)], name="d.log")
    assert json.dumps(live) == json.dumps(pts), run
