"""The 88th held-out library runs (examples/libraries_holdout88): see make_all.py."""
