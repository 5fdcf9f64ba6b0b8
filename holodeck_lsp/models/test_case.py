"""Test cases, turns, expected tools and argument matchers."""

from typing import Annotated, Any, Literal

from pydantic import (
    BeforeValidator,
    Discriminator,
    Field,
    Tag,
    ValidatorFunctionWrapHandler,
    field_validator,
    model_validator,
)

from holodeck_lsp.models._base import StrictModel
from holodeck_lsp.models.errors import (
    ARGS_NOT_MAPPING,
    EXPECTED_TOOL_COUNT,
    EXPECTED_TOOL_ENTRY,
    EXPECTED_TOOL_NAME,
    MATCHER_BOTH,
    MATCHER_EXTRA_KEYS,
    MATCHER_PATTERN_TYPE,
    MISSING_INPUT,
    MUTUALLY_EXCLUSIVE,
    REGEX_COMPILE,
    REQUIRES_ONE_OF,
    TOO_MANY,
    TURNS_CONFLICT,
    TURNS_EMPTY,
    fail,
    regex_problem,
    require_text,
)
from holodeck_lsp.models.evaluation import AnyMetric
from holodeck_lsp.models.validation import Problem, cross_field_rules

MAX_FILES = 10
MATCHER_KEYS = ("fuzzy", "regex")
# What each matcher compares, said once: the field's description, the schema, the snippets.
MATCHER_MEANINGS = {
    "fuzzy": "case, surrounding and repeated whitespace and thousands separators ignored; "
    "numbers compare numerically",
    "regex": "a regular expression the whole value must match",
}
# Each matcher's own documentation (the editor's hover on `fuzzy:` and `regex:`).
MATCHER_DOCS = {
    "fuzzy": (
        "Fuzzy matcher: the argument's value matches when, both sides lower-cased and "
        "trimmed, with thousands separators (`,`, `_`, narrow no-break space) removed and "
        "runs of whitespace made one space, they are equal; when both then read as numbers "
        "(spaces inside are separators, a trailing `%` divides by 100) they are compared as "
        "numbers. `{fuzzy: \"206,588\"}` matches `206588`, `\"206 588\"` and `206588.0`; "
        "`{fuzzy: \"33.2%\"}` matches `0.332`. The pattern is text: quote a number."
    ),
    "regex": (
        "Regex matcher: Python's `re.fullmatch` of the pattern against the value as text "
        "(`str(value)`), so the whole value must match: `{regex: \"20(19|20)\"}` matches "
        "`2019` and `\"2020\"`, not `2019-01`. `check` reports a pattern that does not "
        "compile (HL401) or can backtrack exponentially (HL406); `run` gives each pattern "
        "1 s of matching per turn. Quote the pattern (single quotes keep backslashes)."
    ),
}
FileType = Literal["image", "pdf", "text", "excel", "word", "powerpoint", "csv"]
# Fields of a single-turn case that belong on a turn once `turns` is used.
SINGLE_TURN_FIELDS = ("input", "ground_truth", "expected_tools", "files", "retrieval_context")


def _check_matcher(value: Any) -> Any:
    """Validate an `args` value by shape: `{fuzzy: ...}`, `{regex: ...}`, or a literal."""
    if not isinstance(value, dict):
        return value
    present = [key for key in MATCHER_KEYS if key in value]
    if not present:
        return value
    if len(present) == 2:
        raise fail(MATCHER_BOTH, "a matcher has exactly one of 'fuzzy' or 'regex', not both")
    kind = present[0]
    others = [key for key in value if key != kind]
    if others:
        raise fail(
            MATCHER_EXTRA_KEYS,
            "a {kind} matcher takes no other keys (found {names})",
            kind=kind,
            keys=others,
            names=", ".join(map(repr, others)),
        )
    pattern = value[kind]
    if not isinstance(pattern, str):
        raise fail(
            MATCHER_PATTERN_TYPE,
            "the {kind} pattern must be a string, not {got}; quote it",
            kind=kind,
            subloc=[kind],
            got=type(pattern).__name__,
        )
    if kind == "regex":
        reason = regex_problem(pattern)
        if reason is not None:
            raise fail(
                REGEX_COMPILE,
                "regex does not compile: {reason}",
                reason=reason[0],
                subloc=["regex"],
                char=reason[1],
            )
    return value


