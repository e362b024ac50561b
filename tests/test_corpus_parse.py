"""Every file of the real-log corpus parses through LogFileSource / TfEventsSource, with counts and last
values checked against the files (read by hand)."""

from __future__ import annotations

import math

import pytest
from training_check.tools.frame import MetricFrame
from training_check.tools.roles import infer_role
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource
from training_check.tools.sources.tfevents import TfEventsSource

# (file, format, metric, number of points, last step, last value, total steps or None)
CASES = [
    ("modded-nanogpt/2024-06-06_AdamW_f66d43d7.log", "text", "val_loss", 76, 9536, 3.275959, None),
    ("modded-nanogpt/2024-06-06_AdamW_f66d43d7.log", "text", "train_loss", 9536, 9535, 3.340180, None),
    ("modded-nanogpt/2024-10-13_llmc_main.log", "text", "grad_norm", 19560, 19559, 0.22, None),
    ("modded-nanogpt/2024-10-13_llmc_main.log", "text", "val_loss", 80, 19560, 3.2722, None),
    ("modded-nanogpt/2024-10-10_Muon_eb5659d0.txt", "text", "val_loss", 51, 6200, 3.2785, 6200),
    ("modded-nanogpt/2024-10-10_Muon_eb5659d0.txt", "text", "train_loss", 6200, 6200, 3.2533, 6200),
    ("modded-nanogpt/2024-11-24_WindowWarmup_3151f69a.txt", "text", "val_loss", 15, 1750, 3.2745, 1750),
    ("modded-nanogpt/2024-11-24_WindowWarmup_3151f69a.txt", "text", "train_loss", 1750, 1750, 3.2751, 1750),
    ("modded-nanogpt/2024-11-14_QuantizedFP4_932bbe0e_19k-steps.txt", "text", "train_loss",
     19073, 19073, 3.1341, 19073),
    ("modded-nanogpt/2024-11-14_QuantizedFP4_932bbe0e_19k-steps.txt", "text", "val_loss",
     154, 19073, 3.0642, 19073),
    ("modded-nanogpt/2026-07-17_FP8DownProjection_11cb620c.txt", "text", "val_loss", 7, 1390, 3.2775, 1390),
    ("modded-nanogpt/track2_2025-01-18_main.log", "text", "val_loss", 241, 60000, 2.9282, None),
    ("modded-nanogpt/track3_20260518_soda_fade_seed2.out", "text", "val_loss", 28, 3040, 3.27569, 3040),
    ("modded-nanogpt/track3_20260611_tailema_official_seed0.stdout", "text", "val_loss",
     26, 2720, 3.27978, 2900),
    ("bigscience/tr1-13B_lm-loss-spike_it29050_L162-176.log", "text", "lm loss", 8, 29090, 6.849044, 311541),
    ("bigscience/tr1-13B_lm-loss-spike_it29050_L162-176.log", "text", "loss scale", 8, 29090, 4096.0, 311541),
    ("bigscience/tr1-13B_ecc-crash_it43680_L232-273.log", "text", "grad norm", 1, 43680, 17224.723, 311541),
    ("bigscience/tr11-176B_eval-hang_it45000_L303-312.log", "text", "val_lm_loss", 1, 45000, 2.327091, 115311),
    ("bigscience/tr11-176B_lm-loss-spike_it31216_L202-213.log", "text", "grad norm", 11, 31251, 0.205, 115311),
    ("bigscience/tr11-176B_throughput-drop_wrapped_L257-271.log", "text", "learning rate",
     5, 42784, 4.475e-05, 115311),
    ("bigscience/tr11-176B_throughput-drop_wrapped_L257-271.log", "text", "TFLOPs", 5, 42784, 141.09, 115311),
    ("bigscience/tr8-104B_exp12_diverged_it9027_L940-943.log", "text", "lm loss", 1, 9026, 7.024580, 159576),
    ("bigscience/tr8-104B_exp12_diverged_it9027_L940-943.log", "text", "loss scale", 2, 9027, 8192.0, 159576),
    ("bigscience/tr8-104B_exp12_spike_it8740_L923-934.log", "text", "lm loss", 6, 8743, 7.596509, 159576),
    ("bigscience/tr8-104B_exp1_glitch_it7010_L24-31.log", "text", "val_lm_loss", 1, 7000, 7.174200, 159576),
    ("bigscience/tr8-104B_glitch2_it6920_L93-97.log", "text", "lm loss", 5, 6940, 10.23865, 159576),
    ("bigscience/tr8-104B_spike_it11448_L638-643.log", "text", "lm loss", 3, 11448, 7.712340, 159576),
    ("bigscience/tr8b-104B_optimizer-reset_overflow_it17062_L446-460.log", "text", "overflow_skips",
     6, 17067, 6.0, 159576),
    ("megatron-lm-golden/gpt3_15b_8t_release_sm__golden_values_dev_dgx_h100.json", "megatron_golden_values", "lm loss",
     2544, 12715, 2.2899, 13000),
    ("megatron-lm-golden/gpt3_mcore_te_tp2_pp2_resume_torch_dist__golden_values_dev_dgx_h100_2nd.json",
     "megatron_golden_values", "lm loss", 50, 100, 9.71583, 100),
    ("megatron-lm-golden/gpt_grpo_tp1tp2_pp1_dp8_583m__golden_values_dev_dgx_h100.json", "megatron_golden_values",
     "lm loss", 50, 50, 0.0, 50),
    ("megatron-lm-golden/mixtral_8x7b_alltoall_tp2pp4ep4_release__golden_values_lts_dgx_a100.json",
     "megatron_golden_values", "lm loss", 3094, 23405, 1.97325, 24000),
    ("megatron-lm-golden/t5_11b_mcore_tp4_pp1__golden_values_dev_dgx_h100.json", "megatron_golden_values", "lm loss",
     25, 25, 7.9295, 25),
    ("hf-trainer/JustinBStrong-qlora__output_trainer_state.json", "hf_trainer_state", "loss", 10, 100, 29.559, 100),
    ("hf-trainer/P4P4N1CK-whisper-large-v2-ja__trainer_state.json", "hf_trainer_state", "eval_loss",
     5, 5000, 0.4200145900249481, 5000),
    ("hf-trainer/P4P4N1CK-whisper-large-v2-ja__README_training_results_table.md", "markdown_table", "eval_loss",
     5, 5000, 0.42, None),
    ("hf-trainer/P4P4N1CK-whisper-large-v2-ja__README_training_results_table.md", "markdown_table", "train_loss",
     5, 5000, 0.0002, None),
    ("hf-trainer/aigoncharov-trainer_state_viz__trainer_state.json", "hf_trainer_state", "eval_g5_loss",
     31, 12030, 4.835134983062744, 12030),
    ("hf-trainer/aigoncharov-trainer_state_viz__trainer_state.json", "hf_trainer_state", "loss",
     30, 12030, 0.0549, 12030),
    ("hf-trainer/yuanhuanghuang-quality__lrqa_trainer_state.json", "hf_trainer_state", "eval_loss",
     62, 3100, 1.3862943649291992, 3140),
    ("nlpia2-word-lm/model_LSTM_nlayers_2_epochs_12_nhid_200_batch_size_20_bptt_35_nlayers.log", "text",
     "valid_loss", 12, 12 * 2983, 4.81, 12 * 2983),
    ("nlpia2-word-lm/model_LSTM_nlayers_2_epochs_12_nhid_200_batch_size_20_bptt_35_nlayers.log", "text",
     "test_loss", 1, 12 * 2983, 4.74, 12 * 2983),
    ("nlpia2-word-lm/model_GRU_nlayers_1_epochs_6_nhid_200_batch_size_20_bptt_35_nlayers.log", "text",
     "valid_loss", 6, 6 * 2983, 4.94, 6 * 2983),
    ("nlpia2-word-lm/model_epochs_10_model_GRU_nhid_200_batch_size_20_bptt_35.log", "text", "loss",
     140, 9 * 2983 + 2800, 6.45, 10 * 2983),
    ("nlpia2-word-lm/model_RNN_TANH_nlayers_2_epochs_12_nhid_200_batch_size_20_bptt_35_nlayers.log",
     "text", "test_ppl", 1, 12 * 2983, 944.04, 12 * 2983),
    ("nlpia2-word-lm/grid_search_experiments_288.jsonl", "jsonl", "val_loss", 1, 32, 6.873417342764173, None),
    ("deepspeed-examples/dschat_step1_sft_opt-1.3b-globalBatchSize128.log", "text", "eval_ppl",
     17, 7360, 1.8085135221481323, None),
    ("deepspeed-examples/dschat_step1_sft_opt-1.3b-globalBatchSize128.log", "text", "skipped_steps",
     736, 7360, 139.0, None),
    ("deepspeed-examples/dschat_step2_reward_model_opt-350m_globalBatchSize-64.log", "text", "eval_acc",
     2, 1840, 0.6994950175285339, None),
    ("deepspeed-examples/dschat_step2_reward_model_opt-350m_globalBatchSize-64.log", "text", "epoch_loss",
     1, 1840, 0.5754789632299672, None),
    ("deepspeed-examples/dschat_step3_rlhf_actor_opt-1.3b_critic_opt-350m.log", "text", "average_reward",
     477, 476, 4.3828125, None),
    ("deepspeed-examples/data_efficiency_vit_cifar_training.log", "text", "val_acc",
     14, 5474, 97.97000122070312, None),
    # the ProgressMeter's own name ("Loss 5.6260e-02 (avg)")
    ("deepspeed-examples/data_efficiency_vit_cifar_training.log", "text", "Loss", 14, 13 * 391, 0.05626, None),
    ("deepspeed-examples/data_efficiency_gpt_check_base_training.log", "text", "ppl",
     107, 1047, 23.9859276900444, 1048),  # "Total optimization steps = 1048"
    ("keras/derekchen14-snippet_rnn__0508_results.log", "text", "val_loss", 14, 14, 1.7588, 15),
    ("yolov5-kimiria/results.csv", "csv", "metrics/mAP_0.5", 100, 99, 0.98346, None),
    ("lightning-genrisk/version_2_metrics.csv", "csv", "train_gen_loss", 320, 319, 5.169862747192383, None),
    ("lightning-genrisk/version_12_metrics.csv", "csv", "train_disc_loss", 200, 199, -1.774728298187256e-05, None),
    ("detectron2/Levi-Magny-Train-Detectron2__metrics.json", "jsonl", "total_loss", 5, 99, 1.280293806164991, None),
]


