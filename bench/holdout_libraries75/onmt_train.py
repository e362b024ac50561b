"""OpenNMT-tf: its ``onmt-main`` command line, as its quickstart runs it (``onmt-main --model_type TransformerTiny
--config data.yml [--auto_config] train [--with_eval]``, or ``--model my_model.py`` for a model of one's own: here a
small attentional LSTM), on a tiny synthetic parallel corpus written here (reverse a sentence of 3-8 words over a
20-word vocabulary; the vocabulary file as ``onmt-build-vocab`` writes one). The command runs as a child of this
script with its stdout and stderr, so the log is onmt-main's own: TensorFlow's logger on stderr, the whole
configuration, then every ``save_summary_steps`` a line ``Step = 20 ; steps/s = 57.86, tokens/s = ... ; Learning rate =
0.002000 ; Loss = 13.631547`` (``%f``) and with ``--with_eval`` ``Evaluation result for step 50: loss = 2.164023 ;
perplexity = 8.706091``. Truth: the ``loss`` scalars onmt-main writes to its TensorBoard event file in the model
directory at the same steps (read back with TensorBoard's ``EventAccumulator``)."""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

from h75_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="TransformerTiny", help="a catalog model type, or `rnn` (a model file of one's own)")
ap.add_argument("--auto-config", action="store_true")
ap.add_argument("--optimizer", default="Adam")
ap.add_argument("--lr", type=float, default=0.002)
ap.add_argument("--decay", default="", help="a schedule of tf.keras.optimizers.schedules or opennmt.schedules")
ap.add_argument("--decay-rate", type=float, default=0.5)
ap.add_argument("--decay-steps", type=int, default=50)
ap.add_argument("--steps", type=int, default=200)
ap.add_argument("--report", type=int, default=10, help="train.save_summary_steps")
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--batch-type", default="examples", choices=["examples", "tokens"])
ap.add_argument("--eval-steps", type=int, default=0, help="0: no --with_eval")
ap.add_argument("--n", type=int, default=400)
ap.add_argument("--log-level", default="INFO")
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

# --- the data: a tiny reversal corpus and its vocabulary (special tokens first, as onmt-build-vocab writes them)
rng = random.Random(0)
words = [f"w{i}" for i in range(20)]
for split, n in (("train", a.n), ("valid", 60)):
    with open(f"src-{split}.txt", "w") as fs, open(f"tgt-{split}.txt", "w") as ft:
        for _ in range(n):
            s = [rng.choice(words) for _ in range(rng.randint(3, 8))]
            fs.write(" ".join(s) + "\n")
            ft.write(" ".join(reversed(s)) + "\n")
Path("vocab.txt").write_text("\n".join(["<blank>", "<s>", "</s>", *words]) + "\n")

params = [f"  optimizer: {a.optimizer}", f"  learning_rate: {a.lr}"]
if a.decay:
    params += [f"  decay_type: {a.decay}", "  decay_params:", f"    decay_rate: {a.decay_rate}",
               f"    decay_steps: {a.decay_steps}"]
config = f"""model_dir: run

data:
  train_features_file: src-train.txt
  train_labels_file: tgt-train.txt
  eval_features_file: src-valid.txt
  eval_labels_file: tgt-valid.txt
  source_vocabulary: vocab.txt
  target_vocabulary: vocab.txt

params:
{chr(10).join(params)}

train:
  batch_size: {a.batch}
  batch_type: {a.batch_type}
  max_step: {a.steps}
  save_checkpoints_steps: {a.steps * 10}
  keep_checkpoint_max: 1
  save_summary_steps: {a.report}

eval:
  batch_size: 30
  steps: {a.eval_steps or a.steps * 10}
"""
Path("data.yml").write_text(config)

if a.model == "rnn":
    Path("my_model.py").write_text('''import opennmt
import tensorflow_addons as tfa


def model():
    return opennmt.models.SequenceToSequence(
        source_inputter=opennmt.inputters.WordEmbedder(embedding_size=32),
        target_inputter=opennmt.inputters.WordEmbedder(embedding_size=32),
        encoder=opennmt.encoders.RNNEncoder(num_layers=1, num_units=64),
        decoder=opennmt.decoders.AttentionalRNNDecoder(
            num_layers=1, num_units=64, attention_mechanism_class=tfa.seq2seq.LuongAttention),
    )
''')
    model_args = ["--model", "my_model.py"]
else:
    model_args = ["--model_type", a.model]

exe = shutil.which("onmt-main", path=str(Path(sys.executable).parent)) or "onmt-main"
cmd = [exe, *model_args, "--config", "data.yml", "--seed", str(a.seed), "--log_level", a.log_level,
       "--intra_op_parallelism_threads", "1", "--inter_op_parallelism_threads", "1"]
cmd += ["--auto_config"] if a.auto_config else []
cmd += ["train"] + (["--with_eval"] if a.eval_steps else [])
sys.stdout.flush()
rc = subprocess.run(cmd, env=os.environ.copy()).returncode

# --- the truth: the `loss` scalars of onmt-main's own TensorBoard event file (and its evaluator's `metrics/loss`),
# read after the run (TensorFlow's start-up notices of this reading kept out of the log)
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "2"
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402
from tensorflow.python.framework import tensor_util  # noqa: E402


def scalars(folder: str, tag: str) -> list[tuple[int, float]]:
    if not Path(folder).is_dir():
        return []
    acc = EventAccumulator(folder, size_guidance={"tensors": 0})
    acc.Reload()
    if tag not in acc.Tags()["tensors"]:
        return []
    return [(e.step, float(tensor_util.MakeNdarray(e.tensor_proto))) for e in acc.Tensors(tag)]


train = scalars("run", "loss")
evals = scalars("run/eval", "metrics/loss")
for f in sorted(Path("run").glob("events.out.tfevents.*")):
    keep(f)
if Path("run/model_description.py").is_file():
    keep("run/model_description.py")
keep("data.yml")
import opennmt  # noqa: E402

write_truth(framework=f"OpenNMT-tf {opennmt.__version__}", settings=vars(a), loss_name="Loss",
            step_unit="training step, 1-based (`Step = 20`)",
            # `%f` (6 decimals) of the double; the event file holds it as float32
            tolerance={"rel": 1e-6, "abs": 1.1e-6},
            record="the `loss` scalars onmt-main writes to its TensorBoard event file in the model directory "
                   "(`events.out.tfevents.*`, kept)",
            train_loss=train, eval_loss=evals or None, eval_name="metrics/loss" if evals else None,
            exit_code=rc)
