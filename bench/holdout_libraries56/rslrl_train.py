"""RSL-RL (rsl-rl-lib): PPO of its ``OnPolicyRunner`` on a small batched environment written here against its
``VecEnv`` interface, as robot-learning users plug in their own simulators (Isaac Lab, legged_gym, MuJoCo): a 2-D
point mass reaching a goal (``reach``: episodes end on time-outs only) or a torque-limited pendulum kept upright
(``balance``: episodes end when it falls). The runner is given a ``log_dir``, so it prints its block of lines per
learning iteration (``Learning iteration 3/40``, ``Mean value loss: 12.3456``, ...) and writes TensorBoard scalars.
Truth: those scalars (``Loss/value`` at the iteration, 0-based), read back with TensorBoard's ``EventAccumulator``."""

from __future__ import annotations

import argparse
import glob

from h56_truth import seed_all, value, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--env", default="reach", choices=["reach", "balance"])
ap.add_argument("--iters", type=int, default=30)
ap.add_argument("--num-envs", type=int, default=64)
ap.add_argument("--steps", type=int, default=24, help="num_steps_per_env")
ap.add_argument("--episode", type=int, default=48, help="max episode length")
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--schedule", default="adaptive", choices=["adaptive", "fixed"])
ap.add_argument("--optimizer", default="adam")
ap.add_argument("--epochs", type=int, default=5, help="num_learning_epochs")
ap.add_argument("--mini-batches", type=int, default=4)
ap.add_argument("--hidden", default="32,32")
ap.add_argument("--init-std", type=float, default=1.0)
ap.add_argument("--entropy", type=float, default=0.01)
ap.add_argument("--max-grad-norm", type=float, default=1.0)
ap.add_argument("--obs-norm", action="store_true")
ap.add_argument("--rnd", action="store_true")
ap.add_argument("--run-name", default="")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from rsl_rl.env import VecEnv  # noqa: E402
from rsl_rl.runners import OnPolicyRunner  # noqa: E402
from tensordict import TensorDict  # noqa: E402

torch.manual_seed(0)
torch.set_num_threads(1)


class SmallEnv(VecEnv):
    """A batched torch environment: ``reach`` (point mass to a goal) or ``balance`` (pendulum kept upright)."""

    def __init__(self, task: str, num_envs: int, max_len: int) -> None:
        self.task = task
        self.num_envs = num_envs
        self.num_actions = 2 if task == "reach" else 1
        self.max_episode_length = max_len
        self.device = "cpu"
        self.step_dt = 0.1
        self.cfg = {"task": task, "num_envs": num_envs, "episode_length": max_len, "dt": self.step_dt}
        self.episode_length_buf = torch.zeros(num_envs, dtype=torch.long)
        self.gen = torch.Generator().manual_seed(1)
        self.pos = torch.zeros(num_envs, 2)
        self.vel = torch.zeros(num_envs, 2)
        self.goal = torch.zeros(num_envs, 2)
        self.theta = torch.zeros(num_envs)
        self.omega = torch.zeros(num_envs)
        self._reset(torch.arange(num_envs))

    @property
    def unwrapped(self) -> SmallEnv:
        return self

    def _reset(self, ids: torch.Tensor) -> None:
        n = len(ids)
        if self.task == "reach":
            self.pos[ids] = torch.rand(n, 2, generator=self.gen) * 2 - 1
            self.vel[ids] = 0
            self.goal[ids] = torch.rand(n, 2, generator=self.gen) * 2 - 1
        else:
            self.theta[ids] = (torch.rand(n, generator=self.gen) * 2 - 1) * 0.3
            self.omega[ids] = 0
        self.episode_length_buf[ids] = 0

    def get_observations(self) -> TensorDict:
        if self.task == "reach":
            obs = torch.cat([self.pos, self.vel, self.goal - self.pos], 1)
        else:
            obs = torch.stack([torch.cos(self.theta), torch.sin(self.theta), self.omega], 1)
        return TensorDict({"policy": obs}, batch_size=[self.num_envs])

    def step(self, actions: torch.Tensor) -> tuple[TensorDict, torch.Tensor, torch.Tensor, dict]:
        act = actions.clamp(-1, 1)
        dt = self.step_dt
        if self.task == "reach":
            self.vel = 0.9 * self.vel + dt * act
            self.pos = (self.pos + dt * self.vel).clamp(-2, 2)
            dist = (self.goal - self.pos).norm(dim=1)
            rew = -dist - 0.01 * (act**2).sum(1)
            fell = torch.zeros(self.num_envs, dtype=torch.bool)
            log = {"Metrics/distance_to_goal": dist.mean()}
        else:
            self.omega = self.omega + dt * (9.81 * torch.sin(self.theta) + 4.0 * act[:, 0])
            self.theta = self.theta + dt * self.omega
            fell = self.theta.abs() > 0.8
            rew = -(self.theta**2) - 0.1 * self.omega**2 - 0.001 * act[:, 0] ** 2 - 5.0 * fell.float()
            log = {"Metrics/abs_angle": self.theta.abs().mean()}
        self.episode_length_buf += 1
        time_outs = self.episode_length_buf >= self.max_episode_length
        dones = time_outs | fell
        extras = {"time_outs": time_outs.clone(), "log": log}
        ids = dones.nonzero().flatten()
        if len(ids):
            self._reset(ids)
        return self.get_observations(), rew, dones.long(), extras


