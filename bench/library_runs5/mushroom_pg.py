"""MushroomRL 1.10: policy-gradient (REINFORCE, GPOMDP, eNAC) on a linear-quadratic regulator, as its example
``lqr_pg.py`` does, or tabular Q-learning / SARSA on its ``GridWorld`` (``grid_world_td.py``).

The examples log through MushroomRL's ``Logger`` (``logging``, ``2026-12-05 20:10:01,123 [INFO] Epoch 3 | J:
-21.4 ...``: ``logger.epoch_info(epoch, J=J, ...)``, with ``logger.strong_line()`` and ``logger.info`` around),
and ``core.learn`` / ``core.evaluate`` draw tqdm bars on stderr unless ``quiet=True``. No loss is logged: the
objective is ``J``, the mean discounted return of the evaluation episodes (higher is better). Truth: the J values
computed from ``core.evaluate``'s dataset (``compute_J``) at the epoch ``epoch_info`` was given (0 = before
learning, as the example logs it).
"""

from __future__ import annotations

import argparse

from lib_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--env", default="lqr", choices=["lqr", "grid"])
ap.add_argument("--algo", default="reinforce", choices=["reinforce", "gpomdp", "enac", "qlearning", "sarsa"])
ap.add_argument("--epochs", type=int, default=20)
ap.add_argument("--lr", type=float, default=1e-2)
ap.add_argument("--eps-opt", type=float, default=None, help="AdaptiveOptimizer eps instead of lr")
ap.add_argument("--max-action", type=float, default=5.0)
ap.add_argument("--max-pos", type=float, default=10.0)
ap.add_argument("--quiet", action="store_true")
ap.add_argument("--weights", action="store_true", help="log the policy weights too (a list)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
from mushroom_rl.core import Core, Logger  # noqa: E402
from mushroom_rl.utils.dataset import compute_J  # noqa: E402

np.random.seed(0)
logger = Logger(a.algo.upper(), results_dir=None)
logger.strong_line()
logger.info("Experiment Algorithm: " + a.algo.upper())
Js: list[list[float]] = []

if a.env == "lqr":
    from mushroom_rl.algorithms.policy_search import GPOMDP, REINFORCE, eNAC
    from mushroom_rl.approximators.parametric import LinearApproximator
    from mushroom_rl.approximators.regressor import Regressor
    from mushroom_rl.environments import LQR
    from mushroom_rl.policy import StateStdGaussianPolicy
    from mushroom_rl.utils.optimizers import AdaptiveOptimizer, SGDOptimizer

    mdp = LQR.generate(dimensions=1, max_pos=a.max_pos, max_action=a.max_action, episodic=True)
    approximator = Regressor(LinearApproximator, input_shape=mdp.info.observation_space.shape,
                             output_shape=mdp.info.action_space.shape)
    sigma = Regressor(LinearApproximator, input_shape=mdp.info.observation_space.shape,
                      output_shape=mdp.info.action_space.shape)
    sigma.set_weights(2 * np.ones(sigma.weights_size))
    policy = StateStdGaussianPolicy(approximator, sigma)
    opt = AdaptiveOptimizer(eps=a.eps_opt) if a.eps_opt is not None else SGDOptimizer(lr=a.lr)
    algo = {"reinforce": REINFORCE, "gpomdp": GPOMDP, "enac": eNAC}[a.algo]
    agent = algo(mdp.info, policy, opt)
    core = Core(agent, mdp)
    learn = dict(n_episodes=100, n_episodes_per_fit=20)
    evaluate = dict(n_episodes=10)
else:
    from mushroom_rl.algorithms.value import SARSA, QLearning
    from mushroom_rl.environments import GridWorld
    from mushroom_rl.policy import EpsGreedy
    from mushroom_rl.utils.parameters import Parameter

    mdp = GridWorld(width=5, height=5, goal=(4, 4), start=(0, 0))
    pi = EpsGreedy(epsilon=Parameter(value=0.1))
    algo = {"qlearning": QLearning, "sarsa": SARSA}[a.algo]
    agent = algo(mdp.info, pi, learning_rate=Parameter(value=a.lr))
    core = Core(agent, mdp)
    learn = dict(n_steps=200, n_steps_per_fit=1)
    evaluate = dict(n_episodes=10)


def evaluate_j() -> float:
    dataset = core.evaluate(**evaluate, quiet=a.quiet)
    return float(np.mean(compute_J(dataset, mdp.info.gamma)))


def log_epoch(epoch: int, j: float) -> None:
    Js.append([epoch, j])
    if a.weights and a.env == "lqr":
        logger.epoch_info(epoch, J=j, policy_weights=policy.get_weights().tolist())
    else:
        logger.epoch_info(epoch, J=j)


log_epoch(0, evaluate_j())
for n in range(a.epochs):
    core.learn(**learn, quiet=a.quiet)
    log_epoch(n + 1, evaluate_j())
logger.strong_line()
write_truth(framework=f"mushroom-rl {a.algo}", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="J", higher_is_better=["J"], step_unit="epoch (epoch_info's count; 0 = before learning)",
            tolerance={"rel": 1e-9, "abs": 1e-9},
            record="compute_J(core.evaluate(...)) as logged by logger.epoch_info", train_loss=Js)