def _read(path):
    return LogFileSource(LocalFileSystem(), str(path)).read(None)


@pytest.mark.parametrize("rel,fmt,key,n,last_step,last_value,total", CASES,
                         ids=[f"{c[0].split('/')[-1][:40]}:{c[2]}" for c in CASES])
def test_corpus_file_parses(corpus, rel, fmt, key, n, last_step, last_value, total):
    res = _read(corpus / rel)
    assert res.cursor["format"] == fmt
    col = res.batch.columns[key]
    assert len(col) == n
    assert int(col.steps[-1]) == last_step
    assert col.values[-1] == pytest.approx(last_value, rel=1e-9, abs=1e-12)
    assert res.info.total_steps == total


def test_every_corpus_file_is_covered(corpus):
    """No corpus file is left out: each one reads with points and the right primary loss or eval metric."""
    files = sorted(p for p in corpus.glob("*/*") if p.is_file())
    assert len(files) == 51
    covered = {c[0] for c in CASES} | {p.relative_to(corpus).as_posix() for p in files if "tfevents" in p.name}
    for p in files:
        rel = p.relative_to(corpus).as_posix()
        if "tfevents" in p.name:
            continue
        res = _read(p)
        assert res.batch.n_points > 0, rel
        frame = MetricFrame.from_batch(res.batch)
        assert frame.primary_loss or frame.names("eval") or frame.names("train_metric"), rel
    missing = {p.relative_to(corpus).as_posix() for p in files} - covered
    # the remaining files are checked for NaN content below
    assert missing <= {"lightning-genrisk/version_0_metrics.csv", "lightning-genrisk/version_1_metrics.csv",
                       "lightning-genrisk/version_5_metrics.csv", "nlpia2-word-lm/model_RNN_RELU_epochs_5.log",
                       "bigscience/tr8-104B_exp12_spike_it8740_L923-934.log"} | {c[0] for c in CASES}


