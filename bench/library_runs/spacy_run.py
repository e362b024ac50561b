"""A user's spaCy training: synthetic local data, a config from ``spacy init config``, then
``python -m spacy train`` (its console table ``E  #  LOSS TOK2VEC  LOSS NER ... SCORE``).

Truth: spaCy's own JSONL record of the table, written by its console logger (``spacy.ConsoleLogger.v3``
``output_file``): the component's loss at spaCy's ``step`` (``#``: optimizer updates, 0-based, the loss summed
since the previous evaluation).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import subprocess
import sys
from pathlib import Path

from _truth import common_args, keep, settings_of, write_truth

p = argparse.ArgumentParser()
p.add_argument("--pipe", default="textcat")
p.add_argument("--steps", type=int, default=400)
p.add_argument("--eval-freq", type=int, default=50)
p.add_argument("--lr", type=float, default=0.001)
p.add_argument("--bar", default="none", help="none / eval / train (spaCy disables its bar without a TTY)")
common_args(p)
args = p.parse_args()

import spacy  # noqa: E402
from spacy.cli.init_config import init_config  # noqa: E402
from spacy.tokens import DocBin  # noqa: E402

rng = random.Random(args.seed)
GOOD = "great lovely superb fine wonderful happy excellent nice".split()
BAD = "awful bad terrible poor sad horrible ugly nasty".split()
FILL = "the a movie film plot was is and but very quite really this that it".split()
CITIES = "Paris London Berlin Madrid Rome Vienna Oslo Lisbon".split()
NAMES = "Alice Bob Carol Dave Erin Frank Grace Heidi".split()
pipes = args.pipe.split(",")
nlp = spacy.blank("en")


def example() -> spacy.tokens.Doc:
    words = [rng.choice(FILL) for _ in range(rng.randint(4, 10))]
    pos = rng.random() < 0.5
    for _ in range(2):
        words.insert(rng.randrange(len(words) + 1), rng.choice(GOOD if pos else BAD))
    pos = pos if rng.random() > 0.15 else not pos  # label noise: the loss does not reach 0
    ents: list[tuple[int, str]] = []
    if "ner" in pipes:
        for lab, pool in (("PERSON", NAMES), ("GPE", CITIES)):
            if rng.random() < 0.7:
                at = rng.randrange(len(words) + 1)
                words.insert(at, rng.choice(pool))
                ents = [(s + (s >= at), lb) for s, lb in ents] + [(at, lab if rng.random() > 0.1 else "ORG")]
    doc = spacy.tokens.Doc(nlp.vocab, words=words)
    if "ner" in pipes:
        doc.ents = [spacy.tokens.Span(doc, s, s + 1, label=lb) for s, lb in sorted(ents)]
    if "textcat" in pipes:
        doc.cats = {"POS": float(pos), "NEG": float(not pos)}
    return doc


for split, n in (("train", 300), ("dev", 80)):
    db = DocBin()
    for _ in range(n):
        db.add(example())
    db.to_disk(f"{split}.spacy")

with contextlib.redirect_stdout(io.StringIO()):
    cfg = init_config(lang="en", pipeline=pipes, optimize="efficiency", gpu=False)
cfg["paths"]["train"] = "train.spacy"
cfg["paths"]["dev"] = "dev.spacy"
cfg["system"]["seed"] = args.seed
cfg["training"]["max_steps"] = args.steps
cfg["training"]["max_epochs"] = 0
cfg["training"]["eval_frequency"] = args.eval_freq
cfg["training"]["patience"] = 0
cfg["training"]["optimizer"]["learn_rate"] = args.lr
cfg["training"]["logger"] = {"@loggers": "spacy.ConsoleLogger.v3",
                             "progress_bar": None if args.bar == "none" else args.bar,
                             "console_output": True, "output_file": "training_log.jsonl"}
cfg.to_disk("config.cfg")
sys.stdout.flush()
rc = subprocess.run([sys.executable, "-m", "spacy", "train", "config.cfg", "--output", "out"]).returncode
if rc:
    raise SystemExit(rc)

rows = [json.loads(ln) for ln in Path("training_log.jsonl").read_text().splitlines() if ln.strip()]
main = pipes[-1] if pipes[-1] != "textcat" or len(pipes) == 1 else pipes[0]
keep("training_log.jsonl")
keep("config.cfg")
write_truth(framework="spacy", settings=settings_of(args), label=args.label, should_stop=args.should_stop,
            loss_name=f"loss {main}", step_unit="spaCy step '#' (optimizer updates, 0-based; loss summed since "
            "the previous evaluation)", tolerance={"abs": 0.0051, "rel": 1e-6},
            record="spaCy ConsoleLogger.v3 output_file (training_log.jsonl) losses",
            train_loss=[(r["step"], r["losses"][main]) for r in rows],
            eval_score=[(r["step"], r["score"]) for r in rows],
            epochs=[[r["step"], r["epoch"]] for r in rows], label_skips_first=1)
