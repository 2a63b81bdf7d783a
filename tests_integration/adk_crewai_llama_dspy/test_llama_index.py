"""LlamaIndex bridge: our tools in a LlamaIndex ``FunctionAgent``'s own loop, and back.

The agent runs on LlamaIndex's own test model, ``MockFunctionCallingLLM``, with a
scripted response generator: it checks the tools the agent hands the model (their
``to_openai_tool()`` form, what every LlamaIndex function-calling LLM sends), asks
for a good call, a rejected call and a raising tool, then reads the tool results
the agent sends back, each under its call id.

No ``from __future__ import annotations`` here: LlamaIndex reads the ``Context``
annotation of a tool function as the class itself.
"""

import asyncio
import json
import threading
from typing import Any

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.llms.mock import MockFunctionCallingLLM
from llama_index.core.tools import FunctionTool
from llama_index.core.workflow import Context
from tests.content_bounds import HUGE_OUTPUTS, assert_within_bound
from tests.context_tools import index, whoami
from tests.fakes.tools import PlainTool
from tests_integration.adk_crewai_llama_dspy.tools import explode, forecast, tag_count

from standard_tool import StandardToolValidationError, Toolkit, standard_tool
from standard_tool.content import ToolOutput as RichOutput
from standard_tool.integrations.llama_index import (
    LlamaIndexToolError,
    StandardLlamaIndexTool,
    StandardToolProgress,
    from_llama_index,
    to_llama_index,
)
from standard_tool.providers import to_openai_chat
from standard_tool.providers._text import OUTPUT_MAX_CHARS

Script = list[Any]


def _scripted(turns: Script, seen: list[list[ChatMessage]]) -> MockFunctionCallingLLM:
    """A test model answering each request with the next turn, after its check.

    The check gets the tools the agent offered: LlamaIndex 0.14.25 and later hand
    them to the response generator; older releases (the floor environment's) do
    not, so they are also read where the agent prepares the request.
    """
    pending = list(turns)
    offered: list[Any] = []

    class Scripted(MockFunctionCallingLLM):
        def _prepare_chat_with_tools(self, tools: Any, *args: Any, **kwargs: Any) -> Any:
            offered[:] = list(tools)
            return super()._prepare_chat_with_tools(tools, *args, **kwargs)

    def respond(messages: list[ChatMessage], **kwargs: Any) -> ChatMessage:
        seen.append(list(messages))
        check, calls, text = pending.pop(0)
        if check is not None:
            check(messages, kwargs.get("tools") or offered)
        if calls:
            blocks: list[Any] = [
                ToolCallBlock(tool_call_id=i, tool_name=n, tool_kwargs=a) for i, n, a in calls
            ]
            return ChatMessage(role=MessageRole.ASSISTANT, blocks=blocks)
        return ChatMessage(role=MessageRole.ASSISTANT, content=text)

    return Scripted(response_generator=respond)


def _results(messages: list[ChatMessage]) -> dict[str, str]:
    return {
        m.additional_kwargs["tool_call_id"]: str(m.content)
        for m in messages
        if m.role == MessageRole.TOOL
    }


def _run(llm: MockFunctionCallingLLM, tools: list[Any]) -> str:
    agent = FunctionAgent(tools=tools, llm=llm, system_prompt="Use the tools.")

    async def main() -> str:
        return str(await agent.run(user_msg="Go."))

    return asyncio.run(main())


# -- the LlamaIndex agent loop ------------------------------------------------------------


