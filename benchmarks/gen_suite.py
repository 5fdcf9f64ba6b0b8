"""Generate an N-case, 4-turn HoloDeck suite (valid), for benchmarks.

python benchmarks/gen_suite.py 1000 > /tmp/suite.agent.yaml
"""

from __future__ import annotations

import sys

HEADER = """name: benchmark-suite
model:
  provider: openai
  name: gpt-4o-mini
instructions:
  inline: Answer using the tools.
tools:
  - name: lookup
    type: function
    description: Look up a value.
    file: tools.py
    function: lookup
  - name: subtract
    type: function
    description: Subtract b from a.
    file: tools.py
    function: subtract
evaluations:
  metrics:
    - type: standard
      metric: numeric
      absolute_tolerance: 0.01
test_cases:
"""

CASE = """  - name: case {i}
    turns:
      - input: What was the operating cash in {year}?
        ground_truth: "{a}"
        expected_tools:
          - name: lookup
            args:
              row: {{fuzzy: "Operating Cash"}}
              year: {year}
      - input: And in {next_year}?
        ground_truth: "{b}"
        expected_tools:
          - name: lookup
            args:
              year: {{regex: "^{next_year}$"}}
      - input: What is the difference?
        ground_truth: "{diff}"
        expected_tools:
          - name: subtract
            count: 1
            args:
              a: {b}
              b: {a}.0
        evaluations:
          - metric: equality
            strip_whitespace: true
      - input: Summarise the change in one sentence.
        retrieval_context:
          - Operating cash moved from {a} to {b}.
"""


def suite(n: int) -> str:
    parts = [HEADER]
    for i in range(n):
        a, b = 200000 + i, 180000 + 3 * i
        parts.append(
            CASE.format(i=i, year=2000 + i % 20, next_year=2001 + i % 20, a=a, b=b, diff=b - a)
        )
    return "".join(parts)


if __name__ == "__main__":
    sys.stdout.write(suite(int(sys.argv[1]) if len(sys.argv) > 1 else 100))
