"""One neutral walk over a draft 2020-12 schema, driven by a provider's ``SchemaRules``.

Layer: providers (imports the shared helpers and ``_convert_common``; never the package
root). It knows no provider by name: each provider module (``_strict`` for OpenAI
strict mode, ``_gemini``) holds its own ``SchemaRules`` value, and the walk reads only
its capability fields.

The providers share the same problems: they close the set of keywords, cannot say
"an object with any keys" and need every value typed. The walk rewrites what it
can (``dict[str, T]`` becomes a list of ``{"key", "value"}`` entries, unions of
types become ``anyOf``, unsupported constraints move into descriptions), records
a ``Plan`` to decode the model's
arguments back, and lists what it cannot represent.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from typing_extensions import TypeGuard

from standard_tool._shared import fresh_copy, truncate_text
from standard_tool.providers._convert_common import (
    AnyOfPlan,
    ArrayPlan,
    MapPlan,
    ObjectPlan,
    Plan,
    RefPlan,
    accepts_null,
    cycle_text,
    is_array,
    is_object,
    object_root,
    path_text,
    ref_cycle,
    resolve_local_ref,
    value_text,
)

Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class SchemaRules:
    """What one provider's schema dialect can express: the walk reads only these fields.

    Attributes:
        provider: the provider's name, as messages show it ("OpenAI").
        keeps: per kind (``string``, ``number``, ``array``, ``object``...), the
            constraint keywords the provider keeps; any other constraint moves into
            the description.
        formats: per kind, the ``format`` values the provider accepts.
        refs: ``$defs`` and ``$ref`` are kept (and a ``$ref`` with siblings is merged
            with its target); otherwise every ``$ref`` must have been inlined before.
        nullable_keyword: null is said with ``"nullable": true`` (OpenAPI) rather than
            ``"null"`` in ``type`` or an ``anyOf`` branch.
        null_alone: a schema that accepts only ``null`` can be expressed.
        mixed_enums: an ``enum`` may mix kinds of values (``type`` becomes a list).
        string_enums_only: ``enum`` is kept on strings only (notes elsewhere).
        exclusive_bounds_inclusive: ``exclusiveMinimum``/``exclusiveMaximum`` become
            ``minimum``/``maximum`` with a note, as the provider lacks them.
        all_required: every property is required; an optional one becomes nullable
            and a ``null`` from the model is dropped when decoding.
        closed_objects: every object says ``additionalProperties: false``.
        property_ordering: objects carry ``propertyOrdering``.
        max_properties: the most properties in one schema, or ``None``.
        max_depth: the deepest object nesting, or ``None``.
        max_enum_values: the most enum values in one schema, or ``None``.
        empty_objects: an object without named properties can be declared below the
            root (Gemini's OpenAPI subset needs at least one).
    """

    provider: str
    keeps: Mapping[str, frozenset[str]]
    formats: Mapping[str, frozenset[str]]
    refs: bool
    nullable_keyword: bool
    null_alone: bool
    mixed_enums: bool
    string_enums_only: bool
    exclusive_bounds_inclusive: bool
    all_required: bool
    closed_objects: bool
    property_ordering: bool
    max_properties: int | None = None
    max_depth: int | None = None
    max_enum_values: int | None = None
    empty_objects: bool = True


# Keywords dropped silently: identifiers and annotations no model needs.
_DROP = frozenset(
    {
        "$schema",
        "$id",
        "$comment",
        "$anchor",
        "$dynamicAnchor",
        "$vocabulary",
        "readOnly",
        "writeOnly",
        "deprecated",
        "contentEncoding",
        "contentMediaType",
        "discriminator",
    }
)
# Keywords the walk itself consumes.
_STRUCTURAL = frozenset(
    {
        "type",
        "description",
        "title",
        "enum",
        "const",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "anyOf",
        "oneOf",
        "allOf",
        "$ref",
        "$defs",
        "definitions",
        "nullable",
    }
)
_ANNOTATIONS = frozenset({"description", "title", "default", "examples", *_DROP})
# Keywords that constrain one kind of value only: without a type, every other kind passes.
_OBJECT_KEYWORDS = frozenset(
    {"properties", "additionalProperties", "patternProperties", "required", "propertyNames"}
)
_ARRAY_KEYWORDS = frozenset({"items", "prefixItems", "minItems", "maxItems", "uniqueItems"})
_MAX_DESCRIPTION = 1000
#: What an optional property's description says once it also accepts ``null``.
_NOT_GIVEN = "null means not given"
# A leaf ``Walker._leaf`` rewrites directly: these keywords only, one of these types.
_LEAF_KEYS = frozenset({"type", "description", "title", "default", "enum"})
_LEAF_TYPES = frozenset({"string", "number", "integer", "boolean"})
# An array ``Walker._leaf_array`` rewrites directly: these keywords only, items a leaf.
_LEAF_ARRAY_KEYS = frozenset({"type", "items", "description", "title", "default"})
_NO_ENUM: Any = object()
# A root of these keywords only (and ``"type": "object"``) is an object, and nothing else.
_PLAIN_ROOT_KEYS = frozenset({"type", "properties", "required", "description", "title"})
# An object below the root of these keywords only (and ``"type": "object"``), with
# named properties, is rewritten as the root is.
_PLAIN_OBJECT_KEYS = _PLAIN_ROOT_KEYS | {"default"}
# Keywords for the keys of an object other than its named properties.
_OTHER_KEYS = ("additionalProperties", "patternProperties", "unevaluatedProperties")
_MAX_UNRAVEL = 32


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if is_array(value) else "object"


def _family(kind: str) -> str:
    return "number" if kind == "integer" else kind


class Walker:
    """Rewrites one root schema under ``rules``; see the module docstring."""

    def __init__(self, root: dict[str, Any], rules: SchemaRules) -> None:
        self.root = root
        self.rules = rules
        self.problems: list[str] = []
        self.def_plans: dict[str, Plan | None] = {}
        self.defs_out: dict[str, dict[str, Any]] = {}
        self.properties = 0
        self.enum_values = 0
        # Nulls the direct steps add to optional enums (counted by a check, not the walk).
        self.enum_nulls = 0
        # Whether every node so far was made by a direct step (``_leaf``, ``_leaf_array``,
        # the plain root or a plain object below it).
        self.direct = True

    # ---------------------------------------------------------------- entry point

    def run(self) -> tuple[dict[str, Any], Plan | None]:
        """Return the rewritten root (an object schema) and its decoding plan."""
        root = self.root
        if root.keys() <= _PLAIN_ROOT_KEYS and root.get("type") == "object":
            # What the steps below come to for such a root (no ``$ref``, no ``$defs``),
            # without them.
            out, plan = self._object(root, (), 0, [])
            out = self._describe(out, root, [], fresh=True)
        else:
            self.direct = False
            found = object_root(root)
            if found is None:
                self._problem((), "the input schema must describe a JSON object at its root")
                return {"type": "object", "properties": {}}, None
            if self.rules.refs:
                for group in ("$defs", "definitions"):
                    defs = self.root.get(group)
                    if is_object(defs):
                        for name, sub in defs.items():
                            cycle = ref_cycle(root, f"#/{group}/{name}")
                            if cycle is not None:
                                self._problem((group, name), cycle_text(cycle))
                            out, plan = self.node(sub, (group, name), 0)
                            self.defs_out[name] = out
                            self.def_plans[f"#/{group}/{name}"] = plan
            body = {k: v for k, v in found.items() if k not in ("$defs", "definitions")}
            out, plan = self.node(body, (), 0)
        self.def_plans["#"] = plan
        if self.defs_out:
            out["$defs"] = self.defs_out
        rules = self.rules
        if rules.max_properties is not None and self.properties > rules.max_properties:
            self._problem(
                (),
                f"has {self.properties} properties; {rules.provider} allows {rules.max_properties}",
            )
        if rules.max_enum_values is not None and self.enum_values > rules.max_enum_values:
            self._problem(
                (),
                f"has {self.enum_values} enum values; {rules.provider} allows "
                f"{rules.max_enum_values}",
            )
        return out, plan

    def _problem(self, path: Path, reason: str) -> None:
        self.problems.append(f"{truncate_text(path_text(path), 120)} {truncate_text(reason, 120)}")

    # ---------------------------------------------------------------- one node

    def node(self, schema: Any, path: Path, depth: int) -> tuple[dict[str, Any], Plan | None]:
        if schema.__class__ is dict:
            keys = schema.keys()
            if keys <= _LEAF_KEYS:
                leaf = self._leaf(schema)
                if leaf is not None:
                    return leaf, None
            elif keys <= _LEAF_ARRAY_KEYS:
                leaves = self._leaf_array(schema)
                if leaves is not None:
                    return leaves, None
            elif keys <= _PLAIN_OBJECT_KEYS and schema.get("type") == "object":
                props = schema.get("properties")
                if props.__class__ is dict and props:
                    # What the steps below come to for such a node (``_normalize`` copies
                    # it unchanged, ``_typed`` adds nothing to ``_object``), without them.
                    # With named properties, ``_object`` reads the node without changing
                    # it (only a map's step, ``_map``, pops keys).
                    said: list[str] = []
                    out, plan = self._object(schema, path, depth, said)
                    return self._describe(out, schema, said, fresh=True), plan
        self.direct = False
        if schema is False:
            self._problem(path, "accepts no value (false schema)")
            return {}, None
        if not is_object(schema) or not (schema.keys() - _ANNOTATIONS):
            self._problem(path, "accepts any value; give it a type")
            return {}, None
        node = self._normalize(schema, path)
        if "$dynamicRef" in node:  # resolved at validation time, by the dynamic scope
            self._problem(
                path, f"has a $dynamicRef: {self.rules.provider} has no dynamic reference"
            )
            return {}, None
        notes: list[str] = []
        ref = node.get("$ref")
        if isinstance(ref, str):
            out, plan = self._ref(node, ref, path, depth)
        elif "anyOf" in node:
            out, plan = self._union(node, path, depth, notes)
        else:
            out, plan = self._typed(node, path, depth, notes)
        return self._describe(out, node, notes), plan

    def _leaf(self, schema: dict[str, Any], optional: bool = False) -> dict[str, Any] | None:
        """Return what ``node`` does for a typed string, number or boolean with a description.

        The commonest node of a tool's schema (four in five properties of the Berkeley
        Function Calling Leaderboard's tools), rewritten in one step to the result of
        the general ones (``_typed`` and ``_describe``), and for an ``optional``
        property (which a leaf never makes accept ``null``) to what ``_object`` makes
        of it (``_nullable`` and its note). ``None`` for anything else. No field of the
        rules applies to such a node: every provider rewrites it alike.
        """
        kind = schema.get("type")
        if type(kind) is not str or kind not in _LEAF_TYPES:
            return None
        if len(schema) == 2:  # the commonest leaf of all: a type and a description
            text = schema.get("description")
            if text.__class__ is str and text:
                if optional:
                    note = f"{text[:_MAX_DESCRIPTION]} ({_NOT_GIVEN})"
                    return {"type": [kind, "null"], "description": note[:_MAX_DESCRIPTION]}
                return {"type": kind, "description": text[:_MAX_DESCRIPTION]}
        enum = schema.get("enum", _NO_ENUM)
        out: dict[str, Any]
        if enum is _NO_ENUM:
            out = {"type": [kind, "null"] if optional else kind}
        elif kind == "string" and enum.__class__ is list and enum:
            values: list[Any] = enum
            if not all(type(v) is str for v in values):
                return None
            self.enum_values += len(values)
            if optional:
                self.enum_nulls += 1
                out = {"type": [kind, "null"], "enum": [*values, None]}
            else:
                out = {"type": kind, "enum": list(values)}
        else:
            return None
        return _annotated(out, schema, optional)

    def _leaf_array(self, schema: dict[str, Any], optional: bool = False) -> dict[str, Any] | None:
        """Return what ``node`` does for an array of ``_leaf`` items, with a description.

        The commonest node after leaves (an array of strings or numbers: a tenth of
        the Berkeley Function Calling Leaderboard's tools have one beside leaves
        only), rewritten in one step to the result of the general ones (``_typed``,
        ``_array`` and ``_describe``), and for an ``optional`` property to what
        ``_object`` makes of it (``_nullable`` and its note). ``None`` for anything
        else. Like a leaf, no field of the rules applies to it.
        """
        if schema.get("type") != "array":
            return None
        items: Any = schema.get("items")
        if items.__class__ is not dict or not items.keys() <= _LEAF_KEYS:
            return None
        leaf = self._leaf(items)
        if leaf is None:
            return None
        out: dict[str, Any] = {"type": ["array", "null"] if optional else "array", "items": leaf}
        return _annotated(out, schema, optional)

    def _normalize(self, schema: dict[str, Any], path: Path) -> dict[str, Any]:
        """AllOf merged, oneOf as anyOf, const as enum, a type list as anyOf of types."""
        node = dict(schema)
        for _ in range(_MAX_UNRAVEL):
            all_of = node.pop("allOf", None)
            if not is_array(all_of):
                break
            for index, branch in enumerate(all_of):
                if not is_object(branch):
                    self._problem((*path, "allOf", index), "is not an object schema")
                    continue
                clash = (branch.keys() & node.keys()) - _ANNOTATIONS
                if clash:
                    self._problem(
                        (*path, "allOf", index),
                        f"cannot be merged: {', '.join(sorted(clash))} also set beside it",
                    )
                    continue
                node = {**branch, **node}
        if "oneOf" in node:
            one_of = node.pop("oneOf")
            if "anyOf" in node:
                self._problem(path, "has both anyOf and oneOf")
            else:
                node["anyOf"] = one_of
        if "const" in node:
            const = node.pop("const")
            enum = node.get("enum")
            node["enum"] = [const] if not is_array(enum) or const in enum else []
        if "anyOf" in node:
            node = self._distribute(node, path)
        if "$ref" in node and self.rules.refs:
            node = self._unravel(node, path)
        kinds = node.get("type")
        if is_array(kinds):
            real = [k for k in kinds if k != "null"]
            null = len(real) < len(kinds)
            if len(real) == 1:
                node["type"] = [real[0], "null"] if null else real[0]
            elif len(real) > 1 and "anyOf" not in node:
                outer = {k: v for k, v in node.items() if k in _ANNOTATIONS}
                inner = {k: v for k, v in node.items() if k not in _ANNOTATIONS and k != "type"}
                branches: list[Any] = [{**inner, "type": k} for k in real]
                if null:
                    branches.append({"type": "null"})
                node = {**outer, "anyOf": branches}
        return node

    def _distribute(self, node: dict[str, Any], path: Path) -> dict[str, Any]:
        """Move the constraints beside ``anyOf`` into each branch, where they still apply.

        ``{"type": "integer", "anyOf": [A, B]}`` accepts what ``{"anyOf": [{"type":
        "integer", **A}, {"type": "integer", **B}]}`` accepts. Types intersect; a branch
        whose type excludes the sibling's is left out. When a keyword is set on both
        sides, or beside a ``$ref`` branch, that is reported: the constraint cannot be
        kept, and dropped it would let the model send what the tool refuses.
        """
        branches = node["anyOf"]
        keep = _ANNOTATIONS | {"anyOf", "$defs", "definitions"}
        siblings = {k: v for k, v in node.items() if k not in keep}
        if not siblings or not is_array(branches) or not all(is_object(b) for b in branches):
            return node
        merged: list[dict[str, Any]] = []
        for branch in branches:
            clash = (branch.keys() & siblings.keys()) - _ANNOTATIONS - {"type"}
            if "$ref" in branch:
                clash |= siblings.keys()
            if clash:
                self._problem(
                    path,
                    f"has {', '.join(sorted(clash))} both beside anyOf and in a branch "
                    "(or beside a $ref branch); move it into the branches",
                )
                return node
            joined = {**siblings, **branch}
            if "type" in siblings and "type" in branch:
                kinds = _common_types(siblings["type"], branch["type"])
                if not kinds:
                    continue  # this branch accepts no value the type allows
                joined["type"] = kinds[0] if len(kinds) == 1 else kinds
            merged.append(joined)
        if not merged:
            self._problem(path, "accepts no value: its type excludes every anyOf branch")
            return {k: v for k, v in node.items() if k in _ANNOTATIONS}
        return {**{k: v for k, v in node.items() if k in keep}, "anyOf": merged}

    def _unravel(self, node: dict[str, Any], path: Path) -> dict[str, Any]:
        """OpenAI rejects ``$ref`` with siblings: merge what it points to instead."""
        for _ in range(_MAX_UNRAVEL):
            ref = node.get("$ref")
            if not isinstance(ref, str) or node.keys() <= {"$ref", "$defs", "definitions"}:
                return node
            target = resolve_local_ref(self.root, ref)
            if not is_object(target):
                return node  # reported by _ref
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            if (target.keys() & siblings.keys()) - _ANNOTATIONS:
                self._problem(path, f"$ref {value_text(ref)} has siblings that clash with it")
                return {"$ref": ref}
            node = {**target, **siblings}
        return node

    def _ref(
        self, node: dict[str, Any], ref: str, path: Path, depth: int
    ) -> tuple[dict[str, Any], Plan | None]:
        if not self.rules.refs:  # such schemas arrive with every $ref inlined
            self._problem(path, f"has a $ref {value_text(ref)} left")
            return {}, None
        if ref != "#" and ref not in self.def_plans and not self._is_def_ref(ref):
            where = "" if ref.startswith("#") else " (a URI before '#' is not this schema)"
            self._problem(path, f"$ref {value_text(ref)} must point into $defs{where}")
            return {}, None
        return {"$ref": ref}, RefPlan(self.def_plans, ref)

    def _is_def_ref(self, ref: str) -> bool:
        for group in ("$defs", "definitions"):
            prefix = f"#/{group}/"
            if ref.startswith(prefix) and "/" not in ref[len(prefix) :]:
                return is_object(self.root.get(group)) and ref[len(prefix) :] in self.root[group]
        return False

    # ---------------------------------------------------------------- unions

    def _union(
        self, node: dict[str, Any], path: Path, depth: int, notes: list[str]
    ) -> tuple[dict[str, Any], Plan | None]:
        branches_in = node["anyOf"]
        extra = node.keys() - _ANNOTATIONS - {"anyOf"}
        if extra:
            notes.extend(f"{k}: {value_text(node[k])}" for k in sorted(extra))
        if not is_array(branches_in) or not branches_in:
            self._problem(path, "anyOf must be a non-empty list")
            return {}, None
        null = False
        outs: list[dict[str, Any]] = []
        plans: list[tuple[frozenset[str], frozenset[str] | None, Plan | None]] = []
        for index, branch in enumerate(branches_in):
            if is_object(branch) and (branch.get("type") == "null" or branch.get("enum") == [None]):
                null = True
                continue
            branch_out, branch_plan = self.node(branch, (*path, "anyOf", index), depth)
            outs.append(branch_out)
            plans.append((_kinds_of(branch_out, self), _keys_of(branch_out, self), branch_plan))
        if not outs:
            if not self.rules.null_alone:
                self._problem(path, "accepts only null")
            return {"type": "null"}, None
        plan: Plan | None = None
        if len(plans) == 1:
            plan = plans[0][2]
        elif any(p[2] is not None for p in plans):
            plan = AnyOfPlan(plans)
        out: dict[str, Any] = outs[0] if len(outs) == 1 else {"anyOf": outs}
        if null:
            out = self._nullable(out)
        return out, plan

    # ---------------------------------------------------------------- typed nodes

    def _typed(
        self, node: dict[str, Any], path: Path, depth: int, notes: list[str]
    ) -> tuple[dict[str, Any], Plan | None]:
        kind = node.get("type")
        null = False
        if is_array(kind) and kind:  # [T, "null"] after _normalize (or ["null"])
            null = True
            kind = kind[0]
        enum = node.get("enum")
        if kind is None:
            if self._untyped(node, path):
                return {}, None
            kind = self._infer_kind(node)
        if kind is None and is_array(enum) and enum:
            kinds = sorted({_json_kind(v) for v in enum if v is not None})
            if not self.rules.mixed_enums or not kinds or {"object", "array"} & set(kinds):
                self._problem(path, f"has an enum mixing kinds of values ({', '.join(kinds)})")
                return {}, None
            self.enum_values += len(enum)
            out_enum: dict[str, Any] = {"type": kinds, "enum": list(enum)}
            return (self._nullable(out_enum) if null or None in enum else out_enum), None
        if kind is None:
            self._problem(path, "accepts any value; give it a type")
            return {}, None
        if not isinstance(kind, str) or kind not in (
            "string",
            "number",
            "integer",
            "boolean",
            "object",
            "array",
            "null",
        ):
            self._problem(path, f"has an unknown type {value_text(kind)}")
            return {}, None
        plan: Plan | None = None
        out: dict[str, Any] = {"type": kind}
        if is_array(enum):
            out, null = self._enum(enum, kind, null, "type" in node, path, notes)
        elif kind == "object":
            out, plan = self._object(node, path, depth, notes)
        elif kind == "array":
            out, plan = self._array(node, path, depth, notes)
        elif kind == "null" and not self.rules.null_alone:
            self._problem(path, "accepts only null")
        keep = self.rules.keeps.get(_family(kind), frozenset())
        used = {"type", "enum", "properties", "required", "additionalProperties", "items"}
        for key, value in node.items():
            if key in used or key in _DROP or key in ("description", "title", "default"):
                continue
            if key in keep and self._keep_value(key, value, kind):
                # A copy of a list or dict (a constraint strict mode refuses): the
                # rewrite shares no part of the schema (``providers._convert_common``).
                out[key] = fresh_copy(value) if value.__class__ in (dict, list) else value
            elif key not in _STRUCTURAL or key in ("nullable",):
                self._note(key, value, kind, notes)
        if self.rules.exclusive_bounds_inclusive:
            for key, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
                value = node.get(key)
                if not _is_number(value):
                    continue
                inclusive = _inclusive(value, key, kind)
                if bound not in out:
                    out[bound] = inclusive
                elif kind == "integer" and _is_number(out[bound]):  # both: the tighter
                    pick = max if key == "exclusiveMinimum" else min
                    out[bound] = pick(out[bound], inclusive)
        if null:
            out = self._nullable(out)
        return out, plan

    def _untyped(self, node: dict[str, Any], path: Path) -> bool:
        """Report an untyped node whose keywords constrain one kind of value only.

        ``{"items": ...}`` without ``type`` also accepts every value that is not an
        array: declaring it an array would show the model less than the tool
        accepts, so the node is reported (the provider refuses or falls back) with
        the type to add. An ``enum`` beside them fixes the values: no report.

        Returns:
            Whether a problem was reported.
        """
        if "enum" in node:
            return False
        for keywords, kind in (_OBJECT_KEYWORDS, "object"), (_ARRAY_KEYWORDS, "array"):
            used = sorted(keywords & node.keys())
            if used:
                self._problem(
                    path,
                    f"has no type: {', '.join(used)} constrains only {kind}s, any other value "
                    f'passes; add "type": "{kind}"',
                )
                return True
        return False

    def _infer_kind(self, node: dict[str, Any]) -> str | None:
        enum = node.get("enum")
        if is_array(enum):
            kinds = {_family(_json_kind(v)) for v in enum if v is not None}
            if len(kinds) == 1:
                # ``number``, never ``integer``, for whole numbers: JSON Schema's enum
                # compares numbers by value, so ``0.0`` is in ``[0]`` too
                return kinds.pop()
        return None

    def _keep_value(self, key: str, value: Any, kind: str) -> bool:
        if key != "format":
            return not isinstance(value, bool) or key not in (
                "exclusiveMinimum",
                "exclusiveMaximum",
            )
        return isinstance(value, str) and value in self.rules.formats.get(kind, frozenset())

    def _note(self, key: str, value: Any, kind: str, notes: list[str]) -> None:
        if self.rules.exclusive_bounds_inclusive and key in (
            "exclusiveMinimum",
            "exclusiveMaximum",
        ):
            if kind == "integer" and _is_number(value):
                return  # the inclusive bound written is exact for an integer
            word = "greater" if key == "exclusiveMinimum" else "less"
            notes.append(f"must be {word} than {value_text(value)}")
            return
        notes.append(f"{key}: {value_text(value)}")

    def _enum(
        self, enum: list[Any], kind: str, null: bool, typed: bool, path: Path, notes: list[str]
    ) -> tuple[dict[str, Any], bool]:
        """Return the enum's values of ``kind``, and whether ``null`` is allowed.

        Beside a ``type``, a value of another type (``null`` included) can never be
        valid: it is left out rather than shown to the model.
        """
        values = [v for v in enum if v is not None and _fits(v, kind)]
        if not typed and any(v is None for v in enum):
            null = True
        if not values:
            self._problem(path, f"has an enum with no {kind} value (or only null)")
            return {"type": kind}, null
        self.enum_values += len(values)
        if any(is_object(v) or is_array(v) for v in values):
            notes.append(f"one of: {value_text(values)}")
            return {"type": kind}, null
        if self.rules.string_enums_only and kind != "string":
            notes.append(f"one of: {value_text(values)}")
            return {"type": kind}, null
        return {"type": kind, "enum": values}, null

    def _array(
        self, node: dict[str, Any], path: Path, depth: int, notes: list[str]
    ) -> tuple[dict[str, Any], Plan | None]:
        if "prefixItems" in node:
            self._problem(path, "is a tuple (prefixItems); use a list or an object instead")
            return {"type": "array"}, None
        if "items" not in node:
            self._problem(path, "is an array whose items accept any value; give them a type")
            return {"type": "array"}, None
        items, plan = self.node(node["items"], (*path, "items"), depth)
        out: dict[str, Any] = {"type": "array", "items": items}
        return out, None if plan is None else ArrayPlan(plan)

    def _object(
        self, node: dict[str, Any], path: Path, depth: int, notes: list[str]
    ) -> tuple[dict[str, Any], Plan | None]:
        depth += 1
        max_depth = self.rules.max_depth
        if max_depth is not None and depth > max_depth:
            self._problem(path, f"nests objects deeper than {max_depth} levels")
        props = node.get("properties")
        extra = node.get("additionalProperties", True)
        patterns = node.get("patternProperties")
        if not is_object(props) or not props:
            is_map = bool(patterns) or (is_object(extra) and bool(extra))
            if is_map and not path:
                self._problem(
                    path, "is a map with free keys; a tool's input needs named properties"
                )
                return {"type": "object"}, None
            # Below the root, an object that is not closed accepts any keys, whether it
            # says ``"properties": {}`` or nothing: declared closed, the model could send
            # only ``{}``. So both are a map whose values need a type.
            any_object = extra is not False and bool(path)
            if not is_map and not any_object:
                if path and not self.rules.empty_objects:
                    self._problem(
                        path,
                        f"is an object without properties; {self.rules.provider} objects "
                        "below the root must have named properties",
                    )
                    return {"type": "object"}, None
                if not self.rules.closed_objects:
                    # An open dialect (Gemini) rejects an empty ``properties``; the
                    # caller omits an empty root.
                    return {"type": "object"}, None
                return {
                    "type": "object",
                    "properties": {},
                    "required": [],
                    "additionalProperties": False,
                }, None
            return self._map(node, extra, patterns, path, depth, notes)
        if not node.keys().isdisjoint(_OTHER_KEYS):
            for other in _OTHER_KEYS:
                # Named properties plus schemas for the other keys cannot be said: the
                # closed object (strict) or the description (Gemini) would drop the others.
                value = node.get(other)
                if is_object(value) and value:
                    self._problem(path, f"has both properties and {other}; use one or the other")
        required_in = node.get("required")
        required: set[Any] = set()
        if is_array(required_in):
            try:
                required = set(required_in)
            except TypeError:  # a list or dict among the names (an invalid schema)
                required = {r for r in required_in if isinstance(r, str)}
        self.properties += len(props)
        out_props: dict[str, Any] = {}
        plans: dict[str, Plan | None] = {}
        drop_null: set[str] = set()
        all_required, nullable_keyword, leaf_of = (
            self.rules.all_required,
            self.rules.nullable_keyword,
            self._leaf,
        )
        for name, sub in props.items():
            optional = all_required and name not in required
            if sub.__class__ is dict and not (optional and nullable_keyword):
                keys = sub.keys()
                if keys <= _LEAF_KEYS:
                    leaf = leaf_of(sub, optional)
                elif keys <= _LEAF_ARRAY_KEYS:
                    leaf = self._leaf_array(sub, optional)
                else:
                    leaf = None
                if leaf is not None:
                    if optional:
                        drop_null.add(name)
                    out_props[name] = leaf
                    continue
            out, plan = self.node(sub, (*path, "properties", name), depth)
            if optional and not accepts_null(sub, self.root):
                drop_null.add(name)
                out = self._describe(self._nullable(out), {}, [_NOT_GIVEN])
            if plan is not None:
                plans[name] = plan
            out_props[name] = out
        result: dict[str, Any] = {"type": "object", "properties": out_props}
        if self.rules.all_required:
            result["required"] = list(out_props)
        else:
            req = [r for r in props if r in required]
            if req:
                result["required"] = req
        if self.rules.closed_objects:
            result["additionalProperties"] = False
        if self.rules.property_ordering:
            result["propertyOrdering"] = list(out_props)
        plan_out: Plan | None = None
        if plans or drop_null:
            plan_out = ObjectPlan(plans, frozenset(drop_null))
        return result, plan_out

    def _map(
        self,
        node: dict[str, Any],
        extra: Any,
        patterns: Any,
        path: Path,
        depth: int,
        notes: list[str],
    ) -> tuple[dict[str, Any], Plan | None]:
        """``dict[str, T]``: a list of ``{"key": str, "value": T}`` entries."""
        key: dict[str, Any] = {"type": "string"}
        value_schema: Any = extra
        if is_object(patterns) and patterns:
            if len(patterns) > 1 or extra not in (True, False):
                self._problem(path, "has several key patterns; it cannot be rewritten as entries")
                return {"type": "object"}, None
            pattern, value_schema = next(iter(patterns.items()))
            key["pattern"] = pattern
        if extra is True and not patterns:
            self._problem(path, "is an object with any keys and any values; give its values a type")
            return {"type": "object"}, None
        names = node.get("propertyNames")
        if is_object(names):
            key_out, _ = self.node({"type": "string", **names}, (*path, "propertyNames"), depth)
            key = {**key_out, **key}
        value_out, value_plan = self.node(value_schema, (*path, "additionalProperties"), depth)
        entry: dict[str, Any] = {
            "type": "object",
            "properties": {"key": key, "value": value_out},
            "required": ["key", "value"],
        }
        if self.rules.closed_objects:
            entry["additionalProperties"] = False
        if self.rules.property_ordering:
            entry["propertyOrdering"] = ["key", "value"]
        self.properties += 2
        out: dict[str, Any] = {"type": "array", "items": entry}
        for source, target in (("minProperties", "minItems"), ("maxProperties", "maxItems")):
            if isinstance(node.get(source), int):
                out[target] = node[source]
        notes.append("a list of key/value entries, each key at most once")
        for handled in ("propertyNames", "patternProperties", "minProperties", "maxProperties"):
            node.pop(handled, None)
        return out, MapPlan(value_plan)

    # ---------------------------------------------------------------- null and text

    def _nullable(self, out: dict[str, Any]) -> dict[str, Any]:
        if self.rules.nullable_keyword:
            return {**out, "nullable": True}
        if "$ref" in out or not ("type" in out or "anyOf" in out):
            return {"anyOf": [out, {"type": "null"}]}
        if "anyOf" in out:
            branches = list(out["anyOf"])
            if {"type": "null"} not in branches:
                branches.append({"type": "null"})
            return {**out, "anyOf": branches}
        kind = out["type"]
        kinds = list(kind) if is_array(kind) else [kind]
        if "null" not in kinds:
            kinds.append("null")
        new = {**out, "type": kinds}
        if is_array(out.get("enum")) and None not in out["enum"]:
            new["enum"] = [*out["enum"], None]
        return new

    def _describe(
        self, out: dict[str, Any], node: dict[str, Any], notes: list[str], *, fresh: bool = False
    ) -> dict[str, Any]:
        """Copy title and description, and append constraints the target cannot check.

        The result is a new dict, or ``out`` itself when it is ``fresh`` (made for this
        node alone, so nothing else holds it).
        """
        text = node.get("description")
        parts = [text] if isinstance(text, str) and text else []
        existing = out.get("description")
        if isinstance(existing, str) and existing:
            parts.append(existing)
        if "default" in node:
            notes = [*notes, f"default: {value_text(node['default'])}"]
        if isinstance(node.get("examples"), list) and node["examples"]:
            notes = [*notes, f"example: {value_text(node['examples'][0])}"]
        if notes:
            parts.append(f"({'; '.join(notes)})")
        title = node.get("title")
        if "$ref" in out and self.rules.refs:
            return out  # a bare $ref must stay alone; its target carries the text
        result = out if fresh else dict(out)
        if isinstance(title, str) and "title" not in result:
            result["title"] = title
        if parts:
            result["description"] = " ".join(parts)[:_MAX_DESCRIPTION]
        return result


def _annotated(out: dict[str, Any], schema: dict[str, Any], optional: bool) -> dict[str, Any]:
    """Give a direct step's ``out`` the title and description the general steps give it.

    ``_describe`` for ``schema``'s title, description and default, then, for an
    ``optional`` property, ``_object``'s note that null means not given.
    """
    title = schema.get("title")
    if isinstance(title, str):
        out["title"] = title
    text = schema.get("description")
    if not isinstance(text, str) or not text:
        text = None
    if "default" in schema:
        note = f"(default: {value_text(schema['default'])})"
        text = note if text is None else f"{text} {note}"
    if text is not None:
        text = text[:_MAX_DESCRIPTION]
    if optional:
        note = f"({_NOT_GIVEN})"
        text = note if text is None else f"{text} {note}"[:_MAX_DESCRIPTION]
    if text is not None:
        out["description"] = text
    return out


def _common_types(a: Any, b: Any) -> list[str]:
    """Return the JSON types both ``type`` values allow (``integer`` is within ``number``)."""
    first = [k for k in (a if is_array(a) else [a]) if isinstance(k, str)]
    second = {k for k in (b if is_array(b) else [b]) if isinstance(k, str)}
    both = [k for k in first if k in second or (k == "integer" and "number" in second)]
    if "number" in first and "integer" in second and "integer" not in both:
        both.append("integer")
    return both


def _fits(value: Any, kind: str) -> bool:
    """Whether ``value`` is of the JSON Schema type ``kind`` (``1.0`` is an integer)."""
    found = _json_kind(value)
    if kind == "integer" and found == "number":
        return math.isfinite(value) and float(value).is_integer()
    return found == kind or (kind == "number" and found == "integer")


def _is_number(value: object) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _inclusive(value: float, key: str, kind: str) -> float:
    """Return the inclusive bound for an exclusive one: exact on an integer, else the same.

    ``x > 0`` on an integer is ``x >= 1``; on a number no inclusive bound is exact, so
    the bound is kept (admitting it) and a description note says "greater than".
    """
    if kind != "integer":
        return value
    if key == "exclusiveMinimum":
        return math.floor(value) + 1
    return math.ceil(value) - 1


def _kinds_of(out: dict[str, Any], walker: Walker) -> frozenset[str]:
    if "$ref" in out:
        target = resolve_local_ref(walker.root, out["$ref"])
        if is_object(target):
            return _kinds_of(walker.defs_out.get(out["$ref"].rsplit("/", 1)[-1], target), walker)
        return frozenset({"object", "array", "string", "number", "integer", "boolean"})
    if "anyOf" in out:
        kinds: set[str] = set()
        for branch in out["anyOf"]:
            kinds |= _kinds_of(branch, walker)
        return frozenset(kinds)
    kind = out.get("type")
    names = kind if is_array(kind) else [kind]
    return frozenset("number" if k == "integer" else k for k in names if isinstance(k, str))


def _keys_of(out: dict[str, Any], walker: Walker) -> frozenset[str] | None:
    props = out.get("properties")
    return frozenset(props) if is_object(props) else None


def rewrite(
    root: dict[str, Any],
    rules: SchemaRules,
    check: Callable[[dict[str, Any]], Iterable[object]],
    *,
    trust_direct: bool = False,
) -> tuple[dict[str, Any], Plan | None, list[str]]:
    """Rewrite ``root`` under ``rules``; when the walk finds nothing wrong, ``check`` the result.

    With ``trust_direct``, a schema made by the direct steps alone (an object root of
    named scalar properties, arrays of scalars and objects of them: most tools'
    schemas) is not checked: for OpenAI strict mode, ``check`` accepts all they make
    but too many enum values in all (a null added to each optional enum counts
    there), which is then left to it. The property test of the direct steps in
    ``tests/test_providers_strict.py`` holds them to the general steps and the check.

    ``root`` is not modified, and the rewritten schema shares no list or dict with
    it: a tool's own copy of its schema can be rewritten without copying it first
    (``providers._convert_common.native_input``).

    Returns:
        The rewritten schema, its decoding plan, and the problems as text: the
        walk's own, else those ``check`` reports on the rewritten schema.
    """
    walker = Walker(root, rules)
    out, plan = walker.run()
    if walker.problems:
        return out, plan, list(walker.problems)
    if trust_direct and walker.direct:
        limit = rules.max_enum_values
        if limit is None or walker.enum_values + walker.enum_nulls <= limit:
            return out, plan, []
    return out, plan, [str(p) for p in check(out)]
