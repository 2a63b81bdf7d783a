"""Rich results through the framework bridges, in each framework's own loop and test model."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool as lc_tool

from standard_tool.content import Text, ToolOutput
from standard_tool.integrations.langchain import from_langchain, to_langchain
from tests import content_tools as c
from tests.test_content_providers import NAMES, _b64

# -- LangChain -------------------------------------------------------------------------------


def test_langchain_tool_messages_carry_standard_content_blocks() -> None:
    calls = [{"name": name, "args": {}, "id": f"call_{n}"} for n, name in enumerate(NAMES)]
    model = GenericFakeChatModel(messages=iter([AIMessage("", tool_calls=calls), AIMessage("ok")]))
    by_name = {t.name: t for t in to_langchain(c.ALL)}
    messages: list[BaseMessage] = [HumanMessage("Show me everything.")]
    while True:  # LangChain's tool-calling loop
        reply = model.invoke(messages)
        messages.append(reply)
        assert isinstance(reply, AIMessage)
        if not reply.tool_calls:
            break
        messages.extend(by_name[call["name"]].invoke(call) for call in reply.tool_calls)
    answers = messages[2:7]
    assert all(isinstance(m, ToolMessage) and m.status == "success" for m in answers)
    image, audio, link, resources, chart = (m.content for m in answers)
    png = {"type": "image", "base64": _b64(c.PNG), "mime_type": "image/png"}
    assert image == [png]
    assert audio == [
        {
            "type": "text",
            "text": "[audio/wav audio, 44 bytes: LangChain tool results cannot carry audio]",
        }
    ]
    assert link[1]["text"] == "[resource link q3.pdf (application/pdf): file:///reports/q3.pdf]"
    assert resources == [
        {"type": "text", "text": "[resource test://notes.txt]\nsome notes"},
        {
            "type": "file",
            "base64": _b64(c.PDF),
            "mime_type": "application/pdf",
            "extras": {"uri": "test://report.pdf"},
        },
    ]
    assert chart == [
        {"type": "text", "text": "A red dot:"},
        png,
        {"type": "text", "text": '{"points": 1}'},
    ]
    assert isinstance(answers[4], ToolMessage)
    assert answers[4].artifact == c.mixed_tool.execute()
    assert messages[-1].content == "ok"


def test_a_langchain_tool_answering_content_blocks_comes_back_as_tool_output() -> None:
    @lc_tool
    def picture() -> list[Any]:
        """Draw a picture."""
        return [
            {"type": "text", "text": "a dot"},
            {"type": "image", "base64": _b64(c.PNG), "mime_type": "image/png"},
        ]

    @lc_tool
    def odd() -> list[Any]:
        """Answer a block kind with no neutral form."""
        return [{"type": "video", "url": "https://example.invalid/v.mp4"}]

    assert from_langchain(picture).execute({}) == ToolOutput([Text("a dot"), c.IMAGE])
    assert from_langchain(odd).execute({}) == [
        {"type": "video", "url": "https://example.invalid/v.mp4"}
    ]


# -- Pydantic AI -----------------------------------------------------------------------------


async def test_pydantic_ai_tool_returns_carry_binary_content() -> None:
    from pydantic_ai import Agent
    from pydantic_ai.messages import (
        BinaryContent,
        ModelMessage,
        ModelRequest,
        ModelResponse,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
        UserPromptPart,
    )
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from standard_tool.integrations.pydantic_ai import to_pydantic_ai

    seen: list[ModelRequest] = []

    def script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            calls = [ToolCallPart(n, {}, tool_call_id=f"c{i}") for i, n in enumerate(NAMES)]
            return ModelResponse(parts=calls)
        last = messages[-1]
        assert isinstance(last, ModelRequest)
        seen.append(last)
        return ModelResponse(parts=[TextPart("ok")])

    result = await Agent(FunctionModel(script), tools=to_pydantic_ai(c.ALL)).run("go")
    assert result.output == "ok"
    returns = [p for p in seen[0].parts if isinstance(p, ToolReturnPart)]
    image, audio, link, resources, chart = (p.content for p in returns)
    png = BinaryContent(c.PNG, media_type="image/png")
    assert image == [png]
    assert audio == [BinaryContent(c.WAV, media_type="audio/wav")]
    assert link == ["see", "[resource link q3.pdf (application/pdf): file:///reports/q3.pdf]"]
    assert resources[0] == "[resource test://notes.txt]\nsome notes"
    assert resources[1].data == c.PDF
    assert resources[1].identifier == "test://report.pdf"
    # With a structured value: it is the return value, the blocks go to the model beside it.
    assert chart == {"points": 1}
    [beside] = [p for p in seen[0].parts if isinstance(p, UserPromptPart)]
    assert beside.content == ["A red dot:", png]


# -- OpenAI Agents SDK -----------------------------------------------------------------------


def test_openai_agents_tool_outputs_reach_the_responses_api_as_images_and_files() -> None:
    import asyncio

    import openai
    from agents import Agent, RunConfig, Runner
    from agents.models.openai_responses import OpenAIResponsesModel

    from standard_tool.integrations.openai_agents import to_openai_agents
    from tests.fakes.server import serve_fake_model
    from tests.test_content_providers import FINAL_MESSAGE, _function_call, _response

    def check(body: dict[str, Any]) -> None:
        outputs = [i for i in body["input"] if i.get("type") == "function_call_output"]
        image, audio, link, resources, chart = (o["output"] for o in outputs)
        png = {"type": "input_image", "image_url": f"data:image/png;base64,{_b64(c.PNG)}"}
        assert [{k: v for k, v in i.items() if v is not None} for i in image] == [png]
        assert audio[0]["type"] == "input_text"
        assert audio[0]["text"].startswith("[audio/wav audio, 44 bytes: OpenAI Agents")
        assert link[1]["text"].startswith("[resource link q3.pdf")
        pdf = resources[1]
        assert pdf["type"] == "input_file"
        assert pdf["file_data"] == f"data:application/pdf;base64,{_b64(c.PDF)}"
        assert pdf["filename"] == "report.pdf"
        assert [i["type"] for i in chart] == ["input_text", "input_image", "input_text"]
        assert chart[2]["text"] == '{"points": 1}'

    with serve_fake_model() as fake:
        calls = [_function_call(n, name) for n, name in enumerate(NAMES)]
        fake.expect("/v1/responses", _response(calls))
        fake.expect("/v1/responses", _response([FINAL_MESSAGE]), check)
        client = openai.AsyncOpenAI(base_url=f"{fake.base_url}/v1", api_key="test-key")
        model = OpenAIResponsesModel(model="fake-model", openai_client=client)
        agent = Agent(name="helper", model=model, tools=to_openai_agents(c.ALL))
        config = RunConfig(tracing_disabled=True)
        result = asyncio.run(Runner.run(agent, "Show me everything.", run_config=config))
        fake.verify()
    assert result.final_output == "Seen."
