"""Generators of examples/libraries_holdout4 (run as scripts: python bench/holdout_libraries4/make_all.py)."""
