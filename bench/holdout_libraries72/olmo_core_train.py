"""OLMo-core (ai2-olmo-core): a tiny llama-like causal language model (built here, no weights downloaded) trained by
its own ``Trainer`` as its ``src/examples/llm/train.py`` does (``prepare_training_environment``, a
``TransformerConfig``, a ``TransformerTrainModuleConfig`` with its optimizer and scheduler, a ``NumpyFSLDatasetConfig``
over token files, ``TrainerConfig(...).build(...).fit()``), on CPU in one process, over token ids drawn from a
small random Markov chain written here as the uint16 token files it reads (no download). Its own
``ConsoleLoggerCallback`` logs (Python logging, stderr) ``[step=5/40,epoch=1,eta=...]`` then one line a metric
(``    train/CE loss=4.318``), every ``metrics_collect_interval`` steps and at step 1; its ``LMEvaluatorCallback``,
when set, logs the held-out file's loss. Truth: its ``MetricSaverCallback`` files (``metrics_step{N}.json`` in the
save folder, written at the steps the console shows: ``train/CE loss`` at step N, 1-based)."""

from __future__ import annotations

import argparse
import glob
import json
import re

from h72_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--steps", type=int, default=40)
ap.add_argument("--optim", default="adamw", choices=["adamw", "adam", "lion"])
ap.add_argument("--lr", type=float, default=3e-3)
ap.add_argument("--scheduler", default="cos", choices=["cos", "const", "linear", "wsd", "exp"])
ap.add_argument("--warmup", type=int, default=5)
ap.add_argument("--interval", type=int, default=1, help="the trainer's metrics_collect_interval")
ap.add_argument("--batch-seqs", type=int, default=8, help="sequences in a global batch")
ap.add_argument("--seq", type=int, default=32)
ap.add_argument("--d-model", type=int, default=64)
ap.add_argument("--layers", type=int, default=2)
ap.add_argument("--clip", type=float, default=1.0, help="max_grad_norm (0: none)")
ap.add_argument("--eval-interval", type=int, default=0, help="LM evaluator every N steps (0: none)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
from olmo_core.data import (  # noqa: E402
    NumpyDataLoaderConfig,
    NumpyFSLDatasetConfig,
    NumpyPaddedFSLDatasetConfig,
    TokenizerConfig,
)
from olmo_core.nn.transformer import TransformerConfig  # noqa: E402
from olmo_core.optim import (  # noqa: E402
    WSD,
    AdamConfig,
    AdamWConfig,
    ConstantScheduler,
    CosWithWarmup,
    ExponentialScheduler,
    LinearWithWarmup,
    LionConfig,
)
from olmo_core.optim.config import OptimConfig  # noqa: E402
from olmo_core.optim.scheduler import Scheduler  # noqa: E402
from olmo_core.train import (  # noqa: E402
    Duration,
    TrainerConfig,
    prepare_training_environment,
    teardown_training_environment,
)
from olmo_core.train.callbacks import LMEvaluatorCallbackConfig, MetricSaverCallback  # noqa: E402
from olmo_core.train.train_module import TransformerTrainModuleConfig  # noqa: E402
from olmo_core.utils import seed_all as olmo_seed_all  # noqa: E402

VOCAB, EOS, PAD = 250, 0, 1


def markov_tokens(n: int, seed: int) -> np.ndarray:
    """``n`` token ids from a fixed random Markov chain (4 likely successors per token), documents ended by EOS."""
    rng = np.random.default_rng(0)
    succ = rng.integers(2, VOCAB, size=(VOCAB, 4))
    r = np.random.default_rng(seed)
    out = np.empty(n, dtype=np.uint16)
    t = 2
    for i in range(n):
        if i % 97 == 96:
            out[i] = EOS
            t = int(r.integers(2, VOCAB))
            continue
        t = int(succ[t, r.integers(4)]) if r.random() < 0.9 else int(r.integers(2, VOCAB))
        out[i] = t
    return out


markov_tokens(a.steps * a.batch_seqs * a.seq + 4096, 1).tofile("train-tokens.npy")
markov_tokens(4 * a.seq * 8, 2).tofile("valid-tokens.npy")

if __name__ == "__main__":
    prepare_training_environment(seed=0, backend="gloo")
    olmo_seed_all(0)
    tokenizer = TokenizerConfig(vocab_size=VOCAB, eos_token_id=EOS, pad_token_id=PAD)
    model_config = TransformerConfig.llama_like(d_model=a.d_model, vocab_size=tokenizer.padded_vocab_size(),
                                                n_layers=a.layers, n_heads=4, hidden_size_multiple_of=64)
    dataset_config = NumpyFSLDatasetConfig(paths=["./train-tokens.npy"], sequence_length=a.seq, tokenizer=tokenizer,
                                           work_dir="./dataset-cache")
    optim: OptimConfig
    if a.optim == "adamw":
        optim = AdamWConfig(lr=a.lr, weight_decay=0.1)
    elif a.optim == "adam":
        optim = AdamConfig(lr=a.lr)
    else:
        optim = LionConfig(lr=a.lr)
    scheduler: Scheduler
    if a.scheduler == "cos":
        scheduler = CosWithWarmup(warmup=a.warmup)
    elif a.scheduler == "linear":
        scheduler = LinearWithWarmup(warmup=a.warmup)
    elif a.scheduler == "wsd":
        scheduler = WSD(warmup=a.warmup, decay_fraction=0.3)
    elif a.scheduler == "exp":
        scheduler = ExponentialScheduler(lr_min=1e-4)
    else:
        scheduler = ConstantScheduler()
    train_module_config = TransformerTrainModuleConfig(
        rank_microbatch_size=a.batch_seqs * a.seq, max_sequence_length=a.seq, optim=optim,
        max_grad_norm=a.clip or None, scheduler=scheduler)
    trainer_config = (
        TrainerConfig(save_folder="./run", save_overwrite=True, metrics_collect_interval=a.interval,
                      cancel_check_interval=a.interval, max_duration=Duration.steps(a.steps), device="cpu",
                      no_checkpoints=True)
        .with_callback("metric_saver", MetricSaverCallback(save_interval=a.interval, fixed_steps=[1],
                                                           metrics_to_capture=["train/*", "eval/*"])))
    if a.eval_interval:
        trainer_config = trainer_config.with_callback("lm_evaluator", LMEvaluatorCallbackConfig(
            eval_dataset=NumpyPaddedFSLDatasetConfig(paths=["./valid-tokens.npy"], metadata=[{"label": "markov-val"}],
                                                     sequence_length=a.seq, tokenizer=tokenizer,
                                                     work_dir="./dataset-cache"),
            eval_interval=a.eval_interval, eval_duration=Duration.epochs(1)))
    model = model_config.build(init_device="cpu")
    train_module = train_module_config.build(model)
    dataset = dataset_config.build()
    data_loader = NumpyDataLoaderConfig(global_batch_size=a.batch_seqs * a.seq, seed=0, num_workers=0).build(
        dataset, dp_process_group=train_module.dp_process_group)
    trainer = trainer_config.build(train_module, data_loader)
    trainer.fit()
    teardown_training_environment()

    from olmo_core.version import VERSION  # noqa: E402

    files = sorted(glob.glob("run/metrics_step*.json"), key=lambda p: int(re.findall(r"\d+", p)[-1]))
    rows = [(int(re.findall(r"\d+", p)[-1]), json.loads(open(p).read())) for p in files]
    for p in files:
        keep(p)
    train = [(s, m["train/CE loss"]) for s, m in rows if "train/CE loss" in m]
    # the saver keeps the latest value of every metric, so an eval's loss is in each file after it: taken at the
    # evaluator's own steps only
    evals = [(s, v) for s, m in rows if a.eval_interval and s % a.eval_interval == 0
             for k, v in m.items() if k.startswith("eval/") and k.endswith("CE loss")]
    write_truth(framework=f"ai2-olmo-core {VERSION}", settings=vars(a), loss_name="train/CE loss",
                step_unit="optimizer step, 1-based (`[step=5/40,epoch=1]`)",
                tolerance={**tol_sig(4), "abs": 0.000051},
                record="its `MetricSaverCallback` files (`metrics_step{N}.json`: `train/CE loss` at step N)",
                train_loss=train, eval_loss=evals or None, eval_name="eval/lm/markov-val/CE loss" if evals else None)
