"""AutoGen bridge: our tools in an ``AssistantAgent``'s own loop, and AutoGen tools as ours.

The agent's model is AutoGen's own test client, ``ReplayChatCompletionClient``: it
replays scripted results (tool calls, then an answer) and records what the agent
sent it, so the tests read the tool results the model was given from the client.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.messages import ToolCallExecutionEvent
from autogen_core import CancellationToken, FunctionCall
from autogen_core.models import (
    CreateResult,
    FunctionExecutionResultMessage,
    ModelInfo,
    RequestUsage,
)
from autogen_core.tools import FunctionTool
from autogen_ext.models.replay import ReplayChatCompletionClient
from tests.context_tools import whoami
from tests_integration.five_frameworks.chat import explode, forecast, tag_count

from standard_tool import StandardToolValidationError, standard_tool
from standard_tool.integrations.autogen import (
    AutoGenCall,
    StandardAutoGenTool,
    from_autogen,
    to_autogen,
)
from standard_tool.providers import to_openai_chat

USAGE = RequestUsage(prompt_tokens=10, completion_tokens=5)


def _calls(*made: tuple[str, str, Any]) -> CreateResult:
    content = [FunctionCall(id=i, name=n, arguments=json.dumps(a)) for i, n, a in made]
    return CreateResult(finish_reason="function_calls", content=content, usage=USAGE, cached=False)


def _answer(text: str) -> CreateResult:
    return CreateResult(finish_reason="stop", content=text, usage=USAGE, cached=False)


def _client(*results: CreateResult) -> ReplayChatCompletionClient:
    info = ModelInfo(
        vision=False,
        function_calling=True,
        json_output=False,
        family="unknown",
        structured_output=False,
    )
    return ReplayChatCompletionClient(list(results), model_info=info)


def _run(client: ReplayChatCompletionClient, tools: list[Any]) -> tuple[str, dict[str, Any]]:
    """Run one task; return the final answer and each call's result as the model read it."""
    agent = AssistantAgent("helper", model_client=client, tools=tools, max_tool_iterations=2)

    async def main() -> Any:
        return await agent.run(task="Go.")

    result = asyncio.run(main())
    read: dict[str, Any] = {}
    for message in result.messages:
        if isinstance(message, ToolCallExecutionEvent):
            read.update({r.call_id: r for r in message.content})
    # What the replay client was handed on its second request: the results it read.
    sent = client.create_calls[-1]["messages"]
    given = [m for m in sent if isinstance(m, FunctionExecutionResultMessage)]
    assert given, "the model never received the tool results"
    assert {r.call_id for r in given[-1].content} == set(read)
    return str(result.messages[-1].content), read


def test_the_agent_calls_well_badly_and_a_failing_tool_and_goes_on() -> None:
    client = _client(
        _calls(
            ("call_1", "tag_count", {"tags": {"a": "1", "b": "2"}}),
            ("call_2", "forecast", {"city": "Paris", "days": "three"}),
            ("call_3", "explode", {"reason": "no such luck"}),
        ),
        _answer("Two tags; no forecast."),
    )

    answer, read = _run(client, to_autogen([tag_count, forecast, explode]))

    assert answer == "Two tags; no forecast."
    sent = {t["name"]: t for t in client.create_calls[0]["tools"]}
    for ours in (tag_count, forecast, explode):
        shown = to_openai_chat(ours, strict=False)["function"]["parameters"]
        assert sent[ours.name]["parameters"] == shown
        assert sent[ours.name]["strict"] is False
    assert (read["call_1"].content, read["call_1"].is_error) == ("2", False)
    assert read["call_2"].is_error
    assert read["call_2"].content.startswith("Error: input validation failed: days: ")
    assert (read["call_3"].content, read["call_3"].is_error) == (
        "Error: RuntimeError: no such luck",
        True,
    )


def test_the_call_id_reaches_the_tool_context_and_the_token_reaches_meta() -> None:
    seen: list[Any] = []

    def record(input: Any, meta: Any) -> str:
        seen.append(meta)
        return "ok"

    probe = standard_tool(name="probe", description="Record the call.", execute=record)
    client = _client(
        _calls(("call_7", "whoami", {"sku": "A1"}), ("call_8", "probe", {})), _answer("done")
    )

    _, read = _run(client, to_autogen([whoami, probe], meta=lambda call: call))

    said = json.loads(read["call_7"].content)
    assert (said["call"], said["tool"], said["raw"]) == ("call_7", "whoami", {"sku": "A1"})
    (call,) = seen
    assert isinstance(call, AutoGenCall)
    assert call.call_id == "call_8"
    assert isinstance(call.cancellation_token, CancellationToken)


def test_a_cancelled_run_cancels_an_async_tool() -> None:
    started = asyncio.Event()

    async def wait(input: Any) -> str:
        started.set()
        await asyncio.sleep(60)
        return "late"

    slow = standard_tool(name="slow", description="Wait.", execute=wait)

    async def main() -> None:
        token = CancellationToken()
        task = asyncio.ensure_future(to_autogen(slow).run_json({}, token, call_id="c1"))
        token.link_future(task)
        await started.wait()
        token.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())


