"""Property tests: a converted schema accepts exactly the instances the original accepts."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator, Draft202012Validator

from standard_tool.dialects import inline_refs, to_draft07, to_draft202012, to_openapi30
from tests.test_dialects import assert_draft07, assert_openapi_30

KEYS = ("a", "b", "c")
TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")

# Instances: small JSON values over a tiny alphabet, so schemas and instances collide often.
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=3),
    st.sampled_from([0.5, -1.5, 2.0]),
    st.text(alphabet="ab", max_size=3),
)


def json_instances(scalars: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Small JSON values built from ``scalars``, in lists and objects keyed by ``KEYS``."""
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(st.sampled_from(KEYS), inner, max_size=3),
        ),
        max_leaves=8,
    )


instances = json_instances(scalars)

small_int = st.integers(min_value=-2, max_value=3)
counts = st.integers(min_value=0, max_value=3)


def leaf_schemas(refs: tuple[str, ...]) -> st.SearchStrategy[Any]:
    options: list[st.SearchStrategy[Any]] = [
        st.booleans(),
        st.sampled_from(TYPES).map(lambda t: {"type": t}),
        st.lists(st.sampled_from(TYPES), min_size=1, max_size=3, unique=True).map(
            lambda ts: {"type": ts}
        ),
        scalars.map(lambda v: {"const": v}),
        st.lists(scalars, min_size=1, max_size=3).map(lambda vs: {"enum": vs}),
        small_int.map(lambda n: {"minimum": n}),
        small_int.map(lambda n: {"exclusiveMinimum": n}),
        small_int.map(lambda n: {"maximum": n}),
        small_int.map(lambda n: {"exclusiveMaximum": n}),
        counts.map(lambda n: {"minLength": n}),
        counts.map(lambda n: {"maxItems": n}),
        counts.map(lambda n: {"minProperties": n}),
        st.just({"pattern": "^a"}),
        st.lists(st.sampled_from(KEYS), max_size=2, unique=True).map(lambda r: {"required": r}),
    ]
    if refs:
        options.append(st.sampled_from(refs).map(lambda r: {"$ref": r}))
    return st.one_of(options)


def schemas(refs: tuple[str, ...] = ()) -> st.SearchStrategy[Any]:
    """Draft 2020-12 schemas whose every keyword has an exact draft-07 equivalent."""

    def extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        keyword_parts = st.one_of(
            st.dictionaries(st.sampled_from(KEYS), inner, max_size=2).map(
                lambda p: {"properties": p}
            ),
            inner.map(lambda s: {"additionalProperties": s}),
            inner.map(lambda s: {"items": s}),
            st.tuples(st.lists(inner, min_size=1, max_size=2), st.one_of(st.none(), inner)).map(
                lambda t: (
                    {"prefixItems": t[0]} if t[1] is None else {"prefixItems": t[0], "items": t[1]}
                )
            ),
            st.lists(inner, min_size=1, max_size=2).map(lambda b: {"anyOf": b}),
            st.lists(inner, min_size=1, max_size=2).map(lambda b: {"oneOf": b}),
            st.lists(inner, min_size=1, max_size=2).map(lambda b: {"allOf": b}),
            inner.map(lambda s: {"not": s}),
            inner.map(lambda s: {"contains": s}),
            st.tuples(inner, inner, inner).map(lambda t: {"if": t[0], "then": t[1], "else": t[2]}),
            st.dictionaries(
                st.sampled_from(KEYS),
                st.lists(st.sampled_from(KEYS), max_size=2, unique=True),
                max_size=2,
            ).map(lambda d: {"dependentRequired": d}),
            st.dictionaries(st.sampled_from(KEYS), inner, max_size=1).map(
                lambda d: {"dependentSchemas": d}
            ),
            leaf_schemas(refs),
        )
        # One schema object with a few keywords side by side (a $ref with siblings too).
        return st.lists(keyword_parts, min_size=1, max_size=3).map(merge_parts)

    return st.recursive(leaf_schemas(refs), extend, max_leaves=6)


def merge_parts(parts: list[Any]) -> Any:
    """Merge one-keyword schemas into one object (a boolean ends the merge)."""
    merged: dict[str, Any] = {}
    for part in parts:
        if isinstance(part, bool):
            return merged if merged else part
        merged.update(part)
    return merged


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    """A root schema with acyclic ``$defs``: B uses nothing, A may use B, the root both."""
    b = draw(schemas())
    a = draw(schemas(("#/$defs/B",)))
    root = draw(schemas(("#/$defs/A", "#/$defs/B")))
    body = root if isinstance(root, dict) else {"allOf": [root]}
    return {**body, "$defs": {"A": a, "B": b}}


# Example counts, seeds and the database come from the profile (tests/conftest.py).
PROPERTY_SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow])


@PROPERTY_SETTINGS
@given(documents(), st.lists(instances, min_size=1, max_size=8))
def test_draft07_accepts_exactly_what_2020_12_accepts(
    schema: dict[str, Any], values: list[Any]
) -> None:
    original = copy.deepcopy(schema)
    converted = to_draft07(schema)
    assert schema == original, "the input was mutated"
    assert_draft07(converted)
    before = Draft202012Validator(schema)
    after = Draft7Validator(converted)
    for value in values:
        assert before.is_valid(value) == after.is_valid(value), value


@PROPERTY_SETTINGS
@given(documents(), st.lists(instances, min_size=1, max_size=8))
def test_draft07_round_trips_to_an_equivalent_2020_12_schema(
    schema: dict[str, Any], values: list[Any]
) -> None:
    back = to_draft202012(
        to_draft07({"$schema": "https://json-schema.org/draft/2020-12/schema", **schema})
    )
    Draft202012Validator.check_schema(back)
    before = Draft202012Validator(schema)
    after = Draft202012Validator(back)
    for value in values:
        assert before.is_valid(value) == after.is_valid(value), value


@PROPERTY_SETTINGS
@given(documents(), st.lists(instances, min_size=1, max_size=8))
def test_inlining_accepts_exactly_what_the_original_accepts(
    schema: dict[str, Any], values: list[Any]
) -> None:
    original = copy.deepcopy(schema)
    inlined = inline_refs(schema)
    assert schema == original, "the input was mutated"
    Draft202012Validator.check_schema(inlined)
    assert "$ref" not in repr(inlined)
    before = Draft202012Validator(schema)
    after = Draft202012Validator(inlined)
    for value in values:
        assert before.is_valid(value) == after.is_valid(value), value


@PROPERTY_SETTINGS
@given(documents())
def test_openapi_output_is_always_a_valid_schema_object(schema: dict[str, Any]) -> None:
    original = copy.deepcopy(schema)
    assert_openapi_30(to_openapi30(schema))
    assert schema == original, "the input was mutated"