def _check_count(value: Any) -> Any:
    # The loader checks isinstance(count, int): `true` passes (a bool is an int), 2.0 does not.
    if not isinstance(value, int) or value < 1:
        raise fail(EXPECTED_TOOL_COUNT, "count must be an integer >= 1, got {got}", got=value)
    return value


def _check_args_mapping(value: Any) -> Any:
    if value is not None and not isinstance(value, dict):
        raise fail(
            ARGS_NOT_MAPPING,
            "args must be a mapping of argument name to matcher, not {got}",
            got=type(value).__name__,
        )
    return value


ArgMatcherSpec = Annotated[Any, BeforeValidator(_check_matcher)]


class ExpectedTool(StrictModel):
    """A tool the agent must call, optionally with argument matchers and a minimum count."""

    name: str = Field(
        ...,
        description=(
            "Tool name; matches every actual call whose name contains it "
            "(case-sensitive substring)."
        ),
    )
    args: Annotated[dict[Any, ArgMatcherSpec] | None, BeforeValidator(_check_args_mapping)] = Field(
        None,
        description=(
            "Arguments one single call must carry. Each value is a literal (numbers "
            f"compare numerically), `{{fuzzy: ...}}` ({MATCHER_MEANINGS['fuzzy']}) or "
            f"`{{regex: ...}}` ({MATCHER_MEANINGS['regex']}). Unasserted arguments "
            "are ignored."
        ),
    )
    count: Annotated[int, BeforeValidator(_check_count)] = Field(
        1, description="Minimum number of matching calls in this turn."
    )

    @field_validator("name")
    @classmethod
    def _name_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise fail(EXPECTED_TOOL_NAME, "name must be a non-empty string")
        return value


def _entry_kind(value: Any) -> str | None:
    if isinstance(value, str):
        return "name"
    if isinstance(value, (dict, ExpectedTool)):
        return "object"
    return None


def _check_entry(value: Any) -> Any:
    if _entry_kind(value) is None:
        raise fail(
            EXPECTED_TOOL_ENTRY,
            "an expected_tools entry is a tool name or an object with 'name', not {got}",
            got=type(value).__name__,
        )
    return value


ExpectedToolEntry = Annotated[
    Annotated[str, Tag("name")] | Annotated[ExpectedTool, Tag("object")],
    Discriminator(_entry_kind),
    BeforeValidator(_check_entry),
]
ExpectedToolList = list[ExpectedToolEntry]


