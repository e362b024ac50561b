"""Make the 55th held-out library corpus (examples/libraries_holdout55): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout55/bin/python bench/holdout_libraries55/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- jaxline (`python jaxline_train.py --config=jaxline_train.py --config.X=...`: absl's `I1206 ... train.py:40]
# global_step: 20, {'learning_rate': 0.009999999776482582, 'loss': 0.5208132266998291, 'steps_per_sec': ...}` every
# `log_tensors_interval` steps, after the whole config; its TensorBoard scalars are the truth)
run("jaxline_adam_cls_every20_300steps", "jaxline_train.py", "--steps 300 --every 20")
run("jaxline_sgd_reg_every10_200steps", "jaxline_train.py",
    "--task reg --optimizer sgd --lr 0.01 --steps 200 --every 10")
run("jaxline_momentum_cls_growth_ratios_400steps", "jaxline_train.py",
    "--optimizer momentum --lr 0.01 --growth-ratios 1,2,5 --every 50 --steps 400")
run("jaxline_rmsprop_reg_decay_log_all_sync", "jaxline_train.py",
    "--task reg --optimizer rmsprop --lr 0.003 --lr-growth 0.5 --decay-steps 100 --log-all --sync-log --every 25 "
    "--steps 300")
run("jaxline_adamw_cls_b128_clip_train_eval", "jaxline_train.py",
    "--optimizer adamw --lr 0.005 --batch 128 --clip 1.0 --mode train_eval_multithreaded --every 25 --steps 250")
run("jaxline_adam_lr_growth_diverged", "jaxline_train.py", "--lr 0.01 --lr-growth 2 --decay-steps 25 --steps 300 "
    "--every 25", label="diverged", stop=True)
run("jaxline_sgd_cls_lr_growth_nan", "jaxline_train.py", "--optimizer sgd --lr 0.05 --lr-growth 2 --decay-steps 20 "
    "--steps 300 --every 20", label="nan", stop=True)
run("jaxline_sgd_reg_lr_growth_nan", "jaxline_train.py", "--task reg --optimizer sgd --lr 0.05 --lr-growth 1.5 "
    "--decay-steps 20 --steps 300 --every 20", label="nan", stop=True)

# --- Orbit (tf-models-official: its `SingleTaskTrainer` / `SingleTaskEvaluator` under an `orbit.Controller`, each
# line both absl-logged and printed: `train | step:     20 | steps/sec:   73.3 | output: {'training_loss':
# np.float32(0.8000579)}` at the end of every loop of `steps_per_loop` steps; its TensorBoard scalars are the truth)
run("orbit_adam_cls_loop20_200steps", "orbit_train.py", "--steps 200 --loop 20")
run("orbit_sgd_reg_loop10_300steps", "orbit_train.py", "--task reg --optimizer sgd --lr 0.01 --steps 300 --loop 10")
run("orbit_rmsprop_cls_accuracy_eval50", "orbit_train.py",
    "--optimizer rmsprop --lr 0.003 --metrics 1 --eval-interval 50 --loop 25 --steps 250")
run("orbit_adam_reg_3metrics_eval100", "orbit_train.py",
    "--task reg --metrics 2 --eval-interval 100 --loop 20 --steps 300")
run("orbit_momentum_reg_decay_ckpt_tfwhile_loop50", "orbit_train.py",
    "--task reg --optimizer momentum --lr 0.003 --lr-growth 0.5 --decay-steps 150 --checkpoint-interval 100 "
    "--tf-while --loop 50 --steps 500")
run("orbit_adagrad_cls_b16_loop5_100steps", "orbit_train.py", "--optimizer adagrad --lr 0.1 --batch 16 --loop 5 "
    "--steps 100")
run("orbit_adam_lr_growth_diverged", "orbit_train.py", "--lr 0.01 --lr-growth 2 --decay-steps 25 --steps 300 "
    "--loop 25", label="diverged", stop=True)
run("orbit_rmsprop_lr_growth_diverged", "orbit_train.py", "--optimizer rmsprop --lr 0.003 --lr-growth 1.8 "
    "--decay-steps 25 --steps 350 --loop 25", label="diverged", stop=True)
run("orbit_sgd_cls_lr_growth_nan", "orbit_train.py", "--optimizer sgd --lr 0.05 --lr-growth 2 --decay-steps 20 "
    "--steps 300 --loop 20", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout55", "libho55", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
