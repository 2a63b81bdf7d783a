"""Amazon Bedrock Converse: ``to_bedrock``, its checker, ``toolConfig``, and the runner.

The end-to-end test drives boto3's real ``bedrock-runtime`` client against a scripted
Converse server on 127.0.0.1 (dummy credentials, no network): the model calls one
tool well and one badly, the error reaches it as our text, the final answer arrives.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from collections.abc import Iterator
from typing import Any

import boto3
import botocore.config
import botocore.validate
import pytest
from hypothesis import given
from hypothesis import strategies as st

from standard_tool import Toolkit, standard_tool
from standard_tool.providers import (
    ProviderSchemaError,
    bedrock_tool_config,
    bedrock_tool_result,
    check_bedrock,
    run_bedrock_tool_calls,
    run_bedrock_tool_calls_sync,
    to_bedrock,
)
from standard_tool.providers._convert_common import ProviderOptionError
from tests.example_tools import count_nodes, ping
from tests.fakes.server import FakeModel, serve_fake_model
from tests.fakes.tools import BAD_ARGS, BAD_ARGS_ERROR, FINAL, GOOD_ARGS, JSONSchema, add, weather

KIT = Toolkit([weather, add])


def _client(endpoint: str = "http://127.0.0.1:9") -> Any:
    return boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        endpoint_url=endpoint,
        aws_access_key_id="test",
        aws_secret_access_key="test",
        config=botocore.config.Config(retries={"max_attempts": 1, "mode": "standard"}),
    )


def _validate_converse(**params: Any) -> None:
    """Botocore's own parameter validation for ``Converse`` (raises on a bad shape)."""
    shape = _client().meta.service_model.operation_model("Converse").input_shape
    botocore.validate.validate_parameters(params, shape)


# -- declaration --------------------------------------------------------------------------


def test_to_bedrock_declares_a_tool_spec_with_its_json_schema() -> None:
    spec = to_bedrock(weather)
    assert spec == {
        "toolSpec": {
            "name": "get_weather",
            "description": "Current weather in a city.",
            "inputSchema": {
                "json": {
                    "type": "object",
                    "properties": {
                        "city": {"type": "string", "description": "City name"},
                        "unit": {"enum": ["c", "f"]},
                    },
                    "required": ["city", "unit"],
                    "additionalProperties": False,
                }
            },
        }
    }


def test_a_toolkit_becomes_a_tool_config_that_botocore_accepts() -> None:
    config = bedrock_tool_config(Toolkit([weather, add, count_nodes, ping]), tool_choice="any")
    assert [t["toolSpec"]["name"] for t in config["tools"]] == [
        "get_weather",
        "add",
        "count_nodes",
        "ping",
    ]
    assert config["toolChoice"] == {"any": {}}
    # A recursive type keeps its $defs: Bedrock passes JSON Schema on unchanged.
    assert "$defs" in config["tools"][2]["toolSpec"]["inputSchema"]["json"]
    _validate_converse(
        modelId="m", messages=[{"role": "user", "content": [{"text": "hi"}]}], toolConfig=config
    )


def test_tool_choice_auto_names_and_refusals() -> None:
    assert bedrock_tool_config([weather], tool_choice="auto")["toolChoice"] == {"auto": {}}
    assert bedrock_tool_config(weather, tool_choice="get_weather")["toolChoice"] == {
        "tool": {"name": "get_weather"}
    }
    assert "toolChoice" not in bedrock_tool_config([weather])
    with pytest.raises(ProviderOptionError, match="names no given tool"):
        bedrock_tool_config([weather], tool_choice="nope")
    with pytest.raises(ProviderOptionError, match="at least one tool"):
        bedrock_tool_config([])


def test_a_tool_without_description_has_none_in_its_spec() -> None:
    bare = standard_tool(name="bare", description="", execute=lambda: 1)
    spec = to_bedrock(bare)["toolSpec"]
    assert "description" not in spec
    assert check_bedrock(spec) == []


def test_a_name_bedrock_refuses_is_refused_before_sending() -> None:
    dotted = standard_tool(name="a.b", description="x", execute=lambda: 1)
    with pytest.raises(
        ProviderSchemaError, match=r"tool name \"a\.b\" is not accepted by Bedrock: use 1 to 64"
    ):
        to_bedrock(dotted)
    long = standard_tool(name="x" * 65, description="x", execute=lambda: 1)
    with pytest.raises(ProviderSchemaError, match="not accepted by Bedrock"):
        to_bedrock(long)


def test_a_schema_that_is_not_json_data_is_refused_with_its_path() -> None:
    schema = {"type": "object", "properties": {"x": {"type": "number", "default": math.nan}}}
    odd = standard_tool(name="odd", description="x", input_schema=JSONSchema(schema), execute=id)
    with pytest.raises(ProviderSchemaError, match=r"not JSON data: /properties/x/default is nan"):
        to_bedrock(odd)


