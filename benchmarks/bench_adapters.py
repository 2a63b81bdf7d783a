"""Adapter overhead: a tool built on a schema adapter against the library call it wraps.

Run: ``python benchmarks/bench_adapters.py`` (about 20 seconds). Everything runs
side by side in one process, in interleaved rounds; the figures that matter are
the ratios.

Each baseline is the library's own validation plus the handler call, written
out by hand: ``handler(TypeAdapter(T).validate_python(x))`` and
``handler(msgspec.convert(x, type=T))``. The tool is
``standard_tool(input_schema=T, execute=handler)``, which wraps ``T`` with the
matching adapter, and is called as ``tool.execute(x)``. The middle row of each
group, the adapter's ``validate`` plus the handler written out by hand, separates
the adapter's cost from the tool's. The last row compares the tool with the
fastest spelling of the library call (pydantic's compiled
``TypeAdapter.validator.validate_python``; ``msgspec.convert(x, T)`` with a
positional type, which msgspec parses faster than ``type=T``): the tool calls
those through the adapters' ``FastPath``.

Targets (issue 3): Pydantic at most 1.15x for a flat 2-field input and 1.05x for
a nested one (10 list items with a nested object); msgspec at most 1.15x.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import msgspec
from pydantic import BaseModel, TypeAdapter

sys.path.insert(0, str(Path(__file__).parent))

from _timing import measure, table
from standard_tool import standard_tool


class Flat(BaseModel):
    name: str
    count: int


class Address(BaseModel):
    street: str
    city: str
    zip: str


class Item(BaseModel):
    sku: str
    quantity: int
    price: float
    address: Address


class Order(BaseModel):
    id: int
    items: list[Item]


class FlatStruct(msgspec.Struct):
    name: str
    count: int


class AddressStruct(msgspec.Struct):
    street: str
    city: str
    zip: str


class ItemStruct(msgspec.Struct):
    sku: str
    quantity: int
    price: float
    address: AddressStruct


class OrderStruct(msgspec.Struct):
    id: int
    items: list[ItemStruct]


FLAT = {"name": "widget", "count": 3}
NESTED = {
    "id": 7,
    "items": [
        {
            "sku": f"sku-{i}",
            "quantity": i,
            "price": 1.5 * i,
            "address": {"street": "1 Main St", "city": "Springfield", "zip": "12345"},
        }
        for i in range(10)
    ],
}


def handler(value: Any) -> Any:
    return value


def by_hand(validate: Any) -> Any:
    """The adapter's ``validate`` plus the handler, the way a careful caller writes it."""

    def run(value: Any) -> Any:
        result = validate(value)
        if result.issues is not None:
            raise ValueError(result.issues)
        return handler(result.value)

    return run


def main() -> None:
    flat_adapter = TypeAdapter(Flat)
    nested_adapter = TypeAdapter(Order)
    convert = msgspec.convert
    ns: dict[str, Any] = {
        "FLAT": FLAT,
        "NESTED": NESTED,
        "handler": handler,
        "convert": convert,
        "FlatStruct": FlatStruct,
        "OrderStruct": OrderStruct,
        "flat_validate": flat_adapter.validate_python,
        "nested_validate": nested_adapter.validate_python,
        "flat_core": flat_adapter.validator.validate_python,
        "nested_core": nested_adapter.validator.validate_python,
        "pyd_flat": standard_tool(name="t", description="d", input_schema=Flat, execute=handler),
        "pyd_nested": standard_tool(name="t", description="d", input_schema=Order, execute=handler),
        "ms_flat": standard_tool(
            name="t", description="d", input_schema=FlatStruct, execute=handler
        ),
        "ms_nested": standard_tool(
            name="t", description="d", input_schema=OrderStruct, execute=handler
        ),
    }
    for key in ("pyd_flat", "pyd_nested", "ms_flat", "ms_nested"):
        ns[f"{key}_hand"] = by_hand(ns[key].input_schema.__standard__.validate)
    cases = {
        "pyd_flat_base": "handler(flat_validate(FLAT))",
        "pyd_flat_fastest": "handler(flat_core(FLAT))",
        "pyd_nested_fastest": "handler(nested_core(NESTED))",
        "ms_flat_fastest": "handler(convert(FLAT, FlatStruct))",
        "ms_nested_fastest": "handler(convert(NESTED, OrderStruct))",
        "pyd_flat_hand": "pyd_flat_hand(FLAT)",
        "pyd_flat_tool": "pyd_flat.execute(FLAT)",
        "pyd_nested_base": "handler(nested_validate(NESTED))",
        "pyd_nested_hand": "pyd_nested_hand(NESTED)",
        "pyd_nested_tool": "pyd_nested.execute(NESTED)",
        "ms_flat_base": "handler(convert(FLAT, type=FlatStruct))",
        "ms_flat_hand": "ms_flat_hand(FLAT)",
        "ms_flat_tool": "ms_flat.execute(FLAT)",
        "ms_nested_base": "handler(convert(NESTED, type=OrderStruct))",
        "ms_nested_hand": "ms_nested_hand(NESTED)",
        "ms_nested_tool": "ms_nested.execute(NESTED)",
    }
    t = measure(cases, ns, rounds=31, round_seconds=0.02)
    rows: list[tuple[str, float, float | None, str]] = []
    for key, label, target in (
        ("pyd_flat", "pydantic, flat 2 fields", "1.15x"),
        ("pyd_nested", "pydantic, nested (10 items)", "1.05x"),
        ("ms_flat", "msgspec, flat 2 fields", "1.15x"),
        ("ms_nested", "msgspec, nested (10 items)", "1.15x"),
    ):
        base, hand, tool = t[f"{key}_base"], t[f"{key}_hand"], t[f"{key}_tool"]
        rows.append((f"{label}: library + handler", base, None, ""))
        rows.append((f"{label}: adapter validate + handler", hand, hand / base, "library"))
        rows.append((f"{label}: tool.execute", tool, tool / base, f"library (target {target})"))
        fastest = t[f"{key}_fastest"]
        rows.append(
            (f"{label}: library's fastest call + handler", fastest, tool / fastest, "tool to it")
        )
    print(table(rows))


if __name__ == "__main__":
    main()
