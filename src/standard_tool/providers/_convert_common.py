"""Shared pieces of the provider converters: the error, argument plans, helpers.

Layer: providers (imports the core and the shared helpers; never the package root).
"""

from __future__ import annotations

import json
import math
import sys
import weakref
from collections.abc import Callable, Mapping
from typing import Any, Generic, cast

from typing_extensions import TypeGuard, TypeVar

from standard_tool._core import Issue, StandardToolError, StandardToolValidationError
from standard_tool._shared import MISSING, pointer_text, resolve_pointer, truncate_text

_T = TypeVar("_T")

#: Every error message of this package starts with this prefix.
PREFIX = "standard_tool.providers: "

#: Longest text produced from a user value inside a message or a description.
VALUE_TEXT_LIMIT = 200


class ProviderOptionError(StandardToolError, ValueError):
    """A provider function was given an option value it does not accept (e.g. ``strict``)."""


class ProviderSchemaError(StandardToolError, ValueError):
    """A tool cannot be converted for a provider.

    The message starts with ``"standard_tool.providers: "``, names the tool and
    says what to change. Raised before anything is sent.
    """


# --------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------


def is_object(value: object) -> TypeGuard[dict[str, Any]]:
    return isinstance(value, dict)


def is_array(value: object) -> TypeGuard[list[Any]]:
    return isinstance(value, list)


def value_text(value: object, limit: int = VALUE_TEXT_LIMIT) -> str:
    """Render of ``value`` for messages and descriptions."""
    try:
        cls = type(value)
        # A scalar written as ``json.dumps`` writes it, without making an encoder.
        if cls is str:
            text = _encode_string(cast("str", value))
        elif cls is int:
            text = int.__repr__(cast("int", value))
        elif cls is bool or value is None:
            text = "true" if value is True else "false" if value is False else "null"
        else:
            text = json.dumps(value, ensure_ascii=False, sort_keys=False, default=repr)
    except (TypeError, ValueError):  # circular structures
        text = repr(value)
    return truncate_text(text, limit)


#: ``json.dumps(text, ensure_ascii=False)`` for a ``str``.
_encode_string: Callable[[str], str] = getattr(json.encoder, "encode_basestring")  # noqa: B009


def reasons_text(problems: list[str], most: int = 8) -> str:
    """Join the first ``most`` problems with ``"; "``, then ``"and N more"`` for the rest."""
    shown = problems[:most]
    if len(problems) > most:
        shown.append(f"and {len(problems) - most} more")
    return "; ".join(shown)


def path_text(path: tuple[str | int, ...]) -> str:
    """Return the JSON Pointer of ``path`` (``/`` for the root), as problems show it."""
    return pointer_text(path) or "/"


#: Deepest a schema is walked for values JSON cannot carry (deeper is refused too).
_MAX_JSON_DEPTH = 200


