"""The generated one-pass validator reports exactly what the full check reports.

A function tool validates its input with generated straight-line code that also
collects the problems in the same pass (``validate``, and the ``fast_path`` the
core's builder calls). The full check (``full_validate``) is the reference: on
any value, the generated code must return the same converted value or the same
issues (messages and paths, in the same order).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import random
from typing import Any, Literal

import pytest
from annotated_types import Gt
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typing_extensions import Annotated, NotRequired, TypedDict

from standard_tool import (
    FailureResult,
    Issue,
    Param,
    StandardToolValidationError,
    input_json_schema,
    tool,
)
from standard_tool._function import MAX_ISSUES
from standard_tool.testing import json_values_for


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Item(TypedDict):
    sku: str
    qty: Annotated[int, Gt(0)]


class Address(TypedDict):
    street: str
    city: str
    zip: str


class Mixed(TypedDict):
    """Optional keys between required ones, so declaration order matters."""

    a: NotRequired[int]
    b: str
    c: NotRequired[list[Item]]
    d: Annotated[float, Param(ge=0)]


class Deep(TypedDict):
    name: str
    tags: list[str]
    items: list[Item]
    inner: NotRequired[Mixed]
    maybe: Address | None


class Node(TypedDict):
    value: int
    children: list[Node]


@dataclasses.dataclass
class Point:
    x: float
    y: float = 0.0


def place_order(items: list[Item], address: Address, note: str | None = None) -> None: ...
def f_flat(city: str, units: Literal["c", "f"] = "c", days: int = 1) -> None: ...
def f_mixed(m: Mixed, ms: list[Mixed], n: int = 0) -> None: ...
def f_deep(d: Deep, grid: list[list[int]], colors: list[Color] | None = None) -> None: ...
def f_other(
    when: dt.date, p: Point, tree: Node, pairs: dict[str, Item], alt: int | str = 0
) -> None: ...


EXAMPLES = [place_order, f_flat, f_mixed, f_deep, f_other]


def _shuffled(value: Any, rnd: random.Random) -> Any:
    """The same value with the keys of its objects in another order."""
    if isinstance(value, dict):
        pairs = [(k, _shuffled(v, rnd)) for k, v in value.items()]
        rnd.shuffle(pairs)
        return dict(pairs)
    if isinstance(value, list):
        return [_shuffled(v, rnd) for v in value]
    return value


_WRONG = [0, -1, 2.5, "x", None, True, [], {}, 1.0]


def _broken(value: Any, rnd: random.Random, rate: float) -> Any:
    """The same value with some of its parts replaced by wrong ones."""
    if rnd.random() < rate:
        return rnd.choice(_WRONG)
    if isinstance(value, dict):
        return {k: _broken(v, rnd, rate) for k, v in value.items()}
    if isinstance(value, list):
        return [_broken(v, rnd, rate) for v in value]
    return value


def _outcome(result: Any) -> tuple[str, Any]:
    if result.issues is not None:
        return "fail", tuple((i.message, i.path) for i in result.issues)
    return "ok", result.value


def _fast_outcome(fast: Any, value: Any) -> tuple[str, Any]:
    try:
        return "ok", fast.convert(value)
    except fast.errors as err:
        return "fail", tuple((i.message, i.path) for i in fast.issues(err))


def assert_agree(fn_tool: Any, value: Any) -> None:
    props = fn_tool.input_schema.__standard__
    expected = _outcome(props.full_validate(value))
    assert _outcome(props.validate(value)) == expected, value
    assert _fast_outcome(props.fast_path, value) == expected, value


@pytest.mark.parametrize("fn", EXAMPLES, ids=lambda f: f.__name__)
def test_one_pass_reports_what_the_full_check_reports(fn: Any) -> None:
    built = tool(fn)
    schema = input_json_schema(built, "draft-2020-12")

    @settings(
        max_examples=300,
        deadline=None,
        database=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
        ],
    )
    @given(
        json_values_for(schema),
        st.randoms(use_true_random=False),
        st.sampled_from([0.0, 0.05, 0.3]),
        st.booleans(),
    )
    def agree(value: Any, rnd: random.Random, rate: float, shuffle: bool) -> None:
        value = _broken(value, rnd, rate)
        if shuffle:
            value = _shuffled(value, rnd)
        assert_agree(built, value)

    agree()


def _order(items: list[Any], **extra: Any) -> dict[str, Any]:
    return {"items": items, "address": {"street": "s", "city": "c", "zip": "z"}, **extra}


def test_one_failing_item_is_reported_with_its_index() -> None:
    order = tool(place_order)
    items = [{"sku": f"s{i}", "qty": i + 1} for i in range(9)] + [{"sku": "x", "qty": 0}]
    result = order.input_schema.__standard__.validate(_order(items))
    assert isinstance(result, FailureResult)
    assert result.issues == (Issue("must be greater than 0, got 0", ("items", 9, "qty")),)
    with pytest.raises(StandardToolValidationError, match=r"items\.9\.qty: must be greater"):
        order.execute(_order(items))


def test_items_of_the_wrong_shape_go_to_the_full_check() -> None:
    order = tool(place_order)
    items: list[Any] = [{"sku": "a"}, {"sku": "b", "qty": 1, "x": 2}, "c", {"qty": 0, "sku": 1}]
    for value in (_order(items), _order(items, note=3), _order(items[::-1])):
        assert_agree(order, value)
    result = order.input_schema.__standard__.validate(_order(items))
    paths = [i.path for i in result.issues]
    assert paths == [
        ("items", 0, "qty"),
        ("items", 1, "x"),
        ("items", 2),
        ("items", 3, "qty"),
        ("items", 3, "sku"),
    ]


def test_many_bad_items_stop_at_max_issues_like_the_full_check() -> None:
    order = tool(place_order)
    items = [{"sku": i, "qty": 0} for i in range(200)]
    for value in (_order(items), _order(items, note=1), _shuffled(_order(items), random.Random(1))):
        assert_agree(order, value)
    issues = order.input_schema.__standard__.validate(_order(items)).issues
    assert len(issues) == MAX_ISSUES  # the first 49 and the stop marker
    assert issues[-1] == Issue(f"validation stopped after {MAX_ISSUES} issues", None)
    assert issues[:2] == (
        Issue("expected string, got integer 0", ("items", 0, "sku")),
        Issue("must be greater than 0, got 0", ("items", 0, "qty")),
    )


def test_keys_out_of_declaration_order_keep_the_full_check_order() -> None:
    mixed = tool(f_mixed)
    m = {"d": -1.0, "b": 2, "a": "x"}
    for value in ({"m": m, "ms": []}, {"ms": [m, m], "m": m}, {"n": "1", "ms": [m], "m": m}):
        assert_agree(mixed, value)
    issues = mixed.input_schema.__standard__.validate({"m": m, "ms": []}).issues
    assert [i.path for i in issues] == [("m", "d"), ("m", "b"), ("m", "a")]


def test_values_the_fast_tests_miss_but_the_full_check_converts() -> None:
    order = tool(place_order)
    items = [{"sku": "a", "qty": 2.0}, {"sku": "b", "qty": 3}]
    props = order.input_schema.__standard__
    value = props.validate(_order(items)).value
    assert value["items"] == [{"sku": "a", "qty": 2}, {"sku": "b", "qty": 3}]
    assert type(value["items"][0]["qty"]) is int
    assert props.fast_path.convert(_order(items)) == value


def test_nested_objects_of_required_keys_with_a_renamed_key_or_a_wrong_shape() -> None:
    order = tool(place_order)
    good = {"sku": "a", "qty": 1}
    renamed = {"sku": "a", "other": 1}
    for items, address in (
        ([good, renamed], {"street": "s", "city": "c", "zip": "z"}),
        ([good, {"sku": "a", "qty": 0}], {"street": 1, "city": "c"}),
        ([renamed, None, {"qty": 0, "sku": 3}], {"city": "c", "street": 3, "zip": None}),
        ([good], {"street": "s", "city": "c", "zip": "z", "extra": 1}),
    ):
        assert_agree(order, {"items": items, "address": address})
    issues = order.input_schema.__standard__.validate(_order([good, renamed])).issues
    assert issues == (
        Issue("unexpected property (allowed: sku, qty)", ("items", 1, "other")),
        Issue("missing required property", ("items", 1, "qty")),
    )


class _Int(int):
    """An int subclass: not the exact class the bound's shortcut covers."""


def test_bounds_on_ints_of_other_classes_and_numbers() -> None:
    order = tool(place_order)
    for qty in (0, -1, 1, 2.0, 0.0, -2.5, True, False, _Int(0), _Int(3), 10**30, -(10**30), "1"):
        assert_agree(order, _order([{"sku": "a", "qty": qty}]))
    issues = order.input_schema.__standard__.validate(_order([{"sku": "a", "qty": _Int(0)}])).issues
    assert issues == (Issue("must be greater than 0, got 0", ("items", 0, "qty")),)
    issues = order.input_schema.__standard__.validate(_order([{"sku": "a", "qty": True}])).issues
    assert issues == (Issue("expected integer, got true", ("items", 0, "qty")),)
    value = order.input_schema.__standard__.validate(_order([{"sku": "a", "qty": _Int(3)}])).value
    assert type(value["items"][0]["qty"]) is int
