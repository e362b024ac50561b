"""Make the 52nd held-out library corpus (examples/libraries_holdout52): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout52/bin/python bench/holdout_libraries52/make_all.py [--only NAME ...] [--check] [--manifest-only]
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import blind_maker  # noqa: E402

# name: (generator, args, label, should_stop)
RUNS: blind_maker.Runs = {}
run = blind_maker.registry(RUNS)

# --- torchbiggraph (PyTorch-BigGraph: `torchbiggraph_import_from_tsv` then `torchbiggraph_train config.py`, in-process;
# its logging on stdout, per bucket `( 0 , 0 ): bucket 1 / 1 : Processed 5700 edges in 0.01 s ...` then
# `( 0 , 0 ): loss:  7.41056 , violators_lhs:  14.3819 , violators_rhs:  14.0135 , count:  5700` (`%.6g`), with
# `Stats before training: pos_rank: ...` / `Stats after training: ...` when a share of the edges is held out; its own
# training_stats.json kept)
run("pbg_softmax_dot_translation_eval_10ep", "pbg_train.py", "--epochs 10")
run("pbg_ranking_cos_diagonal_noeval_12ep", "pbg_train.py",
    "--loss ranking --comparator cos --operator diagonal --eval-fraction 0 --epochs 12")
run("pbg_logistic_dot_linear_2parts_8ep", "pbg_train.py", "--loss logistic --operator linear --partitions 2 --epochs 8")
run("pbg_softmax_l2_complex_3chunks_6ep", "pbg_train.py",
    "--comparator l2 --operator complex_diagonal --chunks 3 --epochs 6")
run("pbg_softmax_dot_verbose_b250_8ep", "pbg_train.py", "--verbose 1 --batch 250 --epochs 8")
run("pbg_ranking_dot_relation_lr_2parts_noeval_5ep", "pbg_train.py",
    "--loss ranking --partitions 2 --relation-lr 0.01 --eval-fraction 0 --epochs 5")
run("pbg_logistic_lr_high_6chunks_diverged", "pbg_train.py", "--loss logistic --lr 100 --chunks 6 --epochs 4",
    label="diverged", stop=True)
run("pbg_softmax_lr_high_6chunks_diverged", "pbg_train.py", "--lr 300 --chunks 6 --epochs 4", label="diverged",
    stop=True)
run("pbg_softmax_lr_huge_4parts_nan", "pbg_train.py", "--lr 1e19 --partitions 4 --operator none --epochs 2",
    label="nan", stop=True)

# --- hippynn (its barebones HIP-NN example's way: graph nodes, `assemble_for_training`, `Database`,
# `PatienceController`, `setup_and_train`; per epoch `Epoch 3:`, `Learning rate:     0.001`, `Batch Size: 16`,
# then a table of its validation losses on the train and valid splits, `Loss  :         2.0138   *    2.0364`
# (`%10.5g`, `*` where better), and after training the test table of the best model)
run("hippynn_adam_plateau_20ep", "hippynn_train.py", "--patience 1 --epochs 20 --lr 3e-3")
run("hippynn_adam_batchsize_25ep", "hippynn_train.py", "--scheduler batchsize --patience 1 --epochs 25 --lr 3e-3")
run("hippynn_adamw_exp_fulltrain_15ep", "hippynn_train.py",
    "--optimizer adamw --scheduler exp --gamma 0.9 --lr 5e-3 --fraction-train-eval 1.0 --epochs 15")
run("hippynn_sgd_noscheduler_b32_20ep", "hippynn_train.py",
    "--optimizer sgd --lr 1e-3 --scheduler none --batch 32 --epochs 20")
run("hippynn_adam_progress_2interactions_12ep", "hippynn_train.py",
    "--progress --interactions 2 --epochs 12 --lr 3e-3")
run("hippynn_adam_nopretrain_loss_key_b32_30ep", "hippynn_train.py",
    "--no-pretrain --stopping-key Loss --batch 32 --epochs 30 --lr 3e-3")
run("hippynn_adam_lr_growth_diverged", "hippynn_train.py", "--scheduler exp --gamma 1.6 --lr 1e-3 --epochs 20",
    label="diverged", stop=True)
run("hippynn_adamw_lr_growth_diverged", "hippynn_train.py",
    "--optimizer adamw --scheduler exp --gamma 2 --lr 3e-3 --epochs 14", label="diverged", stop=True)
run("hippynn_sgd_lr_growth_nan", "hippynn_train.py", "--optimizer sgd --scheduler exp --gamma 2 --lr 1e-3 --epochs 16",
    label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout52", "libho52", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
