"""The package's ``standard_tool()``: what it adds to the core's builder (issues 22, 26).

``timeout=`` and ``metadata=`` are carried as ``@tool`` carries them, a generator
handler streams progress as under ``@tool``, and ``tool.stream(input, meta)``
exists. A built tool has the neutral shape plus what the package documents.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from standard_tool import (
    ProgressEvent,
    ResultEvent,
    ToolDefinitionError,
    Toolkit,
    optional_member,
    standard_tool,
    tool,
    with_formatted_output,
)
from standard_tool._core import standard_tool as core_standard_tool
from standard_tool.providers import to_openai_chat


def _slow(seconds: float) -> str:
    time.sleep(seconds)
    return "late"


def test_timeout_and_metadata_are_carried_as_tool_carries_them() -> None:
    built = standard_tool(
        name="slow",
        description="Sleep.",
        execute=_slow,
        timeout=0.05,
        metadata={"owner": "ops", "version": 3},
    )

    @tool(timeout=0.05, metadata={"owner": "ops", "version": 3})
    def slow(seconds: float) -> str:
        """Sleep."""
        return _slow(seconds)

    for each in (built, slow):
        assert each.timeout == 0.05
        assert dict(each.metadata) == {"owner": "ops", "version": 3}
        with pytest.raises(TypeError):
            each.metadata["owner"] = "x"  # type: ignore[index]
        assert "metadata" not in str(to_openai_chat(each))
    assert standard_tool(name="a", description="d", execute=lambda: 1).timeout is None
    assert dict(standard_tool(name="a", description="d", execute=lambda: 1).metadata) == {}


def test_the_toolkit_honours_the_deadline_of_a_built_tool() -> None:
    built = standard_tool(name="slow", description="Sleep.", execute=_slow, timeout=0.05)
    result = Toolkit([built]).execute("slow", 2.0)
    assert result.success is False
    assert "timed out" in str(result.error)
    assert Toolkit([built]).execute("slow", 0.0).value == "late"


def test_bad_timeout_and_metadata_are_definition_errors() -> None:
    with pytest.raises(ToolDefinitionError, match="timeout: must be a positive number"):
        standard_tool(name="a", description="d", execute=lambda: 1, timeout=0)
    with pytest.raises(ToolDefinitionError, match="metadata must be a mapping"):
        standard_tool(name="a", description="d", execute=lambda: 1, metadata=[1])  # type: ignore[arg-type]


def test_a_formatted_built_tool_keeps_timeout_and_metadata() -> None:
    built = standard_tool(
        name="slow", description="Sleep.", execute=_slow, timeout=1.5, metadata={"k": 1}
    )
    formatted = built.formatted()
    assert type(formatted) is type(built)
    assert formatted.timeout == 1.5
    assert dict(formatted.metadata) == {"k": 1}
    assert [type(e) for e in asyncio.run(_events(formatted, 0.0))] == [ResultEvent]
    assert optional_member(with_formatted_output(built), "timeout") == 1.5


async def _events(tool: Any, input: Any) -> list[Any]:
    return [event async for event in tool.stream(input)]


async def test_an_async_generator_handler_streams_progress_and_returns_its_last_value() -> None:
    async def count(n: int) -> AsyncIterator[int]:
        for i in range(1, n + 1):
            yield i

    built = standard_tool(name="count", description="Count.", execute=count)
    assert await built.execute(3) == 3  # not an un-iterated generator
    events = [event async for event in built.stream(3)]
    assert [e.data for e in events if isinstance(e, ProgressEvent)] == [1, 2, 3]
    assert isinstance(events[-1], ResultEvent)
    assert events[-1].value == 3


def test_a_generator_handler_is_drained_too() -> None:
    def steps(n: int) -> Iterator[str]:
        for i in range(n):
            yield f"step {i}"

    built = standard_tool(name="steps", description="Steps.", execute=steps)
    assert built.execute(2) == "step 1"


class _Handlers:
    async def fetch(self, n: int) -> int:
        return n

    def steps(self, n: int) -> Iterator[int]:
        yield from range(n + 1)


def test_a_method_handler_is_read_as_its_function_is() -> None:
    """Async and generator methods are told apart as the functions they bind."""
    handlers = _Handlers()
    fetched = standard_tool(name="fetch", description="Fetch.", execute=handlers.fetch)
    assert asyncio.run(fetched.execute(2)) == 2
    stepped = standard_tool(name="steps", description="Steps.", execute=handlers.steps)
    assert stepped.execute(2) == 2


def test_a_function_marked_as_a_coroutine_function_builds_an_async_tool() -> None:
    """``inspect.markcoroutinefunction`` (3.12+) makes a plain function count as async."""
    import inspect

    async def later(n: int) -> int:
        return n

    def handler(n: int) -> Any:
        return later(n)

    mark = getattr(inspect, "markcoroutinefunction", None)
    if mark is None:  # before 3.12 nothing marks a function: a plain one builds a sync tool
        assert not inspect.iscoroutinefunction(
            standard_tool(name="now", description="Now.", execute=lambda n: n).execute
        )
        return
    built = standard_tool(name="later", description="Later.", execute=mark(handler))
    assert inspect.iscoroutinefunction(built.execute)
    assert asyncio.run(built.execute(4)) == 4


def test_the_core_builder_refuses_a_generator_handler_at_definition() -> None:
    async def count(n: int) -> AsyncIterator[int]:
        yield n

    with pytest.raises(ToolDefinitionError, match="execute: must return its result"):
        core_standard_tool(name="count", description="Count.", execute=count)


async def test_stream_yields_the_result_of_a_plain_built_tool() -> None:
    double = standard_tool(name="double", description="Double.", execute=lambda n: 2 * n)
    events = [event async for event in double.stream(21)]
    assert [type(e) for e in events] == [ResultEvent]
    assert events[0].value == 42


def test_a_built_tool_has_the_neutral_shape_plus_what_the_package_documents() -> None:
    built = standard_tool(name="a", description="d", execute=lambda: 1)
    public = {name for name in dir(built) if not name.startswith("_")}
    neutral = {"name", "title", "description", "input_schema", "output_schema", "execute"}
    assert public == neutral | {"formatted", "stream", "timeout", "metadata"}
    core_built = core_standard_tool(name="a", description="d", execute=lambda: 1)
    assert {n for n in dir(core_built) if not n.startswith("_")} == neutral | {"formatted"}


def test_a_no_input_built_tool_runs_with_no_argument() -> None:
    built = standard_tool(name="now", description="Now.", execute=lambda: "2026")
    assert built.execute() == "2026"
    assert asyncio.run(_run_async(built)) == "2026"


async def _run_async(built: Any) -> Any:
    from standard_tool import run_tool

    return await run_tool(built)


def test_function_tools_and_formatted_tools_are_the_package_classes() -> None:
    from standard_tool import AsyncTool, Tool
    from standard_tool._core import Tool as CoreTool

    @tool(timeout=3, metadata={"k": "v"})
    def shout(text: str) -> str:
        """Shout."""
        return text.upper()

    @tool
    async def whisper(text: str) -> str:
        """Whisper."""
        return text.lower()

    assert isinstance(shout, Tool)
    assert isinstance(whisper, AsyncTool)
    for made in (shout.formatted(), shout.formatted(repr), whisper.formatted()):
        assert isinstance(made, (Tool, AsyncTool))
    assert shout.formatted().timeout == 3
    assert dict(shout.formatted(repr).metadata) == {"k": "v"}
    assert shout.formatted().execute({"text": "a"}) == "A"
    assert "text" in shout.formatted().execute({"text": 1})["error"]
    # The core's own builder still builds the core's classes (a vendored copy has no other).
    core_built = core_standard_tool(name="a", description="d", execute=lambda: 1)
    assert type(core_built) is CoreTool
    assert not isinstance(core_built, Tool)


def test_tool_classes_are_filled_as_their_constructor_fills_them() -> None:
    """The builder fills the slots itself only for classes that keep the core's ``__init__``."""
    from standard_tool import AsyncTool, Tool
    from standard_tool._fast import build_tool

    fields = ("name", "title", "description", "input_schema", "output_schema", "_neutral")
    built = standard_tool(name="a", description="d", execute=lambda x: x, timeout=2)
    called = Tool(name="a", title=None, description="d", input_schema=None, output_schema=None,
                  execute=built.execute)  # fmt: skip
    assert [getattr(built, f) for f in fields] == [getattr(called, f) for f in fields]
    assert (built.timeout, dict(built.metadata), built.execute(4)) == (2.0, {}, 4)

    inits: list[dict[str, Any]] = []

    class Counted(Tool[Any, Any, Any, Any]):  # its own ``__init__``: called, not bypassed
        __slots__ = ()

        def __init__(self, **fields: Any) -> None:
            inits.append(fields)
            super().__init__(**fields)

    class CountedAsync(AsyncTool[Any, Any, Any, Any]):
        __slots__ = ()

    classes = (Counted, CountedAsync)
    made = build_tool(name="b", description="d", execute=lambda x: x, classes=classes)
    assert type(made) is Counted
    assert made.execute(5) == 5
    assert [sorted(f) for f in inits] == [sorted({*fields[:-1], "execute"})]
    assert made._neutral is None  # pyright: ignore[reportPrivateUsage]
    assert repr(made) == "Counted(name='b', description='d')"
