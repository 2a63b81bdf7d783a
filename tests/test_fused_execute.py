"""A sync function tool's ``execute`` becomes one generated function on its first call.

The core's ``execute`` composes three parts: the input's generated check, the
handler (``run``, which takes the validated dict apart) and the output's check.
On the first call a function tool generates the same input code ending in the
handler call and the output check, and makes that its ``execute``. These tests
hold it to the composed path: a tool built by ``standard_tool`` from the same
schemas and an equivalent handler must return the same values and raise the
same errors, byte for byte, for valid and broken inputs alike.
"""

from __future__ import annotations

import functools
import random
import threading
from collections.abc import Iterator
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typing_extensions import Annotated

from standard_tool import (
    Meta,
    Param,
    StandardToolValidationError,
    input_json_schema,
    standard_tool,
    tool,
)
from standard_tool.testing import json_values_for
from tests.test_fast_rejection import Line  # sku 2-8 characters, 0 < qty <= 100


def order(
    lines: list[Line],
    ship_to: str | None,
    code: int | str = 0,
    note: Annotated[str, Param(max_length=20)] | None = None,
) -> int:
    """Count the units; a code of 13 returns text (an output error), 7 raises."""
    if code == 13:
        return "thirteen"  # type: ignore[return-value]
    if code == 7:
        raise ValueError("code 7 is retired")
    return sum(line["qty"] for line in lines)


def keyword_only(a: Annotated[int, Param(ge=0)], *, b: str = "b", c: float = 1.5) -> str:
    """Keyword-only parameters are passed by name."""
    return f"{a}{b}{c}"


def with_meta(x: Annotated[float, Param(gt=0, lt=10)], who: Meta[str]) -> str:
    """The Meta parameter gets ``meta``."""
    return f"{who}:{x}"


def streamed(n: Annotated[int, Param(ge=0, le=5)]) -> Iterator[int]:
    """A generator tool: its result is its last value."""
    yield from range(n + 1)


def _logged(fn: Any) -> Any:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    return wrapper


@_logged
def wrapped(a: Annotated[int, Param(gt=0)], b: Annotated[str, Param(min_length=1)] = "x") -> str:
    """A wrapper's advertised signature is not its code's: arguments go by name."""
    return f"{b}:{a}"


def _reference(built: Any, fn: Any, meta_name: str | None = None) -> Any:
    """The same tool composed by the core: its schemas, a handler calling ``fn``."""

    def handler(value: dict[str, Any], meta: Any) -> Any:
        args = dict(value)
        if meta_name is not None:
            args[meta_name] = meta
        result = fn(**args)
        if isinstance(result, Iterator):
            items: list[Any] = list(cast("Iterator[Any]", result))
            return items[-1] if items else None
        return result

    return standard_tool(
        name=built.name,
        description=built.description,
        input_schema=built.input_schema,
        output_schema=built.output_schema,
        execute=handler,
    )


def _filename(fn: Any) -> str:
    """The file of a function's code: generated code names what it is."""
    return str(fn.__code__.co_filename)


def _outcome(execute: Any, value: Any, meta: Any = None) -> tuple[Any, ...]:
    try:
        return ("value", execute(value, meta))
    except StandardToolValidationError as err:
        issues = tuple((i.message, i.path) for i in err.issues)
        return ("invalid", err.target, issues, str(err), repr(err), err.args)
    except Exception as err:
        return ("raised", type(err), str(err))


_WRONG = [0, -1, 101, 2.5, "", "x", "abcdefghij", None, True, [], {}, 7, 13]


def _broken(value: Any, rnd: random.Random, rate: float) -> Any:
    if rnd.random() < rate:
        return rnd.choice(_WRONG)
    if isinstance(value, dict):
        return {k: _broken(v, rnd, rate) for k, v in cast("dict[str, Any]", value).items()}
    if isinstance(value, list):
        return [_broken(v, rnd, rate) for v in cast("list[Any]", value)]
    return value


CASES = [
    (order, None),
    (keyword_only, None),
    (with_meta, "who"),
    (streamed, None),
    (wrapped, None),
]


