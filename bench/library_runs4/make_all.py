"""Make the fourth library corpus (examples/libraries4): real runs of catalyst, pytorch-widedeep, skrl, sbi,
livelossplot and sacred.

    ~/venvs/dev4a/bin/python bench/library_runs4/make_all.py --out examples/libraries4 [--only NAME ...]

Each run is ``nice -n 10 python GEN.py ARGS > train.log 2>&1`` started as a subprocess in a fresh temporary working
directory: stdout and stderr one file, no TTY, Python's default buffering, 1 CPU thread, seeded, in the layout of
examples/libraries_holdout (the generators share its ``lib_truth.py``: ``truth.json``, the library's own files kept
beside, a second manifest entry for a store; a run whose log prints no loss, ``log_scored`` false in its truth, has
only its store's entries). The maker checks each truth against the run's intent (label; for a
reward, higher is better) and that every truth value of the log is printed in it.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from truth_checks import LibraryRuns, library_maker_main, registry  # noqa: E402

RUNS: LibraryRuns = {}
run = registry(RUNS)


# --- livelossplot (PlotLosses with ExtremaPrinter: a block per send(), 'Loss' / '\ttraining  \t (min: .., max: ..,
# cur: ..)'; no step printed: a block per update, the library's step counts them from 0)
run("livelossplot_adam_20ep", "livelossplot_run.py", "--epochs 20 --optim adam --lr 0.01")
run("livelossplot_sgd_per_batch_8ep", "livelossplot_run.py", "--epochs 8 --per-batch --lr 0.05")
run("livelossplot_sgd_12ep", "livelossplot_run.py", "--epochs 12 --lr 0.02")
run("livelossplot_sgd_lr_huge_nonfinite", "livelossplot_run.py", "--epochs 15 --lr 8", label="nan", stop=True)

# --- sacred (FileStorageObserver: runs/1/metrics.json, cout.txt; the script reports by print, _log.info or a table)
run("sacred_print_30ep", "sacred_run.py", "--epochs 30 --report print")
run("sacred_log_per_step_12ep", "sacred_run.py", "--epochs 12 --report log --per-step --lr 0.005")
run("sacred_table_25ep", "sacred_run.py", "--epochs 25 --report table")
run("sacred_print_lr_huge_nan", "sacred_run.py", "--epochs 20 --report print --lr 0.8", label="nan", stop=True)
run("sacred_silent_lr_huge_nan", "sacred_run.py", "--epochs 20 --report none --lr 0.8", label="nan", stop=True)

# --- pytorch-widedeep (Trainer, verbose=1: per epoch a tqdm bar 'epoch N: ...| loss=0.512, metrics={'acc': ...}]')
run("widedeep_binary_val_10ep", "widedeep_run.py", "--epochs 10 --val")
run("widedeep_regression_8ep", "widedeep_run.py", "--epochs 8 --objective regression")
run("widedeep_binary_lr_history_12ep", "widedeep_run.py", "--epochs 12 --val --lr-history --lr 0.02")
run("widedeep_regression_sgd_lr_huge_nan", "widedeep_run.py", "--epochs 8 --objective regression --optim sgd --lr 3",
    label="nan", stop=True)

# --- catalyst (SupervisedRunner: 'train (3/8) accuracy01: ... | loss: 0.52 | lr: 0.02 | momentum: 0.9', verbose bars;
# csv_logger/train.csv)
run("catalyst_8ep", "catalyst_run.py", "--epochs 8")
run("catalyst_verbose_6ep", "catalyst_run.py", "--epochs 6 --verbose")
run("catalyst_sched_10ep", "catalyst_run.py", "--epochs 10 --sched --lr 0.05")
run("catalyst_lr_huge_nan", "catalyst_run.py", "--epochs 8 --lr 60", label="nan", stop=True)

# --- skrl (SequentialTrainer: only a tqdm bar on stdout; the agent's TensorBoard event file is scored)
run("skrl_ppo_cartpole", "skrl_run.py", "--algo ppo --timesteps 20000 --lr 1e-3")
run("skrl_dqn_cartpole", "skrl_run.py", "--algo dqn --timesteps 15000 --lr 1e-3")
run("skrl_ppo_lr_huge", "skrl_run.py", "--algo ppo --timesteps 20000 --lr 3", label="diverged", stop=True)

# --- sbi (NPE: 'Epochs trained: N' redraws, a ROUND 1 STATS box; the inference's TensorBoard event file is scored)
run("sbi_npe_mdn_40ep", "sbi_run.py", "--estimator mdn --epochs 40")
run("sbi_npe_maf_30ep", "sbi_run.py", "--estimator maf --epochs 30")
# (no should-stop sbi run: at lr=0.5 sbi raises "NaN/Inf present in NPE loss" in the first epoch and writes no event
# file; at lr=0.03 the negative log-likelihood still falls, 4.1 -> -1.4)

# Runs labelled by their intent where the label rule does not hold, and why
_RL_LOSS = ("an RL loss follows the returns: {} grows as the episode returns grow ({}): healthy by its reward, as "
            "the run's intent says")
LABEL_EXCEPTIONS: dict[str, str] = {
    "skrl_ppo_cartpole": _RL_LOSS.format("PPO's value loss", "Reward / Total reward (mean)"),
}


def main() -> int:
    return library_maker_main(RUNS, HERE, "examples/libraries4", "lib4", __doc__ or "", LABEL_EXCEPTIONS)


if __name__ == "__main__":
    raise SystemExit(main())