hidden = [int(h) for h in a.hidden.split(",")]
alg: dict = {"class_name": "PPO", "learning_rate": a.lr, "schedule": a.schedule, "optimizer": a.optimizer,
             "num_learning_epochs": a.epochs, "num_mini_batches": a.mini_batches, "entropy_coef": a.entropy,
             "clip_param": 0.2, "gamma": 0.99, "lam": 0.95, "desired_kl": 0.01, "max_grad_norm": a.max_grad_norm}
if a.rnd:
    alg["rnd_cfg"] = {"num_outputs": 8, "predictor_hidden_dims": [32], "target_hidden_dims": [32], "weight": 1.0,
                      "learning_rate": 1e-3}
train_cfg = {
    "num_steps_per_env": a.steps, "save_interval": 100, "run_name": a.run_name,
    "obs_groups": {"actor": ["policy"], "critic": ["policy"]},
    "actor": {"class_name": "MLPModel", "hidden_dims": hidden, "activation": "elu", "obs_normalization": a.obs_norm,
              "distribution_cfg": {"class_name": "GaussianDistribution", "init_std": a.init_std}},
    "critic": {"class_name": "MLPModel", "hidden_dims": hidden, "activation": "elu", "obs_normalization": a.obs_norm},
    "algorithm": alg,
}
env = SmallEnv(a.env, a.num_envs, a.episode)
runner = OnPolicyRunner(env, train_cfg, log_dir="logs/ppo", device="cpu")
try:
    runner.learn(num_learning_iterations=a.iters)
finally:
    if runner.logger.writer is not None:
        runner.logger.writer.flush()

from importlib.metadata import version  # noqa: E402

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

acc = EventAccumulator(glob.glob("logs/ppo/events.out.tfevents.*")[0], size_guidance={"scalars": 0})
acc.Reload()


def series(tag: str) -> list[tuple[int, float]]:
    return [(e.step, e.value) for e in acc.Scalars(tag)] if tag in acc.Tags()["scalars"] else []


train = series("Loss/value")
write_truth(framework=f"rsl-rl-lib {version('rsl-rl-lib')}", settings=vars(a), loss_name="value",
            step_unit="learning iteration, 0-based (`Learning iteration 3/40`)",
            tolerance={"rel": 2e-6, "abs": 5.5e-5},
            record="its TensorBoard scalars (`Loss/value` at the iteration; float32), read back with EventAccumulator",
            train_loss=train, surrogate_loss=[[s, value(v)] for s, v in series("Loss/surrogate")],
            mean_reward=[[s, value(v)] for s, v in series("Train/mean_reward")])
