"""An optimiser's tab-separated iteration table (examples/libraries_holdout100's itk-elastix): a header whose cells
are numbered (``1:ItNr	2:Metric	3a:Time	3b:StepSize	4:||Gradient||	Time[ms]``, L-BFGS's words between numbers,
``Main	true	true	WolfeSatisfied``), one table a resolution under ``Resolution: r``, the iteration restarting at 0
in each; the ``Metric`` column the objective minimised; a run dying of a native library's exception (``ITK ERROR:``
under the ``file.hxx:389:`` it was thrown at). Generated variants read whole and in pieces, the negative cases, and the
corpus files (their truth found, their verdicts)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from training_check.tools.objective import assign_objective
from training_check.tools.parsers.fields import header_names
from training_check.tools.parsers.run_end import find_end
from training_check.tools.parsers.tab_tables import numbered_stem, tab_header

from .corpus_checks import Corpus
from .test_read_misses import assert_at_truth, primary_names, whole_and_pieces, whole_as_live

SET = Path(__file__).resolve().parent.parent / "examples" / "libraries_holdout100"
_WARN = ['WARNING: The parameter "SP_A", requested at entry number 0, does not exist at all.',
         '  The default value "20" is used instead.',
         "WARNING: You have set MaximumNumberOfSamplingAttempts to 8.",
         "Initialization of AdvancedMeanSquares metric took: 0 ms."]
_LBFGS_WORDS = [("5", "Phase"), ("6a", "Wolfe1"), ("6b", "Wolfe2"), ("7", "LinSrchStopCondition")]


def _table_log(iters: list[int], seed: int, obj: str = "Metric", numbered: bool = True, words: bool = False,
               stage: str = "Resolution", negative: bool = False, time_name: str = "Time[ms]",
               stage_numbers: list[int] | None = None) -> tuple[bytes, dict[int, float]]:
    """An elastix-like log: per stage a banner ``{stage}: r``, warnings with numbers, then a tab-separated table (its
    header's cells numbered or not, ``words``: L-BFGS's text cells before the time), the iteration from 0 again in
    each stage; the truth: the ``obj`` column at the iteration counted on across stages."""
    rng = random.Random(seed)
    cols = [("1", "ItNr"), ("2", obj)] + ([("3a", "Time"), ("3b", "StepSize")] if rng.random() < 0.5 else
                                          [("3", "StepSize")]) + [("4", "||Gradient||")]
    cols += (_LBFGS_WORDS if words else []) + [("", time_name)]
    header = "\t".join(f"{i}:{n}" if numbered and i else n for i, n in cols)
    out = ["ELASTIX version: 5.3.1", "-threads  1", *_WARN]
    truth: dict[int, float] = {}
    v = rng.uniform(20, 200) * (-0.01 if negative else 1)
    for r in range(len(iters)):
        out += [f"{stage}: {(stage_numbers or list(range(len(iters))))[r]}", *rng.sample(_WARN, 2), header]
        for it in range(iters[r]):
            v = v * rng.uniform(0.6, 1.02) if not negative else v * rng.uniform(0.99, 1.05)
            cells = [str(it), f"{v:.6f}"] + [f"{rng.uniform(0, 1):.6f}" for _ in cols[2:-1 - 4 * words]]
            cells += ["Main", "true", "true", "WolfeSatisfied"] if words else []
            cells.append(f"{rng.uniform(0.1, 40):.1f}")
            out.append("\t".join(cells))
            truth[len(truth)] = float(f"{v:.6f}")
        out += [f"Time spent in resolution {r} (ITK initialization and iterating): 0.0796",
                "Stopping condition: Maximum number of iterations has been reached.",
                f"( SP_a {rng.uniform(0.1, 1):.6f} )", "( SP_A 20.000000 )", ""]
    out += [f"Final metric value  = {v:.6g}",
            "Time spent on saving the results, applying the final transform etc.: 1 ms.", ""]
    return "\n".join(out).encode(), truth


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("stages", [[12], [9, 7], [6, 8, 5]])
@pytest.mark.parametrize("numbered", [True, False])
def test_a_tab_table_restarting_under_each_stage_reads_its_metric_counted_on(tmp_path, seed, stages, numbered):
    data, truth = _table_log(stages, seed, numbered=numbered, words=seed == 1, negative=seed == 2,
                             time_name="Time [ms]" if seed == 2 else "Time[ms]")
    got = whole_as_live(tmp_path, data, f"t{seed}_{len(stages)}_{numbered}")
    assert primary_names(got) == ["Metric"]
    steps, values = got["Metric"]
    assert steps == sorted(truth)
    assert values == [truth[s] for s in steps]
    assert "ItNr" not in got and "Resolution" not in got  # the step column and the stage banner: no metrics
    assert not {"SP_a", "SP_A", "value", "default value"} & set(got), sorted(got)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("obj", ["cost", "objective", "Metric"])
@pytest.mark.parametrize("stage", ["Resolution", "Level"])
def test_other_names_stages_and_random_pieces(tmp_path, seed, obj, stage):
    data, truth = _table_log([5 + seed, 4, 6], seed, obj=obj, stage=stage, words=seed == 0)
    got = whole_and_pieces(tmp_path, data, f"o{seed}_{obj}_{stage}", seed=seed)
    assert primary_names(got) == [obj]
    assert dict(zip(*got[obj], strict=True)) == truth


def test_a_restart_with_no_later_stage_is_a_new_run_not_continued(tmp_path):
    """The same table printed again after a relaunch (no banner of a later stage: ``Resolution: 0`` again) is a new
    run: the last one's points at their own iterations (the store keeps the earlier run's beyond them), not after
    the first run's."""
    first, t1 = _table_log([10], 1)
    second, t2 = _table_log([8], 2)
    got = whole_as_live(tmp_path, first + second, "relaunch")
    assert primary_names(got) == ["Metric"]
    at = dict(zip(*got["Metric"], strict=True))
    assert sorted(at) == list(range(10)) and [at[s] for s in range(8)] == [t2[s] for s in range(8)]
    assert [at[8], at[9]] == [t1[8], t1[9]]
    same, t3 = _table_log([6, 5], 3, stage_numbers=[0, 0])  # a stage banner whose number does not move on
    at = dict(zip(*whole_as_live(tmp_path, same, "same_stage")["Metric"], strict=True))
    assert sorted(at) == list(range(6)) and [at[s] for s in range(5)] == [t3[6 + s] for s in range(5)]


