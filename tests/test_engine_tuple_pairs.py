"""Issue 32 (libraries_holdout4): statistics printed as a Python list of ``(name, value)`` tuples, the values in
numpy 2's reprs (``[('average_q', np.float32(4.56)), ('average_loss', np.float64(0.11)), ('cumulative_steps',
884), ('n_updates', 585)]``, a statistics API's repr as an RL library logs it per episode): each pair is a name and
its value, at the step the record names; a NaN printed while the count of updates is still 0 is the mean of no
update yet (no point), while a NaN after updates is a NaN loss."""

from __future__ import annotations

import math

from .test_engine_tables import _in_reads, _read


def _episodes(n: int, first_update: int, nan_after: int | None = None) -> bytes:
    """Per episode: its end line, then the statistics list; NaN means while nothing was updated yet."""
    out: list[str] = []
    step = 0
    for e in range(n):
        step += 10 + e
        updates = max(0, step - first_update)
        out.append(f"INFO:trainer:outdir:results step:{step} episode:{e} R:{10.0 + e}")
        if updates == 0:
            q, loss = "nan", "nan"
        elif nan_after is not None and step > nan_after:
            q, loss = "np.float32(nan)", "np.float64(nan)"
        else:
            q, loss = f"np.float32({1.0 + e / 10})", f"np.float64({1.0 / (e + 1)!r})"
        out.append(f"INFO:trainer:statistics:[('average_q', {q}), ('average_loss', {loss}), "
                   f"('cumulative_steps', {step}), ('n_updates', {updates}), ('rlen', {step})]")
    return ("\n".join(out) + "\n").encode()


def _expected(n: int, first_update: int) -> tuple[list[int], list[float]]:
    steps, values, step = [], [], 0
    for e in range(n):
        step += 10 + e
        if step > first_update:
            steps.append(step)
            values.append(1.0 / (e + 1))
    return steps, values


def test_tuple_pairs_are_names_and_values_at_the_records_step(tmp_path):
    """``('average_loss', np.float64(0.5))``: the loss is 0.5 at the record's ``cumulative_steps``; the NaNs
    printed before the first update are no points (a healthy run is never a NaN run for them)."""
    _res, pts = _read(tmp_path, _episodes(12, first_update=40))
    assert pts["average_loss"] == _expected(12, 40)
    assert not any(math.isnan(v) for v in pts["average_q"][1])
    assert "np.float64" not in pts and "np.float32" not in pts


def test_a_nan_after_updates_is_a_nan_point(tmp_path):
    """The same record with updates behind it: a NaN there is the loss's own, kept."""
    _res, pts = _read(tmp_path, _episodes(12, first_update=40, nan_after=100))
    steps, values = pts["average_loss"]
    assert steps[0] > 40 and not math.isnan(values[0])
    assert math.isnan(values[-1]) and steps[-1] == sum(10 + e for e in range(12))


def test_tuple_pairs_read_the_same_in_parts():
    """Read whole or cut at any line start, the same points (the rewrite is per line)."""
    data = _episodes(10, first_update=30)
    whole = _in_reads(data, [])
    starts = [i + 1 for i, c in enumerate(data) if c == 10][:-1]
    assert _in_reads(data, starts[::3]) == whole
    assert whole["average_loss"][0] == _expected(10, 30)[0]


def test_unwrap_reprs_is_per_line_and_bounded():
    """The rewrite itself: numbers out of the wrappers, a pair's comma a key's colon; other parentheses stay."""
    from training_check.tools.parsers.dialect import DIALECT
    from training_check.tools.parsers.lines import unwrap_reprs

    line = b"x:[('a', np.float64(0.5)), ('b', nan), ('c', 3)] Linear(3) ('words', 'text') torch.tensor(0.5) ('AP', 2.5)"
    assert unwrap_reprs(line, DIALECT.wrapper_reprs) == (
        b"x:[('a': 0.5), ('b': nan), ('c': 3)] Linear(3) ('words', 'text') torch.tensor(0.5) ('AP', 2.5)")
    long = b"('a', np.float64(" + b"1" * 100_000 + b"))"
    assert unwrap_reprs(long, DIALECT.wrapper_reprs) == long  # a number past the bound is left as printed
