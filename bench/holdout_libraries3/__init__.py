"""Generators of examples/libraries_holdout3 (run as scripts: python bench/holdout_libraries3/make_all.py)."""
