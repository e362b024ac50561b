"""cyipopt: a small tanh MLP (regression on a noisy sine, or a binary classifier on two noisy moons, cross-entropy),
its weights fitted as an unconstrained (or box-bounded) NLP by Ipopt through ``cyipopt.Problem`` with the gradient
given and a limited-memory Hessian, as cyipopt's examples do. Ipopt prints its banner, problem sizes, its iteration
table on stdout (``iter objective inf_pr inf_du lg(mu) ||d|| lg(rg) alpha_du alpha_pr ls``, the objective with 8
significant digits; with ``print_frequency_iter`` N only every N-th iteration) and its summary. Truth: the values
Ipopt hands to the problem's ``intermediate`` callback at every iteration (``iter_count``, ``obj_value``), kept at
the iterations Ipopt prints (every one, or every N-th). The should-stop runs switch Ipopt's line search off
(``accept_every_trial_step yes``): every full quasi-Newton step is taken, far too large, and the loss blows up."""

from __future__ import annotations

import argparse

from h98_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--hidden", type=int, default=8)
ap.add_argument("--n", type=int, default=64)
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--init", type=float, default=1.0, help="std of the initial weights")
ap.add_argument("--max-iter", type=int, default=60)
ap.add_argument("--tol", type=float, default=1e-8)
ap.add_argument("--l2", type=float, default=0.0)
ap.add_argument("--bound", type=float, default=0.0, help="box bounds +-B on every weight (0: none)")
ap.add_argument("--mu-strategy", default="monotone", choices=["monotone", "adaptive"])
ap.add_argument("--print-freq", type=int, default=1, help="Ipopt's print_frequency_iter")
ap.add_argument("--lbfgs-memory", type=int, default=6, help="Ipopt's limited_memory_max_history")
ap.add_argument("--no-linesearch", action="store_true", help="accept_every_trial_step yes")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(a.seed)

import cyipopt  # noqa: E402
import numpy as np  # noqa: E402

rng = np.random.default_rng(a.seed)
h = a.hidden
if a.task == "reg":
    X = rng.uniform(-2, 2, size=(a.n, 1))
    y = np.sin(2 * X[:, 0]) + 0.05 * rng.normal(size=a.n)
else:
    t = rng.uniform(0, np.pi, size=a.n)
    lab = rng.integers(0, 2, size=a.n)
    X = np.stack([np.cos(t) + lab * 1.0, np.sin(t) * (1 - 2 * lab) + lab * 0.4], 1) + 0.15 * rng.normal(size=(a.n, 2))
    y = lab.astype(float)
d_in = X.shape[1]
n_w = d_in * h + h + h + 1


def unpack(w):
    W1 = w[: d_in * h].reshape(d_in, h)
    b1 = w[d_in * h: d_in * h + h]
    W2 = w[d_in * h + h: d_in * h + 2 * h]
    return W1, b1, W2, w[-1]


def forward(w):
    W1, b1, W2, b2 = unpack(w)
    act = np.tanh(X @ W1 + b1)
    return act, act @ W2 + b2


def loss(w):
    _, out = forward(w)
    if a.task == "reg":
        data = 0.5 * np.mean((out - y) ** 2)
    else:
        data = np.mean(np.logaddexp(0.0, out) - y * out)
    return float(data + 0.5 * a.l2 * np.sum(w ** 2))


def grad(w):
    W1, b1, W2, b2 = unpack(w)
    act, out = forward(w)
    r = (out - y) / a.n if a.task == "reg" else (1.0 / (1.0 + np.exp(-out)) - y) / a.n
    dact = np.outer(r, W2) * (1 - act ** 2)
    g = np.concatenate([(X.T @ dact).ravel(), dact.sum(0), act.T @ r, [r.sum()]])
    return g + a.l2 * w


class Fit:
    """The NLP cyipopt solves: the loss, its gradient, and Ipopt's per-iteration values as it hands them over."""

    def __init__(self) -> None:
        self.record: list[tuple[int, float]] = []

    def objective(self, w):
        return loss(w)

    def gradient(self, w):
        return grad(w)

    def intermediate(self, alg_mod, iter_count, obj_value, inf_pr, inf_du, mu, d_norm, regularization_size,
                     alpha_du, alpha_pr, ls_trials):
        self.record.append((int(iter_count), float(obj_value)))
        return True


fit = Fit()
lb = None if a.bound <= 0 else [-a.bound] * n_w
ub = None if a.bound <= 0 else [a.bound] * n_w
nlp = cyipopt.Problem(n=n_w, m=0, problem_obj=fit, lb=lb, ub=ub, cl=[], cu=[])
nlp.add_option("hessian_approximation", "limited-memory")
nlp.add_option("limited_memory_max_history", a.lbfgs_memory)
nlp.add_option("max_iter", a.max_iter)
nlp.add_option("tol", a.tol)
nlp.add_option("mu_strategy", a.mu_strategy)
if a.print_freq != 1:
    nlp.add_option("print_frequency_iter", a.print_freq)
if a.no_linesearch:
    nlp.add_option("accept_every_trial_step", "yes")
w0 = rng.normal(scale=a.init, size=n_w)
if a.bound > 0:
    w0 = np.clip(w0, -0.9 * a.bound, 0.9 * a.bound)
w, info = nlp.solve(w0)

printed = [(s, v) for s, v in fit.record if s % a.print_freq == 0]
msg = info["status_msg"]
msg = msg.decode() if isinstance(msg, bytes) else str(msg)
write_truth(framework=f"cyipopt {cyipopt.__version__} (Ipopt {'.'.join(map(str, cyipopt.IPOPT_VERSION))})",
            settings=vars(a), loss_name="objective" + (" (0.5 * mean squared error" if a.task == "reg"
                                                       else " (mean binary cross-entropy")
            + (" + L2)" if a.l2 else ")"),
            step_unit="Ipopt iteration, 0-based (`iter`; every N-th with `print_frequency_iter` N)",
            tolerance=tol_sig(8),
            record="the values Ipopt hands to the problem's `intermediate` callback (`iter_count`, `obj_value`) at "
                   "every iteration, kept at the iterations it prints",
            train_loss=printed, ipopt_status=int(info["status"]), ipopt_message=msg)