def _not_json(value: Any, path: tuple[str | int, ...], depth: int) -> str | None:
    if value is None or isinstance(value, (str, bool, int)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{path_text(path)} is {value!r}"
    if depth > _MAX_JSON_DEPTH:
        return f"{path_text(path)} nests deeper than {_MAX_JSON_DEPTH} levels"
    if isinstance(value, (list, tuple)):
        items: Any = value  # pyright: ignore[reportUnknownVariableType]
        for index, item in enumerate(items):
            found = _not_json(item, (*path, index), depth + 1)
            if found is not None:
                return found
        return None
    if isinstance(value, Mapping):
        mapping: Mapping[Any, Any] = value  # pyright: ignore[reportUnknownVariableType]
        for key, item in mapping.items():
            if not isinstance(key, str):
                return (
                    f"{path_text(path)} has the key {value_text(key, 40)} "
                    f"({type(key).__name__}), not a string"
                )
            found = _not_json(item, (*path, key), depth + 1)
            if found is not None:
                return found
        return None
    return None  # another object (an enum member...): the provider's client renders it


def checked_json_schema(schema: _T, tool_name: str, which: str = "input") -> _T:
    """Return ``schema``, or raise ``ProviderSchemaError`` for what JSON cannot carry.

    A provider payload must be JSON: a ``NaN`` or an infinity (in ``default``,
    ``enum``, ``maximum``...) is not, and a key that is not a string would be sent
    as a string the tool does not check (``{5: ...}`` shown as ``"5"``). Every
    provider's declaration reads the tool's schema through this.
    """
    problem = _not_json(schema, (), 0)
    if problem is not None:
        raise ProviderSchemaError(
            f"{PREFIX}tool {value_text(tool_name, 80)}: the {which} schema is not JSON data: "
            f"{problem}; JSON has no NaN or infinity and its keys are strings, so no "
            "provider can be sent it (fix the schema where the tool is built)"
        )
    return schema


#: Keywords beside a ``$ref`` that describe nothing (a node of only these and ``$ref`` is an alias).
_NOTES = frozenset({"$ref", "description", "title", "$comment", "examples"})


def ref_cycle(root: Mapping[str, Any], ref: str) -> list[str] | None:
    """Return the ``$ref`` chain by which ``ref`` leads back to itself, or ``None``.

    A ``$defs`` entry that is only a ``$ref`` (an alias) to itself, or to an alias
    of an alias of it, describes no value: a validator following it never ends.
    """
    chain = [ref]
    while True:
        target = resolve_local_ref(root, chain[-1])
        if not is_object(target) or not target.keys() <= _NOTES:
            return None
        following = target.get("$ref")
        if not isinstance(following, str):
            return None
        chain.append(following)
        if following in chain[:-1]:
            return chain


def cycle_text(cycle: list[str]) -> str:
    """Describe a ``ref_cycle`` for a problem list."""
    chain = truncate_text(" -> ".join(cycle), 120)
    return f"only points at itself ({chain}): it describes no value; give it a schema"


def resolve_local_ref(root: Mapping[str, Any], ref: str) -> Any:
    """Resolve a local ``$ref``: a pointer (``#/...``) or an anchor (``#name``); else ``None``."""
    if not ref.startswith("#"):
        return None
    if len(ref) > 1 and not ref.startswith("#/"):
        return _find_anchor(root, ref[1:])
    node = resolve_pointer(root, ref)
    return None if node is MISSING else node


def _find_anchor(root: Mapping[str, Any], name: str) -> Any:
    """Return the first subschema of ``root`` declaring ``"$anchor": name``, or ``None``."""
    pending: list[Any] = [root]
    seen = 0
    while pending and seen < 100_000:
        node = pending.pop()
        seen += 1
        if is_object(node):
            if node.get("$anchor") == name:
                return node
            pending.extend(node.values())
        elif is_array(node):
            pending.extend(node)
    return None


def accepts_null(schema: Any, root: Mapping[str, Any], seen: frozenset[str] = frozenset()) -> bool:
    """Tell (conservatively) whether a draft 2020-12 ``schema`` accepts ``null``."""
    if schema is True:
        return True
    if not is_object(schema):
        return False
    if schema == {}:
        return True
    kind = schema.get("type")
    if kind == "null" or (is_array(kind) and "null" in kind):
        return True
    if "const" in schema and schema["const"] is None:
        return True
    if is_array(schema.get("enum")) and None in schema["enum"]:
        return True
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if is_array(branches) and any(accepts_null(b, root, seen) for b in branches):
            return True
    all_of = schema.get("allOf")
    if is_array(all_of) and all_of and all(accepts_null(b, root, seen) for b in all_of):
        return kind is None
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref not in seen and kind is None:
        return accepts_null(resolve_local_ref(root, ref), root, seen | {ref})
    return False


def object_root(schema: dict[str, Any]) -> dict[str, Any] | None:
    """Return ``schema`` with ``"type": "object"`` at its root, or ``None`` if not an object.

    A root that is only a ``$ref`` (as Pydantic emits for recursive models) is
    replaced by what it points to, keeping ``$defs`` so inner references resolve.
    """
    node = schema
    ref = node.get("$ref")
    if isinstance(ref, str) and not node.get("properties"):
        target = resolve_local_ref(schema, ref)
        if not is_object(target):
            return None
        siblings = {k: v for k, v in node.items() if k != "$ref" and k not in target}
        node = {**target, **siblings}
    kind = node.get("type")
    if kind == "object":
        return node
    if kind is None and is_object(node.get("properties")) and "anyOf" not in node:
        return {"type": "object", **node}
    return None


# --------------------------------------------------------------------------------------
# Argument plans: how to turn a model's arguments back into the tool's input
# --------------------------------------------------------------------------------------


def _within(err: StandardToolValidationError, key: Any) -> StandardToolValidationError:
    """``err`` with ``key`` put in front of every issue's path (decoding an inner value)."""
    issues = [
        Issue(i.message, (key, *(i.path or ())), getattr(i, "code", None)) for i in err.issues
    ]
    return StandardToolValidationError("input", issues)


class Plan:
    """Decodes one value produced under a rewritten schema back to the original shape.

    ``decode`` passes a value of the wrong shape through unchanged, for the tool's own
    validation to report; the one thing it refuses is what that validation could no
    longer see: a map whose entries repeat a key (``StandardToolValidationError``,
    naming the path), since turning them into a dict would keep only the last.
    """

    __slots__ = ()

    def decode(self, value: Any) -> Any:
        raise NotImplementedError


class ObjectPlan(Plan):
    """An object: decode each property; drop ``null`` where the key was optional."""

    __slots__ = ("drop_null", "fields")

    def __init__(self, fields: dict[str, Plan | None], drop_null: frozenset[str]) -> None:
        self.fields = fields
        self.drop_null = drop_null

    def decode(self, value: Any) -> Any:
        if not is_object(value):
            return value
        out: dict[str, Any] = {}
        for key, item in value.items():
            if item is None and key in self.drop_null:
                continue
            plan = self.fields.get(key)
            if plan is None:
                out[key] = item
                continue
            try:
                out[key] = plan.decode(item)
            except StandardToolValidationError as err:
                raise _within(err, key) from None
        return out


class MapPlan(Plan):
    """A ``dict[str, T]`` sent as a list of ``{"key", "value"}`` entries."""

    __slots__ = ("value_plan",)

    def __init__(self, value_plan: Plan | None) -> None:
        self.value_plan = value_plan

    def decode(self, value: Any) -> Any:
        if not is_array(value):
            return value
        if not all(is_object(e) and isinstance(e.get("key"), str) and "value" in e for e in value):
            return value  # leave it for the tool's own validation to report
        plan = self.value_plan
        out: dict[str, Any] = {}
        for index, entry in enumerate(cast("list[dict[str, Any]]", value)):
            key = entry["key"]
            if key in out:
                issue = Issue(
                    f"duplicate key {truncate_text(repr(key), 80)} (each key may appear once)",
                    (index, "key"),
                    "constraint",
                )
                raise StandardToolValidationError("input", [issue])
            try:
                out[key] = entry["value"] if plan is None else plan.decode(entry["value"])
            except StandardToolValidationError as err:
                raise _within(err, index) from None
        return out


class ArrayPlan(Plan):
    """An array: decode every item."""

    __slots__ = ("item_plan",)

    def __init__(self, item_plan: Plan) -> None:
        self.item_plan = item_plan

    def decode(self, value: Any) -> Any:
        if not is_array(value):
            return value
        plan = self.item_plan
        try:
            return [plan.decode(v) for v in value]
        except StandardToolValidationError as err:
            # Rare (a repeated map key): find which item, to name it in the path.
            for index, item in enumerate(value):
                try:
                    plan.decode(item)
                except StandardToolValidationError:
                    raise _within(err, index) from None
            raise


class RefPlan(Plan):
    """A ``$ref``: looked up when decoding, so recursive schemas work."""

    __slots__ = ("name", "plans")

    def __init__(self, plans: dict[str, Plan | None], name: str) -> None:
        self.plans = plans
        self.name = name

    def decode(self, value: Any) -> Any:
        plan = self.plans.get(self.name)
        return value if plan is None else plan.decode(value)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if is_array(value) else "object" if is_object(value) else "other"


class AnyOfPlan(Plan):
    """A union: the branch is chosen by JSON kind, then by the exact set of keys."""

    __slots__ = ("branches",)

    def __init__(self, branches: list[tuple[frozenset[str], frozenset[str] | None, Plan | None]]):
        # (JSON kinds the branch accepts, its property names when an object, plan)
        self.branches = branches

    def decode(self, value: Any) -> Any:
        kind = _kind(value)
        kinds = {"number", "integer"} if kind == "number" else {kind}
        candidates = [b for b in self.branches if b[0] & kinds]
        if kind == "object" and len(candidates) > 1:
            keys = frozenset(cast("dict[str, Any]", value))
            exact = [b for b in candidates if b[1] == keys]
            candidates = exact or candidates
        if not candidates or candidates[0][2] is None:
            return value
        return candidates[0][2].decode(value)


# --------------------------------------------------------------------------------------
# A per-tool cache that never keeps a tool alive
# --------------------------------------------------------------------------------------


class ToolCache(Generic[_T]):
    """Caches one value per tool object, keyed weakly: it never keeps a tool alive.

    An entry goes when its tool is garbage-collected, so there is no size limit to
    fall off. A tool that cannot be weakly referenced (a slotted class without
    ``__weakref__``) or hashed is not cached: its value is built on every call.
    Values are never ``None``.
    """

    __slots__ = ("_weak",)

    def __init__(self) -> None:
        self._weak: weakref.WeakKeyDictionary[Any, _T] = weakref.WeakKeyDictionary()

    def get(self, tool: object, build: Callable[[], _T]) -> _T:
        """Return the value cached for ``tool``, built with ``build()`` the first time."""
        found = self.find(tool)
        if found is None:
            return self.keep(tool, build())
        return found

    def find(self, tool: object) -> _T | None:
        """Return the value cached for ``tool``, or ``None``."""
        try:  # ``get``, not ``[]``: a first call raises no ``KeyError`` (about 1 us)
            return self._weak.get(tool)
        except TypeError:  # not weak-referenceable or not hashable
            return None

    def keep(self, tool: object, value: _T) -> _T:
        """Cache ``value`` for ``tool`` unless a value is cached already; return the cached one.

        Two threads that build a value for the same tool at once keep the first.
        """
        try:  # one ``dict.setdefault`` inside: atomic
            return self._weak.setdefault(tool, value)
        except TypeError:  # not weak-referenceable or not hashable
            return value


def native_input(tool: object) -> dict[str, Any] | None:
    """Return the schema ``input_json_schema(tool)`` copies, for a tool built from a plain dict.

    A tool given a plain draft 2020-12 JSON Schema dict keeps its own copy of it
    (``JSONSchemaProps.native_schema``), and its ``input_json_schema`` is a copy of
    that. A caller that only reads it, and lets no part of it into what it returns,
    skips both the emitter and the copy; as it never changes, what is made from it
    can be made again the same. ``None`` for any other tool (the JSON Schema adapter
    is then not even imported).
    """
    module = sys.modules.get("standard_tool.schemas.jsonschema")
    if module is None:
        return None
    props: Any = getattr(getattr(tool, "input_schema", None), "__standard__", None)
    if type(props) is not module.JSONSchemaProps:
        return None
    found: dict[str, Any] | None = props.native_schema()
    return found
