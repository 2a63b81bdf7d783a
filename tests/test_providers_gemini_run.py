"""Gemini: the function-call runner and the JSON Schema declaration variant.

The end-to-end tests drive ``google-genai``'s real client (``http_options`` base URL
on a scripted server on 127.0.0.1, no network): the model calls one function well
and one badly, the error reaches it as our text, the final answer arrives.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

import pytest
from google import genai
from google.genai import types
from hypothesis import given
from hypothesis import strategies as st

from standard_tool import Toolkit, standard_tool
from standard_tool.providers import (
    ProviderSchemaError,
    check_gemini_json_schema,
    gemini_function_response,
    gemini_json_parameters,
    run_gemini_function_calls,
    run_gemini_function_calls_sync,
    to_gemini,
)
from tests.example_tools import count_nodes, ping, tag_resource
from tests.fakes.server import FakeModel, serve_fake_model
from tests.fakes.tools import BAD_ARGS, BAD_ARGS_ERROR, FINAL, GOOD_ARGS, JSONSchema, add, weather

KIT = Toolkit([weather, add])
MISSING_NAME = "tree.children.0.name: missing required property"
TREE = {"name": "root", "children": [{"name": "a", "children": []}]}


def _entries(tags: dict[str, str]) -> list[dict[str, str]]:
    return [{"key": k, "value": v} for k, v in tags.items()]


# -- the JSON Schema declaration variant ---------------------------------------------------


def test_json_schema_variant_declares_a_recursive_type_with_its_defs() -> None:
    declaration = to_gemini(count_nodes, json_schema=True)
    schema = declaration["parametersJsonSchema"]
    assert schema["properties"]["tree"] == {"$ref": "#/$defs/TreeNode"}
    assert schema["$defs"]["TreeNode"]["properties"]["children"]["items"] == {
        "$ref": "#/$defs/TreeNode"
    }
    assert "parameters" not in declaration
    assert declaration["responseJsonSchema"] == {
        "type": "object",
        "properties": {"output": {"type": "integer"}},
        "required": ["output"],
    }
    assert check_gemini_json_schema(schema) == []
    parsed = types.FunctionDeclaration.model_validate(declaration)
    assert parsed.parameters_json_schema == schema
    # The OpenAPI subset cannot: it refuses loudly, naming the type.
    with pytest.raises(ProviderSchemaError, match="recursive"):
        to_gemini(count_nodes)


def test_json_schema_variant_of_a_toolkit_and_of_a_tool_without_parameters() -> None:
    declarations = to_gemini(Toolkit([weather, ping]), json_schema=True)
    assert [d["name"] for d in declarations] == ["get_weather", "ping"]
    assert "parametersJsonSchema" not in declarations[1]
    assert declarations[0]["parametersJsonSchema"]["required"] == ["city", "unit"]
    types.Tool.model_validate({"function_declarations": declarations})


def test_json_schema_variant_decodes_maps_sent_as_entries() -> None:
    params = gemini_json_parameters(tag_resource)
    assert params.schema is not None
    assert params.schema["properties"]["tags"]["type"] == "array"
    assert params.decode({"resource_id": "r", "tags": _entries({"env": "prod"})}) == {
        "resource_id": "r",
        "tags": {"env": "prod"},
    }


def test_json_schema_variant_moves_unsupported_keywords_into_the_description() -> None:
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer", "exclusiveMinimum": 0, "multipleOf": 2}},
        "required": ["n"],
    }
    even = standard_tool(name="even", description="x", input_schema=JSONSchema(schema), execute=id)
    n = to_gemini(even, json_schema=True)["parametersJsonSchema"]["properties"]["n"]
    assert n["type"] == "integer"
    assert "multipleOf" not in n
    assert "exclusiveMinimum" not in n
    assert "multipleOf: 2" in n["description"]
    # An exclusive bound on an integer is the next whole number, inclusive: exact.
    assert n["minimum"] == 1


def test_json_schema_variant_refuses_a_value_of_any_type() -> None:
    schema = {"type": "object", "properties": {"x": {}}}
    free = standard_tool(name="free", description="x", input_schema=JSONSchema(schema), execute=id)
    with pytest.raises(ProviderSchemaError, match="/properties/x accepts any value"):
        to_gemini(free, json_schema=True)


@pytest.mark.parametrize(
    ("schema", "where", "what"),
    [
        ([], "/", "is not a JSON object"),
        ({"type": "array"}, "/", '"type": "object"'),
        ({"type": "object", "allOf": []}, "/", "allOf"),
        ({"type": "object", "properties": {"a": {"type": "text"}}}, "/properties/a", "type"),
        ({"type": "object", "properties": {"a": {"$ref": "#/$defs/B"}}}, "/properties/a", "$ref"),
        ({"type": "object", "properties": {"a": 3}}, "/properties/a", "schema object"),
        ({"type": "object", "properties": {}, "required": ["z"]}, "/", "required"),
        ({"type": "object", "anyOf": []}, "/", "non-empty"),
    ],
)
def test_check_gemini_json_schema_names_each_problem(schema: Any, where: str, what: str) -> None:
    problems = check_gemini_json_schema(schema)
    assert any(str(p).split(" ")[0] == where and what in p.message for p in problems), problems


def test_check_gemini_json_schema_bounds_a_deep_schema() -> None:
    deep: dict[str, Any] = {"type": "object"}
    node = deep
    for _ in range(300):
        node["items"] = {"type": "array"}
        node = node["items"]
    problems = check_gemini_json_schema(deep)
    assert [p.message for p in problems] == ["nests deeper than 64 levels"]


# -- results and the runner ----------------------------------------------------------------


def test_gemini_function_response_is_a_part_the_sdk_accepts() -> None:
    part = gemini_function_response({"t": 21}, name="weather", call_id="c1")
    assert part == {
        "function_response": {"id": "c1", "name": "weather", "response": {"output": {"t": 21}}}
    }
    types.Part.model_validate(part)
    failed = gemini_function_response(KeyError("city"), name="weather")
    assert failed == {
        "function_response": {"name": "weather", "response": {"error": "Error: KeyError: 'city'"}}
    }
    assert gemini_function_response("7", name="w")["function_response"]["response"] == {
        "output": "7"
    }
    cut = gemini_function_response({"k": "v" * 500}, name="w", max_chars=50)
    assert "truncated" in cut["function_response"]["response"]["output"]


def _call_part(name: str, args: Any, call_id: str | None = None) -> dict[str, Any]:
    call: dict[str, Any] = {"name": name, "args": args}
    if call_id is not None:
        call["id"] = call_id
    return {"functionCall": call}


async def test_the_runner_reads_sdk_objects_dicts_and_hostile_parts() -> None:
    sdk_response = types.GenerateContentResponse.model_validate(
        {
            "candidates": [
                {
                    "content": {
                        "role": "model",
                        "parts": [
                            {"text": "Let me check."},
                            _call_part("get_weather", GOOD_ARGS, "c1"),
                            _call_part("add", BAD_ARGS, "c2"),
                            _call_part("nope", {}),
                        ],
                    }
                }
            ]
        }
    )
    reply = await run_gemini_function_calls(sdk_response, KIT)
    assert reply is not None
    assert reply["role"] == "user"
    bodies = [p["function_response"] for p in reply["parts"]]
    assert bodies[0] == {
        "id": "c1",
        "name": "get_weather",
        "response": {"output": {"city": "Paris", "temperature": 21}},
    }
    assert bodies[1] == {
        "id": "c2",
        "name": "add",
        "response": {"error": f"Error: {BAD_ARGS_ERROR}"},
    }
    assert "id" not in bodies[2]
    assert "nope" in bodies[2]["response"]["error"]
    types.Content.model_validate(reply)
    # The same calls as plain dicts (snake_case), as a Content, and as a list of parts.
    parts = [{"function_call": {"name": "add", "args": {"a": 1, "b": 2}}}]
    for shape in ({"candidates": [{"content": {"parts": parts}}]}, {"parts": parts}, parts):
        again = await run_gemini_function_calls(shape, [weather, add])
        assert again is not None
        assert again["parts"][0]["function_response"]["response"] == {"output": 3}
    for value in ([3, None, {"functionCall": None}], None):
        assert await run_gemini_function_calls(value, KIT) is None
    # A structurally wrong response: no results, an error naming where.
    with pytest.raises(TypeError, match=r"^candidates must be a list, got int 5$"):
        await run_gemini_function_calls({"candidates": 5}, KIT)
    wrong = {"candidates": [{"content": {"parts": {"functionCall": {"name": "add"}}}}]}
    with pytest.raises(
        TypeError, match=r"^candidates\[0\]\.content\.parts must be a list, got dict"
    ):
        await run_gemini_function_calls(wrong, KIT)
    with pytest.raises(TypeError, match=r"^got one tool call where a response or a list of calls"):
        await run_gemini_function_calls(_call_part("add", {"a": 1, "b": 2}), KIT)
    [bad_args] = (await run_gemini_function_calls([_call_part("add", "1 + 2")], KIT) or {})["parts"]
    assert bad_args["function_response"]["response"]["error"].startswith(
        "Error: input validation failed"
    )


async def test_the_runner_decodes_rewritten_arguments_for_both_variants() -> None:
    args = {"resource_id": "r", "tags": _entries({"env": "prod"})}
    for json_schema in (False, True):
        reply = await run_gemini_function_calls(
            [_call_part("tag_resource", args)], [tag_resource], json_schema=json_schema
        )
        assert reply is not None
        assert reply["parts"][0]["function_response"]["response"] == {"output": {"env": "prod"}}


async def test_a_tool_gemini_cannot_declare_is_an_error_result_not_a_crash() -> None:
    reply = await run_gemini_function_calls(
        [_call_part("count_nodes", {"tree": TREE})], [count_nodes]
    )
    assert reply is not None
    assert "recursive" in reply["parts"][0]["function_response"]["response"]["error"]
    ok = await run_gemini_function_calls(
        [_call_part("count_nodes", {"tree": TREE})], [count_nodes], json_schema=True
    )
    assert ok is not None
    assert ok["parts"][0]["function_response"]["response"] == {"output": 2}


async def test_the_sync_runner_refuses_inside_a_running_loop() -> None:
    with pytest.raises(RuntimeError, match=r"await run_gemini_function_calls\("):
        run_gemini_function_calls_sync([_call_part("add", {"a": 1, "b": 2})], KIT)
    await asyncio.sleep(0)


# -- end to end: google-genai's client against a scripted generateContent server ------------


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


def _client(model: FakeModel) -> genai.Client:
    return genai.Client(
        api_key="test", http_options={"base_url": model.base_url, "api_version": "v1beta"}
    )


PATH = "/v1beta/models/fake-model:generateContent"


def _check_first(body: dict[str, Any]) -> None:
    [tool] = body["tools"]
    declarations = tool["functionDeclarations"]
    assert [d["name"] for d in declarations] == ["get_weather", "add"]
    assert (
        declarations[0]["parameters"]["properties"]["city"]["type"] == "STRING"
    )  # the SDK upper-cases


def _check_second(body: dict[str, Any]) -> None:
    contents = body["contents"]
    assert [c["role"] for c in contents] == ["user", "model", "user"]
    first, second = (p["functionResponse"] for p in contents[2]["parts"])
    assert first == {
        "id": "c1",
        "name": "get_weather",
        "response": {"output": {"city": "Paris", "temperature": 21}},
    }
    assert second == {"id": "c2", "name": "add", "response": {"error": f"Error: {BAD_ARGS_ERROR}"}}


async def test_a_google_genai_loop_runs_both_calls_and_reaches_the_final_answer(
    model: FakeModel,
) -> None:
    model.expect(
        PATH,
        _generated([_call_part("get_weather", GOOD_ARGS, "c1"), _call_part("add", BAD_ARGS, "c2")]),
        _check_first,
    )
    model.expect(PATH, _generated([{"text": FINAL}]), _check_second)
    config = types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=to_gemini(KIT))],  # pyright: ignore[reportArgumentType]
    )
    contents: list[Any] = [{"role": "user", "parts": [{"text": "Weather, and 1 + two?"}]}]
    client = _client(model)
    while True:  # the fake model's script bounds the loop: an extra request fails
        response = await client.aio.models.generate_content(
            model="fake-model", contents=contents, config=config
        )
        reply = await run_gemini_function_calls(response, KIT)
        if reply is None:
            break
        assert response.candidates
        contents.append(response.candidates[0].content)
        contents.append(reply)
    assert response.text == FINAL
    assert model.requests[0].headers["x-goog-api-key"] == "test"


def _check_json_first(body: dict[str, Any]) -> None:
    [declaration] = body["tools"][0]["functionDeclarations"]
    assert "parameters" not in declaration
    # google-genai 3.4 writes this field with its Python name; the API takes both spellings.
    schema = declaration.get("parametersJsonSchema") or declaration["parameters_json_schema"]
    assert schema["$defs"]["TreeNode"]["properties"]["children"]["items"] == {
        "$ref": "#/$defs/TreeNode"
    }


def _check_json_second(body: dict[str, Any]) -> None:
    parts = body["contents"][2]["parts"]
    assert [p["functionResponse"]["response"] for p in parts] == [
        {"output": 3},
        {"error": f"Error: input validation failed: {MISSING_NAME}"},
    ]


def test_a_sync_google_genai_loop_declares_a_recursive_type_with_json_schema(
    model: FakeModel,
) -> None:
    bad_tree = {"name": "root", "children": [{"children": []}]}
    deep_tree = {
        "name": "r",
        "children": [{"name": "a", "children": [{"name": "b", "children": []}]}],
    }
    model.expect(
        PATH,
        _generated(
            [
                _call_part("count_nodes", {"tree": deep_tree}, "t1"),
                _call_part("count_nodes", {"tree": bad_tree}, "t2"),
            ]
        ),
        _check_json_first,
    )
    model.expect(PATH, _generated([{"text": "Three nodes."}]), _check_json_second)
    kit = Toolkit([count_nodes])
    config = types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=to_gemini(kit, json_schema=True))],  # pyright: ignore[reportArgumentType]
    )
    contents: list[Any] = [{"role": "user", "parts": [{"text": "Count the tree."}]}]
    client = _client(model)
    while True:
        response = client.models.generate_content(
            model="fake-model", contents=contents, config=config
        )
        reply = run_gemini_function_calls_sync(response, kit, json_schema=True)
        if reply is None:
            break
        assert response.candidates
        contents.append(response.candidates[0].content)
        contents.append(reply)
    assert response.text == "Three nodes."


# -- hostile responses: any JSON shape gives a well-formed reply or None, never an exception --

_KEYS = st.sampled_from(
    ["candidates", "content", "parts", "functionCall", "function_call", "name", "args", "id", "a"]
)
_SCALARS = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
_NAMES = st.sampled_from(["get_weather", "add", "nope", ""])
_JSON = st.recursive(
    _SCALARS | _NAMES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=20,
)
_CALL = st.fixed_dictionaries(
    {"functionCall": st.fixed_dictionaries({"id": _SCALARS, "name": _NAMES, "args": _JSON})}
)


@given(st.lists(_CALL | _JSON, max_size=5) | _JSON, st.booleans())
def test_any_response_shape_gives_a_well_formed_reply_or_none(
    response: Any, json_schema: bool
) -> None:
    refused: TypeError | None = None
    try:
        reply = run_gemini_function_calls_sync(response, KIT, json_schema=json_schema)
    except TypeError as err:  # a structurally wrong response: refused, naming where
        refused = err
    if refused is not None:
        assert re.match(r"(\S+ must be a list, got |got one tool call where)", str(refused))
        return
    if reply is None:
        return
    assert reply["role"] == "user"
    for part in reply["parts"]:
        body = part["function_response"]
        assert list(body["response"]) in (["output"], ["error"])
        if "error" in body["response"]:
            assert body["response"]["error"].startswith("Error: ")
    types.Content.model_validate(reply)
