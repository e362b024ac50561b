"""What examples/libraries_holdout47 showed (issue 32).

A working-set solver's verbose lines under banners (``##### Computing alpha 1/1``), one an outer iteration, 0-based:
``Iter 3: primal 0.0540792502, gap 2.51e-02, 42 feats in subpb (300 left)`` (or ``Solving subproblem with 80
constraints`` on the next line, or ``groups in subpb``), then ``Early exit, gap: 3.12e-09 < 8.99e-09``: the primal
(the objective value the solver minimises) is the run's objective; the duality gap beside it is a convergence measure
(it falls by orders of magnitude to the tolerance), never a loss that may diverge.

A short run of epoch records (10 or 12) whose loss fell to a third of its first log and came back above that first
log for its last 3-4 logs (a learning rate multiplied every epoch) has undone its training: a STOP, though too few
logs are above for the long sustained stretch a rise of a few x otherwise needs. A healthy noisy short run, one whose
loss rose a little but stays under its first log, and a GAN's generator loss climbing above its first do not STOP.
"""

from __future__ import annotations

from training_check.tools.assess import assess_run
from training_check.tools.judge import STOP
from training_check.tools.objective import assign_roles
from training_check.tools.roles import infer_role

from .test_read_misses import primary_names, whole_as_live

_PRIMAL = [44.9281181609, 5.7222352658, 1.3757004685, 0.2548952409, 0.2376577075, 0.2362777364, 0.2360499264,
           0.2360458392, 0.2360458150, 0.2360458134, 0.2360458133]
_GAP = [44.8, 5.65, 1.35, 0.216, 0.129, 0.0367, 0.00373, 0.000367, 9.04e-05, 2.21e-05, 5.09e-06]


def _solver(runs: int = 2, newton: bool = False, unit: str = "feats") -> str:
    out = []
    for _ in range(runs):
        out.append("#########################\n##### Computing alpha 1/1\n#########################\n")
        for i, (p, g) in enumerate(zip(_PRIMAL, _GAP, strict=True)):
            last = i == len(_PRIMAL) - 1
            line = f"Iter {i}: primal {p:.10f}, gap {g:.2e}"
            if newton:
                out.append(line + "\n" + ("" if last else f"Solving subproblem with {10 * 2 ** i} constraints\n"))
            else:
                out.append(line + ("\n" if last else f", {10 + 8 * i} {unit} in subpb (300 left)\n"))
        out.append(f"Early exit, gap: {_GAP[-1]:.2e} < 8.99e-06\n")
    return "".join(out)


def test_a_solvers_primal_is_the_objective_and_its_gap_no_loss():
    assert infer_role("primal").role == "train_loss" and infer_role("primal").direction == "min"
    assert infer_role("gap").direction is None and infer_role("duality gap").direction is None
    for other in ("primal residual", "primal infeasibility", "primal res", "primal feasibility"):
        assert infer_role(other).role != "train_loss", other
    roles = assign_roles(["primal", "gap", "feats in subpb"])
    assert [n for n, r in roles.items() if r.primary] == ["primal"]
    assert roles["gap"].role != "train_loss"


def test_solver_iterations_are_read_at_their_0_based_steps_whole_and_in_pieces(tmp_path):
    for k, kw in enumerate(({}, {"newton": True}, {"unit": "groups"})):
        pts = whole_as_live(tmp_path, _solver(**kw).encode(), f"solver{k}.log")
        assert primary_names(pts) == ["primal"], (kw, list(pts))
        assert pts["primal"][0] == list(range(len(_PRIMAL))), kw
        assert pts["primal"][1] == _PRIMAL, kw
        assert pts["gap"][1][:3] == _GAP[:3], kw


def _epochs(values: list[float]) -> str:
    n = len(values)
    out = []
    for e, v in enumerate(values, 1):
        out.append(f"Training epoch {e}/{n}\n")
        out.append(f"Epoch {e}/{n}: loss={v:.4f}\n")
    return "".join(out) + "Training finished.\n"


def _verdicts(tmp_path, store, config, values: list[float], name: str = "train.log") -> list[str]:
    log = tmp_path / name
    log.write_text(_epochs(values))
    return [assess_run(str(log), store=store, config=config, as_of_step=s).verdict
            for s in range(1, len(values) + 1)]


def test_a_short_run_back_above_its_first_loss_stops(tmp_path, store, config):
    got = _verdicts(tmp_path, store, config,
                    [1.09, 1.03, 0.91, 0.66, 0.37, 0.39, 0.385, 0.31, 0.49, 1.30, 6.83, 1.68])
    assert got[-1] == STOP and STOP not in got[:10], got


def test_a_shorter_run_back_above_its_first_loss_for_four_logs_stops(tmp_path, store, config):
    got = _verdicts(tmp_path, store, config, [1.04, 0.68, 0.28, 0.43, 0.41, 0.50, 2.08, 1.14, 1.26, 1.54])
    assert got[-1] == STOP and STOP not in got[:7], got


def test_a_healthy_noisy_short_run_and_a_rise_under_the_first_loss_do_not_stop(tmp_path, store, config):
    noisy = [1.0, 0.6, 0.45, 0.52, 0.42, 0.58, 0.4, 0.5, 0.38, 0.47, 0.41, 0.52]
    assert STOP not in _verdicts(tmp_path, store, config, noisy, "noisy.log")
    under = [1.0, 0.42, 0.36, 0.41, 0.55, 0.7, 0.8, 0.85, 0.9, 0.95]  # risen 2.6x, still under its first log
    assert STOP not in _verdicts(tmp_path, store, config, under, "under.log")


def test_a_generator_loss_climbing_above_its_first_does_not_stop(tmp_path, store, config):
    d = [0.69, 0.5, 0.3, 0.25, 0.2, 0.22, 0.18, 0.2, 0.17, 0.19, 0.16, 0.18]
    g = [0.9, 0.7, 0.4, 0.35, 0.9, 1.6, 2.2, 2.6, 2.9, 3.1, 3.3, 3.4]
    log = tmp_path / "gan.log"
    log.write_text("".join(f"[Epoch {e}/12] [D loss: {a:.4f}] [G loss: {b:.4f}]\n"
                           for e, (a, b) in enumerate(zip(d, g, strict=True), 1)))
    got = [assess_run(str(log), store=store, config=config, as_of_step=s).verdict for s in range(1, 13)]
    assert STOP not in got, got
