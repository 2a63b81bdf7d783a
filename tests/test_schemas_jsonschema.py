"""standard_tool.schemas.jsonschema against the real jsonschema library."""

from __future__ import annotations

import threading
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from jsonschema import Draft7Validator

from standard_tool import (
    FailureResult,
    Issue,
    StandardToolValidationError,
    SuccessResult,
    ToolDefinitionError,
    Toolkit,
    input_json_schema,
    is_standard_json_schema,
    is_standard_schema,
    standard_tool,
)
from standard_tool.dialects import DRAFT_07_URI
from standard_tool.providers import to_mcp
from standard_tool.schemas import InvalidSchemaError
from standard_tool.schemas.jsonschema import (
    MAX_SCHEMA_DEPTH,
    JSONSchema,
    _too_deep,
    from_json_schema,
)
from tests.test_dialects import assert_openapi_30

WEATHER: dict[str, Any] = {
    "title": "Weather",
    "type": "object",
    "properties": {
        "city": {"type": "string", "minLength": 1},
        "days": {"type": "integer", "minimum": 1, "maximum": 7},
        "units": {"enum": ["metric", "imperial"]},
        "email": {"type": "string", "format": "email"},
        "stops": {"type": "array", "items": {"$ref": "#/$defs/Stop"}},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    },
    "required": ["city"],
    "additionalProperties": False,
    "$defs": {
        "Stop": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "lat": {"type": "number"}},
            "required": ["name", "lat"],
        }
    },
}


def issues(result: Any) -> list[tuple[Any, str]]:
    assert isinstance(result, FailureResult)
    return sorted(((i.path, i.message) for i in result.issues), key=repr)


def test_a_dict_conforms_to_both_protocols() -> None:
    schema = from_json_schema(WEATHER)
    assert is_standard_schema(schema)
    assert is_standard_json_schema(schema)
    assert schema.__standard__.vendor == "jsonschema"
    assert schema.__standard__.version == 1
    assert isinstance(schema, JSONSchema)
    assert repr(schema) == "JSONSchema(Weather)"


def test_a_valid_value_is_returned_unchanged() -> None:
    value = {"city": "Oslo", "days": 3, "stops": [{"name": "A", "lat": 1.5}], "note": None}
    result = from_json_schema(WEATHER).__standard__.validate(value)
    assert isinstance(result, SuccessResult)
    assert result.value is value


def test_every_problem_is_an_issue_with_our_message_and_its_path() -> None:
    value = {
        "city": "",
        "days": 9,
        "units": "kelvin",
        "stops": [{"name": "A"}, {"name": 1, "lat": 2}],
        "wind": True,
        "note": 5,
    }
    assert issues(from_json_schema(WEATHER).__standard__.validate(value)) == [
        (("city",), "must have at least 1 characters"),
        (("days",), "must be <= 7"),
        (("note",), "expected string"),
        (("stops", 0, "lat"), "missing required property"),
        (("stops", 1, "name"), "expected string"),
        (("units",), 'expected one of ["metric", "imperial"]'),
        (("wind",), "unexpected property"),
    ]


def test_a_missing_required_property_is_in_the_path() -> None:
    assert issues(from_json_schema(WEATHER).__standard__.validate({})) == [
        (("city",), "missing required property")
    ]


def test_a_root_error_has_no_path_and_never_echoes_the_value() -> None:
    secret = "x" * 10_000
    [issue] = from_json_schema(WEATHER).__standard__.validate(secret).issues or ()
    assert issue == Issue("expected object", None)


def test_formats_are_checked_where_declared_and_can_be_turned_off() -> None:
    value = {"city": "Oslo", "email": "not an email"}
    assert issues(from_json_schema(WEATHER).__standard__.validate(value)) == [
        (("email",), 'must be a valid "email"')
    ]
    relaxed = from_json_schema(WEATHER, check_formats=False)
    assert relaxed.__standard__.validate(value).issues is None


