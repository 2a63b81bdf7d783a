"""LangChain's own standard tool tests (``langchain-tests``) on every kind of bridged tool.

``ToolsUnitTests`` and ``ToolsIntegrationTests`` run, unchanged, against the tool
kinds docs/langchain.md documents: sync, async, no input, returning ``None``,
with an output schema, OpenAI strict mode, a rich result, and a ``Toolkit``'s
tools. The integration tests invoke each tool with and without a ``ToolCall``,
sync and async, and refuse a ``content_and_artifact`` message without an artifact.
"""

from __future__ import annotations

from typing import Any, ClassVar

from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool
from langchain_tests.integration_tests import ToolsIntegrationTests
from langchain_tests.unit_tests import ToolsUnitTests
from typing_extensions import TypedDict

from standard_tool import Toolkit, ToolResult, tool
from standard_tool.content import Image, Text, ToolOutput
from standard_tool.integrations.langchain import to_langchain

PNG = b"\x89PNG\r\n\x1a\n"


@tool
def get_weather(city: str, unit: str = "c") -> str:
    """Current weather in a city."""
    return f"21 {unit} in {city}"


@tool
async def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def ping() -> str:
    """Answer pong."""
    return "pong"


@tool
def remember(note: str) -> None:
    """Keep a note; returns nothing."""


class Forecast(TypedDict):
    city: str
    days: list[int]


@tool
def forecast(city: str, days: int = 3) -> Forecast:
    """Forecast for a city."""
    return {"city": city, "days": list(range(days))}


@tool
def search(query: str, limit: int | None = None, tags: dict[str, str] | None = None) -> list[str]:
    """Search the notes."""
    return [query] * (limit or 1)


@tool
def snapshot(label: str) -> ToolOutput[Any]:
    """A picture with a caption."""
    return ToolOutput([Text(label), Image(PNG, "image/png")])


kit_tools = {t.name: t for t in to_langchain(Toolkit([get_weather, add, ping]))}


class _Kind:
    """Both suites on one bridged tool."""

    bridged: BaseTool
    example: ClassVar[dict[str, Any]] = {}

    @property
    def tool_constructor(self) -> BaseTool:
        return self.bridged

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return self.example


class TestSyncUnit(_Kind, ToolsUnitTests):
    bridged = to_langchain(get_weather)
    example: ClassVar[dict[str, Any]] = {"city": "Paris"}


class TestSyncIntegration(_Kind, ToolsIntegrationTests):
    bridged = TestSyncUnit.bridged
    example = TestSyncUnit.example


class TestAsyncUnit(_Kind, ToolsUnitTests):
    bridged = to_langchain(add)
    example: ClassVar[dict[str, Any]] = {"a": 1, "b": 2}


class TestAsyncIntegration(_Kind, ToolsIntegrationTests):
    bridged = TestAsyncUnit.bridged
    example = TestAsyncUnit.example


class TestNoInputUnit(_Kind, ToolsUnitTests):
    bridged = to_langchain(ping)


class TestNoInputIntegration(_Kind, ToolsIntegrationTests):
    bridged = TestNoInputUnit.bridged
    example = TestNoInputUnit.example


class TestReturnsNoneUnit(_Kind, ToolsUnitTests):
    bridged = to_langchain(remember)
    example: ClassVar[dict[str, Any]] = {"note": "milk"}


class TestReturnsNoneIntegration(_Kind, ToolsIntegrationTests):
    bridged = TestReturnsNoneUnit.bridged
    example = TestReturnsNoneUnit.example


class TestOutputSchemaUnit(_Kind, ToolsUnitTests):
    bridged = to_langchain(forecast)
    example: ClassVar[dict[str, Any]] = {"city": "Oslo", "days": 2}


class TestOutputSchemaIntegration(_Kind, ToolsIntegrationTests):
    bridged = TestOutputSchemaUnit.bridged
    example = TestOutputSchemaUnit.example


class TestStrictUnit(_Kind, ToolsUnitTests):
    bridged = to_langchain(search, strict=True)
    # The strict rewrite: every property required, the map as key/value entries.
    example: ClassVar[dict[str, Any]] = {
        "query": "q",
        "limit": 2,
        "tags": [{"key": "k", "value": "v"}],
    }


class TestStrictIntegration(_Kind, ToolsIntegrationTests):
    bridged = TestStrictUnit.bridged
    example = TestStrictUnit.example


class TestRichResultUnit(_Kind, ToolsUnitTests):
    bridged = to_langchain(snapshot)
    example: ClassVar[dict[str, Any]] = {"label": "a dot"}


class TestRichResultIntegration(_Kind, ToolsIntegrationTests):
    bridged = TestRichResultUnit.bridged
    example = TestRichResultUnit.example


class TestToolkitSyncUnit(_Kind, ToolsUnitTests):
    bridged = kit_tools["get_weather"]
    example: ClassVar[dict[str, Any]] = {"city": "Rome", "unit": "f"}


class TestToolkitSyncIntegration(_Kind, ToolsIntegrationTests):
    bridged = TestToolkitSyncUnit.bridged
    example = TestToolkitSyncUnit.example


class TestToolkitAsyncUnit(_Kind, ToolsUnitTests):
    bridged = kit_tools["add"]
    example: ClassVar[dict[str, Any]] = {"a": 2, "b": 3}


class TestToolkitAsyncIntegration(_Kind, ToolsIntegrationTests):
    bridged = TestToolkitAsyncUnit.bridged
    example = TestToolkitAsyncUnit.example


class TestToolkitNoInputUnit(_Kind, ToolsUnitTests):
    bridged = kit_tools["ping"]


class TestToolkitNoInputIntegration(_Kind, ToolsIntegrationTests):
    bridged = TestToolkitNoInputUnit.bridged
    example = TestToolkitNoInputUnit.example


def _answer(bridged: BaseTool, args: dict[str, Any]) -> ToolMessage:
    message = bridged.invoke({"type": "tool_call", "name": bridged.name, "args": args, "id": "c1"})
    assert isinstance(message, ToolMessage)
    return message


def test_each_kind_answers_with_its_artifact() -> None:
    """What the suites accept is what each kind really answers (not an error message)."""
    assert _answer(to_langchain(get_weather), {"city": "Paris"}).artifact == "21 c in Paris"
    assert _answer(to_langchain(add), {"a": 1, "b": 2}).artifact == 3
    assert _answer(to_langchain(ping), {}).artifact == "pong"
    none = _answer(to_langchain(remember), {"note": "milk"})
    assert (none.status, none.content) == ("success", "null")
    assert isinstance(none.artifact, ToolResult)
    assert (none.artifact.success, none.artifact.value, none.artifact.call_id) == (True, None, "c1")
    assert _answer(to_langchain(forecast), {"city": "Oslo", "days": 2}).artifact == {
        "city": "Oslo",
        "days": [0, 1],
    }
    strict = _answer(to_langchain(search, strict=True), TestStrictUnit.example)
    assert strict.artifact == ["q", "q"]
    rich = _answer(to_langchain(snapshot), {"label": "a dot"})
    assert isinstance(rich.artifact, ToolOutput)
    assert rich.content[0] == {"type": "text", "text": "a dot"}
