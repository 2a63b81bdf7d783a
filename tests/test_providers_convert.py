"""Every example tool, converted for every provider, checked and validated with each SDK."""

from __future__ import annotations

from typing import Any

import mcp.types
import pytest
from anthropic.types import ToolParam
from google.genai import types as genai_types
from openai.types.chat import ChatCompletionFunctionToolParam
from openai.types.responses import FunctionToolParam
from pydantic import TypeAdapter

from standard_tool import input_json_schema, standard_tool
from standard_tool.providers import (
    OpenAIStrictError,
    OpenAIStrictSchema,
    ProviderSchemaError,
    check_gemini,
    check_mcp_tool,
    check_openai_strict,
    mcp_output_wrapped,
    openai_strict,
    to_anthropic,
    to_gemini,
    to_mcp,
    to_openai_chat,
    to_openai_responses,
)
from tests.example_tools import (
    ALL_TOOLS,
    PLAIN_TOOL,
    RECURSIVE_TOOLS,
    count_nodes,
    get_weather,
    order_pydantic,
    ping,
    tag_resource,
)

IDS = [t.name for t in ALL_TOOLS]
NON_RECURSIVE = [t for t in ALL_TOOLS if t not in RECURSIVE_TOOLS]


@pytest.mark.parametrize("tool", ALL_TOOLS, ids=IDS)
def test_openai_chat_payload_validates_with_the_sdk_type_and_passes_the_strict_checker(
    tool: Any,
) -> None:
    payload = to_openai_chat(tool)
    TypeAdapter(ChatCompletionFunctionToolParam).validate_python(payload, strict=True)
    function = payload["function"]
    assert function["name"] == tool.name
    assert function["strict"] is True
    assert check_openai_strict(function["parameters"]) == []


@pytest.mark.parametrize("tool", ALL_TOOLS, ids=IDS)
def test_openai_responses_payload_is_flat_and_validates_with_the_sdk_type(tool: Any) -> None:
    payload = to_openai_responses(tool)
    TypeAdapter(FunctionToolParam).validate_python(payload, strict=True)
    assert payload["type"] == "function"
    assert payload["name"] == tool.name
    assert payload["parameters"] == to_openai_chat(tool)["function"]["parameters"]


@pytest.mark.parametrize("tool", ALL_TOOLS, ids=IDS)
@pytest.mark.parametrize("convert", [to_openai_chat, to_openai_responses])
def test_openai_without_strict_sends_the_tools_own_schema(tool: Any, convert: Any) -> None:
    payload = convert(tool, strict=False)
    params = payload["function"]["parameters"] if "function" in payload else payload["parameters"]
    original = input_json_schema(tool)
    original.pop("$schema", None)
    assert params == original
    assert payload.get("function", payload)["strict"] is False


@pytest.mark.parametrize("tool", ALL_TOOLS, ids=IDS)
def test_anthropic_payload_validates_with_the_sdk_type(tool: Any) -> None:
    payload = to_anthropic(tool)
    TypeAdapter(ToolParam).validate_python(payload, strict=True)
    assert payload["input_schema"]["type"] == "object"
    assert payload["description"] == tool.description


def test_anthropic_cache_control_is_an_option_of_the_function() -> None:
    payload = to_anthropic(get_weather, cache_control={"type": "ephemeral"})
    TypeAdapter(ToolParam).validate_python(payload, strict=True)
    assert payload["cache_control"] == {"type": "ephemeral"}
    assert "cache_control" not in to_anthropic(get_weather)


@pytest.mark.parametrize("tool", NON_RECURSIVE, ids=[t.name for t in NON_RECURSIVE])
def test_gemini_declaration_validates_with_the_sdk_and_passes_the_gemini_checker(
    tool: Any,
) -> None:
    payload = to_gemini(tool)
    declaration = genai_types.FunctionDeclaration.model_validate(payload)
    assert declaration.name == tool.name
    if "parameters" in payload:
        assert check_gemini(payload["parameters"]) == []
        assert declaration.parameters is not None


def test_gemini_refuses_a_recursive_tool_naming_the_type() -> None:
    with pytest.raises(ProviderSchemaError) as info:
        to_gemini(count_nodes)
    message = str(info.value)
    assert message.startswith("standard_tool.providers: ")
    assert "count_nodes" in message
    assert "TreeNode" in message
    assert "recursive" in message


def test_gemini_omits_parameters_for_a_tool_without_any() -> None:
    assert to_gemini(ping) == {"name": "ping", "description": "Check the service is up."}


