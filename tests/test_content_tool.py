"""Tools that return rich results: the output schema validates the structured part."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import anyio
import pytest
from mcp import Client
from pydantic import BaseModel

from standard_tool import StandardToolValidationError, standard_tool, tool
from standard_tool.content import Image, Text, ToolOutput, structured_output
from standard_tool.mcp import server
from standard_tool.schemas.pydantic import pydantic_schema
from tests import content_tools as c


@dataclass
class Point:
    x: int


@tool
def plot(x: int) -> ToolOutput[Point]:
    """Plot a point; a negative x breaks the promise."""
    return ToolOutput([Text("plotted"), c.IMAGE], Point(x) if x >= 0 else {"x": "far"})  # type: ignore[arg-type]


@tool
def snapshot() -> Image:
    """Take a picture."""
    return c.IMAGE


def test_tool_output_of_t_declares_t_and_validates_the_structured_part() -> None:
    schema = plot.output_schema
    assert schema is not None
    declared = schema.__standard__.json_schema.output(target="draft-2020-12")
    assert declared["$defs"]["Point"]["properties"] == {"x": {"type": "integer"}}
    out = plot.execute({"x": 2})
    assert out == ToolOutput([Text("plotted"), c.IMAGE], Point(2))
    with pytest.raises(StandardToolValidationError, match="output validation failed"):
        plot.execute({"x": -1})


def test_a_content_block_return_annotation_declares_no_output_schema() -> None:
    assert snapshot.output_schema is None
    assert snapshot.execute({}) == c.IMAGE


class Forecast(BaseModel):
    temp: float


def test_structured_output_wraps_any_standard_schema_for_the_builder() -> None:
    def forecast(city: object) -> ToolOutput[dict[str, object]]:
        return ToolOutput([c.IMAGE], {"temp": "21.5"} if city == "Oslo" else {"temp": "hot"})

    weather = standard_tool(
        name="weather",
        description="Forecast with a map.",
        execute=forecast,
        output_schema=structured_output(pydantic_schema(Forecast)),
    )
    assert weather.execute("Oslo") == ToolOutput([c.IMAGE], Forecast(temp=21.5))
    with pytest.raises(StandardToolValidationError, match="temp"):
        weather.execute("Rome")
    assert weather.output_schema is not None
    assert (
        "temp"
        in weather.output_schema.__standard__.json_schema.output(target="draft-07")["properties"]
    )


def test_an_async_output_schema_is_awaited_for_the_structured_part() -> None:
    class Later:
        class __standard__:  # the binding's attribute name
            version = 1
            vendor = "test"

            class json_schema:  # the binding's attribute name
                @staticmethod
                def input(*, target: str, library_options: object = None) -> dict[str, object]:
                    return {}

                output = input

            @staticmethod
            async def validate(value: object) -> object:
                class Ok:
                    issues = None

                ok = Ok()
                ok.value = {"seen": value}  # type: ignore[attr-defined]
                return ok

    async def run() -> object:
        async def handler() -> ToolOutput[object]:
            return ToolOutput([Text("t")], 1)

        made = standard_tool(
            name="later", description="d", execute=handler, output_schema=structured_output(Later)
        )
        return await made.execute()

    assert asyncio.run(run()) == ToolOutput([Text("t")], {"seen": 1})


async def test_mcp_declares_the_structured_schema_and_sends_blocks_beside_it() -> None:
    with anyio.fail_after(60):
        async with Client(server([plot])) as client:
            listed = await client.list_tools()
            assert listed.tools[0].output_schema is not None
            result = await client.call_tool("plot", {"x": 3})
    assert [b.type for b in result.content] == ["text", "image"]
    assert result.structured_content == {"x": 3}
