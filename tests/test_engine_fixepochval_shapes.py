"""An epoch's value in a bar's postfix, printed the same as the epoch before (examples/libraries_holdout64's matgl).

Lightning's bar on ``\\r`` (``Epoch 3: 100%|##| 4/4 [..., v_num=0, val_Total_Loss=2.390, ..., train_Total_Loss=2.430,
...]``, nested validation bars drawn with cursor-up escapes) carries a train value logged ``on_epoch``: it changes only
at each epoch's end (its last redraws, the bar's count at its total) and stays in the postfix through the next epoch.
The engine keeps one point per CHANGE of a bar's value (the redraws between are no points); a bar value whose every
change so far came at an epoch's end is an epoch's metric: one point at EVERY epoch's end (the step of the epoch's
last redraw), also when its printed value repeats the epoch before's (``0.222`` for 0.2218 then 0.2216). A per-step
value in the same bar (changing within an epoch) keeps one point per change, and a value changing every k epochs only
(a repeat at the second epoch's end it is drawn at) is no epoch's metric either. Whole and in pieces, any read size.
"""

from __future__ import annotations

import random

import pytest

from .conftest import REPO
from .test_read_misses import _live, whole_as_live

_BLOCKS = "▏▎▍▌▋▊▉█"


def _bar(epoch: int, n: int, total: int, post: str, rate: str = "97.27it/s") -> str:
    frac = n / total
    full = int(frac * 10)
    bar = "█" * full + (_BLOCKS[int((frac * 10 - full) * 8)] if full < 10 and frac * 10 > full else "")
    timing = "00:00<?, ?it/s" if n == 0 else f"00:00<00:00, {rate}"
    return f"Epoch {epoch}: {int(100 * frac):3d}%|{bar:<10}| {n}/{total} [{timing}{', ' + post if post else ''}]"


def _lightning(epochs: int, batches: int, train: list[float], val: list[float] | None = None,
               step_values: list[float] | None = None, every: int = 1, digits: int = 3) -> bytes:
    """A Lightning fit as its log holds it: the header, the epoch bar redrawn twice a batch, the validation's nested
    bars at each epoch's end (cursor-up escapes), then the epoch's values set in the postfix (val's, then train's:
    ``train`` logged on_epoch, ``step_values`` one per global step, logged every ``every`` steps)."""
    out = ["Seed set to 0\nGPU available: False, used: False\n\n  | Name  | Type   | Params\n",
           "-" * 40 + "\n0 | model | MEGNet | 5.6 K\n" + "-" * 40 + "\n",
           "\rSanity Checking: |          | 0/? [00:00<?, ?it/s]\r" + " " * 60 + "\r\r"]
    epoch_post: list[str] = []
    step_now: float | None = None
    draws = [_bar(0, 0, batches, "")]
    for e in range(epochs):
        for b in range(1, batches + 1):
            g = e * batches + b - 1
            if step_values is not None and (g + 1) % every == 0:
                step_now = step_values[g]
            post = ", ".join(["v_num=0", *([f"loss_step={step_now:.{digits}f}"] if step_now is not None else []),
                              *epoch_post])
            draws += [_bar(e, b, batches, post, "105.15it/s"), _bar(e, b, batches, post, "103.79it/s")]
        out.append("\r" + "\r".join(draws) + "\n")
        draws = []
        step_part = [f"loss_step={step_now:.{digits}f}"] if step_now is not None else []
        if val is not None:
            out.append("\rValidation: |          | 0/? [00:00<?, ?it/s]\x1b[A\n"
                       "\rValidation DataLoader 0:   0%|          | 0/1 [00:00<?, ?it/s]\x1b[A\n"
                       "\rValidation DataLoader 0: 100%|██████████| 1/1 [00:00<00:00, 152.09it/s]\x1b[A\n"
                       "\r" + " " * 71 + "\x1b[A")
            epoch_post = [f"val_Total_Loss={val[e]:.{digits}f}", *epoch_post[1:]] if epoch_post else [
                f"val_Total_Loss={val[e]:.{digits}f}"]
            draws.append(_bar(e, batches, batches, ", ".join(["v_num=0", *step_part, *epoch_post]), "67.28it/s"))
        vals = [f"val_Total_Loss={val[e]:.{digits}f}"] if val is not None else []
        epoch_post = [*vals, f"train_Total_Loss={train[e]:.{digits}f}", f"train_MAE={train[e] ** 0.5:.{digits}f}"]
        post = ", ".join(["v_num=0", *step_part, *epoch_post])
        draws.append(_bar(e, batches, batches, post, "66.89it/s"))
        if e + 1 < epochs:
            draws += [_bar(e, 0, batches, post) + "        ", _bar(e + 1, 0, batches, post)]
    out.append("\r" + "\r".join(draws) + f"`Trainer.fit` stopped: `max_epochs={epochs}` reached.\n")
    out.append("\r" + draws[-1] + "\n")
    return "".join(out).encode()