def test_a_good_call_a_rejected_call_and_a_raising_tool_in_one_turn() -> None:
    def first(messages: list[ChatMessage], tools: list[Any]) -> None:
        sent = {t.metadata.name: t.metadata.to_openai_tool()["function"] for t in tools}
        assert set(sent) == {"tag_count", "forecast", "explode"}
        for name, ours in [("tag_count", tag_count), ("forecast", forecast)]:
            declared = to_openai_chat(ours, strict=False)["function"]["parameters"]
            assert sent[name]["parameters"] == declared
        assert sent["forecast"]["parameters"]["additionalProperties"] is False

    def second(messages: list[ChatMessage], tools: list[Any]) -> None:
        results = _results(messages)
        assert results["call_1"] == "2"
        assert results["call_2"].startswith("Error: input validation failed: days: ")
        assert results["call_3"] == "Error: RuntimeError: no such luck"

    calls = [
        ("call_1", "tag_count", {"tags": {"a": "1", "b": "2"}}),
        ("call_2", "forecast", {"city": "Paris", "days": "three"}),
        ("call_3", "explode", {"reason": "no such luck"}),
    ]
    seen: list[list[ChatMessage]] = []
    llm = _scripted([(first, calls, None), (second, [], "Two tags; no forecast.")], seen)

    answer = _run(llm, to_llama_index(Toolkit([tag_count, forecast, explode])))

    assert answer == "Two tags; no forecast."
    assert len(seen) == 2


def test_the_workflow_context_reaches_the_tool_through_meta() -> None:
    contexts: list[Any] = []

    def record(input: Any, meta: Any) -> str:
        contexts.append(meta)
        return "ok"

    probe = standard_tool(name="probe", description="Record the call.", execute=record)
    answers: dict[str, str] = {}

    def second(messages: list[ChatMessage], tools: list[Any]) -> None:
        answers.update(_results(messages))

    seen: list[list[ChatMessage]] = []
    llm = _scripted(
        [
            (None, [("p1", "probe", {}), ("w1", "whoami", {"sku": "A-1"})], None),
            (second, [], "done"),
        ],
        seen,
    )

    _run(llm, to_llama_index([probe, whoami], meta=lambda ctx: ctx))

    assert answers["p1"] == "ok"
    assert isinstance(contexts[0], Context)
    who = json.loads(answers["w1"])
    assert (who["tool"], who["raw"]) == ("whoami", {"sku": "A-1"})


def test_progress_reaches_the_workflow_event_stream() -> None:
    answers: dict[str, str] = {}

    def second(messages: list[ChatMessage], tools: list[Any]) -> None:
        answers.update(_results(messages))

    llm = _scripted(
        [(None, [("i1", "index", {"files": ["a", "b"]})], None), (second, [], "done")], []
    )
    agent = FunctionAgent(tools=[to_llama_index(index)], llm=llm)

    async def main() -> list[Any]:
        handler = agent.run(user_msg="Index.")
        events = [e async for e in handler.stream_events() if isinstance(e, StandardToolProgress)]
        await handler
        return events

    events = asyncio.run(main())

    assert answers["i1"] == "2"
    assert [(e.progress.progress, e.progress.total, e.progress.message) for e in events] == [
        (1, 2, "indexed a"),
        (2, 2, "indexed b"),
    ]
    assert {e.progress.tool_name for e in events} == {"index"}


# -- to LlamaIndex --------------------------------------------------------------------------


def test_outputs_carry_the_value_and_the_error_flag() -> None:
    bridged = to_llama_index(tag_count)

    ok = bridged.call(tags={"a": "b"})
    bad = bridged.call(tags={"a": 1})

    assert (ok.content, ok.raw_output, ok.is_error) == ("1", 1, False)
    assert bad.is_error
    assert bad.content == "Error: input validation failed: tags.a: expected string, got integer 1"
    assert isinstance(bad.exception, StandardToolValidationError)


def test_a_sync_tool_runs_in_a_worker_thread_and_an_async_one_in_the_loop() -> None:
    threads: dict[str, int] = {}

    def sync_handler(input: Any) -> str:
        threads["sync"] = threading.get_ident()
        return "s"

    async def async_handler(input: Any) -> str:
        threads["async"] = threading.get_ident()
        return "a"

    sync_tool, async_tool = to_llama_index(
        [
            standard_tool(name="s", description="Sync.", execute=sync_handler),
            standard_tool(name="a", description="Async.", execute=async_handler),
        ]
    )

    async def main() -> list[str]:
        threads["loop"] = threading.get_ident()
        out = [str(await sync_tool.acall()), str(await async_tool.acall())]
        return [*out, str(sync_tool.call())]  # sync call inside a running loop

    assert asyncio.run(main()) == ["s", "a", "s"]
    assert threads["async"] == threads["loop"]
    assert threads["sync"] != threads["loop"]


