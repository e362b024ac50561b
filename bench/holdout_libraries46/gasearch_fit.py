"""sklearn-genetic-opt: ``GASearchCV`` tuning a scikit-learn regressor's hyperparameters on a small synthetic table,
``verbose=True`` (its default), as its tutorial shows. Its DEAP logbook is printed on stdout, one row a generation:
a header ``gen nevals fitness fitness_std fitness_max fitness_min`` then rows like ``3 10 -0.274181 0.0453 ...``
(tab separated, the values at DEAP's default float formatting, 6 significant digits). The fitness is the
cross-validated score, maximised (here ``neg_mean_squared_error``: minus the MSE, so it rises toward 0 when the
search goes well). Truth: the search's ``history['fitness']`` (the population's mean fitness, the ``fitness`` column),
at the logbook's ``gen`` (0 = the initial population)."""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from h46_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="ridge", choices=["ridge", "tree", "sgd", "knn"])
ap.add_argument("--algorithm", default="eaMuPlusLambda", choices=["eaSimple", "eaMuPlusLambda", "eaMuCommaLambda"])
ap.add_argument("--population", type=int, default=10)
ap.add_argument("--generations", type=int, default=10)
ap.add_argument("--crossover", type=float, default=0.8)
ap.add_argument("--mutation", type=float, default=0.1)
ap.add_argument("--cv", type=int, default=3)
ap.add_argument("--eta-low", type=float, default=1e-4)
ap.add_argument("--eta-high", type=float, default=1e-1)
ap.add_argument("--n", type=int, default=200)
ap.add_argument("--alpha-high", type=float, default=1e3, help="ridge: the top of its alpha range")
ap.add_argument("--intercept", default="both", choices=["both", "yes"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)
warnings.simplefilter("ignore")  # scikit-learn's ConvergenceWarnings, one per fit

import sklearn_genetic  # noqa: E402
from sklearn.linear_model import Ridge, SGDRegressor  # noqa: E402
from sklearn.neighbors import KNeighborsRegressor  # noqa: E402
from sklearn.tree import DecisionTreeRegressor  # noqa: E402
from sklearn_genetic import GASearchCV  # noqa: E402
from sklearn_genetic.space import Categorical, Continuous, Integer  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 6))
y = X[:, :4] @ np.array([1.5, -2.0, 0.7, 1.0]) + np.sin(2 * X[:, 4]) + rng.normal(scale=0.3, size=a.n)
if a.model == "ridge":
    est, grid = Ridge(), {"alpha": Continuous(1e-9, a.alpha_high, distribution="log-uniform"),
                          "fit_intercept": Categorical([True, False] if a.intercept == "both" else [True])}
elif a.model == "tree":
    est, grid = DecisionTreeRegressor(random_state=0), {"max_depth": Integer(1, 12),
                                                        "min_samples_leaf": Integer(1, 40)}
elif a.model == "knn":
    est, grid = KNeighborsRegressor(), {"n_neighbors": Integer(1, 60), "weights": Categorical(["uniform", "distance"])}
else:
    est = SGDRegressor(learning_rate="constant", max_iter=50, tol=None, random_state=0)
    grid = {"eta0": Continuous(a.eta_low, a.eta_high, distribution="log-uniform"),
            "alpha": Continuous(1e-6, 1e-1, distribution="log-uniform")}

search = GASearchCV(est, cv=a.cv, scoring="neg_mean_squared_error", population_size=a.population,
                    generations=a.generations, crossover_probability=a.crossover, mutation_probability=a.mutation,
                    param_grid=grid, algorithm=a.algorithm, n_jobs=1, verbose=True)
search.fit(X, y)
print("best params:", search.best_params_)

hist = search.history
write_truth(framework=f"sklearn-genetic-opt {sklearn_genetic.__version__}", settings=vars(a),
            loss_name="fitness (the population's mean CV score, maximised: minus the MSE)",
            step_unit="generation, 0 = the initial population (the logbook's gen)", tolerance=tol_sig(6),
            record="GASearchCV.history['gen'] / ['fitness'] (its DEAP logbook)",
            train_loss=list(zip(hist["gen"], hist["fitness"], strict=True)))
