"""Make the fifth library corpus (examples/libraries5): real runs of RL, flow, tabular and training-loop libraries.

    ~/venvs/dev4b/bin/python bench/library_runs5/make_all.py --out examples/libraries5 [--only NAME ...]

As bench/library_runs3/make_all.py: each run is ``nice -n 10 python GEN.py ARGS > train.log 2>&1`` started as a
subprocess in a fresh temporary working directory (stdout and stderr one file, no TTY, Python's default buffering,
1 CPU thread, seeded), in the layout of examples/libraries_holdout (``lib_truth.py``: ``truth.json``, the
library's own files kept beside, a second manifest entry for a store). The maker checks each truth against the
run's intent (label; for a reward, higher is better) and that every truth value of the log is printed in it.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PY = sys.executable
sys.path.insert(0, str(HERE.parent))

from truth_checks import child_env, label_problems, read_manifest, remake, unprinted  # noqa: E402

RUNS: dict[str, tuple[list[str], str, bool]] = {}


def run(name: str, gen: str, args: str = "", label: str = "healthy", stop: bool = False) -> None:
    RUNS[name] = (["{py}", f"{{gen}}/{gen}", *args.split()], label, stop)


# --- normflows (the examples' loop: tqdm over the iterations; the loss as a postfix, a print or tqdm.write)
run("normflows_realnvp_moons_postfix", "normflows_fit.py", "--flow realnvp --target moons --iters 400 --fmt postfix")
run("normflows_spline_moons_print", "normflows_fit.py", "--flow spline --target moons --iters 300 --fmt print")
run("normflows_realnvp_ring_write", "normflows_fit.py", "--flow realnvp --target ring --iters 400 --fmt write "
    "--every 20")
run("normflows_realnvp_lr_huge_diverged", "normflows_fit.py", "--flow realnvp --target moons --iters 300 --fmt print "
    "--lr 0.2 --no-skip", label="diverged", stop=True)

# --- pytorch-accelerated (Trainer: 'Starting epoch N', a bar per epoch, 'train_loss_epoch: X' lines)
run("accelerated_regression_default_8ep", "accelerated_fit.py", "--task regression --epochs 8")
run("accelerated_classification_nobar_10ep", "accelerated_fit.py", "--task classification --epochs 10 "
    "--callbacks nobar")
run("accelerated_regression_steps_6ep", "accelerated_fit.py", "--task regression --epochs 6 --callbacks steps "
    "--every 5")
run("accelerated_sgd_lr_huge_diverged", "accelerated_fit.py", "--task regression --epochs 6 --callbacks steps "
    "--every 2 --optim sgd --lr 0.05", label="diverged", stop=True)  # TerminateOnNaNCallback ends it at the NaN
run("accelerated_steplr_growing_diverged", "accelerated_fit.py", "--task classification --epochs 8 "
    "--callbacks steps --every 4 --sched growing --lr 1e-3", label="diverged", stop=True)

# --- MushroomRL (Logger: '... [INFO] Epoch 3 | J: -91.6'; the objective J, higher is better; core's bars on stderr)
run("mushroom_lqr_reinforce_20ep", "mushroom_pg.py", "--env lqr --algo reinforce --epochs 20 --eps-opt 0.01")
run("mushroom_lqr_gpomdp_weights_quiet", "mushroom_pg.py", "--env lqr --algo gpomdp --epochs 15 --eps-opt 0.01 "
    "--quiet --weights")
run("mushroom_grid_qlearning_30ep", "mushroom_pg.py", "--env grid --algo qlearning --epochs 30 --lr 0.2 --quiet")
run("mushroom_grid_qlearning_lr_huge_collapse", "mushroom_pg.py", "--env grid --algo qlearning --epochs 30 --lr 3",
    label="diverged", stop=True)  # a learning rate > 2: the Q-values oscillate, J collapses 4.2 -> 0

# --- TorchRL (DQN on CartPole: a CSVLogger's scalars/loss.csv; a tqdm bar's description or torchrl_logger.info)
run("torchrl_dqn_cartpole_bar", "torchrl_dqn.py", "--frames 6000 --fmt bar")
run("torchrl_dqn_cartpole_info", "torchrl_dqn.py", "--frames 8000 --fmt info --every 4")
run("torchrl_dqn_sgd_lr_huge_diverged", "torchrl_dqn.py", "--frames 5000 --fmt bar --optim sgd --lr 5",
    label="nan", stop=True)

# --- tinygrad (the examples' loop: trange with set_description(f"loss: {loss.item():6.2f} ..."), or print lines)
run("tinygrad_adam_bar_300", "tinygrad_fit.py", "--steps 300 --fmt bar")
run("tinygrad_sgd_print_400", "tinygrad_fit.py", "--steps 400 --fmt print --optim sgd --lr 0.05 --every 10")
run("tinygrad_sgd_lr_huge_print_nan", "tinygrad_fit.py", "--steps 200 --fmt print --optim sgd --lr 8 --every 5",
    label="nan", stop=True)
run("tinygrad_sgd_lr_huge_bar_diverged", "tinygrad_fit.py", "--steps 150 --fmt bar --optim sgd --lr 1.5",
    label="diverged", stop=True)

# --- PyTorch Tabular (Lightning underneath: its rich bar, drawn to a file only at the end; the TensorBoard store)
run("tabular_category_regression_6ep", "tabular_fit.py", "--model category --task regression --epochs 6 --every 10")
run("tabular_gandalf_classification_5ep", "tabular_fit.py", "--model gandalf --task classification --epochs 5 "
    "--every 5")
run("tabular_category_steplr_growing_diverged", "tabular_fit.py", "--model category --task regression --epochs 6 "
    "--every 10 --step-gamma 10", label="diverged", stop=True)  # StepLR's gamma 10 (0.1 meant): x10 an epoch

# Runs labelled by their intent where the label rule does not hold, and why
_RL_LOSS = ("an RL loss follows the returns: {} grows as the episodes grow longer ({}): healthy by its returns, as "
            "the run's intent says")
LABEL_EXCEPTIONS: dict[str, str] = {
    "torchrl_dqn_cartpole_info": _RL_LOSS.format("a DQN's TD loss", "max num steps 43 -> 200"),
}


def check_label(truth: dict, label: str) -> list[str]:
    vals = [float(v) for _, v in truth["train_loss"]]
    if not vals:
        return ["no train-loss point in the truth"]
    if truth["loss_name"] in (truth.get("higher_is_better") or []):  # a reward: higher is better
        vals = [-v for v in vals]
    return label_problems(vals, label)


def _entry(name: str, file: str, truth_file: str, truth: dict, store: bool = False) -> dict:
    e = {"file": f"{name}/{file}", "truth": f"{name}/{truth_file}", "framework": truth["framework"],
         "label": truth["label"], "should_stop": truth["should_stop"], "n_points": len(truth["train_loss"]),
         "loss_name": truth["loss_name"], "step_unit": truth["step_unit"]}
    if store:
        e["source"] = "store"
    return e


def make(name: str, out: Path) -> list[dict]:
    argv, label, stop = RUNS[name]
    dest = out / name
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    env = child_env(strip=["TERM"], HOLDOUT_DEST=str(dest), PYTHONPATH=f"{HERE}:{HERE.parent / 'holdout_libraries'}",
                    RAY_USAGE_STATS_ENABLED="0", DO_NOT_TRACK="1")
    cmd = ["nice", "-n", "10"] + [a.format(py=PY, gen=HERE) for a in argv] + ["--label", label]
    cmd += ["--should-stop"] if stop else []
    log = dest / "train.log"
    with tempfile.TemporaryDirectory(prefix=f"lib5-{name}-") as cwd, open(log, "wb") as f:
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=cwd,
                            env=env).returncode
    if rc != 0:
        print(f"  {name}: exit {rc} (kept: a run that ends in an error is a real outcome)", file=sys.stderr)
    if not (dest / "truth.json").is_file():
        raise SystemExit(f"{name}: the generator wrote no truth.json; see {log}")
    truth = json.loads((dest / "truth.json").read_text())
    problems = check_label(truth, label) if name not in LABEL_EXCEPTIONS else []
    for problem in problems + (unprinted(log, truth) if truth.get("log_series", True) else []):
        print(f"  {name}: {problem}", file=sys.stderr)
    # a run whose log holds no series (its truth says ``log_series: false``) is scored by its store alone
    entries = [_entry(name, "train.log", "truth.json", truth)] if truth.get("log_series", True) else []
    extra = dest / "extra_entries.json"
    if extra.is_file():
        for ln in extra.read_text().splitlines():
            e = json.loads(ln)
            t = json.loads((dest / e["truth"]).read_text())
            for problem in (check_label(t, label) if name not in LABEL_EXCEPTIONS else []):
                print(f"  {name} ({e['file']}): {problem}", file=sys.stderr)
            entries.append(_entry(name, e["file"], e["truth"], t, store=True))
        extra.unlink()
    return entries


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="examples/libraries5")
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args()
    out = Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    old = read_manifest(out / "manifest.jsonl")
    remake(out, a.only, RUNS, make, old, count_entries=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
