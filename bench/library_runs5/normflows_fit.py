"""normflows 1.7: a Real NVP / Neural Spline flow fitted to a 2-D target (the package's own ``TwoMoons`` /
``RingMixture`` distributions) by reverse or forward KL, as the package's example notebooks do.

The examples loop ``for it in tqdm(range(max_iter))``, compute ``loss = model.forward_kld(x)`` (or
``reverse_kld``), skip the step when the loss is not finite (``if ~(torch.isnan(loss) | torch.isinf(loss))``) and
keep ``loss_hist``; a user watching the run prints it, as here in one of three ways: the bar's postfix
(``set_postfix(loss=...)``), a line, or ``tqdm.write``, every ``--every`` iterations. Truth: ``loss_hist`` at its
iteration (1-based, as printed), the values printed.
"""

from __future__ import annotations

import argparse

from lib_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--flow", default="realnvp", choices=["realnvp", "spline"])
ap.add_argument("--target", default="moons", choices=["moons", "ring"])
ap.add_argument("--iters", type=int, default=400)
ap.add_argument("--lr", type=float, default=5e-4)
ap.add_argument("--fmt", default="postfix", choices=["postfix", "print", "write"])
ap.add_argument("--every", type=int, default=10)
ap.add_argument("--no-skip", action="store_true", help="step even on a non-finite loss")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import normflows as nf  # noqa: E402
import torch  # noqa: E402
from tqdm import tqdm  # noqa: E402

torch.set_num_threads(1)
K = 4
base = nf.distributions.base.DiagGaussian(2)
flows = []
for i in range(K):
    if a.flow == "realnvp":
        b = torch.tensor([i % 2, (i + 1) % 2]).float()
        s = nf.nets.MLP([2, 16, 16, 2], init_zeros=True)
        t = nf.nets.MLP([2, 16, 16, 2], init_zeros=True)
        flows += [nf.flows.MaskedAffineFlow(b, t, s), nf.flows.ActNorm(2)]
    else:
        flows += [nf.flows.AutoregressiveRationalQuadraticSpline(2, 1, 16), nf.flows.LULinearPermute(2)]
target = nf.distributions.TwoMoons() if a.target == "moons" else nf.distributions.RingMixture()
model = nf.NormalizingFlow(base, flows, p=target)
opt = torch.optim.Adam(model.parameters(), lr=a.lr, weight_decay=1e-5)
loss_hist: list[list[float]] = []
# the loop as the examples write it (``for it in tqdm(range(max_iter))``); for a postfix a bar updated by hand
# (``pbar.update(1)`` then ``pbar.set_postfix``: the counter drawn is the iteration's)
bar = tqdm(total=a.iters) if a.fmt == "postfix" else None
for it in (range(a.iters) if bar is not None else tqdm(range(a.iters))):
    opt.zero_grad()
    if a.target == "moons":
        x = target.sample(128)
        loss = model.forward_kld(x)
    else:
        loss = model.reverse_kld(128)
    if a.no_skip or not (torch.isnan(loss) | torch.isinf(loss)):
        loss.backward()
        opt.step()
    v = loss.item()
    if bar is not None:
        bar.update(1)
    loss_hist.append([it + 1, v])
    if (it + 1) % a.every == 0:
        if bar is not None:
            bar.set_postfix(loss=v)  # refresh=True: drawn now, whatever mininterval
        elif a.fmt == "print":
            print(f"Iteration {it + 1}/{a.iters}, loss: {v:.5f}")
        else:
            tqdm.write(f"it {it + 1} - loss {v:.4f}")
loss_hist = [p for p in loss_hist if p[0] % a.every == 0]
tol = {"postfix": {"rel": 1e-3, "sig": 3}, "print": {"rel": 1e-5, "abs": 5e-6}, "write": {"rel": 1e-4, "abs": 5e-5}}
write_truth(framework=f"normflows {a.flow}", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="loss", step_unit="iteration, 1-based (the loop's count as printed)",
            tolerance=tol[a.fmt], record="the examples' loss_hist (loss.item() each iteration)", train_loss=loss_hist)
