"""The agent the rlberry runs train (importable, so that ExperimentManager's worker processes can load it): a linear
value function of CartPole's state fitted by gradient steps on the Monte Carlo returns of the episodes it has played
(a replay buffer), written to the agent's ``self.writer`` (rlberry's DefaultWriter) as its agents do: ``loss`` then
``episode_rewards``, at the episode as global step."""

from __future__ import annotations

import numpy as np
from rlberry.agents import AgentWithSimplePolicy


class MCValueAgent(AgentWithSimplePolicy):
    name = "MCValue"

    def __init__(self, env, lr=0.01, gamma=0.95, optimizer="sgd", **kwargs):
        AgentWithSimplePolicy.__init__(self, env, **kwargs)
        self.lr, self.gamma, self.optimizer = lr, gamma, optimizer
        self.w = np.zeros(5)
        self.m = np.zeros(5)
        self.buf_x, self.buf_y = [], []
        self.episode = 0

    def policy(self, observation):
        return self.env.action_space.sample()

    def _features(self, s):
        return np.concatenate([np.asarray(s, dtype=float) * np.array([1.0, 1.0, 10.0, 1.0]), [1.0]])

    def fit(self, budget, **kwargs):
        for _ in range(budget):
            obs, _ = self.env.reset()
            states, rewards, done = [], [], False
            while not done:
                states.append(self._features(obs))
                obs, r, term, trunc, _ = self.env.step(self.policy(obs))
                rewards.append(r)
                done = term or trunc
            g, returns = 0.0, []
            for r in reversed(rewards):
                g = r + self.gamma * g
                returns.append(g)
            self.buf_x += states
            self.buf_y += returns[::-1]
            x, y = np.array(self.buf_x), np.array(self.buf_y)
            with np.errstate(all="ignore"):
                err = x @ self.w - y
                loss = float(np.mean(err ** 2))
                grad = 2 * x.T @ err / len(y)
                if self.optimizer == "momentum":
                    self.m = 0.9 * self.m + grad
                    self.w = self.w - self.lr * self.m
                else:
                    self.w = self.w - self.lr * grad
            self.episode += 1
            self.writer.add_scalar("loss", loss, self.episode)
            self.writer.add_scalar("episode_rewards", float(sum(rewards)), self.episode)
