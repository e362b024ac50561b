"""What examples/libraries_holdout34 showed (issue 32): pyrenn's Levenberg-Marquardt trainer prints ``Iteration:  3
\t\tError:  1.2150 \tscale factor:  0.01`` each iteration; its ``scale factor`` is the solver's damping, falling as it
converges, no fp16 loss scale (``roles._DAMPING``): read as one, its fall to 0.001 was a loss scale "collapsed to its
floor", a false STOP of a healthy run."""

from __future__ import annotations

from training_check.tools.assess import assess_run
from training_check.tools.roles import infer_role

from .test_read_misses import primary_names, whole_as_live


def _pyrenn(n: int) -> str:
    err, scale, out = 33.2, 10.0, []
    for k in range(n):
        out.append(f"Iteration:  {k} \t\tError:  {err!r} \tscale factor:  {scale!r}\n")
        err *= 0.55 if k < 8 else 0.97
        scale = max(scale / 10, 0.001) if k < 6 else min(scale * 10, 0.01) if k % 5 == 0 else scale
    return "".join(out)


def test_a_solvers_scale_factor_is_no_loss_scale():
    assert infer_role("scale factor").role == "other" and infer_role("damping").role == "other"
    assert infer_role("loss scale").role == "loss_scale" and infer_role("loss scale factor").role == "loss_scale"
    assert infer_role("scale").role == "loss_scale"


def test_levenberg_marquardt_iterations_read_and_judged_healthy(tmp_path, store, config):
    text = _pyrenn(40)
    pts = whole_as_live(tmp_path, text.encode(), "pyrenn.log")
    assert pts["Error"][0] == list(range(40)) and primary_names(pts) == ["Error"], pts.keys()
    log = tmp_path / "train.log"
    log.write_text(text)
    a = assess_run(str(log), store=store, config=config)
    assert a.verdict == "CONTINUE", a.summary
