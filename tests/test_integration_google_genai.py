"""Google Gen AI SDK bridge: our tools in the SDK's own automatic function calling loop.

``google-genai``'s real client (``http_options`` base URL) talks to the scripted
``generateContent`` server of tests/fakes/server.py on 127.0.0.1. The SDK declares
the functions ``to_google_genai`` makes, calls them with the model's arguments and
sends their results back; the scripted model checks both requests.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from google import genai
from google.genai import types
from google.genai.errors import UnsupportedFunctionError
from pydantic import BaseModel

from standard_tool import Toolkit, standard_tool, tool
from standard_tool.content import Image, Text, ToolOutput
from standard_tool.dialects import inline_refs
from standard_tool.integrations.google_genai import GoogleGenAIToolError, to_google_genai
from standard_tool.providers import ProviderSchemaError, gemini_json_parameters
from tests.example_tools import count_nodes
from tests.fakes.server import FakeModel, serve_fake_model

#: google-genai releases before 2.34 (the newest for Python 3.10) cannot declare the
#: bridge's functions; the bridge refuses them (test_an_older_sdk_is_refused...).
_RELEASE = tuple(int(p) for p in importlib.metadata.version("google-genai").split(".")[:2])
pytestmark = pytest.mark.skipif(
    _RELEASE < (2, 34), reason="google-genai older than 2.34: the bridge refuses it"
)

PATH = "/v1beta/models/fake-model:generateContent"


@tool
def tag_count(tags: dict[str, str], limit: int = 10) -> int:
    """Count the tags, at most ``limit``.

    Args:
        tags: the tags, name to value.
        limit: the largest count reported.
    """
    return min(len(tags), limit)


@tool
async def forecast(city: str, days: int) -> dict[str, Any]:
    """Forecast the weather."""
    await asyncio.sleep(0)
    return {"city": city, "days": days, "sky": "clear"}


@tool
def explode(reason: str) -> str:
    """Fail with ``reason``."""
    raise RuntimeError(reason)


@pytest.fixture
def model() -> Iterator[FakeModel]:
    with serve_fake_model() as fake:
        yield fake
        fake.verify()


def _client(model: FakeModel) -> genai.Client:
    return genai.Client(
        api_key="test", http_options={"base_url": model.base_url, "api_version": "v1beta"}
    )


def _generated(parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5},
        "modelVersion": "fake-model",
    }


def _call(name: str, args: Any) -> dict[str, Any]:
    return {"functionCall": {"name": name, "args": args}}


def _declarations(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    [group] = body["tools"]
    return {d["name"]: d for d in group["functionDeclarations"]}


def _schema(declaration: dict[str, Any]) -> dict[str, Any]:
    # google-genai writes this field with its Python name; the API takes both spellings.
    return declaration.get("parametersJsonSchema") or declaration["parameters_json_schema"]


def _responses(body: dict[str, Any]) -> list[dict[str, Any]]:
    last = body["contents"][-1]
    assert last["role"] == "user"
    return [p["functionResponse"] for p in last["parts"]]


def _with_sdk_defaults(schema: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """Our schema as the SDK declares it: each optional property with its ``default``."""
    properties = {
        name: {**prop, "default": defaults[name]} if name in defaults else prop
        for name, prop in schema["properties"].items()
    }
    return {**schema, "properties": properties}


def _good_bad_and_failing(model: FakeModel, names: list[str]) -> None:
    def first(body: dict[str, Any]) -> None:
        declared = _declarations(body)
        assert sorted(declared) == sorted(names)
        ours = gemini_json_parameters(tag_count).schema
        assert ours is not None
        assert _schema(declared["tag_count"]) == _with_sdk_defaults(ours, {"limit": 10})
        assert declared["tag_count"]["description"] == tag_count.description

    def second(body: dict[str, Any]) -> None:
        good, bad, failing, *rest = _responses(body)
        assert good == {"name": "tag_count", "response": {"result": 2}}
        assert bad["name"] == "tag_count"
        assert bad["response"]["error"].endswith(
            "Error: input validation failed: limit: expected integer, got string 'three'"
        )
        assert failing["response"]["error"].endswith("Error: RuntimeError: no such luck")
        if rest:
            assert rest == [
                {
                    "name": "forecast",
                    "response": {"result": {"city": "Oslo", "days": 2, "sky": "clear"}},
                }
            ]

    entries = [{"key": "a", "value": "1"}, {"key": "b", "value": "2"}]
    calls = [
        _call("tag_count", {"tags": entries}),
        _call("tag_count", {"tags": [], "limit": "three"}),
        _call("explode", {"reason": "no such luck"}),
    ]
    if "forecast" in names:
        calls.append(_call("forecast", {"city": "Oslo", "days": 2}))
    model.expect(PATH, _generated(calls), first)
    model.expect(PATH, _generated([{"text": "Two tags."}]), second)


def test_the_sync_client_runs_a_good_a_refused_and_a_failing_call_and_goes_on(
    model: FakeModel,
) -> None:
    _good_bad_and_failing(model, ["tag_count", "explode"])
    config = types.GenerateContentConfig(tools=to_google_genai(Toolkit([tag_count, explode])))

    client = _client(model)  # kept: a client closes its connections when collected

    response = client.models.generate_content(
        model="fake-model", contents="Count and explode.", config=config
    )

    assert response.text == "Two tags."


def test_the_async_client_does_the_same_with_an_async_tool_in_its_loop(model: FakeModel) -> None:
    _good_bad_and_failing(model, ["tag_count", "explode", "forecast"])
    config = types.GenerateContentConfig(tools=to_google_genai([tag_count, explode, forecast]))

    async def main() -> Any:
        client = _client(model)
        return await client.aio.models.generate_content(
            model="fake-model", contents="Count, explode and forecast.", config=config
        )

    assert asyncio.run(main()).text == "Two tags."


def test_from_the_async_client_a_sync_tool_runs_off_the_loop_and_an_async_one_on_it(
    model: FakeModel,
) -> None:
    threads: dict[str, int] = {}

    def where_sync() -> str:
        threads["sync"] = threading.get_ident()
        return "s"

    async def where_async() -> str:
        threads["async"] = threading.get_ident()
        return "a"

    sync_tool = standard_tool(name="where_sync", description="Where.", execute=where_sync)
    async_tool = standard_tool(name="where_async", description="Where.", execute=where_async)

    def second(body: dict[str, Any]) -> None:
        assert [r["response"] for r in _responses(body)] == [{"result": "s"}, {"result": "a"}]

    model.expect(PATH, _generated([_call("where_sync", {}), _call("where_async", {})]))
    model.expect(PATH, _generated([{"text": "done"}]), second)
    config = types.GenerateContentConfig(tools=to_google_genai([sync_tool, async_tool]))

    async def main() -> int:
        client = _client(model)
        await client.aio.models.generate_content(
            model="fake-model", contents="Where?", config=config
        )
        return threading.get_ident()

    loop_thread = asyncio.run(main())
    assert threads["async"] == loop_thread
    assert threads["sync"] != loop_thread


def test_a_nested_schema_is_declared_inline_and_a_recursive_one_refused(model: FakeModel) -> None:
    class Item(BaseModel):
        sku: str
        qty: int

    @tool
    def order(items: list[Item]) -> int:
        """Order items."""
        return sum(item.qty for item in items)

    def first(body: dict[str, Any]) -> None:
        schema = _schema(_declarations(body)["order"])
        ours = gemini_json_parameters(order).schema
        assert ours is not None
        assert schema["properties"] == inline_refs(ours)["properties"]
        assert "$defs" not in schema

    def second(body: dict[str, Any]) -> None:
        assert _responses(body) == [{"name": "order", "response": {"result": 3}}]

    items = [{"sku": "A1", "qty": 1}, {"sku": "B2", "qty": 2}]
    model.expect(PATH, _generated([_call("order", {"items": items})]), first)
    model.expect(PATH, _generated([{"text": "3"}]), second)
    config = types.GenerateContentConfig(tools=[to_google_genai(order)])
    client = _client(model)

    response = client.models.generate_content(model="fake-model", contents="Order.", config=config)

    assert response.text == "3"
    with pytest.raises(ProviderSchemaError, match=r"without \$defs: .*run_gemini_function_calls"):
        to_google_genai(count_nodes)


def test_a_rich_result_reaches_the_model_as_its_text(model: FakeModel) -> None:
    @tool
    def snapshot() -> ToolOutput:
        """Take a picture."""
        return ToolOutput([Text("The dashboard:"), Image(b"\x89PNG", "image/png")], {"rows": 3})

    def second(body: dict[str, Any]) -> None:
        [answer] = _responses(body)
        assert answer["response"]["result"] == (
            "The dashboard:\n[image/png image, 4 bytes: Gemini automatic function calling "
            'tool results cannot carry images]\n{"rows": 3}'
        )

    model.expect(PATH, _generated([_call("snapshot", {})]))
    model.expect(PATH, _generated([{"text": "seen"}]), second)
    config = types.GenerateContentConfig(tools=[to_google_genai(snapshot)])

    client = _client(model)

    assert (
        client.models.generate_content(model="fake-model", contents="Look.", config=config).text
        == "seen"
    )


def test_called_directly_the_function_returns_the_output_or_raises_our_error() -> None:
    genai_count = to_google_genai(tag_count)
    assert genai_count.__name__ == "tag_count"
    assert genai_count(tags=[{"key": "a", "value": "1"}]) == 1
    with pytest.raises(GoogleGenAIToolError, match=r"^Error: input validation failed: tags"):
        genai_count(tags=3)


def test_names_and_properties_the_sdk_cannot_declare_are_refused_with_our_message() -> None:
    bad_name = standard_tool(name="no spaces", description="Bad.", execute=lambda: "x")
    with pytest.raises(ProviderSchemaError, match="no spaces"):
        to_google_genai(bad_name)
    dashed = standard_tool(
        name="dashed",
        description="A property that is not a Python name.",
        execute=lambda input: input,
        input_schema={"type": "object", "properties": {"user-id": {"type": "string"}}},
    )
    with pytest.raises(ProviderSchemaError, match="property \"user-id\" of tool 'dashed'"):
        to_google_genai(dashed)


def test_the_readme_cell_the_sdk_checks_each_top_level_argument_with_isinstance(
    model: FakeModel,
) -> None:
    """README's comparison table: a plain function's ``"3"`` for an ``int`` is refused."""
    seen: list[Any] = []

    def add(a: int, b: int) -> int:
        """Add two integers."""
        seen.append(a)
        return a + b

    def second(body: dict[str, Any]) -> None:
        [answer] = _responses(body)
        assert set(answer["response"]) == {"error"}

    model.expect(PATH, _generated([_call("add", {"a": "3", "b": 4})]))
    model.expect(PATH, _generated([{"text": "no"}]), second)
    client = _client(model)

    config = types.GenerateContentConfig(tools=[add])
    client.models.generate_content(model="fake-model", contents="Add.", config=config)

    assert seen == []


def test_the_sdk_drops_an_undeclared_argument_and_refuses_async_tools_when_sync(
    model: FakeModel,
) -> None:
    def second(body: dict[str, Any]) -> None:
        assert _responses(body) == [{"name": "tag_count", "response": {"result": 0}}]

    model.expect(PATH, _generated([_call("tag_count", {"tags": [], "extra": 1})]))
    model.expect(PATH, _generated([{"text": "none"}]), second)
    client = _client(model)
    config = types.GenerateContentConfig(tools=[to_google_genai(tag_count)])

    client.models.generate_content(model="fake-model", contents="Count.", config=config)

    async_config = types.GenerateContentConfig(tools=[to_google_genai(forecast)])
    with pytest.raises(UnsupportedFunctionError):
        client.models.generate_content(model="fake-model", contents="Hi.", config=async_config)