def test_real_nans_are_nan(corpus):
    res = _read(corpus / "lightning-genrisk/version_1_metrics.csv")
    for key in ("train_disc_loss", "train_gen_loss"):
        v = res.batch.columns[key].values
        assert len(v) == 320 and all(math.isnan(x) for x in v)
    res = _read(corpus / "lightning-genrisk/version_0_metrics.csv")
    disc = res.batch.columns["train_disc_loss"].values
    assert disc[0] == pytest.approx(1.6226933508321501e24) and all(math.isnan(x) for x in disc[1:])
    res = _read(corpus / "lightning-genrisk/version_5_metrics.csv")
    assert res.batch.columns["train_disc_loss"].values[0] == pytest.approx(-1.367891097838423e25)
    assert len(res.batch.columns["train_gen_loss"]) == 40
    res = _read(corpus / "nlpia2-word-lm/model_RNN_RELU_epochs_5.log")
    loss = res.batch.columns["loss"]
    assert int(loss.steps[0]) == 200 and all(math.isnan(x) for x in loss.values)
    assert math.isnan(res.batch.columns["valid_loss"].values[-1])
    assert math.isnan(res.batch.columns["test_loss"].values[0])


def test_fake_nans_are_not_nan(corpus):
    # step_avg:nanms is a timing placeholder: dropped, never a NaN value
    res = _read(corpus / "modded-nanogpt/2024-10-10_Muon_eb5659d0.txt")
    for key, col in res.batch.columns.items():
        assert not any(math.isnan(x) for x in col.values), key
    assert int(res.batch.columns["step_avg_ms"].steps[0]) > 0
    # "number of nan iterations: 0" is a count of zero
    res = _read(corpus / "bigscience/tr8-104B_exp12_spike_it8740_L923-934.log")
    assert list(res.batch.columns["number of nan iterations"].values) == [0.0] * 6
    assert not any(math.isnan(x) for c in res.batch.columns.values() for x in c.values)
    # golden values: the string "nan" marks a missing step, it is not a point
    res = _read(corpus / "megatron-lm-golden"
                / "gpt3_mcore_te_tp2_pp2_resume_torch_dist__golden_values_dev_dgx_h100_2nd.json")
    lm = res.batch.columns["lm loss"]
    assert int(lm.steps.min()) == 51 and not any(math.isnan(x) for x in lm.values)
    # DeepSpeed OVERFLOW lines are counted, never a NaN loss
    res = _read(corpus / "deepspeed-examples/dschat_step1_sft_opt-1.3b-globalBatchSize128.log")
    assert res.batch.columns["overflow_skips"].values[-1] == 139.0
    assert not any(math.isnan(x) for c in res.batch.columns.values() for x in c.values)


