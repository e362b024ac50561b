"""A user's HF Trainer script: a tiny BERT (or GPT-2) trained from scratch on a synthetic task, on CPU.

Truth: the run's ``trainer_state.json`` ``log_history`` (train ``loss`` at ``step``).
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

import numpy as np
import torch
from holdout_truth import write_truth
from transformers import (
    BertConfig,
    BertForSequenceClassification,
    GPT2Config,
    GPT2LMHeadModel,
    Trainer,
    TrainerCallback,
    TrainingArguments,
)

p = argparse.ArgumentParser()
p.add_argument("--model", default="bert")
p.add_argument("--max-steps", type=int, default=-1)
p.add_argument("--epochs", type=float, default=1.0)
p.add_argument("--logging-steps", type=int, default=10)
p.add_argument("--logging-strategy", default="steps")
p.add_argument("--ga", type=int, default=1)
p.add_argument("--bs", type=int, default=8)
p.add_argument("--eval-steps", type=int, default=0)
p.add_argument("--eval-strategy", default="no")
p.add_argument("--save-steps", type=int, default=0)
p.add_argument("--lr", type=float, default=5e-4)
p.add_argument("--scheduler", default="linear")
p.add_argument("--optim", default="adamw_torch")
p.add_argument("--max-grad-norm", type=float, default=1.0)
p.add_argument("--no-nan-filter", action="store_true")
p.add_argument("--warmup", type=int, default=0)
p.add_argument("--disable-tqdm", action="store_true")
p.add_argument("--first-step", action="store_true")
p.add_argument("--load-best", action="store_true")
p.add_argument("--metrics", action="store_true")
p.add_argument("--crash-at", type=int, default=0)
p.add_argument("--resume", action="store_true")
p.add_argument("--n-train", type=int, default=480)
p.add_argument("--label", default="healthy")
p.add_argument("--should-stop", action="store_true")
args = p.parse_args()

torch.manual_seed(0)
rng = np.random.default_rng(0)
VOCAB, LEN = 64, 16


class Toy(torch.utils.data.Dataset):
    def __init__(self, n, seed):
        r = np.random.default_rng(seed)
        self.x = r.integers(4, VOCAB, size=(n, LEN))
        # label: is the first token in the lower half of the vocabulary (learnable from the pooled token)
        self.y = (self.x[:, 0] < 34).astype(np.int64)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        ids = torch.tensor(self.x[i])
        if args.model == "mlp":
            feats = torch.tensor(self.x[i] / 8.0, dtype=torch.float32)
            return {"x": feats, "labels": feats[:4].sum().reshape(1) - feats[4:8].sum()}
        if args.model == "gpt2":
            seq = torch.tensor((np.arange(LEN) * (self.x[i][0] % 5 + 1) + self.x[i][0]) % VOCAB)
            return {"input_ids": seq, "labels": seq.clone()}
        return {"input_ids": ids, "attention_mask": torch.ones(LEN, dtype=torch.long),
                "labels": torch.tensor(self.y[i])}


class Regressor(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(LEN, 64), torch.nn.Tanh(), torch.nn.Linear(64, 1))

    def forward(self, x, labels=None):
        out = self.net(x)
        return {"loss": torch.nn.functional.mse_loss(out, labels), "logits": out}


model: torch.nn.Module
if args.model == "mlp":
    model = Regressor()
elif args.model == "gpt2":
    model = GPT2LMHeadModel(GPT2Config(vocab_size=VOCAB, n_positions=LEN, n_embd=32, n_layer=2, n_head=2))
else:
    model = BertForSequenceClassification(BertConfig(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2,
                                                     num_attention_heads=2, intermediate_size=64,
                                                     max_position_embeddings=LEN,
                                                     num_labels=2))  # type: ignore[call-arg, unused-ignore]


def compute_metrics(pred):
    logits, labels = pred
    acc = float((np.argmax(logits, -1) == labels).mean())
    return {"accuracy": acc, "err": 1.0 - acc}


class CrashAt(TrainerCallback):
    def on_step_end(self, a, state, control, **kw):
        if args.crash_at and state.global_step == args.crash_at:
            raise RuntimeError(f"simulated node failure at step {state.global_step}")


kw: dict[str, Any] = {}
if args.eval_strategy != "no":
    kw.update(eval_strategy=args.eval_strategy, per_device_eval_batch_size=32)
    if args.eval_steps:
        kw["eval_steps"] = args.eval_steps
if args.save_steps:
    kw.update(save_strategy="steps", save_steps=args.save_steps)
else:
    kw["save_strategy"] = "no"
if args.load_best:
    kw.update(load_best_model_at_end=True, metric_for_best_model="eval_loss", greater_is_better=False)
targs = TrainingArguments(
    output_dir="out", max_steps=args.max_steps, num_train_epochs=args.epochs,
    per_device_train_batch_size=args.bs, gradient_accumulation_steps=args.ga, learning_rate=args.lr,
    lr_scheduler_type=args.scheduler, optim=args.optim, logging_nan_inf_filter=not args.no_nan_filter,
    max_grad_norm=args.max_grad_norm, warmup_steps=args.warmup, logging_strategy=args.logging_strategy,
    logging_steps=args.logging_steps, logging_first_step=args.first_step, disable_tqdm=args.disable_tqdm,
    report_to="none", seed=0, use_cpu=True, dataloader_num_workers=0, **kw)
trainer = Trainer(model=model, args=targs, train_dataset=Toy(args.n_train, 1),
                  eval_dataset=Toy(96, 2) if args.eval_strategy != "no" else None,
                  compute_metrics=compute_metrics if args.metrics else None, callbacks=[CrashAt()])
trainer.train(resume_from_checkpoint=True if args.resume else None)
trainer.save_state()
state = json.load(open(os.path.join("out", "trainer_state.json")))
hist = state["log_history"]
write_truth(
    framework="transformers.Trainer", settings={k: v for k, v in vars(args).items() if k not in ("label",)},
    label=args.label, should_stop=args.should_stop, loss_name="loss",
    step_unit="optimizer step (trainer_state.json global_step)", tolerance={"rel": 1e-3, "sig": 4},
    record="trainer_state.json log_history",
    train_loss=[(e["step"], e["loss"]) for e in hist if "loss" in e],
    eval_loss=[(e["step"], e["eval_loss"]) for e in hist if "eval_loss" in e] or None)
