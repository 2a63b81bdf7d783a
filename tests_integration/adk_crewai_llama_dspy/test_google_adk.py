"""Google ADK bridge: our tools in an ADK ``LlmAgent``'s own loop, and ADK tools as ours.

The agent runs on ADK's own ``Gemini`` model with a real ``google-genai`` client,
pointed at the scripted generateContent server of tests/fakes/server.py on
127.0.0.1. The scripted model checks what ADK sends (our Gemini declarations, the
function responses of a good call, a rejected call and a raising tool, each under
its call id) and answers.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from google.adk.agents import LlmAgent
from google.adk.models import Gemini
from google.adk.runners import InMemoryRunner
from google.adk.tools import BaseTool, FunctionTool, ToolContext
from google.genai import Client, types
from tests.context_tools import whoami
from tests.fakes.server import FakeModel, serve_fake_model
from tests.fakes.tools import PlainTool
from tests_integration.adk_crewai_llama_dspy.tools import explode, forecast, tag_count

from standard_tool import StandardToolValidationError, Toolkit, standard_tool
from standard_tool.integrations.google_adk import (
    StandardAdkTool,
    from_google_adk,
    to_google_adk,
)
from standard_tool.providers import to_gemini

PATH = "/v1beta/models/fake-model:generateContent"


@pytest.fixture
def model() -> Iterator[FakeModel]:
    with serve_fake_model() as fake:
        yield fake
        fake.verify()


def _generated(parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5},
        "modelVersion": "fake-model",
    }


def _call(name: str, args: dict[str, Any], call_id: str) -> dict[str, Any]:
    return {"functionCall": {"id": call_id, "name": name, "args": args}}


def _responses(body: dict[str, Any]) -> dict[str, Any]:
    """The function responses of the last turn, by call id."""
    parts = body["contents"][-1]["parts"]
    return {p["functionResponse"]["id"]: p["functionResponse"]["response"] for p in parts}


def _gemini(client: Client) -> Gemini:
    """ADK's ``Gemini`` model on ``client``.

    ADK 2 takes the client as a field; ADK 1 (the floor environment's) builds its
    own from the environment in its ``api_client`` property, given this one instead.
    """
    model = Gemini(model="fake-model", client=client)
    if getattr(model, "client", None) is not client:
        model.__dict__["api_client"] = client  # the cached property's value
    return model


def _run(fake: FakeModel, tools: list[Any], state: dict[str, Any] | None = None) -> str:
    client = Client(
        api_key="test-key", http_options={"base_url": fake.base_url, "api_version": "v1beta"}
    )
    agent = LlmAgent(
        name="helper",
        model=_gemini(client),
        instruction="Use the tools.",
        tools=tools,
    )
    runner = InMemoryRunner(agent=agent, app_name="tests")

    async def main() -> str:
        session = await runner.session_service.create_session(
            app_name="tests", user_id="ada", state=state or {}
        )
        message = types.Content(role="user", parts=[types.Part(text="Go.")])
        texts: list[str] = []
        async for event in runner.run_async(
            user_id="ada", session_id=session.id, new_message=message
        ):
            if event.content and event.content.parts:
                texts += [p.text for p in event.content.parts if p.text]
        return "".join(texts)

    return asyncio.run(main())


# -- the ADK agent loop -------------------------------------------------------------------


def test_a_good_call_a_rejected_call_and_a_raising_tool_in_one_turn(model: FakeModel) -> None:
    def first(body: dict[str, Any]) -> None:
        sent = {d["name"]: d for d in body["tools"][0]["functionDeclarations"]}
        assert set(sent) == {"tag_count", "forecast", "explode"}
        for name, ours in [("tag_count", tag_count), ("forecast", forecast)]:
            declared = types.FunctionDeclaration.model_validate(to_gemini(ours))
            # google-genai writes some field names in snake case; the model reads both
            assert types.Schema.model_validate(sent[name]["parameters"]) == declared.parameters
        # dict[str, str] goes out as a list of {key, value} entries, as to_gemini writes it
        assert sent["tag_count"]["parameters"]["properties"]["tags"]["type"] == "ARRAY"

    def second(body: dict[str, Any]) -> None:
        answers = _responses(body)
        assert answers["c1"] == {"output": 2}
        assert answers["c2"]["error"].startswith("Error: input validation failed: days: ")
        assert answers["c3"] == {"error": "Error: RuntimeError: no such luck"}

    tags = [{"key": "a", "value": "1"}, {"key": "b", "value": "2"}]
    turn = _generated(
        [
            _call("tag_count", {"tags": tags}, "c1"),
            _call("forecast", {"city": "Paris", "days": "three"}, "c2"),
            _call("explode", {"reason": "no such luck"}, "c3"),
        ]
    )
    model.expect(PATH, turn, first)
    model.expect(PATH, _generated([{"text": "Two tags; no forecast."}]), second)

    answer = _run(model, to_google_adk(Toolkit([tag_count, forecast, explode])))

    assert answer == "Two tags; no forecast."


def test_the_call_id_and_the_session_state_reach_the_tool(model: FakeModel) -> None:
    seen: list[Any] = []

    def record(input: Any, meta: Any) -> str:
        seen.append(meta)
        return "ok"

    probe = standard_tool(name="probe", description="Record the call.", execute=record)

    def second(body: dict[str, Any]) -> None:
        answers = _responses(body)
        assert answers["p1"] == {"output": "ok"}
        assert answers["w1"]["output"] == {
            "sku": "A-1",
            "tool": "whoami",
            "call": "w1",
            "raw": {"sku": "A-1"},
        }

    model.expect(
        PATH, _generated([_call("probe", {}, "p1"), _call("whoami", {"sku": "A-1"}, "w1")])
    )
    model.expect(PATH, _generated([{"text": "done"}]), second)

    def meta(ctx: ToolContext) -> Any:
        return (ctx.function_call_id, ctx.state.get("user"))

    _run(model, [*to_google_adk([probe, whoami], meta=meta)], state={"user": "ada"})

    assert seen == [("p1", "ada")]


def test_json_schema_declarations_keep_refs(model: FakeModel) -> None:
    def first(body: dict[str, Any]) -> None:
        [declaration] = body["tools"][0]["functionDeclarations"]
        assert "parameters" not in declaration
        schema = declaration.get("parametersJsonSchema") or declaration["parameters_json_schema"]
        assert schema["properties"]["days"] == {
            "type": "integer",
            "description": "how many days ahead.",
        }

    def second(body: dict[str, Any]) -> None:
        assert _responses(body)["j1"] == {"output": {"city": "Oslo", "days": 2, "sky": "clear"}}

    model.expect(PATH, _generated([_call("forecast", {"city": "Oslo", "days": 2}, "j1")]), first)
    model.expect(PATH, _generated([{"text": "done"}]), second)

    _run(model, [to_google_adk(forecast, json_schema=True)])


# -- to ADK ---------------------------------------------------------------------------------


def test_a_sync_tool_runs_in_a_worker_thread_and_an_async_one_in_the_loop() -> None:
    threads: dict[str, int] = {}

    def sync_handler(input: Any) -> str:
        threads["sync"] = threading.get_ident()
        return "s"

    async def async_handler(input: Any) -> str:
        threads["async"] = threading.get_ident()
        return "a"

    tools = to_google_adk(
        [
            standard_tool(name="s", description="Sync.", execute=sync_handler),
            standard_tool(name="a", description="Async.", execute=async_handler),
        ]
    )

    async def main() -> list[Any]:
        threads["loop"] = threading.get_ident()
        return [await t.run_async(args={}, tool_context=None) for t in tools]  # type: ignore[arg-type]

    assert asyncio.run(main()) == [{"output": "s"}, {"output": "a"}]
    assert threads["async"] == threads["loop"]
    assert threads["sync"] != threads["loop"]


def test_a_toolkit_becomes_a_list_in_order() -> None:
    bridged = to_google_adk(Toolkit([forecast, tag_count]))

    assert [t.name for t in bridged] == ["forecast", "tag_count"]
    assert isinstance(to_google_adk(forecast), StandardAdkTool)
    assert bridged[0].standard_tool is forecast
    assert bridged[0].description == forecast.description


# -- from ADK -------------------------------------------------------------------------------


def shout(text: str, times: int) -> str:
    """Shout a text.

    Args:
        text: what to shout.
        times: how often.
    """
    return " ".join([text.upper()] * times)


def state_of(key: str, tool_context: ToolContext) -> Any:
    """Read one session state entry.

    Args:
        key: the entry.
    """
    return tool_context.state.get(key)


def test_an_adk_function_tool_becomes_a_standard_tool_validated_by_us() -> None:
    st = from_google_adk(FunctionTool(shout))

    assert st.name == "shout"
    assert "Shout a text." in st.description
    assert asyncio.run(st.execute({"text": "hi", "times": 2})) == "HI HI"
    with pytest.raises(StandardToolValidationError) as info:
        asyncio.run(st.execute({"text": "hi", "times": "2"}))
    assert info.value.target == "input"
    assert "times" in str(info.value)


def test_an_adk_tool_reads_the_tool_context_passed_as_meta(model: FakeModel) -> None:
    captured: list[Any] = []

    def keep(input: Any, meta: Any) -> str:
        captured.append(meta)
        return "kept"

    keeper = standard_tool(name="keeper", description="Keep the context.", execute=keep)
    model.expect(PATH, _generated([_call("keeper", {}, "k1")]))
    model.expect(PATH, _generated([{"text": "done"}]))
    _run(model, [to_google_adk(keeper, meta=lambda ctx: ctx)], state={"user": "ada"})

    st = from_google_adk(FunctionTool(state_of))
    assert asyncio.run(st.execute({"key": "user"}, captured[0])) == "ada"


def test_a_toolkit_mixes_adk_tools_and_ours() -> None:
    kit = Toolkit([from_google_adk(FunctionTool(shout)), tag_count])

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
    assert from_google_adk(to_google_adk(tag_count)) is tag_count


def test_round_trip_of_a_plain_object_tool_runs_it() -> None:
    back = from_google_adk(to_google_adk(PlainTool()))

    assert asyncio.run(back.execute({"x": 1})) == {"output": {"input": {"x": 1}, "meta": None}}


class Counter(BaseTool):
    """A hand-written ADK tool declared in Gemini's OpenAPI subset (``parameters``)."""

    def __init__(self) -> None:
        super().__init__(name="counter", description="Echo n.")

    def _get_declaration(self) -> types.FunctionDeclaration:
        schema = types.Schema(
            type=types.Type.OBJECT,
            properties={"n": types.Schema(type=types.Type.INTEGER)},
            required=["n"],
        )
        return types.FunctionDeclaration(
            name=self.name, description=self.description, parameters=schema
        )

    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        return {"n": args["n"]}


def test_a_declaration_in_gemini_form_is_read_as_json_schema() -> None:
    st = from_google_adk(Counter())

    assert asyncio.run(st.execute({"n": 3})) == {"n": 3}
    with pytest.raises(StandardToolValidationError, match="n"):
        asyncio.run(st.execute({"n": "3"}))
    with pytest.raises(StandardToolValidationError, match="n"):
        asyncio.run(st.execute({}))


def test_a_map_whose_entries_repeat_a_key_is_answered_as_bad_input() -> None:
    repeated = [{"key": "a", "value": "1"}, {"key": "a", "value": "2"}]

    answer = asyncio.run(
        to_google_adk(tag_count).run_async(args={"tags": repeated}, tool_context=None)  # type: ignore[arg-type]
    )

    assert answer["error"].startswith("Error: ")
    assert "tags.1.key: duplicate key 'a'" in answer["error"]


PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8cfc0f01f0005000201e5270bde0000000049454e44ae426082"
)


