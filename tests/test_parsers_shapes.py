"""Log shapes real training scripts print (written here from each project's print format, small): every one is
read, with steps as the user knows them, eval lines apart, and nothing dropped silently."""

from __future__ import annotations

import json
import math

import pytest
from training_check.tools.assess import assess_run
from training_check.tools.frame import MetricFrame
from training_check.tools.read_metrics import read_metrics
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource


def read(tmp_path, name: str, text: str | bytes):
    p = tmp_path / name
    p.write_bytes(text.encode() if isinstance(text, str) else text)
    res = LogFileSource(LocalFileSystem(), str(p), settle_seconds=0).read(None)
    frame = MetricFrame.from_batch(res.batch)
    return res, frame


def series(frame: MetricFrame, name: str) -> tuple[list[int], list[float]]:
    s = frame.series[name]
    return [int(x) for x in s.index], [float(v) for v in s.to_numpy()]


def test_build_nanogpt_log_txt(tmp_path):
    lines = []
    for s in range(40):
        lines.append(f"{s} train {10.955 - s * 0.1:.6f}")
        if s % 10 == 0:
            lines += [f"{s} val {10.95 - s * 0.09:.4f}", f"{s} hella {0.25 + s / 1000:.4f}"]
    res, f = read(tmp_path, "log.txt", "\n".join(lines) + "\n")
    assert res.cursor["format"] == "text" and f.primary_loss == "train_loss"
    steps, vals = series(f, "train_loss")
    assert len(steps) == 40 and (steps[0], vals[0]) == (0, 10.955)
    assert (steps[-1], vals[-1]) == (39, pytest.approx(7.055))
    assert series(f, "val_loss") == ([0, 10, 20, 30], [10.95, 10.05, 9.15, 8.25])
    assert f.roles["val_hellaswag_acc"].role == "eval" and series(f, "val_hellaswag_acc")[1] == [0.25, 0.26, 0.27, 0.28]


def test_llamafactory_trainer_log_with_current_steps_and_null_fields(tmp_path):
    recs = []
    for i in range(1, 31):
        recs.append({"current_steps": i * 10, "total_steps": 300, "loss": round(2.2 - i * 0.01, 4), "eval_loss": None,
                     "predict_loss": None, "reward": None, "lr": 1e-4, "epoch": i / 10, "percentage": i * 10 / 3,
                     "elapsed_time": f"0:01:{i:02d}", "remaining_time": f"0:{30 - i:02d}:00"})
        if i % 10 == 0:
            recs.append({"current_steps": i * 10, "total_steps": 300, "eval_loss": round(2.3 - i * 0.005, 4),
                         "epoch": i / 10, "percentage": i * 10 / 3, "elapsed_time": "0:02:00",
                         "remaining_time": "0:01:00"})
    res, f = read(tmp_path, "trainer_log.jsonl", "".join(json.dumps(r) + "\n" for r in recs))
    assert res.notes == [] and res.info.total_steps == 300
    steps, vals = series(f, "loss")
    assert len(steps) == 30 and (steps[0], vals[0]) == (10, 2.19) and (steps[-1], vals[-1]) == (300, 1.9)
    assert series(f, "eval_loss") == ([100, 200, 300], [2.25, 2.2, 2.15])
    assert "current_steps" not in f.series and "total_steps" not in f.series


DETECTRON_HEAD = (
    "[12/22 20:00:00] detectron2 INFO: Rank of current process: 0. World size: 1\n"
    "[12/22 20:00:00] detectron2 INFO: Environment info:\n"
    "|  category  | #instances   |  category   | #instances   |\n"
    "|:----------:|:-------------|:-----------:|:-------------|\n"
    "|   sheep    | 33           |    chair    | 163          |\n"
)


def _d2(i: int, loss: float) -> str:
    return (f"[12/22 20:{i // 20:02d}:22] d2.utils.events INFO:  eta: 0:08:51  iter: {i}  total_loss: {loss:.4g}  "
            f"loss_cls: {loss / 3:.4g}  loss_box_reg: {loss / 4:.4g}  time: 1.0965  data_time: 0.2784  lr: 0.00038  "
            f"max_mem: 3756M")


def test_detectron2_text_log_with_a_dataset_table_in_the_header(tmp_path):
    body = "".join(_d2(i, 8.858 - i / 100) + "\n" for i in range(19, 400, 20))
    res, f = read(tmp_path, "log.txt", DETECTRON_HEAD + body)
    assert res.cursor["format"] == "text" and f.primary_loss == "total_loss"
    steps, vals = series(f, "total_loss")
    assert len(steps) == 20 and (steps[0], vals[0]) == (19, 8.668) and (steps[-1], vals[-1]) == (399, 4.868)
    assert series(f, "max_mem")[1][0] == 3756.0 and f.roles["lr"].role == "lr"


