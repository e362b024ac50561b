"""The 100th held-out library corpus' maker (examples/libraries_holdout100): itk-elastix and pyttb runs."""