@pytest.mark.parametrize(("fn", "meta_name"), CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_the_generated_execute_is_the_composed_one(fn: Any, meta_name: str | None) -> None:
    built: Any = tool(fn)
    reference = _reference(built, fn, meta_name)
    schema = input_json_schema(built, "draft-2020-12")

    @given(
        json_values_for(schema),
        st.randoms(use_true_random=False),
        st.sampled_from([0.0, 0.1, 0.4]),
    )
    def agree(value: Any, rnd: random.Random, rate: float) -> None:
        value = _broken(value, rnd, rate)
        assert _outcome(built.execute, value, "m") == _outcome(reference.execute, value, "m")

    agree()
    assert "execute (input error)" in _filename(built.execute)


@pytest.mark.parametrize(
    "value",
    [
        {"lines": [{"sku": "ab", "qty": 2}], "ship_to": None},
        {"lines": [{"sku": "ab", "qty": 2}], "ship_to": None, "code": 13},
        {"lines": [], "ship_to": "x", "code": 7},
        {"lines": [{"sku": "ab", "qty": 2}], "ship_to": "x", "note": None, "code": "z"},
        {"ship_to": None, "lines": [{"qty": 2, "sku": "ab"}], "code": 13},
        {"lines": [{"sku": "ab", "qty": 0}], "ship_to": None, "code": 13},
        {"lines": [{"sku": "ab", "qty": 2, "tags": {"a": 1}}], "ship_to": None, "code": 7},
        {"lines": "no", "ship_to": None},
        [],
        None,
    ],
)
def test_handler_and_output_failures_are_the_composed_ones(value: Any) -> None:
    built = tool(order)
    reference = _reference(built, order)
    built.execute({"lines": [], "ship_to": None})  # the generated execute from here on
    assert _outcome(built.execute, value) == _outcome(reference.execute, value)


def test_the_output_check_runs_in_the_generated_execute() -> None:
    built = tool(order)
    value = {"lines": [], "ship_to": None, "code": 13}
    for _ in range(2):  # through the function that makes it, then through it
        outcome = _outcome(built.execute, value)
        assert outcome[:2] == ("invalid", "output")
        assert outcome[3] == "output validation failed: expected integer, got string 'thirteen'"


def test_the_first_call_installs_it_and_an_early_reference_still_works() -> None:
    built = tool(order)
    early = built.execute
    good = {"lines": [{"sku": "ab", "qty": 3}], "ship_to": None}
    assert early(good) == 3
    assert built.execute is not early
    assert "execute (input error)" in _filename(built.execute)
    assert early(good) == built.execute(good) == 3
    bad = {"lines": [{"sku": "ab", "qty": 0}], "ship_to": None}
    assert _outcome(early, bad) == _outcome(built.execute, bad)


def test_input_and_meta_can_be_passed_by_name_before_and_after_the_first_call() -> None:
    built = tool(with_meta)
    assert built.execute(input={"x": 1.5}, meta="me") == "me:1.5"
    assert "execute (input error)" in _filename(built.execute)
    assert built.execute(input={"x": 2}, meta="you") == "you:2"
    assert built.execute({"x": 3}, "us") == "us:3"


def test_a_formatted_copy_made_before_the_first_call_agrees() -> None:
    built = tool(order)
    formatted = built.formatted()
    bad = {"lines": [{"sku": "ab", "qty": 0}], "ship_to": None}
    assert formatted.execute(bad) == {
        "error": "input validation failed: lines.0.qty: must be greater than 0, got 0"
    }
    assert formatted.execute({"lines": [{"sku": "ab", "qty": 2}], "ship_to": "x"}) == 2
    assert formatted.execute({"lines": [], "ship_to": "x", "code": 7}) == {
        "error": "code 7 is retired"
    }
    assert built.formatted().execute({"lines": [], "ship_to": "x", "code": 7}) == {
        "error": "code 7 is retired"
    }


def test_threads_making_the_first_calls_together_all_get_their_results() -> None:
    built = tool(order)
    results: dict[int, Any] = {}
    start = threading.Barrier(8)

    def call(i: int) -> None:
        start.wait()
        results[i] = _outcome(built.execute, {"lines": [{"sku": "ab", "qty": i}], "ship_to": None})

    threads = [threading.Thread(target=call, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[0][0] == "invalid"
    assert all(results[i] == ("value", i) for i in range(1, 8))


# --------------------------------------------------------------------------------------
# Values known invalid inline (a bound broken by a value of the right type) are recorded
# and their errors made when read: the same errors, in the same order, as the full check
# --------------------------------------------------------------------------------------


def _full(built: Any, value: Any) -> tuple[Any, ...]:
    result = built.input_schema.__standard__.full_validate(value)
    assert result.issues is not None
    err = StandardToolValidationError("input", result.issues)
    issues = tuple((i.message, i.path) for i in err.issues)
    return ("invalid", err.target, issues, str(err), repr(err), err.args)


def test_more_broken_bounds_than_the_issue_limit_stop_where_the_full_check_stops() -> None:
    built = tool(order)
    value: dict[str, Any] = {"lines": [{"sku": "ab", "qty": 0} for _ in range(80)]}
    value["ship_to"] = None
    outcome = _outcome(built.execute, value)
    assert outcome == _full(built, value)
    assert outcome[2][0] == ("must be greater than 0, got 0", ("lines", 0, "qty"))
    assert outcome[2][-2:] == (
        ("must be greater than 0, got 0", ("lines", 48, "qty")),
        ("validation stopped after 50 issues", None),
    )


def test_recorded_and_checked_problems_keep_their_order() -> None:
    built = tool(order)
    lines: list[Any] = []
    for i in range(12):
        lines.append({"sku": "ab", "qty": [0, "3", 101, 2.5][i % 4]})
        lines.append({"sku": ["a", 5, "abcdefghij", "ok"][i % 4], "qty": 1})
    value = {"lines": lines, "ship_to": None, "note": "n" * 21}
    outcome = _outcome(built.execute, value)
    assert outcome == _full(built, value)
    assert outcome[2][:3] == (
        ("must be greater than 0, got 0", ("lines", 0, "qty")),
        ("must have at least 2 characters, got 1", ("lines", 1, "sku")),
        ("expected integer, got string '3'", ("lines", 2, "qty")),
    )
    assert outcome[2][-1] == ("must have at most 20 characters, got 21", ("note",))
