"""MCP: the tool-name rule, the ``tools/list`` entry checker and the declaration.

Layer: providers (imports the core, the shared helpers and ``_check``; never the package
root).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

from typing_extensions import Literal, NotRequired, TypedDict, overload

from standard_tool._core import (
    AsyncTool,
    StandardToolV0Definition,
    Tool,
    optional_member,
    output_json_schema,
)
from standard_tool._shared import Snapshot, checked_timeout, truncate_text
from standard_tool._toolkit import ToolResult
from standard_tool.content import (
    Audio,
    Content,
    EmbeddedResource,
    Image,
    ResourceLink,
    Text,
    ToolOutput,
    rich_output,
)
from standard_tool.dialects import SchemaConversionError
from standard_tool.dialects import inline_refs as inline_local_refs
from standard_tool.providers._check import Problems, SchemaProblem
from standard_tool.providers._convert_common import (
    ToolCache,
    checked_json_schema,
    is_object,
    object_root,
)
from standard_tool.providers._declare import (
    AnyTool,
    ManyTools,
    check_name,
    each,
    parameters,
)
from standard_tool.providers._mcp_caller import session_caller
from standard_tool.providers._runner import (
    Tools,
    toolkit,
)
from standard_tool.providers._text import (
    ERROR_MAX_CHARS,
    OUTPUT_MAX_CHARS,
    SMALL_INT,
    bounded_output,
    error_text,
    json_data,
    json_text,
    sendable,
)

#: ``(inputSchema, outputSchema or None)``.
_Schemas = tuple[dict[str, Any], "dict[str, Any] | None"]

if TYPE_CHECKING:
    import mcp_types
    from mcp.server.context import ServerRequestContext
    from mcp.server.lowlevel import Server

__all__ = [
    "MCP_NAME",
    "MCP_NAME_RULE",
    "MCPToolHandlers",
    "check_mcp_tool",
    "content_from_mcp",
    "mcp_call_tool_result",
    "mcp_content",
    "mcp_output_wrapped",
    "mcp_result_formatter",
    "mcp_server",
    "mcp_tool_handlers",
    "to_mcp",
]

#: The MCP tool-name rule (specification 2025-11-25, "Tool names", from SEP-986):
#: "Tool names SHOULD be between 1 and 128 characters in length (inclusive)" and
#: "The following SHOULD be the only allowed characters: uppercase and lowercase ASCII
#: letters (A-Z, a-z), digits (0-9), underscore (_), hyphen (-), and dot (.)".
MCP_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")
#: ``MCP_NAME`` in words, for messages.
MCP_NAME_RULE = "1 to 128 characters from A-Z, a-z, 0-9, '_', '-' and '.'"


# --------------------------------------------------------------------------------------
# MCP
# --------------------------------------------------------------------------------------


def check_mcp_tool(payload: Mapping[str, Any]) -> list[SchemaProblem]:
    """List what an MCP client would reject in a ``tools/list`` entry.

    Checks: ``name`` of 1 to 128 characters from ``A-Z a-z 0-9 _ - .``
    (SEP-986); ``title`` and ``description`` strings when present, the
    description not empty;
    ``inputSchema`` an object schema with ``"type": "object"`` at its root;
    ``outputSchema``, when present, the same (protocol versions up to
    2025-11-25 require an object root; structured results must be objects).

    Returns:
        The problems found, empty when the entry is acceptable.
    """
    problems = Problems()
    if not is_object(payload):
        problems.add((), "is not a JSON object")
        return problems.items
    name = payload.get("name")
    if not isinstance(name, str) or not MCP_NAME.fullmatch(name):
        problems.add(
            ("name",),
            f"must be {MCP_NAME_RULE}",
        )
    for key in ("title", "description"):
        if key in payload and payload[key] is not None and not isinstance(payload[key], str):
            problems.add((key,), "must be a string")
    description = payload.get("description")
    if isinstance(description, str) and not description.strip():
        problems.add(("description",), "is empty: leave it out, or say what the tool does")
    for key, required in (("inputSchema", True), ("outputSchema", False)):
        if key not in payload or payload[key] is None:
            if required:
                problems.add((key,), "is required")
            continue
        schema = payload[key]
        if not is_object(schema):
            problems.add((key,), "must be a JSON Schema object")
        elif schema.get("type") != "object":
            problems.add((key, "type"), 'must be "object" at the root')
    unknown = set(payload) - {
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
        "icons",
        "execution",
        "_meta",
    }
    for key in sorted(unknown):
        problems.add((key,), "is not a field of an MCP tool")
    return problems.items


#: Per tool: ``(inputSchema, outputSchema)`` with refs inlined ``[1]`` and as is ``[0]``.
_SCHEMAS: tuple[ToolCache[Snapshot[_Schemas]], ToolCache[Snapshot[_Schemas]]] = (
    ToolCache(),
    ToolCache(),
)
_WRAPPED: ToolCache[bool] = ToolCache()


def _schemas(tool: AnyTool, inline: bool) -> _Schemas:
    """Return the tool's MCP schemas (built once per tool; a fresh copy each time)."""

    def build() -> Snapshot[_Schemas]:
        output = _mcp_output(tool)[0]
        if not inline:
            return Snapshot((parameters(tool), output))
        return Snapshot((_inlined(parameters(tool)), None if output is None else _inlined(output)))

    return _SCHEMAS[inline].get(tool, build).get()


