"""Make the 45th held-out library corpus (examples/libraries_holdout45): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout45/bin/python bench/holdout_libraries45/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- gcastle (GOLEM through the root logger gcastle configures, on stderr: "2026-12-06 18:41:34,977 -
# .../golem.py[line:203] - INFO: [Iter 100] score=18.127, likelihood=18.120, h=5.7e-04")
run("gcastle_golem_nv_2000it_every100", "gcastle_golem.py", "--iters 2000 --every 100")
run("gcastle_golem_ev_3000it_every200", "gcastle_golem.py", "--ev --iters 3000 --every 200")
run("gcastle_golem_nv_lr5e-3_exp_every50", "gcastle_golem.py", "--lr 5e-3 --iters 1000 --every 50 --noise exp")
run("gcastle_golem_nv_8nodes_every25", "gcastle_golem.py", "--nodes 8 --edges 12 --n 500 --iters 600 --every 25")
run("gcastle_golem_ev_lr1e-2_every10", "gcastle_golem.py", "--ev --lr 1e-2 --iters 300 --every 10")
run("gcastle_golem_nv_lr_high_diverged", "gcastle_golem.py", "--lr 5 --iters 300 --every 20", label="diverged",
    stop=True)
run("gcastle_golem_nv_lr2_oscillating_diverged", "gcastle_golem.py", "--lr 2 --iters 200 --every 10",
    label="diverged", stop=True)
run("gcastle_golem_ev_lr_high_diverged", "gcastle_golem.py", "--ev --lr 3 --iters 200 --every 20", label="diverged",
    stop=True)
run("gcastle_golem_nv_8nodes_lr_high_diverged", "gcastle_golem.py",
    "--nodes 8 --edges 12 --n 500 --lr 8 --iters 200 --every 20", label="diverged", stop=True)
run("gcastle_golem_nv_lr_high_nan", "gcastle_golem.py", "--lr 20 --iters 60 --every 2", label="nan", stop=True)
run("gcastle_golem_ev_lr_high_nan", "gcastle_golem.py", "--ev --lr 50 --iters 100 --every 5", label="nan", stop=True)

# --- contextualized-topic-models (a tqdm bar on stderr whose description is redrawn each epoch: "\rEpoch: [3/20]\t Seen
# Samples: [1536/10240]\tTrain Loss: 314.40245056152344\tTime: 0:00:00.025037: : 3it [00:00, 34.28it/s]")
run("ctm_combined_20ep", "ctm_fit.py", "--epochs 20")
run("ctm_zeroshot_batch32_15ep", "ctm_fit.py", "--model zeroshot --batch 32 --epochs 15")
run("ctm_combined_val_verbose_12ep", "ctm_fit.py", "--val --verbose --epochs 12")
run("ctm_combined_sgd_25ep", "ctm_fit.py", "--solver sgd --lr 0.01 --epochs 25 --topics 4")
run("ctm_zeroshot_lda_val_15ep", "ctm_fit.py", "--model zeroshot --model-type LDA --val --epochs 15 --docs 768")
run("ctm_combined_verbose_lr1e-2_30ep", "ctm_fit.py", "--verbose --lr 1e-2 --epochs 30 --topics 8 --batch 128")


# --- scikit-opt (its particle swarm's verbose print on stdout: "Iter: 12, Best fit: [0.02016008] at [-0.02 -0.13]")
run("sko_pso_sphere_3d_60it", "sko_pso.py", "--func sphere --iters 60")
run("sko_pso_rastrigin_5d_pop60_100it", "sko_pso.py", "--func rastrigin --dim 5 --pop 60 --iters 100")
run("sko_pso_rosenbrock_4d_w06_80it", "sko_pso.py",
    "--func rosenbrock --dim 4 --w 0.6 --c1 1.0 --c2 1.0 --iters 80 --bound 2")
run("sko_pso_schaffer_pop20_50it", "sko_pso.py", "--func schaffer --pop 20 --iters 50 --bound 10")
run("sko_pso_griewank_constrained_70it", "sko_pso.py", "--func griewank --dim 3 --constraint --iters 70 --bound 50")

def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout45", "libho45", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
