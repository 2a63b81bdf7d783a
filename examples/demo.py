"""The standard-tool demo: one set of tools, every provider, a scripted model.

Run: ``bash scripts/demo.sh`` (or ``python examples/demo.py`` with the package
installed). No API key and no network: the "model" is a script that answers in
each API's real wire format. Its OpenAI turn asks for four calls (one good, one
with an invalid order, one to a tool that does not exist, one with broken JSON)
and its Anthropic turn for two, so you can see what the model gets back for each.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Literal

from typing_extensions import NotRequired, TypedDict

from standard_tool import Meta, Param, Toolkit, tool
from standard_tool.providers import (
    run_anthropic_tool_calls,
    run_openai_chat_tool_calls,
    to_anthropic,
    to_gemini,
    to_mcp,
    to_openai_chat,
)


class Item(TypedDict):
    sku: str
    qty: Annotated[int, Param(gt=0)]


class Address(TypedDict):
    city: str
    zip: str
    note: NotRequired[str]


@tool
def get_weather(city: str, units: Literal["c", "f"] = "c") -> dict[str, float]:
    """Current temperature for a city.

    Args:
        city: City name, e.g. "Paris".
        units: Celsius ("c") or Fahrenheit ("f").
    """
    return {"temperature": 21.0 if units == "c" else 69.8}


@tool
def place_order(items: list[Item], ship_to: Address, user: Meta[str]) -> str:
    """Place an order for the signed-in user.

    Args:
        items: What to order; every quantity must be positive.
        ship_to: Where to send it.
    """
    count = sum(item["qty"] for item in items)
    return f"order for {user}: {count} item(s) to {ship_to['city']}"


@tool
async def convert(amount: float, to: Literal["EUR", "USD", "GBP"]) -> float:
    """Convert an amount of US dollars into another currency."""
    await asyncio.sleep(0)
    return round(amount * {"EUR": 0.92, "USD": 1.0, "GBP": 0.79}[to], 2)


TOOLS = Toolkit([get_weather, place_order, convert])


def show_declarations() -> None:
    print("== One tool, four wire formats (place_order)")
    print("OpenAI strict:", json.dumps(to_openai_chat(place_order)["function"]["strict"]))
    print("Anthropic keys:", sorted(to_anthropic(place_order)))
    gemini = to_gemini(place_order)["parameters"]
    print("Gemini (OpenAPI subset, refs inlined):", sorted(gemini["properties"]))
    print("MCP inputSchema required:", to_mcp(place_order)["inputSchema"]["required"])
    hidden = all(
        "user" not in schema["properties"]
        for schema in (
            to_openai_chat(place_order)["function"]["parameters"],
            to_anthropic(place_order)["input_schema"],
            gemini,
            to_mcp(place_order)["inputSchema"],
        )
    )
    print("meta parameter 'user' hidden from every schema:", hidden)
    print()


def openai_turn() -> dict[str, object]:
    """What a Chat Completions response asking for three tools looks like."""

    def call(call_id: str, name: str, arguments: str) -> dict[str, object]:
        return {
            "id": call_id,
            "type": "function",
            "function": {"name": name, "arguments": arguments},
        }

    order = {"items": [{"sku": "A-1", "qty": 0}], "ship_to": {"city": "Lyon", "zip": "69001"}}
    return {
        "id": "chatcmpl-demo",
        "object": "chat.completion",
        "created": 0,
        "model": "scripted",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        call("call_1", "get_weather", '{"city": "Paris", "units": null}'),
                        call("call_2", "place_order", json.dumps(order)),
                        call("call_3", "get_wether", '{"city": "Rome"}'),
                        call("call_4", "convert", '{"amount": 10, "to": "EUR"'),
                    ],
                },
            }
        ],
    }


def anthropic_turn() -> dict[str, object]:
    """What an Anthropic Messages response asking for two tools looks like."""
    order = {"items": [{"sku": "A-1", "qty": 2}], "ship_to": {"city": "Lyon", "zip": "69001"}}
    return {
        "id": "msg_demo",
        "type": "message",
        "role": "assistant",
        "model": "scripted",
        "stop_reason": "tool_use",
        "content": [
            {"type": "text", "text": "Let me check."},
            {"type": "tool_use", "id": "toolu_1", "name": "place_order", "input": order},
            {
                "type": "tool_use",
                "id": "toolu_2",
                "name": "convert",
                "input": {"amount": "ten", "to": "EUR"},
            },
        ],
    }


async def main() -> None:
    print("standard-tool demo: the model is a script, offline, with no API key; what it")
    print("gets back for each call is what a real model would receive.")
    show_declarations()

    print("== OpenAI Chat Completions: the model asks for four calls")
    messages = await run_openai_chat_tool_calls(openai_turn(), TOOLS, meta="ada")
    for message in messages:
        print(f"  {message['tool_call_id']}: {message['content']}")
    print()

    print("== Anthropic Messages: the model asks for two calls")
    reply = await run_anthropic_tool_calls(anthropic_turn(), TOOLS, meta="ada")
    assert reply is not None
    for block in reply["content"]:
        flag = " (is_error)" if block.get("is_error") else ""
        print(f"  {block['tool_use_id']}{flag}: {block['content']}")
    print()

    print("== Direct calls")
    print("  get_weather:", get_weather.execute({"city": "Oslo", "units": "f"}))
    print("  convert:", await convert.execute({"amount": 100, "to": "GBP"}))
    result = await TOOLS.aexecute("get_weather", {"city": 42})
    print("  Toolkit.aexecute with a bad city:", result.success, "-", result.error)


if __name__ == "__main__":
    asyncio.run(main())
