"""The shape the reader missed on examples/libraries_holdout24 (issue 32), written as rich prints it and read by the one
engine, whole and in pieces: a report per evolution as a vertical box table (one record per table, "records, not
lines"), under a bold title naming its step (``Global Steps: 1_200``, thousands split by ``_``; the first title on the
progress bar's line, after its ``\\r``), every name cell wrapped in bold ANSI, each row a metric (its name in the
first column), groups of rows between ``├──┼──┤`` rules, each further column a member of the population (the first
one the run's) and a ``Mean`` column. The record's step is its title's, not a row's (a member's own ``steps`` is its
share of the population's), and the table may be cut between two reads anywhere."""

from __future__ import annotations

from .test_read_misses import whole_as_live

B = "\x1b[1m"
R = "\x1b[0m"


def _num(v: float) -> str:
    if v == int(v) and abs(v) >= 1:
        return f"{int(v)}"
    return f"{v:.2e}" if abs(v) < 0.01 else f"{v:.4f}"


def _table(step: int, rows: list[list[tuple[str, list[float | str | None]]]], members: int, first: bool) -> str:
    """One report: its title (bold, centred), a rich box table (``box.HEAVY_HEAD``), a group of rows per list in
    ``rows``, the name cells bold; the members' columns then a ``Mean`` one for a population."""
    heads = ["Metric", *(f"Agent {k}" for k in range(members)), *(["Mean"] if members > 1 else [])]
    w0, w = 13, 8
    title = f"{B}{('Global Steps: ' + format(step, '_')).center(w0 + 3 + (w + 3) * (len(heads) - 1))}{R}\n"
    out = ["\r" + " " * 100 + "\r" + title if first else "\n" + title]
    cols = [w0, *([w] * (len(heads) - 1))]
    out.append("┏" + "┳".join("━" * (c + 2) for c in cols) + "┓\n")
    out.append("┃" + "┃".join(f"{B} {R}{B}{h.ljust(c) if k == 0 else h.rjust(c)}{R}{B} {R}"
                               for k, (h, c) in enumerate(zip(heads, cols, strict=True))) + "┃\n")
    out.append("┡" + "╇".join("━" * (c + 2) for c in cols) + "┩\n")
    for g, group in enumerate(rows):
        if g:
            out.append("├" + "┼".join("─" * (c + 2) for c in cols) + "┤\n")
        for name, vals in group:
            cells = [_num(v) if isinstance(v, float) else (v or "") for v in vals]
            if members > 1:
                nums = [v for v in vals if isinstance(v, float)]
                cells.append(_num(sum(nums) / len(nums)) if len(nums) == len(vals) and name != "lr" else "")
            out.append(f"│{B} {R}{B}{name.ljust(w0)}{R}{B} {R}│" + "│".join(f" {c.rjust(w)} " for c in cells) + "│\n")
    out.append("└" + "┴".join("─" * (c + 2) for c in cols) + "┘\n")
    return "".join(out)


def _agilerl_log(n: int, every: int, members: int = 1) -> tuple[bytes, list[int], list[float]]:
    """A run's progress bar and its ``n`` reports (every ``every`` steps per member); the truth: agent 0's loss at
    the titles' steps."""
    out, steps, losses = [], [], []
    total = n * every * members
    for k in range(1, n + 1):
        gs = k * every * members
        bar = f"\rTraining Progress │ {100 * gs // total:3d}% │ {gs}/{total} steps │ 00:0{k % 10} │ 141.1step/s"
        out.append(bar + bar.replace(f"{gs}/", f"{min(gs + every, total)}/"))
        loss = [0.09 / k ** (1 + 0.3 * m) for m in range(members)]
        rows = [
            [("fitness", [float(10 * k + m) for m in range(members)])],
            [("score", [13.0 + k + 0.5 * m for m in range(members)]), ("loss", loss)],
            [("lr", [1e-3] * members), ("batch_size", [64.0] * members)],
            [("steps", [float(k * every)] * members), ("last_mutation", ["None"] * members),
             ("steps/s", [200.5 + m for m in range(members)])],
        ]
        out.append(_table(gs, rows, members, first=k == 1))
        steps.append(gs)
        losses.append(float(_num(loss[0])))
    return "".join(out).encode(), steps, losses


CUTS = (0.03, 0.11, 0.2, 0.37, 0.41, 0.55, 0.63, 0.81, 0.9)


def test_a_box_table_per_report_is_one_record_at_its_titles_step(tmp_path):
    data, steps, losses = _agilerl_log(10, 400)
    assert b"Global Steps: 1_200" in data and "├".encode() in data
    pts = whole_as_live(tmp_path, data, "one", cuts=CUTS)
    assert pts["loss"] == (steps, losses)
    assert pts["fitness"][0] == steps


def test_a_populations_table_is_its_first_members_record_not_the_mean(tmp_path):
    """Two members and their mean: the first member's column; the step the title's (the population's), not the
    member's own ``steps`` row (half of it)."""
    data, steps, losses = _agilerl_log(10, 500, members=2)
    pts = whole_as_live(tmp_path, data, "pop", cuts=CUTS)
    assert pts["loss"] == (steps, losses)
    assert pts["steps"] == (steps, [s / 2 for s in steps])


def test_the_table_cut_at_every_line_reads_the_same(tmp_path):
    data, steps, losses = _agilerl_log(4, 250)
    ends = [i + 1 for i, c in enumerate(data) if c == 10]
    for k in range(0, len(ends) - 1, 3):
        pts = whole_as_live(tmp_path, data, f"cut{k}", cuts=tuple(e / len(data) for e in ends[k:k + 1]))
        assert pts["loss"] == (steps, losses), k


def test_reads_of_any_sizes_give_the_same_points(tmp_path):
    """Reads ending anywhere (mid-line, under a title whose box is not printed yet, between two groups of rows): the
    first title (on the bar's line) is a one-off line an earlier read carries, never the title of a later box."""
    import random

    data, steps, losses = _agilerl_log(8, 500, members=2)
    rnd = random.Random(7)
    for k in range(6):
        cuts = tuple(sorted(rnd.random() for _ in range(10)))
        pts = whole_as_live(tmp_path, data, f"rnd{k}", cuts=cuts)
        assert pts["loss"] == (steps, losses), cuts
