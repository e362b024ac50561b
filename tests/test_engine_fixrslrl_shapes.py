"""What examples/libraries_holdout56 showed of rsl-rl-lib (issue 32, fixrslrl). Its PPO runner prints one block per
learning iteration: a rule of ``#``, a banner centred in the terminal's width and wrapped in ANSI bold naming the
iteration and the run's length (``Learning iteration 3/30``, 0-based), then right-aligned ``name: value`` rows
(``Total steps: 1536``, ``Mean value loss: 126.6284``, ``Mean surrogate loss: -0.0044``, ``Mean entropy loss:
2.8561``, ``Mean reward: -54.29`` from the second block on, the environment's ``Metrics/...``), a rule of dashes
and the times; rsl_rl 1.x/2.x prints ``Value function loss`` / ``Surrogate loss`` and ``Total timesteps`` below
the dashes. Read as it is meant:

- a line naming only a step and the run's length (the banner) heads the records with no position under it, at the
  step as printed (``banners.records_under_banners``), never another row (``Total steps`` counts environment steps);
  a series with two records under one banner, in one read or across reads, is never placed by its banners
  (``banners.one_under_each``: decided over the reads so far, the file read again if earlier reads placed some);
- of a policy-gradient run's losses (a surrogate or policy-gradient term among them, ``Dialect.policy_gradient_terms``)
  the total, else the value loss stands for the run: a surrogate sits near 0 by construction, an entropy or an
  exploration bonus's predictor loss (RND's) is a term (``objective.choose_primary_loss``)."""

from __future__ import annotations

import json
import math
import random

import pytest
from training_check.tools.objective import choose_primary_loss

from .conftest import REPO
from .test_read_misses import _live, primary_names, whole_as_live

_SET = REPO / "examples" / "libraries_holdout56"


def _rsl_log(iters: int = 30, start: int = 0, width: int = 80, bold: bool = True, old: bool = False,
             rnd: bool = False, seed: int = 0, pad: int = 40, nan_from: int | None = None,
             metrics: tuple[str, ...] = ("Metrics/distance_to_goal",)) -> tuple[str, list[int], list[float], list]:
    """A log as rsl-rl's ``OnPolicyRunner`` prints it (``old``: rsl_rl 1.x/2.x's rows); the iterations, the value
    loss as printed, and (iteration, mean reward) as printed (none before an episode ended: the first block)."""
    r = random.Random(seed)
    out = ["-" * 80 + "\nResolved observation sets: \n\t actor :  ['policy']\n\t critic :  ['policy']\n" + "-" * 80
           + "\nActor Model: MLPModel(\n  (mlp): MLP(\n    (0): Linear(in_features=6, out_features=32, bias=True)\n"
           "    (1): ELU(alpha=1.0)\n  )\n)\nCould not find git repository in /x/rsl_rl/__init__.py. Skipping.\n"]
    value: list[float] = []
    reward: list[tuple[int, float]] = []
    for k in range(iters):
        it = start + k
        v = 120 * math.exp(-0.05 * k) * (1.3 if k % 2 else 0.8) + r.random()
        if nan_from is not None and k >= nan_from:
            v = math.nan
        title = f"Learning iteration {it}/{start + iters}"
        title = f" \033[1m {title} \033[0m " if bold else title
        out.append("#" * width + "\n" + title.center(width, " ") + "\n\n")
        vs = f"{v:.4f}"
        value.append(float(vs))
        rw = -60 + k + r.random()
        if old:
            rows = [("Computation", f"{30000 + r.randrange(9000)} steps/s (collection: 0.012s, learning 0.034s)"),
                    ("Value function loss", vs), ("Surrogate loss", f"{-r.random() / 100:.4f}"),
                    ("Mean action noise std", f"{1 - k / 100:.2f}")]
            if k:
                reward.append((it, float(f"{rw:.4f}")))
                rows += [("Mean reward", f"{rw:.4f}"), ("Mean episode length", "48.00")]
            tail = [("Total timesteps", str(1536 * (k + 1))), ("Iteration time", f"{r.random() / 10:.2f}s"),
                    ("Total time", f"{k * 0.05:.2f}s"), ("ETA", f"{(iters - k) * 0.05:.1f}s")]
        else:
            rows = [("Total steps", f"{1536 * (k + 1)} "), ("Steps per second", f"{30000 + r.randrange(9000)} "),
                    ("Collection time", f"{r.random() / 50:.3f}s "), ("Learning time", f"{r.random() / 20:.3f}s "),
                    ("Mean value loss", vs), ("Mean surrogate loss", f"{-r.random() / 100:.4f}"),
                    ("Mean entropy loss", f"{2.8 + r.random() / 10:.4f}")]
            if rnd:
                rows.append(("Mean rnd loss", f"{r.random():.4f}"))
            if k:
                reward.append((it, float(f"{rw:.2f}")))
                rows += [("Mean reward", f"{rw:.2f}"), ("Mean episode length", "48.00")]
                if rnd:
                    rows += [("Mean extrinsic reward", f"{rw:.2f}"), ("Mean intrinsic reward", f"{r.random():.2f}")]
            rows += [("Mean action std", f"{1 - k / 100:.2f}")] + [(m, f"{r.random():.4f}") for m in metrics]
            tail = [("Iteration time", f"{r.random() / 10:.2f}s"), ("Time elapsed", f"0:00:0{k // 10}"),
                    ("ETA", "0:00:01")]
        out.extend(f"{name + ':':>{pad}} {val}\n" for name, val in rows)
        out.append("-" * width + "\n")
        out.extend(f"{name + ':':>{pad}} {val}\n" for name, val in tail)
        out.append("\n")
    return "".join(out), list(range(start, start + iters)), value, reward


