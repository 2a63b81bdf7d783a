"""OpenAI: the strict-mode rules and rewrite, its checker, and the Chat/Responses declarations.

Layer: providers (imports the core, the shared helpers, the neutral walk and the
declaration helpers; never the package root).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, cast

from typing_extensions import Literal, TypedDict, overload

from standard_tool._core import (
    StandardToolV0Definition,
    input_json_schema,
)
from standard_tool._shared import Snapshot, fresh_copy, truncate_text
from standard_tool._toolkit import ToolResult
from standard_tool.content import EmbeddedResource, Image, Text, ToolOutput, rich_output
from standard_tool.providers._check import (
    TYPES,
    Path,
    Problems,
    SchemaProblem,
    check_keywords,
    check_root,
)
from standard_tool.providers._convert_common import (
    PREFIX,
    Plan,
    ProviderOptionError,
    ProviderSchemaError,
    ToolCache,
    checked_json_schema,
    cycle_text,
    is_array,
    is_object,
    native_input,
    reasons_text,
    ref_cycle,
    resolve_local_ref,
    value_text,
)
from standard_tool.providers._declare import (
    AnyTool,
    ManyTools,
    check_name,
    each,
    parameters,
    plain_parameters,
)
from standard_tool.providers._runner import (
    Call,
    Decode,
    Tools,
    content,
    field,
    items,
    list_or_field,
    not_one_call,
    run_calls,
    toolkit,
    view_decoder,
)
from standard_tool.providers._text import (
    ERROR_MAX_CHARS,
    OUTPUT_MAX_CHARS,
    bounded_output,
    json_text,
    jsonable,
    rich_text,
    sendable,
    text_result,
    wire_text,
)
from standard_tool.providers._walk import SchemaRules, rewrite

__all__ = [
    "OPENAI_STRICT_RULES",
    "OpenAIChatToolMessage",
    "OpenAIResponsesToolOutput",
    "OpenAIStrictError",
    "OpenAIStrictSchema",
    "check_openai_strict",
    "openai_responses_content",
    "openai_strict",
    "openai_tool_output",
    "plain_parameters",
    "run_openai_chat_tool_calls",
    "run_openai_responses_tool_calls",
    "to_openai_chat",
    "to_openai_responses",
]


#: String formats OpenAI strict mode understands.
OPENAI_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)

#: OpenAI strict mode (structured outputs), as its documentation states it: every
#: property required and objects closed, ``$defs`` kept, null said with ``type``
#: lists or ``anyOf``, at most 5,000 properties, 10 levels and 1,000 enum values.
OPENAI_STRICT_RULES = SchemaRules(
    provider="OpenAI",
    keeps={
        "string": frozenset({"pattern", "format"}),
        "number": frozenset(
            {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
        ),
        "array": frozenset({"minItems", "maxItems"}),
    },
    formats={"string": OPENAI_FORMATS},
    refs=True,
    nullable_keyword=False,
    null_alone=True,
    mixed_enums=True,
    string_enums_only=False,
    exclusive_bounds_inclusive=False,
    all_required=True,
    closed_objects=True,
    property_ordering=False,
    max_properties=5000,
    max_depth=10,
    max_enum_values=1000,
)

_MAX_REASON = 2000


class OpenAIStrictError(ProviderSchemaError):
    """``strict=True`` was asked for a tool whose schema OpenAI strict mode cannot represent.

    The message starts with ``"standard_tool.providers: "`` and lists where and why.
    """


class OpenAIStrictSchema:
    """A tool's input schema for OpenAI strict mode, and how to read the model's arguments.

    Build one with ``openai_strict`` (cached per tool) or
    ``from_json_schema``. It is immutable.

    Attributes:
        strict: whether the schema can be sent with ``"strict": true``.
        reason: when ``strict`` is false, why (each problem with its JSON pointer);
            ``None`` otherwise.

    Strict mode needs every object closed and every property required, and it
    cannot express ``dict[str, T]``. The rewrite therefore makes optional
    properties nullable, sends maps as lists of ``{"key", "value"}`` entries and
    moves defaults and unsupported constraints into descriptions. ``decode``
    undoes this on the arguments the model sends, so the tool sees its own
    shape: entries become a dict again, and ``null`` for a property that was
    optional (and did not itself accept ``null``) removes the key so the tool's
    default applies.

    Examples:
        >>> s = OpenAIStrictSchema.from_json_schema({
        ...     "type": "object",
        ...     "properties": {
        ...         "tags": {"type": "object", "additionalProperties": {"type": "string"}},
        ...         "limit": {"type": "integer", "default": 10},
        ...     },
        ...     "required": ["tags"],
        ... })
        >>> s.strict
        True
        >>> s.decode({"tags": [{"key": "env", "value": "prod"}], "limit": None})
        {'tags': {'env': 'prod'}}
    """

    __slots__ = ("_kept", "_lent", "_plan", "_root", "reason", "strict")

    strict: bool
    reason: str | None
    _plan: Plan | None
    # The schema to send is made with the view and handed out once (``_lent``) or to
    # whoever made the view (``_strict_parts``). For a tool's own copy of its schema
    # (``_root``, which nobody changes) it is made again the second time it is asked
    # for, and only then kept (``_kept``): a tool declared once keeps no copy of its
    # declaration. Any other view keeps it at once.
    _root: dict[str, Any] | None
    _lent: list[dict[str, Any]] | None
    _kept: Snapshot[dict[str, Any]] | None

    def __init__(
        self, *, schema: dict[str, Any], strict: bool, reason: str | None, plan: Plan | None
    ) -> None:
        _fill(self, None, Snapshot(schema), strict, reason, plan)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __repr__(self) -> str:
        if self.strict:
            return "OpenAIStrictSchema(strict=True)"
        return f"OpenAIStrictSchema(strict=False, reason={truncate_text(str(self.reason), 120)!r})"

    @property
    def schema(self) -> dict[str, Any]:
        """The ``parameters`` to send: the strict rewrite, or the plain schema when not strict.

        A fresh copy on every access; the caller may mutate it.
        """
        lent = self._lent
        if lent is not None:
            object.__setattr__(self, "_lent", None)
            try:
                return lent.pop()  # atomic: one caller gets it, any other a copy
            except IndexError:
                pass
        kept = self._kept
        if kept is not None:
            return kept.get()
        made = _made_again(self, cast("dict[str, Any]", self._root))
        object.__setattr__(self, "_kept", Snapshot(made))  # a race keeps it twice
        return made

    def decode(self, arguments: Any) -> Any:
        """Turn the arguments a model sent under ``schema`` back into the tool's input.

        Pass the parsed JSON arguments (a dict). Returns a new dict: a value that
        does not have the expected shape is passed through unchanged for the tool's
        own validation to report. When ``strict`` is false this returns
        ``arguments`` unchanged.

        Raises:
            StandardToolValidationError: a map's entries repeat a key (the path names
                the entry); as a dict it would silently keep only the last.
        """
        plan = self._plan
        if plan is None or not self.strict:
            return arguments
        try:
            decoded: Any = plan.decode(arguments)
        except RecursionError:  # nested past the interpreter's limit: validation says so
            return arguments
        return decoded

    @classmethod
    def from_json_schema(cls, schema: Mapping[str, Any]) -> OpenAIStrictSchema:
        """Rewrite a draft 2020-12 input schema (not modified) for OpenAI strict mode."""
        return _lent(*_strict_parts(fresh_copy(dict(schema)), own=False))


def _strict_parts(root: dict[str, Any], *, own: bool) -> tuple[OpenAIStrictSchema, dict[str, Any]]:
    """Return the strict view of ``root`` (a schema nobody changes) and the schema to send.

    The rewrite neither changes ``root`` nor shares any part of it, so a tool's own
    copy (``native_input``, ``own``) is rewritten as it is, and the view keeps it to
    make the schema again; any other view keeps the schema (as bytes) instead. The
    schema returned is made for the caller alone.
    """
    out, plan, problems = rewrite(root, OPENAI_STRICT_RULES, check_openai_strict, trust_direct=True)
    reason = None
    if problems:  # sent without strict mode: the plain parameters, a copy of ``root``
        reason = truncate_text(reasons_text(problems), _MAX_REASON)
        plan = None
        out = plain_parameters(root)
    view = _new_view(OpenAIStrictSchema)
    _fill(view, root if own else None, None if own else Snapshot(out), not problems, reason, plan)
    return view, out


def _fill(
    view: OpenAIStrictSchema,
    root: dict[str, Any] | None,
    kept: Snapshot[dict[str, Any]] | None,
    strict: bool,
    reason: str | None,
    plan: Plan | None,
) -> None:
    """Set every slot of a new ``view`` (nothing lent yet)."""
    root_set, lent_set, kept_set, strict_set, reason_set, plan_set = _VIEW_SLOTS
    root_set(view, root)
    lent_set(view, None)
    kept_set(view, kept)
    strict_set(view, strict)
    reason_set(view, reason)
    plan_set(view, plan)


_new_view = object.__new__
#: The view's slots, set through their own descriptors: half the time of
#: ``object.__setattr__``, which looks each one up by name (a view per tool converted).
_VIEW_SLOTS: tuple[Callable[[OpenAIStrictSchema, Any], None], ...] = tuple(
    getattr(OpenAIStrictSchema, name).__set__
    for name in ("_root", "_lent", "_kept", "strict", "reason", "_plan")
)


def _made_again(view: OpenAIStrictSchema, root: dict[str, Any]) -> dict[str, Any]:
    """Make the schema ``_strict_parts`` made for ``view`` again (the same as the first time).

    Its problems were found the first time; the check is skipped where it was then.
    """
    if not view.strict:
        return plain_parameters(root)
    out, _, _ = rewrite(root, OPENAI_STRICT_RULES, check_openai_strict, trust_direct=True)
    return out


def _lent(view: OpenAIStrictSchema, out: dict[str, Any]) -> OpenAIStrictSchema:
    """Return ``view`` with ``out`` to hand out on its first ``schema``."""
    object.__setattr__(view, "_lent", [out])
    return view


def _parts_of(tool: AnyTool) -> tuple[OpenAIStrictSchema, dict[str, Any]]:
    """``_strict_parts`` of the tool's own copy of its schema, else of a fresh one."""
    kept = native_input(tool)
    if kept is None:
        return _strict_parts(checked_json_schema(input_json_schema(tool), tool.name), own=False)
    return _strict_parts(checked_json_schema(kept, tool.name), own=True)