def test_a_false_schema_and_other_keywords_get_short_messages() -> None:
    schema = from_json_schema(
        {
            "type": "object",
            "properties": {
                "never": False,
                "tags": {"type": "array", "uniqueItems": True, "maxItems": 2},
                "pick": {"oneOf": [{"type": "integer"}, {"type": "number"}]},
                "no": {"not": {"type": "string"}},
            },
        }
    )
    value = {"never": 1, "tags": [1, 1, 1], "pick": 1, "no": "s"}
    # jsonschema reports no instance path for a false subschema, so neither do we.
    assert issues(schema.__standard__.validate(value)) == [
        (("no",), "matches a schema it must not match"),
        (("pick",), "must match exactly one of the allowed schemas"),
        (("tags",), "items must be unique"),
        (("tags",), "must have at most 2 items"),
        (None, "no value is allowed here"),
    ]


def test_draft07_schemas_use_draft07_semantics() -> None:
    draft07 = {
        "$schema": DRAFT_07_URI,
        "definitions": {"N": {"type": "integer"}},
        "type": "array",
        "items": [{"$ref": "#/definitions/N"}],
        "additionalItems": False,
    }
    validate = from_json_schema(draft07).__standard__.validate
    assert validate([1]).issues is None
    assert validate([1, 2]).issues is not None
    converter = from_json_schema(draft07).__standard__.json_schema
    assert converter.input(target="draft-2020-12")["prefixItems"] == [{"$ref": "#/$defs/N"}]
    assert converter.input(target="draft-07") == draft07


def test_json_schema_for_every_target() -> None:
    converter = from_json_schema(WEATHER).__standard__.json_schema
    assert converter.input(target="draft-2020-12") == WEATHER
    assert converter.output(target="draft-2020-12") == WEATHER
    Draft7Validator.check_schema(converter.input(target="draft-07"))
    openapi = converter.input(target="openapi-3.0")
    assert_openapi_30(openapi)
    assert openapi["properties"]["note"] == {"type": "string", "nullable": True}


def test_the_schema_is_copied_in_and_out() -> None:
    source = {"type": "object", "properties": {"a": {"type": "integer"}}}
    schema = from_json_schema(MappingProxyType(source))
    source["properties"] = {}
    assert schema.__standard__.validate({"a": "x"}).issues is not None
    schema.__standard__.json_schema.input(target="draft-2020-12")["properties"].clear()
    assert schema.__standard__.json_schema.input(target="draft-2020-12")["properties"]


def test_an_invalid_schema_is_refused_with_where() -> None:
    with pytest.raises(ValueError, match="not a valid draft-2020-12 JSON Schema at properties/a"):
        from_json_schema({"properties": {"a": {"type": "integer", "minimum": "zero"}}})


BAD_MINIMUM = {"properties": {"a": {"type": "integer", "minimum": "zero"}}}
BAD_MESSAGE = "not a valid draft-2020-12 JSON Schema at properties/a"


def test_a_deferred_check_reports_the_same_error_on_the_first_validate() -> None:
    schema = from_json_schema(BAD_MINIMUM, defer_check=True)
    for _ in range(2):  # not once only: every validate of a bad schema refuses
        with pytest.raises(InvalidSchemaError, match=BAD_MESSAGE):
            schema.__standard__.validate({"a": 1})
    with pytest.raises(InvalidSchemaError, match=BAD_MESSAGE):
        from_json_schema(BAD_MINIMUM, defer_check=True).check()


def test_a_deferred_check_validates_as_an_eager_one() -> None:
    source = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
    deferred, eager = from_json_schema(source, defer_check=True), from_json_schema(source)
    for value in ({"a": 1}, {"a": "x"}, {}, 3):
        assert deferred.__standard__.validate(value) == eager.__standard__.validate(value)
    deferred.check()  # checked already: a no-op


def test_a_tool_built_from_a_dict_checks_its_schema_on_first_use() -> None:
    """Building costs next to nothing; the bad schema is refused on the first call."""
    built = standard_tool(
        name="t", description="d", input_schema=BAD_MINIMUM, execute=lambda value: value
    )
    assert input_json_schema(built)["properties"]["a"]["minimum"] == "zero"
    with pytest.raises(InvalidSchemaError, match=BAD_MESSAGE):
        built.execute({"a": 1})