def test_a_toolkit_becomes_a_list_in_order() -> None:
    bridged = to_llama_index(Toolkit([forecast, tag_count]))

    assert [t.metadata.name for t in bridged] == ["forecast", "tag_count"]
    assert isinstance(to_llama_index(forecast), StandardLlamaIndexTool)
    assert bridged[0].standard_tool is forecast
    assert bridged[0].metadata.description == forecast.description


# -- from LlamaIndex ------------------------------------------------------------------------


def shout(text: str, times: int) -> str:
    """Shout a text, ``times`` times."""
    return " ".join([text.upper()] * times)


async def remember(ctx: Context, key: str) -> str:
    """Store a key in the workflow's store."""
    await ctx.store.set("key", key)
    return f"stored {key}"


def test_a_llama_index_tool_becomes_a_standard_tool_validated_by_us() -> None:
    st = from_llama_index(FunctionTool.from_defaults(shout))

    assert st.name == "shout"
    assert "Shout a text" in st.description
    assert asyncio.run(st.execute({"text": "hi", "times": 2})) == "HI HI"
    with pytest.raises(StandardToolValidationError) as info:
        asyncio.run(st.execute({"text": "hi", "times": "2"}))
    assert info.value.target == "input"
    assert "times" in str(info.value)


def test_a_tool_that_takes_the_context_gets_it_from_meta() -> None:
    st = from_llama_index(FunctionTool.from_defaults(async_fn=remember))
    captured: list[Any] = []
    keep = standard_tool(
        name="keep", description="Keep the context.", execute=lambda i, m: captured.append(m)
    )
    llm = _scripted([(None, [("k1", "keep", {})], None), (None, [], "done")], [])
    _run(llm, [to_llama_index(keep, meta=lambda ctx: ctx)])

    assert asyncio.run(st.execute({"key": "k"}, captured[0])) == "stored k"
    with pytest.raises(TypeError, match="Context"):
        asyncio.run(st.execute({"key": "k"}))


def test_an_error_output_raises_with_its_text() -> None:
    back = from_llama_index(to_llama_index(PlainTool()))
    failing = from_llama_index(
        to_llama_index(
            standard_tool(name="no", description="Fail.", execute=lambda: 1 / 0).formatted()
        )
    )

    assert asyncio.run(back.execute({"x": 1})) == {"input": {"x": 1}, "meta": None}
    # a formatted tool comes back as itself: its own formatter answers the failure
    assert failing.execute() == {"error": "division by zero"}


def test_an_is_error_output_of_a_foreign_tool_raises() -> None:
    class Refuser(FunctionTool):
        async def acall(self, *args: Any, **kwargs: Any) -> Any:
            from llama_index.core.tools import ToolOutput

            return ToolOutput(
                tool_name="refuser", content="z" * 10_000, raw_input={}, is_error=True
            )

    tool = Refuser.from_defaults(fn=shout, name="refuser")
    with pytest.raises(LlamaIndexToolError, match="refuser") as info:
        asyncio.run(from_llama_index(tool).execute({"text": "a", "times": 1}))
    assert len(str(info.value)) <= 2100


def test_a_toolkit_mixes_llama_index_tools_and_ours() -> None:
    kit = Toolkit([from_llama_index(FunctionTool.from_defaults(shout)), tag_count])

    async def main() -> list[Any]:
        return [
            await kit.aexecute("shout", {"text": "a", "times": 3}),
            await kit.aexecute("shout", {"text": "a"}),
            await kit.aexecute("tag_count", {"tags": {"x": "y"}}),
        ]

    ok, bad, ours = asyncio.run(main())
    assert ok.value == "A A A"
    assert not bad.success
    assert "times" in str(bad.error)
    assert ours.value == 1


def test_round_trip_gives_back_the_same_tool() -> None:
    assert from_llama_index(to_llama_index(tag_count)) is tag_count


PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8cfc0f01f0005000201e5270bde0000000049454e44ae426082"
)


