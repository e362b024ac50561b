"""What libraries_holdout43 and 44 showed in the determinism test (issue 32 point 5): the same bytes read whole and
in pieces (a live log read after each piece appended) give the same points. The engine's state between reads judged
some things on a read's lines alone:

- a series of lines with no step of its own (MXNet's running ``Epoch[1] Batch [4-8]\\tSpeed: ...\\tmse=0.74``, the
  twin of the epoch's record ``Epoch[1] Train-mse=0.49``) is small (at the current step) or the main one (numbered
  by line order) as the log so far judges it, and a read whose judgement flips an earlier read's has the file read
  again (the first read, before any epoch record, numbers them);
- a one-off line carried from an earlier read that recurs after lines numbered by line order since (Spark's ``Line
  search t: 1.003 fval: 1.128``) has the file read again knowing it recurs;
- a record's counter is a progress counter or a running pair (eole's ``18771/21327 tok/s``, a total of its own on
  each line) as the log so far shows, not as a read holding one of its lines shows;
- an eval's line read once at a read's end (``Validation accuracy: 59.03``) and seen again later has the file read
  again knowing it recurs.
"""

from __future__ import annotations

import math

import pytest

from .test_read_misses import whole_as_live

# cuts (shares of the bytes) where the corpus files' reads ended
MX_CUTS = ((0.19, 0.34, 0.62, 0.86), (0.005, 0.166, 0.237, 0.915), (0.465, 0.592, 0.873, 0.981), (0.03, 0.2, 0.37,
                                                                                                   0.55, 0.81))


def _mxnet(epochs: int, per_epoch: int, nan_from: int | None = None) -> str:
    out = ["[18:45:51] ../src/executor/graph_executor.cc:1991: Subgraph backend MKLDNN is activated.\n"]
    k = 0
    for e in range(epochs):
        for b in range(per_epoch):
            k += 1
            v = math.nan if nan_from is not None and e >= nan_from else 2.0 / (1 + 0.3 * k) + 0.05 * (k % 3)
            out.append(f"INFO:root:Epoch[{e}] Batch [{4 * b}-{4 * b + 4}]\tSpeed: {60000 + 997.3 * (k % 29):.2f} "
                       f"samples/sec\tmse={v:.6f}\n")
        t = math.nan if nan_from is not None and e >= nan_from else 1.5 / (1 + e)
        out.append(f"INFO:root:Epoch[{e}] Train-mse={t:.6f}\n")
        out.append(f"INFO:root:Epoch[{e}] Time cost={0.007 + 0.001 * (e % 3):.3f}\n")
        if nan_from is None:
            out.append(f"INFO:root:Epoch[{e}] Validation-mse={1.6 / (1 + e):.6f}\n")
    return "".join(out)


@pytest.mark.parametrize("per_epoch", [3, 4])
@pytest.mark.parametrize("cuts", MX_CUTS)
def test_a_running_twin_of_the_epoch_record_reads_the_same_in_pieces(tmp_path, per_epoch, cuts):
    pts = whole_as_live(tmp_path, _mxnet(8, per_epoch).encode(), f"mx{per_epoch}.log", cuts)
    assert pts["Train-mse"][0] == list(range(8))


@pytest.mark.parametrize("cuts", MX_CUTS)
def test_a_running_twin_that_turns_nan_reads_the_same_in_pieces(tmp_path, cuts):
    pts = whole_as_live(tmp_path, _mxnet(12, 3, nan_from=7).encode(), "mxnan.log", cuts)
    assert math.isnan(pts["Train-mse"][1][-1])


