"""LightZero: a tiny MCTS agent (MuZero, EfficientZero or Gumbel MuZero, an MLP model) trained on
its own CartPole environment (``cartpole_lightzero``) by its own entry ``lzero.entry.train_muzero``, from the zoo's
``cartpole_*_config.py`` with the sizes made small, as its README's quick start does. Its DI-engine learner prints,
every ``log_show_after_iter`` iterations, ``=== Training Iteration 20 Result ===`` and its variables as tables of
``Name``/``Value`` rows (``| Value | 0.003000 | 45.314877 | ...``, ``%f``) through a rich logger (stderr, no TTY),
its collector and evaluator their own tables, and it writes the same variables to TensorBoard
(``<exp>/log/serial``) and text logs (``<exp>/log/learner/learner_logger.txt``). Truth: the TensorBoard scalar
``learner_iter/total_loss_avg`` (read back with TensorBoard's ``EventAccumulator``) at the learner's iteration,
0-based."""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
from pathlib import Path

from h80_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algo", default="muzero", choices=["muzero", "efficientzero", "gumbel_muzero"])
ap.add_argument("--optim", default="Adam", choices=["Adam", "SGD", "AdamW"])
ap.add_argument("--lr", type=float, default=0.003)
ap.add_argument("--piecewise", action="store_true", help="its piecewise-constant lr decay (SGD)")
ap.add_argument("--iters", type=int, default=150)
ap.add_argument("--log-every", type=int, default=15)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--upc", type=int, default=15, help="update_per_collect")
ap.add_argument("--sims", type=int, default=5)
ap.add_argument("--latent", type=int, default=32)
ap.add_argument("--grad-clip", type=float, default=None)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

zoo = importlib.import_module(f"zoo.classic_control.cartpole.config.cartpole_{a.algo}_config")
main_config, create_config = zoo.main_config, zoo.create_config
main_config.exp_name = f"cartpole_{a.algo}"
env, p = main_config.env, main_config.policy
env.collector_env_num = env.evaluator_env_num = env.n_evaluator_episode = 1
p.collector_env_num = p.evaluator_env_num = p.n_episode = 1
p.cuda = False
p.num_simulations = a.sims
p.update_per_collect = a.upc
p.batch_size = a.batch
p.eval_freq = 10 ** 6
p.optim_type = a.optim
p.learning_rate = a.lr
p.piecewise_decay_lr_scheduler = a.piecewise
if a.piecewise:
    p.threshold_training_steps_for_final_lr = a.iters
if a.grad_clip is not None:
    p.grad_clip_value = a.grad_clip
p.model.latent_state_dim = a.latent
p.learn = dict(learner=dict(hook=dict(log_show_after_iter=a.log_every, save_ckpt_after_iter=10 ** 6)))
create_config.env_manager.type = "base"

from lzero.entry import train_muzero  # noqa: E402


def truth() -> None:
    """The truth, from the run's TensorBoard file: written after the run, or after the error that ended it."""
    import logging

    import lzero
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    logging.getLogger("tensorboard").setLevel(logging.ERROR)  # its reader's notices, after the run
    log_dir = Path(main_config.exp_name) / "log"
    ea = EventAccumulator(str(log_dir / "serial"), size_guidance={"scalars": 0})
    ea.Reload()
    ev = ea.Scalars("learner_iter/total_loss_avg")
    for own in ("learner/learner_logger.txt", "evaluator/evaluator_logger.txt"):
        if (log_dir / own).is_file():
            keep(log_dir / own)
    version = getattr(lzero, "__version__", None) or importlib.metadata.version("LightZero")
    write_truth(framework=f"lightzero {version}", settings=vars(a), loss_name="total_loss_avg",
                step_unit="learner iteration, 0-based (`=== Training Iteration 20 Result ===`)",
                tolerance={"rel": 1e-6, "abs": 0.51e-6},
                record="its TensorBoard scalars (`learner_iter/total_loss_avg`, log/serial, read with "
                       "EventAccumulator)",
                train_loss=[(e.step, e.value) for e in ev])


try:
    train_muzero([main_config, create_config], seed=0, max_train_iter=a.iters)
finally:
    truth()
