"""Generators of the held-out library corpus (examples/libraries_holdout); run as scripts, see make_all.py."""