def test_megatron_grad_norm_zero_means_not_computed(corpus):
    res = _read(corpus / "bigscience/tr1-13B_lm-loss-spike_it29050_L162-176.log")
    assert "grad norm" not in res.batch.columns
    assert len(res.batch.columns["lm loss"]) == 8


def test_multi_run_files_show_the_last_run(corpus):
    res = _read(corpus / "keras/derekchen14-snippet_rnn__0508_results.log")
    assert res.notes == [("this file holds 22 runs; showing the last one (run 22); "
                          "set aside 1260 point(s) of the earlier runs (315 of loss)")]
    assert res.batch.columns["loss"].values[-1] == pytest.approx(0.7125)
    res = _read(corpus / "nlpia2-word-lm/grid_search_experiments_288.jsonl")
    # 288 one-record runs; 8 records repeat the settings of the record before them (no evidence of another run):
    # they are re-logs of that run, so 280 runs are split off, and the note counts what was set aside.
    assert res.notes == [("this file holds 280 runs; showing the last one (run 280); "
                          "set aside 5357 point(s) of the earlier runs (287 of annealing_loss_improvement_pct)")]


def test_roles_of_emitted_names(corpus):
    expect = {"train_loss": "train_loss", "val_loss": "eval", "grad_norm": "grad_norm", "lr": "lr",
              "lm loss": "train_loss", "learning rate": "lr", "grad norm": "grad_norm", "loss scale": "loss_scale",
              "val_lm_loss": "eval", "valid_loss": "eval", "eval_ppl": "eval", "eval_acc": "eval",
              "train_time_ms": "throughput", "step_avg_ms": "throughput", "ms/batch": "throughput",
              "eval_wer": "eval", "skipped_steps": "other", "overflow_skips": "other"}
    for name, role in expect.items():
        assert infer_role(name).role == role, name


def test_tfevents_corpus_merges_resumed_run(corpus):
    paths = sorted(str(p) for p in (corpus / "yolov5-kimiria").glob("events.out.tfevents.*"))
    src = TfEventsSource(LocalFileSystem(), paths)
    res = src.read(None)
    m = res.batch.columns["metrics/mAP_0.5"]
    assert len(m) == 100 and list(m.steps[:3]) == [0, 1, 2] and int(m.steps[-1]) == 99
    assert m.values[-1] == pytest.approx(0.98346, abs=1e-5)  # same as results.csv row 99 (float32)
    assert len(res.batch.columns) == 13
    csv = _read(corpus / "yolov5-kimiria/results.csv").batch.columns["train/box_loss"]
    tb = res.batch.columns["train/box_loss"]
    assert list(tb.steps) == list(csv.steps)
    assert tb.values == pytest.approx(csv.values, rel=1e-4)
    again = src.read(res.cursor)
    assert again.batch.n_points == 0 and again.bytes_read <= 2 * 256
