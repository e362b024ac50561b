"""An optimiser's own iteration table whose rows hold numbers then free-text cells (examples/libraries_holdout94:
pybads' `` Iteration  f-count  f(x)  MeshScale  Method  Actions`` with several rows per iteration, pyvbmc's ``...
Convergence  Action`` with a first row ``... inf  start warm-up`` and a last ``  inf  50 ... finalize``): the number
cells read by the header's alignment, the text cells no values nor split marks (``Uncertainty test``), the step's
record its last row, a row whose step cell is ``inf`` no step, ``f(x)`` the objective. Read whole and in pieces, on
generated variants (widths, rows a step, empty text cells) and on the corpus files."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from training_check.tools.parsers.text_tail_rows import numbers_then_text, text_start
from training_check.tools.roles import infer_role

from tests.test_read_misses import primary_names, whole_as_live

SET = Path(__file__).resolve().parent.parent / "examples" / "libraries_holdout94"
_TEXTS = ["", "Successful search (ES-ell)", "Incremental search (ES-wcm)", "Refine grid   Train",
          "Successful poll   Train", "Initial mesh   Initial points", "Uncertainty test"]


def _bads(iters: int, per: int, seed: int, w: int = 12, head_gap: int = 4) -> tuple[bytes, dict[int, float]]:
    """A BADS-like table: ``per`` rows or fewer per iteration, the last row's ``f(x)`` the iteration's value; each
    number right-aligned under its name, the names ``head_gap`` blanks or more apart, columns ``w`` wide or more."""
    rng = random.Random(seed)
    names = ["Iteration", "f-count", "f(x)", "MeshScale"]
    widths = [len(n) + head_gap + rng.randint(0, max(0, w - len(n))) for n in names]
    ends = [sum(widths[:k + 1]) for k in range(len(widths))]
    header = "".join(f"{n:>{wd}}" for n, wd in zip(names, widths, strict=True))
    out = ["Beginning optimization of a DETERMINISTIC objective function", "",
           header + "          Method             Actions"]
    fx, fc, last = 100.0, 2, {}
    for it in range(iters):
        for _r in range(rng.randint(1, per)):
            fc += rng.randint(1, 9)
            fx *= rng.uniform(0.5, 1.0)
            text = rng.choice(_TEXTS)
            cells = [str(it), str(fc), f"{fx:.6g}", f"{0.5 ** it:.6g}"]
            row = ""
            for c, end in zip(cells, ends, strict=True):
                row += " " * max(1, end - len(row) - len(c)) + c
            out.append(f"{row}     {text}".rstrip() + " " * rng.randint(0, 8))
            last[it] = float(f"{fx:.6g}")
    out += ["Optimization terminated: change in the function value less than options['tol_fun'].",
            f"Function value at minimum: {fx}", ""]
    return "\n".join(out).encode(), last


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("per", [1, 3, 6])
@pytest.mark.parametrize("w", [8, 12])
def test_rows_of_numbers_then_text_under_a_header_read_at_their_step_the_last_row_winning(tmp_path, seed, per, w):
    data, last = _bads(4 + 3 * seed, per, seed, w=w, head_gap=2 + seed)
    got = whole_as_live(tmp_path, data, f"b{seed}_{per}_{w}")
    assert primary_names(got) == ["f(x)"]
    steps, values = got["f(x)"]
    assert steps == sorted(last)
    assert values == [last[s] for s in steps]
    assert not any(k.startswith(("val_", "test_")) for k in got), sorted(got)  # (``Uncertainty test``: no split)


def _vbmc(iters: int, seed: int, w: int = 9) -> tuple[bytes, list[float]]:
    """A VBMC-like table (numbers right-aligned under their names, the names ``w`` apart or less), an ``inf`` first
    convergence, a first row ``start warm-up``, then the summary row ``inf ... finalize``."""
    rng = random.Random(seed)
    names = ["Iteration", "f-count", "Mean[ELBO]", "Std[ELBO]", "sKL-iter[q]", "K[q]", "Convergence"]
    widths = [len(n) + 2 + rng.randint(0, w) for n in names]
    ends = [sum(widths[:k + 1]) for k in range(len(widths))]

    def row(cells: list[str], act: str) -> str:
        out = ""
        for c, end in zip(cells, ends, strict=True):
            out += " " * max(1, end - len(out) - len(c)) + c
        return f"{out}     {act}".rstrip() + " " * rng.randint(0, 5)

    out = ["Beginning variational optimization assuming EXACT observations of the log-joint.",
           "".join(f"{n:>{wd}}" for n, wd in zip(names, widths, strict=True)) + "  Action"]
    elbo = []
    for it in range(iters):
        e = round(-20.0 + it * rng.uniform(0.0, 3.0), 2)
        elbo.append(e)
        conv = "inf" if it < 2 else f"{rng.uniform(0.01, 1):.3g}"
        act = {0: "start warm-up", iters // 2: "end warm-up"}.get(it, rng.choice(["", "", "trim data"]))
        out.append(row([str(it), str(10 + 5 * it), f"{e:.2f}", "0.01", f"{rng.uniform(0, 9):.2f}", "2", conv], act))
    out.append(row(["inf", str(10 + 5 * iters), f"{elbo[-1] + 0.5:.2f}", "0.00", "0.01", "50", "0.161"], "finalize"))
    out += ["Inference terminated: reached maximum number of function evaluations options.max_fun_evals.",
            f"Estimated ELBO: {elbo[-1]:.3f} +/-0.001.", ""]
    return "\n".join(out).encode(), elbo


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("w", [7, 9, 12])
def test_a_first_row_with_text_and_inf_reads_and_an_inf_step_row_is_no_step(tmp_path, seed, w):
    data, elbo = _vbmc(6 + 2 * seed, seed, w=w)
    got = whole_as_live(tmp_path, data, f"v{seed}_{w}")
    steps, values = got["Mean[ELBO]"]
    assert steps == list(range(len(elbo)))  # the ``inf`` row (the run's summary) no step
    assert values == elbo
    conv = dict(zip(*got["Convergence"], strict=True))
    assert conv[0] == math.inf and conv[1] == math.inf  # a criterion not computed yet: the row's other values read


def test_the_row_shape_in_words():
    assert numbers_then_text(b"     1          19         7.25012             0.5     Successful search (ES-ell)   ")
    assert numbers_then_text(b"     0    10   -18.97   0.15  14795.30    2     inf     start warm-up")
    line = b"     3          52       0.0621888            0.25         Refine grid             Train"
    assert line[text_start(line):].split() == [b"Refine", b"grid", b"Train"]
    for no in (b"3 epochs done", b"  1  2  loss 0.5", b"  1  2  3", b"Epoch 1 2 3 done", b"  1 2 3 a b c d e f g",
               b"  1  2  3  ends at 4", b"  1  2  3  " + b"x" * 200):
        assert not numbers_then_text(no), no


def test_f_of_x_is_an_objective_minimised():
    assert infer_role("f(x)").direction == "min"


@pytest.mark.parametrize("run", sorted(p.name for p in SET.glob("*") if (p / "truth.json").exists()))
def test_the_corpus_files_read_at_the_truths_steps(tmp_path, run):
    truth = json.loads((SET / run / "truth.json").read_text())
    got = whole_as_live(tmp_path, (SET / run / "train.log").read_bytes(), run)
    name = truth["loss_name"]
    assert primary_names(got) == [name]
    at = dict(zip(*got[name], strict=True))
    tol = truth["tolerance"]
    hit = 0
    for s, v in truth["train_loss"]:
        if s in at:
            assert abs(at[s] - float(v)) <= tol.get("abs", 0) + 10 * tol["rel"] * abs(float(v)) + 1e-2 * (
                name == "Mean[ELBO]"), (run, s, at[s], v)  # (ELBO printed with 2 decimals)
            hit += 1
    assert hit >= 0.9 * len(truth["train_loss"]), (run, hit)
    assert max(at) == max(s for s, _v in truth["train_loss"]) - (name == "f(x)" and max(at) < max(
        s for s, _v in truth["train_loss"]))  # (BADS' record ends with the final iteration, not printed as a row)