# -- a tool built from a dict keeps its schema as bytes until it is first needed --------


def test_a_deferred_schema_is_the_dict_as_it_was_when_wrapped() -> None:
    source: dict[str, Any] = {"type": "object", "properties": {"a": {"type": "integer"}}}
    deferred = from_json_schema(source, defer_check=True)
    source["properties"]["a"]["type"] = "string"  # later changes have no effect
    source["required"] = ["a"]
    expected = {"type": "object", "properties": {"a": {"type": "integer"}}}
    assert deferred.schema == expected
    assert input_json_schema(standard_tool(name="t", description="d", input_schema=expected,
                                           execute=lambda value: value)) == expected  # fmt: skip
    assert deferred.__standard__.validate({"a": 1}) == SuccessResult({"a": 1})
    assert deferred.__standard__.validate({"a": "1"}).issues == (Issue("expected integer", ("a",)),)


def _schema_dicts_held(obj: object) -> int:
    """How many dicts with ``properties`` ``obj`` holds, a few references down."""
    import gc

    found, seen, level = 0, set(), [obj]
    for _ in range(4):
        below = []
        for item in level:
            if id(item) in seen:
                continue
            seen.add(id(item))
            found += isinstance(item, dict) and "properties" in item
            below.extend(gc.get_referents(item))
        level = below
    return found


def test_a_tool_built_from_a_dict_keeps_one_copy_of_it_for_validation_and_providers() -> None:
    """The copy is made when the tool is built; validation and the providers read it."""
    from standard_tool import input_json_schema
    from standard_tool.providers import to_openai_chat

    schema = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
    built = standard_tool(name="t", description="d", input_schema=schema, execute=lambda v: v)
    assert _schema_dicts_held(built.input_schema) == 1
    schema["properties"]["a"]["type"] = "string"  # the caller's dict: no effect on the tool
    assert built.execute({"a": 1}) == {"a": 1}
    assert _schema_dicts_held(built.input_schema) == 1  # the validator reads the same copy
    for _ in range(3):  # the strict rewrite, made from the copy twice, shares none of it
        to_openai_chat(built)["function"]["parameters"]["properties"].clear()
    assert input_json_schema(built)["properties"]["a"] == {"type": "integer"}
    assert built.input_schema.schema["properties"]["a"] == {"type": "integer"}
    wrapped = from_json_schema(schema, defer_check=True)
    assert _schema_dicts_held(wrapped) == 1
    assert wrapped.schema == schema
    assert wrapped.schema is not schema


def test_each_emission_of_a_deferred_schema_is_a_fresh_copy() -> None:
    deferred = from_json_schema({"properties": {"a": {"enum": [1, 2]}}}, defer_check=True)
    first = deferred.__standard__.json_schema.input(target="draft-2020-12")
    first["properties"]["a"]["enum"].append(3)
    assert deferred.__standard__.json_schema.input(target="draft-2020-12") == {
        "properties": {"a": {"enum": [1, 2]}}
    }
    assert deferred.schema == {"properties": {"a": {"enum": [1, 2]}}}


@pytest.mark.parametrize("target", ["draft-2020-12", "draft-07", "openapi-3.0"])
@pytest.mark.parametrize(
    "source",
    [
        WEATHER,
        {"$schema": DRAFT_07_URI, "definitions": {"N": {"type": "integer"}},
         "properties": {"n": {"$ref": "#/definitions/N"}, "t": {"items": [{"type": "string"}]}}},
        {"properties": {"a": {"enum": ("x", "y")}}},  # a tuple: copied as a list
        {"properties": {"a": MappingProxyType({"type": "string"})}},  # not a dict: copied
    ],
)  # fmt: skip
def test_a_deferred_schema_emits_what_an_eager_one_does(source: Any, target: str) -> None:
    deferred, eager = from_json_schema(source, defer_check=True), from_json_schema(source)
    assert deferred.schema == eager.schema
    for side in ("input", "output"):
        emitted = getattr(deferred.__standard__.json_schema, side)(target=target)
        assert emitted == getattr(eager.__standard__.json_schema, side)(target=target)


