"""@tool: a Standard Tool from a typed function."""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import enum
import inspect
import re
import uuid
from typing import Any, Literal, NamedTuple

import msgspec
import pydantic
import pytest
from annotated_types import Gt
from typing_extensions import Annotated, NotRequired, TypeAliasType, TypedDict

from standard_tool import (
    AsyncTool,
    Meta,
    Param,
    StandardToolValidationError,
    Tool,
    ToolDefinitionError,
    input_json_schema,
    is_standard_tool,
    output_json_schema,
    run_tool,
    tool,
)


def get_weather(city: str, units: Literal["c", "f"] = "c") -> str:
    """Get the current weather for a city.

    Uses the nearest station.

    Args:
        city: The city name,
            in English.
        units: Celsius or Fahrenheit.

    Returns:
        A sentence.

    Raises:
        KeyError: unknown city.
    """
    return f"{city}:{units}"


def errors(fn: Any, value: Any) -> str:
    with pytest.raises(StandardToolValidationError) as info:
        fn.execute(value)
    assert info.value.target == "input"
    return str(info.value)


def test_bare_decorator_builds_a_conforming_sync_tool() -> None:
    t = tool(get_weather)
    assert isinstance(t, Tool)
    assert is_standard_tool(t)
    assert t.name == "get_weather"
    assert t.title is None
    assert not inspect.iscoroutinefunction(t.execute)
    assert t.execute({"city": "Paris"}) == "Paris:c"


def test_description_is_the_docstring_without_args_returns_raises() -> None:
    assert tool(get_weather).description == (
        "Get the current weather for a city.\n\nUses the nearest station."
    )


def test_decorator_options_override_name_description_and_title() -> None:
    t = tool(name="weather", description="Weather.", title="Weather")(get_weather)
    assert (t.name, t.description, t.title) == ("weather", "Weather.", "Weather")


def test_input_schema_lists_parameters_with_descriptions_and_defaults() -> None:
    assert input_json_schema(tool(get_weather)) == {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "The city name, in English."},
            "units": {
                "type": "string",
                "enum": ["c", "f"],
                "description": "Celsius or Fahrenheit.",
                "default": "c",
            },
        },
        "required": ["city"],
        "additionalProperties": False,
    }
    assert output_json_schema(tool(get_weather)) == {"type": "string"}


def test_numpy_and_sphinx_docstrings_describe_parameters() -> None:
    def numpy_style(a: int, b: int) -> int:
        """Add.

        Parameters
        ----------
        a : int
            The first.
        b : int
            The second.

        Returns
        -------
        int
        """
        return a + b

    def sphinx_style(a: int) -> int:
        """Double.

        :param a: The number.
        :returns: twice a.
        """
        return 2 * a

    numpy = input_json_schema(tool(numpy_style))
    assert numpy["properties"]["b"]["description"] == "The second."
    assert tool(numpy_style).description == "Add."
    sphinx = tool(sphinx_style)
    assert input_json_schema(sphinx)["properties"]["a"]["description"] == "The number."
    assert sphinx.description == "Double."


def test_annotated_descriptions_param_and_pydantic_field() -> None:
    def f(
        a: Annotated[str, "plain text"],
        b: Annotated[int, Param("bounded", ge=1, le=5)],
        c: Annotated[str, pydantic.Field(description="from pydantic", max_length=3)],
    ) -> None: ...

    props = input_json_schema(tool(f))["properties"]
    assert props["a"] == {"type": "string", "description": "plain text"}
    assert props["b"] == {"type": "integer", "minimum": 1, "maximum": 5, "description": "bounded"}
    assert props["c"] == {"type": "string", "maxLength": 3, "description": "from pydantic"}


def test_undocumented_parameters_are_fine() -> None:
    def f(x: int) -> int:
        return x

    t = tool(f)
    assert t.description == ""
    assert input_json_schema(t)["properties"]["x"] == {"type": "integer"}


