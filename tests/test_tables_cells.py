"""Issue 32, horizontal tables of two more shapes, each as the library prints it: cells holding an array as numpy and
torch print it (DeepXDE's ``[2.57e-01]``; an empty metric ``[]``; several loss terms ``[1.2e-01, 3.4e-02]``), a
warning printed amid a table's rows, and a header of two lines whose columns are named by the words one over the
other (Vowpal Wabbit's ``average  since ...`` over ``loss  last ...``, a notice line between it and the rows). Read
by the one engine through the real LogFileSource, and the same points in any number of reads."""

from __future__ import annotations

import math

from training_check.tools.parsers.tables_text import _INTERRUPTION_LINES, join_two

from .test_engine_tables import _read, _same_in_any_reads

DDE = (b"Compiling model...\n'compile' took 0.5 s\n\nTraining model...\n\n"
       b"Step      Train loss    Test loss     Test metric   \n"
       b"0         [2.57e-01]    [2.34e-01]    []            \n"
       b"5         [1.54e+06]    [1.54e+06]    []            \n"
       b"10        [1.39e+22]    [1.39e+22]    []            \n"
       b"/venv/lib/python3.11/site-packages/numpy/linalg/_linalg.py:2768: RuntimeWarning: overflow encountered in dot\n"
       b"  sqnorm = x.dot(x)\n"
       b"15        [inf]         [inf]         []            \n"
       b"20        [nan]         [nan]         []            \n\n")

DDE_TERMS = (b"Training model...\n\n"
             b"Step      Train loss              Test loss               Test metric   \n"
             b"0         [1.20e-01, 3.40e-02]    [1.10e-01, 3.00e-02]    [9.00e-01]    \n"
             b"100       [6.00e-02, 1.00e-02]    [5.00e-02, 1.00e-02]    [5.00e-01]    \n"
             b"200       [3.00e-02, 5.00e-03]    [2.00e-02, 4.00e-03]    [2.50e-01]    \n")

VW = (b"Num weight bits = 18\nlearning rate = 0.5\n"
      b"average  since         example        example        current        current  current\n"
      b"loss     last          counter         weight          label        predict features\n"
      b"[info] label 3 found -- labels are now considered 1-indexed.\n"
      b"0.693147 0.693147            1            1.0              2              1       10\n"
      b"0.574763 0.456379            2            2.0              3              3       10\n"
      b"0.639671 0.704579            4            4.0              1              1       10\n"
      b"0.568179 0.496686            8            8.0              3              3       10\n"
      b"0.603117 0.638056           16           16.0              1              1       10\n"
      b"0.554456 0.505795           32           32.0              3              3       10\n"
      b"\nfinished run\nnumber of examples = 32\naverage loss = 0.554456\n")


def test_a_cell_of_one_bracketed_number_is_that_number_and_a_warning_amid_rows_does_not_end_the_table(tmp_path):
    _res, cols = _read(tmp_path, DDE)
    steps, values = cols["Train loss"]
    assert steps == [0, 5, 10, 15, 20]
    assert values[:3] == [0.257, 1.54e6, 1.39e22] and values[3] == math.inf and math.isnan(values[4])
    assert cols["Test loss"][0] == steps
    assert "Test metric" not in cols  # ``[]``: an empty array is no value
    _same_in_any_reads(DDE.replace(b"[nan]", b"[9.9e+30]"))  # (a NaN is equal to no NaN)


def test_a_cell_of_several_numbers_is_aligned_to_its_column_and_not_read_as_one_of_them(tmp_path):
    _res, cols = _read(tmp_path, DDE_TERMS)
    assert cols["Test metric"] == ([0, 100, 200], [0.9, 0.5, 0.25])  # the columns after the lists stay aligned
    assert "Train loss" not in cols and "Test loss" not in cols  # a total is a sum, not any one term
    _same_in_any_reads(DDE_TERMS)


def test_a_header_of_two_lines_names_each_column_by_its_two_words(tmp_path):
    _res, cols = _read(tmp_path, VW)
    assert cols["average loss"] == ([1, 2, 4, 8, 16, 32], [0.693147, 0.574763, 0.639671, 0.568179, 0.603117,
                                                           0.554456])
    assert cols["since last"][0] == [1, 2, 4, 8, 16, 32]
    assert "example counter" not in cols  # the step
    _same_in_any_reads(VW)


def test_two_header_lines_are_joined_only_when_each_upper_word_sits_over_one_lower_word():
    assert [n for n, _a, _b in join_two(b"        train    val", b"step    loss     loss")] == [
        "step", "train loss", "val loss"]
    assert join_two(b"Training the model", b"step    loss     loss") is None  # a phrase over a header
    assert join_two(b"x  average     y", b"step    loss     loss") is None  # a word over no word, one over two
    assert join_two(b"train  loss  acc", b"0.5    0.3   0.1") is None  # a row of numbers is no header's line


def test_more_lines_than_a_warning_between_rows_end_the_table(tmp_path):
    prose = b"".join(b"note %d: the model is being saved to disk now\n" % n for n in range(_INTERRUPTION_LINES + 1))
    data = DDE.replace(b"  sqnorm = x.dot(x)\n", prose)
    _res, cols = _read(tmp_path, data)
    # more lines heading nothing than three warnings with their source lines: the rows after them have no header
    assert cols["Train loss"][0] == [0, 5, 10]
    _same_in_any_reads(data.replace(b"[nan]", b"[9.9e+30]"))
