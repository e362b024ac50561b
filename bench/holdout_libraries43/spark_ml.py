"""Apache Spark MLlib (pyspark): one of its iteratively fitted estimators (``LogisticRegression``,
``LinearRegression(solver="l-bfgs")``, ``MultilayerPerceptronClassifier``) fitted on a small synthetic DataFrame in a
local session (``master("local[1]")``, the UI off), with the loggers of its optimizer and of the ML instrumentation
set to INFO (``Configurator.setLevel("breeze.optimize" / "org.apache.spark.ml" / "org.apache.spark.mllib", INFO)``
through the session's JVM: ``sc.setLogLevel`` leaves them out), so that the fit logs its progress as a user who
wants to see it does. The JVM's log4j lines go to stderr: Spark's start-up (``WARN Utils: Your hostname ...``,
``Setting default log level to "WARN".``), its console progress bar (``[Stage 0:>   (0 + 1) / 1]`` redrawn with
``\\r``), the instrumentation (``INFO Instrumentation: [c28229a8] {"regParam":0.01,"maxIter":15}``), then per L-BFGS
iteration ``26/12/06 18:48:53 INFO LBFGS: Step Size: 1.000`` / ``INFO LBFGS: Val and Grad Norm: 0.315861 (rel: 0.242)
0.0807555`` (``OWLQN`` with an L1 part; ``%.6g``) and ``INFO LBFGS: Converged because ...``; with the gradient-descent
solver only ``INFO GradientDescent: GradientDescent.runMiniBatchSGD finished. Last 10 stochastic losses 0.69, ...``.
Truth: the model's training summary, ``model.summary.objectiveHistory`` (``model.summary()`` for the MLP; the
objective before the first iteration, not logged, then one value per iteration), at the iteration, 1-based (the
order of the ``Val and Grad Norm`` lines;
for gradient descent the last 10 iterations, those the log prints)."""

from __future__ import annotations

import argparse

from h43_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="logreg", choices=["logreg", "linreg", "mlp"])
ap.add_argument("--iters", type=int, default=20)
ap.add_argument("--reg", type=float, default=0.01)
ap.add_argument("--elastic", type=float, default=0.0)
ap.add_argument("--solver", default="l-bfgs", choices=["l-bfgs", "gd"])
ap.add_argument("--step", type=float, default=0.03)
ap.add_argument("--n", type=int, default=500)
ap.add_argument("--tol", type=float, default=1e-6)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import pyspark  # noqa: E402
from pyspark.ml.classification import LogisticRegression, MultilayerPerceptronClassifier  # noqa: E402
from pyspark.ml.linalg import Vectors  # noqa: E402
from pyspark.ml.regression import LinearRegression  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402

spark = (SparkSession.builder.master("local[1]").appName(f"holdout43-{a.model}").config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", "1").getOrCreate())
jvm = spark.sparkContext._jvm
for logger in ("breeze.optimize", "org.apache.spark.ml", "org.apache.spark.mllib"):
    jvm.org.apache.logging.log4j.core.config.Configurator.setLevel(logger, jvm.org.apache.logging.log4j.Level.INFO)

rng = np.random.RandomState(0)
X = rng.randn(a.n, 6)
if a.model == "linreg":
    y = X @ np.array([1.5, -2.0, 0.5, 0.0, 3.0, -1.0]) + 0.3 * rng.randn(a.n) + 4
elif a.model == "logreg":
    y = (X[:, 0] + 0.5 * X[:, 1] - X[:, 2] * X[:, 3] + 0.5 * rng.randn(a.n) > 0).astype(float)
else:
    y = np.digitize(X[:, 0] + X[:, 1] * X[:, 2] - 0.5 * X[:, 3], [-0.7, 0.7]).astype(float)
df = spark.createDataFrame([(float(t), Vectors.dense(x)) for x, t in zip(X, y, strict=True)], ["label", "features"])

if a.model == "logreg":
    est = LogisticRegression(maxIter=a.iters, regParam=a.reg, elasticNetParam=a.elastic, tol=a.tol)
elif a.model == "linreg":
    est = LinearRegression(maxIter=a.iters, regParam=a.reg, elasticNetParam=a.elastic, solver="l-bfgs", tol=a.tol)
else:
    est = MultilayerPerceptronClassifier(layers=[6, 16, 3], maxIter=a.iters, solver=a.solver, stepSize=a.step,
                                         tol=a.tol, seed=0, blockSize=64)
model = est.fit(df)
summary = model.summary() if callable(model.summary) else model.summary  # a method on the MLP's model
hist = list(summary.objectiveHistory)
spark.stop()

if a.solver == "gd" and a.model == "mlp":
    series = [(i, v) for i, v in enumerate(hist)][-10:]
    step_unit = "iteration, 0-based as the history counts it (only the last 10, the ones GradientDescent logs)"
else:
    series = [(i, v) for i, v in enumerate(hist)][1:]
    step_unit = "iteration, 1-based (the order of the `Val and Grad Norm` lines)"
write_truth(framework=f"pyspark {pyspark.__version__}", settings=vars(a), loss_name="Val (objective)",
            step_unit=step_unit, tolerance=tol_sig(6),
            record="the model's training summary, `model.summary.objectiveHistory`",
            train_loss=[(s, float(v)) for s, v in series])
