"""scikit-learn MLPClassifier / MLPRegressor with ``verbose=True`` (prints ``Iteration N, loss = X``).

Truth: ``loss_curve_`` (one value per iteration; steps = iteration, 1-based as printed).
Settings: model (classifier/regressor), max_iter, learning_rate_init, solver, early_stopping, batch_size.
"""

from __future__ import annotations

from _common import parse_args, seed_all, write_truth

out, st, work = parse_args()
seed_all(st.get("seed", 0))

import numpy as np  # noqa: E402
from sklearn.datasets import make_classification, make_regression  # noqa: E402
from sklearn.neural_network import MLPClassifier, MLPRegressor  # noqa: E402

kind = st.get("model", "classifier")
kw = dict(hidden_layer_sizes=(32,), max_iter=st.get("max_iter", 60), learning_rate_init=st.get("learning_rate_init",
          1e-3), solver=st.get("solver", "adam"), early_stopping=st.get("early_stopping", False), verbose=True,
          random_state=0, batch_size=st.get("batch_size", 64), tol=st.get("tol", 1e-4),
          n_iter_no_change=st.get("n_iter_no_change", 10))
if kind == "classifier":
    x, y = make_classification(n_samples=1000, n_features=20, n_informative=8, random_state=0)
    model = MLPClassifier(**kw)
else:
    x, y = make_regression(n_samples=1000, n_features=20, noise=5.0, random_state=0)
    y = y / np.std(y)
    model = MLPRegressor(**kw)
try:
    model.fit(x, y)
except ValueError as e:  # a diverged fit: sklearn refuses non-finite weights; the user sees the traceback
    print(f"fit failed: {e}")
    import traceback

    traceback.print_exc()
curve = list(getattr(model, "loss_curve_", []))
write_truth(out, framework="scikit-learn", settings=st, train_loss=list(enumerate(curve, start=1)),
            loss_name="loss", step_unit="iteration (1-based, as 'Iteration N' prints it)",
            tolerance={"rel": 1e-3, "abs": 5e-9}, record=f"MLP{kind.title()}.loss_curve_")
