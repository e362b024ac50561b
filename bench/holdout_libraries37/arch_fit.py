"""arch: a volatility model (``arch_model(y, mean, vol, p, q, dist)``: GARCH, GJR-GARCH, EGARCH; normal, Student's t
or skewed t errors) fitted to a synthetic return series with ``fit(update_freq=N)``, as its documentation shows. Its
optimizer's callback prints every ``update_freq`` iterations on stdout
``Iteration:      5,   Func. Count:     41,   Neg. LLF: 1245.556431856312`` (the value in full), then SciPy's SLSQP
summary (``Optimization terminated successfully    (Exit mode 0)`` / ``Current function value: ...`` /
``Iterations: 14``). Truth: the library's own iteration record, ``arch.univariate.base._callback_info`` (``iter`` and
``llf``, the negative log-likelihood it prints), read at each call of its ``_callback``; step: the iteration,
1-based. The results' ``summary()`` is printed after the fit."""

from __future__ import annotations

import argparse

import numpy as np
from h37_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--vol", default="GARCH", choices=["GARCH", "EGARCH", "GJR"])
ap.add_argument("--dist", default="normal", choices=["normal", "t", "skewt"])
ap.add_argument("--mean", default="Constant", choices=["Constant", "Zero", "AR"])
ap.add_argument("--freq", type=int, default=1, help="fit(update_freq=...)")
ap.add_argument("--n", type=int, default=1000)
ap.add_argument("--scale", type=float, default=1.0, help="the returns' scale (percent returns at 1)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import arch  # noqa: E402
import arch.univariate.base as base  # noqa: E402
from arch import arch_model  # noqa: E402

# a GARCH(1,1) series with t(6) shocks
rng = np.random.default_rng(0)
eps = rng.standard_t(6, size=a.n) / np.sqrt(1.5)
y = np.empty(a.n)
s2 = 1.0
for i in range(a.n):
    y[i] = 0.05 + np.sqrt(s2) * eps[i]
    s2 = 0.05 + 0.08 * (y[i] - 0.05) ** 2 + 0.9 * s2
y *= a.scale

record: list[tuple[int, float]] = []
_callback = base._callback


def _recorded(parameters):
    info = base._callback_info
    record.append((info["iter"] + 1, info["llf"]))
    _callback(parameters)


base._callback = _recorded
lags = 1 if a.mean == "AR" else 0
gjr = a.vol == "GJR"  # GJR-GARCH: arch's GARCH with an asymmetric term (o=1)
am = arch_model(y, mean=a.mean, lags=lags, vol="GARCH" if gjr else a.vol, p=1, o=1 if gjr else 0, q=1, dist=a.dist)
res = am.fit(update_freq=a.freq)
print(res.summary())

printed = [(i, v) for i, v in record if i % a.freq == 0]
write_truth(framework=f"arch {arch.__version__}", settings=vars(a), loss_name="Neg. LLF",
            step_unit="iteration, 1-based (`Iteration: N`)", tolerance=tol_sig(15),
            record="arch's own iteration record `arch.univariate.base._callback_info` (`iter`, `llf`) at each call of "
                   "its `_callback`",
            train_loss=printed)
