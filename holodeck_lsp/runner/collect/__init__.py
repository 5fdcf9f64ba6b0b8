"""Collect: from an agent file to the test cases a run executes (`${VAR}`
substitution, validation, the plan, selection, focus, repeat expansion, the run's
settings and the warnings it starts with)."""
