"""Run history: the EvalRun files `run` and `holodeck test` keep in `results/<slug>/`
beside an agent file, read in time order with each run's metadata and per-turn outcomes
(`run_history.read_history`), and the index that keeps that fast (`outcome_index.py`).

The files are the truth; the index is derived data that can be thrown away. Below the
runner and the server, so both read the same history: standard library, models and
`named_files` only.
"""