def test_a_metric_column_beside_a_loss_is_not_the_objective():
    roles = assign_objective(["loss", "Metric", "StepSize"]).roles
    assert roles["loss"].primary and not roles["Metric"].primary
    roles = assign_objective(["Metric", "StepSize", "||Gradient||"]).roles
    assert roles["Metric"].primary and roles["Metric"].direction == "min"
    roles = assign_objective(["Metric", "accuracy"]).roles
    assert not roles["Metric"].primary  # (a metric with a direction beside it: no optimiser's bare table)


def test_the_header_shape_in_words():
    assert tab_header(b"1:ItNr\t2:Metric\t3a:Time\t3b:StepSize\t4:||Gradient||\tTime[ms]") == [
        "ItNr", "Metric", "Time", "StepSize", "||Gradient||", "Time[ms]"]
    assert tab_header(b"ItNr\tMetric\tTime [ms]") == ["ItNr", "Metric", "Time [ms]"]
    assert header_names(b"1:ItNr\t2:Metric\t2:Metric0\t4:||Gradient0||") == ["ItNr", "Metric", "Metric0",
                                                                             "||Gradient0||"]
    for no in (b"ItNr\tMetric", b"0\t161.159320\t0.000000\t0.011636", b"loss\t0.52\tacc", b"1:ItNr 2:Metric 3:Step",
               b"epoch=1\tloss=0.5\tacc=0.9", b"Main\ttrue\t\tWolfeSatisfied", b"a\t" * 70 + b"b",
               b"-threads\t1\tx", b"ItNr\tMetric\t" + b"x" * 60, b"ItNr\tMetric\tStep size of the line search",
               b"Eval Epoch: 1 image_to_text_mean_rank: 5.0000\tclip_val_loss: 1.8000\tepoch: 1.0000\tnum_samples: 64",
               b"Eval Epoch 1\tclip_val_loss\tepoch 2"):
        assert tab_header(no) is None, no
    assert numbered_stem("ItNr", frozenset({"nr", "no"})) == "it"
    assert numbered_stem("EpochNo", frozenset({"nr", "no"})) == "epoch"
    assert numbered_stem("SrchDirNr", frozenset({"nr"})) == "srchdir"
    for no in ("Nr", "Iteration", "ItNr0", "it_nr", "NR", "Metric"):
        assert numbered_stem(no, frozenset({"nr", "no"})) is None, no


