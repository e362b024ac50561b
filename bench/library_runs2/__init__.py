"""Generators of examples/libraries2 (issue 32's second dev set of library runs)."""
