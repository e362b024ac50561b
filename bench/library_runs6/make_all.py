"""Make the sixth library corpus (examples/libraries6): real runs of medical imaging, RL, AutoML, outlier detection,
forecasting and evolutionary libraries.

    ~/venvs/dev6/bin/python bench/library_runs6/make_all.py --out examples/libraries6 [--only NAME ...]

As bench/library_runs3/make_all.py: each run is ``nice -n 10 python GEN.py ARGS > train.log 2>&1`` started as a
subprocess in a fresh temporary working directory (stdout and stderr one file, no TTY, Python's default buffering,
1 CPU thread, seeded), in the layout of examples/libraries_holdout (``lib_truth.py``: ``truth.json``, the
library's own files kept beside, a second manifest entry for a store). The maker checks each truth against the
run's intent (label; for a reward, higher is better) and that every truth value of the log is printed in it.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from truth_checks import LibraryRuns, library_maker_main, registry  # noqa: E402

RUNS: LibraryRuns = {}
run = registry(RUNS)


# --- MONAI (SupervisedTrainer + StatsHandler 'Epoch: 2/6, Iter: 3/8 -- train_loss: 0.6931', or the tutorials' loop)
run("monai_workflow_seg_6ep", "monai_train.py", "--task seg --fmt workflow --epochs 6")
run("monai_workflow_cls_8ep", "monai_train.py", "--task cls --fmt workflow --epochs 8 --lr 3e-3")
run("monai_loop_seg_6ep", "monai_train.py", "--task seg --fmt loop --epochs 6")
run("monai_workflow_cls_sgd_lr_huge_nan", "monai_train.py", "--task cls --fmt workflow --epochs 6 --optim sgd "
    "--lr 3", label="nan", stop=True)
run("monai_loop_cls_steplr_growing_diverged", "monai_train.py", "--task cls --fmt loop --epochs 6 --lr 1e-3 "
    "--step-gamma 10", label="diverged", stop=True)  # StepLR's gamma 10 (0.1 meant): x10 an epoch

# --- DEAP (eaSimple / eaMuPlusLambda / CMA-ES evolving a network's weights; the Logbook printed as a table)
run("deap_simple_single_40gen", "deap_evolve.py", "--algo simple --gens 40")
run("deap_mupluslambda_multistats_40gen", "deap_evolve.py", "--algo mupluslambda --stats multi --gens 40")
run("deap_cma_40gen", "deap_evolve.py", "--algo cma --gens 40 --sigma 0.5")
run("deap_simple_sigma_growing_diverged", "deap_evolve.py", "--algo simple --gens 30 --mutpb 1.0 --sigma-growth 1.5",
    label="diverged", stop=True)  # the mutation's sigma x1.5 a generation where x0.9 was meant
run("deap_simple_multistats_sigma_growing_diverged", "deap_evolve.py", "--algo simple --stats multi --gens 25 "
    "--mutpb 1.0 --sigma-growth 2", label="diverged", stop=True)

# --- PyOD (deep detectors: 'Epoch 3/20, loss=0.1234, time=0.05s'; DeepSVDD's 'Epoch 3/40, Loss: 12.3456789')
run("pyod_autoencoder_20ep", "pyod_detect.py", "--model ae --epochs 20")
run("pyod_vae_25ep", "pyod_detect.py", "--model vae --epochs 25")
run("pyod_deepsvdd_40ep", "pyod_detect.py", "--model svdd --epochs 40")
run("pyod_autoencoder_sgd_lr_huge_nan", "pyod_detect.py", "--model ae --epochs 15 --optim sgd --lr 2.5", label="nan",
    stop=True)

# --- ElegantRL (train_agent's Evaluator table: 'ID Step Time | avgR stdR avgS stdS | expR objC objA etc.')
run("elegantrl_ddpg_pendulum_12k", "elegantrl_train.py", "--algo ddpg --steps 12000")
run("elegantrl_dqn_cartpole_15k", "elegantrl_train.py", "--algo dqn --steps 15000 --horizon 500 --eval-every 1000")
run("elegantrl_ddpg_lr_huge_collapse", "elegantrl_train.py", "--algo ddpg --steps 12000 --lr 0.5", label="diverged",
    stop=True)

# --- NeuralProphet (Lightning's bar, its postfix the epoch's metrics; the returned metrics printed as a table)
run("neuralprophet_bar_table_40ep", "neuralprophet_fit.py", "--epochs 40")
run("neuralprophet_ar_bar_table_30ep", "neuralprophet_fit.py", "--epochs 30 --n-lags 14")
run("neuralprophet_table_only_30ep", "neuralprophet_fit.py", "--epochs 30 --progress none")
run("neuralprophet_bar_only_40ep", "neuralprophet_fit.py", "--epochs 40 --print-table none")
run("neuralprophet_lr_high_onecycle_recovers", "neuralprophet_fit.py", "--epochs 30 --lr 30")  # 4.3 -> 18.6 -> 0.12:
# the one-cycle schedule NeuralProphet always uses anneals a rate 3000x too high back down (no should-stop run)
run("neuralprophet_lr_huge_blowup", "neuralprophet_fit.py", "--epochs 20 --lr 3000", label="diverged", stop=True)

# --- pycma (CMA-ES on a network's weights: its display table 'Iterat #Fevals   function value  axis ratio ...', and
# its logger's outcmaes/fit.dat)
run("cma_asktell_disp10_150it", "cma_evolve.py", "--iters 150 --verb-disp 10 --store")
run("cma_asktell_disp1_80it", "cma_evolve.py", "--iters 80 --verb-disp 1")
run("cma_popsize24_disp5_120it", "cma_evolve.py", "--iters 120 --popsize 24 --verb-disp 5")
run("cma_sigma_boost_diverged", "cma_evolve.py", "--iters 60 --verb-disp 5 --sigma-boost 1.15", label="diverged",
    stop=True)  # a widening meant once applied every generation
run("cma_sigma_boost_disp1_diverged", "cma_evolve.py", "--iters 40 --verb-disp 1 --sigma-boost 1.3",
    label="diverged", stop=True)

# Runs labelled by their intent where the label rule does not hold, and why
LABEL_EXCEPTIONS: dict[str, str] = {
    "neuralprophet_lr_huge_blowup": "the loss blows up by 20 orders of magnitude (195 -> 9.6e21 at epoch 8) before "
                                    "the one-cycle schedule anneals the rate; it ends at 13, 4000x the healthy runs' "
                                    "0.003: a run to stop, though its last value is its best",
}


def main() -> int:
    return library_maker_main(RUNS, HERE, "examples/libraries6", "lib6", __doc__ or "", LABEL_EXCEPTIONS)


if __name__ == "__main__":
    raise SystemExit(main())
