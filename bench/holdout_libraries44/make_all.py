"""Make the 44th held-out library corpus (examples/libraries_holdout44): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout44/bin/python bench/holdout_libraries44/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- torchtnt (a TrainUnit logging through its StdoutLogger: "\n[Step 20] train_loss=1.3871 lr=0.0100", and its
# CSVLogger's metrics.csv, the truth)
run("tnt_cls_sgd_val_tqdm_info_6ep", "torchtnt_train.py", "--lr 0.1 --epochs 6 --val --tqdm --info")
run("tnt_cls_adam_log5_8ep", "torchtnt_train.py", "--optimizer adam --lr 0.003 --epochs 8 --log-every 5")
run("tnt_reg_adam_log4_prec6_val_8ep", "torchtnt_train.py",
    "--task reg --optimizer adam --lr 0.01 --epochs 8 --batch 64 --log-every 4 --precision 6 --val")
run("tnt_reg_adam_tqdm_log20_10ep", "torchtnt_train.py",
    "--task reg --optimizer adam --lr 0.005 --epochs 10 --log-every 20 --tqdm")
run("tnt_cls_sgd_decay_prec3_info_12ep", "torchtnt_train.py",
    "--lr 0.2 --gamma 0.8 --epochs 12 --batch 64 --log-every 5 --precision 3 --info")
run("tnt_reg_momentum_lr_high_nan", "torchtnt_train.py",
    "--task reg --optimizer momentum --lr 0.3 --epochs 6 --log-every 4", label="nan", stop=True)
run("tnt_cls_sgd_lr_growth_diverged", "torchtnt_train.py", "--lr 0.05 --gamma 2 --epochs 10 --log-every 10 --info",
    label="diverged", stop=True)
run("tnt_reg_sgd_lr_growth_val_nan", "torchtnt_train.py",
    "--task reg --lr 0.05 --gamma 1.6 --epochs 10 --log-every 5 --val", label="nan", stop=True)

# --- eole (`eole train -config config.yaml`, its logger on stderr: "[2026-12-06 18:44:51,157 INFO] Step 10/  100; acc:
# 10.9; ppl: 22.62; xent: 3.12; ... lr: 1.00e-03; ...", Validation perplexity / accuracy every valid_steps); truth
# from its TensorBoard scalars (progress/xent)
run("eole_rnn_reverse_val_300st", "eole_train.py", "--steps 300 --valid-steps 100 --lr 0.003")
run("eole_rnn_shift_report5_150st", "eole_train.py", "--task shift --steps 150 --report-every 5 --lr 0.005")
run("eole_transformer_noam_val_400st", "eole_train.py",
    "--arch transformer --steps 400 --report-every 20 --lr 2 --decay noam --warmup 100 --valid-steps 200")
run("eole_rnn_sgd_shift_report25_500st", "eole_train.py",
    "--task shift --optim sgd --lr 1 --steps 500 --report-every 25")
run("eole_transformer_adam_b64_val_200st", "eole_train.py",
    "--arch transformer --lr 5e-4 --steps 200 --valid-steps 50 --batch 64")
run("eole_rnn_sgd_lr_high_diverged", "eole_train.py",
    "--optim sgd --lr 50 --max-grad-norm 0 --steps 60 --report-every 2", label="diverged", stop=True)
run("eole_rnn_shift_sgd_lr_high_diverged", "eole_train.py",
    "--task shift --optim sgd --lr 20 --max-grad-norm 0 --steps 150 --report-every 5", label="diverged", stop=True)
run("eole_transformer_sgd_lr_high_nan", "eole_train.py",
    "--arch transformer --optim sgd --lr 30 --max-grad-norm 0 --steps 40 --report-every 1", label="nan", stop=True)
run("eole_rnn_noam_lr_growth_diverged", "eole_train.py",
    "--decay noam --warmup 100000 --lr 200000 --steps 300 --report-every 10 --max-grad-norm 0", label="diverged",
    stop=True)

# --- pytorch-argus (argus.Model.fit with its default_logging on its own logger, stderr: "[2026-12-06 18:53:53,459]
# [INFO]: train - epoch: 0, lr: 0.01, train_loss: 1.380782"; its LoggingToFile file train.txt, scored too; truth from
# its LoggingToCSV file log.csv)
run("argus_cls_sgd_val_logfile_20ep", "argus_fit.py", "--lr 0.1 --epochs 20 --val --logfile")
run("argus_cls_adam_12ep", "argus_fit.py", "--optimizer Adam --lr 0.003 --epochs 12")
run("argus_reg_rmsprop_val_15ep", "argus_fit.py", "--task reg --optimizer RMSprop --lr 0.002 --epochs 15 --val")
run("argus_reg_sgd_decay_logfile_25ep", "argus_fit.py",
    "--task reg --lr 0.02 --gamma 0.9 --epochs 25 --logfile --batch 64")
run("argus_reg_sgd_lr_growth_logfile_nan", "argus_fit.py", "--task reg --lr 0.02 --gamma 2 --epochs 15 --logfile",
    label="nan", stop=True)
run("argus_cls_sgd_lr_growth_val_diverged", "argus_fit.py", "--lr 0.05 --gamma 2 --epochs 10 --val",
    label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout44", "libho44", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