def test_a_rich_result_reaches_the_model_as_function_response_parts(model: FakeModel) -> None:
    import base64

    from standard_tool import tool
    from standard_tool.content import Audio, Image, Text, ToolOutput

    @tool
    def snapshot() -> ToolOutput:
        """Take a picture."""
        return ToolOutput(
            [Text("The dashboard:"), Image(PNG, "image/png"), Audio(b"RIFF", "audio/wav")],
            structured={"rows": 3},
        )

    def second(body: dict[str, Any]) -> None:
        (part,) = body["contents"][-1]["parts"]
        sent = part["functionResponse"]
        assert sent["id"] == "c1"
        assert sent["response"] == {
            "output": "The dashboard:\n"
            "[audio/wav audio, 4 bytes: Gemini tool results cannot carry audio]",
            "structured": {"rows": 3},
        }
        (media,) = sent["parts"]
        blob = media.get("inlineData") or media["inline_data"]
        assert blob["mimeType" if "mimeType" in blob else "mime_type"] == "image/png"
        assert base64.b64decode(blob["data"]) == PNG

    model.expect(PATH, _generated([_call("snapshot", {}, "c1")]))
    model.expect(PATH, _generated([{"text": "a dot"}]), second)

    assert _run(model, [to_google_adk(snapshot)]) == "a dot"


def test_an_adk_tool_answering_with_media_parts_comes_back_as_a_tool_output() -> None:
    from standard_tool.content import EmbeddedResource, Image, Text, ToolOutput

    def picture() -> list[types.Part]:
        """Take a picture."""
        return [
            types.Part(text="a dot"),
            types.Part.from_bytes(data=PNG, mime_type="image/png"),
            types.Part.from_bytes(data=b"%PDF-1.4", mime_type="application/pdf"),
        ]

    def words() -> list[types.Part]:
        """Say something."""
        return [types.Part(text="hello")]

    got = asyncio.run(from_google_adk(FunctionTool(picture)).execute({}))

    assert isinstance(got, ToolOutput)
    assert got.content == (
        Text("a dot"),
        Image(PNG, "image/png"),
        EmbeddedResource("part:data", blob=b"%PDF-1.4", mime_type="application/pdf"),
    )
    said = asyncio.run(from_google_adk(FunctionTool(words)).execute({}))
    assert [p.text for p in said] == ["hello"]
