"""CAMEL bridge: our tools in a CAMEL ``ChatAgent``'s own loop, and CAMEL tools as ours.

The agent's model is CAMEL's OpenAI-compatible backend, talking to the scripted
Chat Completions model of tests/fakes/server.py on 127.0.0.1. The scripted model
asks for a good call, a refused call and a failing tool in one turn, then reads
what the tools answered.
"""

from __future__ import annotations

import asyncio
import doctest
import io
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from camel.agents import ChatAgent
from camel.models import ModelFactory
from camel.toolkits import FunctionTool
from camel.types import ModelPlatformType
from camel.utils import BaseTokenCounter
from camel.utils.tool_result import ToolResult as CamelToolResult
from tests.env_checks import BROKEN_SCHEMA, check_refused_naming
from tests.fakes.server import FakeModel, serve_fake_model
from tests_integration.five_frameworks.chat import (
    answer,
    calls,
    expect_turn,
    explode,
    forecast,
    sent_tools,
    snapshot,
    tag_count,
    tool_messages,
)

from standard_tool import (
    DuplicateToolNameError,
    StandardToolValidationError,
    Toolkit,
    standard_tool,
    tool,
)
from standard_tool.content import Image, Text, ToolOutput
from standard_tool.integrations import camel as camel_bridge
from standard_tool.integrations.camel import (
    CamelToolError,
    StandardCamelTool,
    from_camel,
    to_camel,
)
from standard_tool.providers import ProviderSchemaError, to_openai_chat


@pytest.fixture
def model() -> Iterator[FakeModel]:
    with serve_fake_model() as fake:
        yield fake
        fake.verify()


class _Chars(BaseTokenCounter):
    """A token per four characters: CAMEL's default counter (tiktoken) downloads its tables."""

    def count_tokens_from_messages(self, messages: list[Any]) -> int:
        return sum(len(str(message.get("content") or "")) for message in messages) // 4 + 1

    def encode(self, text: str) -> list[int]:
        return [ord(c) for c in text]

    def decode(self, token_ids: list[int]) -> str:
        return "".join(map(chr, token_ids))


def _agent(fake: FakeModel, tools: list[Any]) -> ChatAgent:
    backend = ModelFactory.create(
        model_platform=ModelPlatformType.OPENAI_COMPATIBLE_MODEL,
        model_type="fake-model",
        url=f"{fake.base_url}/v1",
        api_key="test-key",
        token_counter=_Chars(),
    )
    return ChatAgent(system_message="Use the tools.", model=backend, tools=tools)


def _script_one_turn(model: FakeModel) -> None:
    def first(body: dict[str, Any]) -> None:
        sent = sent_tools(body)
        assert set(sent) == {"tag_count", "forecast", "explode"}
        for ours in (tag_count, forecast, explode):
            shown = to_openai_chat(ours, strict=False)["function"]["parameters"]
            assert sent[ours.name]["parameters"] == shown

    def second(body: dict[str, Any]) -> None:
        results = tool_messages(body)
        assert results["call_1"] == "2"
        assert results["call_2"].startswith("Error: input validation failed: days: ")
        assert results["call_3"] == "Error: RuntimeError: no such luck"

    turn = calls(
        ("call_1", "tag_count", {"tags": {"a": "1", "b": "2"}}),
        ("call_2", "forecast", {"city": "Paris", "days": "three"}),
        ("call_3", "explode", {"reason": "no such luck"}),
    )
    expect_turn(model, turn, first)
    expect_turn(model, answer("Two tags; no forecast."), second)


# -- the CAMEL agent loop -----------------------------------------------------------------


def test_a_good_call_a_rejected_call_and_a_raising_tool_in_one_step(model: FakeModel) -> None:
    _script_one_turn(model)
    agent = _agent(model, to_camel(Toolkit([tag_count, forecast, explode])))

    response = agent.step("Go.")

    assert response.msgs[0].content == "Two tags; no forecast."
    made = [record.tool_name for record in response.info["tool_calls"]]
    assert made == ["tag_count", "forecast", "explode"]


