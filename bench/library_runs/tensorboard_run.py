"""A user's PyTorch loop logging to TensorBoard with ``torch.utils.tensorboard.SummaryWriter``
(``add_scalar('train/loss', v, step)``), printing a line now and then or nothing.

Truth: the event file itself, read back with TensorBoard's ``EventAccumulator`` (at the scalar's ``step``). The
event file is kept under its own name, or (``--plain-name``) renamed to ``events.out.tfevents`` (a name with no
host/pid suffix, as some tools and copies leave it).
"""

from __future__ import annotations

import argparse
import glob

from _toy import toy_args, train
from _truth import common_args, keep, settings_of, write_truth

p = argparse.ArgumentParser()
toy_args(p)
p.add_argument("--plain-name", action="store_true")
common_args(p)
args = p.parse_args()

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402
from torch.utils.tensorboard import SummaryWriter  # noqa: E402

writer = SummaryWriter("runs/tiny")


def log(step: int, loss: float) -> None:
    writer.add_scalar("train/loss", loss, step)
    if args.print:
        print(f"it {step} | loss {loss:.4f}")


train(log, epochs=args.epochs, lr=args.lr, seed=args.seed, every=args.every, growth=args.growth)
writer.close()
(path,) = glob.glob("runs/tiny/events.out.tfevents.*")
acc = EventAccumulator(path)
acc.Reload()
keep(path, "events.out.tfevents" if args.plain_name else "tb/" + path.rsplit("/", 1)[1])
write_truth(framework="tensorboard (torch SummaryWriter)", settings=settings_of(args), label=args.label,
            should_stop=args.should_stop, loss_name="train/loss", step_unit="the scalar's step (global step)",
            tolerance={"rel": 1e-5, "abs": 5e-5}, record="the event file (EventAccumulator scalars)",
            train_loss=[(e.step, e.value) for e in acc.Scalars("train/loss")],
            event_file="events.out.tfevents" if args.plain_name else path.rsplit("/", 1)[1])
