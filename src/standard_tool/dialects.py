"""JSON Schema dialects: pure transforms between the targets a schema is emitted for.

Layer: dialects, pure transforms (imports only the core and the shared helpers).

Every conforming schema of this library produces its JSON Schema in draft 2020-12
(the canonical dialect) and hands it to ``convert`` for the target the caller
asked for. The transforms are plain functions over dicts: they never mutate their
input and always return new objects, so other layers (OpenAI strict mode, the
Gemini subset) can build on them.

Examples:
    >>> from standard_tool.dialects import convert
    >>> schema = {"type": ["number", "null"], "exclusiveMinimum": 0}
    >>> convert(schema, "openapi-3.0")
    {'type': 'number', 'minimum': 0, 'exclusiveMinimum': True, 'nullable': True}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from typing_extensions import TypeAlias, TypeGuard

from standard_tool._core import StandardToolError
from standard_tool._shared import MISSING, pointer_tokens, resolve_pointer, safe_repr

__all__ = [
    "DRAFT_07_URI",
    "DRAFT_2020_12_URI",
    "SUPPORTED_TARGETS",
    "SchemaConversionError",
    "SchemaDict",
    "UnsupportedTargetError",
    "convert",
    "copy_schema",
    "detect_dialect",
    "inline_refs",
    "to_draft07",
    "to_draft202012",
    "to_openapi30",
    "unsupported_target_message",
]

#: A JSON Schema document as a dict. Subschemas may also be the booleans ``True``/``False``.
SchemaDict: TypeAlias = "dict[str, Any]"


class SchemaConversionError(StandardToolError, ValueError):
    """A JSON Schema cannot be converted as asked; the message says why.

    For example a recursive schema asked for without ``$ref`` (OpenAPI 3.0,
    ``inline_refs``), a ``$ref`` that points nowhere, or a ``$schema`` of a
    dialect this library does not read. Also a ``ValueError``.
    """

    __slots__ = ()


class UnsupportedTargetError(SchemaConversionError):
    """A JSON Schema target this library does not know was asked for.

    Raised by ``convert`` and by every ``json_schema.input/output`` of this
    package's schemas; the message lists ``SUPPORTED_TARGETS``.
    """

    __slots__ = ()


#: The targets ``convert`` (and every ``json_schema.input/output``) understands.
SUPPORTED_TARGETS: tuple[str, ...] = ("draft-2020-12", "draft-07", "openapi-3.0")

#: The ``$schema`` URI of draft 2020-12.
DRAFT_2020_12_URI = "https://json-schema.org/draft/2020-12/schema"
#: The ``$schema`` URI of draft-07.
DRAFT_07_URI = "http://json-schema.org/draft-07/schema#"

_DIALECT_URIS: dict[str, str] = {
    "json-schema.org/draft/2020-12/schema": "draft-2020-12",
    "json-schema.org/draft-07/schema": "draft-07",
}

# Keywords whose value is one subschema, a name -> subschema map, or a list of subschemas.
_ONE = frozenset(
    {
        "additionalItems",
        "additionalProperties",
        "contains",
        "contentSchema",
        "else",
        "if",
        "not",
        "propertyNames",
        "then",
        "unevaluatedItems",
        "unevaluatedProperties",
    }
)
_MAP = frozenset({"$defs", "definitions", "dependentSchemas", "patternProperties", "properties"})
_LIST = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})

# Keywords that only annotate: merging them never changes what validates.
_ANNOTATIONS = frozenset(
    {
        "$comment",
        "default",
        "deprecated",
        "description",
        "examples",
        "readOnly",
        "title",
        "writeOnly",
    }
)
# Keywords that read each other inside one schema object; two schemas touching the
# same group cannot be merged into one object without changing what they accept.
_GROUPS = (
    frozenset({"properties", "patternProperties", "additionalProperties"}),
    frozenset({"prefixItems", "items", "additionalItems"}),
    frozenset({"contains", "minContains", "maxContains"}),
    frozenset({"if", "then", "else"}),
)
_UNEVALUATED = frozenset({"unevaluatedItems", "unevaluatedProperties"})
# In-place applicators: unevaluated* also sees what these evaluate.
_IN_PLACE = frozenset(
    {"allOf", "anyOf", "oneOf", "if", "then", "else", "$ref", "$dynamicRef", "dependentSchemas"}
)

_MAX_SHOWN = 60


# --------------------------------------------------------------------------------------
# Entry points
# --------------------------------------------------------------------------------------


def convert(schema: Mapping[str, Any], target: str) -> SchemaDict:
    """Convert a JSON Schema to ``target``.

    The source dialect is read from the schema's ``$schema`` (draft 2020-12 when
    absent, see ``detect_dialect``). This is the one function adapters call
    from ``json_schema.input/output``.

    Args:
        schema: a draft 2020-12 or draft-07 JSON Schema. It is not modified.
        target: one of ``SUPPORTED_TARGETS``.

    Returns:
        A new dict; the caller may mutate it.

    Raises:
        UnsupportedTargetError: ``target`` is not supported (a ``ValueError``).
        SchemaConversionError: the ``$schema`` is of another dialect, or (for
            ``"openapi-3.0"``) a ``$ref`` cannot be inlined (a ``ValueError``).

    Examples:
        >>> convert({"$defs": {"A": {"type": "integer"}}, "$ref": "#/$defs/A"}, "draft-07")
        {'definitions': {'A': {'type': 'integer'}}, '$ref': '#/definitions/A'}
    """
    if target == "draft-2020-12":
        return to_draft202012(schema)
    if target == "draft-07":
        return to_draft07(schema)
    if target == "openapi-3.0":
        return to_openapi30(schema)
    raise UnsupportedTargetError(unsupported_target_message(target))


def unsupported_target_message(target: object) -> str:
    """Return the message of ``UnsupportedTargetError`` (adapters reuse it)."""
    supported = ", ".join(repr(t) for t in SUPPORTED_TARGETS)
    return f"unsupported JSON Schema target {_short(target)}; supported targets: {supported}"


def copy_schema(schema: Mapping[str, Any], *, max_depth: int | None = None) -> SchemaDict:
    """Return a deep copy of ``schema`` made of plain dicts and lists.

    Any ``Mapping`` becomes a ``dict`` and any tuple a ``list``, so the copy is
    JSON-shaped and shares nothing with the original.

    Args:
        schema: the schema to copy.
        max_depth: refuse a schema whose containers nest deeper than this (one that
            contains itself does too), instead of copying until Python's recursion
            limit.

    Raises:
        SchemaConversionError: the schema nests deeper than ``max_depth``.

    Examples:
        >>> copy_schema({"enum": ("a", "b")})
        {'enum': ['a', 'b']}
    """
    if max_depth is None:
        return cast("SchemaDict", _thaw(schema))
    return cast("SchemaDict", _thaw_within(schema, max_depth))


def detect_dialect(schema: Mapping[str, Any]) -> str:
    """Return the dialect of ``schema``: ``"draft-2020-12"`` or ``"draft-07"``.

    The dialect is read from ``$schema``; a schema without one is draft 2020-12.

    Raises:
        SchemaConversionError: ``$schema`` names another dialect (a ``ValueError``).

    Examples:
        >>> detect_dialect({"$schema": "http://json-schema.org/draft-07/schema#"})
        'draft-07'
    """
    uri = schema.get("$schema")
    if uri is None:
        return "draft-2020-12"
    if isinstance(uri, str):
        key = uri.split("://", 1)[-1].rstrip("#")
        dialect = _DIALECT_URIS.get(key)
        if dialect is not None:
            return dialect
    raise SchemaConversionError(
        f"unsupported $schema {_short(uri)}; supported dialects: "
        f"{DRAFT_2020_12_URI!r} (the default) and {DRAFT_07_URI!r}"
    )


# --------------------------------------------------------------------------------------
# Draft 2020-12 and draft-07
# --------------------------------------------------------------------------------------


def to_draft202012(schema: Mapping[str, Any]) -> SchemaDict:
    """Return ``schema`` as draft 2020-12 (a copy when it already is).

    From draft-07: ``definitions`` becomes ``$defs`` (``$ref``s rewritten), array-form
    ``items``/``additionalItems`` become ``prefixItems``/``items``, ``dependencies``
    splits into ``dependentRequired``/``dependentSchemas``, a plain-name ``$id``
    becomes ``$anchor``, and the siblings a draft-07 ``$ref`` ignores are dropped.

    Examples:
        >>> to_draft202012({"$schema": DRAFT_07_URI, "items": [{"type": "integer"}]})["prefixItems"]
        [{'type': 'integer'}]
    """
    if detect_dialect(schema) == "draft-2020-12":
        return cast("SchemaDict", _thaw(schema))
    source = cast("SchemaDict", _thaw(schema))
    base = _root_base(source)
    out = _walk(source, lambda node: _node_07_to_2020(node, base))
    return cast("SchemaDict", _walk(out, lambda node: _repoint(source, node, _step_2020, base)))


def to_draft07(schema: Mapping[str, Any]) -> SchemaDict:
    """Return ``schema`` as draft-07 (a copy when it already is).

    ``$defs`` becomes ``definitions`` (``$ref``s rewritten), ``prefixItems``/``items``
    become array-form ``items``/``additionalItems``, ``dependentRequired`` and
    ``dependentSchemas`` merge into ``dependencies``, ``$anchor`` becomes a
    plain-name ``$id``, and a ``$ref`` with sibling keywords is wrapped in ``allOf``
    (draft-07 ignores a ``$ref``'s siblings). Keywords draft-07 lacks are
    approximated: ``unevaluatedProperties``/``unevaluatedItems`` become
    ``additionalProperties``/``additionalItems`` where that is exact (no in-place
    applicator beside them) and are dropped otherwise; ``minContains``/``maxContains``
    are dropped.

    Examples:
        >>> to_draft07({"prefixItems": [{"type": "string"}], "items": False})
        {'items': [{'type': 'string'}], 'additionalItems': False}
    """
    source = to_draft202012(schema)
    base = _root_base(source)
    out = _walk(
        _guard_negations(source, _LOSSY_07.__contains__),
        lambda node: _node_2020_to_07(node, base),
    )
    return cast("SchemaDict", _walk(out, lambda node: _repoint(source, node, _step_07, base)))


def _root_base(schema: SchemaDict) -> str | None:
    """Return the root's absolute ``$id`` without a fragment (a ``$ref`` may spell it)."""
    ident = schema.get("$id")
    if not isinstance(ident, str) or ident.startswith("#"):
        return None
    return ident.split("#", 1)[0] or None


def _step_07(here: SchemaDict, token: str) -> str:
    if token == "prefixItems":
        return "items"
    if token == "items" and here.get("prefixItems"):
        return "additionalItems"
    if token == "$defs":
        return "definitions"
    if token in ("dependentSchemas", "dependentRequired"):
        return "dependencies"
    return token


def _step_2020(here: SchemaDict, token: str) -> str:
    if token == "items" and _is_array(here.get("items")):
        return "prefixItems"
    if token == "additionalItems" and _is_array(here.get("items")):
        return "items"
    if token == "definitions":
        return "$defs"
    if token == "dependencies":
        return "dependentSchemas"
    return token


def _repoint(
    source: SchemaDict,
    node: SchemaDict,
    step_of: Callable[[SchemaDict, str], str],
    base: str | None = None,
) -> SchemaDict:
    """Point a ``$ref`` into a location the conversion renamed at its new place.

    A ``$ref`` that spells the root's absolute ``$id`` (``base``) before its pointer
    points into the root as a ``#/...`` one does, and keeps its spelling.
    """
    ref = node.get("$ref")
    if base is not None and isinstance(ref, str) and ref.startswith(base + "#/"):
        local = _repoint(source, {**node, "$ref": ref[len(base) :]}, step_of)
        return {**node, "$ref": base + local["$ref"]}
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return node
    here: Any = source
    moved: list[str] = []
    keyword = True  # is the token a keyword (rather than a name or an index)?
    for token in pointer_tokens(ref):
        step = token
        if keyword:  # a keyword of a schema object: the conversion may rename it
            if not _is_object(here):
                return node
            step = step_of(here, token)
        elif not (_is_object(here) or _is_array(here)):  # a name or an index
            return node
        moved.append(step.replace("~", "~0").replace("/", "~1"))
        here = resolve_pointer(here, "#/" + token.replace("~", "~0").replace("/", "~1"))
        keyword = not (keyword and (token in _MAP or token in _LIST or _is_array(here)))
    return {**node, "$ref": "#/" + "/".join(moved)}


def _node_2020_to_07(node: SchemaDict, base: str | None = None) -> SchemaDict:
    out: SchemaDict = {}
    for key, value in node.items():
        if key == "$defs":
            out["definitions"] = {**value, **node.get("definitions", {})}
        elif key == "$dynamicRef":
            raise SchemaConversionError(
                f"cannot convert $dynamicRef {_short(value)} to draft-07: draft-07 has no "
                "dynamic reference, and a static $ref would accept more; keep draft-2020-12"
            )
        elif key == "$ref":
            out["$ref"] = _rename_ref(value, "$defs", "definitions", base)
        elif key == "$schema":
            out["$schema"] = DRAFT_07_URI
        elif key in ("$anchor", "$dynamicAnchor"):
            if "$id" not in node:
                out["$id"] = f"#{value}"
            elif key == "$anchor":
                raise SchemaConversionError(
                    f"cannot convert $anchor {_short(value)} beside $id to draft-07: a "
                    "draft-07 schema has one $id, so references to the anchor would point "
                    "nowhere; keep draft-2020-12"
                )
        elif key == "prefixItems":
            if value:
                out["items"] = value
                if "items" in node:
                    out["additionalItems"] = node["items"]
        elif key == "items":
            if not node.get("prefixItems"):
                out["items"] = value
        elif key in ("dependentRequired", "dependentSchemas"):
            _merge_dependencies(out.setdefault("dependencies", {}), value)
        elif key in ("minContains", "maxContains", "$vocabulary", "contentSchema", "dependencies"):
            # 2020-12 has no "dependencies": draft-07 would apply what 2020-12 ignores.
            pass
        elif key == "contains":
            # minContains 0 makes contains always pass (maxContains is dropped anyway).
            if node.get("minContains", 1) != 0:
                out["contains"] = value
        elif key == "unevaluatedProperties":
            if not (_IN_PLACE & node.keys()) and "additionalProperties" not in node:
                out["additionalProperties"] = value
        elif key == "unevaluatedItems":
            # contains also evaluates items: additionalItems would reject what it matched.
            if not (_IN_PLACE & node.keys()) and "contains" not in node:
                if "prefixItems" in node:
                    if "items" not in node:
                        out["additionalItems"] = value
                elif "items" not in node:
                    out["items"] = value
        elif key != "definitions" or "$defs" not in node:
            out[key] = value
    return _wrap_ref_07(out)


# Keywords to_draft07 drops or approximates (each loosens the subschema it stood in).
_LOSSY_07 = frozenset(
    {"unevaluatedProperties", "unevaluatedItems", "minContains", "maxContains", "contentSchema"}
)


def _guard_negations(node: Any, lossy: Callable[[str], bool]) -> Any:
    """Keep a loosening a loosening where a subschema is read negatively.

    A subschema that will lose a keyword accepts more; under ``not``, as an ``if``
    or as a ``oneOf`` branch that would make its parent reject more. So such a
    ``not`` or ``if``/``then``/``else`` is dropped and such a ``oneOf`` becomes an
    ``anyOf``: each a loosening of the parent, never a narrowing.
    """
    if not _is_object(node):
        return node
    out = _map_subschemas(node, lambda child: _guard_negations(child, lossy))
    if "not" in node and _uses(node["not"], lossy):
        del out["not"]
    if "if" in node and _uses(node["if"], lossy):
        for key in ("if", "then", "else"):
            out.pop(key, None)
    branches = node.get("oneOf")
    if _is_array(branches) and any(_uses(b, lossy) for b in branches):
        one_of = out.pop("oneOf")
        if "anyOf" in out:
            out["allOf"] = [*out.get("allOf", ()), {"anyOf": one_of}]
        else:
            out["anyOf"] = one_of
    return out


def _uses(node: Any, lossy: Callable[[str], bool]) -> bool:
    """Whether ``node`` (or a subschema of it) has a keyword ``lossy`` flags."""
    if not _is_object(node):
        return False
    found = any(lossy(key) for key in node)

    def visit(child: Any) -> Any:
        nonlocal found
        found = found or _uses(child, lossy)
        return child

    _map_subschemas(node, visit)
    return found


def _merge_dependencies(into: dict[str, Any], value: Mapping[str, Any]) -> None:
    for name, dep in value.items():
        if name in into:
            into[name] = {"allOf": [_as_schema(into[name]), _as_schema(dep)]}
        else:
            into[name] = dep


def _as_schema(dependency: Any) -> Any:
    return {"required": dependency} if _is_array(dependency) else dependency


def _wrap_ref_07(node: SchemaDict) -> SchemaDict:
    """Draft-07 ignores a ``$ref``'s siblings: move the ``$ref`` into ``allOf``."""
    if "$ref" not in node:
        return node
    kept = {"$ref", "$schema", "definitions", "$comment"}
    if node.keys() <= kept:
        return node
    out = {k: v for k, v in node.items() if k != "$ref"}
    out["allOf"] = [*out.get("allOf", ()), {"$ref": node["$ref"]}]
    return out


def _node_07_to_2020(node: SchemaDict, base: str | None = None) -> SchemaDict:
    if "$ref" in node:
        # Draft-07 ignores every sibling of $ref; keep only what is not validation.
        keep = _ANNOTATIONS | {"$ref", "$schema", "definitions", "$defs"}
        node = {k: v for k, v in node.items() if k in keep}
    out: SchemaDict = {}
    for key, value in node.items():
        if key == "definitions":
            out["$defs"] = {**value, **node.get("$defs", {})}
        elif key == "$ref":
            out["$ref"] = _rename_ref(value, "definitions", "$defs", base)
        elif key == "$schema":
            out["$schema"] = DRAFT_2020_12_URI
        elif key == "$id" and isinstance(value, str) and value.startswith("#"):
            out["$anchor"] = value[1:]
        elif key == "items":
            if isinstance(value, list):
                out["prefixItems"] = value
                if "additionalItems" in node:
                    out["items"] = node["additionalItems"]
            else:
                out["items"] = value
        elif key == "additionalItems":
            pass
        elif key == "dependencies":
            for name, dep in cast("dict[str, Any]", value).items():
                group = "dependentRequired" if _is_array(dep) else "dependentSchemas"
                out.setdefault(group, {})[name] = dep
        elif key != "$defs" or "definitions" not in node:
            out[key] = value
    return out


# --------------------------------------------------------------------------------------
# $ref inlining
# --------------------------------------------------------------------------------------


def inline_refs(schema: Mapping[str, Any]) -> SchemaDict:
    """Replace every local ``$ref`` with the schema it points to.

    ``$defs`` and ``definitions`` are removed from the result. In draft 2020-12 a
    ``$ref``'s sibling keywords are kept (merged into the target when that is exact,
    else combined with ``allOf``); in draft-07 they are dropped, as draft-07 ignores
    them. The dialect is read from ``$schema``.

    Raises:
        SchemaConversionError: the schema is recursive (the message names the recursive type),
            or a ``$ref`` is not local (does not start with ``#``) or points nowhere.

    Examples:
        >>> inline_refs({"$defs": {"N": {"type": "integer"}}, "items": {"$ref": "#/$defs/N"}})
        {'items': {'type': 'integer'}}
    """
    root = _thaw(schema)
    keep_siblings = detect_dialect(root) == "draft-2020-12"
    done: dict[str, Any] = {}

    def expand(node: Any, chain: tuple[str, ...], scope: SchemaDict) -> Any:
        if not _is_object(node):
            return node
        if node is not root and isinstance(node.get("$id"), str) and node["$id"][:1] != "#":
            scope = node  # an embedded resource: its "#..." refs resolve inside it
        if "$dynamicRef" in node:
            raise SchemaConversionError(
                f"cannot inline $dynamicRef {_short(node['$dynamicRef'])}: it has no dynamic "
                "reference equivalent without $ref; keep draft-2020-12"
            )
        ref = node.get("$ref")
        body = _map_subschemas(
            {k: v for k, v in node.items() if k not in ("$ref", "$defs", "definitions")},
            lambda child: expand(child, chain, scope),
        )
        if not isinstance(ref, str):
            return body
        key = ref if scope is root else f"{scope['$id']}{ref}"
        if key in chain:
            raise SchemaConversionError(_recursion_message(scope, ref, chain, key))
        if key not in done:
            done[key] = expand(_resolve(scope, ref), (*chain, key), scope)
        target = _thaw(done[key])
        if not keep_siblings:
            return target
        return _merge(target, body)

    return cast("SchemaDict", expand(root, (), root))


def _resolve(root: SchemaDict, ref: str) -> Any:
    if not ref.startswith("#"):
        raise SchemaConversionError(
            f"cannot inline $ref {_short(ref)}: only local references (starting with '#') "
            "are supported"
        )
    if ref[1:2] not in ("", "/"):
        node = _find_anchor(root, ref[1:])
        if node is MISSING:
            raise SchemaConversionError(
                f"cannot inline $ref {_short(ref)}: no $anchor {_short(ref[1:])} in the schema"
            )
        return node
    node = resolve_pointer(root, ref)
    if node is MISSING:
        raise SchemaConversionError(f"cannot inline $ref {_short(ref)}: it points nowhere")
    return node


def _find_anchor(node: Any, name: str) -> Any:
    """Return the subschema of ``node`` named ``name`` by ``$anchor`` (or a draft-07 ``$id``)."""
    if not _is_object(node):
        return MISSING
    if node.get("$anchor") == name or node.get("$id") == f"#{name}":
        return node
    found: Any = MISSING

    def visit(child: Any) -> Any:
        nonlocal found
        embedded = _is_object(child) and str(child.get("$id", "#"))[:1] != "#"
        if found is MISSING and not embedded:
            found = _find_anchor(child, name)
        return child

    _map_subschemas(node, visit)
    return found


def _recursion_message(root: SchemaDict, ref: str, chain: tuple[str, ...], key: str) -> str:
    target = _resolve(root, ref)
    title = target.get("title") if _is_object(target) else None
    parts = pointer_tokens(ref) if ref[1:2] in ("", "/") else [ref[1:]]
    name = title if isinstance(title, str) else parts[-1] if parts else "the root schema"
    cycle = " -> ".join((*chain[chain.index(key) :], key))
    return (
        f"cannot inline $ref: the schema {_short(name)} is recursive ({cycle}); "
        "a recursive schema needs $ref, so use a target that keeps $ref (draft-2020-12 "
        "or draft-07) or break the recursion"
    )


def _merge(target: Any, siblings: SchemaDict) -> Any:
    """``{"$ref": target, **siblings}`` as one schema without ``$ref``."""
    if not siblings:
        return target
    if target is True:
        return siblings
    if _is_object(target) and _mergeable(target, siblings):
        return {**target, **siblings}
    out = dict(siblings)
    out["allOf"] = [target, *siblings.get("allOf", ())]
    return out


def _mergeable(a: SchemaDict, b: SchemaDict) -> bool:
    a_keys = a.keys() - _ANNOTATIONS
    b_keys = b.keys() - _ANNOTATIONS
    if a_keys & b_keys or (_UNEVALUATED & (a_keys | b_keys)):
        return False
    return not any(group & a_keys and group & b_keys for group in _GROUPS)


# --------------------------------------------------------------------------------------
# OpenAPI 3.0
# --------------------------------------------------------------------------------------

_OPENAPI_KEYWORDS = frozenset(
    {
        "title",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "maxLength",
        "minLength",
        "pattern",
        "maxItems",
        "minItems",
        "uniqueItems",
        "maxProperties",
        "minProperties",
        "required",
        "enum",
        "type",
        "not",
        "allOf",
        "oneOf",
        "anyOf",
        "items",
        "properties",
        "additionalProperties",
        "description",
        "format",
        "default",
        "nullable",
        "discriminator",
        "readOnly",
        "writeOnly",
        "example",
        "externalDocs",
        "deprecated",
        "xml",
    }
)
# Keywords to_openapi30 rewrites exactly (the rest outside _OPENAPI_KEYWORDS loosen).
_EXACT_OPENAPI = frozenset({"$schema", "$id", "$anchor", "$comment", "const", "examples"})
_COUNTS = frozenset(
    {"maxItems", "minItems", "maxLength", "minLength", "maxProperties", "minProperties"}
)
_NULL_ONLY: SchemaDict = {"nullable": True, "enum": [None]}


def to_openapi30(schema: Mapping[str, Any]) -> SchemaDict:
    """Return ``schema`` as an OpenAPI 3.0 Schema Object.

    ``$ref``s are inlined (a standalone Schema Object has nowhere to keep
    ``$defs``), null unions become ``nullable``, ``const`` a one-value ``enum``,
    numeric ``exclusiveMinimum``/``exclusiveMaximum`` the 3.0 boolean form,
    ``examples`` the first ``example``, boolean subschemas ``{}`` and
    ``{"not": {}}``, and ``prefixItems`` an ``items`` that accepts any of the
    positional schemas (OpenAPI 3.0 has no tuples). ``$schema`` and keywords
    OpenAPI 3.0 does not define are dropped (``x-`` extensions are kept), which
    loosens the subschema they stood in (so under ``not`` or a ``oneOf`` branch it
    can reject more). Everything else accepts exactly the same instances.

    Raises:
        SchemaConversionError: the schema is recursive (see ``inline_refs``).

    Examples:
        >>> to_openapi30({"anyOf": [{"type": "integer"}, {"type": "null"}], "const": 3})
        {'type': 'integer', 'nullable': True, 'enum': [3]}
    """
    inlined = inline_refs(to_draft202012(schema))
    return cast("SchemaDict", _openapi(_guard_negations(inlined, _lossy_openapi)))


def _lossy_openapi(key: str) -> bool:
    return key not in _OPENAPI_KEYWORDS and key not in _EXACT_OPENAPI and not key.startswith("x-")


def _openapi(node: Any) -> Any:
    if node is True:
        return {}
    if node is False:
        return {"not": {}}
    out: SchemaDict = {}
    nullable = False
    for key, value in node.items():
        if key == "properties":
            out[key] = {name: _openapi(sub) for name, sub in value.items()}
        elif key in ("allOf", "anyOf", "oneOf"):
            out[key] = [_openapi(sub) for sub in value]
        elif key == "additionalProperties" and node.get("patternProperties"):
            pass  # it excludes what patternProperties matched, which OpenAPI 3.0 drops
        elif key == "not" or (key == "additionalProperties" and not isinstance(value, bool)):
            out[key] = _openapi(value)
        elif key == "type":
            out[key] = value  # keeps its place; rewritten below, once enum and anyOf are known
        elif key == "const":
            # const and enum side by side: the const, if the enum has it too.
            in_enum = any(_json_equal(value, v) for v in node.get("enum", [value]))
            out["enum"] = [value] if in_enum else []
        elif key == "enum":
            if "const" not in node:
                out["enum"] = list(cast("list[Any]", value))
        elif key == "examples":
            if isinstance(value, list) and value and "example" not in node:
                out["example"] = value[0]
        elif key == "discriminator":
            # An OpenAPI discriminator names component schemas, and none are left
            # once refs are inlined: OpenAPI validators would then reject every
            # instance. The ``oneOf``/``anyOf`` beside it still decides.
            pass
        elif key == "required":
            if value:
                out[key] = value
        elif key in ("items", "prefixItems", "exclusiveMinimum", "exclusiveMaximum"):
            pass  # handled below: they depend on their neighbours
        elif key in _COUNTS and isinstance(value, float) and value.is_integer():
            out[key] = int(value)  # OpenAPI 3.0 requires an integer count
        elif key in _OPENAPI_KEYWORDS or key.startswith("x-"):
            out[key] = value
    if "type" in out:
        nullable = _openapi_type(out)
    _openapi_array(node, out)
    _openapi_bounds(node, out)
    out = _lift_null_branches(out)
    if nullable:
        # The node's own keywords see null in both dialects: only its type changes.
        out["nullable"] = True
    enum = out.get("enum")
    if enum is not None and not enum:
        return {"not": {}}
    if enum is not None and None in enum and "type" not in out:
        out["nullable"] = True  # a type without null rejects null whatever the enum says
    return out


def _openapi_type(out: SchemaDict) -> bool:
    """Rewrite the 2020-12 ``type`` of ``out``; return whether ``null`` must be added."""
    value = out["type"]
    names: list[Any] = value if _is_array(value) else [value]
    types = [t for t in names if t != "null"]
    null = len(types) < len(names)
    if len(types) == 1:
        out["type"] = types[0]
        return null
    del out["type"]
    if not types:
        enum = out.get("enum")
        out["enum"] = [None] if enum is None or None in enum else []
        return True
    branches: list[SchemaDict] = []
    for name in types:
        branch: SchemaDict = {"type": name, "items": {}} if name == "array" else {"type": name}
        branches.append({**branch, "nullable": True} if null else branch)
    if "anyOf" in out:
        out["allOf"] = [*out.get("allOf", ()), {"anyOf": branches}]
    else:
        out["anyOf"] = branches
    return False


def _openapi_array(node: Mapping[str, Any], out: SchemaDict) -> None:
    """``items``/``prefixItems`` in OpenAPI 3.0 form (one ``items`` schema, no tuples)."""
    prefix: list[Any] = list(node.get("prefixItems", ()))
    rest: Any = node.get("items", True)
    if rest is False:
        limit = min(len(prefix), node.get("maxItems", len(prefix)))
        out["maxItems"] = limit
        branches = prefix
    else:
        branches = [*prefix, rest]
    if any(b is True or b == {} for b in branches):
        if "items" in node or "prefixItems" in node or out.get("type") == "array":
            out["items"] = {}
    elif len(branches) == 1:
        out["items"] = _openapi(branches[0])
    elif branches:
        out["items"] = {"anyOf": [_openapi(b) for b in branches]}
    if out.get("type") == "array" and "items" not in out:
        out["items"] = {}  # OpenAPI 3.0: items MUST be present when type is array


def _openapi_bounds(node: Mapping[str, Any], out: SchemaDict) -> None:
    """Numeric ``exclusiveMinimum``/``exclusiveMaximum`` in the 3.0 boolean form."""
    for exclusive, inclusive, sign in (
        ("exclusiveMinimum", "minimum", 1),
        ("exclusiveMaximum", "maximum", -1),
    ):
        bound = node.get(exclusive)
        if isinstance(bound, bool) or not isinstance(bound, (int, float)):
            continue
        current = node.get(inclusive)
        # x > b and x >= c is x > b when b >= c, else x >= c (mirrored for maximum).
        if current is None or sign * (bound - current) >= 0:
            out[inclusive] = bound
            out[exclusive] = True


def _rejects_null(schema: Any) -> bool:
    """Whether the OpenAPI 3.0 ``schema`` surely rejects ``null`` (``False`` when unsure)."""
    if not _is_object(schema):
        return False
    if "type" in schema and schema.get("nullable") is not True:
        return True
    return ("enum" in schema and None not in schema["enum"]) or schema.get("not") == {}


def _is_null_only(schema: Any) -> bool:
    return (
        _is_object(schema)
        and schema.get("enum") == [None]
        and schema.keys() <= _ANNOTATIONS | {"nullable", "enum"}
    )


def _lift_null_branches(out: SchemaDict) -> SchemaDict:
    """``anyOf``/``oneOf`` with a null branch: drop it and make another branch nullable."""
    for key in ("anyOf", "oneOf"):
        branches = out.get(key)
        if not branches:
            continue
        rest = [b for b in branches if not _is_null_only(b)]
        if len(rest) == len(branches) or not rest:
            continue
        # One branch takes null. For oneOf it must be one that rejected null (so null
        # still matches it once) and the null branch must be the only one.
        index = 0
        if key == "oneOf":
            index = next((i for i, b in enumerate(rest) if _rejects_null(b)), -1)
            if index < 0 or len(branches) - len(rest) > 1:
                continue
        rest[index] = _make_nullable(rest[index])
        outer = {k: v for k, v in out.items() if k != key}
        # Merged into a node with its own ``type``, the branch's ``nullable`` would
        # widen that type too: the node rejected null, so keep the branch apart.
        widens = "type" in outer and "nullable" in rest[0]
        if len(rest) == 1 and not widens and _mergeable(rest[0], outer):
            return {**rest[0], **outer}
        out = {**outer, key: rest}
    return out


def _make_nullable(schema: SchemaDict) -> SchemaDict:
    """Return ``schema`` also accepting ``null``, in OpenAPI 3.0 terms."""
    if schema == {}:
        return schema
    # nullable/enum only widen type/enum: a subschema keyword may still reject null.
    in_place = not (schema.keys() & {"allOf", "anyOf", "oneOf", "not"})
    if in_place and "enum" in schema:
        values = schema["enum"]
        enum = values if None in values else [*values, None]
        return {**schema, "enum": enum, "nullable": True}
    if in_place and "type" in schema:
        return {**schema, "nullable": True}
    if "anyOf" in schema and schema.keys() <= _ANNOTATIONS | {"anyOf"}:
        branches = list(schema["anyOf"])
        branches[0] = _make_nullable(branches[0])
        return {**schema, "anyOf": branches}
    return {"anyOf": [schema, dict(_NULL_ONLY)]}


# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------


_JSON_SCALARS = frozenset({str, int, float, bool, type(None)})


def _thaw(value: Any) -> Any:
    """Deep-copy into dicts and lists (mappings become dicts, tuples lists)."""
    # Exact types first: the ABC checks below cost more than the copy of a JSON node
    # (building a tool from a JSON Schema dict copies it; see benchmarks/bench_build.py).
    cls = type(cast(object, value))
    if cls is dict:
        return {k: _thaw(v) for k, v in value.items()}
    if cls in _JSON_SCALARS:
        return value
    if cls is list:
        return [_thaw(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, (list, tuple)):
        return [_thaw(v) for v in value]  # pyright: ignore[reportUnknownVariableType]
    return value


def _thaw_within(value: Any, depth: int) -> Any:
    """``_thaw``, refusing containers more than ``depth`` levels down."""
    item = cast(object, value)
    cls = type(item)
    if cls in _JSON_SCALARS:
        return item
    mapping = cls is dict or isinstance(item, Mapping)
    if not mapping and not isinstance(item, (list, tuple)):
        return item  # pyright: ignore[reportUnknownVariableType]
    if depth < 0:
        raise SchemaConversionError("the schema nests too deeply")
    if mapping:
        items = cast("Mapping[Any, Any]", value).items()
        return {k: _thaw_within(v, depth - 1) for k, v in items}
    return [_thaw_within(v, depth - 1) for v in cast("list[Any]", value)]


def _map_subschemas(node: SchemaDict, fn: Callable[[Any], Any]) -> SchemaDict:
    """Copy ``node``, applying ``fn`` to each direct subschema."""
    out: SchemaDict = {}
    for key, value in node.items():
        if key in _ONE or (key == "items" and not isinstance(value, list)):
            out[key] = fn(value)
        elif (key in _LIST or key == "items") and isinstance(value, list):
            out[key] = [fn(v) for v in value]  # pyright: ignore[reportUnknownVariableType]
        elif key in _MAP and isinstance(value, dict):
            out[key] = {name: fn(v) for name, v in value.items()}  # pyright: ignore[reportUnknownVariableType]
        elif key == "dependencies" and isinstance(value, dict):
            out[key] = {
                name: v if isinstance(v, list) else fn(v)
                for name, v in value.items()  # pyright: ignore[reportUnknownVariableType]
            }
        else:
            out[key] = value
    return out


def _walk(node: Any, fn: Callable[[SchemaDict], SchemaDict]) -> Any:
    """Apply ``fn`` to every schema object, children first."""
    if not _is_object(node):
        return node
    return fn(_map_subschemas(node, lambda child: _walk(child, fn)))


def _rename_ref(ref: Any, old: str, new: str, base: str | None = None) -> Any:
    """Rewrite the ``old`` keyword segments of a local JSON pointer ``$ref`` to ``new``.

    A ``$ref`` that spells the root's absolute ``$id`` (``base``) before its pointer is
    local too; it keeps its spelling.
    """
    if base is not None and isinstance(ref, str) and ref.startswith(base + "#/"):
        return base + _rename_ref(ref[len(base) :], old, new)
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return ref
    renamed: list[str] = []
    keyword = True  # is the next segment a keyword (rather than a name or an index)?
    for part in ref[2:].split("/"):
        if keyword:
            renamed.append(new if part == old else part)
            keyword = part not in _MAP and part not in _LIST
        else:
            renamed.append(part)
            keyword = True
    return "#/" + "/".join(renamed)


def _json_equal(a: Any, b: Any) -> bool:
    """Equality as ``const``/``enum`` define it: ``1 == 1.0``, but ``True != 1``."""
    if _is_object(a) and _is_object(b):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if _is_array(a) and _is_array(b):
        return len(a) == len(b) and all(map(_json_equal, a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


def _is_object(value: object) -> TypeGuard[SchemaDict]:
    return isinstance(value, dict)


def _is_array(value: object) -> TypeGuard[list[Any]]:
    return isinstance(value, list)


def _short(value: object) -> str:
    return safe_repr(value, _MAX_SHOWN)
