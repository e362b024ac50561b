"""Make the eighteenth held-out library corpus (examples/libraries_holdout18): real runs of training libraries nobody
on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout18/bin/python bench/holdout_libraries18/make_all.py [--only NAME ...] [--check] [--manifest-only]

hmmlearn's printed value (the other library's is a loss) is a log-probability that EM maximises: its truths say
``higher_is_better``, and the label check (a healthy run ends below its start) is made on the values negated; the
check that every value is printed is made on the values as they are.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import blind_maker  # noqa: E402

_check = blind_maker.check


def check(name: str, truth: dict, label: str, log: Path) -> list[str]:
    """blind_maker's check, with a maximised value's label checked on its negation."""
    if truth.get("higher_is_better"):
        neg = dict(truth, train_loss=[[s, v if isinstance(v, str) else -v] for s, v in truth["train_loss"]])
        out = [p for p in _check(name, neg, label, Path("/nonexistent"))]
        return out + (blind_maker.unprinted(log, truth) if log.is_file() else [])
    return _check(name, truth, label, log)


blind_maker.check = check

# name: (generator, args, label, should_stop)
RUNS: blind_maker.Runs = {}
run = blind_maker.registry(RUNS)

# --- hmmlearn (its ConvergenceMonitor on stderr: "         3    -981.68836287      +6.34377027")
run("hmm_gaussian_diag_30it", "hmm_fit.py", "--model gaussian --cov diag --iters 30")
run("hmm_gaussian_full_3seq_40it", "hmm_fit.py", "--model gaussian --cov full --seqs 3 --n 150 --iters 40")
run("hmm_gaussian_spherical_4st_25it", "hmm_fit.py", "--model gaussian --cov spherical --states 4 --iters 25")
run("hmm_gaussian_tied_tol1e-4_60it", "hmm_fit.py", "--model gaussian --cov tied --tol 1e-4 --iters 60 --seed 1")
run("hmm_gmm_diag_20it", "hmm_fit.py", "--model gmm --iters 20")
run("hmm_categorical_4seq_tol1e-4", "hmm_fit.py", "--model categorical --tol 1e-4 --iters 50 --seqs 4 --n 200")
run("hmm_poisson_4st_30it", "hmm_fit.py", "--model poisson --states 4 --iters 30")
run("hmm_vgauss_diag_30it", "hmm_fit.py", "--model vgauss --cov diag --iters 30")

# --- scikit-survival (its boosting table on stdout: "         3        1153.0058            0.04s")
run("sksurv_gb_coxph_50est", "sksurv_fit.py", "--lr 0.1 --estimators 50")
run("sksurv_gb_coxph_depth3_v2_40est", "sksurv_fit.py", "--lr 0.2 --depth 3 --estimators 40 --verbose 2")
run("sksurv_gb_squared_60est", "sksurv_fit.py", "--loss squared --lr 0.1 --estimators 60")
run("sksurv_gb_coxph_subsample_100est", "sksurv_fit.py", "--lr 0.05 --subsample 0.8 --estimators 100")
run("sksurv_cw_coxph_80est", "sksurv_fit.py", "--model componentwise --lr 0.1 --estimators 80")
run("sksurv_cw_squared_v2_30est", "sksurv_fit.py",
    "--model componentwise --loss squared --lr 0.3 --estimators 30 --verbose 2")
run("sksurv_gb_coxph_lr5_diverged", "sksurv_fit.py", "--lr 5 --estimators 30", label="diverged", stop=True)
run("sksurv_gb_coxph_depth3_lr4_v2_diverged", "sksurv_fit.py", "--lr 4 --depth 3 --estimators 30 --verbose 2",
    label="diverged", stop=True)
run("sksurv_gb_squared_lr2.1_diverged", "sksurv_fit.py", "--loss squared --lr 2.1 --estimators 25", label="diverged",
    stop=True)
run("sksurv_gb_coxph_subsample_lr6_diverged", "sksurv_fit.py", "--lr 6 --subsample 0.7 --estimators 40",
    label="diverged", stop=True)
run("sksurv_cw_coxph_lr12_diverged", "sksurv_fit.py", "--model componentwise --lr 12 --estimators 40",
    label="diverged", stop=True)

# --- pymde (its logger on stderr: "Dec 06 08:08:37 AM: iteration 010 | distortion 0.380594 | residual norm ...")
run("pymde_neighbors_2d_120it", "pymde_embed.py", "--iters 120 --print-every 10")
run("pymde_neighbors_clusters_3d_p20", "pymde_embed.py",
    "--clusters 4 --dim 3 --neighbors 10 --iters 200 --print-every 20")
run("pymde_distances_2d_p5_80it", "pymde_embed.py", "--problem distances --iters 80 --print-every 5")
run("pymde_neighbors_600pts_p25", "pymde_embed.py", "--n 600 --features 20 --iters 150 --print-every 25")
run("pymde_distances_clusters_p10", "pymde_embed.py",
    "--problem distances --clusters 3 --n 200 --iters 100 --print-every 10")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout18", "libho18", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
