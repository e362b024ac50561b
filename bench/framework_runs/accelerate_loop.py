"""An Accelerate training loop in the style of the HF ``*_no_trainer`` examples: ``Accelerator`` with gradient
accumulation, ``accelerate.logging.get_logger`` under ``logging.basicConfig`` (the examples' format), a tqdm bar
over optimizer steps, a tiny GPT-2 from a config (no hub download) on synthetic token sequences.

Truth: the values the script logged (the mean loss over the logging window, full precision), steps = optimizer
steps completed (``completed_steps`` as the examples count them).
Settings: gradient_accumulation_steps, max_train_steps, log_every, learning_rate, loss_name, bar (bool).
"""

from __future__ import annotations

import logging

from _common import parse_args, seed_all, write_truth

out, st, work = parse_args()
seed_all(st.get("seed", 0))

import torch  # noqa: E402
from accelerate import Accelerator  # noqa: E402
from accelerate.logging import get_logger  # noqa: E402
from tqdm.auto import tqdm  # noqa: E402
from transformers import GPT2Config, GPT2LMHeadModel  # noqa: E402

logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", datefmt="%m/%d/%Y %H:%M:%S",
                    level=logging.INFO)
logger = get_logger(__name__)
VOCAB, SEQ = 64, 32
ga = st.get("gradient_accumulation_steps", 1)
acc = Accelerator(gradient_accumulation_steps=ga, cpu=True)
g = torch.Generator().manual_seed(1)
n = 2000
a = torch.randint(1, 8, (n, 1), generator=g)
b = torch.randint(0, VOCAB, (n, 1), generator=g)
xs = torch.zeros(n, SEQ, dtype=torch.long)
xs[:, 0] = torch.randint(0, VOCAB, (n,), generator=g)
for t in range(1, SEQ):
    xs[:, t] = (a[:, 0] * xs[:, t - 1] + b[:, 0]) % VOCAB
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(xs), batch_size=8, shuffle=True, generator=g)
model = GPT2LMHeadModel(GPT2Config(vocab_size=VOCAB, n_positions=SEQ, n_embd=32, n_layer=2, n_head=2))
opt = torch.optim.AdamW(model.parameters(), lr=st.get("learning_rate", 1e-3))
model, opt, loader = acc.prepare(model, opt, loader)
max_steps, every, name = st.get("max_train_steps", 150), st.get("log_every", 10), st.get("loss_name", "loss")
logger.info("***** Running training *****")
logger.info(f"  Num examples = {n}")
logger.info(f"  Gradient Accumulation steps = {ga}")
logger.info(f"  Total optimization steps = {max_steps}")
bar = tqdm(range(max_steps), disable=not st.get("bar", True))
completed, window, truth = 0, [], []
epoch = 0
while completed < max_steps:
    for (batch,) in loader:
        with acc.accumulate(model):
            loss = model(input_ids=batch, labels=batch).loss
            window.append(loss.item())
            acc.backward(loss)
            opt.step()
            opt.zero_grad()
        if acc.sync_gradients:
            completed += 1
            bar.update(1)
            if completed % every == 0:
                v = sum(window) / len(window)
                window = []
                truth.append((completed, v))
                logger.info(f"epoch {epoch}: step {completed}: {name} {v:.5f}")
            if completed >= max_steps:
                break
    epoch += 1
bar.close()
acc.print("done")
write_truth(out, framework="accelerate (custom loop)", settings=st, train_loss=truth, loss_name=name,
            step_unit="optimizer steps completed", tolerance={"rel": 1e-3, "abs": 5e-6},
            record="the values the script logged")