def test_detectron2_records_hard_wrapped_by_a_terminal_are_joined(tmp_path):
    width = 100
    out = []
    for i in range(19, 200, 20):
        rec = _d2(i, 7.109 - i / 100)
        out += [rec[j: j + width] for j in range(0, len(rec), width)]  # cut inside names and numbers
    res, f = read(tmp_path, "terminal.txt", "\n".join(out) + "\n")
    assert res.notes == [] and res.cursor["format"] == "text"
    steps, vals = series(f, "total_loss")
    assert steps == list(range(19, 200, 20)) and vals[0] == 6.919 and vals[-1] == 5.119
    assert series(f, "loss_box_reg")[1][-1] == pytest.approx(1.28, abs=0.001)


def test_yolov5_terminal_table(tmp_path):
    bar = "100%|##########| 213/213 [06:21<00:00,  1.79s/it]"
    lines = ["Starting training for 300 epochs...", ""]
    for e in range(12):
        lines.append("     Epoch   gpu_mem       box       obj       cls    labels  img_size")
        lines.append(f"   {e:>3}/299     4.89G   {0.064 - e * 0.002:.4f}   {0.033 - e * 0.001:.4f}         0        12"
                     f"      1280: {bar}")
        if e % 4 == 3:
            lines.append("               Class     Images     Labels          P          R     mAP@.5 mAP@.5:.95: "
                         "100%|##########| 17/17 [00:23<00:00,  1.39s/it]")
            lines.append(f"                 all        677       2449      0.263      0.182      {0.1 + e / 100:.3f}"
                         f"     0.0384")
    res, f = read(tmp_path, "terminal_output.log", "\n".join(lines) + "\n")
    assert res.notes == [] and res.cursor["format"] == "text"
    assert f.primary_loss == "train/box_loss" and f.roles["train/obj_loss"].role == "train_loss"
    steps, vals = series(f, "train/box_loss")
    # the epoch column ``e/299`` is the row's step (YOLOv5's results.csv: one row an epoch, from 0)
    assert steps == list(range(12)) and vals[0] == 0.064 and vals[-1] == pytest.approx(0.042)
    assert series(f, "val/mAP@.5") == ([3, 7, 11], [0.13, 0.17, 0.21])
    # the columns counting things (Images, Labels) are counts, no metrics (issue 32: a count is not a metric)
    assert "val/Images" not in f.series and "val/Labels" not in f.series and "val/P" in f.series
    assert "train/box_loss" not in [k for k in f.series if k.startswith("val/")]


def test_tqdm_description_lines_with_a_nan_loss_and_test_lines_apart(tmp_path, store, config):
    lines = ["Files already downloaded and verified", "# Model Params: 23.52M FLOPs: 1.31G"]
    for e in range(1, 11):
        lines.append(f"Train Epoch: [{e}/10] Loss: nan ACC@1: 9.72% ACC@5: 49.44%: 100%|#####| 625/625 "
                     f"[00:53<00:00, 11.68it/s] ")
        lines.append(f"Test Epoch: [{e}/10] Loss: nan ACC@1: 10.00% ACC@5: 50.00%: 100%|#####| 1250/1250 "
                     f"[01:06<00:00, 18.76it/s]")
    res, f = read(tmp_path, "simclr.log", "\n".join(lines) + "\n")
    assert res.notes == [] and res.cursor["format"] == "text"
    steps, vals = series(f, "Loss")
    assert steps == [625 * e for e in range(1, 11)] and all(math.isnan(v) for v in vals)
    assert series(f, "val_Loss")[0] == steps and series(f, "val_ACC@1")[1][0] == 10.0
    assert series(f, "ACC@1")[1][0] == 9.72
    a = assess_run(str(tmp_path / "simclr.log"), store=store, config=config)
    assert a.verdict == "STOP" and a.summary.startswith("STOP: Loss is NaN")


def test_python_logging_lines_without_a_step_are_numbered_by_line_order_and_said_so(tmp_path):
    lines = []
    for e in (1, 2):
        lines.append(f"2025-03-02 05:16:20,348 - INFO - ##### Epoch {e} #####")
        for b in range(5):
            lines.append(f"2025-03-02 05:16:2{b},962 - INFO - Epoch {e} - Batch loss: {12.13 - e - b / 10:.2f}")
        lines.append(f"2025-03-02 05:17:00,000 - INFO - Average Train Loss: {11 - e:.2f}")
    res, f = read(tmp_path, "train.log", "\n".join(lines) + "\n")
    assert res.notes == ["the log gives no step numbers: points are numbered by line order"]
    assert series(f, "Batch loss") == ([1, 2, 3, 4, 5, 7, 8, 9, 10, 11], [11.13, 11.03, 10.93, 10.83, 10.73,
                                                                       10.13, 10.03, 9.93, 9.83, 9.73])
    assert series(f, "Average Train Loss") == ([6, 12], [10.0, 9.0])