def test_a_native_exception_ends_the_run_a_logger_error_does_not():
    died = (b"7\t268.219964\t0.867793\t28.531203\t7.5\nStopping condition: Error in metric.\n\n"
            b"Error occurred during actual registration.\n\n\n"
            b"/work/build/_deps/elx-src/Core/Main/itkElastixRegistrationMethod.hxx:389:\n"
            b"ITK ERROR: ElastixRegistrationMethod(0x559f0b4fe7d0): Internal elastix error: See elastix log.\n\n")
    end = find_end(died, True)
    assert end is not None and end["type"] == "ITK ERROR" and end["message"].startswith("ElastixRegistrationMethod")
    assert not end["nonfinite"]
    for no in (b"12\t0.5\nERROR: could not write the checkpoint, retrying\n",  # a logger's line, no location
               b"12\t0.5\ntrain.py:389:\nITK ERROR: x\n",  # a Python file's location: a warning's, not this shape
               b"12\t0.5\n/src/a.hxx:389:\nsome text\nITK ERROR: x\n",  # the location not right above
               b"12\t0.5\n/src/a.hxx:389:\nItk Error: x\n",
               b"12\t0.5\n/src/a.hxx:389:\nTHE LIBRARY OF X ERROR: x\n"):  # (a tag of more than 3 words)
        assert find_end(no, True) is None, no


_CORPUS = Corpus(SET)
_RUNS = sorted(p.name for p in SET.glob("elastix_*") if (p / "truth.json").exists())


@pytest.mark.parametrize("run", _RUNS)
def test_the_corpus_files_read_at_the_truths_steps(tmp_path, run):
    truth = json.loads((SET / run / "truth.json").read_text())
    got = whole_as_live(tmp_path, (SET / run / "train.log").read_bytes(), run)
    assert primary_names(got) == [truth["loss_name"]] == ["Metric"]
    assert_at_truth(dict(zip(*got["Metric"], strict=True)), truth, run)
    assert max(got["Metric"][0]) == max(s for s, _v in truth["train_loss"])


@pytest.mark.parametrize("run", _RUNS)
def test_the_corpus_files_verdicts(run):
    """Healthy runs never STOP; the should-stop ones end STOP or ESCALATE (the run dying of ``ITK ERROR`` after 8
    iterations: ESCALATE, a dead run)."""
    _CORPUS.assert_replayed_checks(run)
    assert len(_RUNS) == 10


def _restarted_with_setting(runs: int, seed: int) -> bytes:
    """A detectron2-like log of ``runs`` runs appended one after the other, each but the first (the copy starts at its
    records) with its config dump holding a setting that names a stage word (``POOLER_RESOLUTION: 7``) before its
    iteration records, which start again at 19."""
    rng = random.Random(seed)
    out = []
    for r in range(runs):
        dump = ["MODEL:", "  ROI_BOX_HEAD:", "    POOLER_RESOLUTION: 7", "    POOLER_SAMPLING_RATIO: 0", "  FPN:"]
        out += [] if r == 0 else dump
        loss = rng.uniform(5, 8)
        for it in range(19, 200, 20):
            loss *= rng.uniform(0.85, 0.99)
            out.append(f"[12/22 22:29:54 d2.utils.events]:  eta: 0:02:30  iter: {it}  total_loss: {loss:.4g}  "
                       f"lr: 0.0002  max_mem: 4120M")
    return ("\n".join(out) + "\n").encode()


@pytest.mark.parametrize("seed", range(2))
def test_a_setting_naming_a_stage_word_between_restarted_runs_continues_no_run(tmp_path, seed):
    """A stage word inside a setting's name (``POOLER_RESOLUTION: 7``, printed again by each restarted run's config
    dump) is no later stage before the first records: the restarts are new runs, the last one shown (real-logs-2's
    hard-wrapped detectron2 log read 15 points of four runs strung on as stages before this rule)."""
    from .test_read_misses import whole_as_live

    pts = whole_as_live(tmp_path, _restarted_with_setting(3, seed), f"d2_{seed}")
    steps, _values = pts["total_loss"]
    assert steps == list(range(19, 200, 20)), steps
