"""Benchmarks that print numbers against the targets their docstrings name. Run each from
the repository root as a module, `python -m benchmarks.NAME`: the suites they generate
come from `tests/support/suites.py`, the fakes they start from `tests/`."""
