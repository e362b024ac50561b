"""The second shared corpus (real-logs-2: 30 logs committed to public repositories, labelled in its manifest),
read in place: every file's train loss, with exact point counts, first and last (step, value), the runs set aside,
and the verdict of every should-stop file."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest
from training_check.tools.assess import assess_run
from training_check.tools.frame import MetricFrame, clean_points
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource

from .conftest import CORPUS, require

CORPUS2 = CORPUS.parent / "real-logs-2"
NAN, INF = math.nan, math.inf

# (file, format, train loss, points, (first step, value), (last step, value))
CASES = [
    ("01_llmc-gpt2-nan-from-step1.log", "text", "loss", 100, (1, NAN), (100, NAN)),
    ("02_llmc-gpt2-healthy-timelimit.log", "text", "loss", 750, (1, 11.010252), (750, 4.763922)),
    ("03_build-nanogpt-linear-lr-logtxt.txt", "text", "train_loss", 19073, (0, 10.95501), (19072, 3.102417)),
    ("04_llamafactory-qwen-medical-evalrise-trainer_log.jsonl", "jsonl", "loss", 675, (10, 2.219), (6750, 1.5999)),
    ("05_llamafactory-llama2-pretrain-nullfields-trainer_log.jsonl", "jsonl", "loss", 1742, (5, 1.7484),
     (8710, 1.3703)),
    ("06_chatglm-hf-trainer-tqdm-stdout.txt", "text", "loss", 628, (10, 0.0271), (6280, 0.0037)),
    ("07_hf-bloom3b-lora-lyrics-unstable-trainer_state.json", "hf_trainer_state", "loss", 3000, (1, 5.6759),
     (3000, 17.7809)),
    ("08_dp-finetune-loss-rising-app.log", "text", "Train loss", 26, (5000, 0.755), (130000, 1.853)),
    ("09_transformer-mt-epoch-train-val-nohup.log", "text", "Train Loss", 100, (1, 4.052), (100, 1.1222)),
    ("10_detr-style-jsonl-log.txt", "jsonl", "train_loss", 50, (0, 18.223146938848735), (49, 7.941286441390704)),
    ("11_detectron2-fewshot-log.txt", "text", "total_loss", 25, (19, 8.858), (499, 6.666)),
    ("12_detectron2-frcnn-initial-156-loss.txt", "text", "total_loss", 2097, (19, 156.1), (41999, 0.2228)),
    ("13_t5-qa-batchloss-no-step.log", "text", "Batch loss", 7760, (1, 12.1336), (7760, 0.0004)),
    ("14_image-captioning-step-loss-ppl.txt", "text", "Loss", 3000, (12943, 2.3066), (15942, 2.167)),
    ("15_yolov5-terminal-stdout-300ep.log", "text", "train/box_loss", 246, (0, 0.06359), (245, 0.01268)),  # epochs
    ("16_keras-v2-wordlstm-500ep-slowstart.txt", "text", "loss", 500, (1, 5.1131), (500, 0.3091)),
    ("17_torchvision-detection-metriclogger.log", "text", "loss", 60, (0, 8.2773), (59, 1.4391)),
    ("18_gpt2-shakespeare-5000steps-elided.log", "text", "loss", 100, (1, 9.502789), (4999, 0.012582)),
    ("19_seg-ictnet-spikes-ep27-ep34-unrecovered.log", "text", "Loss", 1058, (0, 11.642117), (10444, 1.882879)),
    ("20_gpt2-finetune-python-logging.log", "text", "Loss", 1302, (0, 8.9351), (13001, 0.4631)),
    ("21_ppo-llm-small-step-loss-kl.log", "text", "Loss", 110, (1, -0.0011), (110, -0.0006)),
    ("22_detectron2-hardwrapped-terminal-copy.txt", "text", "total_loss", 5, (19, 4.835), (99, 3.368)),
    ("23_hf-tinyllama-qlora-trainer_state.json", "hf_trainer_state", "loss", 1000, (1, 3.0078), (1000, 2.0865)),
    ("24_llamafactory-grpo-trainer_log.jsonl", "jsonl", "loss", 202, (1, 0.6491), (202, 0.4962)),
    ("25_cs231n-solver-rmsprop-nan-notebook.log", "text", "loss", 10, (1, 2.303984), (2206, NAN)),
    ("26_cs231n-solver-inf-at-iter1-then-ok.log", "text", "loss", 13, (1, INF), (2401, 2.068167)),
    ("27_simclr-tqdm-epoch-loss-nan-notebook.log", "text", "Loss", 10, (625, NAN), (6250, NAN)),
    ("28_wsdan-progressmeter-tabs-multiline.log", "text", "Loss", 2000, (0, 13.0603), (19990, 0.4053)),
    ("29_hf-gpt2-lora-flat-tail-trainer_state.json", "hf_trainer_state", "loss", 750, (10, 5.2887), (7500, 3.3689)),
    ("30_build-nanogpt-stdout-nowarmup-excerpt.out", "text", "loss", 2257, (0, 10.95501), (2256, 3.796447)),
]
NOTES = {
    "06_chatglm-hf-trainer-tqdm-stdout.txt": [("this file holds 2 runs; showing the last one (run 2); set aside 424 "
                                               "point(s) of the earlier runs (212 of loss)"),
                                              "skipped 190 NUL byte(s) (the lines holding them)"],
    "11_detectron2-fewshot-log.txt": [("this file holds 2 runs; showing the last one (run 2); set aside 795 point(s) "
                                       "of the earlier runs (25 of total_loss)")],
    "13_t5-qa-batchloss-no-step.log": ["the log gives no step numbers: points are numbered by line order"],
    "22_detectron2-hardwrapped-terminal-copy.txt": [("this file holds 4 runs; showing the last one (run 4); set aside "
                                                     "610 point(s) of the earlier runs (18 of total_loss)")],
}
STOPS = {
    "01_llmc-gpt2-nan-from-step1.log": "STOP: loss is NaN for the last 100 logged values (since step 1)",
    "07_hf-bloom3b-lora-lyrics-unstable-trainer_state.json": "STOP: loss diverged: 18.95 now vs best 5.62 at step 2511 "
                                                              "(above where it started), sustained for 446 logs since "
                                                              "step 2555",
    "08_dp-finetune-loss-rising-app.log": "STOP: Train loss diverged: 1.866 now vs best 0.755 at step 5000 (above "
                                          "where it started), sustained for 25 logs since step 10000",
    "25_cs231n-solver-rmsprop-nan-notebook.log": "STOP: loss is NaN for the last 8 logged values (since step 491)",
    "27_simclr-tqdm-epoch-loss-nan-notebook.log": "STOP: Loss is NaN for the last 10 logged values (since step 625)",
}


@pytest.fixture
def corpus2():
    require(CORPUS2.is_dir(), f"the shared corpus at {CORPUS2} (set TRAINING_CHECK_CORPUS)")
    return CORPUS2


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b)


@pytest.mark.parametrize("case", CASES, ids=[c[0][:2] for c in CASES])
def test_every_file_is_read(corpus2, case):
    name, fmt, loss, n, first, last = case
    res = LogFileSource(LocalFileSystem(), str(corpus2 / name), settle_seconds=0).read(None)
    assert res.cursor["format"] == fmt
    frame = MetricFrame.from_batch(res.batch)
    assert frame.primary_loss == loss
    st, v = clean_points(res.batch.columns[loss].steps, res.batch.columns[loss].values)  # every point, not the window
    s = pd.Series(v, index=st)
    assert len(s) == n == frame.history[loss].count
    assert int(s.index[0]) == first[0] and _same(float(s.iloc[0]), first[1])
    assert int(s.index[-1]) == last[0] and _same(float(s.iloc[-1]), last[1])
    assert res.notes == NOTES.get(name, [])


def test_manifest_point_counts_are_met(corpus2):
    """At least 90 % of the manifest's loss values are read, or set aside with earlier runs and said so."""
    manifest = {e["file"]: e for e in map(json.loads, (corpus2 / "manifest.jsonl").read_text().splitlines())}
    assert sorted(manifest) == sorted(c[0] for c in CASES)
    for name, _fmt, _loss, n, _first, _last in CASES:
        aside = 0
        for note in NOTES.get(name, []):
            if "set aside" in note:
                aside = int(note.rsplit("(", 1)[1].split(" of ")[0])
        assert n + aside >= 0.9 * manifest[name]["n_points"], name


@pytest.mark.parametrize("name", sorted(STOPS))
def test_should_stop_files_are_stopped(corpus2, name, store, config):
    a = assess_run(str(corpus2 / name), store=store, config=config)
    assert (a.verdict, a.summary) == ("STOP", STOPS[name])