def test_gemini_inlines_models_and_keeps_constraints_in_its_subset() -> None:
    params = to_gemini(order_pydantic)["parameters"]
    item = params["properties"]["items"]["items"]
    assert item["properties"]["qty"]["type"] == "integer"
    # qty > 0 on an integer is exactly qty >= 1: no note needed
    assert item["properties"]["qty"]["minimum"] == 1
    assert "greater than" not in item["properties"]["qty"].get("description", "")
    assert params["properties"]["note"]["nullable"] is True
    assert params["required"] == ["items", "address"]
    assert params["propertyOrdering"] == ["items", "address", "note"]


@pytest.mark.parametrize("tool", ALL_TOOLS, ids=IDS)
def test_mcp_entry_validates_with_the_sdk_tool_model(tool: Any) -> None:
    payload = to_mcp(tool)
    model = mcp.types.Tool.model_validate(payload)
    assert check_mcp_tool(payload) == []
    assert model.name == tool.name
    assert model.title == tool.title
    assert model.input_schema["type"] == "object"
    if model.output_schema is not None:
        assert model.output_schema["type"] == "object"


def test_mcp_wraps_a_non_object_output_schema_as_result() -> None:
    payload = to_mcp(get_weather)
    assert payload["outputSchema"] == {
        "type": "object",
        "properties": {"result": {"type": "string"}},
        "required": ["result"],
    }
    assert mcp_output_wrapped(get_weather) is True
    assert mcp_output_wrapped(tag_resource) is False
    assert to_mcp(tag_resource)["outputSchema"]["additionalProperties"] == {"type": "string"}


def test_mcp_hoists_defs_when_wrapping_an_output() -> None:
    tool = standard_tool(
        name="t",
        description="d",
        execute=list,
        output_schema=PLAIN_TOOL.output_schema,
    )
    assert to_mcp(tool)["outputSchema"]["properties"]["result"] == {"type": "number"}


def test_mcp_annotations_are_an_option_of_the_function() -> None:
    payload = to_mcp(get_weather, annotations={"readOnlyHint": True})
    assert mcp.types.Tool.model_validate(payload).annotations is not None
    assert payload["annotations"] == {"readOnlyHint": True}


def test_plain_object_tool_converts_for_every_target() -> None:
    assert to_mcp(PLAIN_TOOL)["title"] == "Add numbers"
    chat = to_openai_chat(PLAIN_TOOL)["function"]
    assert chat["parameters"]["required"] == ["a", "b"]
    assert chat["parameters"]["properties"]["b"]["type"] == ["number", "null"]
    assert openai_strict(PLAIN_TOOL).decode({"a": 1, "b": None}) == {"a": 1}
    assert to_gemini(PLAIN_TOOL)["parameters"]["required"] == ["a"]


def test_strict_true_raises_before_sending_when_the_schema_cannot_be_represented() -> None:
    free = standard_tool(
        name="free",
        description="d",
        execute=lambda x: x,
        input_schema=_plain({"type": "object", "properties": {"meta": {"type": "object"}}}),
    )
    with pytest.raises(OpenAIStrictError) as info:
        to_openai_chat(free, strict=True)
    assert isinstance(info.value, ValueError)
    assert str(info.value).startswith("standard_tool.providers: tool 'free' cannot use OpenAI")
    assert "/properties/meta" in str(info.value)
    auto = to_openai_chat(free)["function"]
    assert auto["strict"] is False
    assert auto["parameters"]["properties"]["meta"] == {"type": "object"}


def test_strict_must_be_true_false_or_auto() -> None:
    with pytest.raises(ValueError, match="strict must be True, False or 'auto'"):
        to_openai_chat(ping, strict="yes")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


@pytest.mark.parametrize(
    ("convert", "bad"),
    [
        (to_openai_chat, "get weather"),
        (to_openai_chat, "x" * 65),
        (to_openai_responses, "a.b"),
        (to_anthropic, "a.b"),
        (to_anthropic, "x" * 129),
        (to_gemini, "1abc"),
        (to_mcp, "a b"),
        (to_mcp, "x" * 129),
    ],
)
def test_a_name_the_provider_rejects_raises_a_bounded_error(convert: Any, bad: str) -> None:
    tool = standard_tool(name=bad, description="d", execute=lambda: 1)
    with pytest.raises(ProviderSchemaError) as info:
        convert(tool)
    assert str(info.value).startswith("standard_tool.providers: tool name")
    assert len(str(info.value)) < 300