def test_a_subschema_in_two_places_is_copied_into_two_dicts() -> None:
    """The copy shares nothing, as ``copy_schema`` makes it, even when the source does."""
    shared = {"type": "string"}
    deferred = from_json_schema({"properties": {"a": shared, "b": shared}}, defer_check=True)
    copy = deferred.__standard__.json_schema.input(target="draft-2020-12")
    copy["properties"]["a"]["type"] = "integer"
    assert copy["properties"]["b"] == {"type": "string"}
    assert deferred.schema["properties"]["a"] is not deferred.schema["properties"]["b"]


@pytest.mark.parametrize("levels", [129, 150])
def test_a_tool_built_from_a_dict_nested_too_deeply_is_refused_when_built(levels: int) -> None:
    """The depth is checked when the tool is built, as before: only the metaschema waits."""
    with pytest.raises(ToolDefinitionError, match=r"nests more than 96 levels deep"):
        standard_tool(
            name="t", description="d", input_schema=_nested_schema(levels), execute=lambda v: v
        )


def test_a_tool_built_from_a_dict_that_contains_itself_is_refused_when_built() -> None:
    looped: dict[str, Any] = {"type": "object", "properties": {}}
    looped["properties"]["self"] = looped
    with pytest.raises(ToolDefinitionError, match=r"contains itself at /properties/self"):
        standard_tool(name="t", description="d", input_schema=looped, execute=lambda v: v)


@pytest.mark.parametrize("levels", [48, 49])  # the deepest accepted, and one level more
def test_a_deferred_schema_is_refused_for_its_depth_as_an_eager_one(levels: int) -> None:
    def outcome(defer_check: bool) -> object:
        try:
            return from_json_schema(_nested_schema(levels), defer_check=defer_check).schema
        except InvalidSchemaError as err:
            return str(err)

    assert outcome(True) == outcome(False)
    assert isinstance(outcome(True), dict) == (levels == 48)


def test_an_unsupported_dialect_is_refused_even_when_the_check_is_deferred() -> None:
    with pytest.raises(ValueError, match="unsupported \\$schema"):
        from_json_schema({"$schema": "http://json-schema.org/draft-04/schema#"}, defer_check=True)


def test_an_unsupported_dialect_is_refused() -> None:
    with pytest.raises(ValueError, match="unsupported \\$schema"):
        from_json_schema({"$schema": "http://json-schema.org/draft-04/schema#"})


def test_not_a_mapping_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="expected a JSON Schema dict, got list"):
        from_json_schema([])  # type: ignore[arg-type]


def test_the_builder_accepts_a_json_schema_dict() -> None:
    tool = standard_tool(
        name="forecast", description="Forecast.", input_schema=WEATHER, execute=lambda p: p["city"]
    )
    assert tool.execute({"city": "Oslo"}) == "Oslo"
    with pytest.raises(StandardToolValidationError) as info:
        tool.execute({"city": "Oslo", "days": 0})
    assert str(info.value) == "input validation failed: days: must be >= 1"


# --- ECMA-262 patterns and hostile values ------------------------------------------------


def test_patterns_match_as_ecma_262_where_dollar_is_the_very_end() -> None:
    schema = from_json_schema({"type": "string", "pattern": "^[a-z]+$"})
    assert schema.__standard__.validate("abc").issues is None
    issues = schema.__standard__.validate("abc\n").issues
    assert issues == (Issue('must match the pattern "^[a-z]+$"', None),)


def test_digit_and_word_escapes_are_ascii_as_in_ecma_262() -> None:
    schema = from_json_schema({"type": "string", "pattern": r"^\d{3}$"})
    assert schema.__standard__.validate("123").issues is None
    assert schema.__standard__.validate("١٢٣").issues is not None  # Arabic-Indic digits


