"""CONTRACT.md sections 1, 2 and 4: protocols, results, the consumer helpers."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest

from standard_tool import (
    FailureResult,
    Issue,
    PathSegment,
    StandardJSONSchemaV1,
    StandardSchemaV1,
    SuccessResult,
    ToolSchema,
    input_json_schema,
    is_standard_json_schema,
    is_standard_schema,
    is_standard_tool,
    output_json_schema,
    run_tool,
    run_tool_sync,
    standard_tool,
)
from tests.core_schemas import INT, POINT


class PlainTool:
    """A tool written without importing the package at all."""

    name = "shout"
    title = None
    description = "Upper-case a text."
    output_schema = None

    class input_schema:
        class __standard__:
            version = 1
            vendor = "hand-written"

            @staticmethod
            def validate(value: Any) -> Any:
                class Ok:
                    issues = None

                Ok.value = value  # type: ignore[attr-defined]
                return Ok()

            class json_schema:
                @staticmethod
                def input(*, target: str, library_options: Any = None) -> dict[str, Any]:
                    return {"type": "object", "properties": {"text": {"type": "string"}}}

                @staticmethod
                def output(*, target: str, library_options: Any = None) -> dict[str, Any]:
                    return {"type": "string"}

    def execute(self, input: Any = None, meta: Any = None) -> str:
        return str(input["text"]).upper()

    def formatted(self, format: Any = None) -> Any:
        return self


class AsyncPlainTool(PlainTool):
    async def execute(self, input: Any = None, meta: Any = None) -> str:  # type: ignore[override]
        await asyncio.sleep(0)
        return f"{input['text']}!{meta}"


def test_results_and_issues_are_frozen_slotted_dataclasses() -> None:
    for cls in (SuccessResult, FailureResult, Issue, PathSegment):
        assert dataclasses.is_dataclass(cls)
        assert "__slots__" in vars(cls)
    ok = SuccessResult(1)
    assert (ok.value, ok.issues) == (1, None)
    bad = FailureResult((Issue("m", ("a", 0)),))
    assert bad.value is None
    assert bad.issues[0].path == ("a", 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        ok.value = 2  # type: ignore[misc]
    assert Issue("m").path is None


def test_schema_predicates_and_runtime_protocols() -> None:
    assert is_standard_schema(INT)
    assert is_standard_json_schema(INT)
    assert isinstance(INT, StandardSchemaV1)
    assert isinstance(INT, StandardJSONSchemaV1)
    assert isinstance(INT, ToolSchema)
    assert is_standard_schema(PlainTool.input_schema)
    for bad in (None, 1, {}, object(), type("X", (), {"__standard__": None})()):
        assert not is_standard_schema(bad)
        assert not is_standard_json_schema(bad)


def test_is_standard_tool_accepts_built_and_plain_tools() -> None:
    built = standard_tool(name="a", description="d", input_schema=INT, execute=lambda: 1)
    assert is_standard_tool(built)
    assert is_standard_tool(built.formatted())
    assert is_standard_tool(PlainTool())
    assert not is_standard_tool(object())
    assert not is_standard_tool(INT)

    class NoFormatted(PlainTool):
        """Today's interface has no ``formatted``: a tool without it is still a tool."""

        formatted = None  # type: ignore[assignment]

    assert is_standard_tool(NoFormatted())

    class UpstreamShaped:
        """The proposal's shape with every optional member absent."""

        name = "ping"
        description = "Answer pong."

        def execute(self) -> str:
            return "pong"

    assert is_standard_tool(UpstreamShaped())
    assert input_json_schema(UpstreamShaped()) == {"type": "object", "properties": {}}

    class NotCallable(PlainTool):
        execute = None  # type: ignore[assignment]

    class BadTitle(PlainTool):
        title = 3  # type: ignore[assignment]

    class BadSchema(PlainTool):
        input_schema = object()  # type: ignore[assignment]

    class BadName(PlainTool):
        name = 3  # type: ignore[assignment]

    for cls in (NotCallable, BadTitle, BadSchema, BadName):
        assert not is_standard_tool(cls())


def test_input_json_schema_for_a_plain_tool_and_the_empty_default() -> None:
    assert input_json_schema(PlainTool())["properties"] == {"text": {"type": "string"}}
    bare = standard_tool(name="a", description="d", execute=lambda: 1)
    schema = input_json_schema(bare)
    assert schema == {"type": "object", "properties": {}}
    schema["mutated"] = True
    assert input_json_schema(bare) == {"type": "object", "properties": {}}
    assert output_json_schema(bare) is None


def test_json_schema_helpers_pass_the_target_and_refuse_unknown_ones() -> None:
    tool = standard_tool(
        name="a", description="d", input_schema=POINT, output_schema=INT, execute=lambda: 1
    )
    assert input_json_schema(tool, target="draft-07")["required"] == ["x", "y"]
    assert output_json_schema(tool, target="openapi-3.0") == {"type": "integer"}
    with pytest.raises(ValueError, match="unsupported target"):
        input_json_schema(tool, target="draft-03")


async def test_run_tool_awaits_async_tools_and_passes_sync_results() -> None:
    assert await run_tool(PlainTool(), {"text": "hi"}) == "HI"
    assert await run_tool(AsyncPlainTool(), {"text": "hi"}, "m") == "hi!m"


def test_run_tool_sync_runs_async_tools_in_a_new_loop() -> None:
    assert run_tool_sync(PlainTool(), {"text": "x"}) == "X"
    assert run_tool_sync(AsyncPlainTool(), {"text": "x"}, 1) == "x!1"


async def test_run_tool_sync_inside_a_running_loop_says_to_use_run_tool() -> None:
    with pytest.raises(RuntimeError, match=r"use `await run_tool\(\.\.\.\)`"):
        run_tool_sync(AsyncPlainTool(), {"text": "x"})
    # A synchronous tool is fine from inside a loop.
    assert run_tool_sync(PlainTool(), {"text": "x"}) == "X"


def test_formatted_of_a_plain_tool_is_its_own_business() -> None:
    tool = PlainTool()
    assert tool.formatted() is tool


def test_run_tool_calls_an_execute_that_takes_no_argument() -> None:
    """A no-input tool of the proposal's shape defines ``execute()``; the helpers call it so."""

    class Ping:
        name = "ping"
        description = "Answer pong."

        def execute(self) -> str:
            return "pong"

    class Echo:
        name = "echo"
        description = "Echo."

        def execute(self, input: object) -> object:
            return input

    assert run_tool_sync(Ping()) == "pong"
    assert asyncio.run(run_tool(Ping())) == "pong"
    assert run_tool_sync(Echo(), 3) == 3
    with pytest.raises(TypeError, match="'ping': its execute takes 0 argument"):
        run_tool_sync(Ping(), 1)
    with pytest.raises(TypeError, match="cannot be given meta"):
        run_tool_sync(Echo(), 1, {"user": "u"})
