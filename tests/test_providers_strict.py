"""OpenAI strict mode: the rewrite, the reasons it is refused, and decoding arguments back."""

from __future__ import annotations

import gc
import threading
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from standard_tool import run_tool_sync, standard_tool
from standard_tool.providers import OpenAIStrictSchema, check_openai_strict, openai_strict
from tests.example_tools import (
    PLAIN_TOOL,
    PlainSchema,
    count_nodes,
    get_weather,
    order_dataclass,
    order_pydantic,
    order_typeddict,
    tag_resource,
)


def strict(schema: dict[str, Any]) -> OpenAIStrictSchema:
    return OpenAIStrictSchema.from_json_schema(schema)


def obj(props: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required or [], **extra}


# ----------------------------------------------------------------------- the rewrite


def test_every_object_is_closed_and_every_property_required() -> None:
    s = strict(obj({"a": {"type": "string"}, "b": obj({"c": {"type": "integer"}})}, ["a"]))
    assert s.strict is True
    assert s.reason is None
    schema = s.schema
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["a", "b"]
    assert schema["properties"]["b"]["required"] == ["c"]
    assert schema["properties"]["b"]["additionalProperties"] is False


def test_optional_properties_become_nullable_and_decode_to_missing_keys() -> None:
    s = strict(obj({"a": {"type": "string"}, "n": {"type": "integer", "default": 3}}, ["a"]))
    n = s.schema["properties"]["n"]
    assert n["type"] == ["integer", "null"]
    assert "default" not in n
    assert "default: 3" in n["description"]
    assert s.decode({"a": "x", "n": None}) == {"a": "x"}
    assert s.decode({"a": "x", "n": 5}) == {"a": "x", "n": 5}