_CACHE: ToolCache[OpenAIStrictSchema] = ToolCache()


def openai_strict(tool: StandardToolV0Definition[Any, Any, Any, Any]) -> OpenAIStrictSchema:
    """Return the OpenAI strict-mode view of ``tool``'s input schema (cached per tool).

    Works for any conforming tool: it reads ``input_json_schema(tool)``. Use
    ``.strict`` and ``.reason`` to see whether strict mode is possible, and call
    ``.decode(arguments)`` on a model's parsed arguments before
    ``tool.execute(...)`` whenever the tool was sent with ``"strict": true``
    (which ``to_openai_chat`` and ``to_openai_responses`` do exactly when
    ``strict`` is ``"auto"`` or ``True`` and ``.strict`` is true).

    Examples:
        >>> from standard_tool import standard_tool
        >>> ping = standard_tool(name="ping", description="Ping.", execute=lambda: "pong")
        >>> openai_strict(ping).strict
        True
    """
    return _CACHE.get(tool, lambda: _lent(*_parts_of(tool)))


_OPENAI_KEYWORDS = frozenset(
    {
        "type",
        "description",
        "title",
        "enum",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "anyOf",
        "$ref",
        "$defs",
        "definitions",
        "pattern",
        "format",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "minItems",
        "maxItems",
    }
)