def test_pattern_properties_and_additional_properties_use_ecma_patterns() -> None:
    schema = from_json_schema(
        {
            "type": "object",
            "patternProperties": {"^x-[a-z]+$": {"type": "integer"}},
            "additionalProperties": False,
        }
    )
    assert schema.__standard__.validate({"x-a": 1}).issues is None
    assert schema.__standard__.validate({"x-a\n": 1}).issues == (
        Issue("unexpected property", ("x-a\n",)),
    )


def test_collection_stops_at_the_bound_and_says_so() -> None:
    schema = from_json_schema({"type": "array", "items": {"type": "integer"}})
    issues = schema.__standard__.validate(["x"] * 1_000_000).issues
    assert issues is not None
    assert len(issues) == 50  # the first 49 and the marker: at most 50 in all
    assert issues[0] == Issue("expected integer", (0,))
    assert issues[-1] == Issue("validation stopped after 50 issues", None)


def test_deep_and_self_containing_values_are_issues_naming_the_path() -> None:
    deep: list[Any] = []
    cursor = deep
    for _ in range(100_000):
        cursor.append([])
        cursor = cursor[0]
    arrays = from_json_schema({"type": "array", "items": {"$ref": "#"}})
    assert arrays.__standard__.validate(deep).issues == (
        Issue("nested more than 100 levels deep", (0,) * 100),
    )
    looped: dict[str, Any] = {"ok": {}}
    looped["inner"] = {"list": [1, looped]}
    objects = from_json_schema({"type": "object", "additionalProperties": {"$ref": "#"}})
    objects_or_arrays = from_json_schema(
        {
            "type": ["object", "array", "integer"],
            "additionalProperties": {"$ref": "#"},
            "items": {"$ref": "#"},
        }
    )
    assert objects_or_arrays.__standard__.validate(looped).issues == (
        Issue("contains itself", ("inner", "list", 1)),
    )
    itself: dict[str, Any] = {}
    itself["a"] = itself
    assert objects.__standard__.validate(itself).issues == (Issue("contains itself", ("a",)),)


def test_the_depth_walk_visits_shared_values_once() -> None:
    # [v, v] fifty times over: 2**50 paths but only 51 lists and no cycle. (The
    # validator itself walks every path; the walk that names the place must not.)
    shared: list[Any] = []
    for _ in range(50):
        shared = [shared, shared]
    assert _too_deep(shared) == Issue("nested too deeply to check", None)
    deep: list[Any] = [shared, []]
    cursor = deep[1]
    for _ in range(5000):
        cursor.append([])
        cursor = cursor[0]
    assert _too_deep(deep) == Issue("nested more than 100 levels deep", (1,) + (0,) * 99)


def test_a_tool_names_where_its_input_nests_too_deeply() -> None:
    deep: list[Any] = []
    cursor = deep
    for _ in range(5000):
        cursor.append([])
        cursor = cursor[0]
    tool = standard_tool(
        name="t",
        description="d",
        input_schema={"type": "array", "items": {"$ref": "#"}},
        execute=len,
    )
    with pytest.raises(StandardToolValidationError) as caught:
        tool.execute(deep)
    assert str(caught.value).startswith("input validation failed: 0.0.0.0.0.0")
    assert "nested more than 100 levels deep" in str(caught.value)


def test_an_integer_too_long_to_print_is_an_issue() -> None:
    schema = from_json_schema({"type": "integer", "maximum": 3})
    assert schema.__standard__.validate(10**5000).issues == (
        Issue("cannot be validated: an integer has too many digits to check", None),
    )
    tool = standard_tool(name="n", description="d", input_schema={"type": "string"}, execute=str)
    with pytest.raises(StandardToolValidationError, match="too many digits"):
        tool.execute(10**5000)


def test_a_lone_surrogate_key_never_reaches_the_message_unescaped() -> None:
    tool = standard_tool(
        name="t",
        description="d",
        input_schema={"type": "object", "additionalProperties": False},
        execute=lambda x: x,
    )
    with pytest.raises(StandardToolValidationError) as info:
        tool.execute({"a\ud800": 1})
    assert info.value.issues[0].path == ("a\ud800",)  # the data keeps the real key
    str(info.value).encode("utf-8")  # the text can be sent on


