"""diffusers: a DDPM trained as its unconditional training example (``examples/unconditional_image_generation/
train_unconditional.py``) writes it, on tiny synthetic images (no dataset download, no torchvision): a small
``UNet2DModel`` built from a config, ``DDPMScheduler``, AdamW, ``diffusers.optimization.get_scheduler``, optional
``EMAModel``, under ``accelerate`` (``Accelerator(log_with="tensorboard")``, ``get_logger``) with one tqdm bar an
epoch (``Epoch 0:  45%|...| 9/20 [00:01<00:02, 5.0it/s, loss=0.123, lr=0.0001, step=9]``, its ``set_postfix`` after
every step) and, every ``--save-images-epochs``, the ``DDPMPipeline``'s sampling bar. Truth: the ``loss`` scalars the
run logs through ``accelerator.log`` to its TensorBoard tracker, read back with TensorBoard's ``EventAccumulator``,
at the global step, 1-based, as the postfix's ``step=`` counts it."""

from __future__ import annotations

import argparse
import logging
import math
import os

from h20_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=4)
ap.add_argument("--n", type=int, default=128, help="synthetic images")
ap.add_argument("--resolution", type=int, default=16)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--lr-scheduler", default="cosine")
ap.add_argument("--warmup", type=int, default=5)
ap.add_argument("--step-rules", default=None, help="piecewise_constant's rules, e.g. 1:24,30:48,300")
ap.add_argument("--adam-beta1", type=float, default=0.95)
ap.add_argument("--weight-decay", type=float, default=1e-6)
ap.add_argument("--max-grad-norm", type=float, default=1.0)
ap.add_argument("--ema", action="store_true")
ap.add_argument("--prediction-type", default="epsilon", choices=["epsilon", "sample"])
ap.add_argument("--beta-schedule", default="linear")
ap.add_argument("--train-timesteps", type=int, default=1000)
ap.add_argument("--save-images-epochs", type=int, default=0, help="0: never sample")
ap.add_argument("--inference-steps", type=int, default=10)
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(a.seed)

import accelerate  # noqa: E402
import diffusers  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from accelerate import Accelerator  # noqa: E402
from accelerate.logging import get_logger  # noqa: E402
from accelerate.utils import ProjectConfiguration  # noqa: E402
from diffusers import DDPMPipeline, DDPMScheduler, UNet2DModel  # noqa: E402
from diffusers.optimization import get_scheduler  # noqa: E402
from diffusers.training_utils import EMAModel  # noqa: E402
from tqdm.auto import tqdm  # noqa: E402

logger = get_logger(__name__, log_level="INFO")

output_dir = "ddpm-synthetic-16"
logging_dir = os.path.join(output_dir, "logs")
accelerator = Accelerator(mixed_precision="no", log_with="tensorboard", cpu=True,
                          project_config=ProjectConfiguration(project_dir=output_dir, logging_dir=logging_dir))
logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", datefmt="%m/%d/%Y %H:%M:%S",
                    level=logging.INFO)
logger.info(accelerator.state, main_process_only=False)
diffusers.utils.logging.set_verbosity_info()


# synthetic images: soft blobs of colour on a gradient, in [-1, 1]
rng = np.random.default_rng(a.seed)
r = a.resolution
yy, xx = np.mgrid[0:r, 0:r] / (r - 1)
images = []
for _ in range(a.n):
    cx, cy, s = rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8), rng.uniform(0.08, 0.25)
    blob = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * s * s))
    colour = rng.uniform(-1, 1, size=3)
    base = rng.uniform(-0.5, 0.5) * (xx if rng.random() < 0.5 else yy)
    img = np.clip(base[None] + colour[:, None, None] * blob[None], -1, 1)
    images.append({"input": torch.tensor(img, dtype=torch.float32)})
train_dataloader = torch.utils.data.DataLoader(images, batch_size=a.batch, shuffle=True)

model = UNet2DModel(sample_size=r, in_channels=3, out_channels=3, layers_per_block=1, block_out_channels=(16, 32, 32),
                    down_block_types=("DownBlock2D", "AttnDownBlock2D", "DownBlock2D"),
                    up_block_types=("UpBlock2D", "AttnUpBlock2D", "UpBlock2D"), norm_num_groups=8)
ema_model = None
if a.ema:
    ema_model = EMAModel(model.parameters(), decay=0.9999, use_ema_warmup=True, inv_gamma=1.0, power=3 / 4,
                         model_cls=UNet2DModel, model_config=model.config)
noise_scheduler = DDPMScheduler(num_train_timesteps=a.train_timesteps, beta_schedule=a.beta_schedule,
                                prediction_type=a.prediction_type)
optimizer = torch.optim.AdamW(model.parameters(), lr=a.lr, betas=(a.adam_beta1, 0.999), weight_decay=a.weight_decay,
                              eps=1e-8)
