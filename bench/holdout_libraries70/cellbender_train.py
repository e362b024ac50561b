"""CellBender (cellbender): ``cellbender remove-background`` (its console script's ``main``, called in-process with
its command line) on a small synthetic droplet count matrix made here (an AnnData ``.h5ad``: a few hundred cells of
three types over a sea of empty droplets that hold the ambient profile), on the CPU. Its variational model is trained
by Pyro's SVI with ClippedAdam (``--learning-rate``, a one-cycle schedule over ``--epochs``); CellBender logs through
its ``cellbender`` logger to stderr and its own ``OUT.log`` (``cellbender:remove-background: [epoch 007]  average
training loss: 1234.5678``, and every 5 epochs ``[epoch 010] average test loss: ...``). Truth: the learning curve it
writes into its output ``OUT.h5`` (``metadata/learning_curve_train_elbo``, negated: the printed loss is -ELBO) at
``learning_curve_train_epoch`` (1-based, as printed). Its ``OUT.log`` and ``OUT_metrics.csv`` are kept; no count
matrix, checkpoint, posterior or plot. (A run whose loss turns NaN stops with CellBender's ``NanException`` and writes
no output and no checkpoint: no record to take a truth from, so no such run is made.)"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from h70_truth import keep, seed_all, tol_decimals, write_truth


def make_counts(path: str, cells: int, empties: int, genes: int) -> None:
    """Raw droplet counts: ``cells`` droplets of 3 cell types (thousands of UMIs, each with some ambient RNA) and
    ``empties`` droplets of ambient RNA only (tens of UMIs), barcodes x genes, as an ``.h5ad``."""
    import anndata
    import numpy as np
    import pandas as pd
    import scipy.sparse as sp

    rng = np.random.default_rng(0)
    types = rng.dirichlet(np.full(genes, 0.3), size=3)
    kind = rng.integers(0, 3, cells)
    ambient = types[kind].mean(0) * 0.7 + 0.3 * rng.dirichlet(np.full(genes, 1.0))
    n_cell = rng.lognormal(np.log(3000), 0.4, cells)
    n_empty = rng.lognormal(np.log(40), 0.5, empties)
    X = np.vstack([rng.poisson(n_cell[:, None] * (0.9 * types[kind] + 0.1 * ambient)),
                   rng.poisson(n_empty[:, None] * ambient)])
    order = rng.permutation(len(X))
    alphabet = np.array(list("ACGT"))
    barcodes = ["".join(alphabet[rng.integers(0, 4, 16)]) + "-1" for _ in range(len(X))]
    var = pd.DataFrame({"gene_ids": [f"ENSG{i:011d}" for i in range(genes)],
                        "feature_types": "Gene Expression"}, index=[f"Gene{i}" for i in range(genes)])
    adata = anndata.AnnData(X=sp.csr_matrix(X[order].astype(np.float32)), obs=pd.DataFrame(index=barcodes), var=var)
    adata.write_h5ad(path)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--lr", type=float, default=1e-4, help="--learning-rate (CellBender's default 1e-4)")
    ap.add_argument("--model", default="full", choices=["full", "ambient", "swapping", "naive"])
    ap.add_argument("--z-dim", type=int, default=16)
    ap.add_argument("--z-layers", type=int, default=64)
    ap.add_argument("--training-fraction", type=float, default=0.9)
    ap.add_argument("--cells", type=int, default=300)
    ap.add_argument("--empties", type=int, default=3000)
    ap.add_argument("--genes", type=int, default=200)
    ap.add_argument("--constant-lr", action="store_true", help="--constant-learning-rate (no one-cycle schedule)")
    ap.add_argument("--label", default="healthy")
    ap.add_argument("--should-stop", action="store_true")
    a = ap.parse_args()
    seed_all(0)
    make_counts("raw.h5ad", a.cells, a.empties, a.genes)

    from cellbender.base_cli import main as cellbender

    argv = ["cellbender", "remove-background", "--input", "raw.h5ad", "--output", "out.h5", "--cpu-threads", "1",
            "--expected-cells", str(a.cells), "--total-droplets-included", str(a.cells + a.empties // 2),
            "--epochs", str(a.epochs), "--learning-rate", str(a.lr), "--model", a.model, "--z-dim", str(a.z_dim),
            "--z-layers", str(a.z_layers), "--training-fraction", str(a.training_fraction),
            *(["--constant-learning-rate"] if a.constant_lr else [])]
    sys.argv = argv
    try:
        cellbender()
    except SystemExit:  # the console script's exit (its errors are in the log)
        pass
    import numpy as np
    import tables

    with tables.open_file("out.h5") as f:
        epochs = f.get_node("/metadata/learning_curve_train_epoch").read()
        elbo = f.get_node("/metadata/learning_curve_train_elbo").read()
        test = (f.get_node("/metadata/learning_curve_test_epoch").read(),
                f.get_node("/metadata/learning_curve_test_elbo").read())
    record = "its output `out.h5` (`metadata/learning_curve_train_elbo`, negated, at `learning_curve_train_epoch`)"
    for own in ("out.log", "out_metrics.csv"):
        if Path(own).is_file():
            keep(own)
    from importlib.metadata import version

    write_truth(framework=f"cellbender {version('cellbender')}", settings=vars(a),
                loss_name="average training loss", step_unit="epoch, 1-based (`[epoch 007]`)",
                tolerance=tol_decimals(4), record=record,
                train_loss=[(int(e), -float(v)) for e, v in zip(np.asarray(epochs), np.asarray(elbo), strict=True)],
                eval_loss=[(int(e), -float(v)) for e, v in zip(np.asarray(test[0]), np.asarray(test[1]), strict=True)]
                or None, eval_name="average test loss")


if __name__ == "__main__":
    main()
