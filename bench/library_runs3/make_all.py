"""Make the third library corpus (examples/libraries3): real runs of RL, embedding and knowledge-graph libraries.

    ~/venvs/dev2b/bin/python bench/library_runs3/make_all.py --out examples/libraries3 [--only NAME ...]

Each run is ``nice -n 10 python GEN.py ARGS > train.log 2>&1`` started as a subprocess in a fresh temporary working
directory: stdout and stderr one file, no TTY, Python's default buffering, 1 CPU thread, seeded, in the layout of
examples/libraries_holdout (the generators share its ``lib_truth.py``: ``truth.json``, the library's own files kept
beside, a second manifest entry for a store). The maker checks each truth against the run's intent (label; for a
reward, higher is better) and that every truth value of the log is printed in it.
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


# --- tianshou 2.x (per-epoch tqdm bars with a postfix, 'Epoch #N: test_reward: R ± S, best_reward: ...')
run("tianshou_dqn_cartpole_8ep", "tianshou_rl.py", "--algo dqn --epochs 8 --steps 2000")
run("tianshou_ppo_cartpole_6ep", "tianshou_rl.py", "--algo ppo --epochs 6 --steps 4000 --lr 3e-3")
run("tianshou_dqn_lr_huge_collapse", "tianshou_rl.py", "--algo dqn --epochs 8 --steps 2000 --lr 5",
    label="diverged", stop=True)
run("tianshou_ppo_lr_huge_collapse", "tianshou_rl.py", "--algo ppo --epochs 6 --steps 4000 --lr 1",
    label="diverged", stop=True)

# --- d3rlpy 2.x (structlog records 'epoch=1 step=500 metrics={...}', bars with 'loss=' postfix, loss.csv)
run("d3rlpy_bc_offline_8ep", "d3rlpy_run.py", "--mode offline --algo bc --steps 4000 --per-epoch 500 --lr 1e-3")
run("d3rlpy_cql_offline_6ep", "d3rlpy_run.py", "--mode offline --algo cql --steps 3000 --per-epoch 500 --lr 3e-4")
run("d3rlpy_dqn_online_cartpole_6ep", "d3rlpy_run.py", "--mode online --algo dqn --steps 6000 --per-epoch 1000 "
    "--lr 1e-3")
run("d3rlpy_dqn_offline_sgd_lr_huge_nan", "d3rlpy_run.py", "--mode offline --algo dqn --steps 2000 "
    "--per-epoch 250 --optim sgd --lr 20", label="nan", stop=True)
# (a behaviour-cloning run with a rate far too high does not diverge: its tanh-squashed actions saturate and the loss
# stays flat at ~1.4; it was replaced by this DQN)

# --- PyKEEN (an epoch bar with 'loss=..., prev_loss=...'; result trackers)
run("pykeen_transe_nations_csv_40ep", "pykeen_kge.py", "--model TransE --dataset Nations --epochs 40 --tracker csv")
run("pykeen_distmult_kinships_console_25ep", "pykeen_kge.py",
    "--model DistMult --dataset Kinships --epochs 25 --tracker console")
run("pykeen_complex_umls_csv_30ep", "pykeen_kge.py", "--model ComplEx --dataset UMLS --epochs 30 --tracker csv "
    "--lr 0.005")
run("pykeen_transe_sgd_lr_huge_diverged", "pykeen_kge.py", "--model DistMult --dataset Nations --epochs 30 "
    "--tracker console --optimizer SGD --lr 500 --loss softplus", label="diverged", stop=True)

# --- gensim (logging at INFO: 'EPOCH 0 - PROGRESS: at 52.10% examples', a callback 'Loss after epoch N: X')
run("gensim_w2v_cbow_callback_12ep", "gensim_w2v.py", "--model w2v --epochs 12")
run("gensim_w2v_sg_logging_8ep", "gensim_w2v.py", "--model w2v --sg 1 --epochs 8 --fmt logging --words 200000")
run("gensim_w2v_sg_hs_callback_6ep", "gensim_w2v.py", "--model w2v --sg 1 --hs 1 --epochs 6 --words 150000")
# (not made: a should-stop gensim run. A rate 1,000x too high saturates the sigmoid: the running loss falls to near
# zero instead of rising; Doc2Vec keeps no training loss: get_latest_training_loss() stays 0.)

# --- Ray RLlib (algo.train() results printed by pretty_print: nested 'name: value' blocks; pprint; one line)
run("rllib_ppo_pretty_print_12it", "rllib_train.py", "--algo ppo --iters 12 --fmt pretty")
run("rllib_ppo_pprint_10it", "rllib_train.py", "--algo ppo --iters 10 --fmt pprint --lr 1e-3")
run("rllib_ppo_line_10it", "rllib_train.py", "--algo ppo --iters 10 --fmt line")
run("rllib_ppo_lr_huge_pretty_nonfinite", "rllib_train.py", "--algo ppo --iters 10 --fmt pretty --lr 3",
    label="nan", stop=True)  # total_loss inf at the first iteration, the returns collapse 18 -> 9

# Runs labelled by their intent where the label rule does not hold, and why
_RL_LOSS = ("an RL loss follows the returns: {} grows as the episode returns grow ({}): healthy by its reward, as "
            "the run's intent says")
LABEL_EXCEPTIONS: dict[str, str] = {
    "d3rlpy_dqn_online_cartpole_6ep": _RL_LOSS.format("a DQN's TD loss", "evaluation.csv"),
    "rllib_ppo_pretty_print_12it": _RL_LOSS.format("PPO's total loss (its value loss)", "episode_return_mean"),
    "rllib_ppo_pprint_10it": _RL_LOSS.format("PPO's total loss (its value loss)", "episode_return_mean"),
    "rllib_ppo_line_10it": _RL_LOSS.format("PPO's total loss (its value loss)", "episode_return_mean"),
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
    with tempfile.TemporaryDirectory(prefix=f"lib3-{name}-") as cwd, open(log, "wb") as f:
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=cwd,
                            env=env).returncode
    if rc != 0:
        print(f"  {name}: exit {rc} (kept: a run that ends in an error is a real outcome)", file=sys.stderr)
    if not (dest / "truth.json").is_file():
        raise SystemExit(f"{name}: the generator wrote no truth.json; see {log}")
    truth = json.loads((dest / "truth.json").read_text())
    problems = check_label(truth, label) if name not in LABEL_EXCEPTIONS else []
    for problem in problems + unprinted(log, truth):
        print(f"  {name}: {problem}", file=sys.stderr)
    entries = [_entry(name, "train.log", "truth.json", truth)]
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
    ap.add_argument("--out", default="examples/libraries3")
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args()
    out = Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    old = read_manifest(out / "manifest.jsonl")
    remake(out, a.only, RUNS, make, old, count_entries=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