# --------------------------------------------------------------------------------------
# OpenAI strict mode
# --------------------------------------------------------------------------------------


def check_openai_strict(schema: Mapping[str, Any]) -> list[SchemaProblem]:
    """List what OpenAI strict mode would reject in a ``parameters`` schema.

    Checks the documented rules: an object root that is not ``anyOf``; every
    object with ``additionalProperties: false`` and every property required;
    only the supported keywords (no ``default``, ``allOf``, ``oneOf``, ``not``,
    ``minLength``...); every value typed; local ``$ref``s that resolve; at
    most 10 levels of nested objects, 5000 properties and 1000 enum values.

    Returns:
        The problems found, empty when the schema is acceptable (at most 200).
    """
    problems = Problems()
    if not check_root(schema, problems, "the root"):
        return problems.items
    if "anyOf" in schema:
        problems.add((), "the root must not be anyOf")
    counts = {"properties": 0, "enum": 0}
    for group in ("$defs", "definitions"):
        defs = schema.get(group)
        if is_object(defs):
            for name, sub in defs.items():
                cycle = ref_cycle(schema, f"#/{group}/{name}")
                if cycle is not None:
                    problems.add((group, name), cycle_text(cycle))
                _openai_node(schema, sub, (group, name), 0, problems, counts)
    body = schema
    if "$defs" in schema or "definitions" in schema:
        body = {k: v for k, v in schema.items() if k not in ("$defs", "definitions")}
    _openai_node(schema, body, (), 0, problems, counts)
    if counts["properties"] > 5000:
        problems.add((), f"has {counts['properties']} properties; at most 5000 are allowed")
    if counts["enum"] > 1000:
        problems.add((), f"has {counts['enum']} enum values; at most 1000 are allowed")
    return problems.items


