"""GLiNER: a tiny GLiNER entity recogniser (``GLiNERConfig`` over a 2-layer BERT backbone built here with a word-level
tokenizer, no weights downloaded) trained with its own ``model.train_model(train, eval, output_dir=..., ...)``, which
builds ``gliner.training.TrainingArguments`` (``create_training_args``) and its ``gliner.training.Trainer`` (the Hugging
Face Trainer, subclassed), on synthetic sentences with ``person`` / ``city`` / ``organization`` spans. The Trainer's
progress on stderr (tqdm, no TTY) and its logs on stdout as dicts (``{'loss': '220.2', 'grad_norm': '791.9',
'learning_rate': '0.0008611', 'epoch': '1'}``, 4 significant digits; ``disable_tqdm``: printed by its
``PrinterCallback``). Truth: ``trainer_state.json`` written by ``trainer.save_state()`` (``log_history``'s ``loss``
at its global ``step``, 1-based, every ``logging_steps``)."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from h83_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--span-mode", default="markerV0", help="markerV0 (span model) or token_level (token model)")
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--steps", type=int, default=40, help="max_steps (0: train --epochs epochs)")
ap.add_argument("--epochs", type=float, default=4)
ap.add_argument("--batch", type=int, default=8)
ap.add_argument("--logging-steps", type=int, default=5)
ap.add_argument("--eval-steps", type=int, default=0, help="eval_strategy='steps' every N steps; 0: no evaluation")
ap.add_argument("--scheduler", default="linear")
ap.add_argument("--optim", default="adamw_torch")
ap.add_argument("--warmup", type=float, default=0.1)
ap.add_argument("--reduction", default="sum", help="loss_reduction")
ap.add_argument("--focal-alpha", type=float, default=-1)
ap.add_argument("--focal-gamma", type=float, default=0.0)
ap.add_argument("--max-grad-norm", type=float, default=1.0)
ap.add_argument("--disable-tqdm", action="store_true")
ap.add_argument("--n", type=int, default=96)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import gliner  # noqa: E402
from gliner import GLiNER, GLiNERConfig  # noqa: E402
from tokenizers import Tokenizer, models, pre_tokenizers, processors  # noqa: E402
from transformers import BertConfig, BertModel, PreTrainedTokenizerFast  # noqa: E402

rng = random.Random(0)
PEOPLE = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]
CITIES = ["paris", "berlin", "rome", "madrid", "oslo", "vienna", "lisbon", "prague", "dublin"]
ORGS = ["acme", "globex", "initech", "umbrella", "hooli", "vandelay", "stark"]
WORDS = ["the", "a", "went", "to", "met", "works", "for", "in", "with", "visited", "from", "and", "yesterday",
         "today", "team", "joined", "moved", "office", "near"]
KIND = {**{w: "person" for w in PEOPLE}, **{w: "city" for w in CITIES}, **{w: "organization" for w in ORGS}}


def sentence() -> dict:
    p, q, c, o = rng.choice(PEOPLE), rng.choice(PEOPLE), rng.choice(CITIES), rng.choice(ORGS)
    words = rng.choice([[p, "works", "for", o, "in", c], [p, "visited", c, "with", q],
                        ["yesterday", p, "met", "the", o, "team", "in", c], [q, "joined", o, "today"],
                        [p, "and", q, "moved", "to", c], ["the", o, "office", "near", c]])
    return {"tokenized_text": words, "ner": [[i, i, KIND[w]] for i, w in enumerate(words) if w in KIND]}


data = [sentence() for _ in range(a.n)]
n_train = a.n * 5 // 6

# a tiny backbone, saved where GLiNERConfig's model_name points (as a user's local encoder)
backbone = Path("backbone")
vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + sorted({*KIND, *WORDS, "person", "city", "organization"})
tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(vocab)}, unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.Whitespace()
tok.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B [SEP]",
                                                   special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
                        sep_token="[SEP]", mask_token="[MASK]").save_pretrained(backbone)
BertModel(BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=64)).save_pretrained(backbone)

config = GLiNERConfig(model_name=str(backbone), hidden_size=32, max_width=4, dropout=0.1, max_len=64,
                      span_mode=a.span_mode)
model = GLiNER.from_config(config, backbone_from_pretrained=True)
extra = {"max_steps": a.steps} if a.steps else {"max_steps": -1, "num_train_epochs": a.epochs}
if a.eval_steps:
    extra.update(eval_strategy="steps", eval_steps=a.eval_steps)
trainer = model.train_model(data[:n_train], data[n_train:] if a.eval_steps else None, output_dir="models",
                            learning_rate=a.lr, per_device_train_batch_size=a.batch, per_device_eval_batch_size=8,
                            logging_steps=a.logging_steps, lr_scheduler_type=a.scheduler, optim=a.optim,
                            warmup_ratio=a.warmup, loss_reduction=a.reduction, focal_loss_alpha=a.focal_alpha,
                            focal_loss_gamma=a.focal_gamma, max_grad_norm=a.max_grad_norm, use_cpu=True,
                            dataloader_num_workers=0, save_strategy="no", disable_tqdm=a.disable_tqdm, seed=0,
                            **extra)
trainer.save_state()
state_file = Path("models") / "trainer_state.json"
keep(state_file)
logs = json.loads(state_file.read_text())["log_history"]
write_truth(framework=f"gliner {gliner.__version__}", settings=vars(a), loss_name="loss",
            step_unit="global optimizer step, 1-based (`logging_steps` apart; `epoch` printed as a fraction)",
            tolerance=tol_sig(4), record="`trainer_state.json` (`trainer.save_state()`): `log_history`'s `loss`",
            train_loss=[(e["step"], e["loss"]) for e in logs if "loss" in e],
            eval_loss=[(e["step"], e["eval_loss"]) for e in logs if "eval_loss" in e] or None,
            eval_name="eval_loss" if a.eval_steps else None)
