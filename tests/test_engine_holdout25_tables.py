"""Three optimisers' tables the reader missed on examples/libraries_holdout25 (issue 32), written as the libraries print
them and read by the one engine, whole and in pieces:

- an evolutionary algorithm's table, names ending in colons and right-aligned over their cells (pygmo's ``Gen:
  Fevals:  Best:  dx:  df:``), its step a generation's abbreviation ``Gen``; a particle swarm's prints its global
  best ``gbest`` (the best any particle found so far: a running best) beside a mean of the particles' own bests;
- a table whose header and dash rule are printed again above every row, one record a block (inspyred's ``Generation
  Evaluation      Worst       Best ...`` over ``---------- ----------``: the rule gives the columns, a name of two
  words ``Std Dev`` one blank apart included);
- a gradient-based optimiser's table redrawn in place with ``\\r`` (GPy's ``runtime   i     f   |g|``): a time cell
  ``00s12`` (no number), a zero-padded loop index ``i`` (the step), the objective ``f`` beside the gradient's norm
  written as one, ``|g|`` (no borders: one name). A one-letter ``f`` beside a gradient's norm is the function's
  value, the objective the optimiser minimises.
"""

from __future__ import annotations

import math

from training_check.tools.objective import assign_roles

from .test_read_misses import whole_as_live


def _primary(pts: dict) -> list[str]:
    roles = assign_roles(list(pts), counts={k: len(v[0]) for k, v in pts.items()})
    return [k for k, r in roles.items() if r.primary]


def _pygmo_log(names: list[str], rows: list[list[float]], every: int = 1) -> bytes:
    lines = ["", "".join(f"{n + ':':>15s}" for n in names)[3:]]
    for g, row in enumerate(rows):
        if g % every == 0:
            cells = [f"{g + 1:>7d}", f"{20 * (g + 1):>15d}"] + [f"{v:>15.6g}" for v in row]
            lines.append("".join(cells))
    lines += [f"Exit condition -- generations = {len(rows)}", "champion: [0.16911281]", ""]
    return "\n".join(lines).encode()


def test_an_evolutionary_table_named_with_colons_reads_its_best_at_its_generation(tmp_path):
    best, rows = math.inf, []
    for g in range(40):
        cur = 7000 * 0.8 ** g + (g % 3)
        best = min(best, cur)
        rows.append([best, 35 / (g + 1), 2e6 / (g + 1) ** 2])
    pts = whole_as_live(tmp_path, _pygmo_log(["Gen", "Fevals", "Best", "dx", "df"], rows), "de.log")
    assert pts["Best"][0] == list(range(1, 41))
    assert pts["Best"][1] == [float(f"{r[0]:.6g}") for r in rows]
    assert _primary(pts) == ["Best"]


def test_a_swarms_global_best_is_its_running_best(tmp_path):
    best, rows = math.inf, []
    for g in range(60):
        cur = 15 * 0.9 ** g + 0.1
        best = min(best, cur)
        rows.append([best, 0.18 / (1 + g / 10), 19.6 * 0.95 ** g, 0.9 * 0.93 ** g])
    data = _pygmo_log(["Gen", "Fevals", "gbest", "Mean Vel.", "Mean lbest", "Avg. Dist."], rows, every=2)
    pts = whole_as_live(tmp_path, data, "pso.log")
    assert pts["global best"][0] == list(range(1, 61, 2))
    assert pts["global best"][1] == [float(f"{r[0]:.6g}") for r in rows[::2]]
    assert {"Mean Vel.", "Mean lbest", "Avg. Dist."} <= set(pts)
    assert _primary(pts) == ["global best"]


def test_a_header_and_rule_over_every_row_read_one_record_a_block(tmp_path):
    head = "Generation Evaluation      Worst       Best     Median    Average    Std Dev"
    rule = " ".join(["-" * 10] * 7)
    out, truth, best = [], [], math.inf
    for g in range(31):
        worst, med = 140 / (g + 1) + 20, 90 / (g + 1) + 5
        best = min(best, 40 * 0.9 ** g)
        out += [head, rule, f"{g:>10d} {30 * (g + 1):>10d} {worst:10.6f} {best:10.7f} {med:10.7f} {med:10.7f} "
                f"{3 / (g + 1):10.7f}", ""]
        truth.append((g, float(f"{best:10.7f}")))
    pts = whole_as_live(tmp_path, ("\n".join(out) + "\n").encode(), "inspyred.log")
    assert list(zip(*pts["Best"], strict=True)) == truth
    assert {"Evaluation", "Std Dev"} <= set(pts) and "Generation Evaluation" not in pts
    assert _primary(pts) == ["Best"]


def _gpy_log(values: list[float], width: int = 3) -> tuple[bytes, list[tuple[int, float]]]:
    out = "Running Adam (climin) Code:\n  runtime   i" + " " * (width - 1) + "    f              |g|        \n"
    truth = []
    for i, v in enumerate(values):
        g = "nan" if i == 0 else f"{abs(v) / (i + 1):e}"
        out += f"\r    00s{i // 4:02d}  {i:0{width}d}   {v:e}   {g:>12s} "
        truth.append((i, float(f"{v:e}")))
        if i % 9 == 8:
            out += "\n"  # a new line now and then among the redraws
    out += f"\nRuntime:     00s{len(values) // 4:02d}\nOptimization status: Maximum number of iterations reached\n\n"
    out += f"Name : GP regression\nObjective : {values[-1]}\nNumber of Parameters : 3\n"
    return out.encode(), truth


def test_a_redrawn_table_reads_f_beside_its_gradients_norm_at_i(tmp_path):
    values = [104.0386 - 160 * (1 - 0.7 ** i) for i in range(40)]
    data, truth = _gpy_log(values, width=4)
    pts = whole_as_live(tmp_path, data, "gpy_lbfgsb.log")
    assert list(zip(*pts["f value"], strict=True)) == truth
    assert math.isnan(pts["grad_norm"][1][0]) and pts["grad_norm"][0] == list(range(40))
    assert _primary(pts) == ["f value"]


def test_a_redrawn_table_diverging_reads_its_climb(tmp_path):
    values = [152.1985, 152.1985] + [4.341541e9 + k for k in range(60)]
    data, truth = _gpy_log(values)
    pts = whole_as_live(tmp_path, data, "gpy_adam.log")
    assert list(zip(*pts["f value"], strict=True)) == truth
    assert _primary(pts) == ["f value"]


def test_a_one_letter_f_without_a_gradients_norm_keeps_its_name(tmp_path):
    rows = "".join(f"{i:>6d}  {0.5 / (i + 1):10.6f}  {i * 0.1:8.4f}\n" for i in range(30))
    pts = whole_as_live(tmp_path, ("  iter           f      time\n" + rows).encode(), "f_alone.log")
    assert "f" in pts and "f value" not in pts
