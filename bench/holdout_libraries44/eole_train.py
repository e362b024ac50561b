"""eole (OpenNMT's successor): a tiny sequence-to-sequence model trained by its command line on synthetic parallel
text, as its quickstart does: the vocabularies built first by ``eole build_vocab`` (its output to a file of its own,
not kept), then ``eole train -config config.yaml`` started as a subprocess writing to the run's stdout and stderr
(its logger: ``[2026-12-06 18:50:01,234 INFO] Step 20/  200; acc: 12.3; ppl: 45.67; xent: 3.82; ... lr: 1.00e-03;
...`` every ``report_every`` steps, ``Validation perplexity: ...`` / ``Validation xent: ...`` every ``valid_steps``).
The task: copy a random token sequence reversed (``--task reverse``) or shifted by one in the vocabulary
(``--task shift``). Truth: the TensorBoard scalars its report manager writes (``tensorboard: true``; ``progress/xent``
at its step, read back with TensorBoard's ``EventAccumulator``); xent is printed with 2 decimals (``%2.2f``), the
scalars are float32, so the tolerance is the printed 2 decimals or float32's relative precision (1e-7), whichever
is larger (``1467292.53`` printed, ``1467292.5`` stored)."""

from __future__ import annotations

import argparse
import glob
import random
import shutil
import subprocess
import sys
from pathlib import Path

from h44_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reverse", choices=["reverse", "shift"])
ap.add_argument("--arch", default="rnn", choices=["rnn", "transformer"])
ap.add_argument("--steps", type=int, default=200)
ap.add_argument("--report-every", type=int, default=10)
ap.add_argument("--valid-steps", type=int, default=0, help="0: no validation set")
ap.add_argument("--optim", default="adam")
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--decay", default="none")
ap.add_argument("--warmup", type=int, default=0)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--hidden", type=int, default=64)
ap.add_argument("--vocab", type=int, default=20)
ap.add_argument("--sentences", type=int, default=2000)
ap.add_argument("--max-grad-norm", type=float, default=5.0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

rng = random.Random(0)
toks = [f"w{i}" for i in range(a.vocab)]


def pair() -> tuple[str, str]:
    src = [rng.choice(toks) for _ in range(rng.randint(3, 10))]
    tgt = src[::-1] if a.task == "reverse" else [toks[(toks.index(t) + 1) % a.vocab] for t in src]
    return " ".join(src), " ".join(tgt)


data = Path("data")
data.mkdir()
for split, n in (("train", a.sentences), ("valid", 200)):
    pairs = [pair() for _ in range(n)]
    (data / f"src-{split}.txt").write_text("\n".join(s for s, _ in pairs) + "\n")
    (data / f"tgt-{split}.txt").write_text("\n".join(t for _, t in pairs) + "\n")

valid = ("""
    valid:
        path_src: data/src-valid.txt
        path_tgt: data/tgt-valid.txt""" if a.valid_steps else "")
if a.arch == "rnn":
    model = f"""model:
    architecture: rnn
    hidden_size: {a.hidden}
    embeddings:
        word_vec_size: {a.hidden}
    encoder:
        encoder_type: rnn
        rnn_type: LSTM
        layers: 1
    decoder:
        decoder_type: rnn
        rnn_type: LSTM
        layers: 1"""
else:
    model = f"""model:
    architecture: transformer
    layers: 2
    hidden_size: {a.hidden}
    heads: 4
    transformer_ff: {a.hidden * 2}
    embeddings:
        word_vec_size: {a.hidden}
        position_encoding_type: SinusoidalInterleaved"""
Path("config.yaml").write_text(f"""save_data: run
src_vocab: run/vocab.src
tgt_vocab: run/vocab.tgt
overwrite: true
seed: 0
report_every: {a.report_every}
tensorboard: true
tensorboard_log_dir: runs/eole
data:
    corpus_1:
        path_src: data/src-train.txt
        path_tgt: data/tgt-train.txt{valid}
{model}
training:
    model_path: run/model
    train_steps: {a.steps}
    valid_steps: {a.valid_steps or a.steps * 10}
    save_checkpoint_steps: {a.steps * 10}
    batch_size: {a.batch}
    batch_type: sents
    bucket_size: 2048
    num_workers: 0
    world_size: 1
    gpu_ranks: []
    optim: {a.optim}
    learning_rate: {a.lr}
    decay_method: {a.decay}
    warmup_steps: {a.warmup}
    max_grad_norm: {a.max_grad_norm}
    dropout: [0.0]
    attention_dropout: [0.0]
""")
eole = str(Path(sys.executable).with_name("eole"))
with open("build_vocab.log", "w") as f:
    subprocess.run([eole, "build_vocab", "-config", "config.yaml", "-n_sample", "-1"], stdout=f, stderr=f, check=True)
rc = subprocess.run([eole, "train", "-config", "config.yaml"]).returncode
if not glob.glob("runs/eole*/*"):
    raise SystemExit(f"eole train wrote no TensorBoard scalars (exit {rc})")

import eole as eole_pkg  # noqa: E402
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

ev = EventAccumulator(glob.glob("runs/eole*/*")[0] if glob.glob("runs/eole*/*") else "runs")
ev.Reload()
train = [(e.step, e.value) for e in ev.Scalars("progress/xent")]
evals = [(e.step, e.value) for e in ev.Scalars("valid/xent")] if a.valid_steps and "valid/xent" in ev.Tags()[
    "scalars"] else None
write_truth(framework=f"eole {eole_pkg.__version__}", settings=vars(a), loss_name="xent",
            step_unit="optimizer step, 1-based (`Step N/ M`)", tolerance={**tol_decimals(2), "rel": 1e-7},
            record="eole's TensorBoard scalars (`progress/xent`, written at each report, at its step)",
            train_loss=train,
            eval_loss=evals, eval_name="valid/xent" if evals is not None else None, returncode=rc)
shutil.rmtree("run", ignore_errors=True)