# -- issue 26: schemas from elsewhere: bounded, local, and refused by a clear error -----


def _nested_schema(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"a": schema}}
    return schema


@pytest.mark.parametrize("levels", [150, 5_000])
def test_a_schema_nested_too_deeply_is_refused_by_a_clear_error(levels: int) -> None:
    with pytest.raises(
        InvalidSchemaError, match=r"nests more than 96 levels deep at /properties/a/"
    ):
        from_json_schema(_nested_schema(levels))
    assert from_json_schema(_nested_schema(40)).__standard__.validate({"a": {"a": 1}}).issues


def test_a_schema_that_contains_itself_is_refused() -> None:
    looped: dict[str, Any] = {"type": "object", "properties": {}}
    looped["properties"]["self"] = looped
    with pytest.raises(InvalidSchemaError, match=r"contains itself at /properties/self"):
        from_json_schema(looped)


def test_an_unsupported_dialect_is_an_invalid_schema_error() -> None:
    with pytest.raises(InvalidSchemaError, match=r"unsupported \$schema .*draft-04"):
        from_json_schema({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"})


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("#/$defs/missing", r"'#/\$defs/missing' at /properties/a/\$ref points nowhere"),
        ("#nowhere", r"names no anchor"),
        ("https://example.com/schema.json", r"points outside the schema; references are never"),
        ("other.json#/x", r"points outside the schema"),
    ],
)
def test_a_reference_that_points_nowhere_or_outside_is_refused(ref: str, expected: str) -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": ref}},
        "$defs": {"present": {"type": "integer"}},
    }
    with pytest.raises(InvalidSchemaError, match=expected) as raised:
        from_json_schema(schema)
    assert "present" not in str(raised.value)  # the schema is not repeated


@pytest.mark.parametrize(
    "schema",
    [
        {"properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "integer"}}},
        {"properties": {"a": {"$ref": "#"}}},
        {"properties": {"a": {"$ref": "#n"}}, "$defs": {"A": {"$anchor": "n", "type": "integer"}}},
        {
            "$id": "https://example.com/root.json",
            "properties": {"a": {"$ref": "item.json#/properties/b"}},
            "$defs": {"I": {"$id": "item.json", "properties": {"b": {"type": "integer"}}}},
        },
    ],
)
def test_references_within_the_schema_still_resolve(schema: dict[str, Any]) -> None:
    checked = from_json_schema({"type": "object", **schema})
    assert checked.__standard__.validate({"a": "x"}).issues is not None


def _in_thread(fn: Any) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(fn()), daemon=True)
    thread.start()
    return thread, out


@pytest.mark.parametrize("pattern", ["^(a+)+$", "^(a|aa)+$", "(x+x+)+y"])
def test_a_pattern_that_backtracks_exponentially_takes_bounded_time(pattern: str) -> None:
    schema = from_json_schema(
        {"type": "object", "properties": {"s": {"type": "string", "pattern": pattern}}}
    )
    value = {"s": "x" * 41 if "x" in pattern else "a" * 41 + "!"}
    thread, out = _in_thread(lambda: schema.__standard__.validate(value))
    thread.join(60)  # with re, minutes to hours; bounded by PATTERN_BUDGET here
    assert not thread.is_alive()
    (issue,) = out[0].issues
    assert issue.path == ("s",)
    assert issue.message.startswith(("must match the pattern", "took too long to match"))
    assert schema.__standard__.validate({"s": "aa" if "a" in pattern else "xxy"}).issues is None


def test_a_key_that_takes_too_long_to_match_is_refused_not_let_through() -> None:
    schema = from_json_schema(
        {
            "type": "object",
            "patternProperties": {"^(a|aa)+$": {"type": "integer"}},
            "additionalProperties": False,
        }
    )
    assert schema.__standard__.validate({"aaaa": 1}).issues is None
    issues = schema.__standard__.validate({"a" * 60 + "!": 1}).issues
    assert issues is not None
    assert {i.message.split(" (")[0] for i in issues} <= {
        'took too long to match the pattern "^(a|aa)+$"',
        "unexpected property",
    }