def test_a_step_counter_restarting_each_epoch_becomes_a_global_step(tmp_path):
    with_total = "".join(f"INFO:__main__:Epoch {e} | Step {s:>4}/6501 | Loss: {2 - e / 2 - s / 10000:.4f} | LR: 3e-04\n"
                         for e in (0, 1) for s in (10, 20, 30))
    _, f = read(tmp_path, "a.log", with_total)
    assert series(f, "Loss") == ([10, 20, 30, 6511, 6521, 6531], [1.999, 1.998, 1.997, 1.499, 1.498, 1.497])
    no_total = "".join(f"2024-06-17 22:30:31,153 - INFO - Epoch: {e} | Step: {s} | Train loss: {e + s / 100000:.3f} | "
                       f"Eval loss: {e + 0.5:.3f}\n" for e in (1, 2) for s in (5000, 10000, 15000))
    _, f = read(tmp_path, "b.log", no_total)
    steps, vals = series(f, "Train loss")
    assert steps == [5000, 10000, 15000, 20000, 25000, 30000] and vals == [1.05, 1.1, 1.15, 2.05, 2.1, 2.15]
    assert f.roles["Eval loss"].role == "eval" and series(f, "Eval loss")[0] == steps


def test_eval_lines_that_repeat_the_train_names_stay_a_separate_series(tmp_path):
    lines = []
    for e in range(3):
        for i in range(0, 30, 10):
            lines.append(f"Epoch: [{e}/520] Iter:[{i}/30], Time: 0.7, lr: [0.05], "
                         f"Loss: {3 - e / 2 - i / 100:.3f}, Acc:0.7")
        lines.append(f"Loss: {3.124 - e / 10:.3f}, MeanIU:  0.0649, Best_mIoU:  0.0649")
    _, f = read(tmp_path, "seg.log", "\n".join(lines) + "\n")
    assert series(f, "Loss") == ([0, 10, 20, 30, 40, 50, 60, 70, 80], [3.0, 2.9, 2.8, 2.5, 2.4, 2.3, 2.0, 1.9, 1.8])
    assert series(f, "val_Loss") == ([20, 50, 80], [3.124, 3.024, 2.924]) and f.roles["val_Loss"].role == "eval"
    assert f.primary_loss == "Loss" and series(f, "lr")[1] == [0.05] * 9


def test_event_jsonl_start_end_abort_records_are_not_runs(tmp_path, store, config):
    recs = [{"event": "start", "run": "exp1", "config": {"lr": 0.1, "batch_size": 32}}]
    recs += [{"step": s, "loss": 2.0 - s / 100, "lr": 0.1} for s in range(1, 41)]
    recs += [{"step": s, "loss": float("nan"), "lr": 0.1} for s in range(41, 61)]
    recs += [{"event": "abort", "step": 60, "reason": "loss is nan"}, {"event": "end"}]
    text = "".join(json.dumps(r).replace("NaN", "NaN") + "\n" for r in recs)
    res, f = read(tmp_path, "events.jsonl", text)
    assert res.notes == [] and sorted(f.series) == ["loss", "lr"]
    steps, vals = series(f, "loss")
    assert steps == list(range(1, 61)) and vals[39] == 1.6 and math.isnan(vals[40])
    a = assess_run(str(tmp_path / "events.jsonl"), store=store, config=config)
    assert a.verdict == "STOP" and "since step 41" in a.summary, a.summary


def _hf_stdout(n_logs: int, nan_from: int) -> str:
    head = ["TrainingArguments(", "logging_steps=5,", "num_train_epochs=3,", ")",
            "[INFO|trainer.py:1786] 2023-07-15 04:58:27,821 >> ***** Running training *****",
            "[INFO|trainer.py:1788] 2023-07-15 04:58:27,821 >>   Num Epochs = 3",
            "[INFO|trainer.py:1792] 2023-07-15 04:58:27,821 >>   Total optimization steps = 1,000"]
    lines = list(head)
    for k in range(1, n_logs + 1):
        step = 5 * k
        loss = "nan" if step >= nan_from else f"{3 - step / 1000:.4f}"
        d = f"{{'loss': {loss}, 'learning_rate': 5e-05, 'epoch': {step * 3 / 1000:.2f}}}"
        if k % 4 == 0:  # some dicts follow a tqdm bar on the same line
            lines.append(f" {step // 10:>2}%|####      | {step}/1000 [01:00<02:00,  4.1it/s]{d}")
        else:
            lines.append(d)
        if k % 40 == 0:
            lines.append(f"{{'eval_loss': {2.9 - step / 2000:.4f}, 'eval_runtime': 3.2, "
                         f"'epoch': {step * 3 / 1000:.2f}}}")
    return "\n".join(lines) + "\n"


