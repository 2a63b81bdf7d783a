"""The schema the model sees is the schema we enforce: a property test per example type."""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import enum
import uuid
from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

import pytest
from annotated_types import Ge, Gt, Le, Len, MaxLen, MinLen, MultipleOf
from typing_extensions import Annotated, NotRequired, TypedDict

from standard_tool import Param, tool
from standard_tool.testing import check_schema_agreement


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Address(TypedDict):
    street: str
    zip: NotRequired[Annotated[str, Param(pattern=r"^\d{5}$")]]


class Item(TypedDict):
    sku: str
    qty: Annotated[int, Gt(0)]


@dataclasses.dataclass
class Point:
    x: float
    y: float = 0.0


class Pair(NamedTuple):
    left: int
    right: str = "r"


class Node(TypedDict):
    value: int
    children: list[Node]


def f_scalars(s: str, i: int, f: float, b: bool, n: None) -> None: ...
def f_defaults(city: str, units: Literal["c", "f"] = "c", days: int = 1) -> None: ...
def f_optional(note: str | None = None, count: int | str | None = None) -> None: ...
def f_containers(
    a: list[int],
    t: tuple[int, str],
    u: tuple[float, ...],
    s: set[str],
    fs: frozenset[int],
    d: dict[str, bool],
    q: Sequence[str],
) -> None: ...
def f_literals(mode: Literal["a", 1, True, None], color: Color, level: Level) -> None: ...
def f_constraints(
    pos: Annotated[int, Gt(0), Le(100)],
    ratio: Annotated[float, Ge(0.5), MultipleOf(0.5)],
    name: Annotated[str, MinLen(2), MaxLen(5)],
    tags: Annotated[list[str], Len(1, 3)],
    code: Annotated[str, Param(pattern="^[A-Z]+$")],
    step: Annotated[int, MultipleOf(3)] = 0,
) -> None: ...
def f_typed(order: list[Item], address: Address) -> None: ...
def f_records(p: Point, pair: Pair) -> None: ...
def f_formats(
    when: dt.datetime, day: dt.date, at: dt.time, ident: uuid.UUID, price: decimal.Decimal
) -> None: ...
def f_any(x: Any, items: list[Any], meta: dict[str, Any]) -> None: ...
def f_recursive(tree: Node) -> None: ...
def f_kwargs(a: int, **rest: str) -> None: ...


EXAMPLES = [
    f_scalars,
    f_defaults,
    f_optional,
    f_containers,
    f_literals,
    f_constraints,
    f_typed,
    f_records,
    f_formats,
    f_any,
    f_recursive,
    f_kwargs,
]


@pytest.mark.parametrize("fn", EXAMPLES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("target", ["draft-2020-12", "draft-07"])
def test_execute_accepts_exactly_what_jsonschema_accepts(fn: Any, target: str) -> None:
    check_schema_agreement(tool(fn), max_examples=150, target=target)


def test_checker_catches_a_tool_that_drops_unknown_keys() -> None:
    from standard_tool import standard_tool

    class Lenient:
        """A schema that advertises additionalProperties: false but ignores extra keys."""

        class _Props:
            version = 1
            vendor = "test"

            class json_schema:
                @staticmethod
                def input(*, target: str, library_options: Any = None) -> dict[str, Any]:
                    return {
                        "type": "object",
                        "properties": {"a": {"type": "integer"}},
                        "additionalProperties": False,
                    }

                output = input

            @staticmethod
            def validate(value: Any) -> Any:
                from standard_tool import FailureResult, Issue, SuccessResult

                a = value.get("a", 0) if isinstance(value, dict) else None
                integral = isinstance(a, int) or (isinstance(a, float) and a.is_integer())
                if isinstance(value, dict) and integral and not isinstance(a, bool):
                    return SuccessResult(value)
                return FailureResult((Issue("bad"),))

        __standard__ = _Props()

    lenient = standard_tool(
        name="lenient", description="d", execute=lambda v: v, input_schema=Lenient()
    )
    with pytest.raises(AssertionError, match="accepts a value its JSON Schema rejects"):
        check_schema_agreement(lenient, max_examples=200)
