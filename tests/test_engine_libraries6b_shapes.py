"""The three shapes examples/libraries6 still missed after its first corrections (issue 32 item 1), each written as
a small log the way a library prints it and read by the one engine, whole and in pieces (the same points): two
fixed-width fields glued where a negative one fills its width (ElegantRL's evaluator), a bar of the run's epochs
whose count is the epoch (NeuralProphet's, its postfix the epoch's metrics), and a data file whose columns a comment
names as a list (pycma's ``outcmaes/fit.dat``). Each rule is general; what is library-specific is data in
``dialect.py``."""

from __future__ import annotations

import math

from training_check.tools.objective import assign_roles
from training_check.tools.parsers.tables_text import LISTED, parse_header
from training_check.tools.parsers.templates import split_run_together

from .test_engine_records import _same_in_reads
from .test_engine_tables import _in_reads


def _evaluator(rows: int) -> bytes:
    """ElegantRL's evaluator table: fixed-width fields (``objC`` 7.2f, ``objA`` 7.2f) that glue when the actor's
    objective reaches -100 (``12.72-117.12``)."""
    out = ["| Evaluator:", "| `objC`: Objective of Critic network.", "#" * 80,
           f"{'ID':<3}{'Step':>8}{'Time':>8} |{'avgR':>8}{'stdR':>7}{'avgS':>7}{'stdS':>6} |"
           f"{'expR':>8}{'objC':>7}{'objA':>7}{'etc.':>7}"]
    for k in range(rows):
        out.append(f"{-1:<3}{200 + 1000 * k:8.2e}{9 * k:8.0f} |{-1450.0 - k:8.2f}{60.5:7.1f}{200:7.0f}{0:6.0f} |"
                   f"{-7.0:8.2f}{_critic(k):7.2f}{_actor(k):7.2f}")
    out.append("| UsedTime:     106 | SavedDir: ./run")
    return ("\n".join(out) + "\n").encode()


def _critic(k: int) -> float:
    return round(2.0 + 1.5 * k, 2)


def _actor(k: int) -> float:
    return round(-1.72 - 30.0 * k, 2)


def test_two_fixed_width_fields_glued_by_a_minus_are_two_numbers():
    pts = _same_in_reads(_evaluator(10), every=2)
    steps = [float(f"{200 + 1000 * k:.2e}") for k in range(10)]
    assert list(pts["critic_loss"]) == [steps, [_critic(k) for k in range(10)]]  # rows 4..9: '8.00-121.72'
    assert list(pts["actor_objective"]) == [steps, [_actor(k) for k in range(10)]]
    assert b"8.00-121.72" in _evaluator(10)


def test_a_glued_minus_splits_only_in_a_row_of_numbers():
    assert split_run_together(b"-1 4.20e+03  34 |  -7.99  12.72-117.12") == b"-1 4.20e+03  34 |  -7.99  12.72 -117.12"
    for kept in (b"lr range 0.09-0.11 tried", b"2026-12-05 23:10:24", b"torch 1.5-2.0", b"v0.9.0-1.2",
                 b"x 1.2e-3.4e-5"):
        assert split_run_together(kept) == kept, kept


