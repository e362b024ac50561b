"""Shapes the reader missed on examples/libraries5 (issue 32, "records, not lines"), each written as a small log the
way a library prints it and read by the one engine; the same bytes read in parts give the same points. Each shape
is general: a rule any library's log can meet, with what is library-specific kept as data in ``dialect.py``."""

from __future__ import annotations

from training_check.tools.roles import infer_role, is_rl_return

from .test_engine_records import _same_in_reads


def _trainer_epochs(epochs: int, first: int = 3) -> bytes:
    """A trainer's own prints around per-epoch records (pytorch-accelerated's ``PrintProgressCallback`` and
    ``LogMetricsCallback``): a line of three words (``Starting training run``) over an epoch banner with no count."""
    out = ["", "Starting training run"]
    for e in range(first, first + epochs):
        out += ["", f"Starting epoch {e}", "", f"train_loss_epoch: {1.0 / e}", "", "Starting eval epoch", "",
                f"eval_loss_epoch: {2.0 / e}"]
    out.append("Finishing training run")
    return ("\n".join(out) + "\n").encode()


def test_a_line_of_words_with_a_headers_cell_count_is_no_table_row():
    """``Starting training run`` reads like a header of three columns, and ``Starting epoch 3`` has three cells: but
    its cells are words naming their own number, so it is the epoch banner, not a row whose number is "run"."""
    pts = _same_in_reads(_trainer_epochs(4), every=2)
    assert pts["train_loss_epoch"][0] == [3, 4, 5, 6]
    assert pts["eval_loss_epoch"][0] == [3, 4, 5, 6]


def _rl_info(batches: int) -> bytes:
    """TorchRL's getting-started loop printing through ``torchrl_logger.info`` (colour codes, ``[END]``): the frames
    collected so far, the loss, and the longest episode so far named ``max num steps``."""
    out = []
    longest = 20
    for b in range(1, batches + 1):
        longest = max(longest, 20 + (b * 37) % 90)
        out.append(f"\x1b[92m2026-12-05 20:10:21,584 [torchrl][INFO]\x1b[0m    frames {b * 400}: loss {0.5 / b:.5f}, "
                   f"max num steps {longest}, rb length {b * 400}\x1b[92m [END]\x1b[0m")
    return ("\n".join(out) + "\n").encode()


def test_frames_are_the_step_and_a_statistic_of_steps_is_no_step():
    pts = _same_in_reads(_rl_info(12), every=3)
    assert pts["loss"][0] == [400 * b for b in range(1, 13)]
    assert "max num steps" in pts and len(pts["max num steps"][0]) == 12


def test_mushroom_j_is_an_evaluations_return_higher_is_better():
    data = "".join(f"05/12/2026 20:08:53 [INFO] Epoch {e} | J: {-900.0 / (e + 1):.4f}\n" for e in range(8)).encode()
    pts = _same_in_reads(data, every=2)
    assert pts["eval_discounted_return"][0] == list(range(8))
    role = infer_role("eval_discounted_return")
    assert (role.role, role.direction) == ("eval", "max") and is_rl_return("eval_discounted_return")


def _bar(total: int) -> str:
    """A tqdm bar over ``total`` items left behind by ``leave=False`` (cleared with blanks), as to a file."""
    draws = "".join(f"\r{100 * i // total:3d}%|#  | {i}/{total} [00:00<00:00, 458.36it/s]" for i in
                    range(0, total + 1, max(1, total // 4)))
    return draws + "\r" + " " * 38 + "\r"


def _rl_epochs(epochs: int, bars: bool) -> bytes:
    """An RL library's epoch loop (MushroomRL's ``core.learn`` then ``core.evaluate``, each drawing its own bar that
    restarts per call), then ``logger.epoch_info(n, J=...)``."""
    out = ""
    for e in range(epochs):
        out += (_bar(10) if bars and e else "") + f"05/12/2026 20:08:53 [INFO] Epoch {e} | J: {-900.0 / (e + 1)}\n"
        if bars:
            out += _bar(100)
    return out.encode()


def test_a_record_printing_its_epoch_is_at_it_whatever_bars_count_between():
    """The epoch a record prints, one an epoch counted by one, is its step: bars between that count rollouts and
    evaluation episodes (restarting per call) are no step of its, with or without them the same points."""
    with_bars = _same_in_reads(_rl_epochs(8, bars=True), every=1)
    assert with_bars["eval_discounted_return"][0] == list(range(8))
    assert with_bars == _same_in_reads(_rl_epochs(8, bars=False), every=1)


def test_a_list_after_a_name_is_no_value_of_it():
    """``policy_weights: [-0.47, 0.2]`` (MushroomRL's ``epoch_info`` given an array's ``tolist()``): a list, no
    scalar; its first element is no point of the name. A single element in brackets (``[0.25]``) is its value."""
    data = "".join(f"[INFO] Epoch {e} | J: {-900.0 / (e + 1)} policy_weights: [{-0.1 * e}, {0.2 * e}, 2.0] "
                   f"gain: [{0.5 * e}]\n" for e in range(6)).encode()
    pts = _same_in_reads(data, every=2)
    assert "policy_weights" not in pts
    assert pts["gain"] == (list(range(6)), [0.5 * e for e in range(6)])
    assert pts["eval_discounted_return"][0] == list(range(6))


def _trainer_with_bars(epochs: int) -> bytes:
    """pytorch-accelerated's default callbacks: a train bar and an eval bar per epoch (no epoch of their own), each
    under a banner, then the epoch's records after blank lines."""
    bar = "".join(f"\r{100 * i // 24:3d}%|#  | {i}/24 [00:00<00:00, 68.53it/s]" for i in (0, 12, 24))
    ebar = "".join(f"\r{100 * i // 8:3d}%|#  | {i}/8 [00:00<00:00, 68.53it/s]" for i in (0, 8))
    out = "\nStarting training run\n"
    for e in range(1, epochs + 1):
        out += (f"\nStarting epoch {e}\n{bar}\n\ntrain_loss_epoch: {1.0 / e}\n\nStarting eval epoch\n{ebar}\n\n"
                f"eval_loss_epoch: {2.0 / e}\n")
    return out.encode()


def test_a_bars_numbers_are_never_named_by_a_header_of_words_above_it_in_a_later_read():
    """``Starting eval epoch`` (three words) reads like a header; a bar drawn under it in a later read (``0/8
    [00:00<00:00, 68.53it/s]``) keeps its numbers the bar's, never a column "epoch": every read size gives the
    records at the bars' running count."""
    pts = _same_in_reads(_trainer_with_bars(4), every=1)
    assert pts["train_loss_epoch"][0] == [24, 48, 72, 96]
