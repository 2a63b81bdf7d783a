"""The json_query built-in: one value out of a JSON document by a documented path."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from standard_tool import StandardToolValidationError
from standard_tool.builtins import json_query

DOC = json.dumps(
    {
        "items": [{"name": "apple", "tags": ["red"]}, {"name": "pear", "tags": []}],
        "a.b": 1,
        'say "hi"': 2,
        "$": 3,
        "0": "zero",
        "empty": {},
        "nothing": None,
        "ünï": "cödé",
    }
)


def query(text: Any, path: Any = None) -> Any:
    payload = {"json": text} if path is None else {"json": text, "path": path}
    return json_query.execute(payload)


def refused(text: Any, path: Any = None, *, at: str) -> str:
    with pytest.raises(StandardToolValidationError) as info:
        query(text, path)
    err = info.value
    assert err.target == "input"
    assert [tuple(i.path or ()) for i in err.issues] == [(at,)]
    return str(err)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("items[0].name", "apple"),
        ("items[1].name", "pear"),
        ("items[-1].name", "pear"),
        ("items.0.name", "apple"),
        ("$.items[0].tags[0]", "red"),
        (".items[0].tags", ["red"]),
        ('["a.b"]', 1),
        ('["say \\"hi\\""]', 2),
        ('["$"]', 3),
        ("0", "zero"),
        ('["0"]', "zero"),
        ("empty", {}),
        ("nothing", None),
        ("ünï", "cödé"),
        ('["\\u00fcn\\u00ef"]', "cödé"),
    ],
)
def test_follows_dotted_keys_indices_and_quoted_keys(path: str, expected: Any) -> None:
    assert query(DOC, path) == expected


@pytest.mark.parametrize("path", ["", "$", "."])
def test_the_empty_path_is_the_whole_document(path: str) -> None:
    assert query(DOC, path) == json.loads(DOC)
    assert query("[1, 2]") == [1, 2]


def test_scalars_and_unicode_escapes_come_back_as_python_values() -> None:
    assert query("12") == 12
    assert query("1.5") == 1.5
    assert query("true") is True
    assert query('"\\ud83d\\ude00"') == "\U0001f600"
    assert query('"\\ud800"') == "\ud800"  # a lone surrogate is valid JSON text


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("items[5]", "path: index 5 is out of range: $.items is an array of 2 items"),
        ("items[-3]", "index -3 is out of range"),
        ("items.name", "$.items is an array of 2 items, not an object; it has no key 'name'"),
        ("missing", "$ has no key 'missing'"),
        ("items[0].colour", "$.items[0] has no key 'colour'"),
        ("items[0].name.first", "$.items[0].name is a string; it has no .first"),
        ("nothing.x", "$.nothing is null; it has no .x"),
        ("empty[0]", "$.empty is an object with 0 keys, not an array; it has no index [0]"),
    ],
)
def test_a_path_that_leads_nowhere_says_where_it_stopped(path: str, message: str) -> None:
    assert message in refused(DOC, path, at="path")


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("items[", 'expected an index like [0] or a quoted key like ["name"] at character 6'),
        ("items[0", "at character 6"),
        ("items[01]", "at character 6"),
        ("items[x]", "at character 6"),
        ("items[99999999999999999999]", "at character 6"),
        ("a..b", 'expected a key (quote unusual keys as ["..."]) at character 3'),
        ("items]", "expected '.' or '[' at character 6"),
        ("items[0]name", "expected '.' or '[' at character 9"),
        ('["a', "expected an index like [0]"),
        ('["a"', "expected ']' after the quoted key at character 5"),
        ('["\\x"]', "invalid escape in the quoted key at character 2"),
        (" items", "at character 1"),
        ("items.", "at character 7"),
    ],
)
def test_a_malformed_path_names_the_character(path: str, message: str) -> None:
    assert message in refused(DOC, path, at="path")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1,", "json: not valid JSON at line 1, column 4"),
        ('{"a": 1 "b": 2}', "not valid JSON at line 1, column 9"),
        ('{"a": 1,}', "not valid JSON at line 1, column "),  # 3.13 points at the comma
        ("{\n  'a': 1\n}", "not valid JSON at line 2, column 3"),
        ("", "not valid JSON at line 1, column 1"),
        ("[1] x", "not valid JSON at line 1, column 5"),
        ("NaN", "NaN is not valid JSON"),
        ("[Infinity]", "Infinity is not valid JSON"),
        ("-Infinity", "-Infinity is not valid JSON"),
        ("1e999", "the number '1e999' is too large for a float"),
        ("1" * 2000, "an integer has more than 1000 digits"),
        ("[" * 101 + "]" * 101, "nested more than 100 levels deep"),
        ("[" * 500_000, "nested more than 100 levels deep"),
        ('{"a":' * 200 + "1" + "}" * 200, "nested more than 100 levels deep"),
    ],
)
def test_bad_json_names_where(text: str, message: str) -> None:
    assert message in refused(text, at="json")


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    text = json.dumps({"a": "[" * 5000, "b": '"]\\[{'})
    assert query(text, "a") == "[" * 5000
    assert query("[" * 100 + "]" * 100) == json.loads("[" * 100 + "]" * 100)


def test_escaped_quotes_cannot_make_the_depth_scan_slow() -> None:
    # An unterminated string of escaped quotes: scanned once, then refused as invalid JSON.
    text = '"' + '\\"' * 300_000
    assert "not valid JSON" in refused(text, at="json")


def test_size_is_bounded_by_the_schema() -> None:
    message = refused(" " * 1_000_001, at="json")
    assert "must have at most 1000000 characters" in message
    assert "must have at most 1000 characters" in refused("1", "a" * 1001, at="path")


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"json": 1},
        {"json": None},
        {"json": {"a": 1}},
        {"json": "1", "path": 0},
        {"json": "1", "path": ["a"]},
        {"json": "1", "query": "a"},
    ],
)
def test_wrong_shapes_are_validation_errors(payload: Any) -> None:
    with pytest.raises(StandardToolValidationError):
        json_query.execute(payload)


def test_messages_bound_long_keys() -> None:
    message = refused("{}", "k" * 900, at="path")
    assert "[truncated" in message
    assert len(message) < 400


@given(st.text(max_size=40))
def test_any_path_gives_a_value_or_a_path_error(path: str) -> None:
    error: StandardToolValidationError | None = None
    try:
        query(DOC, path)
    except StandardToolValidationError as err:
        error = err
    if error is not None:
        assert [tuple(i.path or ()) for i in error.issues] == [("path",)]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_every_document_round_trips_through_the_empty_path(value: Any) -> None:
    assert query(json.dumps(value)) == value
