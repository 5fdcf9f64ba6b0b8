"""Metrics computed on a turn: deterministic text metrics, code graders, and the metrics
this runner does not compute yet (reported as errors, never as passes)."""