def test_unknown_keys_are_rejected_with_the_path() -> None:
    assert "extra: unexpected property (allowed: city, units)" in errors(
        tool(get_weather), {"city": "x", "extra": 1}
    )


def test_no_coercion_from_strings_or_bools() -> None:
    def f(n: int, x: float, s: str) -> None: ...

    t = tool(f)
    assert "n: expected integer, got string '10'" in errors(t, {"n": "10", "x": 1, "s": "a"})
    assert "n: expected integer, got true" in errors(t, {"n": True, "x": 1, "s": "a"})
    assert "x: expected number, got false" in errors(t, {"n": 1, "x": False, "s": "a"})
    assert "s: expected string, got integer 1" in errors(t, {"n": 1, "x": 1, "s": 1})


def test_null_only_where_the_schema_allows_it() -> None:
    def f(a: str, b: str | None = None) -> str | None:
        return b

    t = tool(f)
    assert "a: expected string, got null" in errors(t, {"a": None})
    assert t.execute({"a": "x", "b": None}) is None


def test_missing_required_and_defaults_applied() -> None:
    t = tool(get_weather)
    assert "city: missing required property" in errors(t, {})
    result: Any = t.input_schema.__standard__.validate({"city": "x"})  # type: ignore[union-attr]
    assert result.value == {"city": "x", "units": "c"}


def test_integral_floats_are_integers_as_in_json() -> None:
    def f(n: int) -> int:
        return n

    assert tool(f).execute({"n": 3.0}) == 3
    assert "expected integer, got number 3.5" in errors(tool(f), {"n": 3.5})


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Priority(enum.IntEnum):
    LOW = 1
    HIGH = 2


@dataclasses.dataclass(frozen=True)
class Point:
    """A point.

    Attributes:
        x: Horizontal.
    """

    x: int
    y: int = 0


class Span(NamedTuple):
    start: int
    end: int


class Item(TypedDict):
    sku: str
    qty: Annotated[int, Gt(0)]
    note: NotRequired[str]


def test_function_receives_real_python_values() -> None:
    seen: dict[str, Any] = {}

    def f(
        color: Color,
        level: Priority,
        p: Point,
        span: Span,
        when: dt.datetime,
        day: dt.date,
        at: dt.time,
        ident: uuid.UUID,
        price: decimal.Decimal,
        pair: tuple[int, str],
        tags: set[str],
        frozen: frozenset[int],
        item: Item,
    ) -> None:
        seen.update(locals())

    tool(f).execute(
        {
            "color": "red",
            "level": 2,
            "p": {"x": 1},
            "span": {"start": 1, "end": 2},
            "when": "2024-05-01T12:30:00.5Z",
            "day": "2024-05-01",
            "at": "08:00:00+02:00",
            "ident": "12345678-1234-5678-1234-567812345678",
            "price": "10.50",
            "pair": [1, "a"],
            "tags": ["a", "b"],
            "frozen": [1],
            "item": {"sku": "s", "qty": 1},
        }
    )
    assert seen["color"] is Color.RED
    assert seen["level"] is Priority.HIGH
    assert seen["p"] == Point(1, 0)
    assert seen["span"] == Span(1, 2)
    assert seen["when"] == dt.datetime(2024, 5, 1, 12, 30, 0, 500000, dt.timezone.utc)
    assert seen["day"] == dt.date(2024, 5, 1)
    assert seen["at"].utcoffset() == dt.timedelta(hours=2)
    assert seen["ident"] == uuid.UUID("12345678-1234-5678-1234-567812345678")
    assert seen["price"] == decimal.Decimal("10.50")
    assert seen["pair"] == (1, "a")
    assert seen["tags"] == {"a", "b"}
    assert seen["frozen"] == frozenset({1})
    assert seen["item"] == {"sku": "s", "qty": 1}