def _same(got: list[float], want: list[float]) -> bool:
    return len(got) == len(want) and all(
        a == b or math.isnan(a) and math.isnan(b) for a, b in zip(got, want, strict=True))


def _in_random_pieces(tmp_path, data: bytes, whole: dict, seed: int) -> None:
    r = random.Random(seed)
    for k in (2, 9, 31):
        cuts = sorted(r.sample(range(1, len(data)), k))
        assert json.dumps(_live(tmp_path, data, cuts, name=f"pieces{seed}_{k}.log")) == json.dumps(whole), cuts


@pytest.mark.parametrize("kw", [
    {}, {"bold": False}, {"width": 100, "pad": 45}, {"iters": 7, "seed": 1}, {"iters": 240, "seed": 2},
    {"start": 500, "iters": 20}, {"rnd": True}, {"old": True}, {"old": True, "iters": 120, "width": 60, "pad": 35},
    {"metrics": ()}, {"metrics": ("Episode_Reward/track_lin_vel_xy_exp", "Metrics/base_velocity/error_vel_xy")}])
def test_each_block_is_at_the_iteration_its_banner_prints(tmp_path, kw):
    text, steps, value, reward = _rsl_log(**kw)
    data = text.encode()
    pts = whole_as_live(tmp_path, data, "rsl.log")
    loss = "Value function loss" if kw.get("old") else "Mean value loss"
    assert pts[loss] == (steps, value)
    assert primary_names(pts) == [loss]
    assert list(zip(*pts["Mean reward"], strict=True)) == reward  # the RL objective, at its iteration too
    surrogate = "Surrogate loss" if kw.get("old") else "Mean surrogate loss"
    assert pts[surrogate][0] == steps
    assert not any(k.lower().startswith("total") for k in pts)  # a row counting environment steps: never the step
    _in_random_pieces(tmp_path, data, pts, seed=len(data))


def test_a_value_loss_going_nan_is_read_at_its_iterations(tmp_path):
    text, steps, value, _reward = _rsl_log(iters=25, nan_from=18, seed=5)
    pts = whole_as_live(tmp_path, text.encode(), "nan.log", cuts=(0.1, 0.5, 0.72, 0.73, 0.99))
    assert pts["Mean value loss"][0] == steps
    assert _same(pts["Mean value loss"][1], value)
    assert math.isnan(pts["Mean value loss"][1][-1])


