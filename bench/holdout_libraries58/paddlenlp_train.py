"""paddlenlp: a tiny BERT (``BertConfig`` built here, no weights downloaded) classifying synthetic token sequences,
trained by paddlenlp's own ``Trainer`` with ``TrainingArguments`` as its users set them (logging every few steps, an
optional evaluation every few steps or every epoch, its linear / cosine / constant schedules and warmup, AdamW with or
without weight decay, gradient clipping or none, gradient accumulation, with or without its tqdm bar). paddlenlp's
logger prints the whole argument list, then a line per logging step ``loss: 0.69347101, learning_rate: 0.000875,
global_step: 2, ...`` (colour codes included, as its users get them). Truth: the Trainer's own record,
``trainer.state.log_history`` (``loss`` at ``global_step``), also kept as ``trainer_state.json`` by ``save_state``."""

from __future__ import annotations

import argparse
import os

from h58_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=float, default=3)
ap.add_argument("--max-steps", type=int, default=-1)
ap.add_argument("--lr", type=float, default=5e-3)
ap.add_argument("--schedule", default="linear", choices=["linear", "cosine", "constant"])
ap.add_argument("--weight-decay", type=float, default=0.0)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--accum", type=int, default=1)
ap.add_argument("--log-steps", type=int, default=2)
ap.add_argument("--eval", default="no", choices=["no", "steps", "epoch"])
ap.add_argument("--eval-steps", type=int, default=10)
ap.add_argument("--max-grad-norm", type=float, default=1.0)
ap.add_argument("--warmup", type=int, default=0)
ap.add_argument("--no-tqdm", action="store_true")
ap.add_argument("--first-step", action="store_true")
ap.add_argument("--n", type=int, default=256)
ap.add_argument("--hidden", type=int, default=32)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddlenlp  # noqa: E402
from paddlenlp.trainer import Trainer, TrainingArguments  # noqa: E402
from paddlenlp.transformers import BertConfig, BertForSequenceClassification  # noqa: E402

paddle.set_device("cpu")
paddle.seed(0)
rng = np.random.default_rng(0)
VOCAB, LEN = 64, 12


class Tokens(paddle.io.Dataset):
    """Random token sequences; the label says whether a token below 16 occurs in the first half."""

    def __init__(self, n: int):
        self.x = rng.integers(1, VOCAB, size=(n, LEN)).astype("int64")
        self.y = (self.x[:, : LEN // 2] < 16).any(1).astype("int64")

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int) -> dict:
        return {"input_ids": self.x[i], "labels": self.y[i]}


cfg = BertConfig(vocab_size=VOCAB, hidden_size=a.hidden, num_hidden_layers=2, num_attention_heads=2,
                 intermediate_size=2 * a.hidden, max_position_embeddings=LEN, num_labels=2,
                 hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)
model = BertForSequenceClassification(cfg)
args = TrainingArguments(output_dir="out", per_device_train_batch_size=a.batch, per_device_eval_batch_size=64,
                         gradient_accumulation_steps=a.accum, num_train_epochs=a.epochs, max_steps=a.max_steps,
                         learning_rate=a.lr, lr_scheduler_type=a.schedule, weight_decay=a.weight_decay,
                         warmup_steps=a.warmup,
                         max_grad_norm=a.max_grad_norm, logging_steps=a.log_steps, logging_first_step=a.first_step,
                         evaluation_strategy=a.eval, eval_steps=a.eval_steps, save_strategy="no", report_to=[],
                         disable_tqdm=a.no_tqdm, device="cpu", seed=0, dataloader_num_workers=0)
trainer = Trainer(model=model, args=args, train_dataset=Tokens(a.n),
                  eval_dataset=Tokens(a.n // 4) if a.eval != "no" else None)
trainer.train()
trainer.save_state()
hist = trainer.state.log_history
keep(os.path.join("out", "trainer_state.json"))
write_truth(framework=f"paddlenlp {paddlenlp.__version__}", settings=vars(a) | {"paddle": paddle.__version__},
            loss_name="loss", step_unit="optimizer step, 1-based (`global_step: N`)", tolerance=tol_decimals(8),
            record="the Trainer's `state.log_history` (`loss` at `global_step`; also its trainer_state.json)",
            train_loss=[(h["global_step"] if "global_step" in h else h["step"], h["loss"]) for h in hist
                        if "loss" in h],
            eval_loss=[(h["step"], h["eval_loss"]) for h in hist if "eval_loss" in h] or None,
            eval_name="eval_loss" if any("eval_loss" in h for h in hist) else None)