def test_schema_advertises_the_conversions() -> None:
    def f(
        color: Color, when: dt.datetime, tags: set[str], pair: tuple[int, str], p: Point
    ) -> None: ...

    schema = input_json_schema(tool(f))
    props = schema["properties"]
    assert props["color"] == {"type": "string", "enum": ["red", "blue"]}
    assert props["when"] == {"type": "string", "format": "date-time"}
    assert props["tags"] == {"type": "array", "items": {"type": "string"}, "uniqueItems": True}
    assert props["pair"]["prefixItems"] == [{"type": "integer"}, {"type": "string"}]
    assert props["p"] == {"$ref": "#/$defs/Point"}
    assert schema["$defs"]["Point"]["properties"]["x"]["description"] == "Horizontal."
    assert schema["$defs"]["Point"]["required"] == ["x"]


def test_duplicates_in_a_set_are_rejected_not_dropped() -> None:
    def f(tags: set[str]) -> None: ...

    assert "tags: items must be unique" in errors(tool(f), {"tags": ["a", "a"]})


def test_bad_formats_are_rejected() -> None:
    def f(when: dt.datetime, ident: uuid.UUID, price: decimal.Decimal) -> None: ...

    good = {"when": "2024-01-01T00:00:00Z", "ident": str(uuid.UUID(int=1)), "price": "1"}
    message = errors(tool(f), {**good, "when": "2024-01-01 00:00"})
    assert "when: expected an RFC 3339 date-time with offset" in message
    assert "price: expected a decimal" in errors(tool(f), {**good, "price": "1e5"})


def test_constraints_are_checked_and_named() -> None:
    def f(items: list[Item]) -> None: ...

    message = errors(tool(f), {"items": [{"sku": "a", "qty": 1}, {"sku": "b", "qty": 0}]})
    assert message == "input validation failed: items.1.qty: must be greater than 0, got 0"


def test_kwargs_accept_extra_keys_typed_by_their_annotation() -> None:
    def f(a: int, **rest: int) -> dict[str, int]:
        return rest

    t = tool(f)
    assert t.execute({"a": 1, "b": 2}) == {"b": 2}
    assert "b: expected integer" in errors(t, {"a": 1, "b": "x"})
    assert input_json_schema(t)["additionalProperties"] == {"type": "integer"}


def test_meta_parameter_is_hidden_and_receives_meta() -> None:
    def f(city: str, ctx: Meta[dict[str, str]]) -> str:
        return ctx["user"] + city

    t = tool(f)
    assert list(input_json_schema(t)["properties"]) == ["city"]
    assert t.execute({"city": "x"}, {"user": "u:"}) == "u:x"
    assert "ctx: unexpected property" in errors(t, {"city": "x", "ctx": {}})


def test_every_parameter_kind_receives_its_value() -> None:
    def f(a: int, b: str = "b", *, c: bool, d: int = 4, ctx: Meta[str]) -> str:
        return f"{a}{b}{c}{d}{ctx}"

    t = tool(f)
    assert t.execute({"a": 1, "c": True}, "m") == "1bTrue4m"
    assert t.execute({"d": 5, "c": False, "b": "x", "a": 2}, "n") == "2xFalse5n"


def test_meta_wins_over_an_extra_key_of_the_same_name() -> None:
    def f(a: int, ctx: Meta[str], **rest: str) -> str:
        return f"{a}{ctx}{sorted(rest)}"

    t = tool(f)
    assert t.execute({"a": 1, "ctx": "from input", "z": "1"}, "m") == "1m['z']"


def test_wrappers_and_callables_are_called_by_keyword() -> None:
    import functools

    def inner(a: int, b: int = 2) -> int:
        return a * 10 + b

    @functools.wraps(inner)
    def keywords_only(**kwargs: Any) -> Any:  # advertises inner's signature
        return inner(**kwargs)

    class Adder:
        def __call__(self, a: int, b: int = 2) -> int:
            return a * 10 + b

        def method(self, a: int, b: int = 2) -> int:
            return a * 10 + b

    for fn in (keywords_only, Adder(), Adder().method, functools.partial(inner, b=5)):
        t = tool(fn, name="t", description="d")
        expected = 15 if isinstance(fn, functools.partial) else 12
        assert t.execute({"a": 1}) == expected


