"""The agent file: the envelope around model, tools, evaluations and test cases."""

from collections import Counter
from typing import Any

from pydantic import Field, ValidatorFunctionWrapHandler, field_validator, model_validator

from holodeck_lsp.models._base import StrictModel
from holodeck_lsp.models.claude import ClaudeConfig
from holodeck_lsp.models.deployment import DeploymentConfig
from holodeck_lsp.models.errors import DUPLICATE_TOOL_NAMES, TOO_MANY, fail, require_text
from holodeck_lsp.models.evaluation import EvaluationConfig
from holodeck_lsp.models.execution import ExecutionConfig
from holodeck_lsp.models.instructions import Instructions
from holodeck_lsp.models.llm import LLMProvider
from holodeck_lsp.models.observability import ObservabilityConfig
from holodeck_lsp.models.openai_config import OpenAIConfig
from holodeck_lsp.models.test_case import TestCaseModel
from holodeck_lsp.models.tools import ToolUnion
from holodeck_lsp.models.validation import Problem, cross_field_rules

MAX_TOOLS = 50
MAX_TEST_CASES = 1000


class Agent(StrictModel):
    """An agent file (`agent.yaml`): the agent, its tools, metrics and test suite."""

    name: str = Field(..., description="Name of the agent.")
    description: str | None = Field(None, description="What the agent is for.")
    author: str | None = Field(None, description="Who maintains the agent.")
    model: LLMProvider = Field(..., description="The model the agent runs on.")
    instructions: Instructions = Field(
        ..., description="The system prompt: a `file` or `inline` text."
    )
    response_format: dict[str, Any] | str | None = Field(
        None, description="Structured-output schema: inline mapping or a schema file path."
    )
    tools: list[ToolUnion] | None = Field(
        None, description="Tools the agent can call (at most 50, names unique)."
    )
    evaluations: EvaluationConfig | None = Field(
        None, description="Default metrics and judge model for the test cases."
    )
    test_cases: list[TestCaseModel] | None = Field(
        None, description="The test suite (at most 1000 cases). Excludes `test_cases_file`."
    )
    test_cases_file: str | None = Field(
        None,
        description=(
            "A YAML file, relative to this one, holding the test cases (a list, or a "
            "mapping with `test_cases:`). Excludes `test_cases`."
        ),
    )
    execution: ExecutionConfig | None = Field(None, description="Settings of test runs.")
    observability: ObservabilityConfig | None = Field(
        None, description="Tracing, metrics and logs export."
    )
    deployment: DeploymentConfig | None = Field(
        None, description="How the agent is packaged and deployed."
    )
    embedding_provider: LLMProvider | None = Field(
        None,
        description="Model that computes embeddings (needed with Anthropic + vector stores).",
    )
    claude: ClaudeConfig | None = Field(
        None, description="Settings for the Claude agent backend (provider `anthropic`)."
    )
    openai: OpenAIConfig | None = Field(
        None, description="Settings for the OpenAI agent backend (`openai`, `azure_openai`)."
    )

    @field_validator("name")
    @classmethod
    def _name_not_blank(cls, value: str) -> str:
        return require_text(value, "name") or value

    @field_validator("description", "author")
    @classmethod
    def _text_not_blank(cls, value: str | None, info: Any) -> str | None:
        return require_text(value, info.field_name)

    @field_validator("tools")
    @classmethod
    def _at_most_50_tools(cls, value: list[Any] | None) -> list[Any] | None:
        if value is not None and len(value) > MAX_TOOLS:
            raise fail(TOO_MANY, "at most {limit} tools per agent", limit=MAX_TOOLS)
        return value

    @field_validator("test_cases")
    @classmethod
    def _at_most_1000_cases(cls, value: list[Any] | None) -> list[Any] | None:
        if value is not None and len(value) > MAX_TEST_CASES:
            raise fail(TOO_MANY, "at most {limit} test cases per agent", limit=MAX_TEST_CASES)
        return value

    @model_validator(mode="wrap")
    @classmethod
    def _unique_tool_names(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        problems: list[Problem] = []
        tools = data.get("tools") if isinstance(data, dict) else None
        if isinstance(tools, list):
            names = [t.get("name") if isinstance(t, dict) else None for t in tools]
            counts = Counter(n for n in names if isinstance(n, str))
            for index, name in enumerate(names):
                if isinstance(name, str) and counts[name] > 1:
                    problems.append(
                        (
                            ("tools", index, "name"),
                            fail(
                                DUPLICATE_TOOL_NAMES,
                                "tool name '{name}' is used {times} times; names must be unique",
                                name=name,
                                times=counts[name],
                            ),
                        )
                    )
        return cross_field_rules(cls, data, handler, problems)