def test_names_each_provider_accepts() -> None:
    dotted = standard_tool(name="files.read", description="d", execute=lambda: 1)
    assert to_mcp(dotted)["name"] == "files.read"
    assert to_gemini(dotted)["name"] == "files.read"


def test_a_non_object_input_is_refused_for_every_target() -> None:
    scalar = standard_tool(
        name="scalar",
        description="d",
        execute=lambda x: x,
        input_schema=_plain({"type": "integer"}),
    )
    for convert in (to_openai_chat, to_anthropic, to_mcp, to_gemini):
        with pytest.raises(ProviderSchemaError, match=r"standard_tool\.providers: "):
            convert(scalar)


def test_a_root_ref_is_dereferenced_for_every_target() -> None:
    schema = {
        "$ref": "#/$defs/Args",
        "$defs": {
            "Args": {
                "type": "object",
                "properties": {"q": {"type": "string"}},
                "required": ["q"],
            }
        },
    }
    tool = standard_tool(
        name="q", description="d", execute=lambda x: x, input_schema=_plain(schema)
    )
    assert to_anthropic(tool)["input_schema"]["properties"] == {"q": {"type": "string"}}
    assert to_mcp(tool)["inputSchema"]["type"] == "object"
    assert to_openai_chat(tool)["function"]["strict"] is True
    assert to_gemini(tool)["parameters"]["properties"] == {"q": {"type": "string"}}


def test_converters_never_mutate_the_tools_schema() -> None:
    before = input_json_schema(order_pydantic)
    for convert in (to_openai_chat, to_openai_responses, to_anthropic, to_gemini, to_mcp):
        payload = convert(order_pydantic)
        payload.clear()
    assert input_json_schema(order_pydantic) == before
    strict = openai_strict(order_pydantic)
    strict.schema.clear()
    assert strict.schema["type"] == "object"


def _plain(schema: dict[str, Any]) -> Any:
    from tests.example_tools import PlainSchema

    return PlainSchema(schema)


def test_a_dict_built_tools_strict_declaration_is_fresh_at_every_call() -> None:
    # The first declaration is the rewrite itself; the second is made again from the
    # tool's schema and kept; later ones are copies of it.
    schema = {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "Where."},
            "days": {"type": "integer", "default": 3},
            "unit": {"type": "string", "enum": ["c", "f"]},
        },
        "required": ["city"],
    }
    tool = standard_tool(name="weather", description="d", input_schema=schema, execute=lambda x: x)
    declared = [to_openai_chat(tool)["function"]["parameters"] for _ in range(4)]
    assert declared[0]["required"] == ["city", "days", "unit"]
    assert declared[0]["properties"]["days"]["type"] == ["integer", "null"]
    for later in declared[1:]:
        assert later == declared[0]
        assert later is not declared[0]
    declared[1]["properties"].clear()  # the kept one was handed out: a copy was kept
    declared[2]["required"].append("x")
    assert to_openai_chat(tool)["function"]["parameters"] == declared[3]
    assert openai_strict(tool).decode({"city": "Oslo", "days": None, "unit": "c"}) == {
        "city": "Oslo",
        "unit": "c",
    }


