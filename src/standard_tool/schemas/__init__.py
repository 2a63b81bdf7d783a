"""Schema adapters: pydantic, msgspec and JSON Schema dicts as Standard Schemas.

Layer: schema adapters (import the core, the shared helpers and the dialects; each
adapter imports its own library).

No schema library implements Standard Schema in Python, so this package brings the
bridge. Each adapter lives in its own module and needs its library (an optional
extra); importing this package imports none of them.

- ``standard_tool.schemas.pydantic``: ``pydantic_schema``
  for a ``BaseModel`` subclass or any type ``pydantic.TypeAdapter`` accepts.
- ``standard_tool.schemas.msgspec``: ``msgspec_schema``
  for a ``Struct`` type or any type ``msgspec.convert`` accepts.
- ``standard_tool.schemas.jsonschema``: ``json_schema``
  for a JSON Schema dict, validated with the ``jsonschema`` library.

``as_standard_schema`` picks the adapter for an object; the
``standard_tool`` builder calls it for every schema that is not
already a Standard Schema.
"""

from __future__ import annotations

import importlib.util
import sys
import typing
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from typing_extensions import TypeVar, overload

from standard_tool._core import is_standard_json_schema, is_standard_schema
from standard_tool._shared import safe_repr
from standard_tool.schemas._base import InvalidSchemaError

if TYPE_CHECKING:
    from standard_tool._core import ToolSchema
    from standard_tool.schemas.jsonschema import JSONSchema

__all__ = ["InvalidSchemaError", "as_standard_schema"]

T = TypeVar("T")

_ACCEPTED = (
    "a pydantic model class, a msgspec Struct type, a JSON Schema dict, "
    "or a type pydantic or msgspec can validate"
)


@overload
def as_standard_schema(obj: Mapping[str, Any], *, defer_check: bool = False) -> JSONSchema: ...
@overload
def as_standard_schema(obj: type[T], *, defer_check: bool = False) -> ToolSchema[object, T]: ...
@overload
def as_standard_schema(obj: object, *, defer_check: bool = False) -> ToolSchema[object, Any]: ...
def as_standard_schema(obj: object, *, defer_check: bool = False) -> ToolSchema[object, Any]:
    """Return a conforming schema (Standard Schema and Standard JSON Schema) for ``obj``.

    - an object that already conforms is returned as is;
    - a ``Mapping`` is a JSON Schema: ``JSONSchema`` (with ``defer_check``, its
      metaschema check runs on the first ``validate`` instead of now);
    - a pydantic ``BaseModel`` subclass: ``PydanticSchema``;
    - a msgspec ``Struct`` type: ``MsgspecSchema``;
    - any other type (``list[int]``, a ``TypedDict``, a dataclass, ``Annotated[...]``):
      pydantic when it is installed, else msgspec.

    The adapter's module (and its library) is imported only when needed. The
    package's builder (``standard_tool.standard_tool``) passes ``defer_check=True``:
    a tool built from a JSON Schema dict checks it against the metaschema when it is
    first called, with the same error.

    Raises:
        TypeError: ``obj`` is none of these (the message names what was passed).
        ImportError: the library ``obj`` needs is not installed (the message names the
            extra to install).

    Examples:
        >>> schema = as_standard_schema({"type": "integer"})
        >>> schema.__standard__.validate(3).value
        3
    """
    if type(obj) is not dict and is_standard_schema(obj) and is_standard_json_schema(obj):
        return cast("ToolSchema[object, Any]", obj)  # (a plain dict has no ``__standard__``)
    if isinstance(obj, Mapping):
        module: Any = _adapter("jsonschema")
        return module.JSONSchema(obj, defer_check=defer_check)  # type: ignore[no-any-return]
    if not _is_type_form(obj):
        raise TypeError(
            f"as_standard_schema: expected {_ACCEPTED}; got {safe_repr(obj)} "
            f"(a {type(obj).__qualname__} instance)"
        )
    if _is_subclass_of(obj, "pydantic", "BaseModel"):
        return _adapter("pydantic").PydanticSchema(obj)  # type: ignore[no-any-return]
    if _is_subclass_of(obj, "msgspec", "Struct"):
        return _adapter("msgspec").MsgspecSchema(obj)  # type: ignore[no-any-return]
    for library in ("pydantic", "msgspec"):
        if _installed(library):
            module = _adapter(library)
            cls = module.PydanticSchema if library == "pydantic" else module.MsgspecSchema
            return cls(obj)  # type: ignore[no-any-return]
    raise ImportError(
        f"as_standard_schema: validating the type {safe_repr(obj)} needs pydantic or "
        "msgspec; install the 'standard-tool[pydantic]' or 'standard-tool[msgspec]' extra"
    )


def _installed(library: str) -> bool:
    if library in sys.modules:
        return cast("object", sys.modules[library]) is not None  # None blocks its import
    return importlib.util.find_spec(library) is not None


#: The adapter modules imported so far, by library: an import statement run again
#: costs more than building a JSON Schema's adapter (``benchmarks/bench_build.py``).
_ADAPTERS: dict[str, Any] = {}


def _adapter(library: str) -> Any:
    """Return the adapter module for ``library``, imported the first time."""
    module = _ADAPTERS.get(library)
    if module is None:
        module = _ADAPTERS[library] = _import_adapter(library)
    return module


def _import_adapter(library: str) -> Any:
    """Import the adapter module for ``library``.

    Explicit import statements, not a computed name: the package's import graph
    (checked by tests/test_architecture.py) shows every edge.
    """
    try:
        if library == "jsonschema":
            from standard_tool.schemas import jsonschema

            return jsonschema
        if library == "pydantic":
            from standard_tool.schemas import pydantic

            return pydantic
        from standard_tool.schemas import msgspec

        return msgspec
    except ImportError as err:
        if err.name != library:
            raise
        raise ImportError(
            f"as_standard_schema: this schema needs {library}; "
            f"install the 'standard-tool[{library}]' extra",
            name=library,
        ) from err


def _is_subclass_of(obj: object, module: str, name: str) -> bool:
    # A class of a library that was never imported cannot be one of its subclasses.
    library = sys.modules.get(module)
    base = getattr(library, name, None)
    return isinstance(obj, type) and isinstance(base, type) and issubclass(obj, base)


def _is_type_form(obj: object) -> bool:
    """Whether ``obj`` looks like a type: a class, ``list[int]``, ``int | None``, ``Annotated``."""
    if isinstance(obj, type) or typing.get_origin(obj) is not None:
        return True
    # typing.NewType and TypeAliasType (``type X = ...``) have no origin but are types.
    return type(obj).__name__ in ("NewType", "TypeAliasType")