def _plateau(rng: random.Random, epochs: int, digits: int = 3) -> list[float]:
    """An epoch loss falling then flat, one to a quarter of its later epochs (never two in a row) printing the same
    as the epoch before at ``digits``."""
    later = list(range(epochs // 3 + 1, epochs))
    repeats: set[int] = set()
    for e in rng.sample(later, len(later)):
        if len(repeats) < max(1, epochs // 4) and e - 1 not in repeats and e + 1 not in repeats:
            repeats.add(e)
    vals, x = [], 2.4 + rng.random()
    for e in range(epochs):
        if e < epochs // 3:
            x *= 0.5
        elif e not in repeats:
            x += rng.choice((-1, 1)) * 10 ** -digits * rng.randint(1, 4)
        vals.append(round(x, digits))
    return vals


def _points(pts: dict, name: str) -> list[tuple[int, float]]:
    steps, values = pts[name]
    return list(zip(steps, [round(v, 6) for v in values], strict=True))


def test_an_epoch_value_repeated_at_its_print_is_a_point_at_every_epochs_end(tmp_path):
    rng = random.Random(7)
    train = [2.38, 1.27, 0.505, 0.263, 0.218, 0.212, 0.218, 0.221, 0.222, 0.222, 0.221, 0.221]
    val = [1.74, 0.624, 0.318, 0.215, 0.212, 0.218, 0.221, 0.222, 0.222, 0.222, 0.221, 0.221]
    data = _lightning(12, 4, train, val)
    pts = whole_as_live(tmp_path, data, "fixed")
    assert _points(pts, "train_Total_Loss") == [((e + 1) * 4 - 1, train[e]) for e in range(12)]
    for k in range(3):  # random read sizes, mid-line too
        cuts = sorted(rng.sample(range(1, len(data)), 15))
        assert _live(tmp_path, data, cuts, name=f"cut{k}.log") == pts


@pytest.mark.parametrize("seed", range(8))
def test_generated_epoch_values_with_repeats_read_one_point_an_epoch(tmp_path, seed):
    rng = random.Random(seed)
    epochs, batches, digits = rng.randint(6, 16), rng.randint(2, 9), rng.choice((3, 4))
    train = _plateau(rng, epochs, digits)
    assert any(a == b for a, b in zip(train, train[1:], strict=False))
    val = [round(x * 0.9, digits) for x in train] if rng.random() < 0.7 else None
    data = _lightning(epochs, batches, train, val, digits=digits)
    pts = whole_as_live(tmp_path, data, f"gen{seed}")
    assert _points(pts, "train_Total_Loss") == [((e + 1) * batches - 1, train[e]) for e in range(epochs)]
    cuts = sorted(rng.sample(range(1, len(data)), 9))
    assert _live(tmp_path, data, cuts, name=f"gen{seed}_cut.log") == pts


@pytest.mark.parametrize("seed", range(4))
def test_a_per_step_value_in_the_same_bar_keeps_one_point_per_change(tmp_path, seed):
    """A value logged every ``every`` global steps (some of its changes within an epoch) beside the epoch's: its
    repeats at an epoch's end are redraws (one point per change), the epoch's value still one point an epoch."""
    rng = random.Random(100 + seed)
    epochs, batches, every = rng.randint(8, 12), rng.choice((3, 5, 7)), 2
    train = _plateau(rng, epochs)
    steps = [round(1.5 * 0.97 ** g + 0.05 * rng.random(), 3) for g in range(epochs * batches)]
    data = _lightning(epochs, batches, train, None, step_values=steps, every=every)
    pts = whole_as_live(tmp_path, data, f"step{seed}")
    assert _points(pts, "train_Total_Loss") == [((e + 1) * batches - 1, train[e]) for e in range(epochs)]
    logged = [(g, steps[g]) for g in range(every - 1, epochs * batches, every)]  # (global step 0-based, value)
    changes = [p for k, p in enumerate(logged) if k == 0 or p[1] != logged[k - 1][1]]
    got = _points(pts, "loss_step")
    assert [v for _s, v in got] == [v for _s, v in changes]  # one point per change, no epoch-end repeat
    assert len(got) < epochs * batches // every + 1


def test_a_converged_epoch_value_printed_the_same_for_many_epochs_is_a_point_each_epoch(tmp_path):
    """A run flat at its print's precision for most of its epochs (repeats far more than changes): each epoch's end
    is still a point, the last ones too."""
    epochs, batches = 20, 3
    train = [round(max(2.0 * 0.5 ** e, 0.011), 3) for e in range(epochs)]  # 0.011 from epoch 8 on
    data = _lightning(epochs, batches, train, [round(x * 1.1, 3) for x in train])
    pts = whole_as_live(tmp_path, data, "flat")
    assert _points(pts, "train_Total_Loss") == [((e + 1) * batches - 1, train[e]) for e in range(epochs)]


def test_a_value_changing_every_other_epoch_gets_no_point_at_the_epochs_between(tmp_path):
    """A train value set at every second epoch's end (a repeat at the second end it is drawn at): no epoch's metric,
    one point per change as before."""
    epochs, batches = 12, 4
    train = [round(2.0 * 0.8 ** (e // 2), 3) for e in range(epochs)]  # changes at epochs 0, 2, 4 ... only
    data = _lightning(epochs, batches, train)
    pts = whole_as_live(tmp_path, data, "every2")
    assert _points(pts, "train_Total_Loss") == [((e + 1) * batches - 1, train[e]) for e in range(0, epochs, 2)]


HOLDOUT64 = REPO / "examples" / "libraries_holdout64"


@pytest.mark.parametrize("run", ["matgl_megnet_sgd_step_12ep", "matgl_megnet_adam_cosine_val_10ep",
                                 "matgl_m3gnet_huber_noval_8ep"])
def test_holdout64_reads_every_epoch_at_the_records_steps(tmp_path, run):
    import json

    folder = HOLDOUT64 / run
    truth = json.loads((folder / "truth.json").read_text())
    at = dict(truth["record_steps"])
    pts = whole_as_live(tmp_path, (folder / "train.log").read_bytes(), run)
    got = dict(zip(*pts[truth["loss_name"]], strict=True))
    rel = truth["tolerance"]["rel"]
    for epoch, value in truth["train_loss"]:
        step = at[epoch]
        assert step in got, (run, epoch, step)
        assert abs(got[step] - value) <= rel * abs(value) + 1e-3, (run, epoch, got[step], value)
    assert len(got) == len(truth["train_loss"])
