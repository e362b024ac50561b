"""Make the library corpus (examples/libraries): every run captured as ``python GEN.py > train.log 2>&1``.

    nice -n 10 ~/venvs/corpus/bin/python bench/library_runs/make_libraries.py --out examples/libraries \
        [--only NAME ...] [--manifest-only]

Each run is a generator of this folder started as a subprocess in a fresh temporary working directory, its
stdout and stderr one file (no TTY, Python's default buffering), 1 CPU thread, seeded. A launcher run (torchrun)
is the launcher's command line with the generator as its script. The generator writes ``truth.json`` (the
library's own structured record) after training and copies the library's own small files (an MLflow store,
``dvclive/``, event files, ``progress.csv``, ``catboost_info`` TSVs) next to the log. The maker then checks the
truth against the run's intent (label) and that every truth value is printed in the log (for runs whose source is
a store and print nothing, the store is the truth's own source), and writes ``manifest.jsonl``: one entry per
file to read (the ``train.log``, and a store the run wrote, by its path in the run's folder).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
PY = sys.executable
sys.path.insert(0, str(HERE.parent))

from truth_checks import child_env, label_problems, read_manifest, remake, unprinted, write_manifest  # noqa: E402

TORCHRUN = [PY, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2"]


@dataclass
class Run:
    gen: str
    argvs: list[list[str]]
    label: str = "healthy"
    stop: bool = False
    launcher: list[str] = field(default_factory=list)  # a command line that runs the generator (torchrun)
    # files/folders of the run to read as sources of their own; "PATH@TRUTH" when the store has its own truth file
    # (its steps differ from the log's: MLflow's autolog counts epochs from 0)
    stores: list[str] = field(default_factory=list)
    log: bool = True  # the train.log is an entry too (False: the run prints no metric, its store is the source)
    fails: bool = False  # the training ends with an error on purpose (a rank raising on a NaN loss)


RUNS: dict[str, Run] = {}


def run(name: str, gen: str, *argvs: str, label: str = "healthy", stop: bool = False, **kw) -> None:
    RUNS[name] = Run(gen, [a.split() for a in argvs], label, stop, **kw)


# --- spaCy: `python -m spacy train` (its console table E / # / LOSS ... / SCORE)
run("spacy_textcat_eval50", "spacy_run.py", "--pipe textcat --steps 600 --eval-freq 50")
run("spacy_ner_eval25", "spacy_run.py", "--pipe ner --steps 400 --eval-freq 25")
run("spacy_textcat_ner_eval40", "spacy_run.py", "--pipe textcat,ner --steps 480 --eval-freq 40")
run("spacy_ner_lr_huge_diverged", "spacy_run.py", "--pipe ner --steps 400 --eval-freq 20 --lr 20",
    label="diverged", stop=True)
# --- CatBoost: `0:\tlearn: ...\ttest: ...\tbest: ... (i)\ttotal: ...\tremaining: ...`
run("catboost_logloss_verbose1_eval", "catboost_run.py", "--task cls --iters 150 --verbose 1 --eval")
run("catboost_rmse_verbose10_eval", "catboost_run.py", "--task reg --iters 400 --verbose 10 --eval")
run("catboost_rmse_verbose25_noeval", "catboost_run.py", "--task reg --iters 500 --verbose 25")
run("catboost_multiclass_verbose5_eval_early", "catboost_run.py",
    "--task multi --iters 600 --verbose 5 --eval --early 30")
run("catboost_rmse_lr_huge_diverged", "catboost_run.py",
    "--task reg --iters 120 --verbose 2 --eval --lr 3 --bootstrap No", label="diverged", stop=True)
# --- stable-baselines3: a boxed vertical table per logger dump (RL: the reward is higher-is-better)
run("sb3_ppo_cartpole_log1", "sb3_run.py", "--algo ppo --steps 8192 --n-steps 256 --log-interval 1",
    stores=["progress.csv"])
run("sb3_ppo_cartpole_nsteps128_log4", "sb3_run.py", "--algo ppo --steps 12288 --n-steps 128 --log-interval 4")
run("sb3_a2c_cartpole_log100", "sb3_run.py", "--algo a2c --steps 20000 --n-steps 5 --log-interval 100 --lr 7e-4")
run("sb3_dqn_cartpole_log10", "sb3_run.py", "--algo dqn --steps 20000 --log-interval 10 --lr 1e-3",
    stores=["progress.csv"])
# (PPO on Pendulum-v1 does not learn in the 10k steps a corpus run can afford: its reward does not rise)
run("sb3_sac_pendulum_log4", "sb3_run.py", "--algo sac --env Pendulum-v1 --steps 6000 --log-interval 4 --lr 1e-3")
run("sb3_dqn_lr_huge_diverged", "sb3_run.py", "--algo dqn --steps 4000 --log-interval 10 --lr 1000",
    label="diverged", stop=True)
run("sb3_a2c_lr_huge_diverged", "sb3_run.py", "--algo a2c --steps 2000 --n-steps 5 --log-interval 50 --lr 1e5",
    label="diverged", stop=True)
# --- torchrun DDP on CPU (gloo), 2 ranks, `--tee 3`: every line prefixed `[default0]:` / `[default1]:`
run("torchrun_tee_local_every5", "ddp_run.py", "--style local --epochs 3 --every 5 --lr 0.02",
    launcher=[*TORCHRUN, "--tee", "3"])
run("torchrun_tee_reduced_every2", "ddp_run.py", "--style reduced --epochs 2 --every 2",
    launcher=[*TORCHRUN, "--tee", "3"])
run("torchrun_tee_rank0_every1", "ddp_run.py", "--style rank0 --epochs 2 --every 1 --lr 0.02",
    launcher=[*TORCHRUN, "--tee", "3"])
run("torchrun_tee_role_trainer_reduced_every3", "ddp_run.py", "--style reduced --epochs 3 --every 3 --lr 0.02",
    launcher=[*TORCHRUN, "--tee", "3", "--role", "trainer"])
run("torchrun_tee_local_lr_huge_nan", "ddp_run.py", "--style local --epochs 2 --every 3 --lr 3",
    launcher=[*TORCHRUN, "--tee", "3"], label="nan", stop=True)
run("torchrun_tee_reduced_lr_huge_raise", "ddp_run.py", "--style reduced --epochs 2 --every 2 --lr 3 --raise-on-nan",
    launcher=[*TORCHRUN, "--tee", "3"], label="nan", stop=True, fails=True)
# --- Keras on the TensorFlow backend (tensorflow-cpu)
run("keras_tf_v1_reg_val20_10ep", "keras_tf_run.py", "--verbose 1 --epochs 10 --val 0.2")
run("keras_tf_v2_cls_val25_15ep", "keras_tf_run.py", "--verbose 2 --task cls --epochs 15 --val 0.25")
run("keras_tf_tfkeras_v1_cls_batch64", "keras_tf_run.py", "--verbose 1 --task cls --epochs 8 --batch 64 --tf-keras")
run("keras_tf_v1_mlflow_autolog_12ep", "keras_tf_run.py", "--verbose 1 --epochs 12 --val 0.2 --mlflow-autolog",
    stores=["mlflow.db@truth_mlflow.json"])
run("keras_tf_v2_sgd_lr_growth_nan", "keras_tf_run.py", "--verbose 2 --epochs 12 --opt sgd --lr 0.005 --lr-growth 3",
    label="nan", stop=True)
# --- trackers' local stores: the store is a source of its own; a run that also prints has its train.log too
run("mlflow_sqlite_print_every5", "mlflow_run.py", "--epochs 6 --every 5 --print", stores=["mlflow.db"])
run("mlflow_sqlite_quiet_every1", "mlflow_run.py", "--epochs 4 --every 1 --lr 0.02", stores=["mlflow.db"],
    log=False)
run("mlflow_sqlite_lr_growth_nan", "mlflow_run.py", "--epochs 6 --every 2 --lr 0.01 --growth 1.08",
    stores=["mlflow.db"], log=False, label="nan", stop=True)
run("mlflow_filestore_every3_print", "mlflow_run.py", "--store file --epochs 5 --every 3 --print",
    stores=["mlruns"])
run("dvclive_print_every4", "dvclive_run.py", "--epochs 6 --every 4 --print", stores=["dvclive"])
run("dvclive_quiet_every1", "dvclive_run.py", "--epochs 4 --every 1 --lr 0.02", stores=["dvclive"], log=False)
run("dvclive_lr_growth_nan", "dvclive_run.py", "--epochs 6 --every 2 --lr 0.01 --growth 1.08",
    stores=["dvclive"], log=False, label="nan", stop=True)
run("tb_print_every10", "tensorboard_run.py", "--epochs 8 --every 10 --print", stores=["tb/events.out.tfevents.*"])
run("tb_plain_name_quiet_every1", "tensorboard_run.py", "--epochs 4 --every 1 --plain-name",
    stores=["events.out.tfevents"], log=False)
run("tb_plain_name_lr_growth_nan", "tensorboard_run.py", "--epochs 6 --every 2 --lr 0.01 --growth 1.08 --plain-name",
    stores=["events.out.tfevents"], log=False, label="nan", stop=True)
# --- skorch: its PrintLog table (header, `-------` rule, ANSI-coloured best values)
run("skorch_cls_sgd_valid20_15ep", "skorch_run.py", "--task cls --epochs 15 --lr 0.05")
run("skorch_reg_adam_novalid_20ep", "skorch_run.py", "--task reg --opt adam --lr 0.01 --valid 0 --epochs 20")
run("skorch_cls_adam_valid30_25ep", "skorch_run.py", "--task cls --opt adam --lr 0.003 --valid 0.3 --epochs 25")
run("skorch_reg_sgd_lr_growth_nan", "skorch_run.py", "--task reg --lr 0.05 --lr-growth 2.5 --epochs 10",
    label="nan", stop=True)
# --- PyTorch-Ignite: the MNIST example's lines, ProgressBar + log_message, FBResearchLogger
run("ignite_example_every10_4ep", "ignite_run.py", "--style example --epochs 4 --every 10")
run("ignite_pbar_logmsg_every5", "ignite_run.py", "--style pbar --epochs 3 --every 5")
run("ignite_fbr_every20_batch16", "ignite_run.py", "--style fbr --epochs 4 --every 20 --batch 16")
run("ignite_example_lr_huge_nan", "ignite_run.py", "--style example --epochs 3 --every 5 --lr 40",
    label="nan", stop=True)
# --- JAX: a Flax (linen) MLP with optax, logging as the Flax examples do
run("flax_epoch_absl_sgd_8ep", "flax_run.py", "--style epoch --epochs 8")
run("flax_epoch_abslhandler_adam_10ep", "flax_run.py", "--style epoch --absl-handler --opt adam --lr 3e-3 --epochs 10")
run("flax_step_every20_print", "flax_run.py", "--style step --every 20 --epochs 4")
run("flax_step_lr_huge_diverged", "flax_run.py", "--style step --every 10 --epochs 2 --lr 3",
    label="diverged", stop=True)
# --- pytorch-tabnet: `epoch N  | loss: X | val_0_auc: Y |  0:00:01s`
run("tabnet_cls_eval_verbose1", "tabnet_run.py", "--task cls --epochs 25 --verbose 1 --eval")
run("tabnet_reg_noeval_verbose3", "tabnet_run.py", "--task reg --epochs 45 --verbose 3")
run("tabnet_cls_eval_patience5_verbose2", "tabnet_run.py", "--task cls --epochs 60 --verbose 2 --eval --patience 5")
# (no should-stop TabNet run: Adam at lr 0.5 / 2 / 5 / 30 and SGD with momentum at lr 0.3 / 1 gave a loss that
# jumps about but neither grows nor turns non-finite: its ghost batch norm and sparse attention keep it bounded)
# --- River (online learning): `[1,000] LogLoss: 0.43` (the sample count with thousands separators)
run("river_logreg_logloss_every500", "river_run.py", "--task cls --n 6000 --every 500")
run("river_logreg_rolling250_every250", "river_run.py", "--task cls --n 5000 --every 250 --rolling 250 --lr 0.05")
run("river_linreg_mae_every100", "river_run.py", "--task reg --n 3000 --every 100 --lr 0.005")
# (no should-stop River run: a logistic regression at lr 20 stays bounded (a rolling LogLoss of 2.5-4.5), and a
# diverging linear regression prints its metric with thousands separators (`6,731,536,465,...`), which the
# corpus' own check that every truth value is printed cannot read)
# --- end of runs

def check(log: Path | None, truth: dict, label: str) -> list[str]:
    """What is wrong with a run: its truth against its intent, and truth values the log does not print."""
    vals = [float(v) for _, v in truth["train_loss"]]
    if not vals:
        return ["no train-loss point in the truth"]
    vals = vals[int(truth.get("label_skips_first", 0)):]  # spaCy: its first row is one update's loss, not a sum
    bad = label_problems(vals, label, healthy=not truth.get("reward"))
    if truth.get("reward"):  # RL: the loss need not fall; the reward says whether the agent learns
        finite = [v for v in vals if math.isfinite(v)]
        rew = [float(v) for _, v in truth["reward"]]
        if label == "healthy" and not (len(finite) == len(vals) and rew[-1] > rew[0]):
            bad.append(f"label healthy but the reward goes {rew[0]} -> {rew[-1]}")
        if label == "diverged" and not (len(finite) < len(vals) or (max(vals[-max(1, len(vals) // 4):])
                                                                     >= 2 * min(vals) and rew[-1] < rew[0])):
            bad.append(f"label diverged but the loss does not grow and the reward goes {rew[0]} -> {rew[-1]}")
        bad = [b for b in bad if not b.startswith(("label diverged but the loss does not diverge",))]
    if log is None:
        return bad
    return bad + unprinted(log, truth)


def make(name: str, out: Path) -> list[dict]:
    r = RUNS[name]
    dest = out / name
    if dest.exists():
        import shutil

        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    env = child_env(TF_NUM_INTRAOP_THREADS="1", TF_NUM_INTEROP_THREADS="1",
                    XLA_FLAGS="--xla_cpu_multi_thread_eigen=false", LIB_TRUTH=str(dest / "truth.json"),
                    LIB_OUT=str(dest), MLFLOW_ENABLE_ASYNC_LOGGING="false", DVC_NO_ANALYTICS="1", DO_NOT_TRACK="1",
                    MLFLOW_DISABLE_TELEMETRY="true")
    log = dest / "train.log"
    with tempfile.TemporaryDirectory(prefix=f"libraries-{name}-") as cwd:
        for i, argv in enumerate(r.argvs):
            with open(log, "ab") as f:
                cmd = [*(r.launcher or [PY]), str(HERE / r.gen), *argv, "--label", r.label,
                       *(["--should-stop"] if r.stop else [])]
                rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=cwd,
                                    env=env).returncode
            if rc != 0 and i == len(r.argvs) - 1 and not r.fails:
                raise SystemExit(f"{name}: the generator failed (exit {rc}); see {log}")
    return entries_of(name, dest)


def entries_of(name: str, dest: Path) -> list[dict]:
    """The run's manifest entries (its train.log, and each store it wrote), after checking its truth."""
    r = RUNS[name]
    log = dest / "train.log"
    truth = json.loads((dest / "truth.json").read_text())
    for problem in check(log if r.log else None, truth, r.label):
        print(f"  {name}: {problem}", file=sys.stderr)
    common = {"truth": f"{name}/truth.json", "framework": truth["framework"], "label": truth["label"],
              "should_stop": truth["should_stop"], "n_points": len(truth["train_loss"]),
              "loss_name": truth["loss_name"], "step_unit": truth["step_unit"]}
    entries = [{"file": f"{name}/train.log", **common}] if r.log else []
    for store in r.stores:
        pattern, _, own = store.partition("@")
        found = sorted(p.relative_to(dest).as_posix() for p in dest.glob(pattern))
        if not found:
            raise SystemExit(f"{name}: the run wrote no {pattern}")
        fields = common
        if own:
            t = json.loads((dest / own).read_text())
            for problem in check(None, t, r.label):
                print(f"  {name} ({own}): {problem}", file=sys.stderr)
            fields = {**common, "truth": f"{name}/{own}", "framework": t["framework"], "n_points": len(t["train_loss"]),
                      "loss_name": t["loss_name"], "step_unit": t["step_unit"]}
        entries += [{"file": f"{name}/{s}", **fields, "source": "store"} for s in found]
    return entries


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="examples/libraries")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--manifest-only", action="store_true", help="rewrite manifest.jsonl from the run folders")
    a = ap.parse_args()
    out = Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    mpath = out / "manifest.jsonl"
    old = read_manifest(mpath)
    if a.manifest_only:
        done = {n: entries_of(n, out / n) for n in RUNS if (out / n / "truth.json").is_file()}
        write_manifest(mpath, RUNS, done)
        print(f"wrote {mpath}: {sum(map(len, done.values()))} entries of {len(done)} runs")
        return 0
    remake(out, a.only, RUNS, make, old, warn_over=512 * 1024)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
