"""The typed intermediate form of an annotation: one small class per kind of type.

The compiler (``_compile``) reads an annotation into these nodes; the schema
emitter (``_schema``) turns them into JSON Schema. Constraints and annotations
are typed fields, never loose tuples or dicts.

The nodes are plain slotted classes, built once and never changed, compared or
printed. Not dataclasses: creating one compiles its generated methods at import
(about 3.5 million instructions each on CPython 3.11, under callgrind), and the
function tools' two dozen were 2.4% of ``standard-tool serve``'s cold start. The
check shapes (``_checks``), ``Fused`` and ``Docstring`` are plain classes for the
same reason.

Layer: function tools (imports only standard_tool._core, standard_tool._shared and this
package; pydantic/msgspec lazily).
"""

from __future__ import annotations

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


class AnyNode:
    """Any JSON value (``Any``, ``object``)."""

    __slots__ = ()


class NullNode:
    """``None``."""

    __slots__ = ()


class BooleanNode:
    """``bool``."""

    __slots__ = ()


class IntegerNode:
    """``int``."""

    __slots__ = ()


class NumberNode:
    """``float`` (an integer is a number too)."""

    __slots__ = ()


class StringNode:
    """``str``."""

    __slots__ = ()


class FormatNode:
    """A string parsed into a Python value: ``datetime``, ``date``, ``time``, ``UUID``, ``Decimal``.

    ``pattern``: the pattern that enforces the format where a dialect ignores ``format``.
    """

    __slots__ = ("cls", "format", "pattern")

    cls: type
    format: str
    pattern: str | None

    def __init__(self, cls: type, format: str, pattern: str | None = None) -> None:
        self.cls = cls
        self.format = format
        self.pattern = pattern


class ChoiceNode:
    """One of a few JSON scalars: a ``Literal`` or an ``Enum`` (its values)."""

    __slots__ = ("description", "values")

    values: tuple[Any, ...]
    #: The Enum's own docstring.
    description: str | None

    def __init__(self, values: tuple[Any, ...], description: str | None = None) -> None:
        self.values = values
        self.description = description


class ArrayNode:
    """A variadic array: ``list``, ``Sequence``, ``tuple[X, ...]``, or a set (``unique``)."""

    __slots__ = ("item", "unique")

    item: Node
    unique: bool

    def __init__(self, item: Node, unique: bool = False) -> None:
        self.item = item
        self.unique = unique


class TupleNode:
    """A fixed-length array: ``tuple[X, Y]`` (``tuple[()]`` is empty)."""

    __slots__ = ("items",)

    items: tuple[Node, ...]

    def __init__(self, items: tuple[Node, ...]) -> None:
        self.items = items


class MappingNode:
    """An object of any keys with values of one type: ``dict[str, X]``, ``Mapping[str, X]``."""

    __slots__ = ("value",)

    value: Node

    def __init__(self, value: Node) -> None:
        self.value = value


class Prop:
    """One property of an object node."""

    __slots__ = ("default", "description", "has_default", "key", "node", "required")

    key: str
    node: Node
    required: bool
    #: From the docstring of the record or function; ``Annotated`` text wins.
    description: str | None
    #: The default as JSON (``has_default`` says whether there is one).
    default: Any
    has_default: bool

    def __init__(
        self,
        key: str,
        node: Node,
        required: bool,
        description: str | None = None,
        default: Any = None,
        has_default: bool = False,
    ) -> None:
        self.key = key
        self.node = node
        self.required = required
        self.description = description
        self.default = default
        self.has_default = has_default


class ObjectNode:
    """An object of known properties: TypedDict, dataclass, NamedTuple, a function's input.

    ``additional``: the node of other keys' values (``**kwargs``), or ``None`` to refuse them.
    """

    __slots__ = ("additional", "description", "props")

    props: tuple[Prop, ...]
    description: str | None
    additional: Node | None

    def __init__(
        self,
        props: tuple[Prop, ...],
        description: str | None = None,
        additional: Node | None = None,
    ) -> None:
        self.props = props
        self.description = description
        self.additional = additional


class UnionNode:
    """Any of the branches (``X | Y``, ``Optional[X]``)."""

    __slots__ = ("branches",)

    branches: tuple[Node, ...]

    def __init__(self, branches: tuple[Node, ...]) -> None:
        self.branches = branches


class RefNode:
    """A named type defined once in ``$defs`` (records, aliases, recursion, library models)."""

    __slots__ = ("name",)

    name: str

    def __init__(self, name: str) -> None:
        self.name = name


class LibraryNode:
    """A schema a library produced (pydantic ``TypeAdapter``, ``msgspec.json.schema``), as is."""

    __slots__ = ("schema",)

    schema: dict[str, Any]

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema


class Constrained:
    """A node with bounds (numbers) or lengths and a pattern (strings, arrays, objects)."""

    __slots__ = (
        "ge",
        "gt",
        "le",
        "lt",
        "max_length",
        "min_length",
        "multiple_of",
        "node",
        "pattern",
    )

    node: Node
    gt: float | None
    ge: float | None
    lt: float | None
    le: float | None
    multiple_of: float | None
    min_length: int | None
    max_length: int | None
    pattern: str | None

    def __init__(
        self,
        node: Node,
        gt: float | None = None,
        ge: float | None = None,
        lt: float | None = None,
        le: float | None = None,
        multiple_of: float | None = None,
        min_length: int | None = None,
        max_length: int | None = None,
        pattern: str | None = None,
    ) -> None:
        self.node = node
        self.gt = gt
        self.ge = ge
        self.lt = lt
        self.le = le
        self.multiple_of = multiple_of
        self.min_length = min_length
        self.max_length = max_length
        self.pattern = pattern


class Described:
    """A node with the title, description and examples ``Annotated`` metadata gives it."""

    __slots__ = ("description", "examples", "extra", "node", "title")

    node: Node
    title: str | None
    description: str | None
    examples: tuple[Any, ...] | None
    #: ``Field(json_schema_extra=...)``: (keyword, its value as JSON text) pairs.
    extra: tuple[tuple[str, str], ...]

    def __init__(
        self,
        node: Node,
        title: str | None = None,
        description: str | None = None,
        examples: tuple[Any, ...] | None = None,
        extra: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self.node = node
        self.title = title
        self.description = description
        self.examples = examples
        self.extra = extra


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
