"""What examples/libraries_holdout93 showed (pmdarima 2.0.4 over statsmodels' SARIMAX, fitted by scipy's L-BFGS-B
with ``disp``, fixfortran). The loss is in the Fortran L-BFGS-B iteration lines (scipy's, shown by statsmodels, GPy,
scikit-learn's GaussianProcess, pmdarima): ``At iterate    3    f=  2.46423D+00    |proj g|=  1.10304D-02``, one per
iteration (0-based), after a ``RUNNING THE L-BFGS-B CODE`` / ``N = 6  M = 10`` / ``At X0 ...`` preamble, ending with
a ``Tit Tnf ...`` table and ``F = 2.535...``. Shapes: a Fortran double-precision exponent (``2.46423D+00``, ``1.0d-02``)
is a number as ``2.46423e+00`` (``lines.fortran_exponents``; a ``D`` inside a word is none); ``At iterate N  f= v``
is a record at step N whose one-letter ``f`` is the objective (``Dialect.iteration_objective_names``); a statistics
summary's coefficient table (statsmodels' ``coef  std err  z  P>|z|  [0.025  0.975]`` over ``ar.L1``, ``ma.L1``,
``sigma2``) is no series (``Dialect.coefficient_headers``); auto_arima's trace of candidate models never displaces
the iteration records as the loss. Each read whole and in pieces."""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import pytest
from training_check.tools.parsers.lines import fortran_exponents

from .test_read_misses import _live, assert_at_truth, corpus_runs, primary_names, whole_as_live

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout93"
sys.path.insert(0, str(REPO / "bench"))

SUMMARY = """                               SARIMAX Results
==============================================================================
Dep. Variable:                      y   No. Observations:                  200
Model:               SARIMAX(1, 1, 3)   Log Likelihood                -507.046
Date:                Mon, 07 Dec 2026   AIC                           1026.091
Covariance Type:                  opg
==============================================================================
                 coef    std err          z      P>|z|      [0.025      0.975]
------------------------------------------------------------------------------
intercept     -0.0197      0.021     -0.922      0.357      -0.062       0.022
ar.L1          0.9189      0.055     16.835      0.000       0.812       1.026
ma.L1         -0.0866      2.987     -0.029      0.977      -5.942       5.769
ma.L2         -0.6066      2.732     -0.222      0.824      -5.962       4.748
ma.L3         -0.3066      0.911     -0.336      0.737      -2.092       1.479
sigma2         9.4241     27.988      0.337      0.736     -45.431      64.279
===================================================================================
Ljung-Box (L1) (Q):                   0.03   Jarque-Bera (JB):                 0.41
===================================================================================
"""

TRACE = """Performing stepwise search to minimize aic
 ARIMA(2,1,2)(0,0,0)[0] intercept   : AIC=1030.672, Time=0.08 sec
 ARIMA(0,1,0)(0,0,0)[0] intercept   : AIC=1145.913, Time=0.01 sec
 ARIMA(1,1,3)(0,0,0)[0] intercept   : AIC=inf, Time=0.21 sec
 ARIMA(0,1,2)(0,0,0)[0]             : AIC=1026.241, Time=0.02 sec

Best model:  ARIMA(0,1,2)(0,0,0)[0]
Total fit time: 0.791 seconds
"""


def _d(v: float, digits: int, letter: str) -> str:
    """``v`` as Fortran prints a double (``2.46423D+00``)."""
    m, e = f"{v:.{digits}e}".split("e")
    return f"{m}{letter}{int(e):+03d}"


def lbfgsb_log(n: int, seed: int = 0, digits: int = 5, letter: str = "D", blank: bool = True, n_vars: int = 6,
               start: float = 2.6, end: str = "STOP: TOTAL NO. of ITERATIONS REACHED LIMIT", pre: str = "",
               post: str = "") -> tuple[str, list[tuple[int, float]]]:
    """scipy's L-BFGS-B ``disp`` output of ``n`` iterations (0-based), behind ``pre`` and before ``post``; the truth:
    ``f`` at each iteration as printed."""
    rng = random.Random(seed)
    out = [pre, " This problem is unconstrained.\nRUNNING THE L-BFGS-B CODE\n\n           * * *\n\n",
           f"Machine precision = 2.220{letter}-16\n N =            {n_vars}     M =           10\n\n",
           "At X0         0 variables are exactly at the bounds\n\n"]
    truth = []
    f = start
    for i in range(n):
        f = f * (1 - 0.02 * rng.random()) + 1e-3
        text = _d(f, digits, letter)
        truth.append((i, float(text.replace(letter, "e"))))
        out.append(f"At iterate {i:4d}    f=  {text}    |proj g|=  {_d(rng.random() * 0.1, digits, letter)}\n")
        if blank:
            out.append("\n")
    out.append("           * * *\n\nTit   = total number of iterations\nTnf   = total number of function "
               "evaluations\nF     = final function value\n\n           * * *\n\n")
    out.append(f"   N    Tit     Tnf  Tnint  Skip  Nact     Projg        F\n    {n_vars}     {n}     {n + 9}"
               f"      1     0     0   {_d(0.0011, 3, letter)}   {_d(f, 3, letter)}\n")
    out.append(f"  F =   {f:.16f}     \n\n{end}                 \n")
    out.append(post)
    return "".join(out), truth