def test_an_optional_property_that_already_accepts_null_keeps_an_explicit_null() -> None:
    s = strict(obj({"n": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": 1}}))
    assert s.schema["properties"]["n"]["type"] == ["integer", "null"]
    assert s.decode({"n": None}) == {"n": None}


def test_enums_of_optional_properties_gain_null() -> None:
    s = strict(obj({"u": {"type": "string", "enum": ["c", "f"], "default": "c"}}))
    assert s.schema["properties"]["u"]["enum"] == ["c", "f", None]
    assert s.schema["properties"]["u"]["type"] == ["string", "null"]


def test_unsupported_keywords_move_into_the_description() -> None:
    s = strict(obj({"name": {"type": "string", "minLength": 2, "description": "Who."}}, ["name"]))
    name = s.schema["properties"]["name"]
    assert "minLength" not in name
    assert name["description"] == "Who. (minLength: 2)"
    assert check_openai_strict(s.schema) == []


def test_supported_constraints_are_kept() -> None:
    s = strict(
        obj(
            {
                "n": {"type": "integer", "minimum": 1, "exclusiveMaximum": 9, "multipleOf": 2},
                "s": {"type": "string", "pattern": "^a", "format": "email"},
                "l": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3},
            },
            ["n", "s", "l"],
        )
    )
    props = s.schema["properties"]
    assert props["n"] == {"type": "integer", "minimum": 1, "exclusiveMaximum": 9, "multipleOf": 2}
    assert props["s"] == {"type": "string", "pattern": "^a", "format": "email"}
    assert props["l"]["minItems"] == 1
    assert props["l"]["maxItems"] == 3


def test_an_unknown_format_moves_into_the_description() -> None:
    s = strict(obj({"u": {"type": "string", "format": "uri"}}, ["u"]))
    assert s.schema["properties"]["u"] == {"type": "string", "description": '(format: "uri")'}


def test_a_map_becomes_a_list_of_entries_and_decodes_back() -> None:
    s = openai_strict(tag_resource)
    tags = s.schema["properties"]["tags"]
    assert tags["type"] == "array"
    assert tags["items"]["properties"]["key"] == {"type": "string"}
    assert tags["items"]["properties"]["value"] == {"type": "string"}
    assert tags["items"]["additionalProperties"] is False
    arguments = {"resource_id": "r1", "tags": [{"key": "env", "value": "prod"}]}
    decoded = s.decode(arguments)
    assert decoded == {"resource_id": "r1", "tags": {"env": "prod"}}
    assert run_tool_sync(tag_resource, decoded) == {"env": "prod"}


def test_map_bounds_and_key_names_carry_over() -> None:
    s = strict(
        obj(
            {
                "m": {
                    "type": "object",
                    "additionalProperties": {"type": "integer"},
                    "propertyNames": {"pattern": "^[a-z]+$"},
                    "minProperties": 1,
                    "maxProperties": 5,
                }
            },
            ["m"],
        )
    )
    m = s.schema["properties"]["m"]
    assert m["minItems"] == 1
    assert m["maxItems"] == 5
    assert m["items"]["properties"]["key"] == {"type": "string", "pattern": "^[a-z]+$"}


def test_a_map_of_models_decodes_every_value() -> None:
    inner = obj({"x": {"type": "integer"}, "o": {"type": "string"}}, ["x"])
    s = strict(obj({"m": {"type": "object", "additionalProperties": inner}}, ["m"]))
    args = {"m": [{"key": "a", "value": {"x": 1, "o": None}}]}
    assert s.decode(args) == {"m": {"a": {"x": 1}}}


def test_refs_are_kept_and_their_targets_rewritten() -> None:
    s = openai_strict(order_typeddict)
    schema = s.schema
    assert schema["properties"]["address"] == {"$ref": "#/$defs/AddressTD"}
    assert schema["$defs"]["ItemTD"]["additionalProperties"] is False
    assert check_openai_strict(schema) == []


def test_a_ref_with_a_description_is_unravelled() -> None:
    schema = obj(
        {"a": {"$ref": "#/$defs/A", "description": "the a"}},
        ["a"],
        **{"$defs": {"A": obj({"x": {"type": "integer"}}, ["x"])}},
    )
    a = strict(schema).schema["properties"]["a"]
    assert a["description"] == "the a"
    assert a["properties"] == {"x": {"type": "integer"}}


def test_recursive_models_are_supported_through_refs() -> None:
    s = openai_strict(count_nodes)
    assert s.strict is True
    children = s.schema["$defs"]["TreeNode"]["properties"]["children"]
    assert children["items"] == {"$ref": "#/$defs/TreeNode"}


def test_optional_refs_are_wrapped_in_anyof_with_null() -> None:
    schema = obj({"a": {"$ref": "#/$defs/A"}}, [], **{"$defs": {"A": {"type": "string"}}})
    s = strict(schema)
    assert s.schema["properties"]["a"]["anyOf"] == [{"$ref": "#/$defs/A"}, {"type": "null"}]
    assert s.decode({"a": None}) == {}


def test_type_lists_become_anyof_and_oneof_becomes_anyof() -> None:
    s = strict(
        obj(
            {
                "t": {"type": ["string", "integer"]},
                "o": {"oneOf": [{"type": "string"}, {"type": "boolean"}]},
            },
            ["t", "o"],
        )
    )
    assert s.schema["properties"]["t"] == {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    assert s.schema["properties"]["o"] == {"anyOf": [{"type": "string"}, {"type": "boolean"}]}


def test_const_becomes_a_one_value_enum_and_allof_is_merged() -> None:
    s = strict(
        obj(
            {
                "k": {"const": "v"},
                "m": {"allOf": [{"type": "integer"}], "description": "d"},
            },
            ["k", "m"],
        )
    )
    assert s.schema["properties"]["k"] == {"type": "string", "enum": ["v"]}
    assert s.schema["properties"]["m"] == {"type": "integer", "description": "d"}


def test_unions_of_models_decode_through_the_matching_branch() -> None:
    cat = obj(
        {
            "meow": {"type": "boolean"},
            "tags": {"type": "object", "additionalProperties": {"type": "string"}},
        },
        ["meow", "tags"],
    )
    dog = obj({"bark": {"type": "integer"}, "n": {"type": "integer"}}, ["bark"])
    s = strict(obj({"pet": {"anyOf": [cat, dog]}}, ["pet"]))
    assert s.decode({"pet": {"meow": True, "tags": [{"key": "a", "value": "b"}]}}) == {
        "pet": {"meow": True, "tags": {"a": "b"}}
    }
    assert s.decode({"pet": {"bark": 2, "n": None}}) == {"pet": {"bark": 2}}


# ----------------------------------------------------------------------- refused


@pytest.mark.parametrize(
    ("prop", "words"),
    [
        ({"type": "object"}, "any keys and any values"),
        # "properties": {} says nothing more: the tool accepts any object here too.
        ({"type": "object", "properties": {}}, "any keys and any values"),
        ({}, "accepts any value"),
        ({"type": "object", "additionalProperties": {}}, "accepts any value"),
        ({"type": "array"}, "items accept any value"),
        ({"type": "array", "prefixItems": [{"type": "string"}]}, "tuple"),
        (
            {
                "type": "object",
                "properties": {"a": {"type": "string"}},
                "additionalProperties": {"type": "string"},
            },
            "both properties and additionalProperties",
        ),
        ({"allOf": [{"type": "string"}, {"type": "integer"}]}, "cannot be merged"),
        (False, "accepts no value"),
        ({"enum": [{"a": 1}, 2]}, "mixing kinds"),
    ],
)
def test_a_schema_strict_mode_cannot_represent_says_where_and_why(prop: Any, words: str) -> None:
    s = strict(obj({"p": prop}, ["p"]))
    assert s.strict is False
    assert s.reason is not None
    assert "/properties/p" in s.reason
    assert words in s.reason
    assert s.decode({"p": 1}) == {"p": 1}
    assert s.schema["properties"]["p"] == prop


def test_a_closed_empty_object_below_the_root_stays_a_closed_empty_object() -> None:
    closed = {"type": "object", "properties": {}, "additionalProperties": False}
    s = strict(obj({"p": closed}, ["p"]))
    assert s.strict is True
    assert s.schema["properties"]["p"] == {**closed, "required": []}


def test_deep_nesting_is_refused_past_ten_levels() -> None:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(11):
        node = obj({"x": node}, ["x"])
    s = strict(node)
    assert s.strict is False
    assert "deeper than 10 levels" in str(s.reason)


def test_too_many_enum_values_are_refused() -> None:
    s = strict(obj({"e": {"type": "integer", "enum": list(range(1001))}}, ["e"]))
    assert "1001 enum values" in str(s.reason)


def test_the_reason_is_bounded_for_huge_schemas() -> None:
    props = {f"p{i}_" + "x" * 300: {"type": "object"} for i in range(200)}
    s = strict(obj(props, list(props)))
    assert s.strict is False
    assert len(str(s.reason)) <= 2000
    assert "more" in str(s.reason)


# ----------------------------------------------------------------------- the object itself


def test_the_view_is_immutable_and_its_schema_a_fresh_copy() -> None:
    s = openai_strict(get_weather)
    with pytest.raises(AttributeError):
        s.strict = False  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]
    s.schema["properties"].clear()
    assert s.schema["properties"]
    assert repr(s) == "OpenAIStrictSchema(strict=True)"


def test_the_view_is_cached_per_tool_including_slotted_tools() -> None:
    assert openai_strict(order_pydantic) is openai_strict(order_pydantic)
    assert openai_strict(PLAIN_TOOL) is openai_strict(PLAIN_TOOL)


def test_the_cache_does_not_keep_weakly_referenceable_tools_alive() -> None:
    import weakref

    tool = PLAIN_TOOL.__class__()
    ref = weakref.ref(tool)
    openai_strict(tool)
    del tool
    gc.collect()
    assert ref() is None


def test_the_cache_is_safe_across_threads() -> None:
    tools = [standard_tool(name=f"t{i}", description="d", execute=lambda: 1) for i in range(20)]
    seen: list[OpenAIStrictSchema] = []

    def work() -> None:
        for t in tools:
            seen.append(openai_strict(t))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for t in tools:
        assert sum(1 for s in seen if s is openai_strict(t)) == 4


def test_decoding_hostile_arguments_never_raises() -> None:
    s = openai_strict(tag_resource)
    for hostile in (None, 1, "x", [], {"tags": "nope"}, {"tags": [1, 2]}, {"tags": [{"key": 1}]}):
        s.decode(hostile)
    assert s.decode({"tags": [{"k": "v"}]}) == {"tags": [{"k": "v"}]}


def test_decoded_orders_run_through_each_model_kind() -> None:
    args = {
        "items": [{"sku": "a", "qty": 2}],
        "address": {"street": "s", "city": "c"},
        "note": None,
    }
    for tool in (order_typeddict, order_dataclass, order_pydantic):
        s = openai_strict(tool)
        assert s.strict is True
        assert run_tool_sync(tool, s.decode(args)) == 2


# ----------------------------------------------------------------------- property tests

_NAMES = st.text(alphabet="abcdefgh", min_size=1, max_size=4)
_LEAVES = st.sampled_from(
    [
        {"type": "string"},
        {"type": "string", "minLength": 1},
        {"type": "integer"},
        {"type": "number"},
        {"type": "boolean"},
        {"type": "string", "enum": ["a", "b"]},
        {"type": "integer", "minimum": 0, "default": 0},
    ]
)


def _object(fields: dict[str, tuple[Any, bool]]) -> dict[str, Any]:
    return obj({k: v[0] for k, v in fields.items()}, [k for k, v in fields.items() if v[1]])


_SCHEMAS = st.recursive(
    _LEAVES,
    lambda children: st.one_of(
        children.map(lambda c: {"type": "array", "items": c}),
        children.map(lambda c: {"type": "object", "additionalProperties": c}),
        children.map(lambda c: {"anyOf": [c, {"type": "null"}]}),
        st.dictionaries(_NAMES, st.tuples(children, st.booleans()), min_size=1, max_size=3).map(
            _object
        ),
    ),
    max_leaves=8,
)
_ROOTS = st.dictionaries(_NAMES, st.tuples(_SCHEMAS, st.booleans()), max_size=4).map(_object)


def _values(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    if "anyOf" in schema:
        return st.one_of(st.none(), _values(schema["anyOf"][0]))
    kind = schema["type"]
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if kind == "string":
        return st.text(min_size=schema.get("minLength", 0), max_size=5)
    if kind == "integer":
        return st.integers(min_value=schema.get("minimum"), max_value=1000)
    if kind == "number":
        return st.floats(allow_nan=False, allow_infinity=False, width=32)
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        return st.lists(_values(schema["items"]), max_size=3)
    if "additionalProperties" in schema:
        return st.dictionaries(_NAMES, _values(schema["additionalProperties"]), max_size=3)
    required = set(schema["required"])
    fixed = {k: _values(v) for k, v in schema["properties"].items() if k in required}
    optional = {k: _values(v) for k, v in schema["properties"].items() if k not in required}
    return st.fixed_dictionaries(fixed, optional=optional)


def _encode(schema: dict[str, Any], value: Any) -> Any:
    """What a model sends under the strict rewrite for ``value`` (written independently)."""
    if "anyOf" in schema:
        return None if value is None else _encode(schema["anyOf"][0], value)
    if schema["type"] == "array":
        return [_encode(schema["items"], v) for v in value]
    if schema["type"] == "object" and "additionalProperties" in schema:
        sub = schema["additionalProperties"]
        return [{"key": k, "value": _encode(sub, v)} for k, v in value.items()]
    if schema["type"] == "object":
        return {
            k: _encode(sub, value[k]) if k in value else None
            for k, sub in schema["properties"].items()
        }
    return value


def _expected(schema: dict[str, Any], value: Any) -> Any:
    """``value`` as it comes back: absent optional keys that accept null come back as null."""
    if "anyOf" in schema:
        return None if value is None else _expected(schema["anyOf"][0], value)
    if schema["type"] == "array":
        return [_expected(schema["items"], v) for v in value]
    if schema["type"] == "object" and "additionalProperties" in schema:
        return {k: _expected(schema["additionalProperties"], v) for k, v in value.items()}
    if schema["type"] == "object":
        out: dict[str, Any] = {}
        for k, sub in schema["properties"].items():
            if k in value:
                out[k] = _expected(sub, value[k])
            elif "anyOf" in sub:
                out[k] = None
        return out
    return value


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), schema=_ROOTS)
def test_strict_round_trip_keeps_the_meaning_of_any_value(data: st.DataObject, schema: Any) -> None:
    view = strict(schema)
    assert view.strict, view.reason
    assert check_openai_strict(view.schema) == []
    jsonschema.Draft202012Validator.check_schema(view.schema)
    value = data.draw(_values(schema))
    jsonschema.validate(value, schema)
    sent = _encode(schema, value)
    jsonschema.validate(sent, view.schema)
    back = view.decode(sent)
    assert back == _expected(schema, value)
    jsonschema.validate(back, schema)


@given(schema=_ROOTS)
def test_the_strict_rewrite_never_mutates_its_input(schema: Any) -> None:
    import copy

    before = copy.deepcopy(schema)
    strict(schema)
    assert schema == before


def test_a_plain_schema_tool_gets_the_same_rewrite_as_its_dict() -> None:
    schema = obj({"a": {"type": "integer"}}, [])
    tool = standard_tool(
        name="p", description="d", execute=lambda x: x, input_schema=PlainSchema(schema)
    )
    assert openai_strict(tool).schema == strict(schema).schema


# ------------------------------------------- the direct path of scalar leaves and plain roots

_TEXT = st.one_of(st.text(max_size=12), st.just("x" * 1000), st.just("y" * 999), st.integers())
_LEAVES = st.fixed_dictionaries(
    {"type": st.sampled_from(["string", "number", "integer", "boolean", "null", "object"])},
    optional={
        "description": _TEXT,
        "title": _TEXT,
        "default": st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(),
                             st.lists(st.integers(), max_size=2)),
        "enum": st.lists(st.one_of(st.text(max_size=3), st.none(), st.integers()), max_size=3),
    },
)  # fmt: skip
_LEAF_ARRAYS = st.fixed_dictionaries(
    {"type": st.sampled_from(["array", "array", "string"]), "items": _LEAVES},
    optional={
        "description": _TEXT,
        "title": _TEXT,
        "default": st.one_of(st.none(), st.lists(st.text(max_size=2), max_size=2), st.text()),
    },
)
_PLAIN_OBJECTS = st.dictionaries(
    st.text(min_size=1, max_size=3), st.one_of(_LEAVES, _LEAF_ARRAYS), max_size=3
).flatmap(
    lambda props: st.fixed_dictionaries(
        {"type": st.sampled_from(["object", "object", "array"]), "properties": st.just(props)},
        optional={
            "required": st.lists(st.sampled_from(sorted(props) or ["absent"]), unique=True),
            "description": _TEXT,
            "title": _TEXT,
            "default": st.one_of(st.none(), st.just({}), st.just({"a": 1}), st.text()),
        },
    )
)
_PLAIN_ROOTS = st.dictionaries(
    st.text(min_size=1, max_size=4), st.one_of(_LEAVES, _LEAF_ARRAYS, _PLAIN_OBJECTS), max_size=5
).flatmap(
    lambda props: st.fixed_dictionaries(
        {
            "type": st.just("object"),
            "properties": st.just(props),
            "required": st.lists(st.sampled_from(sorted(props) or ["absent"]), unique=True),
        },
        optional={"description": _TEXT, "title": _TEXT},
    )
)


