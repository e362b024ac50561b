"""tinygrad 0.14: a small MLP classifier trained on synthetic data the way tinygrad's examples train
(``examples/beautiful_mnist.py``: a ``TinyJit`` train step under ``Context(TRAINING=1)``, ``nn.optim.Adam`` or ``SGD``,
``for i in (t := trange(STEPS))`` and ``t.set_description(f"loss: {loss.item():6.2f} test_accuracy: ...")``), or
printing a line every ``--every`` steps as the other examples do (``print(f"step {i:4d} loss {loss:.4f} ...")``).
tinygrad's own ``tqdm`` redraws with ``\\r`` to stderr. Truth: ``loss.item()`` at each step the description was
drawn with (at the bar's counter, the steps done: ``i + 1``) or the line printed (at the printed ``i``, 0-based).
"""

from __future__ import annotations

import argparse

from lib_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--steps", type=int, default=300)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--optim", default="adam", choices=["adam", "sgd"])
ap.add_argument("--fmt", default="bar", choices=["bar", "print"])
ap.add_argument("--every", type=int, default=10)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
from tinygrad import Tensor, TinyJit, nn  # noqa: E402
from tinygrad.helpers import Context, trange  # noqa: E402

Tensor.manual_seed(0)
rng = np.random.default_rng(0)
n, d, k = 4096, 32, 10
centers = rng.normal(size=(k, d)).astype(np.float32)
yn = rng.integers(0, k, size=n)
xn = (centers[yn] + 1.5 * rng.normal(size=(n, d))).astype(np.float32)
X_train, Y_train = Tensor(xn[:3584]), Tensor(yn[:3584].astype(np.int32))
X_test, Y_test = Tensor(xn[3584:]), Tensor(yn[3584:].astype(np.int32))


class Model:
    def __init__(self):
        self.l1, self.l2, self.l3 = nn.Linear(d, 64), nn.Linear(64, 64), nn.Linear(64, k)

    def __call__(self, x: Tensor) -> Tensor:
        return self.l3(self.l2(self.l1(x).relu()).relu())


model = Model()
params = nn.state.get_parameters(model)
opt = nn.optim.Adam(params, lr=a.lr) if a.optim == "adam" else nn.optim.SGD(params, lr=a.lr, momentum=0.9)


@TinyJit
@Context(TRAINING=1)
def train_step() -> Tensor:
    opt.zero_grad()
    samples = Tensor.randint(64, high=X_train.shape[0])
    loss = model(X_train[samples]).sparse_categorical_crossentropy(Y_train[samples]).backward()
    opt.step()
    return loss


@TinyJit
def get_test_acc() -> Tensor:
    return (model(X_test).argmax(axis=1) == Y_test).mean() * 100


truth: list[list[float]] = []
test_acc = float("nan")
if a.fmt == "bar":
    for i in (t := trange(a.steps)):
        loss = train_step()
        if i % 10 == 9:
            test_acc = get_test_acc().item()
        v = loss.item()
        if (t.i + 1) % t.skip == 0:  # the bar draws at the update after this body (every skip-th, rate-limited)
            truth.append([i + 1, v])  # ... with its counter at i + 1: the steps done
        t.set_description(f"loss: {v:6.2f} test_accuracy: {test_acc:5.2f}%")
else:
    for i in range(a.steps):
        loss = train_step()
        v = loss.item()
        if i % a.every == 0 or i == a.steps - 1:
            test_acc = get_test_acc().item()
            truth.append([i, v])
            print(f"step {i:4d} loss {v:.4f} test_accuracy {test_acc:.2f}%")
write_truth(framework=f"tinygrad {a.optim}", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="loss", step_unit=("step, the bar's counter (steps done, i + 1)" if a.fmt == "bar"
                       else "step, 0-based (the loop index i as printed)"),
            tolerance={"abs": 0.0051} if a.fmt == "bar" else {"abs": 5.1e-5},
            record="loss.item() of the jitted train step, as the example prints it", train_loss=truth)