def test_a_cancelled_token_cancels_a_streamed_call() -> None:
    started = asyncio.Event()
    finished: list[str] = []

    async def wait(input: Any) -> str:
        started.set()
        await asyncio.sleep(60)
        finished.append("late")
        return "late"

    slow = standard_tool(name="slow", description="Wait.", execute=wait)

    async def main() -> None:
        token = CancellationToken()

        async def consume() -> list[Any]:
            stream = to_autogen(slow).run_json_stream({}, token, call_id="c1")
            return [event async for event in stream]

        task = asyncio.ensure_future(consume())
        await started.wait()
        token.cancel()  # the workbench does not link it to a stream tool: the tool does
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 30)

    asyncio.run(main())
    assert finished == []


# -- from_autogen -----------------------------------------------------------------------


def shout(text: str) -> str:
    return text.upper()


async def whisper(text: str) -> str:
    await asyncio.sleep(0)
    return text.lower()


def test_from_autogen_keeps_the_schema_and_runs_sync_and_async_tools() -> None:
    st = from_autogen(FunctionTool(shout, description="Upper-case a text."))
    assert st.input_schema is not None
    schema = st.input_schema.__standard__.json_schema.input(target="draft-2020-12")
    assert schema["properties"]["text"]["type"] == "string"
    assert schema["required"] == ["text"]
    assert asyncio.run(st.execute({"text": "hi"})) == "HI"
    quiet = from_autogen(FunctionTool(whisper, description="Lower-case a text."))
    assert asyncio.run(quiet.execute({"text": "HI"})) == "hi"
    with pytest.raises(StandardToolValidationError, match="text"):
        asyncio.run(st.execute({"text": 3}))


def test_a_bridged_tool_comes_back_as_itself_and_round_trips_in_an_agent() -> None:
    assert from_autogen(to_autogen(tag_count)) is tag_count
    st = from_autogen(FunctionTool(shout, description="Upper-case a text."))
    bridged = to_autogen(st)
    assert isinstance(bridged, StandardAutoGenTool)
    client = _client(
        _calls(("call_1", "shout", {"text": "hey"}), ("call_2", "shout", {"text": 3})),
        _answer("done"),
    )

    answer, read = _run(client, [bridged])

    assert answer == "done"
    assert read["call_1"].content == "HEY"
    assert read["call_2"].content.startswith("Error: input validation failed: text: ")


def test_autogens_own_function_tool_is_lax_as_the_readme_says() -> None:
    def double(n: int) -> int:
        return 2 * n

    native = FunctionTool(double, description="Double.")
    assert asyncio.run(native.run_json({"n": "3"}, CancellationToken())) == 6
    with pytest.raises(StandardToolValidationError, match="n: "):
        asyncio.run(from_autogen(native).execute({"n": "3"}))


def test_a_rich_result_is_its_bounded_text_naming_autogen() -> None:
    from tests_integration.five_frameworks.chat import snapshot, snapshot_text

    said = asyncio.run(to_autogen(snapshot).run_json({}, CancellationToken(), call_id="c1"))

    assert said == snapshot_text("AutoGen")


def test_progress_reports_arrive_among_the_agents_streamed_events() -> None:
    from standard_tool import ToolContext, tool
    from standard_tool.integrations.autogen import StandardToolProgress

    @tool
    async def count_up(n: int, ctx: ToolContext) -> str:
        """Count up to ``n``, reporting each step."""
        for step in range(1, n + 1):
            ctx.report_progress(step, n, f"step {step}")
        return "counted"

    client = _client(_calls(("call_1", "count_up", {"n": 2})), _answer("done"))
    agent = AssistantAgent("helper", model_client=client, tools=[to_autogen(count_up)])

    async def main() -> list[Any]:
        return [event async for event in agent.run_stream(task="Go.")]

    events = asyncio.run(main())

    progress = [e for e in events if isinstance(e, StandardToolProgress)]
    assert [(p.progress.progress, p.progress.total) for p in progress] == [(1, 2), (2, 2)]
    assert {(p.progress.call_id, p.source) for p in progress} == {("call_1", "count_up")}
    assert progress[0].to_text() == "count_up: 1/2 step 1"
    (done,) = [e for e in events if isinstance(e, ToolCallExecutionEvent)]
    assert [(r.call_id, r.content, r.is_error) for r in done.content] == [
        ("call_1", "counted", False)
    ]


def test_a_failing_call_streamed_is_an_error_result_and_the_agent_goes_on() -> None:
    client = _client(_calls(("call_1", "explode", {"reason": "no such luck"})), _answer("ok"))
    agent = AssistantAgent("helper", model_client=client, tools=[to_autogen(explode)])

    async def main() -> list[Any]:
        return [event async for event in agent.run_stream(task="Go.")]

    events = asyncio.run(main())

    (done,) = [e for e in events if isinstance(e, ToolCallExecutionEvent)]
    (result,) = done.content
    assert result.is_error
    assert "Error: RuntimeError: no such luck" in result.content