def test_a_rich_result_reaches_the_model_as_llama_index_blocks() -> None:
    from llama_index.core.base.llms.types import AudioBlock, DocumentBlock, ImageBlock, TextBlock

    from standard_tool import tool
    from standard_tool.content import Audio, EmbeddedResource, Image, ResourceLink, Text, ToolOutput

    @tool
    def snapshot() -> ToolOutput:
        """Take a picture."""
        return ToolOutput(
            [
                Text("The dashboard:"),
                Image(PNG, "image/png"),
                Audio(b"RIFF", "audio/wav"),  # reads as base64: LlamaIndex would keep it so
                EmbeddedResource("file:///r.pdf", blob=b"%PDF-1.4", mime_type="application/pdf"),
                ResourceLink("file:///d.csv", "d"),
            ],
            structured={"rows": 3},
        )

    def second(messages: list[ChatMessage], tools: list[Any]) -> None:
        (sent,) = [m for m in messages if m.role == MessageRole.TOOL]
        assert sent.additional_kwargs["tool_call_id"] == "call_1"
        kinds = [type(b) for b in sent.blocks]
        assert kinds == [TextBlock, ImageBlock, AudioBlock, DocumentBlock, TextBlock, TextBlock]
        texts = [b.text for b in sent.blocks if isinstance(b, TextBlock)]
        assert texts == ["The dashboard:", "[resource link d: file:///d.csv]", '{"rows": 3}']
        image = sent.blocks[1]
        assert isinstance(image, ImageBlock)
        assert image.image_mimetype == "image/png"
        assert image.resolve_image().read() == PNG
        audio = sent.blocks[2]
        assert isinstance(audio, AudioBlock)
        assert (audio.resolve_audio().read(), audio.format) == (b"RIFF", "wav")
        document = sent.blocks[3]
        assert isinstance(document, DocumentBlock)
        assert document.resolve_document().read() == b"%PDF-1.4"
        assert document.document_mimetype == "application/pdf"

    seen: list[list[ChatMessage]] = []
    llm = _scripted([(None, [("call_1", "snapshot", {})], None), (second, [], "a dot")], seen)

    assert _run(llm, [to_llama_index(snapshot)]) == "a dot"
    assert len(seen) == 2


WAV = b"RIFF\x24\x00\x00\x00WAVEfmt "


def test_a_llama_index_tool_answering_with_media_blocks_comes_back_as_a_tool_output() -> None:
    from llama_index.core.base.llms.types import AudioBlock, DocumentBlock, ImageBlock, TextBlock

    from standard_tool.content import Audio, EmbeddedResource, Image, Text, ToolOutput

    def picture() -> list[Any]:
        """Take a picture."""
        return [
            TextBlock(text="The dashboard:"),
            ImageBlock(image=PNG, image_mimetype="image/png"),
            AudioBlock(audio=WAV, format="wav"),
            DocumentBlock(data=b"%PDF-1.4", document_mimetype="application/pdf", title="r.pdf"),
        ]

    def words() -> list[Any]:
        """Say something."""
        return [TextBlock(text="hello")]

    got = asyncio.run(from_llama_index(FunctionTool.from_defaults(picture)).execute({}))
    plain = asyncio.run(from_llama_index(FunctionTool.from_defaults(words)).execute({}))

    assert isinstance(got, ToolOutput)
    assert got.content == (
        Text("The dashboard:"),
        Image(PNG, "image/png"),
        Audio(WAV, "audio/wav"),
        EmbeddedResource("document:r.pdf", blob=b"%PDF-1.4", mime_type="application/pdf"),
    )
    assert [type(b) for b in plain] == [TextBlock]


@pytest.mark.parametrize("output", HUGE_OUTPUTS, ids=range(len(HUGE_OUTPUTS)))
def test_a_rich_result_is_written_within_the_output_bound(output: RichOutput[Any]) -> None:
    from llama_index.core.base.llms.types import TextBlock

    from standard_tool.integrations.llama_index import _llama_blocks  # pyright: ignore[reportPrivateUsage]

    blocks = _llama_blocks(output)
    texts = [block.text for block in blocks if isinstance(block, TextBlock)]
    assert_within_bound(texts, output, OUTPUT_MAX_CHARS)