lr_scheduler = get_scheduler(a.lr_scheduler, optimizer=optimizer, step_rules=a.step_rules, num_warmup_steps=a.warmup,
                             num_training_steps=len(train_dataloader) * a.epochs)
model, optimizer, train_dataloader, lr_scheduler = accelerator.prepare(model, optimizer, train_dataloader,
                                                                       lr_scheduler)
if ema_model is not None:
    ema_model.to(accelerator.device)
if accelerator.is_main_process:
    accelerator.init_trackers("train_unconditional")

num_update_steps_per_epoch = math.ceil(len(train_dataloader))
max_train_steps = a.epochs * num_update_steps_per_epoch
logger.info("***** Running training *****")
logger.info(f"  Num examples = {len(images)}")
logger.info(f"  Num Epochs = {a.epochs}")
logger.info(f"  Instantaneous batch size per device = {a.batch}")
logger.info(f"  Total train batch size (w. parallel, distributed & accumulation) = {a.batch}")
logger.info("  Gradient Accumulation steps = 1")
logger.info(f"  Total optimization steps = {max_train_steps}")

global_step = 0
for epoch in range(a.epochs):
    model.train()
    progress_bar = tqdm(total=num_update_steps_per_epoch, disable=not accelerator.is_local_main_process)
    progress_bar.set_description(f"Epoch {epoch}")
    for _step, batch in enumerate(train_dataloader):
        clean_images = batch["input"]
        noise = torch.randn(clean_images.shape, dtype=clean_images.dtype, device=clean_images.device)
        bsz = clean_images.shape[0]
        timesteps = torch.randint(0, noise_scheduler.config.num_train_timesteps, (bsz,),
                                  device=clean_images.device).long()
        noisy_images = noise_scheduler.add_noise(clean_images, noise, timesteps)
        with accelerator.accumulate(model):
            model_output = model(noisy_images, timesteps).sample
            if a.prediction_type == "epsilon":
                loss = F.mse_loss(model_output.float(), noise.float())
            else:
                alpha_t = noise_scheduler.alphas_cumprod.to(clean_images.device)[timesteps].view(-1, 1, 1, 1)
                snr_weights = alpha_t / (1 - alpha_t)
                loss = (snr_weights * F.mse_loss(model_output.float(), clean_images.float(), reduction="none")).mean()
            accelerator.backward(loss)
            if accelerator.sync_gradients and a.max_grad_norm > 0:
                accelerator.clip_grad_norm_(model.parameters(), a.max_grad_norm)
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
        if accelerator.sync_gradients:
            if ema_model is not None:
                ema_model.step(model.parameters())
            progress_bar.update(1)
            global_step += 1
        logs = {"loss": loss.detach().item(), "lr": lr_scheduler.get_last_lr()[0], "step": global_step}
        if ema_model is not None:
            logs["ema_decay"] = ema_model.cur_decay_value
        progress_bar.set_postfix(**logs)
        accelerator.log(logs, step=global_step)
    progress_bar.close()
    accelerator.wait_for_everyone()

    if accelerator.is_main_process and a.save_images_epochs and (
            (epoch + 1) % a.save_images_epochs == 0 or epoch == a.epochs - 1):
        unet = accelerator.unwrap_model(model)
        if ema_model is not None:
            ema_model.store(unet.parameters())
            ema_model.copy_to(unet.parameters())
        pipeline = DDPMPipeline(unet=unet, scheduler=noise_scheduler)
        generator = torch.Generator(device=pipeline.device).manual_seed(0)
        images_out = pipeline(generator=generator, batch_size=4, num_inference_steps=a.inference_steps,
                              output_type="np").images
        if ema_model is not None:
            ema_model.restore(unet.parameters())
        images_processed = (images_out * 255).round().astype("uint8")
        tracker = accelerator.get_tracker("tensorboard", unwrap=True)
        tracker.add_images("test_samples", images_processed.transpose(0, 3, 1, 2), epoch)

accelerator.end_training()

# the truth: the loss scalars accelerator.log wrote to the TensorBoard tracker
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

logging.getLogger("tensorboard").setLevel(logging.WARNING)

run_dir = os.path.join(logging_dir, "train_unconditional")
acc = EventAccumulator(run_dir, size_guidance={"scalars": 0})
acc.Reload()
scal = acc.Scalars("loss")
write_truth(framework=f"diffusers {diffusers.__version__}", settings=vars(a), loss_name="loss",
            step_unit="global step, 1-based (tqdm's postfix `step=`)", tolerance=tol_sig(3),
            record="the `loss` scalars logged by `accelerator.log` to its TensorBoard tracker",
            train_loss=[(e.step, e.value) for e in scal], steps_per_epoch=num_update_steps_per_epoch,
            accelerate=accelerate.__version__)