def _openai_node(
    root: Mapping[str, Any],
    node: Any,
    path: Path,
    depth: int,
    problems: Problems,
    counts: dict[str, int],
) -> None:
    if not is_object(node):
        problems.add(path, "must be a schema object")
        return
    if node.keys() <= _LEAF_KEYWORDS and _is_leaf(node, counts):
        return
    check_keywords(node, path, problems, _OPENAI_KEYWORDS, "in strict mode")
    ref = node.get("$ref")
    if ref is not None:
        if not isinstance(ref, str) or resolve_local_ref(root, ref) is None:
            problems.add(path, f"$ref {value_text(ref)} does not resolve")
        if len(node) > 1:
            problems.add(path, "$ref must not have sibling keywords")
        return
    kind = node.get("type")
    kinds = kind if is_array(kind) else [kind]
    if "anyOf" in node:
        branches = node["anyOf"]
        if not is_array(branches) or not branches:
            problems.add(path, "anyOf must be a non-empty list")
            return
        for index, branch in enumerate(branches):
            _openai_node(root, branch, (*path, "anyOf", index), depth, problems, counts)
        return
    if kind is None:
        problems.add(path, "has no type")
        return
    if any(k not in TYPES for k in kinds):
        problems.add(path, f"has an unknown type {value_text(kind)}")
    enum = node.get("enum")
    if enum is not None:
        if not is_array(enum) or not enum:
            problems.add(path, "enum must be a non-empty list")
        else:
            counts["enum"] += len(enum)
            if any(is_object(v) or is_array(v) for v in enum):
                problems.add(path, "enum values must be strings, numbers, booleans or null")
    if "object" in kinds:
        depth += 1
        if depth > 10:
            problems.add(path, "nests objects more than 10 levels deep")
        props = node.get("properties")
        if not is_object(props):
            problems.add(path, "an object must list its properties")
            props = {}
        counts["properties"] += len(props)
        if node.get("additionalProperties") is not False:
            problems.add(path, "an object must set additionalProperties to false")
        required = node.get("required")
        if not is_array(required) or set(required) != set(props) or len(required) != len(props):
            problems.add(path, "every property must be listed in required")
        for name, sub in props.items():
            if sub.__class__ is dict and sub.keys() <= _LEAF_KEYWORDS and _is_leaf(sub, counts):
                continue  # what the call below would accept, without making its path
            _openai_node(root, sub, (*path, "properties", name), depth, problems, counts)
    if "array" in kinds:
        if "items" not in node:
            problems.add(path, "an array must have items")
        else:
            _openai_node(root, node["items"], (*path, "items"), depth, problems, counts)
    fmt = node.get("format")
    if fmt is not None and fmt not in OPENAI_FORMATS:
        problems.add(path, f"format {value_text(fmt)} is not supported in strict mode")


