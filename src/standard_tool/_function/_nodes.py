"""The typed intermediate form of an annotation: one small frozen class per kind of type.

The compiler (``_compile``) reads an annotation into these nodes; the schema
emitter (``_schema``) turns them into JSON Schema. Constraints and annotations
are typed fields, never loose tuples or dicts.

Layer: function tools (imports only standard_tool._core, standard_tool._shared and this
package; pydantic/msgspec lazily).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from typing_extensions import TypeAlias

__all__ = [
    "AnyNode",
    "ArrayNode",
    "BooleanNode",
    "ChoiceNode",
    "Constrained",
    "Described",
    "FormatNode",
    "IntegerNode",
    "LibraryNode",
    "MappingNode",
    "Node",
    "NullNode",
    "NumberNode",
    "ObjectNode",
    "Prop",
    "RefNode",
    "StringNode",
    "TupleNode",
    "UnionNode",
]


@dataclasses.dataclass(frozen=True, slots=True)
class AnyNode:
    """Any JSON value (``Any``, ``object``)."""


@dataclasses.dataclass(frozen=True, slots=True)
class NullNode:
    """``None``."""


@dataclasses.dataclass(frozen=True, slots=True)
class BooleanNode:
    """``bool``."""


@dataclasses.dataclass(frozen=True, slots=True)
class IntegerNode:
    """``int``."""


@dataclasses.dataclass(frozen=True, slots=True)
class NumberNode:
    """``float`` (an integer is a number too)."""


@dataclasses.dataclass(frozen=True, slots=True)
class StringNode:
    """``str``."""


@dataclasses.dataclass(frozen=True, slots=True)
class FormatNode:
    """A string parsed into a Python value: ``datetime``, ``date``, ``time``, ``UUID``, ``Decimal``.

    ``pattern``: the pattern that enforces the format where a dialect ignores ``format``.
    """

    cls: type
    format: str
    pattern: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class ChoiceNode:
    """One of a few JSON scalars: a ``Literal`` or an ``Enum`` (its values)."""

    values: tuple[Any, ...]
    #: The Enum's own docstring.
    description: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class ArrayNode:
    """A variadic array: ``list``, ``Sequence``, ``tuple[X, ...]``, or a set (``unique``)."""

    item: Node
    unique: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class TupleNode:
    """A fixed-length array: ``tuple[X, Y]`` (``tuple[()]`` is empty)."""

    items: tuple[Node, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class MappingNode:
    """An object of any keys with values of one type: ``dict[str, X]``, ``Mapping[str, X]``."""

    value: Node


@dataclasses.dataclass(frozen=True, slots=True)
class Prop:
    """One property of an object node."""

    key: str
    node: Node
    required: bool
    #: From the docstring of the record or function; ``Annotated`` text wins.
    description: str | None = None
    #: The default as JSON (``has_default`` says whether there is one).
    default: Any = None
    has_default: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class ObjectNode:
    """An object of known properties: TypedDict, dataclass, NamedTuple, a function's input.

    ``additional``: the node of other keys' values (``**kwargs``), or ``None`` to refuse them.
    """

    props: tuple[Prop, ...]
    description: str | None = None
    additional: Node | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class UnionNode:
    """Any of the branches (``X | Y``, ``Optional[X]``)."""

    branches: tuple[Node, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class RefNode:
    """A named type defined once in ``$defs`` (records, aliases, recursion, library models)."""

    name: str


@dataclasses.dataclass(frozen=True, slots=True)
class LibraryNode:
    """A schema a library produced (pydantic ``TypeAdapter``, ``msgspec.json.schema``), as is."""

    schema: dict[str, Any]


@dataclasses.dataclass(frozen=True, slots=True)
class Constrained:
    """A node with bounds (numbers) or lengths and a pattern (strings, arrays, objects)."""

    node: Node
    gt: float | None = None
    ge: float | None = None
    lt: float | None = None
    le: float | None = None
    multiple_of: float | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Described:
    """A node with the title, description and examples ``Annotated`` metadata gives it."""

    node: Node
    title: str | None = None
    description: str | None = None
    examples: tuple[Any, ...] | None = None
    #: ``Field(json_schema_extra=...)``: (keyword, its value as JSON text) pairs.
    extra: tuple[tuple[str, str], ...] = ()


#: Any node of the intermediate form.
Node: TypeAlias = (
    AnyNode
    | NullNode
    | BooleanNode
    | IntegerNode
    | NumberNode
    | StringNode
    | FormatNode
    | ChoiceNode
    | ArrayNode
    | TupleNode
    | MappingNode
    | ObjectNode
    | UnionNode
    | RefNode
    | LibraryNode
    | Constrained
    | Described
)