def test_the_same_turn_in_an_async_step(model: FakeModel) -> None:
    _script_one_turn(model)
    agent = _agent(model, to_camel([tag_count, forecast, explode]))

    response = asyncio.run(agent.astep("Go."))

    assert response.msgs[0].content == "Two tags; no forecast."


def test_a_sync_tool_runs_in_a_worker_thread_from_an_async_step(model: FakeModel) -> None:
    threads: list[int] = []

    @tool
    def where() -> str:
        """Say which thread runs the tool."""
        threads.append(threading.get_ident())
        return "here"

    async def main() -> Any:
        threads.append(threading.get_ident())  # the loop's thread
        return await _agent(model, [to_camel(where)]).astep("Go.")

    expect_turn(model, calls(("call_w", "where", {})))
    expect_turn(model, answer("done"), lambda body: tool_messages(body)["call_w"] == "here")

    assert asyncio.run(main()).msgs[0].content == "done"
    loop_thread, tool_thread = threads
    assert tool_thread != loop_thread


def _png() -> bytes:
    """A 1x1 PNG that Pillow (which CAMEL reads the images with) opens."""
    from PIL import Image as Pillow

    written = io.BytesIO()
    Pillow.new("RGB", (1, 1), "red").save(written, "PNG")
    return written.getvalue()


@tool
def photo() -> ToolOutput:
    """Take a real picture."""
    return ToolOutput([Text("A red dot:"), Image(_png(), "image/png")], {"rows": 1})


def test_a_cloned_agent_copies_the_tools_and_they_still_answer_our_text(model: FakeModel) -> None:
    """``ChatAgent.clone`` wraps each tool's ``func`` in a plain ``FunctionTool``."""
    _script_one_turn(model)
    clone = _agent(model, to_camel([tag_count, forecast, explode])).clone()
    copies = [clone._internal_tools[name] for name in ("forecast", "tag_count")]  # pyright: ignore[reportPrivateUsage]
    assert not any(isinstance(copy, StandardCamelTool) for copy in copies)

    response = asyncio.run(clone.astep("Go."))  # the scripted turn checks what the model read

    assert response.msgs[0].content == "Two tags; no forecast."
    assert copies[1](tags={"a": "1"}) == "1"


def test_a_rich_result_carries_its_images_to_the_model(model: FakeModel) -> None:
    seen: list[dict[str, Any]] = []
    expect_turn(model, calls(("call_s", "photo", {})))
    expect_turn(model, answer("a dot"), seen.append)

    assert _agent(model, [to_camel(photo)]).step("Look.").msgs[0].content == "a dot"

    (body,) = seen
    assert tool_messages(body)["call_s"] == 'A red dot:\n{"rows": 1}'
    # CAMEL shows the image in a message of its own after the tool's answer.
    shown = [
        part
        for message in body["messages"]
        if isinstance(message.get("content"), list)
        for part in message["content"]
        if part.get("type") == "image_url"
    ]
    assert len(shown) == 1
    assert shown[0]["image_url"]["url"].startswith("data:image/")


# -- to_camel -------------------------------------------------------------------------------


def test_the_tool_schema_is_the_declaration_and_calls_answer_our_text() -> None:
    bridged = to_camel(forecast)

    assert isinstance(bridged, StandardCamelTool)
    assert bridged.standard_tool is forecast
    assert bridged.get_openai_tool_schema() == to_openai_chat(forecast, strict=False)
    assert bridged.is_async
    assert json.loads(bridged(city="Paris", days=2)) == {"city": "Paris", "days": 2, "sky": "clear"}
    refused = asyncio.run(bridged.async_call(city="Paris", days="two"))
    assert refused.startswith("Error: input validation failed: days: expected integer")
    assert bridged("Paris", 2) == (
        "Error: input validation failed: 2 positional arguments given; pass every "
        "argument by name (the input is an object)"
    )