def test_any_banner_naming_a_step_and_the_runs_length_heads_its_rows(tmp_path):
    """The notion is the banner's, not rsl-rl's: ``=== Iteration 3/12 ===`` over indented rows, ``Step 40/200`` over
    ``loss = ...`` rows: each record at the step printed above it."""
    text = "".join(f"=== Iteration {i}/12 ===\n  policy loss: {0.01 * i:.4f}\n  value loss: {5 - 0.3 * i:.4f}\n"
                   f"  mean reward: {1.5 * i:.2f}\n" for i in range(12))
    pts = whole_as_live(tmp_path, text.encode(), "iter.log")
    assert pts["value loss"] == (list(range(12)), [round(5 - 0.3 * i, 4) for i in range(12)])
    assert pts["policy loss"][0] == pts["mean reward"][0] == list(range(12))
    text = "".join(f"Step {10 * i}/200\n    loss = {5 - 0.01 * i:.4f}\n    accuracy = {0.1 + 0.01 * i:.3f}\n"
                   for i in range(1, 21))
    pts = whole_as_live(tmp_path, text.encode(), "step.log")
    assert pts["loss"] == ([10 * i for i in range(1, 21)], [round(5 - 0.01 * i, 4) for i in range(1, 21)])


def test_a_series_with_several_records_under_one_banner_is_never_placed_by_it(tmp_path):
    """Three ``batch b: loss`` records under each ``Iteration i/30``: not one record a banner, so none is placed at
    its banner's step, in one read or in any pieces (a piece holding one of them alone under its banner too)."""
    text = "".join(f"Iteration {i}/30\n" + "".join(f"  batch {b}: loss {5 - 0.01 * i - b * 0.001:.4f}\n"
                                                    for b in range(3)) for i in range(1, 31))
    data = text.encode()
    pts = whole_as_live(tmp_path, data, "many.log")
    assert len(pts["loss"][0]) == 90 and pts["loss"][0] == sorted(set(pts["loss"][0]))
    _in_random_pieces(tmp_path, data, pts, seed=3)


@pytest.mark.parametrize(("names", "primary"), [
    (["Mean value loss", "Mean surrogate loss", "Mean entropy loss"], "Mean value loss"),
    (["Mean value loss", "Mean surrogate loss", "Mean entropy loss", "Mean rnd loss"], "Mean value loss"),
    (["Value function loss", "Surrogate loss"], "Value function loss"),
    (["train/policy_gradient_loss", "train/value_loss", "train/entropy_loss"], "train/value_loss"),
    (["pg_loss", "vf_loss", "entropy_loss"], "vf_loss"),
    (["surrogate_loss", "value_loss", "total_loss"], "total_loss"),
    (["train/loss", "train/policy_gradient_loss", "train/value_loss"], "train/loss"),  # (stable-baselines3's PPO)
    # no policy-gradient term: as before
    (["policy_loss", "value_loss", "entropy_loss"], "value_loss"),
    (["actor_loss", "critic_loss"], "critic_loss"),
])
def test_a_policy_gradient_runs_value_or_total_loss_stands_for_it(names, primary):
    assert choose_primary_loss(names) == primary


_RSL = sorted(p.parent.name for p in _SET.glob("rslrl_*/train.log"))


def test_the_corpus_runs_are_all_here():
    assert len(_RSL) == 9


@pytest.mark.parametrize("run", _RSL)
def test_the_corpus_files_read_at_the_truths_steps(tmp_path, run):
    folder = _SET / run
    truth = json.loads((folder / "truth.json").read_text())
    tol = truth["tolerance"]
    pts = whole_as_live(tmp_path, (folder / "train.log").read_bytes(), f"{run}.log")
    assert primary_names(pts) == ["Mean value loss"]
    got = dict(zip(*pts["Mean value loss"], strict=True))
    for step, want in truth["train_loss"]:
        assert step in got, (run, step)
        assert abs(got[step] - want) <= max(tol["rel"] * abs(want), tol["abs"]), (run, step, got[step], want)
    assert sorted(got) == [s for s, _v in truth["train_loss"]]
    rewards = dict(zip(*pts["Mean reward"], strict=True))  # the objective, at the iterations the library records
    assert [s for s, _v in truth["mean_reward"]] == sorted(rewards)
