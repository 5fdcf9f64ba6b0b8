"""What HoloDeck accepts but the author did not mean, each warned about on its line with
what HoloDeck does with it: converted values (HL111), a code metric's threshold outside
[0, 1] (HL511), empty patterns (HL407), matchers in another tool's words (HL408),
`${VAR}` in a comment (HL008)."""

from __future__ import annotations

from pathlib import Path

from holodeck_lsp.validation.validate import ValidationContext, validate_text

AGENT = """\
# Set ${OPENAI_API_KEY} first.
name: lax
model:
  provider: openai
  name: gpt-4o
  temperature: '0.2'
  max_tokens: true
instructions:
  inline: "Answer # ${NOT_IN_A_COMMENT}"
execution:
  parallel_test_cases: '4'
  verbose: 1
evaluations:
  metrics:
    - type: code
      grader: builtins:len
      threshold: 2
test_cases:
  - input: Find Paris.
    expected_tools:
      - name: lookup
        args:
          year: {equals: 2019}
          city: {startswith: "Par"}
          code: {regx: "^a"}
          country: {fuzzy: ""}
          filter: {status: open}
"""


def test_each_lax_input_is_warned_about_on_its_line_with_what_holodeck_does() -> None:
    context = ValidationContext(user_config_dir=None)
    result = validate_text(AGENT, Path("/nowhere/agent.yaml"), context)
    found = [(d.range.start.line + 1, d.code, d.message) for d in result.diagnostics()]
    where = "test_cases[0].expected_tools[0].args"
    assert found == [
        (1, "HL008", "${OPENAI_API_KEY} in a comment is substituted too: HoloDeck replaces "
         "every ${...} of the file, comments included, and stops when OPENAI_API_KEY is not "
         "set; write $OPENAI_API_KEY in comments"),
        (6, "HL111", "'0.2' is text where a number belongs; HoloDeck reads it as 0.2; write "
         "it without quotes (model.temperature)"),
        (7, "HL111", "true where a number belongs; HoloDeck reads it as 1; write the number "
         "(model.max_tokens)"),
        (11, "HL111", "'4' is text where a number belongs; HoloDeck reads it as 4; write it "
         "without quotes (execution.parallel_test_cases)"),
        (12, "HL111", "1 is a number where true or false belongs; HoloDeck reads it as true; "
         "write true (execution.verbose)"),
        (17, "HL511", "threshold 2 is outside [0, 1], where a grader's score lies; no score "
         "reaches it: the metric never passes unless the grader returns `passed` itself "
         "(evaluations.metrics[0].threshold)"),
        (21, "HL307", "no tool of this agent has a name containing 'lookup' (tools: none) "
         "(test_cases[0].expected_tools[0].name)"),
        (23, "HL408", "{equals: ...} is no HoloDeck matcher: the argument is compared with "
         "this mapping as a literal, which it never equals; did you mean the value alone "
         f"(2019)? ({where}.year.equals)"),
        (24, "HL408", "{startswith: ...} is no HoloDeck matcher: the argument is compared "
         "with this mapping as a literal, which it never equals; did you mean "
         f'{{regex: "Par.*"}}? ({where}.city.startswith)'),
        (25, "HL408", "{regx: ...} is no HoloDeck matcher: the argument is compared with "
         'this mapping as a literal, which it never equals; did you mean {regex: "^a"}? '
         f"({where}.code.regx)"),
        (26, "HL407", f"an empty fuzzy pattern matches only an empty or blank value "
         f"({where}.country.fuzzy)"),
    ]
