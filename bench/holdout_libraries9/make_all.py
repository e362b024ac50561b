"""Make the ninth held-out library corpus (examples/libraries_holdout9): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout9/bin/python bench/holdout_libraries9/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- thinc (its own loop as its docs write it: tqdm over model.ops.multibatch on stderr, wasabi msg.row table on
# stdout: "epoch   step     loss" then "3       100      0.140520")
run("thinc_cls_adam_8ep", "thinc_loop.py", "--epochs 8")
run("thinc_cls_sgd_dev_10ep", "thinc_loop.py", "--optimizer sgd --lr 0.5 --epochs 10 --dev")
run("thinc_reg_adam_dev_8ep", "thinc_loop.py", "--task reg --lr 0.005 --epochs 8 --dev")
run("thinc_reg_radam_every10_5ep", "thinc_loop.py", "--task reg --optimizer radam --lr 0.003 --epochs 5 --every 10")
run("thinc_cls_adam_b64_every4_12ep", "thinc_loop.py", "--lr 0.002 --batch 64 --epochs 12 --every 4")
run("thinc_reg_sgd_lr_growth_nan", "thinc_loop.py",
    "--task reg --optimizer sgd --lr 0.01 --grow 1.05 --epochs 6 --every 10 --clip 0", label="nan", stop=True)
run("thinc_reg_sgd_lr_high_nan", "thinc_loop.py", "--task reg --optimizer sgd --lr 1.5 --epochs 8 --every 5 --clip 0",
    label="nan", stop=True)

# --- neuralforecast (Lightning's bar on stderr: "Epoch 3:  50%|█████     | 1/2 [00:00<00:00, 15.22it/s, v_num=0,
# train_loss_step=2.500, train_loss_epoch=3.160]")
run("nf_mlp_mae_40st", "neuralforecast_fit.py", "--steps 40")
run("nf_nhits_val_60st", "neuralforecast_fit.py", "--model NHITS --steps 60 --val-size 24 --val-check 10")
run("nf_lstm_robust_30st", "neuralforecast_fit.py", "--model LSTM --steps 30 --scaler robust --lr 3e-3")
run("nf_mlp_mse_b4_50st", "neuralforecast_fit.py", "--loss MSE --series 8 --batch 4 --steps 50 --scaler standard")
run("nf_mlp_mse_lr_growth_diverged", "neuralforecast_fit.py", "--loss MSE --gamma 1.4 --steps 40",
    label="diverged", stop=True)
run("nf_mlp_mse_lr_high_diverged", "neuralforecast_fit.py", "--loss MSE --lr 3 --steps 40", label="diverged",
    stop=True)
run("nf_nhits_lr_growth_val_nan", "neuralforecast_fit.py",
    "--model NHITS --loss MSE --gamma 1.5 --steps 40 --val-size 24 --val-check 10", label="nan", stop=True)

# --- pytorch-forecasting (its models under a Lightning Trainer with a CSVLogger: the bar on stderr "Epoch 2:  40%|████
# | 4/10 [00:00<00:00, 21.3it/s, v_num=0, train_loss_step=0.512, val_loss=0.498, train_loss_epoch=0.530]")
run("ptf_nbeats_val_5ep", "ptf_fit.py", "--epochs 5")
run("ptf_deepar_val_every2_6ep", "ptf_fit.py", "--model DeepAR --lr 3e-3 --epochs 6 --every 2")
run("ptf_rnn_noval_clip_every5_4ep", "ptf_fit.py",
    "--model RecurrentNetwork --lr 3e-3 --clip 0.1 --epochs 4 --every 5 --limit 20 --no-val")
run("ptf_nbeats_b32_every3_6ep", "ptf_fit.py", "--batch 32 --limit 15 --every 3 --epochs 6 --lr 2e-3")
run("ptf_deepar_noval_8ep", "ptf_fit.py", "--model DeepAR --lr 1e-2 --epochs 8 --limit 6 --no-val --series 10")
run("ptf_nbeats_lr_high_diverged", "ptf_fit.py", "--lr 0.5", label="diverged", stop=True)
run("ptf_rnn_lr_high_diverged", "ptf_fit.py", "--model RecurrentNetwork --lr 2 --epochs 6", label="diverged",
    stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout9", "libho9", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
