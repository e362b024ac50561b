"""What examples/libraries_holdout99 showed of pyabc (issue 32, fixabc): a sampler's generations written as sentences.

pyabc's ABC-SMC logs, per generation ``t`` (0-based), ``ABC INFO: t: 3, eps: 2.56164447e-01.`` then ``ABC INFO:
Accepted: 100 / 205 = 4.8780e-01, ESS: 9.9260e+01.`` and ``ABC INFO: Timing t=3 [s]: total=0.245, ...``; at DEBUG
also ``ABC.Epsilon DEBUG: New eps, t=3, eps=6.1656856620598`` and database lines. The first reading read nothing:
(1) the sentence's full stop right after the number made ``2.56164447e-01.`` no number (``full_stops.py``); (2) no
loss is logged: the acceptance threshold ``eps`` is what the run drives down, its objective when nothing else has a
direction (``thresholds.py``, ``Dialect.threshold_names``), and ``t: 3`` opening the record before it its position
(``fields.plan_template``'s opener). The acceptance count and the timings are no objective. Generated variants
(other names, loggers, number formats, widths, extra lines) read whole and appended in pieces, the corpus files at
their truth's steps with their verdicts, and the cases the rules must not catch.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest
from training_check.tools.objective import assign_objective
from training_check.tools.parsers import full_stops
from training_check.tools.parsers.full_stops import stop_after, without_full_stops, without_stops
from training_check.tools.thresholds import is_threshold, threshold_objective

from .corpus_checks import Corpus
from .test_read_misses import assert_at_truth, primary_names, truth_points, whole_and_pieces, whole_as_live

ROOT = Path(__file__).resolve().parents[1] / "examples" / "libraries_holdout99"
RUNS = sorted(p.parent.name for p in ROOT.glob("pyabc_*/train.log"))

_PREFIXES = {
    "pyabc": "ABC INFO: ",
    "stamped": "2026-12-07 10:00:{s:02d},123 - ABC - INFO - ",
    "bracketed": "[ABC] [INFO] ",
    "bare": "",
}
_FORMATS = {"%.8e": "{:.8e}", "%.4f": "{:.4f}", "%g": "{:g}", "%.3e": "{:.3e}"}


def _abc_log(gens: int, prefix: str, name: str, step: str, fmt: str, stop: bool, extra: bool, debug: bool,
             seed: int) -> tuple[bytes, list[tuple[int, float]]]:
    """An ABC-SMC log: per generation its threshold's line (``<step>: t, <name>: v`` with or without a full stop),
    with ``extra`` the acceptance and timing lines between, with ``debug`` the next threshold in full before."""
    rng = random.Random(seed)
    eps = rng.uniform(5, 300)
    end = "." if stop else ""
    lines = [prefix.format(s=0).replace("INFO", "INFO") + "Calibration sample t = -1."]
    truth = []
    for t in range(gens):
        s = t % 60
        if debug and t:
            lines.append(f"ABC.Epsilon DEBUG: New {name}, t={t}, {name}={eps!r}")
            lines.append("ABC.History DEBUG: Database access through get_all_populations")
        text = _FORMATS[fmt].format(eps)
        lines.append(prefix.format(s=s) + f"{step}: {t}, {name}: {text}{end}")
        truth.append((t, float(text)))
        if extra:
            n = rng.randint(100, 3000)
            lines.append(prefix.format(s=s) + f"Accepted: 100 / {n} = {100 / n:.4e}, ESS: {rng.uniform(50, 100):.4e}.")
            lines.append(prefix.format(s=s) + f"Timing t={t} [s]: total={rng.uniform(0.1, 2):.3g}, simulation="
                         f"{rng.uniform(0.05, 1):.3g} ({rng.randint(10, 90)}%), pipeline-setup=0.0136.")
        eps *= rng.uniform(0.45, 0.98)
    lines.append(prefix.format(s=0) + "Stop: Maximum number of generations.")
    return ("\n".join(lines) + "\n").encode(), truth


_SHAPES = [
    # (prefix, threshold name, step name, format, full stop, extra lines, debug lines)
    ("pyabc", "eps", "t", "%.8e", True, True, False),
    ("pyabc", "eps", "t", "%.8e", True, True, True),
    ("stamped", "eps", "t", "%.8e", True, True, False),
    ("bracketed", "epsilon", "t", "%.4f", True, False, False),
    ("bare", "eps", "t", "%g", True, True, False),
    ("pyabc", "epsilon", "generation", "%.3e", True, True, False),
    ("pyabc", "eps", "t", "%.8e", False, True, False),
    ("bare", "Epsilon", "t", "%.4f", True, False, False),
]


@pytest.mark.parametrize("shape", range(len(_SHAPES)))
@pytest.mark.parametrize("gens", [6, 23])
def test_a_samplers_threshold_per_generation_is_its_objective_at_t(tmp_path, shape, gens):
    prefix, name, step, fmt, stop, extra, debug = _SHAPES[shape]
    data, truth = _abc_log(gens, _PREFIXES[prefix], name, step, fmt, stop, extra, debug, seed=shape * 7 + gens)
    pts = whole_and_pieces(tmp_path, data, f"abc{shape}_{gens}.log", seed=shape)
    assert primary_names(pts) == [name], sorted(pts)
    steps, values = pts[name]
    got = dict(zip(steps, values, strict=True))
    for t, v in truth:
        assert t in got, (shape, t)
        assert math.isclose(got[t], v, rel_tol=1e-6), (shape, t, got[t], v)
    # (with the DEBUG lines, the threshold set for the generation after the last one: one more point, lower)
    assert steps == [t for t, _ in truth] or debug and steps == [t for t, _ in truth] + [gens]


def test_the_threshold_read_whole_and_in_many_pieces_alike(tmp_path):
    data, truth = _abc_log(40, _PREFIXES["pyabc"], "eps", "t", "%.8e", True, True, True, seed=3)
    pts = whole_and_pieces(tmp_path, data, "many.log", seed=11, trials=5)
    assert pts["eps"][0][:40] == [t for t, _ in truth]


# -- a sentence's full stop after a number -------------------------------------------------------------------------

@pytest.mark.parametrize(("line", "want"), [
    (b"ABC INFO: t: 3, eps: 2.56164447e-01.", b"ABC INFO: t: 3, eps: 2.56164447e-01"),
    (b"Accepted: 100 / 205 = 4.8780e-01, ESS: 9.9260e+01.", b"Accepted: 100 / 205 = 4.8780e-01, ESS: 9.9260e+01"),
    (b"loss 0.75. acc 0.5. done", b"loss 0.75 acc 0.5 done"),
    (b"eps: +.+.", b"eps: +.+"),  # (the NaN mark, ``nan.`` masked)
    (b"eps: 9e999.", b"eps: 9e999"),  # (``inf.`` masked)
    (b"x\t1.5.\ty", b"x\t1.5\ty"),
])
def test_a_full_stop_after_a_number_is_dropped(line, want):
    assert without_stops(line) == want


@pytest.mark.parametrize("line", [
    b"Calibration sample t = -1.",  # a whole number with its point: a number as printed, the same value
    b"Evaluations: 80.",
    b"Loaded version 1.2.3.",  # no number either way (a version)
    b"model v1.2.",  # glued to a word: a name
    b"the size.",  # (``e.`` ends a word)
    b"pi is 3.14.15",  # not before a blank or the line's end
    b"ratio 2.5.x",
    b".",
    b"",
    b"...",
    b"a " + b"1" * 100 + b".5.",  # a run longer than MAX_RUN
])
def test_what_is_no_full_stop_after_a_number_is_kept(line):
    assert without_stops(line) is line or without_stops(line) == line


def test_full_stops_over_a_block_are_found_per_line():
    lines = [b"a 1.5.", b"b 2", b"", b"c 3.5e-01. d", b"e 3.", b"f 4.25.", b"g +.+.", b"v1.2.", b"1.5."]
    got = without_full_stops(lines)
    assert got is not None
    new, text = got
    assert list(new) == [b"a 1.5", b"b 2", b"", b"c 3.5e-01 d", b"e 3.", b"f 4.25", b"g +.+", b"v1.2.", b"1.5"]
    assert text == b"\n".join(new)
    assert without_full_stops([b"x 1", b"nothing here.", b"3. Then"]) is None
    assert without_full_stops([]) is None
    assert not stop_after(b"3.", 1) and stop_after(b"3.5.", 3)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("chunk", [7, 1 << 15])
def test_the_vectorised_block_pass_is_the_line_by_line_one(monkeypatch, seed, chunk):
    """``without_full_stops`` (vectorised, runs judged by shape, in chunks) drops exactly the dots ``without_stops``
    (line by line) drops, on random lines of numbers, words and dots, in small chunks too."""
    monkeypatch.setattr(full_stops, "CHUNK", chunk)
    rng = random.Random(seed)
    parts = ["1.5", "2.5e-01", "3", "-1", "1.2.3", "v1.2", "+.+", "9e999", "e5", "size", "x", "", "0.000", "12"]
    lines = []
    for _ in range(400):
        words = [rng.choice(parts) + rng.choice([".", "", ". ", ""]) for _ in range(rng.randint(0, 5))]
        lines.append(rng.choice([" ", "\t", ", "]).join(words).encode())
    lines += [b"a " + b"1" * n + b".5." for n in (60, 61, 62, 63)]  # (runs about ``MAX_RUN`` long)
    got = without_full_stops(lines)
    want = [without_stops(ln) for ln in lines]
    assert (list(got[0]) if got is not None else lines) == want


def test_a_loss_ending_a_sentence_reads(tmp_path):
    data = "".join(f"Iteration {i}: the loss is {2 / (i + 1):.5f}.\n" for i in range(12)).encode()
    pts = whole_as_live(tmp_path, data, "sentence.log")
    assert primary_names(pts) == ["loss"]
    assert np.allclose(pts["loss"][1], [round(2 / (i + 1), 5) for i in range(12)])


# -- what the threshold rule must not catch ------------------------------------------------------------------------

def test_a_threshold_beside_a_loss_or_a_reward_is_no_objective(tmp_path):
    data = "".join(f"step {i}, loss: {1 / (i + 1):.4f}, eps: {0.9 ** i:.4f}\n" for i in range(10)).encode()
    assert primary_names(whole_as_live(tmp_path, data, "loss_eps.log")) == ["loss"]
    data = "".join(f"episode {i}, eps: {0.9 ** i:.4f}, reward: {3 * i}\n" for i in range(10)).encode()
    assert "eps" not in primary_names(whole_as_live(tmp_path, data, "rl_eps.log"))
    roles = assign_objective(["eps", "accuracy"]).roles
    assert not roles["eps"].primary
    assert threshold_objective(["eps", "episode_reward"], assign_objective(["eps", "episode_reward"]).roles) is None


def test_the_acceptance_counts_and_timings_alone_are_no_objective(tmp_path):
    rng = random.Random(5)
    lines = []
    for t in range(10):
        n = rng.randint(100, 900)
        lines.append(f"ABC INFO: Accepted: 100 / {n} = {100 / n:.4e}, ESS: {rng.uniform(50, 100):.4e}.")
        lines.append(f"ABC INFO: Timing t={t} [s]: total={rng.uniform(0.1, 2):.3g}, simulation=0.1 (39%).")
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "counts.log")
    assert primary_names(pts) == []


def test_a_time_named_t_or_a_layers_index_is_no_step(tmp_path):
    """``t`` over numbers with decimals (a time) is no position, nor is a number opening a record that does not rise
    at every record (a model's printed layers, each ``eps`` a setting): no threshold is read at them."""
    data = "".join(f"t: {0.5 + 0.13 * i:.2f}, eps: {1 / (i + 1):.4f}\n" for i in range(10)).encode()
    pts = whole_as_live(tmp_path, data, "time_t.log")
    assert "eps" not in pts and primary_names(pts) == []
    layers = "".join(f"  ({i % 3}): BatchNorm1d(32, eps=1e-05, momentum=0.1, affine=True)\n" for i in range(12))
    layers += "    (ln_pre): LayerNorm((64,), eps=1e-05, elementwise_affine=True, bias=True)\n" + "".join(
        f"{' ' * (6 + 2 * (i // 2))}(ln_{i % 2 + 1}): LayerNorm((64,), eps=1e-05, elementwise_affine=True)\n"
        for i in range(6)) + "  (ln_final): LayerNorm((64,), eps=1e-05, elementwise_affine=True, bias=True)\n"
    data = (layers + "".join(f"step {i}, loss: {1 / (i + 1):.4f}\n" for i in range(10))).encode()
    pts = whole_as_live(tmp_path, data, "layers.log")
    assert sorted(pts) == ["loss"] and primary_names(pts) == ["loss"]
    # (open_clip's model printed at its start, examples/libraries_holdout57: the one-off ``(ln_pre)`` line is no
    # initial value of the ``(ln_1)``/``(ln_2)`` layers' lines, which are no series)
    clip = (ROOT.parent / "libraries_holdout57" / "openclip_logevery1_noval_4ep" / "train.log").read_bytes()
    head = b"\n".join(clip.split(b"\n")[12:58]) + b"\n"
    assert head.count(b"LayerNorm((64,), eps=1e-05") == 7
    data = head + "".join(f"step {i}, loss: {1 / (i + 1):.4f}\n" for i in range(10)).encode()
    pts = whole_as_live(tmp_path, data, "clip_layers.log")
    assert "eps" not in pts and "LayerNorm" not in pts and primary_names(pts) == ["loss"]


def test_threshold_names():
    assert all(is_threshold(n) for n in ("eps", "Epsilon", "ABC eps", "epsilon"))
    assert not any(is_threshold(n) for n in ("eps_decay", "adam_eps", "tolerance", "threshold", "loss"))


# -- the corpus files ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("run", RUNS)
def test_the_corpus_files_read_at_the_truths_steps(tmp_path, run):
    truth, got = truth_points(tmp_path, ROOT, run)
    assert truth["loss_name"] == "eps"
    assert_at_truth(got, truth, run)


_CORPUS = Corpus(ROOT)


@pytest.mark.parametrize("run", RUNS)
def test_the_corpus_files_read_and_never_flagged(run):
    """Each pyabc run (all healthy: eps only falls with a fixed distance) read whole, its three replayed checks never
    STOP nor ESCALATE (WAIT while 5 to 8 generations are too few to judge)."""
    r = _CORPUS.result(run)
    assert r.found == r.expected, r.why
    assert r.verdict in ("CONTINUE", "WAIT") and "S" not in r.verdicts and "E" not in r.verdicts, (run, r.verdicts)
