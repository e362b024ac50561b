"""What examples/libraries_holdout39 showed (issue 32): a boosting library prints one line per tree, ``Estimator 0/40,
Train metric: 3.0154`` (``, Validation metric: 3.0451`` with a validation set). Two gaps read it as nothing: a counter
``N/M`` under a word the reader does not know (``Estimator``; ``sweep 10/400``) is the record's position when N
climbs record after record (a whole number opening the record, ``engine._step_like``), and a value named by its split
alone plus a generic word (``Train metric``) is that split's value: with no other value in the record named for
what it is, the run's objective, lower-better (a boosting library's metric is its error: rmse, logloss; a
higher-better score is named for what it is, ``auc``, ``accuracy``)."""

from __future__ import annotations

from training_check.tools.assess import assess_run

from .test_read_misses import primary_names, whole_as_live


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
