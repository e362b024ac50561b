"""What examples/libraries_holdout37 showed (issue 32, its first reading 0/20 files):

- torchkeras draws one tqdm bar per epoch under its banner (``=====...=====2026-12-06 15:25:30`` then ``Epoch 1 / 10``),
  redrawn with ``\\r`` at every batch while its counter stays at ``0/16``: the postfix shows each batch's loss, the
  close (``16/16 [..., train_loss=1.07]``) the epoch's mean, the run's own record (its ``dfhistory``). A bar whose
  counter never moves gives no step of its own: its close is the epoch's point, at the epoch
  (``engine._stale_bars``); a bar whose counter moves is read as before.
- arch prints ``Iteration:      1,   Func. Count:      6,   Neg. LLF: 174474776225.93536``: a negated log-likelihood
  function, the nll it minimises (``roles._NLL``).
- kmodes' k-prototypes prints ``Run: 1, iteration: 1/100, moves: 302, ncost: 3440.217``: the new cost after the
  iteration's moves (``Dialect.aliases``).
"""

from __future__ import annotations

from training_check.tools.roles import infer_role

from .test_read_misses import primary_names, whole_as_live

_RULE = "=" * 80
_BLOCK = "\u2588"  # tqdm's full block


def _bar(pct: int, n: int, total: int, rest: str, full: bool = False) -> str:
    """One tqdm redraw of ``ncols=100``: the bar's body (``\u2588``, 3 bytes each) fills what the counter and the
    postfix leave."""
    tail = f"| {n}/{total} [{rest}]"
    room = 100 - 5 - len(tail)
    return f"\r{pct:3d}%|{(_BLOCK if full else ' ') * room}{tail}"


def _torchkeras(epochs: int, batches: int = 16, val: bool = True, moving: bool = False, stamped: bool = False) -> str:
    out = ["No module named 'tabm'\n", "\x1b[0;31m<<<<<< \U0001f40c cpu is used >>>>>>\x1b[0m\n"]
    loss = 3.0
    for e in range(1, epochs + 1):
        clock = f"15:{25 + e * 7 // 60:02d}:{e * 7 % 60:02d}" if stamped else "15:25:30"  # (a run of 7 s an epoch)
        out.append(f"\n{_RULE}2026-12-06 {clock}\nEpoch {e} / {epochs}\n\n")
        bar = [_bar(0, 0, batches, "00:00<?, ?it/s")]
        seen = []
        for b in range(batches):
            x = round(loss * (1.3 if b % 3 == 0 else 0.8), 3)
            seen.append(x)
            n = b + 1 if moving else 0
            bar.append(_bar(100 * n // batches, n, batches, f"00:00<?, ?it/s, lr=0.02, train_loss={x:.3g}"))
        mean = sum(seen) / len(seen)
        bar.append(_bar(100, batches, batches, f"00:00<00:00, 777.72it/s, lr=0.02, train_loss={mean:.3g}", True))
        out.append("".join(bar) + "\n")
        if val:
            out.append(_bar(0, 0, 4, "00:00<?, ?it/s") + _bar(0, 0, 4, f"00:00<?, ?it/s, val_loss={mean * 0.9:.3g}")
                       + _bar(100, 4, 4, f"00:00<00:00, 900.1it/s, val_loss={mean * 0.95:.3g}", True) + "\n")
        out.append(f"\x1b[0;31m<<<<<< reach best {'val' if val else 'train'}_loss : {mean!r} >>>>>>\x1b[0m\n")
        loss *= 0.8
    return "".join(out)


def _means(epochs: int, batches: int = 16) -> list[float]:
    loss, out = 3.0, []
    for _e in range(epochs):
        seen = [round(loss * (1.3 if b % 3 == 0 else 0.8), 3) for b in range(batches)]
        out.append(float(f"{sum(seen) / len(seen):.3g}"))
        loss *= 0.8
    return out


def test_a_bar_whose_counter_never_moves_gives_the_epochs_close_at_the_epoch(tmp_path):
    for val in (True, False):
        pts = whole_as_live(tmp_path, _torchkeras(10, val=val).encode(), f"torchkeras_{val}.log")
        assert pts["train_loss"] == (list(range(1, 11)), _means(10)), pts["train_loss"]
        assert primary_names(pts) == ["train_loss"]
        if val:
            assert pts["val_loss"][0] == list(range(1, 11))


def test_banners_whose_time_stamps_move_are_no_terminal_wrap(tmp_path):
    """Every banner as wide as the others, each followed by ``Epoch N / M``, its time stamp moving epoch after epoch:
    a rule printed whole (``lines._rule_opened``), no record a terminal cut at its width and joined with the line
    after it (which lost the banner, and the bar's close went back to one point a redraw)."""
    pts = whole_as_live(tmp_path, _torchkeras(10, stamped=True).encode(), "stamped.log")
    assert pts["train_loss"] == (list(range(1, 11)), _means(10)), pts["train_loss"]


def test_a_bar_whose_counter_moves_under_an_epoch_banner_keeps_its_batches(tmp_path):
    pts = whole_as_live(tmp_path, _torchkeras(6, moving=True).encode(), "moving.log")
    assert len(pts["train_loss"][0]) > 6 and pts["train_loss"][0][-1] > 6, pts["train_loss"]


def test_a_negated_log_likelihood_function_is_the_loss(tmp_path):
    assert infer_role("Neg. LLF").role == "train_loss" and infer_role("negative loglik").role == "train_loss"
    llf = [174474776225.93536, 170676.82753616996, 1625.2526696192133, 3329.7758250013576, 1623.4400539381545,
           1622.936539598989, 1629.579518562201, 1621.8761427485515, 1621.434225028072, 1621.4322677385703]
    text = "".join(f"Iteration: {k:6d},   Func. Count: {6 * k:6d},   Neg. LLF: {v!r}\n"
                   for k, v in enumerate(llf, start=1))
    text += ("Optimization terminated successfully    (Exit mode 0)\n            Current function value: "
             "1621.4322677385703\n            Iterations: 10\n")
    pts = whole_as_live(tmp_path, text.encode(), "arch.log")
    assert primary_names(pts) == ["Neg LLF"] and pts["Neg LLF"] == (list(range(1, 11)), llf), pts.keys()


def test_a_clusterings_new_cost_is_the_loss(tmp_path):
    cost = [5561.986543254946, 5315.1084159614375, 5267.901152629156, 5261.761438351402, 5252.820197730111,
            5247.641594347225, 5247.446727743863, 5247.420360885423, 5247.420360885423]
    moves = [362, 188, 100, 23, 23, 27, 5, 1, 0]
    text = "Init: initializing centroids\nInit: initializing clusters\nStarting iterations...\n" + "".join(
        f"Run: 1, iteration: {k}/100, moves: {m}, ncost: {c!r}\n"
        for k, (m, c) in enumerate(zip(moves, cost, strict=True), start=1))
    pts = whole_as_live(tmp_path, text.encode(), "kprototypes.log")
    assert primary_names(pts) == ["cost"] and pts["cost"] == (list(range(1, 10)), cost), pts.keys()
