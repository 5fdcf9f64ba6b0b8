"""The `evaluations.optimizer` block: what `holodeck test optimize` may tune, and its budget."""

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, ValidationInfo, field_validator
from pydantic_core import PydanticKnownError

from holodeck_lsp.models._base import StrictModel
from holodeck_lsp.models.errors import require_text


def _positive_weight(value: float) -> float:
    # `<=` rather than a `gt` constraint: a NaN weight gets through, as in the loader.
    if value <= 0:
        raise PydanticKnownError("greater_than", {"gt": 0})
    return value


class NumericAxis(StrictModel):
    """A numeric or categorical setting the optimizer searches over."""

    path: str = Field(
        ...,
        description=("The setting to tune, e.g. `model.temperature` or `tools[name=kb].top_k`."),
    )
    type: Literal["float", "int", "categorical"] = Field(
        ..., description="`float` or `int` (a range) or `categorical` (a list of choices)."
    )
    range: list[Any] = Field(
        ...,
        description="`[low, high]` (low < high) for `float`/`int`; the choices for `categorical`.",
    )

    @field_validator("path")
    @classmethod
    def _path_not_blank(cls, value: str) -> str:
        return require_text(value, "path") or value

    @field_validator("range")
    @classmethod
    def _range_shape(cls, value: list[Any], info: ValidationInfo) -> list[Any]:
        kind = info.data.get("type")
        if kind in ("float", "int"):
            if len(value) != 2:
                raise ValueError(f"a {kind} axis needs range [low, high], got {len(value)} values")
            low, high = value
            try:
                ordered = not low >= high
            except TypeError:
                raise ValueError(f"range bounds {low!r} and {high!r} cannot be compared") from None
            if not ordered:
                raise ValueError(f"range low ({low}) must be less than high ({high})")
        elif kind == "categorical" and not value:
            raise ValueError("a categorical axis needs at least one choice")
        return value


class TextualAxis(StrictModel):
    """An instruction text the optimizer may rewrite."""

    path: str = Field(..., description="The text to rewrite, e.g. `instructions.inline`.")
    max_chars: int = Field(8000, gt=0, description="Longest rewrite allowed, in characters.")

    @field_validator("path")
    @classmethod
    def _path_not_blank(cls, value: str) -> str:
        return require_text(value, "path") or value


class AxesConfig(StrictModel):
    """The settings and texts the optimizer may change."""

    numeric: list[NumericAxis] = Field(
        default_factory=list, description="Settings tuned in the numeric phase."
    )
    textual: list[TextualAxis] = Field(
        default_factory=list, description="Texts rewritten in the textual phase."
    )


class PhaseConfig(StrictModel):
    """Budget of one optimizer phase."""

    max_trials: int = Field(..., gt=0, description="Most trials in the phase.")
    patience: int = Field(
        ..., gt=0, description="Stop the phase after this many trials in a row without gain."
    )


class OptimizerConfig(StrictModel):
    """Objective, search space and budget of `holodeck test optimize`."""

    loss: dict[str, Annotated[float, AfterValidator(_positive_weight)]] = Field(
        ...,
        min_length=1,
        description="Weight of each metric in the objective, by metric name (weights > 0).",
    )
    axes: AxesConfig = Field(default_factory=AxesConfig, description="What may be changed.")
    max_cycles: int = Field(3, gt=0, description="Most numeric-then-textual rounds.")
    numeric_phase: PhaseConfig = Field(
        default_factory=lambda: PhaseConfig(max_trials=10, patience=5),
        description="Budget of each numeric phase (default 10 trials, patience 5).",
    )
    textual_phase: PhaseConfig = Field(
        default_factory=lambda: PhaseConfig(max_trials=5, patience=3),
        description=(
            "Budget of each textual phase (default 5 trials, patience 3); with one textual "
            "axis the trials are successive refinements of it."
        ),
    )
    min_delta: float = Field(
        0.01, ge=0.0, description="Smallest loss improvement that counts as a gain."
    )
    seed: int = Field(42, description="Random seed of the numeric search.")
