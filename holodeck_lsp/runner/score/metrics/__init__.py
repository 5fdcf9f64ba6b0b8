"""Metrics computed on a turn: deterministic text metrics, n-gram overlap, code graders
and LLM-judged metrics."""