def _mcp_output(tool: AnyTool) -> tuple[dict[str, Any] | None, bool]:
    schema = output_json_schema(tool)
    if schema is None:
        return None, False
    checked_json_schema(schema, tool.name, "output")
    root = object_root(schema)
    if root is not None and root.get("type") == "object":
        root.pop("$schema", None)
        return root, False
    inner = schema  # a fresh copy: ``object_root`` did not change it
    wrapped: dict[str, Any] = {"type": "object"}
    for key in ("$defs", "definitions"):
        if is_object(inner.get(key)):
            wrapped[key] = inner.pop(key)
    inner.pop("$schema", None)
    wrapped["properties"] = {"result": inner}
    wrapped["required"] = ["result"]
    return wrapped, True


def mcp_output_wrapped(tool: AnyTool) -> bool:
    """Tell whether MCP sees ``tool``'s output wrapped as ``{"result": value}``.

    MCP requires an object at the root of ``outputSchema`` and of
    ``structuredContent``. A tool whose output schema is not an object is
    declared by ``to_mcp`` with ``{"result": <its schema>}``, and
    ``mcp_call_tool_result`` must wrap its values the same way.
    """
    return _WRAPPED.get(tool, lambda: _mcp_output(tool)[1])


@overload
def to_mcp(
    tool: AnyTool, *, annotations: Mapping[str, Any] | None = None, inline_refs: bool = True
) -> dict[str, Any]: ...
@overload
def to_mcp(
    tool: ManyTools, *, annotations: Mapping[str, Any] | None = None, inline_refs: bool = True
) -> list[dict[str, Any]]: ...
def to_mcp(
    tool: AnyTool | ManyTools,
    *,
    annotations: Mapping[str, Any] | None = None,
    inline_refs: bool = True,
) -> dict[str, Any] | list[dict[str, Any]]:
    """Describe ``tool`` as an MCP ``tools/list`` entry.

    Args:
        tool: any conforming tool, or a ``Toolkit`` or iterable of tools (then
            the result is a list of entries, in order).
        annotations: optional MCP tool annotations (``readOnlyHint``,
            ``destructiveHint``, ``idempotentHint``, ``openWorldHint``, ``title``),
            merged over the tool's own ``annotations`` attribute when it has one.
        inline_refs: replace each local ``$ref`` with the schema it names (the
            default). Some MCP clients do not follow ``$ref``: the MCP Inspector
            sends such an object argument as a string, and the call fails. A
            recursive type cannot be inlined and keeps its ``$defs``; pass
            ``False`` to keep every ``$ref``.

    Returns:
        ``{"name", "title", "description", "inputSchema", "outputSchema",
        "annotations", "_meta"}`` (``title``, ``outputSchema``, ``annotations``
        and ``_meta`` only when the tool has them; ``_meta`` is an imported
        tool's own ``_meta`` (``mcp_meta``), else a function tool's
        ``metadata``; ``description`` only when it is not empty: MCP makes it
        optional, and some clients refuse an empty one; ``standard-tool check``
        flags such a tool). Schemas are
        draft 2020-12. An output schema whose root is not an object is wrapped as
        ``{"result": ...}`` (see ``mcp_output_wrapped``).

    Raises:
        ProviderSchemaError: the name breaks MCP's rule (1 to 128 of
            ``A-Z a-z 0-9 _ - .``) or the input is not an object.
    """
    return each(tool, lambda t: _mcp(t, annotations, inline_refs))


