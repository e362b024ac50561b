"""Issue 32, a block record of its own kind: rows of a series' running statistics under metric headings
(livelossplot's ``ExtremaPrinter``: ``Loss`` then ``\\ttraining  \\t (min: .., max: .., cur: ..)`` at every send), one
record per block at its count, the current value the point; the same bytes read alike in any reads."""

from __future__ import annotations

from training_check.tools.parsers.stat_rows import stat_row

from .test_engine_tables import _in_reads, _line_starts, _read


def _extrema(sends: list[dict[str, dict[str, float]]]) -> bytes:
    """What ExtremaPrinter prints per send: a heading per group, a row per metric (min and max so far, cur)."""
    seen: dict[str, list[float]] = {}
    out = []
    for groups in sends:
        for group, rows in groups.items():
            out.append(group)
            for name, v in rows.items():
                h = seen.setdefault(f"{group}/{name}", [])
                h.append(v)
                out.append(f"\t{name:<17}\t (min: {min(h):8.3f}, max: {max(h):8.3f}, cur: {v:8.3f})")
    return ("\n".join(out) + "\n").encode()


SENDS = [{"accuracy": {"training": 0.5 + e / 100, "validation": 0.45 + e / 100},
          "Loss": {"training": 1.0 / (e + 1), "validation": 1.2 / (e + 1)}} for e in range(12)]


def test_statistics_rows_under_headings_one_record_per_block(tmp_path):
    _res, pts = _read(tmp_path, _extrema(SENDS))
    assert pts["loss"] == (list(range(1, 13)), [round(1.0 / (e + 1), 3) for e in range(12)])
    assert pts["val_loss"][0] == list(range(1, 13)) and pts["val_accuracy"][1][-1] == 0.56
    assert pts["accuracy"][1][0] == 0.5 and not {"min", "max", "cur"} & set(pts)


def test_a_row_renamed_when_a_split_appears_stays_one_series(tmp_path):
    """livelossplot names a lone ``loss`` row by itself, and ``training`` once a ``val_loss`` joins its group."""
    sends = [{"Loss": {"loss": 0.9 - e / 100}} for e in range(5)]
    sends += [{"Loss": {"training": 0.8 - e / 100, "validation": 0.85 - e / 100}} for e in range(5)]
    _res, pts = _read(tmp_path, _extrema(sends))
    assert pts["loss"][0] == list(range(1, 11)) and pts["val_loss"][0] == list(range(6, 11))


def test_statistics_rows_read_alike_in_any_reads():
    data = _extrema(SENDS[:6])
    whole = _in_reads(data, [])
    assert whole["loss"][0] == [1, 2, 3, 4, 5, 6]
    for cut in _line_starts(data):
        assert _in_reads(data, [cut]) == whole, f"one cut at byte {cut}"


def test_a_row_needs_its_current_value_named():
    assert stat_row(b"\ttraining \t (min:    0.300, max:    0.658, cur:    0.300)") == ("training", 0.3)
    assert stat_row(b"loss (mean: 0.3, std: 0.1)") is None  # no current value: a summary, not a point
    assert stat_row(b"Epoch 3 (loss: 0.3, cur: 0.2)") is None  # a name of several words
    assert stat_row(b"x (cur: 0.3) (min: 0.1)") is None