def test_a_non_object_input_is_refused() -> None:
    listy = standard_tool(
        name="listy",
        description="x",
        input_schema=JSONSchema({"type": "array", "items": {"type": "string"}}),
        execute=id,
    )
    with pytest.raises(ProviderSchemaError, match="object at its root"):
        to_bedrock(listy)


@pytest.mark.parametrize(
    ("spec", "where"),
    [
        ([], "/"),
        ({"toolSpec": "x"}, "/toolSpec"),
        ({"name": "ok"}, "/inputSchema"),
        ({"name": "ok", "inputSchema": {"json": []}}, "/inputSchema/json"),
        ({"name": "ok", "inputSchema": {"json": {"type": "string"}}}, "/inputSchema/json/type"),
        ({"name": "", "inputSchema": {"json": {"type": "object"}}}, "/name"),
        (
            {"name": "ok", "description": "", "inputSchema": {"json": {"type": "object"}}},
            "/description",
        ),
        (
            {"name": "ok", "inputSchema": {"json": {"type": "object", "x": {1: 2}}}},
            "/inputSchema/json/x",
        ),
        (
            {"name": "ok", "inputSchema": {"json": {"type": "object", "x": {1, 2}}}},
            "/inputSchema/json/x",
        ),
    ],
)
def test_check_bedrock_names_each_problem(spec: Any, where: str) -> None:
    problems = check_bedrock(spec)
    assert problems, spec
    assert str(problems[0]).split(" ")[0] == where


def test_check_bedrock_bounds_a_deeply_nested_schema() -> None:
    deep: dict[str, Any] = {"type": "object"}
    node = deep
    for _ in range(500):
        node["x"] = {}
        node = node["x"]
    [problem] = check_bedrock({"name": "ok", "inputSchema": {"json": deep}})
    assert "nests deeper than 64 levels" in problem.message


# -- results ------------------------------------------------------------------------------


def test_bedrock_tool_result_sends_objects_as_json_and_the_rest_as_text() -> None:
    assert bedrock_tool_result({"t": 21}, tool_use_id="u1") == {
        "toolResult": {"toolUseId": "u1", "content": [{"json": {"t": 21}}], "status": "success"}
    }
    assert bedrock_tool_result([1, 2])["toolResult"]["content"] == [{"text": "[1, 2]"}]
    assert bedrock_tool_result("hi")["toolResult"]["content"] == [{"text": "hi"}]
    failed = bedrock_tool_result(KeyError("city"))["toolResult"]
    assert failed == {"content": [{"text": "Error: KeyError: 'city'"}], "status": "error"}
    cut = bedrock_tool_result({"k": "v" * 500}, max_chars=100)["toolResult"]["content"]
    assert list(cut[0]) == ["text"]
    assert "truncated" in cut[0]["text"]


def _converse_response(content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": stop,
        "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
        "metrics": {"latencyMs": 1},
    }


def _tool_use(use_id: str, name: str, arguments: Any) -> dict[str, Any]:
    return {"toolUse": {"toolUseId": use_id, "name": name, "input": arguments}}


async def test_the_runner_answers_every_tool_use_in_order() -> None:
    response = _converse_response(
        [
            {"text": "Let me check."},
            _tool_use("u1", "get_weather", GOOD_ARGS),
            _tool_use("u2", "add", BAD_ARGS),
            _tool_use("u3", "add", {"a": 1, "b": 2}),
            _tool_use("u4", "nope", {}),
            _tool_use("u5", "get_weather", "not an object"),
            {"toolUse": "garbage"},
        ],
        "tool_use",
    )
    reply = await run_bedrock_tool_calls(response, KIT)
    assert reply is not None
    assert reply["role"] == "user"
    results = [b["toolResult"] for b in reply["content"]]
    assert [r["toolUseId"] for r in results] == ["u1", "u2", "u3", "u4", "u5", ""]
    assert [r["status"] for r in results] == [
        "success",
        "error",
        "success",
        "error",
        "error",
        "error",
    ]
    assert results[0]["content"] == [{"json": {"city": "Paris", "temperature": 21}}]
    assert results[1]["content"] == [{"text": f"Error: {BAD_ARGS_ERROR}"}]
    assert results[2]["content"] == [{"text": "3"}]
    assert "nope" in results[3]["content"][0]["text"]
    assert results[4]["content"][0]["text"].startswith("Error: input validation failed")


async def test_no_tool_use_means_no_reply() -> None:
    assert (
        await run_bedrock_tool_calls(_converse_response([{"text": "hi"}], "end_turn"), KIT) is None
    )
    assert await run_bedrock_tool_calls([], KIT) is None
    assert await run_bedrock_tool_calls({"unexpected": 1}, KIT) is None
    assert await run_bedrock_tool_calls(None, KIT) is None


