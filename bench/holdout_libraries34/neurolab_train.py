"""neurolab: a small feed-forward network (``nl.net.newff``) trained on a seeded synthetic regression with one of
its trainers (``train_gd``, ``train_gdm``, ``train_gda``, ``train_gdx``, ``train_rprop``, ``train_bfgs``) and
``show=N``, as its examples do. neurolab prints on stdout ``Epoch: 20; Error: 3.2563014367;`` every ``show`` epochs
(the error with ``str``: full precision) and a closing line (``The maximum number of train epochs is reached``).
Truth: the list of errors ``net.train`` returns (one an epoch, the error function, SSE by default, after the
epoch), at the epoch, 1-based, only at the epochs the log prints (multiples of ``show``)."""

from __future__ import annotations

import argparse

import numpy as np
from h34_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--trainer", default="train_gd")
ap.add_argument("--lr", type=float, default=None)
ap.add_argument("--epochs", type=int, default=200)
ap.add_argument("--show", type=int, default=10)
ap.add_argument("--hidden", type=int, default=8)
ap.add_argument("--n", type=int, default=60)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import neurolab as nl  # noqa: E402

rng = np.random.default_rng(0)
x = rng.uniform(-1, 1, size=(a.n, 2))
y = (np.sin(2 * x[:, 0]) + 0.5 * x[:, 1] ** 2 + rng.normal(scale=0.05, size=a.n)).reshape(-1, 1)
net = nl.net.newff([[-1, 1], [-1, 1]], [a.hidden, 1], transf=[nl.trans.TanSig(), nl.trans.PureLin()])
net.trainf = getattr(nl.train, a.trainer)
kw = {"epochs": a.epochs, "show": a.show, "goal": 1e-6}
if a.lr is not None:
    kw["lr"] = a.lr
err = net.train(x, y, **kw)

errs = [float(e) for e in err]
write_truth(framework=f"neurolab {getattr(nl, '__version__', '0.3.5')}", settings=vars(a), loss_name="Error",
            step_unit="epoch, 1-based (`Epoch: N;`, every `show` epochs)", tolerance=tol_sig(10),
            record=f"the error list `net.train` returns ({a.trainer}, SSE)",
            train_loss=[(i + 1, e) for i, e in enumerate(errs) if (i + 1) % a.show == 0])
