"""The TypeScript proposal's own tests (July 2026: index, adapters, trpc-example), in Python.

Written from what each upstream test checks, with pydantic in the role of Zod
(a library that is both a Standard Schema and a Standard JSON Schema through the
package's adapters), msgspec and JSON Schema in the roles of ArkType and Valibot,
and a ``pydantic.validate_call`` function in the role of an RPC procedure. Their
type-level ``expectType`` cases are in ``typing_tests/test_upstream_typing.py``.
Where Python differs on purpose (docs/contract.md, "Where Python differs"): a
thrown non-error value has no Python counterpart (only exceptions are raised) and
a ``BaseException`` that is not an ``Exception`` propagates; a sync tool stays sync;
``title`` reads as ``None`` when absent; ``this`` has no counterpart (a bound method
is the handler).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pydantic
import pytest
from pydantic import BaseModel

from standard_tool import (
    Issue,
    PathSegment,
    StandardToolV0,
    StandardToolValidationError,
    SuccessResult,
    input_json_schema,
    run_tool,
    standard_tool,
    with_formatted_output,
)
from standard_tool.schemas.jsonschema import from_json_schema
from standard_tool.schemas.msgspec import msgspec_schema

README = Path(__file__).parent.parent / "README.md"


class City(BaseModel):
    city: str


class Temp(BaseModel):
    temp_c: float


async def _sunny(place: City) -> dict[str, float]:
    return {"temp_c": 21}


weather = standard_tool(
    name="get_weather",
    description="Current temperature for a city",
    input_schema=City,
    output_schema=Temp,
    execute=_sunny,
)

echo = standard_tool(name="echo", description="adds one", execute=lambda d: {"y": d["x"] + 1})


def _greet(person: dict[str, str], meta: dict[str, str]) -> str:
    return f"bonjour {person['name']}" if meta["locale"] == "fr" else f"hi {person['name']}"


greet = standard_tool(
    name="greet",
    description="greets a person in the caller-supplied locale",
    input_schema={"type": "object", "properties": {"name": {"type": "string"}}},
    execute=_greet,
)
now = standard_tool(
    name="now", description="current timestamp", execute=lambda: {"iso": "2026-01-01T00:00:00Z"}
)


def to_str(result: Temp | Exception) -> str:
    return f"error: {result}" if isinstance(result, Exception) else f"ok: {result.temp_c:g}"


def to_mcp_result(result: object) -> dict[str, Any]:
    if isinstance(result, Exception):
        return {"content": [{"type": "text", "text": str(result)}], "isError": True}
    if isinstance(result, str):
        return {"content": [{"type": "text", "text": result}]}
    data = result.model_dump() if isinstance(result, BaseModel) else result
    text = json.dumps(data, separators=(",", ":"))
    if isinstance(data, dict):
        return {"content": [{"type": "text", "text": text}], "structuredContent": data}
    return {"content": [{"type": "text", "text": text}]}


weather_str = with_formatted_output(weather, to_str)
mcp_weather = with_formatted_output(weather, to_mcp_result)


# -- index.test.ts ---------------------------------------------------------------------


def test_a_built_tool_exposes_exactly_the_neutral_shape() -> None:
    public = {n for n in dir(weather) if not n.startswith("_")}
    neutral = {"description", "execute", "input_schema", "name", "output_schema", "title"}
    assert neutral <= public
    assert public - neutral <= {"formatted", "stream", "timeout", "metadata"}  # documented


def test_the_optional_title_is_passed_through_and_reads_none_when_absent() -> None:
    assert weather.title is None
    titled = standard_tool(name="titled", title="Titled Tool", description="d", execute=lambda: 1)
    assert titled.title == "Titled Tool"


async def test_neutral_execute_returns_the_validated_value() -> None:
    assert await weather.execute({"city": "Paris"}) == Temp(temp_c=21)


def test_a_parameterless_handler_makes_execute_argument_free() -> None:
    assert now.execute() == {"iso": "2026-01-01T00:00:00Z"}
    assert now.execute(None) == {"iso": "2026-01-01T00:00:00Z"}


def test_the_input_json_schema_is_exposed_through_standard_json_schema() -> None:
    schema = weather.input_schema
    assert schema is not None
    emitted = schema.__standard__.json_schema.input(target="draft-2020-12")
    assert emitted["type"] == "object"
    assert emitted["required"] == ["city"]


async def test_invalid_input_raises_the_validation_error_with_its_path() -> None:
    with pytest.raises(StandardToolValidationError) as caught:
        await weather.execute({"city": 123})
    err = caught.value
    assert err.target == "input"
    assert str(err).startswith("input validation failed:")
    assert "city: " in str(err)
    assert tuple(err.issues[0].path or ()) == ("city",)


async def test_invalid_output_raises_the_validation_error_for_output() -> None:
    async def hot(place: City) -> dict[str, str]:
        return {"temp_c": "hot"}

    bad = standard_tool(
        name="bad", description="wrong shape", input_schema=City, output_schema=Temp, execute=hot
    )
    with pytest.raises(StandardToolValidationError) as caught:
        await bad.execute({"city": "Paris"})
    assert caught.value.target == "output"


async def test_what_the_handler_raises_propagates_unwrapped() -> None:
    async def kaboom(place: City) -> Temp:
        raise RuntimeError("kaboom")

    boom = standard_tool(name="boom", description="d", input_schema=City, execute=kaboom)
    with pytest.raises(RuntimeError, match=r"^kaboom$") as caught:
        await boom.execute({"city": "Paris"})
    assert not isinstance(caught.value, StandardToolValidationError)


def test_validation_is_skipped_when_the_schemas_are_omitted() -> None:
    assert echo.input_schema is None
    assert echo.output_schema is None
    assert echo.execute({"x": 1}) == {"y": 2}


def test_without_input_schema_the_input_passes_through() -> None:
    assert now.execute(None) == {"iso": "2026-01-01T00:00:00Z"}
    assert with_formatted_output(now).execute(None) == {"iso": "2026-01-01T00:00:00Z"}


def test_meta_is_forwarded_verbatim_to_the_handler_and_after_formatting() -> None:
    assert greet.execute({"name": "Ada"}, {"locale": "en"}) == "hi Ada"
    assert with_formatted_output(greet).execute({"name": "Bob"}, {"locale": "fr"}) == "bonjour Bob"


def test_the_bare_protocol_holds_heterogeneous_tools() -> None:
    tools: list[StandardToolV0] = [weather, echo, greet, weather_str]
    assert len(tools) == 4


class _AsyncFinite:
    """A schema whose ``validate`` is async (Zod's async ``refine``)."""

    class __standard__:
        version = 1
        vendor = "tests"

        @staticmethod
        async def validate(value: Any) -> Any:
            await asyncio.sleep(0)
            if isinstance(value, (int, float)) and value not in (float("inf"), float("-inf")):
                return SuccessResult(value)
            return _failure("must be finite")

        class json_schema:
            @staticmethod
            def input(*, target: str, library_options: Any = None) -> dict[str, Any]:
                return {"type": "number"}

            output = input


def _failure(message: str, path: tuple[Any, ...] | None = None) -> Any:
    from standard_tool import FailureResult

    return FailureResult((Issue(message, path),))


async def _twice(n: float) -> float:
    return n * 2


async def test_async_validators_are_awaited() -> None:
    double = standard_tool(
        name="double",
        description="doubles a number",
        input_schema=_AsyncFinite(),
        output_schema=_AsyncFinite(),
        execute=_twice,
    )
    assert await double.execute(21) == 42


async def test_without_a_format_success_is_the_output_and_failure_the_error_envelope() -> None:
    wrapped = with_formatted_output(weather)
    assert await run_tool(wrapped, {"city": "Paris"}) == Temp(temp_c=21)
    out = await run_tool(wrapped, {"city": 123})
    assert list(out) == ["error"]
    assert out["error"].startswith("input validation failed:")


async def test_a_format_reshapes_the_result_and_receives_failures() -> None:
    assert await run_tool(weather_str, {"city": "Paris"}) == "ok: 21"
    failed = await run_tool(weather_str, {"city": 123})
    assert failed.startswith("error: input validation failed:")


async def test_an_async_format_is_awaited() -> None:
    async def status(result: Temp | Exception) -> dict[str, str]:
        return {"status": str(result) if isinstance(result, Exception) else "ok"}

    wrapped = with_formatted_output(weather, status)
    assert await run_tool(wrapped, {"city": "Paris"}) == {"status": "ok"}
    out = await run_tool(wrapped, {"city": 123})
    assert out["status"].startswith("input validation failed:")


async def test_the_format_runs_once_and_what_it_raises_propagates() -> None:
    calls = 0

    def rethrowing(result: Temp | Exception) -> str:
        nonlocal calls
        calls += 1
        if not isinstance(result, Exception):
            raise RuntimeError("formatter rejected the success value")
        return f"formatted: {result}"

    with pytest.raises(RuntimeError, match="formatter rejected the success value"):
        await run_tool(with_formatted_output(weather, rethrowing), {"city": "Paris"})
    assert calls == 1  # never called again with its own error


async def test_an_async_format_that_raises_propagates_as_a_sync_one_does() -> None:
    async def rejecting(result: Temp | Exception) -> str:
        if not isinstance(result, Exception):
            raise RuntimeError("async formatter rejected")
        return "never"

    with pytest.raises(RuntimeError, match="async formatter rejected"):
        await run_tool(with_formatted_output(weather, rejecting), {"city": "Paris"})


async def test_a_format_can_reraise_what_it_does_not_turn_into_data() -> None:
    async def refused(place: City) -> Temp:
        raise ConnectionRefusedError("ECONNREFUSED")

    boom = standard_tool(name="boom", description="d", input_schema=City, execute=refused)

    def only_validation(result: Temp | Exception) -> Any:
        if isinstance(result, StandardToolValidationError):
            return {"error": str(result)}
        if isinstance(result, Exception):
            raise result
        return result

    wrapped = with_formatted_output(boom, only_validation)
    out = await run_tool(wrapped, {"city": 123})
    assert out["error"].startswith("input validation failed:")
    with pytest.raises(ConnectionRefusedError, match="ECONNREFUSED"):
        await run_tool(wrapped, {"city": "Paris"})


async def test_the_mcp_format_turns_an_object_into_text_and_structured_content() -> None:
    assert await run_tool(mcp_weather, {"city": "Paris"}) == {
        "content": [{"type": "text", "text": '{"temp_c":21.0}'}],
        "structuredContent": {"temp_c": 21.0},
    }


async def test_the_mcp_format_turns_a_validation_error_into_an_error_block() -> None:
    out = await run_tool(mcp_weather, {"city": 123})
    assert out["isError"] is True
    assert out["content"][0]["type"] == "text"
    assert out["content"][0]["text"].startswith("input validation failed:")
    assert "structuredContent" not in out


async def test_one_neutral_tool_is_formatted_by_each_consumer_independently() -> None:
    assert (await run_tool(mcp_weather, {"city": "Paris"}))["content"][0]["text"] == (
        '{"temp_c":21.0}'
    )
    assert await run_tool(with_formatted_output(weather, to_str), {"city": "Paris"}) == "ok: 21"
    assert await weather.execute({"city": "Paris"}) == Temp(temp_c=21)  # still neutral


class _Greeter:
    prefix = "self"

    def say(self, text: str) -> str:
        return f"{self.prefix}: {text}"


def test_a_bound_method_handler_keeps_its_instance() -> None:
    """``this`` in the TypeScript test: in Python the handler is a bound method."""
    method = standard_tool(name="self", description="reads self", execute=_Greeter().say)
    assert method.execute("hi") == "self: hi"
    assert with_formatted_output(method).execute("hi") == "self: hi"


class _Strict(BaseModel):
    model_config = pydantic.ConfigDict(extra="ignore")
    city: str


async def test_execute_returns_the_validated_values_not_the_raw_ones() -> None:
    received: list[Any] = []

    async def handler(place: _Strict) -> dict[str, Any]:
        received.append(place)
        return {"temp_c": 21, "extra": "junk"}

    strict = standard_tool(
        name="strict",
        description="echoes through schemas",
        input_schema=_Strict,
        output_schema=Temp,
        execute=handler,
    )
    # pydantic drops unknown keys: the handler sees the validated input, the caller
    # the validated output.
    assert await strict.execute({"city": "Paris", "junk": 1}) == Temp(temp_c=21)
    assert received == [_Strict(city="Paris")]


class _Failing:
    class __standard__:
        version = 1
        vendor = "test"

        @staticmethod
        def validate(value: Any) -> Any:
            from standard_tool import FailureResult

            return FailureResult(
                (Issue("bad leaf", ("a", PathSegment("b"), 0)), Issue("top-level"))
            )

        class json_schema:
            @staticmethod
            def input(*, target: str, library_options: Any = None) -> dict[str, Any]:
                return {"type": "object"}

            output = input


def test_messages_render_nested_and_segment_paths_and_join_issues() -> None:
    paths = standard_tool(
        name="paths", description="d", input_schema=_Failing(), execute=lambda v: "never"
    )
    with pytest.raises(StandardToolValidationError) as caught:
        paths.execute({"a": "x"})
    assert type(caught.value).__name__ in ("StandardToolValidationError", "DeferredValidationError")
    assert str(caught.value) == "input validation failed: a.b.0: bad leaf; top-level"


async def test_an_output_failure_becomes_data_through_with_formatted_output() -> None:
    async def hot(place: City) -> dict[str, str]:
        return {"temp_c": "hot"}

    bad = standard_tool(
        name="bad", description="d", input_schema=City, output_schema=Temp, execute=hot
    )
    out = await run_tool(with_formatted_output(bad), {"city": "Paris"})
    assert out["error"].startswith("output validation failed:")


def test_a_handler_exception_becomes_the_default_envelope() -> None:
    def refused() -> float:
        raise ConnectionRefusedError("ECONNREFUSED")

    boom = standard_tool(name="boom", description="d", execute=refused)
    assert with_formatted_output(boom).execute(None) == {"error": "ECONNREFUSED"}


def test_a_base_exception_that_is_not_an_exception_propagates() -> None:
    """Python's counterpart of a thrown non-error value: it is not turned into data."""

    def interrupted() -> float:
        raise KeyboardInterrupt

    def cancelled() -> float:
        raise asyncio.CancelledError

    for handler in (interrupted, cancelled):
        tool = standard_tool(name="t", description="d", execute=handler)
        with pytest.raises((KeyboardInterrupt, asyncio.CancelledError)):
            with_formatted_output(tool).execute(None)


async def test_an_async_validator_failure_raises_and_becomes_data_when_formatted() -> None:
    double = standard_tool(
        name="double", description="d", input_schema=_AsyncFinite(), execute=_twice
    )
    with pytest.raises(StandardToolValidationError) as caught:
        await double.execute(float("inf"))
    assert caught.value.target == "input"
    out = await run_tool(with_formatted_output(double), float("inf"))
    assert out["error"].startswith("input validation failed:")


def test_with_formatted_output_keeps_every_field_by_identity_and_replaces_execute() -> None:
    wrapped = with_formatted_output(weather)
    assert wrapped.name is weather.name
    assert wrapped.description is weather.description
    assert wrapped.input_schema is weather.input_schema
    assert wrapped.output_schema is weather.output_schema
    assert wrapped.execute != weather.execute


def test_meta_is_forwarded_by_identity_through_the_builder_and_the_envelope() -> None:
    seen: list[Any] = []

    def spy(value: Any, meta: Any) -> int:
        seen.append(meta)
        return 0

    built = standard_tool(name="spy", description="records meta", execute=spy)
    m = {"k": 1}
    built.execute(None, m)
    with_formatted_output(built).execute(None, m)
    assert seen[0] is m
    assert seen[1] is m


# -- adapters.test.ts: one schema reused by an existing procedure and by the tool ------


@pydantic.validate_call
def get_weather_procedure(place: City) -> Temp:
    """The procedure you already have: pydantic validates its argument itself."""
    return Temp(temp_c=21)


def test_a_msgspec_schema_serves_the_procedure_and_the_tool() -> None:
    import msgspec

    class CityStruct(msgspec.Struct):
        city: str

    city_input = msgspec_schema(CityStruct)

    def procedure(place: CityStruct) -> dict[str, int]:
        return {"temp_c": 21}

    tool = standard_tool(
        name="get_weather",
        description="Current temperature for a city",
        input_schema=city_input,
        execute=procedure,
    )
    assert tool.execute({"city": "Paris"}) == {"temp_c": 21}
    emitted = input_json_schema(tool)
    assert (emitted["type"], emitted["required"]) == ("object", ["city"])


def test_a_json_schema_serves_the_procedure_and_the_tool() -> None:
    city_input = from_json_schema(
        {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    )
    tool = standard_tool(
        name="get_weather",
        description="Current temperature for a city",
        input_schema=city_input,
        execute=lambda place: get_weather_procedure(place),
    )
    assert tool.execute({"city": "Paris"}) == Temp(temp_c=21)
    emitted = input_json_schema(tool)
    assert (emitted["type"], emitted["required"]) == ("object", ["city"])


class WeatherClient:
    """A client whose methods validate their arguments (oRPC's router client)."""

    @pydantic.validate_call
    def get_weather(self, place: City) -> Temp:
        return Temp(temp_c=21)


def test_a_validated_client_method_is_the_same_recipe() -> None:
    tool = standard_tool(
        name="get_weather",
        description="Current temperature for a city",
        input_schema=City,
        execute=WeatherClient().get_weather,
    )
    assert tool.execute({"city": "Paris"}) == Temp(temp_c=21)


def test_a_no_input_procedure_becomes_a_tool_whose_execute_needs_no_argument() -> None:
    @pydantic.validate_call
    def now_procedure() -> dict[str, str]:
        return {"iso": "2026-01-01T00:00:00Z"}

    tool = standard_tool(name="now", description="current timestamp", execute=now_procedure)
    assert tool.input_schema is None
    assert tool.execute() == {"iso": "2026-01-01T00:00:00Z"}
    assert tool.execute(None) == {"iso": "2026-01-01T00:00:00Z"}


# -- trpc-example.test.ts: the README's "from procedures you already have" -------------

procedure_tool = standard_tool(
    name="get_weather",
    description="Current temperature for a city",
    input_schema=City,
    execute=lambda place: get_weather_procedure(place),
)


def test_execute_routes_through_the_procedure_and_returns_its_result() -> None:
    assert procedure_tool.execute({"city": "Paris"}) == Temp(temp_c=21)


def test_the_reused_schema_emits_json_schema_for_the_model() -> None:
    emitted = input_json_schema(procedure_tool)
    assert emitted["type"] == "object"
    assert emitted["required"] == ["city"]
    assert emitted["properties"]["city"]["type"] == "string"


def test_invalid_input_is_rejected_before_the_procedure_runs() -> None:
    with pytest.raises(StandardToolValidationError) as caught:
        procedure_tool.execute({"city": 123})
    assert caught.value.target == "input"
    assert "error" in with_formatted_output(procedure_tool).execute({"city": 123})


def test_the_procedure_validates_too_when_called_directly() -> None:
    with pytest.raises(pydantic.ValidationError):
        get_weather_procedure({"city": 123})  # type: ignore[arg-type]


def test_name_and_description_propagate() -> None:
    assert procedure_tool.name == "get_weather"
    assert procedure_tool.description == "Current temperature for a city"


def test_the_bare_procedure_as_execute_behaves_as_the_wrapped_form() -> None:
    bare = standard_tool(
        name="get_weather",
        description="Current temperature for a city",
        input_schema=City,
        execute=get_weather_procedure,
    )
    assert bare.execute({"city": "Paris"}) == Temp(temp_c=21)


def test_the_readme_procedure_recipe_uses_the_mechanism_tested_here() -> None:
    readme = README.read_text(encoding="utf-8")
    start = readme.index("### From procedures you already have")
    fence = readme.index("```python", start)
    block = readme[fence : readme.index("```\n", fence + 9)]
    for needle in (
        "@validate_call",
        "input_schema=City",
        "get_weather_procedure",
        "standard_tool(",
    ):
        assert needle in block, needle