async def test_a_structurally_wrong_response_gets_no_results_and_an_error() -> None:
    with pytest.raises(TypeError, match=r"^content must be a list, got int 5$"):
        await run_bedrock_tool_calls({"content": 5}, KIT)
    one = _tool_use("u1", "get_weather", GOOD_ARGS)
    with pytest.raises(TypeError, match=r"^output\.message\.content must be a list, got dict"):
        await run_bedrock_tool_calls({"output": {"message": {"content": one}}}, KIT)
    with pytest.raises(TypeError, match=r"^got one tool call where a response or a list of calls"):
        await run_bedrock_tool_calls(one, KIT)


def test_the_sync_runner_takes_the_message_or_its_content() -> None:
    message = {"role": "assistant", "content": [_tool_use("u1", "get_weather", GOOD_ARGS)]}
    by_message = run_bedrock_tool_calls_sync(message, KIT)
    by_content = run_bedrock_tool_calls_sync(message["content"], [weather, add])
    assert by_message == by_content
    assert by_message is not None
    assert by_message["content"][0]["toolResult"]["status"] == "success"


async def test_the_sync_runner_refuses_inside_a_running_loop() -> None:
    with pytest.raises(RuntimeError, match=r"await run_bedrock_tool_calls\("):
        run_bedrock_tool_calls_sync([_tool_use("u1", "get_weather", GOOD_ARGS)], KIT)
    await asyncio.sleep(0)


# -- end to end: boto3's bedrock-runtime client against a scripted Converse server ----------


@pytest.fixture
def model() -> Iterator[FakeModel]:
    with serve_fake_model() as fake:
        yield fake
        fake.verify()


def _check_first(body: dict[str, Any]) -> None:
    assert body["messages"] == [{"role": "user", "content": [{"text": "Weather, and 1 + two?"}]}]
    tools = body["toolConfig"]["tools"]
    assert [t["toolSpec"]["name"] for t in tools] == ["get_weather", "add"]
    assert tools[0]["toolSpec"]["inputSchema"]["json"]["required"] == ["city", "unit"]


def _check_second(body: dict[str, Any]) -> None:
    messages = body["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    first, second = (b["toolResult"] for b in messages[2]["content"])
    assert first == {
        "toolUseId": "tooluse_1",
        "content": [{"json": {"city": "Paris", "temperature": 21}}],
        "status": "success",
    }
    assert second == {
        "toolUseId": "tooluse_2",
        "content": [{"text": f"Error: {BAD_ARGS_ERROR}"}],
        "status": "error",
    }


def test_a_boto3_converse_loop_runs_both_calls_and_reaches_the_final_answer(
    model: FakeModel,
) -> None:
    path = "/model/fake-model/converse"
    model.expect(
        path,
        _converse_response(
            [
                {"text": "Let me check."},
                _tool_use("tooluse_1", "get_weather", GOOD_ARGS),
                _tool_use("tooluse_2", "add", BAD_ARGS),
            ],
            "tool_use",
        ),
        _check_first,
    )
    model.expect(path, _converse_response([{"text": FINAL}], "end_turn"), _check_second)
    client = _client(model.base_url)
    messages: list[Any] = [{"role": "user", "content": [{"text": "Weather, and 1 + two?"}]}]
    config = bedrock_tool_config(KIT)
    while True:  # the fake model's script bounds the loop: an extra request fails
        response = client.converse(modelId="fake-model", messages=messages, toolConfig=config)
        reply = run_bedrock_tool_calls_sync(response, KIT)
        if reply is None:
            break
        messages.append(response["output"]["message"])
        messages.append(reply)
    assert response["output"]["message"]["content"] == [{"text": FINAL}]
    assert response["stopReason"] == "end_turn"
    assert model.requests[0].headers["authorization"].startswith("AWS4-HMAC-SHA256")
    json.dumps(messages)  # what was sent is plain JSON data


# -- hostile responses: any JSON shape gives a well-formed reply or None, never an exception --

_KEYS = st.sampled_from(
    ["output", "message", "content", "toolUse", "toolUseId", "name", "input", "a", "b", "city"]
)
_SCALARS = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
_NAMES = st.sampled_from(["get_weather", "add", "nope", ""])
_JSON = st.recursive(
    _SCALARS | _NAMES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=20,
)
_TOOL_USE = st.fixed_dictionaries(
    {"toolUse": st.fixed_dictionaries({"toolUseId": _SCALARS, "name": _NAMES, "input": _JSON})}
)


@given(st.lists(_TOOL_USE | _JSON, max_size=5) | _JSON)
def test_any_response_shape_gives_a_well_formed_reply_or_none(response: Any) -> None:
    refused: TypeError | None = None
    try:
        reply = run_bedrock_tool_calls_sync(response, KIT)
    except TypeError as err:  # a structurally wrong response: refused, naming where
        refused = err
    if refused is not None:
        assert re.match(r"(\S+ must be a list, got |got one tool call where)", str(refused))
        return
    if reply is None:
        return
    assert reply["role"] == "user"
    assert reply["content"]
    for block in reply["content"]:
        result = block["toolResult"]
        assert result["status"] in ("success", "error")
        [item] = result["content"]
        if result["status"] == "error":
            assert item["text"].startswith("Error: ")
        json.dumps(result)
