"""Make the eighth held-out library corpus (examples/libraries_holdout8): real runs of training libraries nobody on
the project had used.

    ~/venvs/holdout8/bin/python bench/holdout_libraries8/make_all.py --out examples/libraries_holdout8 \
        [--only NAME ...]

Each run is ``nice -n 10 python GEN.py ARGS > train.log 2>&1`` started as a subprocess in a fresh temporary
working directory: stdout and stderr one file, no TTY, Python's default buffering, 1 CPU thread, seeded. The
generator writes ``truth.json`` (the library's own structured record) and copies the library's own small files into
the run folder (``HOLDOUT_DEST``). The shared maker (bench/blind_maker.py) then checks the truth against the run's
intent (its label), that the truth has at least 5 points and that every truth value is printed in the log within
the tolerance, and writes ``manifest.jsonl`` (one entry per scored file); ``formats.py`` writes ``FORMATS.md``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# name: (generator, args, label, should_stop)
sys.path.insert(0, str(HERE.parent))
import blind_maker  # noqa: E402

RUNS: blind_maker.Runs = {}
run = blind_maker.registry(RUNS)


# --- equinox (the tutorials' loop: print(f"{step=}, train_loss={train_loss.item()}, test_loss=..., ...") on stdout)
run("equinox_cls_adam_test_300st", "equinox_loop.py", "--test")
run("equinox_cls_sgd_p50_600st", "equinox_loop.py", "--optimizer sgd --lr 0.1 --steps 600 --print-every 50")
run("equinox_reg_adamw_p20_400st", "equinox_loop.py",
    "--task reg --optimizer adamw --lr 3e-3 --steps 400 --print-every 20")
run("equinox_reg_momentum_test_p100_1000st", "equinox_loop.py",
    "--task reg --optimizer momentum --lr 0.01 --steps 1000 --print-every 100 --test")
run("equinox_cls_adam_p10_150st", "equinox_loop.py", "--lr 1e-3 --steps 150 --print-every 10 --batch 64")
run("equinox_reg_sgd_lr_growth_nan", "equinox_loop.py",
    "--task reg --optimizer sgd --lr 0.05 --growth 2 --steps 400 --print-every 20", label="nan", stop=True)
run("equinox_cls_momentum_lr_growth_diverged", "equinox_loop.py",
    "--optimizer momentum --lr 0.02 --growth 2.5 --steps 400 --print-every 25", label="diverged", stop=True)
run("equinox_cls_adam_lr_growth_test_diverged", "equinox_loop.py",
    "--lr 3e-3 --growth 3 --steps 400 --print-every 20 --test", label="diverged", stop=True)
run("equinox_reg_momentum_lr_growth_nan", "equinox_loop.py",
    "--task reg --optimizer momentum --lr 0.01 --growth 2.5 --steps 400 --print-every 20", label="nan", stop=True)

# --- dm-haiku (its examples' absl logging on stderr: "I1206 03:16:02.310290 1396... haiku_train.py:97] {'step': 0,
# 'loss': 1.3476183414459229}")
run("haiku_cls_adam_test_400st", "haiku_train.py", "--test")
run("haiku_cls_rmsprop_l25_300st", "haiku_train.py", "--optimizer rmsprop --lr 1e-3 --steps 300 --log-every 25")
run("haiku_reg_adam_l100_1500st", "haiku_train.py", "--task reg --lr 3e-3 --steps 1500 --log-every 100")
run("haiku_reg_momentum_test_l20_400st", "haiku_train.py",
    "--task reg --optimizer momentum --lr 0.01 --steps 400 --log-every 20 --test")
run("haiku_reg_sgd_lr_growth_nan", "haiku_train.py",
    "--task reg --optimizer sgd --lr 0.05 --growth 2 --steps 600 --log-every 20", label="nan", stop=True)
run("haiku_cls_momentum_lr_growth_diverged", "haiku_train.py",
    "--optimizer momentum --lr 0.02 --growth 2.5 --steps 480 --log-every 20", label="diverged", stop=True)
run("haiku_cls_adam_lr_growth_test_diverged", "haiku_train.py",
    "--lr 3e-3 --growth 3 --steps 400 --log-every 20 --test", label="diverged", stop=True)
run("haiku_reg_rmsprop_lr_growth_diverged", "haiku_train.py",
    "--task reg --optimizer rmsprop --lr 1e-3 --growth 3 --steps 480 --log-every 20", label="diverged", stop=True)

# --- pyswarms (its reporter's tqdm bar on stderr, the postfix redrawn every iteration: "\rpyswarms.single.global_best:
#   0%|          |0/300, best_cost=30.7", its logger's INFO lines and its own report.log)
run("pyswarms_global_sphere_100it", "pyswarms_optimize.py", "")
run("pyswarms_global_rastrigin_300it", "pyswarms_optimize.py", "--objective rastrigin --iters 300")
run("pyswarms_local_rastrigin_200it", "pyswarms_optimize.py", "--objective rastrigin --topology local --iters 200")
run("pyswarms_global_linreg_150it", "pyswarms_optimize.py", "--objective linreg --iters 150 --particles 50")
run("pyswarms_local_rosenbrock_w07_250it", "pyswarms_optimize.py",
    "--objective rosenbrock --topology local --dims 4 --w 0.7 --c1 1.0 --c2 1.0 --iters 250")
run("pyswarms_global_linreg_d8_60it", "pyswarms_optimize.py",
    "--objective linreg --dims 8 --particles 40 --iters 60 --n 5000 --w 0.6")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout8", "libho8", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
