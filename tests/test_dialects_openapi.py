"""OpenAPI 3.0 instance semantics: ``to_openapi30`` keeps exactly the accepted instances.

``OAS30Validator`` (openapi-schema-validator) validates instances against an OpenAPI
3.0 Schema Object; it is compared with ``Draft202012Validator`` on the original.
The generated schemas use only constructs OpenAPI 3.0 expresses exactly; the
intended differences (constructs 3.0 cannot say, and 3.0's own rules) have their
own tests at the end.

Formats: neither validator checks ``format`` unless given a format checker, so the
property tests run once without one and once with the same checker on both sides.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, FormatChecker
from openapi_schema_validator import OAS30Validator

from standard_tool.dialects import to_openapi30
from tests.test_dialects import assert_openapi_30
from tests.test_dialects_properties import KEYS, json_instances, merge_parts

TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")
FORMATS = ("date", "email", "ipv4", "uuid", "int32", "byte", "password")
FORMAT_CHECKER = FormatChecker()

# Instances: small JSON values over a tiny alphabet, so schemas and instances collide
# often. No integral floats such as 2.0: OpenAPI 3.0 (draft-04 rules) does not count
# them as integers, see test_an_integral_float_is_not_an_openapi_integer.
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=3),
    st.sampled_from([0.5, -1.5, 2.5]),
    st.sampled_from(["", "a", "ab", "ba", "aaaa", "2020-01-31", "a@b.c", "1.2.3.4", "YQ=="]),
)
instances = json_instances(scalars)

small_int = st.integers(min_value=-2, max_value=3)
bound = st.one_of(small_int, st.sampled_from([0.5, -1.5, 2.5]))
counts = st.integers(min_value=0, max_value=3)


def leaf_schemas(refs: tuple[str, ...]) -> st.SearchStrategy[Any]:
    """One-keyword schemas, each with an exact OpenAPI 3.0 equivalent."""
    options: list[st.SearchStrategy[Any]] = [
        st.booleans(),
        st.sampled_from(TYPES).map(lambda t: {"type": t}),
        st.lists(st.sampled_from(TYPES), min_size=1, max_size=3, unique=True).map(
            lambda ts: {"type": ts}
        ),
        st.sampled_from(TYPES[1:]).map(lambda t: {"type": [t, "null"]}),
        scalars.map(lambda v: {"const": v}),
        st.lists(scalars, min_size=1, max_size=3).map(lambda vs: {"enum": vs}),
        bound.map(lambda n: {"minimum": n}),
        bound.map(lambda n: {"exclusiveMinimum": n}),
        bound.map(lambda n: {"maximum": n}),
        bound.map(lambda n: {"exclusiveMaximum": n}),
        st.sampled_from([1, 2, 0.5]).map(lambda n: {"multipleOf": n}),
        counts.map(lambda n: {"minLength": n}),
        counts.map(lambda n: {"maxLength": n}),
        counts.map(lambda n: {"minItems": n}),
        counts.map(lambda n: {"maxItems": n}),
        st.booleans().map(lambda u: {"uniqueItems": u}),
        counts.map(lambda n: {"minProperties": n}),
        counts.map(lambda n: {"maxProperties": n}),
        st.sampled_from(["^a", "b$", "^a*$"]).map(lambda p: {"pattern": p}),
        st.sampled_from(FORMATS).map(lambda f: {"format": f}),
        st.lists(st.sampled_from(KEYS), max_size=2, unique=True).map(lambda r: {"required": r}),
        st.just({"title": "T", "description": "d", "default": None, "examples": [1]}),
    ]
    if refs:
        options.append(st.sampled_from(refs).map(lambda r: {"$ref": r}))
    return st.one_of(options)


def schemas(refs: tuple[str, ...] = ()) -> st.SearchStrategy[Any]:
    """Draft 2020-12 schemas whose every keyword OpenAPI 3.0 expresses exactly.

    Left out on purpose (see the intended-difference tests): ``prefixItems``,
    ``contains``, ``if``/``then``/``else``, ``dependentRequired``/``dependentSchemas``,
    ``patternProperties``, ``propertyNames``, ``unevaluated*``.
    """

    def extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        keyword_parts = st.one_of(
            st.dictionaries(st.sampled_from(KEYS), inner, max_size=2).map(
                lambda p: {"properties": p}
            ),
            inner.map(lambda s: {"additionalProperties": s}),
            inner.map(lambda s: {"items": s}),
            st.lists(inner, min_size=1, max_size=2).map(lambda b: {"anyOf": b}),
            st.lists(inner, min_size=1, max_size=2).map(lambda b: {"oneOf": b}),
            st.lists(inner, min_size=1, max_size=2).map(lambda b: {"allOf": b}),
            inner.map(lambda s: {"not": s}),
            # Null unions as pydantic and friends write them (Optional[X]).
            st.tuples(inner, st.booleans()).map(
                lambda t: {"anyOf": [t[0], {"type": "null"}] if t[1] else [{"type": "null"}, t[0]]}
            ),
            inner.map(lambda s: {"oneOf": [s, {"type": "null"}]}),
            leaf_schemas(refs),
        )
        # One schema object with a few keywords side by side (a $ref with siblings too).
        return st.lists(keyword_parts, min_size=1, max_size=3).map(merge_parts)

    return st.recursive(leaf_schemas(refs), extend, max_leaves=6)


# Built once: building hypothesis strategies per draw costs more than the tests.
SCHEMAS_B = schemas()
SCHEMAS_A = schemas(("#/$defs/B",))
SCHEMAS_ROOT = schemas(("#/$defs/A", "#/$defs/B"))


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    """A root schema with acyclic ``$defs``: B uses nothing, A may use B, the root both."""
    b = draw(SCHEMAS_B)
    a = draw(SCHEMAS_A)
    root = draw(SCHEMAS_ROOT)
    return {**as_document(root), "$defs": {"A": a, "B": b}}


def as_object(value: Any) -> dict[str, Any] | None:
    """``value`` typed as a JSON object, or ``None`` when it is not one."""
    return dict(value) if isinstance(value, dict) else None  # pyright: ignore[reportUnknownArgumentType]


def as_document(schema: Any) -> dict[str, Any]:
    """A generated schema as a root schema object (a boolean goes into ``allOf``)."""
    node = as_object(schema)
    return {"allOf": [schema]} if node is None else node


def _resolve(root: dict[str, Any], schema: Any) -> Any:
    node = as_object(schema)
    if node is None or "$ref" not in node:
        return schema
    target = root["$defs"][str(node.pop("$ref")).rsplit("/", 1)[-1]]
    body = as_object(target)
    return target if body is None else {**node, **body}


TYPE_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "null": st.none(),
    "boolean": st.booleans(),
    "integer": st.integers(min_value=-3, max_value=3),
    "number": st.sampled_from([0.5, -1.5, 2.5]),
    "string": st.sampled_from(["", "a", "ab", "2020-01-31", "a@b.c"]),
}


def draw_instance(draw: st.DrawFn, root: dict[str, Any], schema: Any, depth: int = 0) -> Any:
    """An instance shaped after ``schema``: often valid, never guaranteed to be."""
    schema = as_object(_resolve(root, schema))
    if schema is None or depth > 4 or draw(st.integers(0, 9)) == 0:
        return draw(instances)
    choices: list[Any] = [schema.get(k) for k in ("anyOf", "oneOf", "allOf")]
    branches: list[Any] = [b for group in choices if group for b in group]
    picks = ["enum"] * ("enum" in schema) + ["const"] * ("const" in schema)
    picks += ["branch"] * bool(branches)
    type_: Any = schema.get("type", [])
    types: list[Any] = list(type_) if isinstance(type_, list) else [type_]  # pyright: ignore[reportUnknownArgumentType]
    props: dict[str, Any] = schema.get("properties", {})
    if "object" in types or props or "required" in schema:
        picks.append("object")
    if "array" in types or "items" in schema:
        picks.append("array")
    picks += [t for t in types if t in TYPE_VALUES]
    pick = draw(st.sampled_from(picks)) if picks else "any"
    if pick == "enum":
        return draw(st.sampled_from(schema["enum"]))
    if pick == "const":
        return schema["const"]
    if pick == "branch":
        return draw_instance(draw, root, draw(st.sampled_from(branches)), depth + 1)
    if pick == "object":
        required: list[str] = schema.get("required", [])
        keys = sorted({*props, *required})
        chosen = [k for k in keys if k in required or draw(st.booleans())]
        return {k: draw_instance(draw, root, props.get(k, True), depth + 1) for k in chosen}
    if pick == "array":
        size = draw(st.integers(0, 3))
        return [
            draw_instance(draw, root, schema.get("items", True), depth + 1) for _ in range(size)
        ]
    if pick in TYPE_VALUES:
        return draw(TYPE_VALUES[pick])
    return draw(instances)


@st.composite
def schema_and_instances(draw: st.DrawFn) -> tuple[dict[str, Any], list[Any]]:
    """A document with instances: some shaped after it, some arbitrary JSON."""
    schema = draw(documents())
    shaped = [draw_instance(draw, schema, schema) for _ in range(draw(st.integers(1, 6)))]
    arbitrary = draw(st.lists(instances, max_size=4))
    return schema, shaped + arbitrary


# Example counts, seeds and the database come from the profile (tests/conftest.py).
PROPERTY_SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow])


def assert_same_verdicts(
    schema: dict[str, Any], values: list[Any], format_checker: FormatChecker | None
) -> None:
    original = copy.deepcopy(schema)
    converted = to_openapi30(schema)
    assert schema == original, "the input was mutated"
    assert_openapi_30(converted)
    before: Any = Draft202012Validator(schema, format_checker=format_checker)
    after: Any = OAS30Validator(converted, format_checker=format_checker)
    for value in values:
        assert before.is_valid(value) == after.is_valid(value), (value, converted)


@PROPERTY_SETTINGS
@given(schema_and_instances())
def test_openapi_accepts_exactly_what_2020_12_accepts(
    case: tuple[dict[str, Any], list[Any]],
) -> None:
    schema, values = case
    assert_same_verdicts(schema, values, format_checker=None)


@PROPERTY_SETTINGS
@given(schema_and_instances())
def test_openapi_accepts_exactly_what_2020_12_accepts_with_formats_checked(
    case: tuple[dict[str, Any], list[Any]],
) -> None:
    schema, values = case
    assert_same_verdicts(schema, values, format_checker=FORMAT_CHECKER)


# --- regressions: conversions the property tests found accepting the wrong set -------------


REGRESSIONS: list[tuple[dict[str, Any], Any]] = [
    # A type list beside anyOf/allOf: the type's anyOf was overwritten by the node's.
    ({"type": ["integer", "string"], "anyOf": [{"minimum": 1}]}, True),
    ({"anyOf": [{}], "type": ["integer", "string"], "allOf": [{}]}, True),
    # type null beside enum/const: the enum replaced the type, or the type the enum.
    ({"type": "null", "enum": [1, None]}, 1),
    ({"enum": [1], "type": "null"}, None),
    # A nullable type made null valid for an enum without it.
    ({"type": ["integer", "null"], "enum": [1, 2]}, None),
    ({"type": "integer", "enum": [1, None]}, None),
    # A null branch lifted into a branch whose other keywords reject null.
    ({"anyOf": [{"type": "integer", "not": {"const": None}}, {"type": "null"}]}, None),
    ({"anyOf": [{"type": "null"}, {"enum": [1], "allOf": [{"type": "integer"}]}]}, None),
    # oneOf: null also matched another branch, or the null branch came twice.
    ({"oneOf": [{"properties": {}}, {"type": "null"}]}, None),
    ({"oneOf": [{"type": "null"}, {"const": None}, {"type": "integer"}]}, None),
    ({"oneOf": [{"type": "null"}, {"type": "null"}, {"type": "integer"}]}, None),
    # const beside enum: the enum was dropped.
    ({"const": None, "enum": [False]}, None),
    ({"enum": [1, 2], "const": True}, True),
    ({"const": 1, "enum": [True]}, 1),
    # A lifted (nullable) branch merged into a node whose own type rejects null.
    ({"type": "boolean", "oneOf": [{"const": False}, {"type": "null"}]}, None),
    ({"type": "boolean", "anyOf": [{"const": False}, {"type": "null"}]}, None),
    ({"type": "boolean", "oneOf": [{"const": False}, {"type": "null"}]}, False),
]


@pytest.mark.parametrize(("schema", "instance"), REGRESSIONS)
def test_openapi_regressions_accept_exactly_what_2020_12_accepts(
    schema: dict[str, Any], instance: Any
) -> None:
    converted = to_openapi30(schema)
    assert_openapi_30(converted)
    original: Any = Draft202012Validator(schema)
    expected = original.is_valid(instance)
    assert OAS30Validator(converted).is_valid(instance) == expected, converted


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"const": 1, "enum": [1.0, "a"]}, {"enum": [1]}),
        ({"enum": [[1, {"a": True}]], "const": [1.0, {"a": True}]}, {"enum": [[1.0, {"a": True}]]}),
        ({"const": 1, "enum": [True, [1]]}, {"not": {}}),
        (
            {"type": ["integer", "null"], "enum": [1, 2]},
            {"type": "integer", "enum": [1, 2], "nullable": True},
        ),
        (
            {"anyOf": [{"type": "string", "not": {"const": ""}}, {"type": "null"}]},
            {
                "anyOf": [
                    {"type": "string", "not": {"enum": [""]}},
                    {"nullable": True, "enum": [None]},
                ]
            },
        ),
        (
            {"oneOf": [{"minimum": 1}, {"type": "null"}, {"type": "integer"}]},
            {"oneOf": [{"minimum": 1}, {"type": "integer", "nullable": True}]},
        ),
    ],
)
def test_openapi_fixed_conversions(schema: dict[str, Any], expected: dict[str, Any]) -> None:
    assert to_openapi30(schema) == expected


# --- intended differences: what OpenAPI 3.0 cannot say exactly -----------------------------


def _verdicts(schema: dict[str, Any], values: list[Any]) -> tuple[list[bool], list[bool]]:
    before: Any = Draft202012Validator(schema)
    after: Any = OAS30Validator(to_openapi30(schema))
    return [before.is_valid(v) for v in values], [after.is_valid(v) for v in values]


@pytest.mark.parametrize(
    ("schema", "loosened"),
    [
        # No tuples: every position accepts any of the positional schemas.
        (
            {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
            [1, "a"],
        ),
        # Keywords OpenAPI 3.0 lacks are dropped.
        ({"type": "array", "contains": {"type": "string"}}, [1]),
        ({"type": "array", "contains": {"type": "string"}, "minContains": 2}, ["a"]),
        ({"if": {"required": ["a"]}, "then": {"required": ["b"]}}, {"a": 1}),
        ({"dependentRequired": {"a": ["b"]}}, {"a": 1}),
        ({"dependentSchemas": {"a": {"required": ["b"]}}}, {"a": 1}),
        ({"patternProperties": {"^a": {"type": "string"}}}, {"a": 1}),
        ({"propertyNames": {"pattern": "^a"}}, {"b": 1}),
        ({"properties": {"a": {}}, "unevaluatedProperties": False}, {"b": 1}),
    ],
)
def test_openapi_loosens_what_3_0_cannot_say(schema: dict[str, Any], loosened: Any) -> None:
    before, after = _verdicts(schema, [loosened])
    assert before == [False]
    assert after == [True]


# Lossy constructs placed where loosening a keyword loosens the whole schema (not under
# ``not`` or ``oneOf``, where accepting more in a branch means accepting less overall).
lossy_parts = st.one_of(
    st.lists(SCHEMAS_B, min_size=1, max_size=2).map(lambda p: {"prefixItems": p}),
    SCHEMAS_B.map(lambda s: {"contains": s}),
    st.tuples(SCHEMAS_B, SCHEMAS_B).map(lambda t: {"if": t[0], "then": t[1]}),
    st.just({"dependentRequired": {"a": ["b"]}}),
    SCHEMAS_B.map(lambda s: {"patternProperties": {"^a": s}}),
    st.just({"propertyNames": {"pattern": "^[ab]"}}),
)
lossy_schemas = st.recursive(
    st.lists(st.one_of(lossy_parts, SCHEMAS_B), min_size=1, max_size=2).map(merge_parts),
    lambda inner: st.one_of(
        st.dictionaries(st.sampled_from(KEYS), inner, max_size=2).map(lambda p: {"properties": p}),
        inner.map(lambda s: {"items": s}),
        st.lists(inner, min_size=1, max_size=2).map(lambda b: {"anyOf": b}),
        st.lists(inner, min_size=1, max_size=2).map(lambda b: {"allOf": b}),
    ),
    max_leaves=4,
)


@PROPERTY_SETTINGS
@given(lossy_schemas, st.lists(instances, min_size=1, max_size=8))
def test_openapi_only_loosens_a_lossy_keyword_in_a_positive_place(
    schema: Any, values: list[Any]
) -> None:
    before, after = _verdicts(as_document(schema), values)
    for value, accepted_before, accepted_after in zip(values, before, after, strict=True):
        assert accepted_after or not accepted_before, value


def test_openapi_drops_a_not_whose_subschema_would_lose_a_keyword() -> None:
    # ``not`` of a loosened schema would be a narrowed one: the ``not`` goes instead.
    before, after = _verdicts({"not": {"contains": {"type": "string"}}}, [[1], ["a"]])
    assert before == [True, False]
    assert after == [True, True]


def test_an_integral_float_is_not_an_openapi_integer() -> None:
    # OpenAPI 3.0 keeps draft-04's integer ("no fraction or exponent part"): 2.0 is a
    # number but not an integer there, while draft 2020-12 counts 2.0 as an integer.
    before, after = _verdicts({"type": "integer"}, [2, 2.0, 2.5])
    assert before == [True, True, False]
    assert after == [True, False, False]


def test_openapi_required_skips_read_only_and_write_only_properties() -> None:
    # OpenAPI 3.0: a required readOnly property is required in responses only (and
    # writeOnly in requests only); 2020-12 readOnly/writeOnly are annotations.
    schema = {
        "properties": {"id": {"readOnly": True}, "pw": {"writeOnly": True}},
        "required": ["id", "pw"],
    }
    before, after = _verdicts(schema, [{}, {"id": 1, "pw": 2}])
    assert before == [False, True]
    assert after == [True, True]


def test_a_discriminated_union_still_validates_with_an_openapi_validator() -> None:
    schema = {
        "$defs": {
            "Cat": {
                "type": "object",
                "properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}},
                "required": ["kind"],
            },
            "Dog": {
                "type": "object",
                "properties": {"kind": {"const": "dog"}},
                "required": ["kind"],
            },
        },
        "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}],
        "discriminator": {
            "propertyName": "kind",
            "mapping": {"cat": "#/$defs/Cat", "dog": "#/$defs/Dog"},
        },
    }
    converted = to_openapi30(schema)
    assert "discriminator" not in converted
    validator = OAS30Validator(converted)
    assert validator.is_valid({"kind": "cat", "lives": 9})
    assert validator.is_valid({"kind": "dog"})
    assert not validator.is_valid({"kind": "cow"})
