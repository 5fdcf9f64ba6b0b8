"""Execute: the test cases run against a backend (sessions, turns in order, the
per-turn time limit, record, replay and resume, judge calls, interrupts)."""