def _inlined(schema: dict[str, Any]) -> dict[str, Any]:
    """Replace local ``$ref``s in ``schema``; a recursive schema is returned as it is."""
    if "$defs" not in schema and "definitions" not in schema:
        return schema
    try:
        return inline_local_refs(schema)
    except SchemaConversionError:  # recursive: $defs is the only way to say it
        return schema


def _mcp(
    tool: AnyTool, annotations: Mapping[str, Any] | None, inline: bool = True
) -> dict[str, Any]:
    out: dict[str, Any]
    if _immutable(tool):
        entry, own, meta = _ENTRIES[inline].get(tool, lambda: _entry(tool, inline))
        out = entry.get()
    else:
        out, own, meta = _entry(tool, inline, snapshot=False)
    if own is not None:
        annotations = {**own, **(annotations or {})}
    if annotations is not None:
        out["annotations"] = dict(annotations)
    if meta is not None:
        out["_meta"] = dict(meta)
    return out


#: Per immutable tool and ``inline``: the entry without annotations and ``_meta``, the tool's
#: own annotations and its ``_meta`` (``None`` when it has none).
_Entry = tuple[Any, "Mapping[str, Any] | None", "dict[str, Any] | None"]
_ENTRIES: tuple[ToolCache[_Entry], ToolCache[_Entry]] = (ToolCache(), ToolCache())
_PACKAGE_TOOLS = (Tool, AsyncTool)


def _immutable(tool: object) -> bool:
    """Tell whether everything ``to_mcp`` reads of ``tool`` is fixed (a package-built tool).

    A formatted tool reads its other fields from the tool it wraps, so that one must
    be a package-built tool too.
    """
    if not isinstance(tool, _PACKAGE_TOOLS):
        return False
    wrapped: object = getattr(cast("Any", tool), "_neutral", None)
    return wrapped is None or isinstance(wrapped, _PACKAGE_TOOLS)


def _entry(tool: AnyTool, inline: bool, snapshot: bool = True) -> _Entry:
    """Read the tool's entry (as a ``Snapshot`` when ``snapshot``), annotations and ``_meta``."""
    name = check_name(tool, MCP_NAME, "MCP", "1 to 128 of A-Z, a-z, 0-9, '_', '-' and '.'")
    out: dict[str, Any] = {"name": name}
    title = optional_member(tool, "title")
    if title is not None:
        out["title"] = title
    if tool.description.strip():  # optional in MCP; an empty one some clients reject
        out["description"] = tool.description
    input_schema, output = _schemas(tool, inline)
    out["inputSchema"] = input_schema
    if output is not None:
        out["outputSchema"] = output
    own = getattr(tool, "annotations", None)  # e.g. @tool(annotations=...)
    if not (isinstance(own, Mapping) and own):
        own = None
    return (Snapshot(out) if snapshot else out), cast("Mapping[str, Any] | None", own), _meta(tool)


def _meta(tool: AnyTool) -> dict[str, Any] | None:
    """Return the tool's MCP ``_meta``: an imported tool's own, else its ``metadata``."""
    for attribute in ("mcp_meta", "metadata"):
        found = getattr(tool, attribute, None)
        if isinstance(found, Mapping) and found:
            return {str(k): v for k, v in cast("Mapping[object, Any]", found).items()}
    return None


class MCPTextContent(TypedDict):
    """A ``text`` content item of an MCP result."""

    type: Literal["text"]
    text: str


class MCPCallToolResult(TypedDict):
    """The ``CallToolResult`` dict ``mcp_call_tool_result`` writes (fully typed, no ``Any``).

    ``structuredContent`` is the output as JSON data, present on success only.
    """

    content: list[MCPTextContent | dict[str, object]]
    structuredContent: NotRequired[object]
    isError: bool


@overload
def mcp_call_tool_result(
    outcome: object,
    *,
    wrap: bool | None = None,
    as_model: Literal[False] = False,
    max_chars: int = OUTPUT_MAX_CHARS,
    error_max_chars: int = ERROR_MAX_CHARS,
) -> MCPCallToolResult: ...


