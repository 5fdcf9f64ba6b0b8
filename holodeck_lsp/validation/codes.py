"""Every diagnostic code, its default severity and what it means.

docs/diagnostic-codes.md documents this table; a test keeps the two in sync.
Codes are stable: never renumber one, retire it instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from holodeck_lsp.validation.diagnostics import Severity

E, W, H = Severity.ERROR, Severity.WARNING, Severity.HINT


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    summary: str


_RULES = (
    # The file as YAML
    Rule("HL001", "yaml-syntax", E, "The file is not valid YAML."),
    Rule("HL002", "yaml-tab", E, "A tab character where YAML allows only spaces."),
    Rule("HL003", "duplicate-key", W, "A key appears twice in one mapping; the last value wins."),
    Rule("HL004", "not-a-mapping", E, "The top level is not a mapping (or list, for test cases)."),
    Rule("HL005", "encoding", E, "The file is not UTF-8 text."),
    Rule("HL006", "yaml-construct", E, "A YAML value that cannot be loaded (unknown tag, ...)."),
    Rule("HL007", "yaml-limit", E,
         "Past a safety limit: alias expansion, nesting depth or document size."),
    Rule("HL008", "env-in-comment", W,
         "`${VAR}` in a comment: HoloDeck substitutes it too, and fails when it is unset."),
    # Shape of the configuration
    Rule("HL101", "unknown-key", E, "A key the model does not declare."),
    Rule("HL102", "missing-key", E, "A required key is missing."),
    Rule("HL103", "wrong-type", E, "A value of the wrong type (e.g. an unquoted number as text)."),
    Rule("HL104", "unknown-value", E, "A value outside the allowed set (metric, type, ...)."),
    Rule("HL105", "out-of-range", E, "A number outside its bounds."),
    Rule("HL106", "invalid-value", E, "A value that breaks a field's own rule."),
    Rule("HL107", "too-many", E, "More than 10 files, 1000 test cases or 50 tools."),
    Rule("HL108", "duplicate-tool-name", E, "Two tools share a name."),
    Rule("HL109", "mutually-exclusive", E, "Two keys that cannot be given together."),
    Rule("HL110", "requires-one-of", E, "None of a set of alternative keys is given."),
    Rule("HL111", "coerced-value", W,
         "A value HoloDeck converts: `'4'` or `true` for a number, `'yes'` or `1` for a boolean."),
    # Test cases
    Rule("HL201", "turns-conflict", E, "`turns` beside a single-turn field on one test case."),
    Rule("HL202", "turns-empty", E, "`turns: []`."),
    Rule("HL203", "missing-input", E, "A test case with neither `input` nor `turns`."),
    Rule("HL204", "empty-text", E, "An empty or whitespace-only `input`, `ground_truth`, `name`."),
    Rule("HL205", "invisible-text", W, "Text made only of invisible characters."),
    # Expected tools and argument matchers
    Rule("HL301", "expected-tool-entry", E, "An expected_tools entry is neither text nor object."),
    Rule("HL302", "expected-tool-name", E, "An expected tool object without a non-empty name."),
    Rule("HL303", "expected-tool-count", E, "`count` is not an integer >= 1."),
    Rule("HL304", "count-not-integer", W, "`count: true`: accepted as 1, but not an integer."),
    Rule("HL305", "args-not-mapping", E, "`args` is not a mapping."),
    Rule("HL306", "empty-tool-name", W, "An empty tool name matches every tool call."),
    Rule("HL307", "unknown-tool", W, "No declared tool name contains the expected tool name."),
    Rule("HL308", "unknown-argument", W,
         "An `args` key no parameter of the matching function tools takes."),
    Rule("HL401", "regex-syntax", E, "A regex matcher does not compile."),
    Rule("HL402", "matcher-both", E, "A matcher with both `fuzzy` and `regex`."),
    Rule("HL403", "matcher-extra-keys", E, "A matcher with keys beside `fuzzy`/`regex`."),
    Rule("HL404", "matcher-pattern-type", E, "A `fuzzy`/`regex` pattern that is not a string."),
    Rule("HL405", "arg-key-not-plain", W, "An argument name with dots or brackets."),
    Rule(
        "HL406",
        "regex-backtracking",
        W,
        "A regex matcher that can backtrack exponentially (`(a+)+`, `(\\w+\\s?)*`).",
    ),
    Rule("HL407", "empty-pattern", W,
         "An empty `regex` or `fuzzy` pattern matches only an empty value."),
    Rule("HL408", "foreign-matcher", W,
         "A matcher in another tool's words (`{equals: 3}`): compared as a literal mapping."),
    # Evaluators and graders
    Rule("HL501", "grader-format", E, "`grader` is not `module.path:callable`."),
    Rule("HL502", "grader-module-missing", E, "The grader's module cannot be found."),
    Rule("HL503", "grader-attribute-missing", E, "The grader's module has no such callable."),
    Rule("HL504", "grader-not-callable", E, "The grader names something that is not callable."),
    Rule("HL505", "grader-import-failed", E, "Importing the grader's module failed."),
    Rule("HL506", "model-ignored", W, "`model:` on `equality`/`numeric` is ignored."),
    Rule("HL507", "metric-disabled-ignored", W, "`enabled: false` is ignored by `holodeck test`."),
    Rule(
        "HL508",
        "metric-flags-overridden",
        W,
        "`holodeck test` applies one equality/numeric metric's flags to all of the file's.",
    ),
    Rule(
        "HL509",
        "fail-on-error-single-turn",
        W,
        "A `fail_on_error` grader on a single-turn case stops the whole `holodeck test` run.",
    ),
    Rule(
        "HL510",
        "metric-model-incomplete",
        W,
        "`holodeck test` refuses a standard metric whose model lacks `endpoint` or `api_key`.",
    ),
    Rule("HL511", "threshold-out-of-range", W,
         "A code metric's threshold outside [0, 1]: every score passes, or none does."),
    Rule("HL512", "backend-refuses-agent", W,
         "HoloDeck's backend refuses the agent when it starts: `holodeck test` stops (exit 3)."),
    Rule("HL513", "ngram-metric-elsewise", W,
         "`holodeck test` scores `rouge` 0.0 and fails `meteor` offline."),
    Rule("HL514", "rated-metric-elsewise", W,
         "`holodeck test` compares a rated metric's threshold with its 1-5 rating, or does "
         "not run it without a judge model."),
    # Other files
    Rule("HL601", "test-cases-file-missing", E, "`test_cases_file` is missing or unreadable."),
    Rule("HL602", "test-cases-file-shape", E, "`test_cases_file` does not hold test cases."),
    Rule("HL603", "file-missing", W,
         "A `files:` path that does not exist, or is not a regular file (never read)."),
    Rule("HL604", "config-invalid", E, "The agent's config.yaml has errors."),
    Rule("HL605", "env-unset", E, "`${VAR}` is not set (reported by `run` only)."),
    Rule("HL606", "vector-store-unknown", W, "`database:` names no vector store of config.yaml."),
    Rule("HL607", "file-outside-project", W,
         "A named file lies outside the project: validated, never shown."),
    Rule("HL608", "file-not-regular", E,
         "A named file is a FIFO, a device, a socket or a /proc, /sys, /dev file: not read."),
    Rule("HL609", "file-binary", E, "A file holds NUL bytes: binary, not validated."),
    Rule("HL610", "response-format-missing", W,
         "The `response_format` schema file does not exist."),
    Rule("HL611", "response-format-not-json", W,
         "The `response_format` schema file does not hold a JSON object."),
    Rule("HL612", "response-format-not-schema", W, "`response_format` is not a JSON Schema."),
    # Upgrading from HoloDeck 0.6 (validation/lints/upgrade_from_06.py)
    Rule("HL701", "removed-field", E,
         "`tool_filtering` or `metrics.include_semantic_kernel_metrics`: HoloDeck 0.7 removed "
         "them and no longer loads a file that sets them."),
    Rule("HL702", "response-format-one-of", W,
         "`oneOf` in the `response_format` of an `openai`/`azure_openai` agent: OpenAI's "
         "structured outputs reject it; `anyOf` works."),
    Rule("HL703", "claude-settings-isolated", H,
         "A Claude-backend agent beside a `CLAUDE.md` without `claude.setting_sources`: "
         "HoloDeck 0.7 no longer loads it."),
    Rule("HL704", "claude-subagents-unused", W,
         "`claude.agents` on an `openai`/`azure_openai` agent: the OpenAI backend never "
         "calls them."),
    # The editor
    Rule("HL801", "validation-time-limit", W,
         "Validating the file took longer than the server's time limit: not validated "
         "(reported by the server only)."),
)

RULES: dict[str, Rule] = {rule.code: rule for rule in _RULES}


def rule(code: str) -> Rule:
    return RULES[code]


SEVERITY_LEVELS = ("error", "warning", "information", "hint", "off")


class UnknownCode(ValueError):
    pass


class UnknownLevel(ValueError):
    pass


def severity_override(code: str, level: object) -> tuple[str, Severity | None]:
    """One `--severity CODE=LEVEL` or settings entry: the rule and its new severity.

    None turns the rule off. Raises `UnknownCode` or `UnknownLevel`; the caller says
    it the way its user reads it (a usage error, a log line).
    """
    key = code.strip().upper()
    if key not in RULES:
        raise UnknownCode(code)
    name = level.strip().lower() if isinstance(level, str) else None
    if name not in SEVERITY_LEVELS:
        raise UnknownLevel(level)
    return key, None if name == "off" else Severity.from_label(name)