def test_a_value_passing_for_a_string_is_kept_as_before() -> None:
    """An object whose ``__class__`` says ``str`` is no plain string: copied as before."""

    class Posing:
        @property
        def __class__(self) -> type:  # type: ignore[override]
            return str

    posing = Posing()
    source = {"properties": {"a": {"type": "string", "default": posing}}}
    deferred, eager = from_json_schema(source, defer_check=True), from_json_schema(source)
    assert deferred.schema == eager.schema
    assert deferred.schema["properties"]["a"]["default"] is posing


def _deep(kind: str, levels: int) -> tuple[dict[str, Any], Any]:
    """A schema ``levels`` deep of one keyword, and a value it accepts."""
    schema: dict[str, Any] = {"type": "string"}
    value: Any = "x"
    for _ in range(levels):
        if kind == "items":
            schema, value = {"type": "array", "items": schema}, [value]
        elif kind == "properties":
            schema, value = {"type": "object", "properties": {"a": schema}}, {"a": value}
        elif kind == "anyOf":
            schema = {"anyOf": [schema, {"type": "null"}]}
        else:
            schema = {"allOf": [schema]}
    return {"type": "object", "properties": {"v": schema}, "required": ["v"]}, {"v": value}


def _called_deep_in_a_stack(frames: int, call: Any) -> Any:
    return call() if frames == 0 else _called_deep_in_a_stack(frames - 1, call)


@given(
    kind=st.sampled_from(["items", "properties", "anyOf", "allOf"]),
    levels=st.integers(1, 140),
)
@example(kind="items", levels=122)
@example(kind="items", levels=126)
@example(kind="items", levels=MAX_SCHEMA_DEPTH - 2)
def test_a_schema_accepted_when_built_is_callable(kind: str, levels: int) -> None:
    """Issue 35: the depth is checked once; a tool that builds answers its calls.

    A schema 122-126 levels deep used to build and convert, then fail every call
    with "nests too deeply to check". Called here 150 frames deep, as a server's
    handler is.
    """
    schema, value = _deep(kind, levels)
    try:
        deep = standard_tool(name="t", description="d", input_schema=schema, execute=lambda v: "ok")
    except ToolDefinitionError as err:
        refused = str(err)
    else:
        refused = None
    if refused is not None:
        assert "nests" in refused
        return
    to_mcp(deep)
    result = _called_deep_in_a_stack(150, lambda: Toolkit([deep]).execute("t", value))
    assert (result.value, result.error) == ("ok", None)


@pytest.mark.parametrize(
    ("schema", "good", "bad"),
    [
        # The JSON Schema Test Suite's defs.json and ref.json groups that reach a metaschema.
        (
            {"$schema": "https://json-schema.org/draft/2020-12/schema",
             "$ref": "https://json-schema.org/draft/2020-12/schema"},
            {"$defs": {"foo": {"type": "integer"}}},
            {"$defs": {"foo": {"type": 1}}},
        ),
        (
            {"$ref": "https://json-schema.org/draft/2020-12/schema"},
            {"minLength": 1},
            {"minLength": -1},
        ),
        (
            {"$schema": "http://json-schema.org/draft-07/schema#",
             "$ref": "http://json-schema.org/draft-07/schema#/definitions/nonNegativeInteger"},
            3,
            -3,
        ),
    ],
    ids=["defs.json", "ref.json", "draft-07 pointer"],
)  # fmt: skip
def test_a_ref_to_an_official_metaschema_resolves_from_jsonschemas_copy(
    schema: dict[str, Any], good: Any, bad: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As ``jsonschema`` does: from the copies it ships, never fetched."""
    import socket

    def no_network(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a reference was fetched")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    props = from_json_schema(schema).__standard__
    assert props.validate(good).issues is None
    assert props.validate(bad).issues


def test_a_ref_to_another_remote_document_is_still_refused() -> None:
    with pytest.raises(InvalidSchemaError, match="points outside the schema"):
        from_json_schema({"$ref": "https://json-schema.org/draft/2020-12/not-a-metaschema"})