class FileInput(StrictModel):
    """A file handed to the agent with the input: a local `path` or a remote `url`."""

    path: str | None = Field(None, description="Local file, relative to the agent file's folder.")
    url: str | None = Field(None, description="Remote file URL.")
    type: FileType = Field(
        ...,
        description="Kind of file: `image`, `pdf`, `text`, `excel`, `word`, `powerpoint`, `csv`.",
    )
    description: str | None = Field(None, description="What the file holds, for the agent.")
    pages: list[int] | None = Field(None, description="Pages or slides to extract (1-based).")
    sheet: str | None = Field(None, description="Excel sheet to read.")
    range: str | None = Field(None, description="Excel cell range, e.g. `A1:E100`.")
    cache: bool | None = Field(None, description="Cache a downloaded file (default on for URLs).")

    @field_validator("pages")
    @classmethod
    def _positive_pages(cls, value: list[int] | None) -> list[int] | None:
        if value is not None and not all(page > 0 for page in value):
            raise ValueError("pages must be positive integers")
        return value

    @model_validator(mode="wrap")
    @classmethod
    def _path_xor_url(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        problems: list[Problem] = []
        if isinstance(data, dict):
            # Empty strings count as absent, as in the loader.
            has_path, has_url = bool(data.get("path")), bool(data.get("url"))
            if has_path and has_url:
                problems.append(
                    (("url",), fail(MUTUALLY_EXCLUSIVE, "give either 'path' or 'url', not both"))
                )
            elif not has_path and not has_url:
                problems.append(((), fail(REQUIRES_ONE_OF, "a file needs a 'path' or a 'url'")))
        return cross_field_rules(cls, data, handler, problems)


def _files_limit(value: list[FileInput] | None, where: str) -> list[FileInput] | None:
    if value is not None and len(value) > MAX_FILES:
        raise fail(TOO_MANY, "at most {limit} files per {where}", limit=MAX_FILES, where=where)
    return value


class Turn(StrictModel):
    """One exchange of a multi-turn test case: a user message and what to expect back."""

    input: str = Field(..., description="The user message sent on this turn.")
    ground_truth: str | None = Field(
        None, description="The expected reply, for metrics that compare text."
    )
    expected_tools: ExpectedToolList | None = Field(
        None,
        description=(
            "Tools the agent must call on this turn: names, or objects with `name`, "
            "`args` and `count`. Calls of other turns never count."
        ),
    )
    files: list[FileInput] | None = Field(
        None, description="Files sent with this turn only (at most 10)."
    )
    retrieval_context: list[str] | None = Field(
        None, description="Retrieved passages the RAG metrics judge this turn against."
    )
    evaluations: list[AnyMetric] | None = Field(
        None, description="Metrics for this turn, replacing the test case's and the agent's."
    )
    turn_config: dict[str, Any] | None = Field(
        None, description="Free-form settings handed to code graders as `ctx.turn_config`."
    )

    @field_validator("input", "ground_truth")
    @classmethod
    def _text_not_blank(cls, value: str | None, info: Any) -> str | None:
        return require_text(value, info.field_name)

    @field_validator("files")
    @classmethod
    def _at_most_ten_files(cls, value: list[FileInput] | None) -> list[FileInput] | None:
        return _files_limit(value, "turn")


class TestCaseModel(StrictModel):
    """A test case: single-turn (`input`) or multi-turn (`turns`), never both."""

    __test__ = False  # not a pytest test class, despite the name

    name: str | None = Field(None, description="Name of the test case in reports and `-k`.")
    input: str | None = Field(
        None, description="The user message of a single-turn case (required without `turns`)."
    )
    expected_tools: ExpectedToolList | None = Field(
        None, description="Tools a single-turn case must call (names or objects)."
    )
    ground_truth: str | None = Field(None, description="The expected reply of a single-turn case.")
    files: list[FileInput] | None = Field(
        None, description="Files sent with a single-turn case (at most 10)."
    )
    retrieval_context: list[str] | None = Field(
        None, description="Retrieved passages for the RAG metrics of a single-turn case."
    )
    evaluations: list[AnyMetric] | None = Field(
        None, description="Metrics for this test case, replacing the agent's."
    )
    turns: list[Turn] | None = Field(
        None,
        description=(
            "The conversation of a multi-turn case, sent in order on one session. "
            "Excludes `input`, `ground_truth`, `expected_tools`, `files` and "
            "`retrieval_context` at the test-case level: put them on the turns."
        ),
    )

    @field_validator("name", "input", "ground_truth")
    @classmethod
    def _text_not_blank(cls, value: str | None, info: Any) -> str | None:
        return require_text(value, info.field_name)

    @field_validator("files")
    @classmethod
    def _at_most_ten_files(cls, value: list[FileInput] | None) -> list[FileInput] | None:
        return _files_limit(value, "test case")

    @model_validator(mode="wrap")
    @classmethod
    def _single_or_multi_turn(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        problems: list[Problem] = []
        if isinstance(data, dict):
            turns = data.get("turns")
            if turns is not None:
                if turns == []:
                    problems.append(
                        (("turns",), fail(TURNS_EMPTY, "turns must list at least one turn"))
                    )
                for key in SINGLE_TURN_FIELDS:
                    if data.get(key) is not None:
                        problems.append(
                            (
                                (key,),
                                fail(
                                    TURNS_CONFLICT,
                                    "'{key}' cannot stand beside 'turns'; move it onto a turn",
                                    key=key,
                                    at_key=True,
                                ),
                            )
                        )
            elif data.get("input") is None:
                problems.append(((), fail(MISSING_INPUT, "a test case needs 'input' or 'turns'")))
        return cross_field_rules(cls, data, handler, problems)

