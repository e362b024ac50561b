"""HF Transformers Trainer: a tiny GPT-2 built from a config (no hub download) on synthetic token sequences.

Truth: ``trainer_state.json``'s ``log_history`` entries with ``loss`` (steps = optimizer steps, ``global_step``).
Settings: logging_steps, gradient_accumulation_steps, eval_strategy (no/steps/epoch), eval_steps, max_steps or
num_train_epochs, learning_rate, lr_scheduler_type, warmup_steps, disable_tqdm, logging_nan_inf_filter,
logging_first_step, logging_strategy,
crash_at (phase 1 raises at that step, a second invocation with phase=2 resumes from the last checkpoint).
"""

from __future__ import annotations

import json
import sys

from _common import parse_args, seed_all, write_truth

out, st, work = parse_args()
seed_all(st.get("seed", 0))

import torch  # noqa: E402
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainerCallback, TrainingArguments  # noqa: E402

VOCAB, SEQ = 64, 32


class Synthetic(torch.utils.data.Dataset):
    """Sequences that follow x[t+1] = (a * x[t] + b) % VOCAB with a little noise: learnable, not trivial."""

    def __init__(self, n: int, seed: int) -> None:
        g = torch.Generator().manual_seed(seed)
        a = torch.randint(1, 8, (n, 1), generator=g)
        b = torch.randint(0, VOCAB, (n, 1), generator=g)
        x = torch.zeros(n, SEQ, dtype=torch.long)
        x[:, 0] = torch.randint(0, VOCAB, (n,), generator=g)
        for t in range(1, SEQ):
            x[:, t] = (a[:, 0] * x[:, t - 1] + b[:, 0]) % VOCAB
        noise = torch.rand(n, SEQ, generator=g) < 0.1
        x[noise] = torch.randint(0, VOCAB, (int(noise.sum()),), generator=g)
        self.x = x

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int) -> dict:
        return {"input_ids": self.x[i], "labels": self.x[i]}


class Crash(TrainerCallback):
    def __init__(self, at: int) -> None:
        self.at = at

    def on_step_end(self, args, state, control, **kw):
        if state.global_step >= self.at:
            raise RuntimeError(f"simulated node failure at step {state.global_step}")


phase = st.get("phase", 1)
cfg = GPT2Config(vocab_size=VOCAB, n_positions=SEQ, n_embd=32, n_layer=2, n_head=2)
model = GPT2LMHeadModel(cfg)
eval_strategy = st.get("eval_strategy", "no")
kw: dict = dict(
    output_dir=str(work / "out"),
    per_device_train_batch_size=st.get("batch_size", 8),
    per_device_eval_batch_size=32,
    learning_rate=st.get("learning_rate", 1e-3),
    logging_steps=st.get("logging_steps", 10),
    gradient_accumulation_steps=st.get("gradient_accumulation_steps", 1),
    eval_strategy=eval_strategy,
    report_to="none",
    use_cpu=True,
    seed=st.get("seed", 0),
    disable_tqdm=st.get("disable_tqdm", False),
    logging_nan_inf_filter=st.get("logging_nan_inf_filter", True),
    save_strategy="steps" if "crash_at" in st else "no",
    dataloader_num_workers=0,
)
if "crash_at" in st:
    kw["save_steps"] = st.get("save_steps", 50)
if eval_strategy == "steps":
    kw["eval_steps"] = st.get("eval_steps", 50)
if "max_steps" in st:
    kw["max_steps"] = st["max_steps"]
else:
    kw["num_train_epochs"] = st.get("num_train_epochs", 2)
for key in ("logging_first_step", "logging_strategy"):
    if key in st:
        kw[key] = st[key]
if "lr_scheduler_type" in st:
    kw["lr_scheduler_type"] = st["lr_scheduler_type"]
if "warmup_steps" in st:
    kw["warmup_steps"] = st["warmup_steps"]
args = TrainingArguments(**kw)
train = Synthetic(st.get("n_train", 800), 1)
evald = Synthetic(64, 2) if eval_strategy != "no" else None
callbacks: list[TrainerCallback] = [Crash(st["crash_at"])] if "crash_at" in st and phase == 1 else []
trainer = Trainer(model=model, args=args, train_dataset=train, eval_dataset=evald, callbacks=callbacks)
print(f"***** tiny GPT-2 ({sum(p.numel() for p in model.parameters())} parameters), phase {phase} *****", flush=True)
trainer.train(resume_from_checkpoint=True if phase == 2 else None)
trainer.state.save_to_json(str(work / "trainer_state.json"))
hist = trainer.state.log_history
loss = [(int(e["step"]), float(e["loss"])) for e in hist if "loss" in e]
write_truth(out, framework="transformers.Trainer", settings=st, train_loss=loss, loss_name="loss",
            step_unit="optimizer step (trainer_state.json global_step)", tolerance={"rel": 1e-3, "sig": 4},
            record="trainer_state.json log_history",
            extra={"eval_loss": [[e["step"], e["eval_loss"]] for e in hist if "eval_loss" in e]})
json.dump(hist, sys.stderr) if st.get("dump_history") else None