async def test_async_function_gives_an_async_tool() -> None:
    async def f(n: int) -> int:
        return n + 1

    t = tool(f)
    assert isinstance(t, AsyncTool)
    assert inspect.iscoroutinefunction(t.execute)
    assert await t.execute({"n": 1}) == 2
    assert await run_tool(t, {"n": 2}) == 3
    with pytest.raises(StandardToolValidationError):
        await t.execute({"n": "1"})


def test_output_is_checked_against_the_return_annotation() -> None:
    def f(n: int) -> str:
        return n  # type: ignore[return-value]

    with pytest.raises(StandardToolValidationError) as info:
        tool(f).execute({"n": 1})
    assert info.value.target == "output"


def test_no_output_schema_without_a_return_annotation_or_for_none() -> None:
    def a(x: int): ...  # type: ignore[no-untyped-def]

    def b(x: int) -> None: ...

    assert tool(a).output_schema is None
    assert tool(b).output_schema is None


def test_formatted_turns_validation_errors_into_data() -> None:
    t = tool(get_weather).formatted()
    assert t.execute({"city": 1}) == {
        "error": "input validation failed: city: expected string, got integer 1"
    }


class Tree(TypedDict):
    name: str
    children: list[Tree]


def test_recursive_types_use_defs_and_refs() -> None:
    def f(tree: Tree) -> int:
        return len(tree["children"])

    t = tool(f)
    schema = input_json_schema(t)
    assert schema["properties"]["tree"] == {"$ref": "#/$defs/Tree"}
    assert schema["$defs"]["Tree"]["properties"]["children"]["items"] == {"$ref": "#/$defs/Tree"}
    leaf = {"name": "l", "children": []}
    assert t.execute({"tree": {"name": "r", "children": [leaf, leaf]}}) == 2


Json = TypeAliasType("Json", "dict[str, Json] | list[Json] | str | int | None")


def test_recursive_type_alias() -> None:
    def f(doc: Json) -> None: ...

    t = tool(f)
    assert input_json_schema(t)["properties"]["doc"] == {"$ref": "#/$defs/Json"}
    t.execute({"doc": {"a": [1, "x", None, {"b": []}]}})


def test_hostile_deep_input_gives_a_short_error() -> None:
    deep: Any = 1
    for _ in range(100_000):
        deep = [deep]

    def f(n: int, tree: Tree) -> None: ...

    message = errors(tool(f), {"n": deep, "tree": {"name": "x", "children": []}})
    assert message == "input validation failed: n: expected integer, got array (1 item)"

    nested: Any = {"name": "x", "children": []}
    for _ in range(10_000):
        nested = {"name": "x", "children": [nested]}
    message = errors(tool(f), {"n": 1, "tree": nested})
    assert "nesting deeper than 64 levels" in message
    assert len(message) < 1000


def test_huge_string_is_excerpted() -> None:
    def f(n: int) -> None: ...

    message = errors(tool(f), {"n": "9" * 10_000_000})
    assert len(message) < 200
    assert "(10000000 characters)" in message


def test_many_bad_items_give_a_bounded_error() -> None:
    def f(xs: list[int]) -> None: ...

    with pytest.raises(StandardToolValidationError) as info:
        tool(f).execute({"xs": ["a"] * 100_000})
    assert len(info.value.issues) <= 51  # 50 and "validation stopped after 50 issues"
    assert len(str(info.value)) < 3000


def test_non_object_input_is_rejected() -> None:
    assert errors(tool(get_weather), None) == "input validation failed: expected object, got null"
    assert "expected object, got array" in errors(tool(get_weather), [1])


