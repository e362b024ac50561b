"""trl: its ``SFTTrainer`` on a tiny GPT-2 built from a config (2 layers, 32 wide) and a word-level tokenizer built in
code (nothing downloaded), trained on synthetic sentences, ``SFTConfig(logging_steps=N, report_to="none")``, with an
optional eval set (``eval_strategy="steps"``), optimizer, scheduler and gradient clipping as the arguments say. Its
log: the Trainer's tqdm bar on stderr and its logged dicts, ``{'loss': '2.077', 'grad_norm': '1.39',
'learning_rate': '0.0006563', 'entropy': '2.801', 'mean_token_accuracy': '0.6004', 'num_tokens': '1536',
'epoch': '0.75'}`` (4 significant digits), every ``logging_steps`` optimizer steps. Truth: ``trainer.state.log_history``
(``loss`` at ``step``; ``eval_loss`` at ``step``), the optimizer step, 1-based, across epochs."""

from __future__ import annotations

import argparse
import random

from h49_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--epochs", type=float, default=2)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--logging-steps", type=int, default=4)
ap.add_argument("--optim", default="adamw_torch")
ap.add_argument("--scheduler", default="linear")
ap.add_argument("--max-grad-norm", type=float, default=1.0)
ap.add_argument("--n", type=int, default=256)
ap.add_argument("--eval", action="store_true")
ap.add_argument("--warmup-steps", type=int, default=0)
ap.add_argument("--no-nan-filter", action="store_true", help="logging_nan_inf_filter=False")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
import trl  # noqa: E402
from datasets import Dataset  # noqa: E402
from tokenizers import Tokenizer, models, pre_tokenizers  # noqa: E402
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast  # noqa: E402
from trl import SFTConfig, SFTTrainer  # noqa: E402

torch.set_num_threads(1)
words = "the a cat dog bird sat ran flew on under over mat log tree big small red blue".split()
vocab = {w: i for i, w in enumerate(["<pad>", "<eos>", "<unk>", *words])}
tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
tok.pre_tokenizer = pre_tokenizers.Whitespace()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="<eos>", unk_token="<unk>")
rng = random.Random(0)


def sentence() -> str:
    animal = rng.choice(["cat", "dog", "bird"])
    verb = {"cat": "sat", "dog": "ran", "bird": "flew"}[animal]
    return " ".join([rng.choice(["the", "a"]), rng.choice(["big", "small", "red", "blue"]), animal, verb,
                     rng.choice(["on", "under", "over"]), "the", rng.choice(["mat", "log", "tree"])])


train = Dataset.from_dict({"text": [sentence() for _ in range(a.n)]})
evald = Dataset.from_dict({"text": [sentence() for _ in range(64)]}) if a.eval else None
cfg = GPT2Config(vocab_size=len(vocab), n_positions=32, n_embd=32, n_layer=2, n_head=2, pad_token_id=0,
                 eos_token_id=1, bos_token_id=1)
model = GPT2LMHeadModel(cfg)
args = SFTConfig(output_dir="out", per_device_train_batch_size=a.batch, num_train_epochs=a.epochs,
                 learning_rate=a.lr, optim=a.optim, lr_scheduler_type=a.scheduler, max_grad_norm=a.max_grad_norm,
                 logging_steps=a.logging_steps, report_to="none", save_strategy="no", use_cpu=True, max_length=16,
                 seed=0, eval_strategy="steps" if a.eval else "no",
                 eval_steps=a.logging_steps * 2 if a.eval else None, per_device_eval_batch_size=32,
                 logging_nan_inf_filter=not a.no_nan_filter, warmup_steps=a.warmup_steps)
trainer = SFTTrainer(model=model, args=args, train_dataset=train, eval_dataset=evald, processing_class=tokenizer)
trainer.train()

hist = trainer.state.log_history
write_truth(framework=f"trl {trl.__version__}", settings=vars(a), loss_name="loss",
            step_unit="optimizer step, 1-based, across epochs", tolerance=tol_sig(4),
            record="SFTTrainer's `trainer.state.log_history` (`loss` at `step`)",
            train_loss=[(h["step"], h["loss"]) for h in hist if "loss" in h],
            eval_loss=[(h["step"], h["eval_loss"]) for h in hist if "eval_loss" in h] if a.eval else None,
            eval_name="eval_loss" if a.eval else None,
            steps_per_epoch=-(-a.n // a.batch))
