"""The 101st held-out library runs (examples/libraries_holdout101): ortools and pyscipopt."""
