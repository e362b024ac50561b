"""What examples/libraries_holdout39 showed (issue 32): a boosting library prints one line per tree, ``Estimator 0/40,
Train metric: 3.0154`` (``, Validation metric: 3.0451`` with a validation set). Two gaps read it as nothing: a counter
``N/M`` under a word the reader does not know (``Estimator``; ``sweep 10/400``) is the record's position when N
climbs record after record (a whole number opening the record, ``engine._step_like``), and a value named by its split
alone plus a generic word (``Train metric``) is that split's value: with no other value in the record named for
what it is, the run's objective, lower-better (a boosting library's metric is its error: rmse, logloss; a
higher-better score is named for what it is, ``auc``, ``accuracy``)."""

from __future__ import annotations

from training_check.tools.assess import assess_run

from .test_read_misses import _live, primary_names, whole_as_live


def _boosting(n: int, val: bool = False, word: str = "Estimator", blow: bool = False) -> str:
    out, m = ["ninja: no work to do.\n", "Training on CPU\n"], 3.0154
    for k in range(n):
        line = f"{word} {k}/{n}, Train metric: {m:.4f}"
        if val:
            line += f", Validation metric: {m * 1.05 + 0.1:.4f}"
        out.append(line + "\n")
        m = m * 1.6 if blow and k > 4 else m * 0.92
    return "".join(out)


def test_an_unknown_words_counter_opening_the_record_is_its_step(tmp_path):
    for word in ("Estimator", "sweep", "Round"):
        pts = whole_as_live(tmp_path, _boosting(40, word=word).encode(), f"{word}.log")
        assert primary_names(pts) == ["objective"], pts.keys()
        assert pts["objective"][0] == list(range(40)), pts["objective"][0]
        assert abs(pts["objective"][1][0] - 3.0154) < 1e-9


def test_a_splits_generic_metric_is_its_value(tmp_path):
    pts = whole_as_live(tmp_path, _boosting(30, val=True).encode(), "val.log")
    assert primary_names(pts) == ["objective"], pts.keys()
    assert pts["objective"][0] == list(range(30))
    assert pts["val_objective"][0] == list(range(30)), pts.keys()


def test_a_counter_that_does_not_climb_is_no_step(tmp_path):
    text = "".join(f"Layer 3/12, Train metric: {0.5 + k * 0.01:.4f}\n" for k in range(20))
    pts = whole_as_live(tmp_path, text.encode(), "stuck.log")
    assert all(s != list(range(3, 23)) for s, _ in pts.values())
    assert all(3 not in set(s) or len(set(s)) > 1 for s, _ in pts.values()), pts


def test_healthy_and_diverged_boosting_judged(tmp_path, store, config):
    log = tmp_path / "train.log"
    log.write_text(_boosting(40))
    assert assess_run(str(log), store=store, config=config).verdict == "CONTINUE"
    log.write_text(_boosting(20, blow=True))
    assert assess_run(str(log), store=store, config=config).verdict == "STOP"
    text = "".join(f"Estimator {k}/30, Train metric: {'nan' if k > 15 else f'{3 - k * 0.05:.4f}'}\n" for k in range(30))
    log.write_text(text)
    assert assess_run(str(log), store=store, config=config).verdict == "STOP"


def _scoring_history(n: int, val: bool = True) -> str:
    """A model printed whole: its metrics on train (and validation) data, each once, then its ``Scoring History:``
    table (tabulate's: an unnamed index column, a ``---`` rule, a date-time and a duration per row, the trees as
    floats, and past 20 rows a row of ``---`` for the rows left out)."""
    rmse = [3.4 * 0.9 ** k for k in range(n + 1)]
    out = ["Model Summary: ", "    number_of_trees    model_size_in_bytes    max_depth",
           "--  -----------------  ---------------------  -----------",
           f"    {n}                 8680                   5",
           "", "ModelMetricsRegression: gbm", "** Reported on train data. **", "",
           f"MSE: {rmse[-1] ** 2!r}", f"RMSE: {rmse[-1]!r}", f"MAE: {rmse[-1] * 0.7!r}", ""]
    if val:
        out += ["ModelMetricsRegression: gbm", "** Reported on validation data. **", "",
                f"MSE: {(rmse[-1] * 1.5) ** 2!r}", f"RMSE: {rmse[-1] * 1.5!r}", f"MAE: {rmse[-1]!r}", ""]
    head = ["timestamp", "duration", "number_of_trees", "training_rmse", "training_mae"]
    out += ["Scoring History: ", "     " + "  ".join(f"{h:<19}" for h in head),
            "---  " + "  ".join("-" * 19 for _ in head)]
    rows = list(range(n + 1))
    shown = rows if len(rows) <= 20 else rows[:10] + [-1] + rows[-10:]
    for k in shown:
        if k < 0:
            out.append("---  " + "  ".join(f"{'---':<19}" for _ in head))
            continue
        cells = ["2026-12-06 16:07:19", f"{0.1 + k * 0.01:.3f} sec", f"{float(k)}", repr(rmse[k]), repr(rmse[k] * .7)]
        out.append("     " + "  ".join(f"{c:<19}" for c in cells))
    out += [f"[{n + 1} rows x 6 columns]", ""]
    return "\n".join(out) + "\n"


def test_a_scoring_history_counts_its_steps_in_trees(tmp_path, store, config):
    for n, val in ((30, True), (15, False)):
        text = _scoring_history(n, val)
        data = text.encode()
        pts = _live(tmp_path, data, [], name=f"whole_h2o_{n}")
        live = _live(tmp_path, data, [int(c * len(data)) for c in (0.1, 0.4, 0.7, 0.9)], name=f"live_h2o_{n}")
        steps = list(range(n + 1)) if n < 20 else [*range(10), *range(n - 9, n + 1)]
        assert pts["training_rmse"][0] == steps, pts["training_rmse"][0]
        assert live["training_rmse"] == pts["training_rmse"]  # (the summary's ``MSE:`` read once: no curve)
        log = tmp_path / "train.log"
        log.write_text(text)
        a = assess_run(str(log), store=store, config=config)
        assert a.verdict == "CONTINUE", a.summary