#: The keywords of a node ``_is_leaf`` may pass without the general checks.
_LEAF_KEYWORDS = frozenset({"type", "description", "title", "enum"})
_LEAF_TYPES = frozenset({"string", "number", "integer", "boolean"})
_SCALARS = frozenset({str, int, float, bool, type(None)})


def _is_leaf(node: dict[str, Any], counts: dict[str, int]) -> bool:
    """Whether ``node`` is a typed scalar the general checks of ``_openai_node`` accept.

    Most nodes of a rewritten schema are (what ``Walker._leaf`` makes): one type, or
    one and ``"null"``, and perhaps an enum of scalars (then counted as they count it).
    """
    kind = node.get("type")
    if kind.__class__ is list:
        kinds: list[Any] = node["type"]
        if len(kinds) != 2 or kinds[1] != "null":
            return False
        kind = kinds[0]
    if type(kind) is not str or kind not in _LEAF_TYPES:
        return False
    enum = node.get("enum")
    if enum is None:
        return True
    if enum.__class__ is not list or not enum:
        return False
    values: list[Any] = enum
    if not all(type(v) in _SCALARS for v in values):
        return False
    counts["enum"] += len(values)
    return True


# --------------------------------------------------------------------------------------
# Declarations
# --------------------------------------------------------------------------------------

_OPENAI_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _openai_parameters(
    tool: AnyTool, strict: bool | Literal["auto"]
) -> tuple[dict[str, Any], bool]:
    if strict is False:
        return parameters(tool), False
    if strict not in (True, "auto"):
        raise ProviderOptionError(f"{PREFIX}strict must be True, False or 'auto', not {strict!r}")
    view = _CACHE.find(tool)
    if view is None:  # the view's first schema goes straight to this declaration
        view, schema = _parts_of(tool)
        _CACHE.keep(tool, view)
    else:
        schema = view.schema
    if view.strict:
        return schema, True
    if strict is True:
        raise OpenAIStrictError(
            f"{PREFIX}tool {tool.name!r} cannot use OpenAI strict mode: {view.reason}. "
            "Pass strict='auto' or strict=False to send it without strict mode"
        )
    return schema, False  # the plain parameters, made by the view: no second copy


