"""litgpt: full fine-tuning (``litgpt.finetune.full.setup``, what ``litgpt finetune_full`` runs) of a tiny GPT built
from a ``litgpt.Config`` (2 layers, random weights saved as the checkpoint's ``lit_model.pth``; no download), with a
byte-level BPE tokenizer trained offline by ``tokenizers`` on the data, on a small synthetic instruction set given as
litgpt's ``JSON`` data module (alpaca prompt style). litgpt prints through Fabric (stdout, block-buffered) its
settings (``pprint(locals())``), then every ``log_interval`` iterations ``Epoch 1 | iter 4 step 2 | loss train:
4.567, val: n/a | iter time: 12.34 ms (step)``, at every ``eval.interval`` steps ``iter 8: val loss 4.1234, val time:
...`` with a generated sample, its performance report and ``Final evaluation | val loss: ... | val ppl: ...``. Its
default logger (``csv``) writes ``out/logs/csv/version_0/metrics.csv`` (kept). Truth: that CSV's ``loss`` (the
running mean over the gradient-accumulation window, what it prints) at ``iter`` (1-based micro-batch iterations,
across epochs), and ``val_loss``."""

from __future__ import annotations

import argparse
import csv
import json
import random
import sys
from pathlib import Path

from h32_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=3)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--optimizer", default="AdamW")
ap.add_argument("--global-batch", type=int, default=8)
ap.add_argument("--micro-batch", type=int, default=4)
ap.add_argument("--log-interval", type=int, default=1)
ap.add_argument("--eval-interval", type=int, default=600)
ap.add_argument("--warmup", type=int, default=10)
ap.add_argument("--examples", type=int, default=160)
ap.add_argument("--layers", type=int, default=2)
ap.add_argument("--embd", type=int, default=64)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import torch  # noqa: E402
from litgpt import Config  # noqa: E402
from litgpt.__main__ import main as litgpt_main  # noqa: E402
from litgpt.model import GPT  # noqa: E402
from tokenizers import Tokenizer, models, pre_tokenizers, trainers  # noqa: E402
from tokenizers import decoders as tok_decoders  # noqa: E402

rnd = random.Random(0)
NAMES = ["red", "green", "blue", "small", "large", "cat", "dog", "tree", "river", "stone", "bird", "house"]
data = []
for _ in range(a.examples):
    words = rnd.sample(NAMES, rnd.randint(2, 5))
    op = rnd.choice(["reverse", "sort", "first", "count"])
    out = {"reverse": " ".join(words[::-1]), "sort": " ".join(sorted(words)), "first": words[0],
           "count": str(len(words))}[op]
    data.append({"instruction": f"{op} the words", "input": " ".join(words), "output": out})
Path("data.json").write_text(json.dumps(data))

ckpt = Path("checkpoints/tiny")
ckpt.mkdir(parents=True)
tok = Tokenizer(models.BPE(unk_token="<unk>"))
tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
tok.decoder = tok_decoders.ByteLevel()
texts = [f"{d['instruction']} {d['input']} {d['output']} Below is an instruction that describes a task. Write a "
         "response that appropriately completes the request. ### Instruction: ### Input: ### Response:" for d in data]
tok.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=256, special_tokens=["<unk>", "<s>", "</s>"],
                                                   initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
tok.save(str(ckpt / "tokenizer.json"))
(ckpt / "tokenizer_config.json").write_text(json.dumps({"bos_token": "<s>", "eos_token": "</s>",
                                                        "add_bos_token": True, "tokenizer_class": "GPT2Tokenizer"}))
config = Config(name="tiny", block_size=128, vocab_size=tok.get_vocab_size(), padded_vocab_size=320,
                n_layer=a.layers, n_head=4, n_embd=a.embd, rotary_percentage=1.0, parallel_residual=False,
                bias=False, norm_class_name="RMSNorm", mlp_class_name="LLaMAMLP", intermediate_size=2 * a.embd)
config_dict = {k: v for k, v in vars(config).items() if not k.startswith("_") and k not in ("rope_n_elem",)}
import yaml  # noqa: E402

(ckpt / "model_config.yaml").write_text(yaml.safe_dump(config_dict))
torch.save(GPT(config).state_dict(), ckpt / "lit_model.pth")

# what `litgpt finetune_full checkpoints/tiny --data JSON ...` runs, from the same process
sys.argv = ["litgpt", "finetune_full", str(ckpt), "--out_dir", "out", "--precision", "32-true",
            "--data", "JSON", "--data.json_path", "data.json", "--data.val_split_fraction", "0.1",
            "--data.num_workers", "0", "--train.save_interval", "100000", "--train.log_interval", str(a.log_interval),
            "--train.global_batch_size", str(a.global_batch), "--train.micro_batch_size", str(a.micro_batch),
            "--train.lr_warmup_steps", str(a.warmup), "--train.epochs", str(a.epochs), "--train.max_seq_length", "128",
            "--eval.interval", str(a.eval_interval), "--eval.max_new_tokens", "8", "--eval.max_iters", "4",
            "--optimizer", json.dumps({"class_path": f"torch.optim.{a.optimizer}", "init_args": {"lr": a.lr}}),
            "--seed", "0"]
litgpt_main()

metrics = next(Path("out").rglob("metrics.csv"))
keep(metrics)
rows = list(csv.DictReader(metrics.open()))
train = [(int(r["iter"]), float(r["loss"])) for r in rows if r.get("loss")]
val = [(int(r["step"]), float(r["val_loss"])) for r in rows if r.get("val_loss")]
write_truth(framework=f"litgpt {version('litgpt')}", settings=vars(a), loss_name="loss train",
            step_unit="iteration (micro-batch), 1-based, across epochs (`iter N`; `step` counts optimizer steps)",
            tolerance=tol_decimals(3), record="its CSV logger's `metrics.csv` (`loss` at `iter`; `val_loss`)",
            train_loss=train, eval_loss=val or None, eval_name="val_loss" if val else None)