def test_a_fortran_exponent_is_a_number_and_a_d_in_a_word_is_none():
    assert fortran_exponents(b"f=  2.46423D+00  g= 1.0d-02 x 3.5D5") == b"f=  2.46423e+00  g= 1.0e-02 x 3.5e5"
    for keep in (b"v1.2d-3", b"x_0.5D+1", b"model 3D-2", b"1.5D+00a", b"1.5D+00.3", b"a.5D+00", b"2.0Dx", b"D+01",
                 b"end-to-end 1.d-3"):
        assert fortran_exponents(keep) == keep, keep
    assert fortran_exponents(b"") == b""
    long = b"9" * 100 + b".5D+01"
    assert fortran_exponents(long) == b"9" * 100 + b".5e+01"  # (40 digits looked at back: a number still)


VARIANTS = [
    dict(n=12),
    dict(n=51, digits=5, letter="d"),
    dict(n=7, blank=False, digits=3),
    dict(n=30, n_vars=14, start=450.0, end="CONVERGENCE: REL_REDUCTION_OF_F_<=_FACTR*EPSMCH"),
    dict(n=18, pre=SUMMARY),
    dict(n=25, pre=TRACE + SUMMARY),
    dict(n=15, pre=TRACE, post=SUMMARY),
    dict(n=1001, digits=8, start=0.5),
]


@pytest.mark.parametrize("kw", VARIANTS, ids=[str(i) for i in range(len(VARIANTS))])
def test_lbfgsb_iterations_are_the_objective_at_their_steps(tmp_path, kw):
    text, truth = lbfgsb_log(seed=len(str(kw)), **kw)
    data = text.encode()
    whole = whole_as_live(tmp_path, data, "lbfgsb.log")
    assert primary_names(whole) == ["objective"], sorted(whole)
    got = list(zip(*whole["objective"], strict=True))
    assert [s for s, _v in got] == [s for s, _v in truth]
    for (_s, v), (_t, w) in zip(got, truth, strict=True):
        assert math.isclose(v, w, rel_tol=1e-12), (v, w)
    # the summary's rows and the end table are no series
    for name in whole:
        assert not any(w in name for w in ("ar.L", "ma.L", "sigma2", "intercept", "Tit", "Projg")), name
        assert name not in ("F", "f", "N"), name
    rng = random.Random(len(data))
    for t in range(3):  # random cuts, mid-line too
        cuts = sorted(rng.sample(range(1, len(data)), 1 + 3 * t))
        live = _live(tmp_path, data, cuts, name=f"live{t}.log")
        assert json.dumps(live["objective"]) == json.dumps(whole["objective"]), cuts


def test_a_coefficient_summary_alone_is_no_series(tmp_path):
    whole = whole_as_live(tmp_path, (SUMMARY * 2).encode(), "summary.log")
    assert not any(w in n for n in whole for w in ("ar.L", "ma.L", "sigma2", "intercept")), sorted(whole)


@pytest.mark.parametrize("run", corpus_runs(FOLDER, "pmdarima_"))
def test_the_corpus_runs_read_at_the_truths_steps(tmp_path, run):
    folder = FOLDER / run
    truth = json.loads((folder / "truth.json").read_text())
    data = (folder / "train.log").read_bytes()
    pts = whole_as_live(tmp_path, data, run)
    assert primary_names(pts) == ["objective"], sorted(pts)
    assert_at_truth(dict(zip(*pts["objective"], strict=True)), truth, run)
    assert len(pts["objective"][0]) == len(truth["train_loss"]), run
    assert not any(w in n for n in pts for w in ("ar.L", "ma.L", "sigma2")), sorted(pts)