def _epoch_bar(epochs: int) -> bytes:
    """NeuralProphet's Lightning bar of the run's epochs (its count the epoch: ``Epoch 3: 3/40``, redrawn at 0 at
    each epoch's start) and its ``Training`` bar whose postfix holds the epoch's metrics, all on ``\\r``."""
    out = [b"INFO - (NP.config.init_data_params) - Setting normalization to global.\n",
           b"\rTraining: |          | 0/? [00:00<?, ?it/s]\rTraining:   0%%|          | 0/%d [00:00<?, ?it/s]" % epochs]
    for e in range(1, epochs + 1):
        pct = 100 * e // epochs
        out.append(b"\rEpoch %d:   0%%|          | 0/%d [00:00<?, ?it/s]" % (e, epochs))
        out.append(b"\rEpoch %d: %3d%%|\xe2\x96\x8c         | %d/%d [00:00<00:00, 10866.07it/s]" % (e, pct, e, epochs))
        out.append(b"\rTraining: |          | 0/? [00:0%d<?, ?it/s, v_num=0, train_loss=%.3g, reg_loss=0.000, "
                   b"MAE=%.3g, Loss=%.3g, RegLoss=0.000]" % (e // 5, _np_loss(e), 10 * _np_loss(e), _np_loss(e)))
        out.append(b"\rEpoch %d:   0%%|          | 0/%d [00:00<?, ?it/s]           " % (e, epochs))
    out.append(b"\n\rEpoch %d: 100%%|\xe2\x96\x88\xe2\x96\x88| %d/%d [00:01<00:00, 23.01it/s]    " % (epochs, epochs,
                                                                                              epochs))
    return b"".join(out)


def _np_loss(e: int) -> float:
    return float(f"{0.55 / e:.3g}")


def test_a_bar_of_the_runs_epochs_counts_epochs():
    data = _epoch_bar(12)
    whole = _in_reads(data, [])
    assert list(whole["train_loss"]) == [list(range(1, 13)), [_np_loss(e) for e in range(1, 13)]]
    for cut in [i for i, c in enumerate(data) if c in b"\r\n"][::3]:  # in pieces, a read ending at any redraw
        got = _in_reads(data, [cut])
        assert got["train_loss"] == whole["train_loss"], cut


def test_a_bar_of_an_epochs_batches_still_restarts_each_epoch():
    """The zero that opens each epoch's bar is passed over, not the restart: ``Epoch 1: 4/8`` after ``Epoch 0:
    8/8`` counts within the epoch."""
    lines = []
    for e in range(3):
        lines.append(f"\rEpoch {e}:   0%|          | 0/8 [00:00<?, ?it/s]")
        for n in (4, 8):
            lines.append(f"\rEpoch {e}:  {12 * n}%|#   | {n}/8 [00:01<00:00, 7.1it/s, loss={1.0 / (8 * e + n):.4f}]")
        lines.append("\n")
    pts = _same_in_reads("".join(lines).encode(), every=1)
    steps, _values = pts["loss"]
    assert steps == [4, 8, 12, 16, 20, 24], steps


_FIT_HEADER = ('% # columns="iteration, evaluation, sigma, axis ratio, bestever, best, median, worst objective '
               'function value, interquartile range, 25%tile, current best feasible f-value, elapsed wallclock time '
               '[s], further/more values", seed=1, Sat Dec  5 23:27:59 2026, <python>{}</python>')


def _fit_dat(iters: int) -> bytes:
    """pycma's ``outcmaes/fit.dat``: the comment naming the columns (one more than a row has), rows one blank apart,
    an unconstrained problem's feasible best ``nan`` in every row."""
    rows = [_FIT_HEADER]
    for i in range(1, iters + 1):
        best = 1.0 / i + (0.3 if i % 3 == 0 else 0.0)
        rows.append(f"{i} {12 * i} {0.5 / i ** 0.5!r} {1.0 + i / 100!r} {1.0 / i!r} {best!r} {2 * best!r} "
                    f"{9 * best!r} {best!r} {1.5 * best!r} nan {i / 10:.1f}   ")
    return ("\n".join(rows) + "\n").encode()


def test_a_commented_list_of_column_names_heads_the_rows_in_order():
    pts = _same_in_reads(_fit_dat(30), every=4)
    best = [1.0 / i + (0.3 if i % 3 == 0 else 0.0) for i in range(1, 31)]
    assert list(pts["best objective function value"]) == [list(range(1, 31)), best]
    assert pts["sigma"][0] == list(range(1, 31)) and pts["evaluation"][1][:2] == [12.0, 24.0]
    assert all(math.isnan(v) for v in pts["current best feasible f-value"][1])
    roles = assign_roles(list(pts))
    assert [n for n, r in roles.items() if r.primary] == ["best objective function value"]  # not bestever, worst


def test_a_listed_header_shares_a_names_words_over_a_run_of_statistics():
    cols = parse_header(_FIT_HEADER.encode())
    assert cols is not None and all(a == LISTED for _n, a, _b in cols)
    names = [n for n, _a, _b in cols]
    assert names[4:8] == [f"{w} objective function value" for w in ("bestever", "best", "median", "worst")]
    assert names[:4] == ["iteration", "evaluation", "sigma", "axis ratio"]  # 'sigma' before 'axis ratio' keeps
    # a '#'-commented comma list over rows of numbers one blank apart (numpy.savetxt's header=, delimiter=' ')
    data = ("# step, loss, lr\n" + "".join(f"{s} {2.0 / s!r} 0.001\n" for s in range(1, 9))).encode()
    pts = _same_in_reads(data, every=2)
    assert list(pts["loss"]) == [list(range(1, 9)), [2.0 / s for s in range(1, 9)]]
    for prose in (b"# Epoch 3 done", b"% a comment, nothing more", b"# seed=1, lr=0.1, wd=0.01"):
        got = parse_header(prose)
        assert got is None or got[0][1] != LISTED, prose


def test_a_loss_beside_the_runs_never_finite_is_not_computed():
    """pycma's ``current best feasible f-value`` (an unconstrained problem: ``nan`` in every row) beside its finite
    objective: no NaN STOP; the same loss turning NaN after finite values, or the run's own loss NaN, still is."""
    import numpy as np
    from training_check.tools.signals import nonfinite

    from .test_signal_boundaries import falling, view_of

    y, never = falling(40), np.full(40, np.nan)
    f = nonfinite.check(view_of({"train_loss": y, "feasible loss": never}))[0]
    assert f.status == "ok" and "never finite" in f.message
    later = np.concatenate((falling(30), np.full(10, np.nan)))
    assert nonfinite.check(view_of({"train_loss": y, "feasible loss": later}))[0].status == "critical"
    assert nonfinite.check(view_of({"train_loss": never, "feasible loss": y}))[0].status == "critical"