def _commented(sub: dict[str, Any]) -> dict[str, Any]:
    """``sub``, its items and properties with a ``$comment`` (dropped by the rewrite).

    So commented, no node has a direct path.
    """
    out = {**sub, "$comment": "c"}
    if isinstance(sub.get("items"), dict):
        out["items"] = {**sub["items"], "$comment": "c"}
    if isinstance(sub.get("properties"), dict):
        out["properties"] = {name: _commented(p) for name, p in sub["properties"].items()}
    return out


def _uncommented(sub: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in sub.items() if k != "$comment"}
    if isinstance(out.get("items"), dict):
        out["items"] = {k: v for k, v in out["items"].items() if k != "$comment"}
    if isinstance(out.get("properties"), dict):
        out["properties"] = {name: _uncommented(p) for name, p in out["properties"].items()}
    return out


def _general(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with a ``$comment`` on every node: rewritten by the general steps only."""
    props = {name: _commented(sub) for name, sub in schema["properties"].items()}
    return {**schema, "properties": props, "$comment": "c"}


_NESTED = {"type": "string", "description": "Street."}


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(schema=_PLAIN_ROOTS)
# Objects below the root, strict throughout (most generated ones are not: one leaf
# the rewrite refuses anywhere sends the whole schema as given, decoded unchanged).
@example(obj({"x": {"type": "object", "properties": {"a": _NESTED}}}, ["x"]))
@example(
    obj(
        {
            "x": {
                "type": "object",
                "title": "Address",
                "description": "Where to.",
                "default": {"a": "Main St"},
                "properties": {
                    "a": _NESTED,
                    "n": {"type": "integer", "default": 1},
                    "tags": {"type": "array", "items": {"type": "string", "enum": ["p", "q"]}},
                },
                "required": ["a"],
            },
            "y": _NESTED,
        }
    )
)
def test_plain_roots_and_scalar_leaves_rewrite_as_the_general_path_does(
    schema: dict[str, Any],
) -> None:
    """The direct path for the commonest nodes gives what the general steps give.

    Those nodes: scalar leaves, arrays of them, and objects of them (at the root and
    below it).
    """
    import json

    direct, general = strict(schema), strict(_general(schema))
    assert (direct.strict, direct.reason) == (general.strict, general.reason)
    sent = general.schema
    if not general.strict:  # sent as given: without the comments it was given
        sent = {k: v for k, v in sent.items() if k != "$comment"}
        sent["properties"] = {name: _uncommented(sub) for name, sub in sent["properties"].items()}
    assert json.dumps(direct.schema) == json.dumps(sent)  # key order too
    assert check_openai_strict(direct.schema) == check_openai_strict(sent)
    nulls = dict.fromkeys(schema["properties"])
    assert direct.decode(nulls) == general.decode(nulls)
    deep = {  # a nested object's own optional properties, sent as null
        name: dict.fromkeys(sub["properties"]) if isinstance(sub.get("properties"), dict) else None
        for name, sub in schema["properties"].items()
    }
    assert direct.decode(deep) == general.decode(deep)
    for sub in schema["properties"].values():  # below an array: ``node``'s direct path
        direct = strict(obj({"a": {"type": "array", "items": sub}}, ["a"]))
        general = strict(obj({"a": {"type": "array", "items": _commented(sub)}}, ["a"]))
        assert (direct.strict, direct.reason) == (general.strict, general.reason)
        if direct.strict:
            assert json.dumps(direct.schema) == json.dumps(general.schema)


@pytest.mark.parametrize("length", [1, 977, 978, 979, 999, 1000, 1001, 5000])
@pytest.mark.parametrize("required", [True, False])
@pytest.mark.parametrize("first", ["type", "description"])
def test_a_leaf_of_a_type_and_a_description_rewrites_as_the_general_path_does(
    length: int, required: bool, first: str
) -> None:
    # The commonest leaf has a step of its own; at the description's limit (1,000
    # characters, with the note an optional property adds) it must cut as the general
    # steps do.
    import json

    text = "d" * length
    leaf = {"type": "integer", "description": text}
    if first == "description":
        leaf = {"description": text, "type": "integer"}
    names = ["n"] if required else []
    direct = strict(obj({"n": leaf, "m": {"type": "string"}}, names))
    general = strict(obj({"n": _commented(leaf), "m": {"type": "string"}}, names))
    assert direct.strict
    assert general.strict
    assert json.dumps(direct.schema) == json.dumps(general.schema)


def test_the_enum_values_of_direct_leaves_count_toward_the_limit() -> None:
    leaf = {"type": "string", "enum": [f"v{i}" for i in range(600)]}
    required = strict(obj({"a": leaf, "b": leaf}, ["a", "b"]))
    assert "has 1200 enum values; OpenAI allows 1000" in str(required.reason)
    half = {"type": "string", "enum": [f"v{i}" for i in range(500)]}
    optional = strict(obj({"a": half, "b": half}, []))  # each gains a null: 501 + 501
    assert "has 1002 enum values; at most 1000 are allowed" in str(optional.reason)


# ------------------------------------------- the rewrite shares nothing with its input
# A tool built from a dict has its own copy of the schema, which the strict view
# rewrites without copying it first: the declaration handed out (which the caller may
# change) must hold no list or dict of it.


_STRING = {"type": "string"}


def _containers(value: Any, found: set[int]) -> set[int]:
    if isinstance(value, (dict, list)):
        found.add(id(value))
        items: Any = value.values() if isinstance(value, dict) else value
        for item in items:
            _containers(item, found)
    return found


def _shared(schema: dict[str, Any]) -> set[int]:
    from standard_tool.providers._openai import OPENAI_STRICT_RULES
    from standard_tool.providers._walk import rewrite

    out, _, _ = rewrite(schema, OPENAI_STRICT_RULES, check_openai_strict, trust_direct=True)
    return _containers(schema, set()) & _containers(out, set())


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(schema=st.one_of(_ROOTS, _PLAIN_ROOTS, _PLAIN_ROOTS.map(_general)))
def test_the_strict_rewrite_shares_no_list_or_dict_with_its_input(schema: Any) -> None:
    assert not _shared(schema)


@pytest.mark.parametrize(
    "schema",
    [
        obj({"a": {"type": "number", "minimum": [1, 2]}}, ["a"]),  # kept, though refused
        obj({"a": {"type": "string", "pattern": {"x": [1]}, "format": "date"}}, ["a"]),
        obj({"a": {"enum": [{"k": [1]}, [2]]}, "b": {"const": {"k": 1}}}, ["a"]),
        obj({"a": {"type": "integer", "default": [1], "examples": [[1]]}}, []),
        obj({"a": {"$ref": "#/$defs/d"}}, ["a"], **{"$defs": {"d": obj({"x": _STRING})}}),
        obj({"a": {"allOf": [{"type": "string"}, {"minLength": 1}]}}, ["a"]),
        obj({"a": {"type": ["string", "null"], "enum": ["x", None]}}, ["a"]),
        obj({"a": {"type": "object", "patternProperties": {"^x": {"type": "integer"}}}}, ["a"]),
        obj({"a": {"type": "object", "additionalProperties": {"type": "array", "items": {}}}}),
    ],
)
def test_schemas_of_every_kind_share_nothing_with_their_rewrite(schema: dict[str, Any]) -> None:
    assert not _shared(schema)
