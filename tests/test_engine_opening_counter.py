"""A record that opens with a whole number under a word the reader does not know as a position (``round 3:``,
``cycle 12 |``), then a value the reader knows (a loss, an objective, an error), is placed at that number while its
values rise at every record (``fields.plan_template``'s opener, ``engine._step_like``): before, the number was a
metric and the record was numbered by line order. Once the values go back or repeat (a per-layer index, a rank's
tag, a count that restarts), they are a metric again, as before. A line whose only value is the opening one
(``random_seed=0``), whose other names the reader does not know, or that is seen once (a printed dict of the best
settings, ``{'depth': 0, 'lr': 0.37}``) is no record by it."""

from __future__ import annotations

import math

from .test_read_misses import whole_as_live


def _log(fmt: str, n: int = 40, **kw: object) -> bytes:
    out = []
    for i in range(n):
        v = 2.0 * math.exp(-i / 10) + 0.01 * (i % 3)
        out.append(fmt.format(i=i, i10=(i + 1) * 10, v=v, r=i % 4, **kw) + "\n")
    return "".join(out).encode()


def test_a_named_opening_counter_is_the_records_step(tmp_path):
    pts = whole_as_live(tmp_path, _log("[mylib] round {i}: objective value {v:.5f}"), "round.log")
    assert "round" not in pts
    assert pts["objective value"][0] == list(range(40))


def test_an_opening_counter_in_steps_of_ten(tmp_path):
    pts = whole_as_live(tmp_path, _log("cycle {i10} | train error {v:.4f} | elapsed 0.3s"), "cycle.log")
    assert pts["train error"][0] == [(i + 1) * 10 for i in range(40)], pts.keys()


def test_no_record_by_an_opening_number_alone(tmp_path):
    """The opening number is the only value, or the others are names the reader knows nothing of: as before (no
    record; ``seed=0`` once in a settings line is no step)."""
    assert whole_as_live(tmp_path, _log("cycle {i} | quality {v:.4f} | elapsed 0.3s"), "q.log") == {}
    text = "random_seed=0\n" + _log("round {i}: objective value {v:.5f}").decode()
    pts = whole_as_live(tmp_path, text.encode(), "seed.log")
    assert pts["objective value"][0] == list(range(40)) and "random_seed" not in pts, pts.keys()
    text = _log("round {i}: objective value {v:.5f}").decode() + "depth 0 lr 0.37\n{'depth': 0, 'lr': 0.37}\n"
    pts = whole_as_live(tmp_path, text.encode(), "once.log")  # seen once: a setting's number, no step
    assert pts["objective value"][0] == list(range(40)) and 0 not in pts["lr"][0], pts


def test_an_opening_number_that_goes_back_is_no_step(tmp_path):
    """A per-layer index (0..3 again and again) is a metric as before; the records keep their line-order places."""
    pts = whole_as_live(tmp_path, _log("layer {r} objective value {v:.5f}"), "layer.log")
    assert "layer" in pts and pts["objective value"][0] == list(range(1, 41)), pts.keys()
    pts = whole_as_live(tmp_path, _log("cycle {r} | train error {v:.4f} | elapsed 0.3s"), "c.log")
    assert "cycle" in pts and pts["train error"][0] == list(range(1, 41)), pts.keys()


def test_a_repeated_opening_number_is_no_step(tmp_path):
    """A constant tag (a zone's, a rank's) or a number held over several records (a chunk of three) is no position:
    every record would fall on one step."""
    for fmt in ("rank 0 objective value {v:.5f}", "zone 7 objective value {v:.5f}"):
        pts = whole_as_live(tmp_path, _log(fmt), "const.log")
        assert pts["objective value"][0] == list(range(1, 41)), (fmt, pts.keys())
    held = "".join(f"chunk {i // 3} objective value {2 - i / 50:.5f}\n" for i in range(40)).encode()
    pts = whole_as_live(tmp_path, held, "held.log")
    assert pts["objective value"][0] == list(range(1, 41)), pts.keys()


def test_a_numbered_item_opening_the_line_is_its_step(tmp_path):
    """``3. Training loss = 0.84``: the epoch written as a list's item number, its dot after it (pytorch-trainer's
    epoch lines, between tqdm bars); ``0.5 loss 0.3`` opens with a value, no item number."""
    lines = []
    for e in range(12):
        lines.append("  0%|          | 0/12 [00:00<?, ?it/s]\r100%|##########| 12/12 [00:00<00:00, 443.90it/s]\n")
        lines.append(f"{e}. Training loss = {1.07 * 0.9 ** e:.7f}\n\n")
        lines.append(f"{e}. Validation loss = {1.03 * 0.9 ** e:.7f}\n\n")
    pts = whole_as_live(tmp_path, "".join(lines).encode(), "numbered.log")
    assert pts["Training loss"][0] == list(range(12)) and pts["Validation loss"][0] == list(range(12)), pts.keys()
    pts = whole_as_live(tmp_path, _log("{v:.1f} loss {v:.4f}"), "value_first.log")
    assert pts["loss"][0] == list(range(1, 41)), pts.keys()


def test_a_numbered_item_of_prose_is_no_record(tmp_path):
    """A model's numbered answer printed in the log (``1. **Price:** ... $5 * 2 = $10``), between the run's records:
    no value the reader knows follows the item number, so it places nothing."""
    text = []
    for i in range(30):
        text.append(f"step {i} loss {2 - i / 20:.4f}\n")
        if i % 6 == 0:
            text += [f"{k}. **Part {k}:** she earns ${5 * k} per day, so ${5 * k} * 3 = ${15 * k}\n" for k in (1, 2, 3)]
    pts = whole_as_live(tmp_path, "".join(text).encode(), "prose.log")
    assert pts["loss"][0] == list(range(30)), pts