@pytest.mark.parametrize(
    "first", ["to_openai_chat", "openai_strict", "from_json_schema", "a schema not a dict"]
)
@pytest.mark.parametrize("strict", [True, False])
def test_the_strict_view_makes_its_schema_once_then_again_once_and_keeps_it(
    first: str, strict: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A dict-built tool declared once keeps no copy of its declaration: the schema is
    # made with the view and handed out; the second reader makes it again from the
    # tool's own copy, and that one is kept. A view with no such copy keeps it at once.
    from standard_tool.providers import _openai

    made: list[str] = []
    for name in ("_strict_parts", "_made_again"):
        real = getattr(_openai, name)

        def counted(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            made.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(_openai, name, counted)
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {"q": {"type": "string"}, "n": {"type": "integer", "default": 2}},
    }
    if not strict:  # a map with free keys at the root cannot be strict
        schema = {"type": "object", "additionalProperties": {"type": "string"}}
    given: Any = _plain(schema) if first == "a schema not a dict" else schema
    tool = standard_tool(name="t", description="d", input_schema=given, execute=lambda x: x)
    if first in ("to_openai_chat", "a schema not a dict"):
        view = None
        declared = [to_openai_chat(tool)["function"]["parameters"]]
    elif first == "openai_strict":
        view = openai_strict(tool)
        declared = [view.schema]
    else:
        view = OpenAIStrictSchema.from_json_schema(schema)
        declared = [view.schema]
    assert made == ["_strict_parts"]
    if view is None:
        view = openai_strict(tool)
    assert view.strict is strict
    declared += [view.schema for _ in range(3)]
    if first != "from_json_schema":  # the tool's own view
        declared += [to_openai_chat(tool)["function"]["parameters"] for _ in range(2)]
    if first in ("from_json_schema", "a schema not a dict"):
        assert made == ["_strict_parts"]
    else:
        assert made == ["_strict_parts", "_made_again"]
    assert all(d == declared[0] for d in declared)
    assert len({id(d) for d in declared}) == len(declared)
    for d in declared:
        d.clear()
    assert view.schema == to_openai_chat(tool)["function"]["parameters"] != {}
    assert view.schema is not view.schema


# Not valid JSON Schema: a tool built from a dict checks it on its first call, so every
# converter meets such schemas first. Each once crashed one converter.
_MALFORMED = {
    "prefixItems not a list (Gemini)": {
        "type": "object",
        "properties": {"a": {"type": "array", "items": {"type": "string"}, "prefixItems": 3}},
    },
    "an empty type list": {"type": "object", "properties": {"a": {"type": []}}},
    "a dict in required": {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": [{}],
    },
    "a list as format": {
        "type": "object",
        "properties": {"a": {"type": "string", "format": ["date"]}},
    },
}


@pytest.mark.parametrize("schema", list(_MALFORMED.values()), ids=list(_MALFORMED))
def test_a_malformed_schema_is_declared_or_refused_by_name_never_a_crash(
    schema: dict[str, Any],
) -> None:
    from standard_tool.schemas import InvalidSchemaError

    tool = standard_tool(name="t", description="d", input_schema=schema, execute=lambda v: v)
    for convert in (to_openai_chat, to_openai_responses, to_anthropic, to_gemini, to_mcp):
        outcome: object
        try:
            outcome = convert(tool)
        except ProviderSchemaError as err:
            outcome = str(err)
        if isinstance(outcome, str):
            assert outcome.startswith("standard_tool.providers: ")
        else:
            assert isinstance(outcome, dict)
    with pytest.raises(InvalidSchemaError, match="not a valid"):  # the check, on first use
        tool.execute({})


def test_the_per_tool_cache_builds_once_per_tool_and_never_keeps_a_tool_alive() -> None:
    import gc
    import weakref

    from standard_tool.providers._convert_common import ToolCache

    class Slotted:  # no __weakref__: built on every call, never cached
        __slots__ = ()

    class Unhashable:
        __hash__ = None  # type: ignore[assignment]

    class Plain:
        pass

    cache: ToolCache[list[int]] = ToolCache()
    made: list[int] = []

    def build() -> list[int]:
        made.append(1)
        return [len(made)]

    tool = Plain()
    first = cache.get(tool, build)
    assert cache.get(tool, build) is first
    assert cache.get(Plain(), build) is not first
    assert len(made) == 2
    for odd in (Slotted(), Unhashable()):
        assert cache.get(odd, build) is not cache.get(odd, build)
    assert len(made) == 6
    gone = weakref.ref(tool)
    del tool
    gc.collect()
    assert gone() is None


def test_a_dict_built_tools_non_strict_declaration_is_fresh_at_every_call() -> None:
    # Cannot be strict (a property of any value): the plain parameters, lent at the
    # first declaration, made again from the tool's copy at the second, copied after.
    schema = {"type": "object", "properties": {"any": {"description": "Anything."}}}
    tool = standard_tool(name="loose", description="d", input_schema=schema, execute=lambda x: x)
    declared = [to_openai_chat(tool)["function"] for _ in range(4)]
    assert [d["strict"] for d in declared] == [False] * 4
    first = declared[0]["parameters"]
    assert first == {"type": "object", "properties": {"any": {"description": "Anything."}}}
    first["properties"].clear()
    declared[1]["parameters"]["type"] = "array"
    assert to_openai_chat(tool)["function"]["parameters"] == declared[3]["parameters"]
    assert declared[3]["parameters"]["properties"] == {"any": {"description": "Anything."}}
    assert input_json_schema(tool) == schema
    assert openai_strict(tool).decode({"any": 1}) == {"any": 1}
