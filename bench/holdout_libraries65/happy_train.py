"""happytransformer: ``HappyGeneration`` (a 2-layer GPT-2), ``HappyTextClassification`` or ``HappyWordPrediction``
(a 2-layer BERT) on generated sentences, fine-tuned with its ``train()`` and its ``*TrainArgs`` as its docs show. The
tiny models and their word-level tokenizer are built here and saved to a local folder that ``model_name`` names (no
weights downloaded). happytransformer's own lines (its logger's warnings, ``Preprocessing training data...``) and the
Hugging Face Trainer it drives print on stdout/stderr, no TTY: the progress bar and one dict a logging step,
``{'loss': 4.8123, 'grad_norm': ..., 'learning_rate': ..., 'epoch': 0.25}``, and ``{'eval_loss': ...}`` when it
evaluates. Truth: the Trainer's own ``trainer_state.json`` (its ``log_history``: ``loss`` at ``step``) in the last
checkpoint of ``output_dir`` (``save_steps`` set; only that json is kept, not the weights)."""

from __future__ import annotations

import argparse
import json
import random
from importlib.metadata import version
from pathlib import Path

from h65_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="gen", choices=["gen", "tc", "wp"])
ap.add_argument("--lr", type=float, default=5e-4)
ap.add_argument("--epochs", type=float, default=3.0)
ap.add_argument("--batch", type=int, default=8)
ap.add_argument("--n", type=int, default=160)
ap.add_argument("--logging-steps", type=float, default=0.1)
ap.add_argument("--eval-steps", type=float, default=0.1)
ap.add_argument("--eval-file", action="store_true", help="a separate eval file (else eval_ratio of the train file)")
ap.add_argument("--weight-decay", type=float, default=0.0)
ap.add_argument("--max-length", type=int, default=32)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from happytransformer import (  # noqa: E402
    GENTrainArgs,
    HappyGeneration,
    HappyTextClassification,
    HappyWordPrediction,
    TCTrainArgs,
    WPTrainArgs,
)
from transformers import (  # noqa: E402
    BertConfig,
    BertForMaskedLM,
    BertForSequenceClassification,  # noqa: E402
    BertTokenizerFast,
    GPT2Config,
    GPT2LMHeadModel,
)

torch.set_num_threads(1)
rng = random.Random(0)
SUBJ = ["the cat", "a dog", "the bird", "my friend", "the teacher", "a child", "the farmer", "our cook"]
VERB = ["sees", "likes", "finds", "feeds", "calls", "helps", "watches", "follows"]
OBJ = ["the ball", "a fish", "the tree", "some bread", "the river", "a book", "the garden", "an apple"]
GOOD = ["happily", "gladly", "kindly", "warmly"]
BAD = ["sadly", "angrily", "rudely", "coldly"]


def sentence() -> tuple[str, int]:
    pos = rng.random() < 0.5
    adv = rng.choice(GOOD if pos else BAD)
    return f"{rng.choice(SUBJ)} {adv} {rng.choice(VERB)} {rng.choice(OBJ)} .", int(pos)


def lines(n: int) -> list[tuple[str, int]]:
    return [sentence() for _ in range(n)]


train, held = lines(a.n), lines(max(a.n // 5, 16))
words = sorted({w for s in SUBJ + VERB + OBJ + GOOD + BAD + ["."] for w in s.split()})
mdir = Path("tiny_model")
mdir.mkdir()
(mdir / "vocab.txt").write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "[EOS]"] + words) + "\n")
tok = BertTokenizerFast(vocab_file=str(mdir / "vocab.txt"), do_lower_case=True)
tok.add_special_tokens({"eos_token": "[EOS]"})
tok.save_pretrained(mdir)
V = len(tok)
torch.manual_seed(0)
if a.task == "gen":
    gcfg = GPT2Config(vocab_size=V, n_positions=64, n_embd=32, n_layer=2, n_head=2, bos_token_id=tok.eos_token_id,
                      eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id)
    GPT2LMHeadModel(gcfg).save_pretrained(mdir)
else:
    bcfg = BertConfig(vocab_size=V, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                      max_position_embeddings=64, num_labels=2)
    (BertForMaskedLM if a.task == "wp" else BertForSequenceClassification)(bcfg).save_pretrained(mdir)

common = dict(learning_rate=a.lr, num_train_epochs=a.epochs, batch_size=a.batch, logging_steps=a.logging_steps,
              eval_steps=a.eval_steps, weight_decay=a.weight_decay, save_steps=0.5, output_dir="happy_out/")
if a.task == "tc":
    for name, rows in (("train.csv", train), ("eval.csv", held)):
        Path(name).write_text("text,label\n" + "".join(f"{s},{y}\n" for s, y in rows))
    happy_tc = HappyTextClassification("BERT", str(mdir), num_labels=2)
    happy_tc.train("train.csv", args=TCTrainArgs(**common), eval_filepath="eval.csv" if a.eval_file else "")
else:
    for name, rows in (("train.txt", train), ("eval.txt", held)):
        Path(name).write_text("".join(f"{s}\n" for s, _ in rows))
    if a.task == "gen":
        happy_gen = HappyGeneration("GPT2", str(mdir))
        happy_gen.train("train.txt", args=GENTrainArgs(max_length=a.max_length, **common),
                        eval_filepath="eval.txt" if a.eval_file else "")
    else:
        happy_wp = HappyWordPrediction("BERT", str(mdir))
        happy_wp.train("train.txt", args=WPTrainArgs(mlm_probability=0.15, line_by_line=True, max_length=a.max_length,
                                                      **common), eval_filepath="eval.txt" if a.eval_file else "")

last = max(Path("happy_out").glob("checkpoint-*"), key=lambda p: int(p.name.split("-")[1]))
keep(last / "trainer_state.json", "trainer_state.json")
hist = json.loads((last / "trainer_state.json").read_text())["log_history"]
tr = [(h["step"], h["loss"]) for h in hist if "loss" in h]
ev = [(h["step"], h["eval_loss"]) for h in hist if "eval_loss" in h]
write_truth(framework=f"happytransformer {version('happytransformer')}", settings=vars(a), loss_name="loss",
            step_unit="optimizer step (`step` of the Trainer's log_history; the printed dicts show `'epoch': 0.25`)",
            tolerance=tol_decimals(4),
            record="the Trainer's `trainer_state.json` (`log_history`: `loss` at `step`) in its last checkpoint",
            train_loss=tr, eval_loss=ev or None, eval_name="eval_loss" if ev else None)
