"""The provider converters against the official JSON-Schema-Test-Suite (issue 16).

Every non-remote group of the draft 2020-12 and draft-07 suites is wrapped as a tool
input (``{"v": <schema>}``, its references moved along) and converted for OpenAI
strict mode, Gemini, Anthropic and MCP. Each conversion either gives a declaration
its own checker accepts, or refuses with the library's documented error
(``ProviderSchemaError``, ``SchemaConversionError``, ``ToolDefinitionError`` for a
schema the tool cannot validate with) or, for OpenAI, falls back to
non-strict with a reason. Nothing crashes: no ``RecursionError`` on an anchor, no
``KeyError`` on a reference with a URI before ``#``.
"""

from __future__ import annotations

from typing import Any

import pytest

from standard_tool import ToolDefinitionError, standard_tool
from standard_tool.dialects import DRAFT_07_URI, SchemaConversionError
from standard_tool.providers import (
    GeminiParameters,
    OpenAIStrictSchema,
    ProviderSchemaError,
    check_gemini,
    check_mcp_tool,
    check_openai_strict,
    to_anthropic,
    to_mcp,
)
from tests.test_dialects_suite import SUITE, Case, _cases, _is_remote

PROVIDERS = ("openai-strict", "gemini", "anthropic", "mcp")


def _moved(value: Any) -> Any:
    """The schema with every local pointer ``$ref`` moved under ``/properties/v``."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():  # pyright: ignore[reportUnknownVariableType]
            if key == "$ref" and isinstance(item, str) and (item == "#" or item.startswith("#/")):
                out[key] = "#/properties/v" + item[1:]
            else:
                out[str(key)] = _moved(item)  # pyright: ignore[reportUnknownArgumentType]
        return out
    if isinstance(value, list):
        return [_moved(v) for v in value]  # pyright: ignore[reportUnknownVariableType]
    return value


def _wrapped(case: Case) -> dict[str, Any]:
    marker = {"$schema": DRAFT_07_URI} if case.source == "draft7" else {}
    return {
        **marker,
        "type": "object",
        "properties": {"v": _moved(case.group["schema"])},
        "required": ["v"],
        "additionalProperties": False,
    }


def convert(provider: str, schema: dict[str, Any]) -> str | None:
    """Convert for ``provider``; return a problem, or None when the outcome is allowed."""
    try:
        if provider == "openai-strict":
            strict = OpenAIStrictSchema.from_json_schema(schema)
            if not strict.strict:
                return None if strict.reason else "fell back to non-strict without a reason"
            problems = check_openai_strict(strict.schema)
        elif provider == "gemini":
            params = GeminiParameters.from_json_schema(schema, name="t")
            problems = [] if params.schema is None else check_gemini(params.schema)
        else:
            tool = standard_tool(name="t", description="d", input_schema=schema, execute=dict)
            if provider == "anthropic":
                declaration = to_anthropic(tool)
                problems = [] if declaration["input_schema"]["type"] == "object" else ["no object"]
            else:
                problems = check_mcp_tool(to_mcp(tool))
    except (ProviderSchemaError, SchemaConversionError, ToolDefinitionError) as err:
        # documented refusals; a tool refuses a schema its validator cannot read
        # (an ECMA-262 regex Python's re lacks, such as \p{Letter})
        return None if str(err) else "a refusal without a reason"
    except Exception as err:  # a crash is the case's failure
        return f"crashed: {err!r}"[:500]
    return f"its own checker refuses it: {problems[:3]}" if problems else None


def _params() -> list[Any]:
    if not SUITE.is_dir():
        return [pytest.param(None, "", id="suite-missing")]
    params: list[Any] = []
    for case in _cases():
        if _is_remote(case):
            continue
        for provider in PROVIDERS:
            name = f"{case.source}/{case.file}:{case.group['description']}->{provider}"
            params.append(pytest.param(case, provider, id=name))
    return params


@pytest.mark.parametrize(("case", "provider"), _params())
def test_provider_conversion_of_every_suite_schema(case: Case | None, provider: str) -> None:
    if case is None:
        pytest.fail(f"the JSON-Schema-Test-Suite is missing at {SUITE}")
    problem = convert(provider, _wrapped(case))
    assert problem is None, problem


ANCHOR = {
    "type": "object",
    "properties": {"v": {"$ref": "#a", "description": "d"}},
    "$defs": {"x": {"$anchor": "a", "type": "integer"}},
}


def test_an_anchor_reference_is_resolved_not_read_as_the_root() -> None:
    strict = OpenAIStrictSchema.from_json_schema(ANCHOR)
    assert strict.strict
    assert strict.schema["properties"]["v"]["type"] == ["integer", "null"]
    params = GeminiParameters.from_json_schema(ANCHOR)
    assert params.schema is not None
    assert params.schema["properties"]["v"]["type"] == "integer"


def test_a_reference_with_a_uri_before_the_fragment_is_refused_with_the_reason() -> None:
    schema = {
        "type": "object",
        "properties": {"v": {"$ref": "http://x.invalid/s#/$defs/x"}},
        "$defs": {"x": {"type": "integer"}},
    }
    strict = OpenAIStrictSchema.from_json_schema(schema)
    assert not strict.strict
    assert "must point into $defs" in str(strict.reason)
    with pytest.raises(ProviderSchemaError, match="only local references"):
        GeminiParameters.from_json_schema(schema)


def test_an_untyped_whole_number_enum_is_declared_a_number_not_an_integer() -> None:
    # JSON Schema compares enum numbers by value: 0.0 is in [0], so "integer" would
    # tell the model that a value the schema accepts is wrong.
    schema = {"type": "object", "properties": {"v": {"enum": [0, 1]}}, "required": ["v"]}
    params = GeminiParameters.from_json_schema(schema)
    assert params.schema is not None
    assert params.schema["properties"]["v"]["type"] == "number"
    strict = OpenAIStrictSchema.from_json_schema(schema)
    assert strict.schema["properties"]["v"] == {"type": "number", "enum": [0, 1]}