@overload
def mcp_call_tool_result(
    outcome: object,
    *,
    wrap: bool | None = None,
    as_model: Literal[True],
    max_chars: int = OUTPUT_MAX_CHARS,
    error_max_chars: int = ERROR_MAX_CHARS,
) -> Any: ...


def mcp_call_tool_result(
    outcome: object,
    *,
    wrap: bool | None = None,
    as_model: bool = False,
    max_chars: int = OUTPUT_MAX_CHARS,
    error_max_chars: int = ERROR_MAX_CHARS,
) -> Any:
    """Render a tool's outcome as an MCP ``CallToolResult``.

    Args:
        outcome: the tool's validated output, or the exception it raised.
        wrap: whether the output goes into ``structuredContent`` as
            ``{"result": value}``. ``None`` wraps anything that is not a JSON
            object. Pass ``mcp_output_wrapped(tool)`` (or use
            ``mcp_result_formatter``) so it matches the ``outputSchema``
            that ``to_mcp`` declared.
        as_model: return an ``mcp.types.CallToolResult`` instead of a dict
            (needs the ``mcp`` package).
        max_chars: bound of the JSON text of a success. ``structuredContent``
            must match the declared ``outputSchema``, so it is never cut: an
            output whose JSON text is longer (or that is not JSON data as a
            whole: a cycle, an object with no JSON form, over 64 levels deep)
            becomes an ``isError`` result saying so.
        error_max_chars: bound of the text content of an error.

    Returns:
        ``{"content": [{"type": "text", "text"}], "structuredContent", "isError":
        false}`` on success, ``{"content": [...], "isError": true}`` on failure.
    """
    result: dict[str, Any]
    # The common outputs, first: their JSON data is themselves, and a string's text is
    # the string (an int's is its digits), as the general path below makes them.
    plain: str | None = None
    if type(outcome) is str:
        plain = sendable(outcome)
    elif type(outcome) is int and -SMALL_INT < outcome < SMALL_INT:
        plain = str(outcome)
    if plain is not None and len(plain) <= max_chars:
        value = plain if type(outcome) is str else outcome  # its lone surrogates escaped
        result = {
            "content": [{"type": "text", "text": plain}],
            "structuredContent": {"result": value} if wrap is not False else value,
            "isError": False,
        }
        if as_model:
            from mcp.types import CallToolResult

            return CallToolResult.model_validate(result)
        return result
    rich = None if isinstance(outcome, Exception) else rich_output(outcome)
    if isinstance(outcome, Exception):
        text = error_text(outcome, error_max_chars)
        result = {"content": [{"type": "text", "text": text}], "isError": True}
    elif rich is not None:
        result = _rich_result(rich, wrap, max_chars, error_max_chars)
    else:
        data, complete = json_data(outcome, max(max_chars, 1))
        text = sendable(data) if isinstance(data, str) else json_text(data)
        if not complete or len(text) > max_chars:
            # structuredContent must match the outputSchema, so it is never cut: an
            # output too large (or too odd) to send whole is an error the model sees.
            reason = "too large" if complete else "not JSON data (a part had to be left out)"
            text = truncate_text(
                f"Error: the output is {reason} to send as structured content: "
                f"{len(text)} characters of JSON, max_chars={max_chars}; the start: {text}",
                error_max_chars,
            )
            result = {"content": [{"type": "text", "text": text}], "isError": True}
        else:
            if wrap is None:
                wrap = not isinstance(data, dict)
            result = {
                "content": [{"type": "text", "text": text}],
                "structuredContent": {"result": data} if wrap else data,
                "isError": False,
            }
    if as_model:
        from mcp.types import CallToolResult

        return CallToolResult.model_validate(result)
    return result


def mcp_content(block: Content) -> dict[str, Any]:
    """Write one content block as an MCP content block (``text``, ``image``, ``audio``...).

    Examples:
        >>> mcp_content(Image(b"abc", "image/png"))
        {'type': 'image', 'data': 'YWJj', 'mimeType': 'image/png'}
    """
    if isinstance(block, Text):
        return {"type": "text", "text": sendable(block.text)}
    if isinstance(block, (Image, Audio)):
        kind = "image" if isinstance(block, Image) else "audio"
        return {"type": kind, "data": block.base64, "mimeType": sendable(block.mime_type)}
    if isinstance(block, ResourceLink):
        link: dict[str, Any] = {
            "type": "resource_link",
            "uri": sendable(block.uri),
            "name": sendable(block.name),
        }
        for key, value in (
            ("mimeType", block.mime_type),
            ("title", block.title),
            ("description", block.description),
        ):
            if value is not None:
                link[key] = sendable(value)
        if block.size is not None:
            link["size"] = block.size
        return link
    resource: dict[str, Any] = {"uri": sendable(block.uri)}
    if block.mime_type is not None:
        resource["mimeType"] = sendable(block.mime_type)
    if block.text is not None:
        resource["text"] = sendable(block.text)
    else:
        resource["blob"] = block.base64
    return {"type": "resource", "resource": resource}


