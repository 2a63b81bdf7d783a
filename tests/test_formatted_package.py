"""A package tool's ``formatted()`` (the fast layer's) answers as ``with_formatted_output``."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import pytest

from standard_tool import standard_tool, tool, with_formatted_output
from tests.core_schemas import INT


@tool
def halve(n: int) -> float:
    """Halve a number; 13 fails with a message that is not ASCII."""
    if n == 13:
        raise ValueError("unlucky \u00e9 \ud800")
    return n / 2


def _awaitable(n: int) -> Any:
    async def later() -> int:
        if n < 0:
            raise ValueError("negative")
        return n

    return later()


HALVE: Any = halve  # the tests compare untyped results
BUILT = standard_tool(name="later", description="d", input_schema=INT, execute=_awaitable)


def _tagged(result: object) -> object:
    return ("got", str(result) if isinstance(result, Exception) else result)


async def _settled(value: Any) -> Any:
    return await value


def _formats() -> list[Any]:
    return [None, _tagged]


@pytest.mark.parametrize("fmt", _formats())
@pytest.mark.parametrize("given", [4, "x", 13, None])
def test_a_function_tool_formats_as_the_core_does(fmt: Any, given: Any) -> None:
    fast: Any = HALVE.formatted(fmt)
    core: Any = with_formatted_output(halve, fmt)
    assert fast.execute({"n": given}) == core.execute({"n": given})
    assert fast.execute({"n": given}) == with_formatted_output(halve, fmt).execute({"n": given})
    assert isinstance(fast, type(core))  # the package's subclass of the core's class
    assert (fast.name, fast.title, fast.description) == (core.name, core.title, core.description)
    assert (fast.input_schema, fast.output_schema) == (core.input_schema, core.output_schema)
    assert repr(fast) == repr(core)


@pytest.mark.parametrize("fmt", _formats())
@pytest.mark.parametrize("given", [3, -1])
def test_a_sync_tool_returning_an_awaitable_is_formatted_once_awaited(fmt: Any, given: int) -> None:
    fast: Any = BUILT.formatted(fmt)
    core: Any = with_formatted_output(BUILT, fmt)
    got, expected = fast.execute(given), core.execute(given)
    assert inspect.isawaitable(got)
    assert inspect.isawaitable(expected)
    assert asyncio.run(_settled(got)) == asyncio.run(_settled(expected))


def test_what_the_format_raises_propagates_and_a_base_exception_too() -> None:
    def broken(result: object) -> object:
        raise RuntimeError("format failed")

    with pytest.raises(RuntimeError, match="format failed"):
        halve.formatted(broken).execute({"n": 2})

    def interrupt(input: Any) -> Any:
        raise KeyboardInterrupt

    stopped: Any = standard_tool(name="stop", description="d", input_schema=INT, execute=interrupt)
    with pytest.raises(KeyboardInterrupt):
        stopped.formatted().execute(1)


def test_formatted_does_not_stack_and_an_async_format_stays_async() -> None:
    once = halve.formatted(lambda r: ("first", r)).formatted()
    assert once.execute({"n": 4}) == 2.0

    async def afmt(result: object) -> object:
        return ("async", result)

    got = halve.formatted(afmt).execute({"n": 4})
    assert asyncio.run(_settled(got)) == ("async", 2.0)
