"""Ways to stop a run: signals (local or over SSH), Slurm, tmux, W&B."""