def content_from_mcp(block: Mapping[str, Any]) -> Content | None:
    """Read an MCP content block (as a JSON dict) back as a content block.

    Returns ``None`` for a block of a kind this package has no type for (the
    caller keeps the dict), or one whose fields are malformed.
    """
    import base64
    import binascii

    kind = block.get("type")
    try:
        if kind == "text":
            return Text(str(block["text"]))
        if kind in ("image", "audio"):
            data = base64.b64decode(str(block["data"]), validate=True)
            mime = str(block["mimeType"])
            return Image(data, mime) if kind == "image" else Audio(data, mime)
        if kind == "resource_link":
            size = block.get("size")
            return ResourceLink(
                str(block["uri"]),
                str(block["name"]),
                block.get("mimeType"),
                block.get("title"),
                block.get("description"),
                size if isinstance(size, int) else None,
            )
        if kind == "resource":
            inner = block["resource"]
            mime = inner.get("mimeType")
            if "text" in inner:
                return EmbeddedResource(str(inner["uri"]), text=str(inner["text"]), mime_type=mime)
            blob = base64.b64decode(str(inner["blob"]), validate=True)
            return EmbeddedResource(str(inner["uri"]), blob=blob, mime_type=mime)
    except (KeyError, TypeError, ValueError, AttributeError, binascii.Error):
        return None
    return None


def _rich_result(
    rich: ToolOutput[Any], wrap: bool | None, max_chars: int, error_max_chars: int
) -> dict[str, Any]:
    content: list[Any] = [mcp_content(block) for block in bounded_output(rich, max_chars).content]
    if rich.structured is None:
        return {"content": content, "isError": False}
    structured = mcp_call_tool_result(
        rich.structured, wrap=wrap, max_chars=max_chars, error_max_chars=error_max_chars
    )
    if structured["isError"]:
        return dict(structured)
    if not content:  # the structured value's JSON text, for clients that read only content
        content = list(structured["content"])
    return {
        "content": content,
        "structuredContent": structured.get("structuredContent"),
        "isError": False,
    }


def mcp_result_formatter(
    tool: StandardToolV0Definition[Any, Any, Any, Any],
    *,
    max_chars: int = OUTPUT_MAX_CHARS,
    error_max_chars: int = ERROR_MAX_CHARS,
) -> Callable[[object], MCPCallToolResult]:
    """Return a formatter for ``tool.formatted(...)`` that makes MCP ``CallToolResult`` dicts.

    It wraps outputs exactly as ``to_mcp`` declared ``tool``'s
    ``outputSchema``, so ``structuredContent`` always validates against it.

    Examples:
        >>> from standard_tool import standard_tool
        >>> ping = standard_tool(name="ping", description="Ping.", execute=lambda: "pong")
        >>> ping.formatted(mcp_result_formatter(ping)).execute()["structuredContent"]
        {'result': 'pong'}
    """
    wrap = mcp_output_wrapped(tool) if optional_member(tool, "output_schema") is not None else None

    def format(outcome: object) -> MCPCallToolResult:
        return mcp_call_tool_result(
            outcome, wrap=wrap, max_chars=max_chars, error_max_chars=error_max_chars
        )

    return format


class MCPToolHandlers(TypedDict):
    """The keyword arguments ``mcp_tool_handlers`` returns for ``Server(...)``."""

    on_list_tools: Callable[
        [ServerRequestContext[Any, Any], mcp_types.PaginatedRequestParams | None],
        Awaitable[mcp_types.ListToolsResult],
    ]
    on_call_tool: Callable[
        [ServerRequestContext[Any, Any], mcp_types.CallToolRequestParams],
        Awaitable[mcp_types.CallToolResult],
    ]


