"""The thirty-second held-out library runs (examples/libraries_holdout32): generators, truth capture, formats."""
