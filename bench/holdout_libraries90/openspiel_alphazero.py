"""open_spiel: its AlphaZero (``open_spiel.python.examples.alpha_zero``, the JAX/Flax learner with its MCTS actor
and evaluator processes) on a small two-player game, started as its users start it: the example's absl flags
(``--game=tic_tac_toe --nn_model=mlp --nn_width=32 --actors=1 --max_steps=10 ...``). The learner prints its own
lines on stdout (``[2026-12-07 17:01:02.123] Step: 3``, ``Collected ... states``, ``Losses(total: 2.611, policy:
1.975, value: 0.636, l2: 0.000)``, ``Checkpoint saved: ...``) and the actor/evaluator processes their ``... started``
lines. Truth: the learner's own ``learner.jsonl`` (``loss.sum`` at ``step``, 1-based), which this keeps with its
``log-learner.txt`` and ``config.json`` (no checkpoints)."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

from h90_truth import keep, seed_all, tol_decimals, write_truth


def parse() -> argparse.Namespace:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="tic_tac_toe")
    ap.add_argument("--model", default="mlp", choices=["mlp", "conv2d", "resnet"])
    ap.add_argument("--api", default="linen", choices=["linen", "nnx"])
    ap.add_argument("--width", type=int, default=32)
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--buffer", type=int, default=256)
    ap.add_argument("--reuse", type=int, default=4)
    ap.add_argument("--sims", type=int, default=10)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--actors", type=int, default=1)
    ap.add_argument("--evaluators", type=int, default=0)
    ap.add_argument("--eval-levels", type=int, default=2)
    ap.add_argument("--verbose-games", action="store_true", help="--noquiet: the actors log their moves")
    ap.add_argument("--label", default="healthy")
    ap.add_argument("--should-stop", action="store_true")
    return ap.parse_args()


def main() -> None:
    a = parse()
    seed_all(0)
    path = Path(tempfile.mkdtemp(prefix="az-"))
    # the example's own command line, as a user types it
    argv = ["alpha_zero.py", f"--game={a.game}", f"--nn_model={a.model}", f"--nn_api={a.api}",
            f"--nn_width={a.width}", f"--nn_depth={a.depth}", f"--learning_rate={a.lr}",
            f"--weight_decay={a.weight_decay}", f"--train_batch_size={a.batch}", f"--replay_buffer_size={a.buffer}",
            f"--replay_buffer_reuse={a.reuse}", f"--max_simulations={a.sims}", f"--max_steps={a.steps}",
            f"--actors={a.actors}", f"--evaluators={a.evaluators}", f"--eval_levels={a.eval_levels}",
            f"--path={path}", "--checkpoint_freq=1"] + (["--noquiet"] if a.verbose_games else [])
    from absl import app
    from open_spiel.python.examples import alpha_zero as example
    from open_spiel.python.utils import spawn

    try:
        with spawn.main_handler():
            app.run(example.main, argv=argv)
    except SystemExit:
        pass
    sys.stdout.flush()
    import open_spiel

    rows = [json.loads(ln) for ln in (path / "learner.jsonl").read_text().splitlines() if ln.strip()]
    for name in ("learner.jsonl", "log-learner.txt", "config.json"):
        if (path / name).is_file():
            keep(path / name)
    version = getattr(open_spiel, "__version__", None) or __import__("importlib.metadata").metadata.version(
        "open_spiel")
    write_truth(framework=f"open_spiel {version}", settings=vars(a), loss_name="total",
                step_unit="learner step, 1-based (`Step: 3`)", tolerance=tol_decimals(3),
                record="the learner's own `learner.jsonl` (`loss.sum` at `step`; the printed "
                       "`Losses(total: ...)` is the same sum, `{:.3f}`)",
                train_loss=[(r["step"], r["loss"]["sum"]) for r in rows],
                policy_loss=[[r["step"], r["loss"]["policy"]] for r in rows],
                value_loss=[[r["step"], r["loss"]["value"]] for r in rows])
    shutil.rmtree(path, ignore_errors=True)  # its checkpoints: not kept


if __name__ == "__main__":
    main()
