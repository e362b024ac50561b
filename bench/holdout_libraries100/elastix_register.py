"""itk-elastix: elastix's image registration from Python (``itk.elastix_registration_method``) of two synthetic 2-D
images (Gaussian blobs and a ring; the moving one shifted, turned, scaled or smoothly warped), with one of elastix's
default parameter maps (``translation``, ``rigid``, ``affine``, ``bspline``) and its metric, optimizer, number of
resolutions and iterations set as its users set them. ``log_to_console=True`` (the documented switch; without it
nothing is printed): elastix's own console log, its parameter warnings and, per resolution, its iteration table
``1:ItNr 2:Metric 3a:Time 3b:StepSize 4:||Gradient|| Time[ms]`` (values ``%.6f``). ``WriteIterationInfo`` asks
elastix for the same table as a file per resolution (``IterationInfo.0.R0.txt``): the truth is read from those files
(the metric after each iteration, counted on across resolutions, 0-based). A registration that ends in an elastix
error (samples mapped out of the moving image) keeps what its files hold."""

from __future__ import annotations

import argparse
import importlib.metadata
import sys
import tempfile
from pathlib import Path

from h100_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--transform", default="translation", choices=["translation", "rigid", "affine", "bspline"])
ap.add_argument("--metric", default="AdvancedMeanSquares")
ap.add_argument("--optimizer", default="")
ap.add_argument("--iters", type=int, default=60)
ap.add_argument("--res", type=int, default=1)
ap.add_argument("--sp-a", default="")
ap.add_argument("--step", default="")
ap.add_argument("--samples", type=int, default=0)
ap.add_argument("--sampler", default="")
ap.add_argument("--size", type=int, default=96)
ap.add_argument("--grid", default="")
ap.add_argument("--moved", default="shift", choices=["shift", "turn", "scale", "warp"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import itk  # noqa: E402
import numpy as np  # noqa: E402

n = a.size
yy, xx = np.mgrid[0:n, 0:n].astype("float64")
c = n / 2.0


def scene(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    s = n / 96.0
    r = np.hypot(x - c - 0.1 * n, y - c + 0.05 * n)
    return (100 * np.exp(-((x - c) ** 2 + (y - c) ** 2) / (2 * (14 * s) ** 2))
            + 60 * np.exp(-((x - c - 0.15 * n) ** 2 + (y - c + 0.1 * n) ** 2) / (2 * (5 * s) ** 2))
            + 40 * np.exp(-((r - 0.28 * n) ** 2) / (2 * (3 * s) ** 2)))


fixed = scene(xx, yy)
if a.moved == "shift":
    xm, ym = xx - 0.05 * n, yy + 0.035 * n
elif a.moved == "turn":
    t = np.deg2rad(8.0)
    xm = c + np.cos(t) * (xx - c) - np.sin(t) * (yy - c) - 0.03 * n
    ym = c + np.sin(t) * (xx - c) + np.cos(t) * (yy - c) + 0.02 * n
elif a.moved == "scale":
    xm, ym = c + 1.08 * (xx - c) + 0.04 * (yy - c) - 0.02 * n, c + 0.95 * (yy - c) + 0.03 * n
else:
    xm = xx + 0.03 * n * np.sin(2 * np.pi * yy / n)
    ym = yy + 0.025 * n * np.cos(2 * np.pi * xx / n)
moving = scene(xm, ym)
fixed_img = itk.image_view_from_array(fixed.astype("float32"))
moving_img = itk.image_view_from_array(moving.astype("float32"))

po = itk.ParameterObject.New()
p = po.GetDefaultParameterMap(a.transform, a.res)
p["Metric"] = [a.metric]
p["MaximumNumberOfIterations"] = [str(a.iters)]
p["WriteIterationInfo"] = ["true"]
p["WriteResultImage"] = ["false"]
if a.optimizer:
    p["Optimizer"] = [a.optimizer]
if a.sp_a:
    p["SP_a"] = [a.sp_a]
if a.step:
    p["MaximumStepLength"] = [a.step]
if a.samples:
    p["NumberOfSpatialSamples"] = [str(a.samples)]
if a.sampler:
    p["ImageSampler"] = [a.sampler]
if a.grid:
    p["FinalGridSpacingInPhysicalUnits"] = [a.grid]
po.AddParameterMap(p)

out = Path(tempfile.mkdtemp(prefix="elastix-out-", dir="."))
error = None
try:
    itk.elastix_registration_method(fixed_img, moving_img, parameter_object=po, log_to_console=True,
                                    output_directory=str(out), number_of_threads=1)
except RuntimeError as e:  # an elastix error: a real outcome, kept
    error = e

series: list[tuple[int, float]] = []
for r in range(a.res):
    f = out / f"IterationInfo.0.R{r}.txt"
    if not f.is_file():
        break
    head, *rows = [ln.split("\t") for ln in f.read_text().splitlines() if ln.strip()]
    col = head.index("2:Metric")  # the optimizer decides the columns (LBFGS puts its line search first)
    series += [(len(series) + i, float(row[col])) for i, row in enumerate(rows)]

write_truth(framework=f"itk-elastix {importlib.metadata.version('itk-elastix')}", settings=vars(a), loss_name="Metric",
            step_unit="iteration, 0-based, counted on across resolutions (the table's `ItNr` restarts at 0 under "
                      "each `Resolution: r`)",
            tolerance=tol_decimals(6),
            record="elastix's own iteration files `IterationInfo.0.R<r>.txt` (`WriteIterationInfo`), the `2:Metric` "
                   "column, resolution after resolution",
            train_loss=series, elastix_ended_in_error=error is not None)
if error is not None:
    print(error, file=sys.stderr)
    raise SystemExit(1)