def test_hf_trainer_stdout_is_numbered_by_optimizer_step(tmp_path, store, config):
    res, f = read(tmp_path, "stdout.txt", _hf_stdout(160, nan_from=615))
    assert res.cursor["format"] == "text" and res.info.total_steps == 1000
    steps, vals = series(f, "loss")
    assert steps == list(range(5, 805, 5)) and vals[0] == 2.995 and math.isnan(vals[122]) and vals[121] == 2.39
    assert series(f, "eval_loss") == ([200, 400, 600, 800], [2.8, 2.7, 2.6, 2.5])
    a = assess_run(str(tmp_path / "stdout.txt"), store=store, config=config)
    assert a.verdict == "STOP" and "since step 615" in a.summary, a.summary
    early = assess_run(str(tmp_path / "stdout.txt"), store=store, config=config, as_of_step=610)
    assert early.progress["step"] == 610 and early.verdict != "STOP"


def test_no_loss_is_said_and_escalates_as_unreadable_after_three_checks(tmp_path, store, config):
    p = tmp_path / "odd.log"
    p.write_text("".join(f"step {i} | images/s: {100 + i} | gpu_mem: 3.2G\n" for i in range(1, 30)))
    verdicts = [assess_run(str(p), store=store, config=config) for _ in range(3)]
    assert [a.verdict for a in verdicts] == ["WAIT", "WAIT", "ESCALATE"]
    assert verdicts[0].summary == ("WAIT: no loss or eval metric found yet (logged: images/s, gpu_mem; read_metrics "
                                   "shows a sample line of the log in run_data)")
    report = read_metrics(str(p), store=store, config=config)
    assert report.run_data == {"log_sample_line": "step 1 | images/s: 101 | gpu_mem: 3.2G"}
    last = verdicts[-1]
    assert last.concern.startswith("unreadable: no loss or eval metric found in 3 checks in a row")
    assert [(x.signal, x.concern) for x in last.findings if x.status == "warn"] == [("readability", "unreadable")]


def test_fractional_epochs_become_steps_from_steps_per_epoch(tmp_path):
    head = "  Num Epochs = 2\n  Total optimization steps = 400\n"
    body = "".join(f"epoch: {k * 0.05:.2f} | loss: {3 - k / 100:.2f} | lr: 1e-4\n" for k in range(1, 11))
    _, f = read(tmp_path, "a.log", head + body)
    assert series(f, "loss") == ([10, 20, 30, 40, 50, 60, 70, 80, 90, 100],
                                 [2.99, 2.98, 2.97, 2.96, 2.95, 2.94, 2.93, 2.92, 2.91, 2.9])
    counted = "step: 30 | epoch: 0.15 | loss: 2.5\n" + "epoch: 0.30 | loss: 2.4\nepoch: 0.45 | loss: 2.3\n"
    _, f = read(tmp_path, "b.log", counted)
    assert series(f, "loss") == ([30, 60, 90], [2.5, 2.4, 2.3])


def test_a_short_excerpt_whose_loss_jumped_is_escalated_not_waited_on(tmp_path, store, config):
    p = tmp_path / "short.log"
    p.write_text("s:11446 trl:3.063 lr:1e-4\ns:11447 trl:3.114 lr:1e-4\ns:11448 trl:7.712 lr:1e-4\n")
    a = assess_run(str(p), store=store, config=config)
    assert a.verdict == "ESCALATE"
    assert a.concern == ("train_loss jumped to 7.712 at step 11448 from 3.063 at step 11446 (2.5x) with only 3 points "
                         "logged: too few to judge the trend, worth a look")
    assert [(f.signal, f.concern) for f in a.findings if f.status == "warn"] == [("loss_jump", "divergence")]
    q = tmp_path / "short_ok.log"
    q.write_text("s:11446 trl:3.063 lr:1e-4\ns:11447 trl:3.114 lr:1e-4\ns:11448 trl:3.01 lr:1e-4\n")
    assert assess_run(str(q), store=store, config=config).verdict == "WAIT"
    warmup = tmp_path / "warmup.log"  # a run's first steps swing: no call yet
    warmup.write_text("s:1 trl:3.063 lr:1e-4\ns:2 trl:3.114 lr:1e-4\ns:3 trl:7.712 lr:1e-4\n")
    assert assess_run(str(warmup), store=store, config=config).verdict == "WAIT"
