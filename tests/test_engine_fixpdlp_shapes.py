"""A first-order solver's iteration table (examples/libraries_holdout101: OR-Tools PDLP's `` iter# kkt_pass   time |
rel_prim_res rel_dual_res rel_gap | prim_resid dual_resid obj_gap | prim_obj dual_obj | prim_var_l2 dual_var_l2``,
13 numbers a row in groups between ``|``, the header repeated; at verbosity 4 each row led by its kind, ``A`` the
average iterate, ``C`` the current one, under a header led by ``I``, with restart notices between rows; a ``Final
solution stats:`` row at the end). What fixpdlp added, each held here on generated variants (other names, widths,
numbers, notices; read whole and appended in pieces) and on the corpus files (their truth found, their verdicts):

- the run judged by its primary residual (``prim_resid``: ``Dialect.primal_residual_names``) beside a dual residual
  or a gap, the gap and the objectives no direction; with no residual, by the gap between a primal and a dual
  objective (``objective.duality_gap``), a signed gap judged by its size and never taken for a surrogate
  (``signals.signed_gap``);
- a row printed again under ``Final solution stats:`` and its header a report, no point (``engine._after_summary``),
  whatever template it has and wherever a read cuts it (``engine._marker_at_end``);
- ``iter#`` naming the step (a step word glued to ``#``: ``tables_text.align``);
- rows led by a kind's letter their table's rows across notices, each a record's start (never a terminal's wrap), the
  step's first row its record (``marked_rows``).
Reads in pieces are compared with the whole read name by name (``whole_as_live`` below): the order names first appear
in may differ, as before fixpdlp (the problem's statistics line printed twice is a one-off until its second).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from training_check.tools.config import load_config
from training_check.tools.frame import MetricFrame
from training_check.tools.objective import assign_objective
from training_check.tools.parsers.marked_rows import companions, is_marked, mark_shape
from training_check.tools.points import Column, PointBatch
from training_check.tools.signals import signed_gap
from training_check.tools.signals.view import build_view
from training_check.tools.store import Store

from .test_read_misses import _live, primary_names, whole_and_pieces

REPO = Path(__file__).resolve().parents[1]
SET = REPO / "examples" / "libraries_holdout101"
sys.path.insert(0, str(REPO / "bench"))

import read_corpus  # noqa: E402

RUNS = sorted(p.name for p in SET.glob("ortools_pdlp_*") if (p / "truth.json").exists())

_GROUPS = [["kkt_pass", "time"], ["rel_prim_res", "rel_dual_res", "rel_gap"], ["{p}", "{d}", "{g}"],
           ["prim_obj", "dual_obj"], ["prim_var_l2", "dual_var_l2"]]


def _num(rng: random.Random, v: float) -> str:
    return rng.choice([f"{v:.6g}", f"{v:.5e}" if abs(v) < 1e-4 or abs(v) > 1e6 else f"{v:.6g}"])


def pdlp_log(iters: int, every: int, seed: int, *, marked: bool = False, final: bool = True, head_every: int = 15,
             notices: int = 2, step_name: str = "iter#", names: tuple[str, str, str] = ("prim_resid", "dual_resid",
                                                                                          "obj_gap"),
             diverge: bool = False, w: int = 13) -> tuple[bytes, dict[int, float]]:
    """A PDLP-like solve log and its truth (the step's primal residual: the average iterate's where rows are marked,
    the current one's at iteration 0). Numbers right-aligned ``w`` wide; the header every ``head_every`` rows; with
    ``marked`` each step's ``A`` then ``C`` row (only ``C`` at 0) and up to ``notices`` restart lines between steps."""
    rng = random.Random(seed)
    p, d, g = names
    cols = [step_name] + [n.format(p=p, d=d, g=g) for grp in _GROUPS for n in grp]
    widths = [max(6, len(step_name) + 1)] + [w] * (len(cols) - 1)
    cuts = {2, 5, 8, 10}  # a border after these columns

    def line(cells: list[str], lead: str) -> str:
        out = ""
        for k, (c, wd) in enumerate(zip(cells, widths, strict=True)):
            out += " " + c.rjust(wd)  # (a blank at least between cells, as the library prints them)
            if k in cuts:
                out += " |"
        return (lead + out) if marked else out

    header = line(cols, "I  ")
    out = ["Solving with PDLP parameters: goo.gle/debugonly", "verbosity_level: 4" if marked else "verbosity_level: 3",
           "Problem stats before rescaling:",
           f"There are {rng.randint(50, 200)} variables, {rng.randint(20, 90)} constraints.",
           "Constraint bounds statistics (max absolute value per row): largest=6.630507, smallest=0.040402", header]
    truth: dict[int, float] = {}
    res = rng.uniform(5, 50)
    rows = 0
    last: list[str] = []
    for it in range(0, iters + 1, every):
        if rows and rows % head_every == 0:
            out.append(header)
        res = res * (rng.uniform(1.5, 4.0) if diverge and it > every else rng.uniform(0.3, 0.95))
        kinds = ["C"] if it == 0 or not marked else ["A", "C"]
        for kind in kinds:
            v = res if kind == kinds[0] else res * rng.uniform(0.2, 5.0)
            gap = v * rng.uniform(-2, 2)
            vals = [f"{it * 1.02 + 1:.1f}", "0.0", _num(rng, v / 17), _num(rng, v / 9), _num(rng, gap / 30),
                    _num(rng, v), _num(rng, v * rng.uniform(0.1, 2)), _num(rng, gap), _num(rng, -21.8 + gap),
                    _num(rng, -21.8 - gap), _num(rng, 9 + rng.random()), _num(rng, 2.7 + rng.random())]
            cells = [str(it)] + vals
            last = cells
            out.append(line(cells, f"{kind}  "))
            if kind == kinds[0]:
                truth[it] = float(cells[6])
        rows += 1
        if marked:
            for _k in range(rng.randint(0, notices)):
                out.append(f"Restarted to current on iteration {it + 1} after {rng.randint(1, 64)} iterations")
                out.append(f"New computed primal weight is {rng.uniform(0.3, 1.2):.6g} at iteration {it + 1}")
    out += ["Termination reason: TERMINATION_REASON_OPTIMAL", "Solution point type: POINT_TYPE_CURRENT_ITERATE"]
    if final:
        fin = list(last)
        fin[6] = _num(rng, float(fin[6]) * 0.37)  # another iterate's values at the last step
        out += ["Final solution stats:", header, line(fin, "C  ")]
    return ("\n".join(out) + "\n").encode(), truth


def whole_as_live(tmp_path, data: bytes, name: str, seed: int = 0) -> dict:
    """The points of ``data`` read whole, checked equal to its reads appended in pieces: cut at fixed shares of its
    bytes and at random places (mid-line too). Compared name by name: the order names first appear in may differ
    (the problem's statistics line printed twice, before and after rescaling, is a one-off until its second)."""
    whole = whole_and_pieces(tmp_path, data, name, seed=seed, trials=2)
    live = _live(tmp_path, data, [int(c * len(data)) for c in (0.03, 0.2, 0.37, 0.55, 0.81)], name=f"cut_{name}")
    assert json.dumps(live, sort_keys=True) == json.dumps(whole, sort_keys=True), name
    return whole


def _check(got: dict, truth: dict[int, float], name: str = "prim_resid") -> None:
    assert primary_names(got) == [name], sorted(got)
    steps, values = got[name]
    assert steps == sorted(truth)
    for s, v in zip(steps, values, strict=True):
        assert v == pytest.approx(truth[s], rel=1e-9), (s, v, truth[s])


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("every,iters", [(8, 160), (32, 1000), (4, 53)])
@pytest.mark.parametrize("w", [11, 13, 16])
def test_a_solvers_table_is_read_by_its_primal_residual_at_its_iterations(tmp_path, seed, every, iters, w):
    data, truth = pdlp_log(iters, every, seed, w=w, head_every=5 + 5 * seed)
    _check(whole_as_live(tmp_path, data, f"p{seed}_{every}_{w}"), truth)


@pytest.mark.parametrize("names", [("prim_resid", "dual_resid", "obj_gap"), ("primal_residual", "dual_residual",
                                                                              "duality_gap"),
                                   ("prim_res", "dual_res", "gap")])
@pytest.mark.parametrize("step_name", ["iter#", "iter", "iteration"])
def test_other_names_of_residuals_and_step(tmp_path, names, step_name):
    data, truth = pdlp_log(120, 8, 7, names=names, step_name=step_name)
    _check(whole_as_live(tmp_path, data, f"n{names[0]}_{step_name}".replace("#", "h"), seed=3), truth, names[0])


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("notices", [0, 2, 7])
def test_rows_marked_by_their_kind_read_across_notices_the_steps_first_row_its_record(tmp_path, seed, notices):
    data, truth = pdlp_log(208, 16 if seed % 2 else 8, seed, marked=True, notices=notices, head_every=100)
    _check(whole_as_live(tmp_path, data, f"m{seed}_{notices}", seed=seed), truth)


@pytest.mark.parametrize("seed", range(2))
def test_a_final_row_under_its_banner_is_no_point_but_the_tables_row_at_that_step_is(tmp_path, seed):
    data, truth = pdlp_log(96, 8, seed, final=True)
    got = whole_as_live(tmp_path, data, f"f{seed}")
    _check(got, truth)
    plain, truth2 = pdlp_log(96, 8, seed, final=False)
    assert whole_as_live(tmp_path, plain, f"nf{seed}")["prim_resid"] == got["prim_resid"]
    assert truth2 == truth


@pytest.mark.parametrize("run", RUNS)
def test_the_corpus_files_read_at_the_truths_steps(tmp_path, run):
    truth = json.loads((SET / run / "truth.json").read_text())
    got = whole_as_live(tmp_path, (SET / run / "train.log").read_bytes(), run)
    assert primary_names(got) == ["prim_resid"]
    at = dict(zip(*got["prim_resid"], strict=True))
    assert sorted(at) == [s for s, _v in truth["train_loss"]]  # every truth step, none more
    for s, v in truth["train_loss"]:
        assert read_corpus._same(at[s], float(v), truth["tolerance"]), (run, s, at[s], v)


@pytest.mark.parametrize("run", RUNS)
def test_the_corpus_verdicts(run):
    entry = next(e for e in map(json.loads, (SET / "manifest.jsonl").read_text().splitlines())
                 if e["file"] == f"{run}/train.log")
    res = read_corpus.check_file(SET, entry)
    assert res.read and res.metric == "prim_resid"
    if entry["should_stop"]:
        assert res.verdict == "STOP", (run, res.verdicts)
    else:
        assert res.verdict in ("CONTINUE", "WAIT") and "S" not in res.verdicts, (run, res.verdicts)


def _frame(cols: dict[str, list[float]]) -> MetricFrame:
    return MetricFrame.from_batch(PointBatch({k: Column(np.arange(0, 8 * len(v), 8, dtype=np.int64),
                                                        np.asarray(v, dtype=float)) for k, v in cols.items()}))


def test_which_column_a_solvers_table_is_judged_by():
    def primary(names: list[str]) -> list[str]:
        return [n for n, r in assign_objective(names).roles.items() if r.primary]

    # a primal residual beside a dual residual or a gap, first; the gap and the objectives then no direction
    roles = assign_objective(["iter", "rel_prim_res", "prim_resid", "dual_resid", "obj_gap", "prim_obj",
                              "dual_obj"]).roles
    assert [n for n, r in roles.items() if r.primary] == ["prim_resid"]
    assert all(roles[n].direction is None for n in ("obj_gap", "prim_obj", "dual_obj"))
    assert primary(["iter", "pcost", "dcost", "gap", "pres", "dres"]) == ["pres"]  # (CVXOPT's, as before)
    # ... else the gap between a primal and a dual objective
    assert primary(["iter", "prim_obj", "dual_obj", "obj_gap"]) == ["obj_gap"]
    assert primary(["it", "primal objective", "dual objective", "duality gap"]) == ["duality gap"]
    # negatives: one objective beside a gap keeps the objective (celer's ``primal``, an ``obj``); a loss stays a loss;
    # a relative residual alone is no primal residual
    assert primary(["iter", "primal", "gap"]) == ["primal"]
    assert primary(["it", "obj", "gap"]) == ["obj"]
    assert primary(["step", "loss", "gap", "prim_obj", "dual_obj"]) == ["loss"]
    assert primary(["iter", "rel_prim_res", "rel_dual_res", "prim_obj"]) == ["prim_obj"]
    assert "gap" not in primary(["iter", "dual_obj", "objective", "gap"])  # (two duals' or no primal's: no pair)


def test_a_signed_gap_is_judged_by_its_size_never_as_a_surrogate():
    signed = [0.0, -0.56, 27.0, 2.4, 0.6, -0.27, 0.14, -0.09, 0.07, -0.005, 0.003, -0.0025, 0.002, -0.0015]
    v = build_view(_frame({"prim_obj": [-21.8] * len(signed), "dual_obj": [-21.8] * len(signed), "obj_gap": signed}))
    assert v.objective == "obj_gap" and not v.adversarial
    assert (v.frame.series["obj_gap"].to_numpy() >= 0).all()
    assert any("signed gap" in n for n in v.notes)
    # negatives: a gap never below zero is left as printed; a surrogate loss straddling zero stays one
    pos = [abs(x) for x in signed]
    v2 = build_view(_frame({"prim_obj": [-21.8] * len(pos), "dual_obj": [-21.8] * len(pos), "obj_gap": pos}))
    assert not v2.adversarial and not any("signed gap" in n for n in v2.notes)
    v3 = build_view(_frame({"policy_loss": [0.1, -0.2, 0.05, -0.1, 0.2, -0.05, 0.1, -0.15, 0.02, -0.01]}))
    assert v3.adversarial
    assert signed_gap.sized(pd.Series([1.0, -1.0]), "loss") is None
    assert signed_gap.is_gap("obj_gap") and signed_gap.is_gap("duality gap") and not signed_gap.is_gap("gap_ratio")


def _verdict(tmp_path, data: bytes, name: str) -> str:
    from training_check.tools.assess import assess_run

    home = tmp_path / f"home_{name}"
    home.mkdir()
    config = load_config(cwd=str(home), env={"TRAINING_CHECK_HOME": str(home)})
    p = tmp_path / f"{name}.log"
    p.write_bytes(data)
    return assess_run(str(p), store=Store(config.store_path), config=config).verdict


def _without_residuals(data: bytes, w: int = 13) -> bytes:
    """A PDLP-like log (cells ``w`` wide) whose table prints no residual: the primal and dual residuals cut out of
    header and rows, the gap kept."""
    out = []
    for line in data.split(b"\n"):
        parts = line.split(b"|")
        if len(parts) == 5:
            parts[2] = parts[2][2 * (w + 1):]
            line = b"|".join(parts)
        out.append(line)
    return b"\n".join(out)


def test_a_gap_judged_run_stops_when_it_diverges_and_continues_when_it_converges(tmp_path):
    bad, _t = pdlp_log(200, 8, 1, diverge=True, final=False)
    good, _t = pdlp_log(200, 8, 1, final=False)
    assert _verdict(tmp_path, bad, "bad") == "STOP"
    assert _verdict(tmp_path, good, "good") != "STOP"
    gap_bad, gap_good = _without_residuals(bad), _without_residuals(good)
    assert b"prim_resid" not in gap_bad and b"obj_gap" in gap_bad
    assert _verdict(tmp_path, gap_bad, "gbad") == "STOP"
    assert _verdict(tmp_path, gap_good, "ggood") != "STOP"


def test_the_marked_row_shape_and_its_negatives():
    t = b"A     \x01     \x01    \x01 |     \x01     \x01     \x01 |      \x01"
    assert mark_shape(t) == b"?\x01\x01\x01|\x01\x01\x01|\x01"
    assert mark_shape(b"C" + t[1:]) == mark_shape(t)
    for no in (b"I  it\x01r# kkt_pass   tim\x01 | r\x01l_prim", b"A \x01 b", b"a     \x01     \x01     \x01",
               b"AB    \x01     \x01     \x01", b"A\x01     \x01     \x01", b"     \x01     \x01     \x01",
               b"A     \x01     \x01", b"A     \x01 loss \x01     \x01", b"A" + b" \x01" * 3000):
        assert mark_shape(no) is None, no
    assert is_marked(b"A     16     17.0    0.0 | 0.2")
    assert is_marked(b"C      0      0.0    0.0 | 0.9")
    for no in (b"I  iter# kkt_pass", b"Restarted to current on iteration 1", b"A loss 0.5", b"  16  17.0",
               b"I1207 12:00:00.1 train.py:3] loss 0.5"):
        assert not is_marked(no), no


def test_companions_only_where_a_step_repeats_across_reads():
    lines = [b"A  8  1.0  2.0", b"C  8  1.5  2.5", b"A  16  1.0  2.0", b"C  24  1.0  2.0"]
    st: dict = {}
    a = (np.array([0, 2]), np.array([8.0, 16.0]))
    c = (np.array([1, 3]), np.array([8.0, 24.0]))
    out = companions(lines, [a, c], st)
    assert out[0].tolist() == [False, False] and out[1].tolist() == [True, False]  # (kinds at different steps: kept)
    assert st["mk_prev"] == 24.0
    nxt = companions([b"C  24  9.0  9.0", b"A  32  1.0  1.0"], [(np.array([0]), np.array([24.0])),
                                                               (np.array([1]), np.array([32.0]))], st)
    assert nxt[0].tolist() == [True] and nxt[1].tolist() == [False]  # (the step's first row in the read before)
    plain: dict = {}
    rows = [b"  8  1.0  2.0", b"  8  1.5  2.5"]
    assert not companions(rows, [(np.array([0, 1]), np.array([8.0, 8.0]))], plain)[0].any()  # unmarked: untouched
    assert "mk_prev" not in plain