def _spark(iters: int, second: int) -> str:
    out = ["WARNING: Using incubator modules: jdk.incubator.vector\n",
           "26/12/06 18:54:51 WARN Utils: Set SPARK_LOCAL_IP if you need to bind to another address\n",
           "26/12/06 18:55:03 INFO Instrumentation: [947ff4c0] {\"numClasses\":3}\n"]
    f = 1.18
    for i in range(iters):
        if i in (0, second):
            out.append(f"26/12/06 18:55:11 INFO StrongWolfeLineSearch: Line search t: {1.0033 - 0.5 * (i > 0)!r} "
                       f"fval: {f * 0.95!r} rhs: {f!r} cdd: -0.004559363037849817\n")
            out.append(f"26/12/06 18:55:11 INFO LBFGS: Step Size: {1.003 - 0.5 * (i > 0):.3f}\n")
        else:
            out.append("26/12/06 18:55:11 INFO LBFGS: Step Size: 1.000\n")
        f *= 0.93
        out.append(f"26/12/06 18:55:11 INFO LBFGS: Val and Grad Norm: {f:.6g} (rel: {0.03 + 0.01 * (i % 7):.3g}) "
                   f"{0.2 - 0.004 * i:.6g}\n")
    out.append("26/12/06 18:55:14 INFO LBFGS: Converged because max iterations reached\n")
    return "".join(out)


@pytest.mark.parametrize("cuts", [(0.307, 0.491, 0.804, 0.836), (0.1, 0.3, 0.5, 0.7), (0.03, 0.2, 0.37, 0.55, 0.81)])
def test_a_line_seen_once_before_lines_numbered_by_order_then_again_reads_the_same_in_pieces(tmp_path, cuts):
    whole_as_live(tmp_path, _spark(40, 31).encode(), "spark.log", cuts)


def _eole(steps: int, every: int, valid: int) -> str:
    out = ["[2026-12-06 18:50:56,962 INFO] Missing transforms field for corpus_1 data, set to default: [].\n"]
    sents = 0
    for s in range(every, steps + 1, every):
        ppl = 24.0 * math.exp(-s / 400)
        out.append(f"[2026-12-06 18:50:58,288 INFO] Step {s}/  {steps}; acc: {5 + s / 20:.1f}; ppl: {ppl:5.2f}; "
                   f"xent: {math.log(ppl):.2f}; aux: 0.000; mtp: 0.000; attn_ent: 1.7; lr: 5.00e-04; sents:     640; "
                   f"bsz:  {380 + s % 97}/ {440 + s % 97}/64; {15000 + 317 * (s % 23)}/{18000 + 331 * (s % 19)} "
                   f"tok/s;      {s // 40} sec;\n")
        sents += 640
        if s % (5 * every) == 0:
            out.append(f"[2026-12-06 18:50:59,408 INFO] Weighted corpora loaded so far:\n\t\t\t* corpus_1: {s}\n")
        if s % valid == 0:
            out.append("[2026-12-06 18:50:59,132 INFO] valid stats calculation\n"
                       "                           took: 0.040521860122680664 s.\n"
                       f"[2026-12-06 18:50:59,133 INFO] Train perplexity: {ppl * 1.05:.4f}\n"
                       f"[2026-12-06 18:50:59,133 INFO] Train accuracy: {8 + s / 30:.4f}\n"
                       f"[2026-12-06 18:50:59,133 INFO] Sentences processed: {sents}\n"
                       f"[2026-12-06 18:50:59,133 INFO] {{'corpus_1': {{'count': {sents}, 'index': {s * 7 % 500}}}}}\n"
                       "[2026-12-06 18:50:59,133 INFO] Average bsz:  420/ 484/64\n"
                       f"[2026-12-06 18:50:59,133 INFO] Validation perplexity: {ppl * 0.97:.4f}\n"
                       f"[2026-12-06 18:50:59,133 INFO] Validation accuracy: {13 + s / 50:.4f}\n")
    out.append("[2026-12-06 18:51:02,570 INFO] Saving config and vocab to run/model\n")
    return "".join(out)


@pytest.mark.parametrize("cuts", [(0.008, 0.916, 0.933, 0.978), (0.561, 0.681, 0.71, 0.969), (0.03, 0.2, 0.37, 0.55,
                                                                                                 0.81)])
@pytest.mark.parametrize("steps,valid", [(200, 50), (300, 100), (400, 200)])
def test_a_running_pair_and_eval_lines_read_the_same_in_pieces(tmp_path, cuts, steps, valid):
    pts = whole_as_live(tmp_path, _eole(steps, 10, valid).encode(), f"eole{steps}.log", cuts)
    assert pts["ppl"][0] == list(range(10, steps + 1, 10))
