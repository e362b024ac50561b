"""training-check."""
