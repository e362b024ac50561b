"""pmdarima: an ARIMA / SARIMAX model fitted to a synthetic series the way its users see the fit: optionally the
stepwise ``auto_arima(..., trace=True)`` search first (its ``ARIMA(2,1,2)(0,0,0)[0] intercept   : AIC=997.871,
Time=0.02 sec`` lines, ``Best model:``), then the chosen or given order fitted with ``pm.ARIMA(order,
seasonal_order, method="lbfgs", maxiter).fit(y, X, disp=1)``, which lets SciPy's L-BFGS-B print each iteration of
the fit (``At iterate    3    f=  2.46423D+00    |proj g|=  1.10304D-02``, Fortran ``D`` exponents, 6 significant
digits, its own banner and closing table). The loss is the fit's objective, the negative log-likelihood per
observation. Truth: statsmodels' own ``callback`` record of the fit (the parameters after each iteration, handed to
the callback by the fit), each read back as the objective by the model's own ``loglike`` (iterate 0: the fit's
start parameters)."""

from __future__ import annotations

import argparse

from h93_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--order", default="2,1,1")
ap.add_argument("--seasonal", default="", help="P,D,Q,m")
ap.add_argument("--n", type=int, default=200)
ap.add_argument("--scale", type=float, default=3.0)
ap.add_argument("--maxiter", type=int, default=50)
ap.add_argument("--exog", action="store_true", help="two exogenous regressors (SARIMAX)")
ap.add_argument("--auto", action="store_true", help="auto_arima's stepwise search (trace=True) picks the order")
ap.add_argument("--no-intercept", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import pmdarima as pm  # noqa: E402

rng = np.random.default_rng(0)
e = rng.normal(size=a.n + 50) * a.scale
x = e.copy()
for t in range(2, len(x)):  # an ARMA(2,1) part, then integrated
    x[t] = 0.5 * x[t - 1] - 0.2 * x[t - 2] + e[t] + 0.4 * e[t - 1]
y = np.cumsum(x[50:]) + 100.0
X = None
if a.exog:
    X = rng.normal(size=(a.n, 2))
    y = y + X @ np.array([2.0, -1.5]) * a.scale
seasonal = (0, 0, 0, 0)
if a.seasonal:
    P, D, Q, m = (int(v) for v in a.seasonal.split(","))
    seasonal = (P, D, Q, m)
    y = y + 4 * a.scale * np.sin(2 * np.pi * np.arange(a.n) / m)
order = tuple(int(v) for v in a.order.split(","))
if a.auto:
    found = pm.auto_arima(y, X=X, trace=True, stepwise=True, seasonal=bool(a.seasonal), m=seasonal[3] or 1,
                          error_action="ignore", suppress_warnings=True, max_p=3, max_q=3, max_P=1, max_Q=1)
    order, seasonal = found.order, found.seasonal_order

seen: list[np.ndarray] = []
model = pm.ARIMA(order=order, seasonal_order=seasonal, method="lbfgs", maxiter=a.maxiter,
                 with_intercept=not a.no_intercept, suppress_warnings=True)
model.fit(y, X=X, disp=1, callback=lambda p: seen.append(np.array(p)))
res = model.arima_res_
print(model.summary())
sm = res.model
start = sm.start_params
nobs = sm.nobs


def objective(p: np.ndarray) -> float:
    """The fit's own objective at the optimizer's (untransformed) parameters: -loglike / nobs."""
    return float(-sm.loglike(p, transformed=False) / nobs)


untrans = sm.untransform_params(start)
losses = [objective(untrans)] + [objective(p) for p in seen]
write_truth(framework=f"pmdarima {pm.__version__}", settings={**vars(a), "fitted_order": list(order),
                                                               "fitted_seasonal_order": list(seasonal)},
            loss_name="f (negative log-likelihood per observation)",
            step_unit="L-BFGS-B iteration, 0-based (`At iterate    3`)", tolerance=tol_sig(6),
            record="statsmodels' `callback` record of the fit (parameters after each iteration), read back as the "
                   "fit's objective `-loglike / nobs` by the model's own `loglike`; iterate 0 at the start parameters",
            train_loss=list(enumerate(losses)), fit_iterations=int(res.mle_retvals["iterations"]),
            converged=bool(res.mle_retvals["converged"]))
