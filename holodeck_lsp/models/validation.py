"""Cross-field rules that are reported together with the field errors of a model.

A plain ``model_validator(mode="after")`` only runs when every field is valid, so a
test case with a bad regex *and* ``turns`` beside ``input`` would show one error at a
time. These rules run on the raw mapping instead, and their errors are merged with
whatever the fields reported, each with its own location.
"""

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError, ValidatorFunctionWrapHandler
from pydantic_core import InitErrorDetails, PydanticCustomError

Problem = tuple[tuple[str | int, ...], PydanticCustomError]


def _as_details(error: Any) -> InitErrorDetails:
    kind = error["type"]
    # Our own error types must be rebuilt; pydantic's built-in ones are named by string.
    err_type: Any = (
        PydanticCustomError(kind, error["msg"], error.get("ctx"))
        if kind.startswith("hl_")
        else kind
    )
    details = InitErrorDetails(type=err_type, loc=tuple(error["loc"]), input=error.get("input"))
    if "ctx" in error and not kind.startswith("hl_"):
        details["ctx"] = error["ctx"]
    return details


def cross_field_rules(
    model: type, data: Any, handler: ValidatorFunctionWrapHandler, problems: Sequence[Problem]
) -> Any:
    """Validate ``data`` with ``handler`` and add ``problems`` to whatever it reports."""
    extra = [
        InitErrorDetails(type=error, loc=loc, input=_value_at(data, loc)) for loc, error in problems
    ]
    try:
        result = handler(data)
    except ValidationError as exc:
        if not extra:
            raise
        merged = [_as_details(e) for e in exc.errors(include_url=False)] + extra
        raise ValidationError.from_exception_data(model.__name__, merged) from None
    if extra:
        raise ValidationError.from_exception_data(model.__name__, extra)
    return result


def _value_at(data: Any, loc: tuple[str | int, ...]) -> Any:
    for part in loc:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data
