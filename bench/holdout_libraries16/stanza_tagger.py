"""stanza: its POS tagger trained with its own trainer (``stanza.models.tagger.main``, as ``python -m
stanza.models.tagger --train_file ... --eval_file ...`` runs it; ``--no_pretrain``: no word vectors to download) on
tiny synthetic CoNLL-U files (pseudo-words whose tag shows in their suffix). Its logger on stderr: ``2026-12-06
07:01:02 INFO: Finished STEP 20/300, loss = 1.234567 (0.012 sec/batch), lr: 0.003000`` every ``log_step`` steps, and
every ``eval_interval`` steps ``step 100: train_loss = ..., dev_score = ...``. Truth: the loss each
``Trainer.update`` returns (the value the line prints), at the global step, 1-based, as the line counts it."""

from __future__ import annotations

import argparse
import random
import traceback

from h16_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--steps", type=int, default=300)
ap.add_argument("--log-step", type=int, default=20)
ap.add_argument("--eval-interval", type=int, default=100)
ap.add_argument("--optim", default="adam")
ap.add_argument("--lr", type=float, default=3e-3)
ap.add_argument("--batch", type=int, default=250)
ap.add_argument("--grad-norm", type=float, default=1.0)
ap.add_argument("--sentences", type=int, default=150)
ap.add_argument("--hidden", type=int, default=32)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

rng = random.Random(0)
SUFFIX = {"NOUN": ["s", "es"], "VERB": ["ing", "ed", "s"], "ADJ": ["er", "est"]}
ONS, NUC = "bcdfghklmnprstvz", "aeiou"


def stem():
    return "".join(rng.choice(ONS) + rng.choice(NUC) for _ in range(rng.randint(1, 3)))


def write_conllu(path, n):
    with open(path, "w") as f:
        for s in range(n):
            words = []
            for _ in range(rng.randint(4, 9)):
                pos = rng.choice(["NOUN", "VERB", "ADJ", "DET"])
                if pos == "DET":
                    w = lem = rng.choice(["the", "a", "this"])
                else:
                    lem = stem()
                    w = lem + rng.choice(SUFFIX[pos]) if rng.random() < 0.7 else lem
                words.append((w, lem, pos))
            f.write(f"# sent_id = {s + 1}\n")
            for i, (w, lem, pos) in enumerate(words, 1):
                f.write(f"{i}\t{w}\t{lem}\t{pos}\t_\t_\t{0 if i == 1 else 1}\t{'root' if i == 1 else 'dep'}\t_\t_\n")
            f.write("\n")


write_conllu("train.conllu", a.sentences)
write_conllu("dev.conllu", max(10, a.sentences // 5))

import stanza  # noqa: E402
from stanza.models import tagger  # noqa: E402
from stanza.models.pos.trainer import Trainer  # noqa: E402

record: list = []
_update = Trainer.update


def update(self, batch, eval=False):
    loss = _update(self, batch, eval=eval)
    if not eval:
        record.append(float(loss))
    return loss


Trainer.update = update
try:
    tagger.main(["--train_file", "train.conllu", "--eval_file", "dev.conllu", "--output_file", "pred.conllu",
                 "--shorthand", "en_synth", "--lang", "en", "--no_pretrain", "--max_steps", str(a.steps),
                 "--log_step", str(a.log_step), "--eval_interval", str(a.eval_interval), "--fix_eval_interval",
                 "--optim", a.optim, "--lr", str(a.lr), "--batch_size", str(a.batch),
                 "--max_grad_norm", str(a.grad_norm),
                 "--hidden_dim", str(a.hidden), "--char_hidden_dim", str(a.hidden), "--deep_biaff_hidden_dim",
                 str(a.hidden), "--word_emb_dim", "20", "--char_emb_dim", "20", "--tag_emb_dim", "10",
                 "--save_dir", "saved", "--cpu"])
except Exception:  # a stanza error after training (e.g. a run never evaluated) is kept in the log
    traceback.print_exc()

write_truth(framework=f"stanza {stanza.__version__}", settings=vars(a), loss_name="loss",
            step_unit="global step, 1-based (`Finished STEP N/M`)", tolerance=tol_decimals(6),
            record="the loss each `stanza.models.pos.trainer.Trainer.update` returns (the value the line prints)",
            train_loss=[(i + 1, v) for i, v in enumerate(record) if (i + 1) % a.log_step == 0])
