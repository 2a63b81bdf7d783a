"""CONTRACT.md section 3, items 6 and 7: ``formatted()`` and non-stacking."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import pytest

from standard_tool import Issue, StandardToolValidationError, standard_tool
from tests.core_schemas import INT, POINT


def double(n: int) -> int:
    return n * 2


async def adouble(n: int) -> int:
    await asyncio.sleep(0)
    return n * 2


TOOL = standard_tool(
    name="double",
    title="Double",
    description="d",
    input_schema=INT,
    output_schema=INT,
    execute=double,
)
ATOOL = standard_tool(name="adouble", description="d", input_schema=INT, execute=adouble)


def test_formatted_keeps_name_title_description_and_schemas() -> None:
    f = TOOL.formatted()
    assert (f.name, f.title, f.description) == ("double", "Double", "d")
    assert f.input_schema is TOOL.input_schema
    assert f.output_schema is TOOL.output_schema
    assert f is not TOOL


def test_default_format_returns_output_or_error_envelope() -> None:
    f = TOOL.formatted()
    assert f.execute(2) == 4
    assert f.execute("x") == {"error": "input validation failed: expected an integer"}


def test_default_format_turns_handler_errors_into_data() -> None:
    def fail() -> None:
        raise RuntimeError("disk full")

    tool = standard_tool(name="f", description="d", execute=fail)
    assert tool.formatted().execute() == {"error": "disk full"}


def test_custom_format_receives_validated_output_or_the_exception() -> None:
    seen: list[Any] = []

    def fmt(result: int | Exception) -> str:
        seen.append(result)
        return f"error: {result}" if isinstance(result, Exception) else f"{result}!"

    f = TOOL.formatted(fmt)
    assert f.execute(5) == "10!"
    assert f.execute(None).startswith("error: input validation failed")
    assert seen[0] == 10
    assert isinstance(seen[1], StandardToolValidationError)


async def test_async_format_is_awaited_and_makes_execute_async() -> None:
    async def fmt(result: Any) -> Any:
        await asyncio.sleep(0)
        return ("formatted", result if not isinstance(result, Exception) else type(result).__name__)

    f = TOOL.formatted(fmt)
    assert inspect.iscoroutinefunction(f.execute)
    assert await f.execute(1) == ("formatted", 2)
    assert await f.execute("x") == ("formatted", "StandardToolValidationError")


async def test_async_tool_formatted_stays_async_and_formats_failures() -> None:
    f = ATOOL.formatted()
    assert inspect.iscoroutinefunction(f.execute)
    assert await f.execute(4) == 8
    assert await f.execute("x") == {"error": "input validation failed: expected an integer"}


def test_reformatting_replaces_instead_of_stacking() -> None:
    first = TOOL.formatted(lambda r: ("first", r))
    second = first.formatted(lambda r: ("second", r))
    assert second.execute(3) == ("second", 6)
    assert second.execute(3) == TOOL.formatted(lambda r: ("second", r)).execute(3)
    assert first.formatted().execute(3) == 6


async def test_reformatting_an_async_formatted_tool_back_to_sync_format() -> None:
    async def afmt(result: Any) -> Any:
        return ("async", result)

    back = TOOL.formatted(afmt).formatted(lambda r: ("sync", r))
    assert not inspect.iscoroutinefunction(back.execute)
    assert back.execute(1) == ("sync", 2)


def test_an_exception_raised_by_format_propagates_and_format_runs_once() -> None:
    calls: list[Any] = []

    def fmt(result: Any) -> Any:
        calls.append(result)
        raise ValueError("formatter broke")

    with pytest.raises(ValueError, match="formatter broke"):
        TOOL.formatted(fmt).execute(1)
    assert calls == [2]


async def test_async_format_exception_propagates_and_runs_once() -> None:
    calls: list[Any] = []

    async def fmt(result: Any) -> Any:
        calls.append(result)
        raise LookupError("async formatter broke")

    with pytest.raises(LookupError):
        await ATOOL.formatted(fmt).execute(1)
    assert calls == [2]


@pytest.mark.parametrize("exc", [KeyboardInterrupt, SystemExit, GeneratorExit])
def test_base_exceptions_are_never_swallowed(exc: type[BaseException]) -> None:
    def handler() -> None:
        raise exc()

    f = standard_tool(name="t", description="d", execute=handler).formatted()
    with pytest.raises(exc):
        f.execute()


async def test_cancellation_propagates_through_formatted() -> None:
    started = asyncio.Event()

    async def slow(value: Any) -> Any:
        started.set()
        await asyncio.sleep(60)

    f = standard_tool(name="slow", description="d", execute=slow).formatted()
    task = asyncio.ensure_future(f.execute(1))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_cancelled_error_raised_by_handler_is_not_formatted() -> None:
    async def handler() -> None:
        raise asyncio.CancelledError

    f = standard_tool(name="c", description="d", execute=handler).formatted()
    with pytest.raises(asyncio.CancelledError):
        await f.execute()


def test_formatted_output_schema_still_validates_before_formatting() -> None:
    tool = standard_tool(name="p", description="d", output_schema=POINT, execute=lambda v: v)
    f = tool.formatted(lambda r: r)
    result = f.execute({"x": 1})
    assert isinstance(result, StandardToolValidationError)
    assert result.target == "output"


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text for you")


def test_default_format_survives_an_exception_whose_str_raises() -> None:
    def fail() -> None:
        raise _Unprintable

    broken = standard_tool(name="broken", description="d", execute=fail).formatted()
    assert broken.execute() == {"error": "<_Unprintable object: str() failed>"}


def test_validation_message_survives_hostile_messages_and_paths() -> None:
    class Hostile:
        def __str__(self) -> str:
            raise ValueError("boom")

    err = StandardToolValidationError("input", [Issue(Hostile(), ("a\ud800b", 10**5000))])
    text = str(err)
    assert text.startswith("input validation failed: a\\ud800b.<int object: str() failed>: ")
    assert text.endswith("<Hostile object: str() failed>")
    text.encode("utf-8")  # a lone surrogate never reaches the text unescaped
