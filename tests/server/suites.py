"""Generated suites of any size, for robustness tests and benchmarks."""

from __future__ import annotations

HEADER = """name: bench
model:
  provider: openai
  name: gpt-4o
instructions:
  inline: Answer briefly.
tools:
  - name: search
    type: function
    file: tools.py
    function: search
    description: Search the knowledge base.
evaluations:
  metrics:
    - type: standard
      metric: equality
test_cases:
"""


def suite(cases: int, turns: int = 4) -> str:
    """An agent with ``cases`` multi-turn test cases of ``turns`` turns each."""
    out = [HEADER]
    for i in range(cases):
        out.append(f"  - name: case {i}\n    turns:\n")
        for t in range(turns):
            out.append(
                f"      - input: Question {i}.{t}?\n"
                f"        ground_truth: Answer {t}\n"
                "        expected_tools:\n"
                "          - name: search\n"
                "            args:\n"
                f'              query: {{fuzzy: "topic {t}"}}\n'
                "              limit: {regex: '[0-9]+'}\n"
            )
    return "".join(out)


def alias_bomb(levels: int = 9) -> str:
    """A "billion laughs" block: each level lists the one before ten times by alias."""
    lines = ["l0: &l0 [h, h, h, h, h, h, h, h, h, h]"]
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def small_agent(name: str) -> str:
    """A valid agent with one test case (``hello``), eight lines."""
    return (f"name: {name}\nmodel:\n  provider: openai\n  name: gpt-4o\ninstructions:\n"
            "  inline: Answer briefly.\ntest_cases:\n  - input: hello\n")
