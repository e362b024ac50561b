"""Guild AI: a user's small PyTorch training script (an MLP on synthetic data) run under guild, ``guild run train.py
lr=0.01 epochs=12 -y`` (guild's command line called in-process, as its console script does), in a fresh project
folder with its own ``GUILD_HOME``. Guild starts the script as its operation, echoes the script's output (stdout and
stderr) to its own, and turns the output lines its ``output-scalars`` patterns match into scalars it stores in the
run's TensorBoard event file: the default patterns (``loss: 0.4321`` lines, ``step: 3`` setting the step, or
``loss: 0.4321 (step 30)``) or the patterns of the operation in a ``guild.yml`` (``--style yml``: ``Epoch 3/12
loss=0.4321 val_loss=0.5012``; ``--style logging``: the logging module's lines, which guild formats as
``INFO: [train] epoch 3 step 40 loss 0.4321``). Truth: the ``loss`` scalars guild stored for the run (read back
with guild's own ``guild.tfevent.ScalarReader``), at guild's step (the last ``step`` the output set)."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from pathlib import Path

from h89_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--style", default="lines", choices=["lines", "paren", "yml", "logging"])
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "momentum", "rmsprop"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--gamma", type=float, default=1.0)
ap.add_argument("--epochs", type=int, default=12)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=256)
ap.add_argument("--every", type=int, default=0, help="print every N batches (0: once an epoch)")
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

# the user's training script: flags as module globals (guild imports them and sets them for the run)
SCRIPT = textwrap.dedent('''\
    import logging
    import math

    import torch
    from torch import nn

    task = "reg"
    optimizer = "adam"
    lr = 0.01
    gamma = 1.0
    epochs = 12
    batch_size = 32
    n = 256
    every = 0
    val = True
    style = "lines"
    seed = 0

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    log = logging.getLogger("train")
    if style == "logging":
        logging.basicConfig(level=logging.INFO)

    X = torch.randn(n + n // 4, 8)
    if task == "reg":
        w = torch.randn(8, 1)
        y = torch.sin(X @ w) * 2 + 0.5 * X[:, :1] ** 2 + 0.1 * torch.randn(len(X), 1)
        out, loss_fn = 1, nn.MSELoss()
    else:
        W = torch.randn(8, 3)
        y = (X @ W + 0.3 * torch.randn(len(X), 3)).argmax(1)
        out, loss_fn = 3, nn.CrossEntropyLoss()
    Xtr, ytr, Xva, yva = X[:n], y[:n], X[n:], y[n:]
    model = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, out))
    if optimizer == "adam":
        opt = torch.optim.Adam(model.parameters(), lr=lr)
    elif optimizer == "sgd":
        opt = torch.optim.SGD(model.parameters(), lr=lr)
    elif optimizer == "momentum":
        opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    else:
        opt = torch.optim.RMSprop(model.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=gamma)
    steps = math.ceil(n / batch_size)


    def report(step, epoch, i, loss, val_loss=None):
        if style == "lines":
            print(f"step: {step}")
            print(f"loss: {loss:.6f}")
            if val_loss is not None:
                print(f"val_loss: {val_loss:.6f}")
        elif style == "paren":
            print(f"loss: {loss:.6f} (step {step})")
            if val_loss is not None:
                print(f"val_loss: {val_loss:.6f} (step {step})")
        elif style == "yml":
            line = f"Epoch {epoch}/{epochs} loss={loss:.5f} lr={sched.get_last_lr()[0]:.6f}"
            print(line + (f" val_loss={val_loss:.5f}" if val_loss is not None else ""))
        else:
            log.info("epoch %d step %d loss %.6f", epoch, step, loss)
            if val_loss is not None:
                log.info("epoch %d validation loss %.6f", epoch, val_loss)


    step = 0
    for epoch in range(1, epochs + 1):
        model.train()
        perm = torch.randperm(n)
        total, seen = 0.0, 0
        for i in range(1, steps + 1):
            idx = perm[(i - 1) * batch_size:i * batch_size]
            loss = loss_fn(model(Xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            total += loss.item() * len(idx)
            seen += len(idx)
            if every and i % every == 0:
                report(step, epoch, i, total / seen)
                total, seen = 0.0, 0
        val_loss = None
        if val:
            model.eval()
            with torch.no_grad():
                val_loss = loss_fn(model(Xva), yva).item()
        if not every:
            report(epoch, epoch, steps, total / seen, val_loss)
        elif val_loss is not None:
            if style == "logging":
                log.info("epoch %d validation loss %.6f", epoch, val_loss)
            else:
                print(f"val_loss: {val_loss:.6f}" + (f" (step {step})" if style == "paren" else ""))
        sched.step()
''')

GUILD_YML = textwrap.dedent('''\
    train:
      main: train
      flags-import: all
      output-scalars:
        step: 'Epoch (\\step)/'
        loss: ' loss=(\\value)'
        lr: ' lr=(\\value)'
        val_loss: ' val_loss=(\\value)'
    train-log:
      main: train
      flags-import: all
      output-scalars:
        step: 'epoch \\d+ step (\\step) loss'
        loss: 'step \\d+ loss (\\value)'
        val_loss: 'validation loss (\\value)'
''')

project = Path("project").resolve()
project.mkdir()
(project / "train.py").write_text(SCRIPT)
home = Path("guild-home").resolve()  # beside the project, in the run's working folder
home.mkdir()
os.environ["GUILD_HOME"] = str(home)
op = "train.py"
if a.style in ("yml", "logging"):
    (project / "guild.yml").write_text(GUILD_YML)
    op = "train" if a.style == "yml" else "train-log"
os.chdir(project)
flags = [f"task={a.task}", f"optimizer={a.optimizer}", f"lr={a.lr}", f"epochs={a.epochs}", f"batch_size={a.batch}",
         f"n={a.n}", f"every={a.every}", f"style={a.style}"]
flags += [f"gamma={a.gamma}"] if a.gamma != 1.0 else []
flags += ["val=no"] if a.no_val else []

import guild  # noqa: E402
from guild.main_bootstrap import main  # noqa: E402
from guild.tfevent import ScalarReader  # noqa: E402

sys.argv = ["guild", "run", op, *flags, "-y"]
try:
    main()
except SystemExit as e:
    print(f"(guild exited {e.code})", file=sys.stderr) if e.code else None

run_dir = next((home / "runs").iterdir())
scalars: dict[str, list[tuple[int, float]]] = {}
for tag, val, step in ScalarReader(str(run_dir / ".guild")):
    scalars.setdefault(tag, []).append((step, val))
keep(run_dir / ".guild" / "output", "guild_output")
val = scalars.get("val_loss")
every = f"every {a.every} batches, the global batch, 1-based" if a.every else "epoch, 1-based"
write_truth(framework=f"guildai {guild.__version__}", settings=vars(a), loss_name="loss",
            step_unit=f"{every} (guild's step: the last `step` its output-scalars read)",
            tolerance={"rel": 1e-7, "abs": 0.51e-6 if a.style != "yml" else 0.51e-5},
            record="the `loss` scalars guild stored in the run's event file (`.guild/events.out.tfevents.*`, float32), "
                   "read with `guild.tfevent.ScalarReader`",
            train_loss=scalars["loss"], eval_loss=val, eval_name="val_loss" if val else None,
            **({"steps_per_epoch": -(-a.n // a.batch)} if a.every else {}))
