"""Tool declarations for OpenAI, Anthropic, Gemini and MCP, from any conforming tool.

Layer: providers (imports the core, shared helpers, dialects and the toolkit; never
the package root).

Every converter takes one tool (and returns one declaration) or a ``Toolkit`` or
any iterable of tools (and returns a list of declarations, in order).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, cast

from typing_extensions import Literal, TypeAlias, overload

from standard_tool._core import StandardToolV0Definition, input_json_schema, output_json_schema
from standard_tool._toolkit import Toolkit
from standard_tool.providers._convert_common import (
    PREFIX,
    ProviderOptionError,
    ProviderSchemaError,
    is_object,
    object_root,
    value_text,
)
from standard_tool.providers._gemini import gemini_parameters
from standard_tool.providers._mcp import MCP_NAME
from standard_tool.providers._strict import OpenAIStrictError, openai_strict, plain_parameters

__all__ = [
    "mcp_output_wrapped",
    "to_anthropic",
    "to_gemini",
    "to_mcp",
    "to_openai_chat",
    "to_openai_responses",
]

_Tool = StandardToolV0Definition[Any, Any, Any, Any]
#: A ``Toolkit`` or any iterable of tools: what a converter turns into a list.
ManyTools: TypeAlias = "Toolkit | Iterable[StandardToolV0Definition[Any, Any, Any, Any]]"


def _is_one_tool(tools: object) -> bool:
    return not isinstance(tools, Toolkit) and hasattr(tools, "execute") and hasattr(tools, "name")


def _each(
    tools: _Tool | ManyTools, declare: Callable[[_Tool], dict[str, Any]]
) -> dict[str, Any] | list[dict[str, Any]]:
    """``declare(tools)`` for one tool, else a list with ``declare`` applied to each."""
    if _is_one_tool(tools):
        return declare(cast("_Tool", tools))
    return [declare(t) for t in cast("Iterable[_Tool]", tools)]


_OPENAI_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
_ANTHROPIC_NAME = re.compile(r"[A-Za-z0-9_-]{1,128}")
_GEMINI_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,127}")


def _check_name(tool: _Tool, pattern: re.Pattern[str], provider: str, rule: str) -> str:
    name = tool.name
    if not pattern.fullmatch(name):
        raise ProviderSchemaError(
            f"{PREFIX}tool name {value_text(name, 80)} is not accepted by {provider}: use {rule}"
        )
    return name


def _parameters(tool: _Tool) -> dict[str, Any]:
    try:
        return plain_parameters(input_json_schema(tool))
    except ProviderSchemaError as err:
        raise ProviderSchemaError(f"{err} [tool {tool.name!r}]") from err


def _openai_parameters(tool: _Tool, strict: bool | Literal["auto"]) -> tuple[dict[str, Any], bool]:
    if strict is False:
        return _parameters(tool), False
    if strict not in (True, "auto"):
        raise ProviderOptionError(f"{PREFIX}strict must be True, False or 'auto', not {strict!r}")
    view = openai_strict(tool)
    if view.strict:
        return view.schema, True
    if strict is True:
        raise OpenAIStrictError(
            f"{PREFIX}tool {tool.name!r} cannot use OpenAI strict mode: {view.reason}. "
            "Pass strict='auto' or strict=False to send it without strict mode"
        )
    return _parameters(tool), False


@overload
def to_openai_chat(tool: _Tool, *, strict: bool | Literal["auto"] = "auto") -> dict[str, Any]: ...
@overload
def to_openai_chat(
    tool: ManyTools, *, strict: bool | Literal["auto"] = "auto"
) -> list[dict[str, Any]]: ...
def to_openai_chat(
    tool: _Tool | ManyTools, *, strict: bool | Literal["auto"] = "auto"
) -> dict[str, Any] | list[dict[str, Any]]:
    """Declare ``tool`` for the OpenAI Chat Completions API.

    Args:
        tool: any conforming tool, or a ``Toolkit`` or iterable of tools (then
            the result is a list of declarations, in order).
        strict: ``"auto"`` (default) uses strict mode when the input schema can
            be represented there (see ``openai_strict`` for why not
            otherwise); ``True`` insists and raises ``OpenAIStrictError``
            if it cannot; ``False`` sends the plain JSON Schema.

    Returns:
        ``{"type": "function", "function": {"name", "description", "parameters",
        "strict"}}``. When ``"strict"`` is true, decode the model's arguments with
        ``openai_strict(tool).decode(arguments)`` before running the tool.

    Raises:
        ProviderSchemaError: the name is not ``[A-Za-z0-9_-]{1,64}`` or the input
            is not an object.

    Examples:
        >>> from standard_tool import standard_tool
        >>> ping = standard_tool(name="ping", description="Ping.", execute=lambda: "pong")
        >>> to_openai_chat(ping)["function"]["strict"]
        True
    """
    return _each(tool, lambda t: _openai_chat(t, strict))


def _openai_chat(tool: _Tool, strict: bool | Literal["auto"]) -> dict[str, Any]:
    name = _check_name(tool, _OPENAI_NAME, "OpenAI", "1 to 64 of A-Z, a-z, 0-9, '_' and '-'")
    parameters, is_strict = _openai_parameters(tool, strict)
    function: dict[str, Any] = {"name": name}
    if tool.description:
        function["description"] = tool.description
    function["parameters"] = parameters
    function["strict"] = is_strict
    return {"type": "function", "function": function}


@overload
def to_openai_responses(
    tool: _Tool, *, strict: bool | Literal["auto"] = "auto"
) -> dict[str, Any]: ...
@overload
def to_openai_responses(
    tool: ManyTools, *, strict: bool | Literal["auto"] = "auto"
) -> list[dict[str, Any]]: ...
def to_openai_responses(
    tool: _Tool | ManyTools, *, strict: bool | Literal["auto"] = "auto"
) -> dict[str, Any] | list[dict[str, Any]]:
    """Declare ``tool`` (or each of a ``Toolkit`` or iterable) for the OpenAI Responses API.

    Same rules as ``to_openai_chat``; the shape is flat:
    ``{"type": "function", "name", "description", "parameters", "strict"}``.
    """
    return _each(tool, lambda t: _openai_responses(t, strict))


def _openai_responses(tool: _Tool, strict: bool | Literal["auto"]) -> dict[str, Any]:
    name = _check_name(tool, _OPENAI_NAME, "OpenAI", "1 to 64 of A-Z, a-z, 0-9, '_' and '-'")
    parameters, is_strict = _openai_parameters(tool, strict)
    out: dict[str, Any] = {"type": "function", "name": name}
    if tool.description:
        out["description"] = tool.description
    out["parameters"] = parameters
    out["strict"] = is_strict
    return out


@overload
def to_anthropic(
    tool: _Tool, *, cache_control: Mapping[str, Any] | None = None
) -> dict[str, Any]: ...
@overload
def to_anthropic(
    tool: ManyTools, *, cache_control: Mapping[str, Any] | None = None
) -> list[dict[str, Any]]: ...
def to_anthropic(
    tool: _Tool | ManyTools, *, cache_control: Mapping[str, Any] | None = None
) -> dict[str, Any] | list[dict[str, Any]]:
    """Declare ``tool`` for the Anthropic Messages API.

    Args:
        tool: any conforming tool, or a ``Toolkit`` or iterable of tools (then
            the result is a list of declarations, in order).
        cache_control: an optional prompt-caching breakpoint, for example
            ``{"type": "ephemeral"}``, set on the tool (on the last one of a list,
            so the whole list is cached). Provider options belong here, never on
            the tool.

    Returns:
        ``{"name", "description", "input_schema"}`` (plus ``cache_control``), the
        input schema being the tool's draft 2020-12 JSON Schema.

    Raises:
        ProviderSchemaError: the name is not ``[A-Za-z0-9_-]{1,128}`` or the input
            is not an object.
    """
    if _is_one_tool(tool):
        return _anthropic(cast("_Tool", tool), cache_control)
    listed = list(cast("Iterable[_Tool]", tool))
    last = len(listed) - 1
    return [_anthropic(t, cache_control if i == last else None) for i, t in enumerate(listed)]


def _anthropic(tool: _Tool, cache_control: Mapping[str, Any] | None) -> dict[str, Any]:
    name = _check_name(tool, _ANTHROPIC_NAME, "Anthropic", "1 to 128 of A-Z, a-z, 0-9, '_' and '-'")
    out: dict[str, Any] = {"name": name}
    if tool.description:
        out["description"] = tool.description
    out["input_schema"] = _parameters(tool)
    if cache_control is not None:
        out["cache_control"] = dict(cache_control)
    return out


@overload
def to_gemini(tool: _Tool) -> dict[str, Any]: ...
@overload
def to_gemini(tool: ManyTools) -> list[dict[str, Any]]: ...
def to_gemini(tool: _Tool | ManyTools) -> dict[str, Any] | list[dict[str, Any]]:
    """Declare ``tool`` (or each of a ``Toolkit`` or iterable) as a Gemini function declaration.

    Returns:
        ``{"name", "description", "parameters"}`` with ``parameters`` in
        Gemini's OpenAPI subset (see ``GeminiParameters``), omitted for a
        tool without parameters. It validates with
        ``google.genai.types.FunctionDeclaration.model_validate``. Decode the
        model's ``function_call.args`` with ``gemini_parameters(tool).decode``.

    Raises:
        ProviderSchemaError: a bad name, a recursive input schema (named in the
            message) or parts Gemini cannot express.
    """
    return _each(tool, _gemini)


def _gemini(tool: _Tool) -> dict[str, Any]:
    name = _check_name(
        tool,
        _GEMINI_NAME,
        "Gemini",
        "a letter or '_' then up to 127 of A-Z, a-z, 0-9, '_', '.', ':' and '-'",
    )
    parameters = gemini_parameters(tool).schema
    out: dict[str, Any] = {"name": name}
    if tool.description:
        out["description"] = tool.description
    if parameters is not None:
        out["parameters"] = parameters
    return out


def _mcp_output(tool: _Tool) -> tuple[dict[str, Any] | None, bool]:
    schema = output_json_schema(tool)
    if schema is None:
        return None, False
    root = object_root(schema)
    if root is not None and root.get("type") == "object":
        root.pop("$schema", None)
        return root, False
    inner = copy.deepcopy(schema)
    wrapped: dict[str, Any] = {"type": "object"}
    for key in ("$defs", "definitions"):
        if is_object(inner.get(key)):
            wrapped[key] = inner.pop(key)
    inner.pop("$schema", None)
    wrapped["properties"] = {"result": inner}
    wrapped["required"] = ["result"]
    return wrapped, True


def mcp_output_wrapped(tool: _Tool) -> bool:
    """Tell whether MCP sees ``tool``'s output wrapped as ``{"result": value}``.

    MCP requires an object at the root of ``outputSchema`` and of
    ``structuredContent``. A tool whose output schema is not an object is
    declared by ``to_mcp`` with ``{"result": <its schema>}``, and
    ``mcp_call_tool_result`` must wrap its values the same way.
    """
    return _mcp_output(tool)[1]


@overload
def to_mcp(tool: _Tool, *, annotations: Mapping[str, Any] | None = None) -> dict[str, Any]: ...
@overload
def to_mcp(
    tool: ManyTools, *, annotations: Mapping[str, Any] | None = None
) -> list[dict[str, Any]]: ...
def to_mcp(
    tool: _Tool | ManyTools, *, annotations: Mapping[str, Any] | None = None
) -> dict[str, Any] | list[dict[str, Any]]:
    """Describe ``tool`` as an MCP ``tools/list`` entry.

    Args:
        tool: any conforming tool, or a ``Toolkit`` or iterable of tools (then
            the result is a list of entries, in order).
        annotations: optional MCP tool annotations (``readOnlyHint``,
            ``destructiveHint``, ``idempotentHint``, ``openWorldHint``, ``title``).

    Returns:
        ``{"name", "title", "description", "inputSchema", "outputSchema"}``
        (``title`` and ``outputSchema`` only when the tool has them). Schemas are
        draft 2020-12. An output schema whose root is not an object is wrapped as
        ``{"result": ...}`` (see ``mcp_output_wrapped``).

    Raises:
        ProviderSchemaError: the name breaks MCP's rule (1 to 128 of
            ``A-Z a-z 0-9 _ - .``) or the input is not an object.
    """
    return _each(tool, lambda t: _mcp(t, annotations))


def _mcp(tool: _Tool, annotations: Mapping[str, Any] | None) -> dict[str, Any]:
    name = _check_name(tool, MCP_NAME, "MCP", "1 to 128 of A-Z, a-z, 0-9, '_', '-' and '.'")
    out: dict[str, Any] = {"name": name}
    if tool.title is not None:
        out["title"] = tool.title
    out["description"] = tool.description
    out["inputSchema"] = _parameters(tool)
    output, _ = _mcp_output(tool)
    if output is not None:
        out["outputSchema"] = output
    if annotations is not None:
        out["annotations"] = dict(annotations)
    return out