@overload
def to_openai_chat(tool: AnyTool, *, strict: bool | Literal["auto"] = "auto") -> dict[str, Any]: ...
@overload
def to_openai_chat(
    tool: ManyTools, *, strict: bool | Literal["auto"] = "auto"
) -> list[dict[str, Any]]: ...
def to_openai_chat(
    tool: AnyTool | ManyTools, *, strict: bool | Literal["auto"] = "auto"
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
    return each(tool, lambda t: _openai_chat(t, strict))


def _openai_chat(tool: AnyTool, strict: bool | Literal["auto"]) -> dict[str, Any]:
    name = check_name(tool, _OPENAI_NAME, "OpenAI", "1 to 64 of A-Z, a-z, 0-9, '_' and '-'")
    parameters, is_strict = _openai_parameters(tool, strict)
    function: dict[str, Any] = {"name": name}
    if tool.description:
        function["description"] = tool.description
    function["parameters"] = parameters
    function["strict"] = is_strict
    return {"type": "function", "function": function}


@overload
def to_openai_responses(
    tool: AnyTool, *, strict: bool | Literal["auto"] = "auto"
) -> dict[str, Any]: ...
@overload
def to_openai_responses(
    tool: ManyTools, *, strict: bool | Literal["auto"] = "auto"
) -> list[dict[str, Any]]: ...
def to_openai_responses(
    tool: AnyTool | ManyTools, *, strict: bool | Literal["auto"] = "auto"
) -> dict[str, Any] | list[dict[str, Any]]:
    """Declare ``tool`` (or each of a ``Toolkit`` or iterable) for the OpenAI Responses API.

    Same rules as ``to_openai_chat``; the shape is flat:
    ``{"type": "function", "name", "description", "parameters", "strict"}``.
    """
    return each(tool, lambda t: _openai_responses(t, strict))


def _openai_responses(tool: AnyTool, strict: bool | Literal["auto"]) -> dict[str, Any]:
    name = check_name(tool, _OPENAI_NAME, "OpenAI", "1 to 64 of A-Z, a-z, 0-9, '_' and '-'")
    parameters, is_strict = _openai_parameters(tool, strict)
    out: dict[str, Any] = {"type": "function", "name": name}
    if tool.description:
        out["description"] = tool.description
    out["parameters"] = parameters
    out["strict"] = is_strict
    return out


# --------------------------------------------------------------------------------------
# Results and running tool calls
# --------------------------------------------------------------------------------------


def openai_tool_output(
    outcome: object, *, max_chars: int = OUTPUT_MAX_CHARS, error_max_chars: int = ERROR_MAX_CHARS
) -> str:
    """Render a tool's outcome as the ``output`` text OpenAI expects back.

    Use it as the ``content`` of a Chat Completions ``{"role": "tool"}`` message
    or the ``output`` of a Responses ``function_call_output`` item. Same text as
    ``text_result``, except for a rich result: a Chat ``tool`` message carries
    text only, so each block that is not text is its ``fallback_text`` (use
    ``openai_responses_content`` for the Responses API, which takes images and files).
    """
    rich = None if isinstance(outcome, Exception) else rich_output(outcome)
    if rich is not None:
        return rich_text(rich, "OpenAI Chat", max_chars)
    return text_result(outcome, max_chars=max_chars, error_max_chars=error_max_chars)


#: The image types ``input_image`` takes.
_IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})


def _filename(uri: str) -> str:
    name = uri.rstrip("/").rsplit("/", 1)[-1] or "file"
    return truncate_text(name, 200)


def openai_responses_content(
    output: ToolOutput[Any], max_chars: int = OUTPUT_MAX_CHARS
) -> list[dict[str, Any]]:
    """Write a rich result as the ``output`` list of a Responses ``function_call_output``.

    A ``Text`` is ``input_text``; an ``Image`` of JPEG, PNG, GIF or WebP an
    ``input_image`` (a base64 data URL); a PDF ``EmbeddedResource`` an
    ``input_file`` (its ``file_data``, named after the URI's last segment). Every
    other block (audio, a resource link, other types) is its ``fallback_text``;
    the structured value, when there is one, follows as its JSON text.

    Examples:
        >>> openai_responses_content(ToolOutput([Image(b"abc", "image/png")]))
        [{'type': 'input_image', 'image_url': 'data:image/png;base64,YWJj'}]
    """
    output = bounded_output(output, max_chars)
    items: list[dict[str, Any]] = []
    for block in output.content:
        if isinstance(block, Text):
            items.append({"type": "input_text", "text": sendable(block.text)})
        elif isinstance(block, Image) and block.mime_type in _IMAGE_TYPES:
            url = f"data:{block.mime_type};base64,{block.base64}"
            items.append({"type": "input_image", "image_url": url})
        elif (
            isinstance(block, EmbeddedResource)
            and block.mime_type == "application/pdf"
            and (block.blob is not None)
        ):
            data = f"data:application/pdf;base64,{block.base64}"
            items.append(
                {"type": "input_file", "filename": _filename(block.uri), "file_data": data}
            )
        else:
            text = rich_text(ToolOutput([block]), "OpenAI Responses", max_chars)
            items.append({"type": "input_text", "text": text})
    if output.structured is not None:
        data = json_text(jsonable(output.structured, max(max_chars, 1)))
        items.append({"type": "input_text", "text": data[:max_chars]})
    return items


