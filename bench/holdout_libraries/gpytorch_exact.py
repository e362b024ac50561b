"""GPyTorch: an exact GP regression trained the way its "Simple GP Regression" tutorial does.

GPyTorch has no training loop or logger of its own: users copy the tutorial's loop, which prints
``Iter %d/%d - Loss: %.3f   lengthscale: %.3f   noise: %.3f`` every iteration. The truth is the loss values the
script keeps (``loss.item()``, the negative marginal log likelihood), at the 1-based iteration.
"""

from __future__ import annotations

import argparse
import math

from lib_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--iters", type=int, default=50)
ap.add_argument("--lr", type=float, default=0.1)
ap.add_argument("--every", type=int, default=1)
ap.add_argument("--kernel", default="rbf", choices=["rbf", "matern"])
ap.add_argument("--n", type=int, default=100)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import gpytorch  # noqa: E402
import torch  # noqa: E402

train_x = torch.linspace(0, 1, a.n)
train_y = torch.sin(train_x * (2 * math.pi)) + torch.randn(train_x.size()) * math.sqrt(0.04)


class ExactGPModel(gpytorch.models.ExactGP):
    def __init__(self, train_x, train_y, likelihood):
        super().__init__(train_x, train_y, likelihood)
        self.mean_module = gpytorch.means.ConstantMean()
        base = gpytorch.kernels.RBFKernel() if a.kernel == "rbf" else gpytorch.kernels.MaternKernel(nu=2.5)
        self.covar_module = gpytorch.kernels.ScaleKernel(base)

    def forward(self, x):
        return gpytorch.distributions.MultivariateNormal(self.mean_module(x), self.covar_module(x))


likelihood = gpytorch.likelihoods.GaussianLikelihood()
model = ExactGPModel(train_x, train_y, likelihood)
model.train()
likelihood.train()
optimizer = torch.optim.Adam(model.parameters(), lr=a.lr)
mll = gpytorch.mlls.ExactMarginalLogLikelihood(likelihood, model)
losses = []
for i in range(a.iters):
    optimizer.zero_grad()
    output = model(train_x)
    loss = -mll(output, train_y)
    loss.backward()
    losses.append(loss.item())
    if (i + 1) % a.every == 0 or i == 0:
        print("Iter %d/%d - Loss: %.3f   lengthscale: %.3f   noise: %.3f" % (  # noqa: UP031 (the tutorial's)
            i + 1, a.iters, loss.item(), model.covar_module.base_kernel.lengthscale.item(),
            model.likelihood.noise.item()))
    optimizer.step()

pts = [(i + 1, v) for i, v in enumerate(losses) if (i + 1) % a.every == 0 or i == 0]
write_truth(framework="gpytorch", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="Loss", step_unit="iteration, 1-based ('Iter i/N')", tolerance={"rel": 1e-9, "abs": 5.1e-4},
            record="the loss.item() values the script keeps", train_loss=pts)
