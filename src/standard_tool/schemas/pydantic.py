"""Pydantic adapter: any model class or type ``TypeAdapter`` accepts, as a Standard Schema.

Layer: schema adapters (imports the core and ``pydantic``).

Examples:
    >>> from pydantic import BaseModel
    >>> from standard_tool.schemas.pydantic import pydantic_schema
    >>> class Point(BaseModel):
    ...     x: int
    ...     y: int = 0
    >>> schema = pydantic_schema(Point)
    >>> schema.__standard__.validate({"x": "1"}).value
    Point(x=1, y=0)
    >>> schema.__standard__.validate({}).issues
    (Issue(message='Field required', path=('x',)),)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic

from pydantic import BaseModel, TypeAdapter, ValidationError
from typing_extensions import TypeVar, overload

from standard_tool._core import FailureResult, Issue, SuccessResult
from standard_tool._fast import FastPath
from standard_tool._shared import MAX_ISSUES, STOPPED, safe_repr
from standard_tool.schemas._base import DataclassInstance, JSONSchemaEmitter, ObjectInput

if TYPE_CHECKING:
    from pydantic import ConfigDict
    from pydantic.json_schema import JsonSchemaMode

__all__ = ["PydanticSchema", "PydanticSchemaProps", "pydantic_schema"]

T = TypeVar("T")
#: What ``validate`` accepts, statically: the type itself, and for a model or a
#: dataclass also the JSON object it is validated from.
InT = TypeVar("InT", default=T)
_M = TypeVar("_M", bound=BaseModel)
_T = TypeVar("_T")
_D = TypeVar("_D", bound=DataclassInstance)

_MODES: dict[str, JsonSchemaMode] = {"input": "validation", "output": "serialization"}


class PydanticSchemaProps(Generic[T, InT]):
    """The ``__standard__`` object of a ``PydanticSchema``.

    Attributes:
        version: always ``1``.
        vendor: ``"pydantic"``.
        json_schema: ``input``/``output`` JSON Schema for a target; input in
            pydantic's validation mode, output in its serialization mode.
        fast_path: the raising form of ``validate`` (pydantic's compiled
            validator itself), which ``standard_tool.standard_tool`` calls directly.
    """

    __slots__ = ("_validate_python", "fast_path", "json_schema")

    version: int = 1
    vendor: str = "pydantic"

    def __init__(self, adapter: TypeAdapter[T]) -> None:
        # The compiled validator's own method when the type is complete; the
        # TypeAdapter's wrapper (which rebuilds on first use) while it is not.
        self._validate_python = (
            adapter.validator.validate_python
            if adapter.pydantic_complete
            else adapter.validate_python
        )
        # The builder calls that method directly; ``validate`` wraps the same pieces.
        self.fast_path = FastPath(self._validate_python, ValidationError, _issues)

        def emit(side: str, options: Any) -> dict[str, Any]:
            kwargs: dict[str, Any] = options or {}
            return adapter.json_schema(mode=_MODES[side], **kwargs)

        self.json_schema = JSONSchemaEmitter(emit)

    def validate(self, value: InT, /) -> SuccessResult[T] | FailureResult:
        """Validate ``value``; on failure, one issue per pydantic error.

        An issue's ``path`` is pydantic's error location (``None`` at the root) and
        its ``message`` pydantic's short message, without URL or input.
        """
        try:
            return SuccessResult(self._validate_python(value))
        except ValidationError as err:
            return FailureResult(_issues(err))


def _issues(err: ValidationError) -> tuple[Issue, ...]:
    found = err.errors(include_url=False, include_context=False, include_input=False)
    stopped = len(found) >= MAX_ISSUES
    issues = [
        Issue(e["msg"], tuple(e["loc"]) or None, _issue_code(e["type"]))
        for e in (found[: MAX_ISSUES - 1] if stopped else found)
    ]
    if stopped:  # as every adapter: at most MAX_ISSUES, the last saying so
        issues.append(Issue(STOPPED, None, "invalid"))
    return tuple(issues)


#: pydantic error types with their own issue code; the rest are read by their suffix.
_CODES = {
    "missing": "required",
    "missing_argument": "required",
    "missing_keyword_only_argument": "required",
    "missing_positional_only_argument": "required",
    "extra_forbidden": "additional_property",
    "unexpected_keyword_argument": "additional_property",
    "literal_error": "enum",
    "enum": "enum",
    "union_tag_invalid": "union",
    "union_tag_not_found": "union",
    "greater_than": "constraint",
    "greater_than_equal": "constraint",
    "less_than": "constraint",
    "less_than_equal": "constraint",
    "multiple_of": "constraint",
    "finite_number": "constraint",
    "too_short": "constraint",
    "too_long": "constraint",
    "string_too_short": "constraint",
    "string_too_long": "constraint",
    "string_pattern_mismatch": "constraint",
    "set_item_not_hashable": "constraint",
    "decimal_max_digits": "constraint",
    "decimal_max_places": "constraint",
    "decimal_whole_digits": "constraint",
}


def _issue_code(error_type: str) -> str:
    """Map a pydantic error type onto an ``Issue.code``."""
    code = _CODES.get(error_type)
    if code is not None:
        return code
    if error_type.startswith(("date", "time", "url", "uuid", "ip_")):
        return "format"
    if error_type.endswith(("_type", "_parsing")) or error_type == "is_instance_of":
        return "type"
    return "invalid"


class PydanticSchema(Generic[T, InT]):
    """A pydantic model class or any type ``TypeAdapter`` accepts, as a Standard Schema.

    ``validate`` returns the validated value (a model instance for a model) or
    issues whose ``path`` is the error location. It also emits JSON Schema for
    every target of ``standard_tool.dialects``.

    Args:
        type: a ``BaseModel`` subclass, a dataclass, a ``TypedDict``, ``list[int]``,
            ``Annotated[...]``: anything ``pydantic.TypeAdapter`` accepts.
        config: a ``ConfigDict`` for types that are not models (pydantic refuses
            a config for a ``BaseModel``).

    Attributes:
        type: the wrapped type.
        adapter: the ``pydantic.TypeAdapter`` doing the work.
    """

    __slots__ = ("__standard__", "adapter", "type")

    __standard__: PydanticSchemaProps[T, InT]

    @overload
    def __init__(
        self: PydanticSchema[_M, _M | ObjectInput], type: type[_M], *, config: None = None
    ) -> None: ...
    @overload
    def __init__(
        self: PydanticSchema[_D, _D | ObjectInput],
        type: type[_D],
        *,
        config: ConfigDict | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: PydanticSchema[_T, _T], type: type[_T], *, config: ConfigDict | None = None
    ) -> None: ...
    @overload
    def __init__(
        self: PydanticSchema[Any, Any], type: Any, *, config: ConfigDict | None = None
    ) -> None: ...
    def __init__(self, type: Any, *, config: ConfigDict | None = None) -> None:
        self.type = type
        self.adapter: TypeAdapter[T] = (
            TypeAdapter(type) if config is None else TypeAdapter(type, config=config)
        )
        self.__standard__ = PydanticSchemaProps(self.adapter)

    def __repr__(self) -> str:
        name = getattr(self.type, "__qualname__", None) or safe_repr(self.type)
        return f"PydanticSchema({name})"


@overload
def pydantic_schema(
    type: type[_M], *, config: None = None
) -> PydanticSchema[_M, _M | ObjectInput]: ...
@overload
def pydantic_schema(
    type: type[_D], *, config: ConfigDict | None = None
) -> PydanticSchema[_D, _D | ObjectInput]: ...
@overload
def pydantic_schema(type: type[T], *, config: ConfigDict | None = None) -> PydanticSchema[T, T]: ...
@overload
def pydantic_schema(type: Any, *, config: ConfigDict | None = None) -> PydanticSchema[Any, Any]: ...
def pydantic_schema(type: Any, *, config: ConfigDict | None = None) -> PydanticSchema[Any, Any]:
    """Wrap a pydantic model class or any type ``TypeAdapter`` accepts.

    Same as ``PydanticSchema``; the function reads better at call sites.
    """
    return PydanticSchema(type, config=config)