def test_unsupported_annotation_fails_at_decoration_naming_the_parameter() -> None:
    def f(ok: int, bad: bytes, worse: complex) -> None: ...

    with pytest.raises(ToolDefinitionError) as info:
        tool(f)
    assert "parameter 'bad': unsupported type bytes" in str(info.value)
    assert "parameter 'worse'" in str(info.value)


def test_args_and_positional_only_are_rejected() -> None:
    def f(a: int, /, *rest: int) -> None: ...

    with pytest.raises(ToolDefinitionError, match=r"positional-only.*\*rest"):
        tool(f)


def test_constraint_on_the_wrong_type_fails_at_decoration() -> None:
    def f(a: Annotated[bool, Gt(1)]) -> None: ...

    with pytest.raises(ToolDefinitionError, match="parameter 'a'"):
        tool(f)


def test_unresolvable_forward_reference_names_the_parameter() -> None:
    def f(a: Missing) -> None: ...  # type: ignore[name-defined]  # noqa: F821

    with pytest.raises(ToolDefinitionError, match=r"parameter 'a'.*Missing"):
        tool(f)


class Customer(pydantic.BaseModel):
    name: str
    since: dt.date


class Pet(msgspec.Struct):
    name: str
    age: int


def test_pydantic_models_and_msgspec_structs_as_parameters() -> None:
    def f(customer: Customer, pet: Pet) -> str:
        return f"{customer.name}:{customer.since.year}:{pet.name}:{pet.age}"

    t = tool(f)
    schema = input_json_schema(t)
    assert schema["properties"]["customer"] == {"$ref": "#/$defs/Customer"}
    assert schema["$defs"]["Customer"]["properties"]["since"]["format"] == "date"
    assert schema["$defs"]["Pet"]["required"] == ["name", "age"]
    value = {"customer": {"name": "A", "since": "2020-01-02"}, "pet": {"name": "P", "age": 3}}
    assert t.execute(value) == "A:2020:P:3"
    assert "customer.since" in errors(t, {**value, "customer": {"name": "A", "since": 1}})
    assert "pet" in errors(t, {**value, "pet": {"name": "P", "age": "3"}})


def test_json_schema_targets_are_cached_and_fresh_copies() -> None:
    t = tool(get_weather)
    first = input_json_schema(t, "draft-07")
    first["properties"].clear()
    assert input_json_schema(t, "draft-07")["properties"]
    assert input_json_schema(t, "openapi-3.0")["properties"]["city"] == {
        "type": "string",
        "description": "The city name, in English.",
    }
    with pytest.raises(ValueError, match="draft-2020-12"):
        input_json_schema(t, "draft-03")


def test_vendor_and_version() -> None:
    props = tool(get_weather).input_schema.__standard__  # type: ignore[union-attr]
    assert (props.version, props.vendor) == (1, "standard-tool")


def test_an_optional_wrapper_keeps_the_path_of_an_inner_error() -> None:
    @tool
    def tag(tags: list[str] | None = None, pair: tuple[int, int] | None = None) -> None: ...

    assert "tags.1: expected string, got integer 2" in errors(tag, {"tags": ["a", 2]})
    assert "pair.0: expected integer, got string 'x'" in errors(tag, {"pair": ["x", 1]})
    assert "tags: expected array or null, got integer 3" in errors(tag, {"tags": 3})


def test_a_deeply_nested_annotation_is_a_definition_error() -> None:
    deep: Any = int
    for _ in range(500):
        deep = list[deep]

    def f(x: int) -> None: ...

    f.__annotations__ = {"x": deep, "return": None}
    with pytest.raises(ToolDefinitionError, match="tool 'f': an annotation nests too deeply"):
        tool(f)


class BranchA(TypedDict):
    a: int


class BranchB(TypedDict):
    b: int


@dataclasses.dataclass
class RecordA:
    a: int


@dataclasses.dataclass
class RecordB:
    b: str