def test_a_toolkit_becomes_a_list_in_order_and_names_are_checked() -> None:
    bridged = to_camel(Toolkit([forecast, tag_count]))
    assert [t.get_function_name() for t in bridged] == ["forecast", "tag_count"]

    twin = standard_tool(name="forecast", description="Again.", execute=lambda: 1)
    with pytest.raises(DuplicateToolNameError, match="CAMEL bridge: duplicate tool names"):
        to_camel([forecast, twin])
    spaced = standard_tool(name="two words", description="Bad name.", execute=lambda: 1)
    with pytest.raises(ProviderSchemaError, match="not accepted by the CAMEL bridge"):
        to_camel(spaced)


def test_a_rich_result_is_a_camel_tool_result_and_text_when_it_has_no_images() -> None:
    made = to_camel(snapshot)()
    assert isinstance(made, CamelToolResult)
    assert made.text == 'The dashboard:\n{"rows": 3}'
    assert made.images == ["data:image/png;base64,iVBORw=="]

    @tool
    def words() -> ToolOutput:
        """Say two things."""
        return ToolOutput([Text("a"), Text("b")])

    assert to_camel(words)() == "a\nb"


def test_the_docstring_examples_run() -> None:
    failed, tried = doctest.testmod(camel_bridge)
    assert tried >= 4
    assert failed == 0


# -- from_camel -----------------------------------------------------------------------------


def shout(text: str, times: int) -> str:
    """Upper-case a text.

    Args:
        text: the text.
        times: how many times.
    """
    return " ".join([text.upper()] * times)


async def ashout(text: str) -> str:
    """Upper-case a text, asynchronously.

    Args:
        text: the text.
    """
    await asyncio.sleep(0)
    return text.upper()


def broken(reason: str) -> str:
    """Fail.

    Args:
        reason: why.
    """
    raise ValueError(reason)


def picture() -> CamelToolResult:
    """Take a picture."""
    return CamelToolResult("a dot", ["data:image/png;base64,iVBORw=="])


def test_a_camel_tool_becomes_a_standard_tool_validated_by_us() -> None:
    ours = from_camel(FunctionTool(shout))

    assert ours.name == "shout"
    assert ours.execute({"text": "hi", "times": 2}) == "HI HI"
    with pytest.raises(StandardToolValidationError, match="times: expected integer"):
        ours.execute({"text": "hi", "times": "2"})


def test_async_and_failing_camel_tools() -> None:
    assert asyncio.run(from_camel(FunctionTool(ashout)).execute({"text": "a"})) == "A"
    with pytest.raises(CamelToolError, match=r"CAMEL tool 'broken': .*no luck"):
        from_camel(FunctionTool(broken)).execute({"reason": "no luck"})


def test_a_camel_tool_result_with_images_comes_back_as_a_tool_output() -> None:
    got = from_camel(FunctionTool(picture)).execute({})
    assert got == ToolOutput([Text("a dot"), Image(b"\x89PNG", "image/png")])


def test_a_toolkit_runs_camel_tools_beside_ours() -> None:
    kit = Toolkit([from_camel(FunctionTool(shout)), tag_count])
    assert kit.execute("shout", {"text": "x", "times": 1}).value == "X"
    assert kit.execute("tag_count", {"tags": {"a": "1"}}).value == 1


def test_round_trip_gives_back_the_same_tool() -> None:
    assert from_camel(to_camel(forecast)) is forecast


def test_a_broken_schema_is_refused_naming_the_bridge_and_the_tool() -> None:
    schema = {"type": "function", "function": {"name": "odd_one", "parameters": BROKEN_SCHEMA}}
    check_refused_naming("from_camel", from_camel, FunctionTool(shout, openai_tool_schema=schema))


def test_the_readme_cell_camel_passes_the_models_arguments_unchecked() -> None:
    """README: CAMEL's own ``FunctionTool`` validates nothing: ``"3"`` reaches an ``int``."""
    got: list[Any] = []

    def take(n: int) -> str:
        """Take a number.

        Args:
            n: the number.
        """
        got.append(n)
        return "ok"

    assert FunctionTool(take)(n="3") == "ok"
    assert got == ["3"]
