"""TEDEouS (torch differential equation solver): a small network solving an ODE (``u'' + w^2 u = 0`` on [0, 1],
``u(0) = 0``, ``u'(0) = w``, or ``u' + k u = 0``, ``u(0) = 1``) in its ``autograd`` mode, trained by
``Model.train`` with an ``Optimizer('Adam' | 'SGD' | 'RMSprop', {'lr': ...}, gamma, decay_every)`` and its
``EarlyStopping`` callback printing every ``info_string_every`` steps, as its examples do. Its messages go to stdout:
``[2026-12-06 19:30:01.123456] initial (min) loss is 12.3456...`` (``repr`` of a float), then
``[date] Step = 100 loss = 0.123456 normalized loss line= -0.000123x+1.000000. There was 0 stop dings already.``
(``{:.6f}``). Truth: the model's own ``cur_loss`` (the loss of the step's closure) at ``Model.t`` when its
``EarlyStopping`` prints, read by a ``tedeous`` ``Callback`` beside it."""

from __future__ import annotations

import argparse

from h48_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--problem", default="osc", choices=["osc", "decay"])
ap.add_argument("--optimizer", default="Adam", choices=["Adam", "SGD", "RMSprop"])
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--gamma", type=float, default=None)
ap.add_argument("--decay-every", type=int, default=None)
ap.add_argument("--epochs", type=int, default=1000)
ap.add_argument("--every", type=int, default=100)
ap.add_argument("--points", type=int, default=40)
ap.add_argument("--hidden", type=int, default=32)
ap.add_argument("--lambda-bound", type=float, default=10.0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import tedeous  # noqa: E402
import torch  # noqa: E402
from tedeous.callbacks import early_stopping  # noqa: E402
from tedeous.callbacks.callback import Callback  # noqa: E402
from tedeous.data import Conditions, Domain, Equation  # noqa: E402
from tedeous.model import Model  # noqa: E402
from tedeous.optimizers.optimizer import Optimizer  # noqa: E402

torch.set_num_threads(1)
torch.manual_seed(0)

domain = Domain()
domain.variable("t", [0, 1], a.points)
bcs = Conditions()
equation = Equation()
if a.problem == "osc":
    w = 3.0
    bcs.dirichlet({"t": 0}, value=0)
    bcs.operator({"t": 0}, operator={"du/dt": {"coeff": 1, "term": [0], "pow": 1}}, value=w)
    equation.add({"d2u/dt2": {"coeff": 1, "term": [0, 0], "pow": 1},
                  "u": {"coeff": w * w, "term": [None], "pow": 1}})
else:
    bcs.dirichlet({"t": 0}, value=1)
    equation.add({"du/dt": {"coeff": 1, "term": [0], "pow": 1}, "u": {"coeff": 2.0, "term": [None], "pow": 1}})

net = torch.nn.Sequential(torch.nn.Linear(1, a.hidden), torch.nn.Tanh(), torch.nn.Linear(a.hidden, a.hidden),
                          torch.nn.Tanh(), torch.nn.Linear(a.hidden, 1))
model = Model(net, domain, equation, bcs)
model.compile("autograd", lambda_operator=1, lambda_bound=a.lambda_bound)


class Record(Callback):
    """Keeps the model's ``cur_loss`` at each step ``Model.t`` (the step the early stopping prints)."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def on_epoch_end(self, logs=None):
        v = self.model.cur_loss
        self.seen.append((self.model.t, float(v.item() if hasattr(v, "item") else v)))


es = early_stopping.EarlyStopping(eps=1e-7, loss_window=100, no_improvement_patience=100000, patience=1000,
                                  randomize_parameter=1e-7, info_string_every=a.every)
rec = Record()
opt = Optimizer(a.optimizer, {"lr": a.lr}, gamma=a.gamma, decay_every=a.decay_every)
model.train(opt, a.epochs, save_model=False, callbacks=[es, rec])

pts = [(t, v) for t, v in rec.seen if t % a.every == 0]
write_truth(framework=f"tedeous {tedeous.__version__ if hasattr(tedeous, '__version__') else '0.4.11'}",
            settings=vars(a), loss_name="loss (operator + lambda_bound x boundary)",
            step_unit="step (Model.t, 1-based; `Step = N`)", tolerance=tol_decimals(6),
            record="the model's cur_loss at each step, read by a tedeous Callback beside its EarlyStopping",
            train_loss=pts)