def chat_content(result: ToolResult) -> str:
    rich = rich_output(result.value) if result.success else None
    return content(result) if rich is None else rich_text(rich, "OpenAI Chat")


def responses_output(result: ToolResult) -> str | list[dict[str, Any]]:
    rich = rich_output(result.value) if result.success else None
    return content(result) if rich is None else openai_responses_content(rich)


class OpenAIChatToolMessage(TypedDict):
    """A Chat Completions ``tool`` message answering one tool call."""

    role: Literal["tool"]
    tool_call_id: str
    content: str


class OpenAIResponsesToolOutput(TypedDict):
    """A Responses input item answering one function (or custom tool) call."""

    type: Literal["function_call_output", "custom_tool_call_output"]
    call_id: str
    output: str | list[dict[str, Any]]


def _chat_tool_calls(response: Any) -> list[Any]:
    """Return the ``tool_calls`` list of a response, of its message, or the list itself."""
    if response.__class__ is dict and response.get("function") is None:
        # The common case, a decoded response, read directly (the same answer as below).
        choices = response.get("choices")
        if choices.__class__ is list and choices:
            message = field(choices[0], "message")
            if message.__class__ is dict:
                tool_calls = message.get("tool_calls")
                if tool_calls.__class__ is list:
                    return list(tool_calls)
                if tool_calls is None:
                    return []
    elif isinstance(response, (list, tuple)):
        return list(cast("Iterable[Any]", response))
    not_one_call(response, "function")
    choices = items(field(response, "choices"), "choices")
    message = field(choices[0], "message") if choices else response
    return items(field(message, "tool_calls"), "tool_calls")


def _chat_calls(response: Any) -> list[Call]:
    calls: list[Call] = []
    for item in _chat_tool_calls(response):
        # The common case, a decoded response, read directly. ``__class__``, not
        # ``type()``: the values stay ``Any`` for the type checkers, with no ``cast``.
        if item.__class__ is dict:
            function: Any = item.get("function")
            if function.__class__ is dict and item.get("type", "function") == "function":
                name = wire_text(function.get("name"))
                calls.append(Call(wire_text(item.get("id")), name, function.get("arguments"), True))
                continue
        call_id = wire_text(field(item, "id"))
        kind = field(item, "type")
        if kind == "custom":
            name = wire_text(field(field(item, "custom"), "name"))
            refused = "custom tool calls are not supported here; call a function tool"
            calls.append(Call(call_id, name, None, False, refused))
            continue
        function = field(item, "function")
        name = wire_text(field(function, "name"))
        calls.append(Call(call_id, name, field(function, "arguments"), True))
    return calls


async def run_openai_chat_tool_calls(
    response: Any,
    tools: Tools,
    *,
    meta: Any = None,
    timeout: float | None = None,
    strict: bool | Literal["auto"] = "auto",
) -> list[OpenAIChatToolMessage]:
    """Run the tool calls of a Chat Completions response; return the ``tool`` messages.

    Every call in ``response.choices[0].message.tool_calls`` runs at once (see
    ``Toolkit.aexecute`` for sync
    tools). The result is one ``{"role": "tool", "tool_call_id", "content"}``
    message per call, in the order of the calls; append the assistant message and
    these to the conversation and ask the model again. An empty list means the
    model asked for no tool.

    ``content`` is the tool's return value as ``text_result`` writes it (a
    ``str`` as is, anything else as JSON, cut at 100,000 characters) or, when the
    call failed, ``"Error: <reason>"`` with a short reason (at most about 2,000
    characters): an unknown tool, arguments that are not valid JSON, invalid
    input (naming the path), an exception in the tool or a timeout.

    Args:
        response: a ``ChatCompletion``, its dict form, the assistant message
            itself (a ``ChatCompletionMessage`` or dict with ``tool_calls``), or
            the ``tool_calls`` list.
        tools: a ``Toolkit`` or any iterable of tools.
        meta: passed verbatim to every tool.
        timeout: seconds each call may take.
        strict: the ``strict`` option the tools were converted with
            (``to_openai_chat``). Unless it is ``False``, the arguments of a
            tool sent in strict mode are decoded back to the tool's own input
            shape (``OpenAIStrictSchema.decode``) before it runs.

    Returns:
        The ``tool`` messages, one per call, in order.

    Raises:
        TypeError: ``tool_calls`` is neither a list nor one tool call (a string, a
            number...): there is no call to answer.
        asyncio.CancelledError: when the caller is cancelled (the calls are too).
    """
    kit = toolkit(tools)
    calls = _chat_calls(response)
    results = await run_calls(
        kit,
        calls,
        meta=meta,
        timeout=timeout,
        decode=_strict_decoder(strict),
        where="run_openai_chat_tool_calls",
    )
    return [
        {"role": "tool", "tool_call_id": c.call_id, "content": chat_content(r)}
        for c, r in zip(calls, results, strict=True)
    ]


