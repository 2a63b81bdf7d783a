"""``to_mcp`` inlines local ``$ref``s by default: MCP clients that do not follow them
(the MCP Inspector among them) would send such an object argument as a string."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import jsonschema
from typing_extensions import TypedDict

from standard_tool import input_json_schema, tool
from standard_tool.providers import check_mcp_tool, to_mcp


class Customer(TypedDict):
    name: str
    vip: bool


@dataclass
class Node:
    value: int
    children: list[Node]


@tool
def greet(customer: Customer, backup: Customer | None = None) -> Customer:
    """Greet a customer."""
    return customer


@tool
def total(tree: Node) -> int:
    """Sum a tree."""
    return tree.value


def test_non_recursive_refs_are_inlined_in_input_and_output() -> None:
    entry = to_mcp(greet)
    assert "$ref" not in json.dumps(entry)
    assert "$defs" not in entry["inputSchema"]
    assert entry["inputSchema"]["properties"]["customer"]["properties"]["name"] == {
        "type": "string"
    }
    assert check_mcp_tool(entry) == []


def test_the_inlined_schema_accepts_and_refuses_what_the_tool_does() -> None:
    inlined = to_mcp(greet)["inputSchema"]
    original = input_json_schema(greet)
    good = {"customer": {"name": "Ada", "vip": True}, "backup": None}
    bad = {"customer": {"name": "Ada", "vip": "yes"}}
    for schema in (inlined, original):
        jsonschema.Draft202012Validator(schema).validate(good)
        assert not jsonschema.Draft202012Validator(schema).is_valid(bad)
    assert greet.execute(good) == {"name": "Ada", "vip": True}


def test_a_recursive_type_keeps_its_defs() -> None:
    entry = to_mcp(total)
    assert "$defs" in entry["inputSchema"]
    assert "$ref" in json.dumps(entry["inputSchema"])
    assert check_mcp_tool(entry) == []


def test_inline_refs_false_keeps_every_ref() -> None:
    entry = to_mcp(greet, inline_refs=False)
    assert "$defs" in entry["inputSchema"]
    assert entry["inputSchema"]["properties"]["customer"] == {"$ref": "#/$defs/Customer"}
    assert [e["name"] for e in to_mcp([greet, total], inline_refs=False)] == ["greet", "total"]


def test_a_caller_cannot_corrupt_the_next_declaration() -> None:
    first = to_mcp(greet)
    first["inputSchema"]["properties"]["customer"]["properties"].clear()
    assert to_mcp(greet)["inputSchema"]["properties"]["customer"]["properties"]


def test_each_entry_is_a_fresh_dict_the_caller_may_change() -> None:
    @tool(annotations={"readOnlyHint": True}, metadata={"owner": "shop"})
    def tagged(customer: Customer) -> Customer:
        """Tag a customer."""
        return customer

    first = to_mcp(tagged, annotations={"idempotentHint": True})
    first["name"] = "changed"
    first["inputSchema"]["properties"].clear()
    first["annotations"]["readOnlyHint"] = False
    first["_meta"]["owner"] = "someone else"
    again = to_mcp(tagged)
    assert again["name"] == "tagged"
    assert "customer" in again["inputSchema"]["properties"]
    assert again["annotations"] == {"readOnlyHint": True}
    assert again["_meta"] == {"owner": "shop"}
    assert to_mcp(tagged, inline_refs=False)["inputSchema"]["$defs"]


def test_a_plain_tool_is_read_again_on_each_call() -> None:
    class Plain:
        name: str = "plain"
        title: str | None = None
        description: str = "A plain tool."
        input_schema: Any = greet.input_schema
        output_schema: Any = None
        mcp_meta: dict[str, Any] | None = None

        def execute(self, input: Any, meta: Any = None) -> Any:
            return input

    plain = Plain()
    assert to_mcp(plain)["description"] == "A plain tool."
    plain.description = "Changed."
    plain.mcp_meta = {"k": 1}
    entry = to_mcp(plain)
    assert entry["description"] == "Changed."
    assert entry["_meta"] == {"k": 1}