def test_every_branch_of_a_union_of_objects_is_tried() -> None:
    @tool
    def pick(x: BranchA | BranchB, y: RecordA | RecordB | None = None) -> str:
        return f"{sorted(x)}:{y!r}"

    assert pick.execute({"x": {"b": 1}}) == "['b']:None"
    assert pick.execute({"x": {"a": 1}, "y": {"b": "s"}}) == "['a']:RecordB(b='s')"
    assert pick.execute({"x": {"a": 1}, "y": {"a": 2}}) == "['a']:RecordA(a=2)"
    assert "x: matches none of the 2 alternatives" in errors(pick, {"x": {"c": 1}})
    assert "y: matches none of the 3 alternatives" in errors(pick, {"x": {"a": 1}, "y": {}})


# -- a decorated function looks like the function (issue 26) ----------------------------


def test_a_decorated_function_has_the_functions_name_doc_and_signature() -> None:
    import pydoc

    def scale(value: float, factor: float = 2.0) -> float:
        """Scale a value.

        Args:
            value: what to scale.
            factor: by how much.
        """
        return value * factor

    scale.owner = "maths"  # type: ignore[attr-defined]
    scaled = tool(scale)
    assert scaled.__name__ == "scale"  # type: ignore[attr-defined]
    assert scaled.__qualname__ == scale.__qualname__  # type: ignore[attr-defined]
    assert scaled.__module__ == __name__
    assert scaled.__doc__ == scale.__doc__
    assert scaled.owner == "maths"  # type: ignore[attr-defined]  # the function's __dict__
    assert scaled.__wrapped__ is scale
    assert inspect.signature(scaled) == inspect.signature(scale)
    assert inspect.getdoc(scaled) == inspect.getdoc(scale)
    page = pydoc.render_doc(scaled, renderer=pydoc.plaintext)
    assert f"scale{inspect.signature(scale)}\n    Scale a value." in page
    assert type(scaled).__doc__ is not None
    assert type(scaled).__doc__.startswith("A synchronous tool made by ``@tool``")


def test_a_method_tool_shows_its_signature_bound_and_unbound() -> None:
    class Shop:
        @tool
        async def price(self, item: str) -> int:
            """Price one item."""
            return len(item)

    assert list(inspect.signature(Shop.price).parameters) == ["self", "item"]
    assert list(inspect.signature(Shop().price).parameters) == ["item"]
    assert inspect.signature(Shop().price).return_annotation == "int"
    assert Shop().price.__name__ == "price"  # type: ignore[attr-defined]
    assert Shop().price.__doc__ == "Price one item."


# -- pydantic Field information is kept (issue 26) ---------------------------------------


def test_field_json_schema_extra_is_kept_in_the_schema() -> None:
    @tool
    def tag(
        label: Annotated[
            str, pydantic.Field(json_schema_extra={"x-ui": "tag", "deprecated": True})
        ],
        count: int = pydantic.Field(default=1, ge=0, json_schema_extra={"examples": [3]}),
    ) -> str:
        """Tag something."""
        return label * count

    properties = input_json_schema(tag)["properties"]
    assert properties["label"] == {"type": "string", "x-ui": "tag", "deprecated": True}
    assert properties["count"] == {"type": "integer", "minimum": 0, "examples": [3], "default": 1}
    assert tag.execute({"label": "a"}) == "a"  # the Field default, not the FieldInfo
    assert "count: must be greater than or equal to 0" in errors(tag, {"label": "a", "count": -1})


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"minimum": 3}, "json_schema_extra key 'minimum' would change what the schema accepts"),
        (lambda schema: None, "json_schema_extra must be a dict of annotations, got function"),
        ({"x-when": object()}, "json_schema_extra['x-when'] is not JSON data"),
    ],
)
def test_json_schema_extra_that_the_tool_would_not_check_is_refused(
    extra: Any, message: str
) -> None:
    with pytest.raises(ToolDefinitionError, match=re.escape(message)):

        @tool
        def pick(a: Annotated[int, pydantic.Field(json_schema_extra=extra)]) -> int:
            """Pick."""
            return a