def _responses_calls(response: Any) -> list[tuple[str, Call]]:
    not_one_call(response, "call_id")
    calls: list[tuple[str, Call]] = []
    for item in list_or_field(response, "output"):
        kind = field(item, "type")
        call_id = wire_text(field(item, "call_id"))
        name = wire_text(field(item, "name"))
        if kind == "function_call":
            calls.append(
                ("function_call_output", Call(call_id, name, field(item, "arguments"), True))
            )
        elif kind == "custom_tool_call":
            refused = "custom tool calls are not supported here; call a function tool"
            calls.append(("custom_tool_call_output", Call(call_id, name, None, False, refused)))
    return calls


async def run_openai_responses_tool_calls(
    response: Any,
    tools: Tools,
    *,
    meta: Any = None,
    timeout: float | None = None,
    strict: bool | Literal["auto"] = "auto",
) -> list[OpenAIResponsesToolOutput]:
    """Run the function calls of a Responses API response; return the output items.

    Every ``function_call`` item of ``response.output`` runs at once. The result is
    one ``{"type": "function_call_output", "call_id", "output"}`` item per call, in
    order, to send as ``input`` of the next request (with
    ``previous_response_id``, or after the response's own output items). A
    ``custom_tool_call`` item gets a ``custom_tool_call_output`` error item. An
    empty list means the model asked for no tool. ``output`` is written as for
    ``run_openai_chat_tool_calls``.

    Args:
        response: a ``Response``, its dict form, or its ``output`` list.
        tools: a ``Toolkit`` or any iterable of tools.
        meta: passed verbatim to every tool.
        timeout: seconds each call may take.
        strict: the ``strict`` option the tools were converted with
            (``to_openai_responses``); see ``run_openai_chat_tool_calls``.

    Returns:
        The output items, one per call, in order.

    Raises:
        asyncio.CancelledError: when the caller is cancelled (the calls are too).
    """
    kit = toolkit(tools)
    pairs = _responses_calls(response)
    calls = [c for _, c in pairs]
    results = await run_calls(
        kit,
        calls,
        meta=meta,
        timeout=timeout,
        decode=_strict_decoder(strict),
        where="run_openai_responses_tool_calls",
    )
    out: list[OpenAIResponsesToolOutput] = []
    for (kind, call), result in zip(pairs, results, strict=True):
        item_kind: Literal["function_call_output", "custom_tool_call_output"] = (
            "custom_tool_call_output"
            if kind == "custom_tool_call_output"
            else "function_call_output"
        )
        out.append({"type": item_kind, "call_id": call.call_id, "output": responses_output(result)})
    return out


def _strict_decoder(strict: bool | Literal["auto"]) -> Decode | None:
    """Undo the strict rewrite unless the tools were sent with ``strict=False``."""
    if strict is False:
        return None
    return view_decoder(openai_strict)