def mcp_tool_handlers(
    tools: Tools, *, meta: Any = None, timeout: float | None = None
) -> MCPToolHandlers:
    """Return ``on_list_tools`` and ``on_call_tool`` handlers serving ``tools``.

    Pass them to the MCP SDK's low-level server next to your other handlers:
    ``Server("name", **mcp_tool_handlers(kit), on_list_prompts=...)``.

    ``tools/list`` answers with every tool as ``to_mcp`` declares it (built
    once, here, so a tool MCP cannot describe fails now rather than at the first
    request). ``tools/call`` runs the tool with ``Toolkit.aexecute`` and answers with
    ``mcp_call_tool_result``: the text and ``structuredContent`` of the output
    (wrapped as ``{"result": ...}`` exactly when the declared ``outputSchema`` is),
    or ``isError: true`` with ``"Error: <reason>"`` for an unknown tool, invalid
    arguments, an exception or a timeout. A tool's ``ToolContext.log``,
    ``elicit`` and ``sample`` reach the MCP client of the call.

    Args:
        tools: a ``Toolkit`` or any iterable of tools.
        meta: passed verbatim to every tool.
        timeout: seconds each call may take.

    Raises:
        ProviderSchemaError: a tool cannot be described for MCP.
        ImportError: the ``mcp`` package is not installed.
    """
    import mcp_types

    timeout = checked_timeout(timeout, "mcp_tool_handlers")
    kit = toolkit(tools)
    listed = mcp_types.ListToolsResult.model_validate({"tools": to_mcp(kit)})
    wrap = {
        t.name: mcp_output_wrapped(t) if optional_member(t, "output_schema") is not None else None
        for t in kit
    }

    async def on_list_tools(
        ctx: ServerRequestContext[Any, Any], params: mcp_types.PaginatedRequestParams | None
    ) -> mcp_types.ListToolsResult:
        return listed.model_copy(deep=True)

    async def on_call_tool(
        ctx: ServerRequestContext[Any, Any], params: mcp_types.CallToolRequestParams
    ) -> mcp_types.CallToolResult:
        arguments = {} if params.arguments is None else params.arguments
        # the tool's ToolContext talks back to the client
        import asyncio

        caller = session_caller(ctx, asyncio.get_running_loop())
        result = await kit.aexecute(params.name, arguments, meta, timeout=timeout, caller=caller)
        return mcp_types.CallToolResult.model_validate(_call_result(result, wrap.get(result.name)))

    return {"on_list_tools": on_list_tools, "on_call_tool": on_call_tool}


def unschematized(outcome: object, wrap: bool | None) -> dict[str, Any]:
    """Answer a successful call; ``wrap`` is ``None`` for a tool with no ``outputSchema``.

    Such a tool's ``structuredContent`` is its output when that is a JSON
    object, and absent otherwise: no schema declares a ``{"result": ...}``
    wrapper, so a client (and a gateway importing the tool) would get
    ``{"result": "pong"}`` back instead of ``"pong"``. The text content
    carries every value.
    """
    answer = dict(mcp_call_tool_result(outcome, wrap=False if wrap is None else wrap))
    if wrap is None and not isinstance(answer.get("structuredContent"), dict):
        answer.pop("structuredContent", None)
    return answer


def _call_result(result: ToolResult, wrap: bool | None) -> MCPCallToolResult:
    if result.success:
        return cast("MCPCallToolResult", unschematized(result.value, wrap))
    text = sendable(f"Error: {result.error}")
    return {"content": [{"type": "text", "text": text}], "isError": True}


def mcp_server(
    tools: Tools,
    *,
    name: str = "standard-tool",
    meta: Any = None,
    timeout: float | None = None,
    **server_options: Any,
) -> Server[Any]:
    """Build an MCP SDK low-level ``Server`` that serves ``tools``.

    A shortcut for ``Server(name, **mcp_tool_handlers(tools, ...), **server_options)``;
    run it with any MCP transport (stdio, Streamable HTTP, or in process with
    ``mcp.Client(server)``).

    Args:
        tools: a ``Toolkit`` or any iterable of tools.
        name: the server name announced to clients.
        meta: passed verbatim to every tool.
        timeout: seconds each call may take.
        **server_options: other ``Server`` options (``version``, ``instructions``...).
    """
    from mcp.server.lowlevel import Server

    handlers = mcp_tool_handlers(tools, meta=meta, timeout=timeout)
    return Server(name, **handlers, **server_options)
