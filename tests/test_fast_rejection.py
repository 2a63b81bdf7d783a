"""A rejected call reports exactly what the complete validation path reports.

``execute`` takes the schema's fast path: the function tools' generated code, or
the schema library's own compiled call for an adapter. On failure it raises a
``StandardToolValidationError`` whose issues are mapped from the fast path's
error only when first read. The reference is the complete path: the full check
(``full_validate``) of a function tool, or the adapter's ``validate`` (which maps
the library's error at once), wrapped in an error built from those issues. Both
must agree byte for byte: the same issues (message, path and code, in order),
the same ``str``, ``repr`` and ``args``, and the same after a pickle round trip.
"""

from __future__ import annotations

import asyncio
import pickle
import random
from typing import Any, Literal

import msgspec
import pytest
from annotated_types import Gt
from hypothesis import given
from hypothesis import strategies as st
from pydantic import Field
from typing_extensions import Annotated, NotRequired, TypedDict

from standard_tool import (
    FastPath,
    Issue,
    Param,
    StandardToolValidationError,
    input_json_schema,
    standard_tool,
    tool,
)
from standard_tool.testing import json_values_for

# --------------------------------------------------------------------------------------
# Signatures: nested objects, unions, optionals, dict[str, T], constrained ints and strings
# --------------------------------------------------------------------------------------


class Line(TypedDict):
    sku: Annotated[str, Param(min_length=2, max_length=8)]
    qty: Annotated[int, Param(gt=0, le=100)]
    tags: NotRequired[dict[str, int]]


class Address(TypedDict):
    street: str
    city: str
    zip: Annotated[str, Param(pattern=r"^[0-9]{5}$")]


def place_order(
    lines: list[Line],
    ship_to: Address | None,
    code: int | str = 0,
    extra: dict[str, Line] | None = None,
    note: Annotated[str, Param(max_length=20)] | None = None,
) -> None:
    """Place an order."""


def tag_items(
    items: list[Annotated[int, Gt(0)]] | dict[str, list[Line]],
    kind: Literal["a", "b"] | None = None,
    scores: dict[str, Annotated[float, Param(ge=0, lt=1)]] | None = None,
) -> None:
    """Tag items."""


def nested_lists(grid: list[list[Line]], pick: int | list[str] | None = None) -> None:
    """Walk a grid."""


SIGNATURES = [place_order, tag_items, nested_lists]

_WRONG = [0, -1, 101, 2.5, "", "x", "abcdefghij", "1234", None, True, [], {}, {"sku": 1}]


def _broken(value: Any, rnd: random.Random, rate: float) -> Any:
    """The same value with some of its parts replaced by wrong ones."""
    if rnd.random() < rate:
        return rnd.choice(_WRONG)
    if isinstance(value, dict):
        return {k: _broken(v, rnd, rate) for k, v in value.items()}
    if isinstance(value, list):
        return [_broken(v, rnd, rate) for v in value]
    return value


def _shuffled(value: Any, rnd: random.Random) -> Any:
    """The same value with the keys of its objects in another order."""
    if isinstance(value, dict):
        pairs = [(k, _shuffled(v, rnd)) for k, v in value.items()]
        rnd.shuffle(pairs)
        return dict(pairs)
    if isinstance(value, list):
        return [_shuffled(v, rnd) for v in value]
    return value


def _described(err: StandardToolValidationError) -> tuple[Any, ...]:
    """Everything a consumer can read from the error, as plain data."""
    issues = tuple((i.message, i.path, getattr(i, "code", None)) for i in err.issues)
    return (err.target, issues, str(err), repr(err), err.args)


def _raised(execute: Any, value: Any) -> StandardToolValidationError | None:
    try:
        execute(value)
    except StandardToolValidationError as err:
        return err
    return None


def assert_same_error(
    fast: StandardToolValidationError, complete: StandardToolValidationError
) -> None:
    """The fast path's error, read now and after pickling, is the complete path's."""
    copy = pickle.loads(pickle.dumps(fast))
    assert _described(fast) == _described(complete)
    assert _described(copy) == _described(complete)


def _values(built: Any) -> Any:
    schema = input_json_schema(built, "draft-2020-12")
    return st.builds(
        lambda value, rnd, rate, shuffle: (
            _shuffled(_broken(value, rnd, rate), rnd) if shuffle else _broken(value, rnd, rate)
        ),
        json_values_for(schema),
        st.randoms(use_true_random=False),
        st.sampled_from([0.0, 0.05, 0.3]),
        st.booleans(),
    )


# --------------------------------------------------------------------------------------
# Function tools: the generated code against the full check
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("fn", SIGNATURES, ids=lambda f: f.__name__)
def test_function_tool_rejection_is_the_full_checks_error(fn: Any) -> None:
    built = tool(fn)
    props = built.input_schema.__standard__

    @given(_values(built))
    def agree(value: Any) -> None:
        fast = _raised(built.execute, value)
        result = props.full_validate(value)
        if result.issues is None:
            assert fast is None, value
            return
        assert fast is not None, value
        assert_same_error(fast, StandardToolValidationError("input", result.issues))

    agree()


def test_one_bad_item_deep_in_a_list_is_named_by_its_path() -> None:
    """A check that cannot pass by accident: the path and message are spelled out."""
    built = tool(place_order)
    lines: list[Any] = [{"sku": f"s{i}", "qty": i + 1} for i in range(9)]
    lines.append({"sku": "x", "qty": 0})
    err = _raised(built.execute, {"lines": lines, "ship_to": None})
    assert err is not None
    assert err.issues == (
        Issue("must have at least 2 characters, got 1", ("lines", 9, "sku")),
        Issue("must be greater than 0, got 0", ("lines", 9, "qty")),
    )
    assert str(err) == (
        "input validation failed: lines.9.sku: must have at least 2 characters, got 1; "
        "lines.9.qty: must be greater than 0, got 0"
    )
    assert err.args == ("input", err.issues)


def test_the_formatted_tool_reports_the_same_text() -> None:
    built = tool(tag_items)
    value = {"items": [1, 0, -2], "kind": "c"}
    err = _raised(built.execute, value)
    assert err is not None
    assert built.formatted().execute(value) == {"error": str(err)}
    complete = built.input_schema.__standard__.full_validate(value)
    assert str(err) == str(StandardToolValidationError("input", complete.issues))


# --------------------------------------------------------------------------------------
# Adapters: the library's compiled call, its error mapped lazily, against ``validate``
# --------------------------------------------------------------------------------------


class PLine(TypedDict):
    sku: Annotated[str, Field(min_length=2, max_length=8)]
    qty: Annotated[int, Field(gt=0, le=100)]
    tags: NotRequired[dict[str, int]]


class POrder(TypedDict):
    lines: list[PLine]
    code: int | str
    note: NotRequired[Annotated[str, Field(max_length=20)] | None]
    extra: NotRequired[dict[str, PLine]]


class MLine(msgspec.Struct, forbid_unknown_fields=True):
    sku: Annotated[str, msgspec.Meta(min_length=2, max_length=8)]
    qty: Annotated[int, msgspec.Meta(gt=0, le=100)]
    tags: dict[str, int] | None = None


class MOrder(msgspec.Struct, forbid_unknown_fields=True):
    lines: list[MLine]
    code: int | str
    note: Annotated[str, msgspec.Meta(max_length=20)] | None = None
    extra: dict[str, MLine] | None = None


@pytest.mark.parametrize("kind", [POrder, MOrder], ids=["pydantic", "msgspec"])
def test_adapter_rejection_is_the_eager_mappings_error(kind: Any) -> None:
    built = standard_tool(name="order", description="d", input_schema=kind, execute=lambda v: v)
    validate = built.input_schema.__standard__.validate

    @given(_values(built))
    def agree(value: Any) -> None:
        fast = _raised(built.execute, value)
        result = validate(value)
        if result.issues is None:
            assert fast is None, value
            return
        assert fast is not None, value
        assert_same_error(fast, StandardToolValidationError("input", result.issues))

    agree()


@pytest.mark.parametrize("kind", [POrder, MOrder], ids=["pydantic", "msgspec"])
def test_adapter_rejection_names_the_path(kind: Any) -> None:
    built = standard_tool(name="order", description="d", input_schema=kind, execute=lambda v: v)
    err = _raised(
        built.execute, {"lines": [{"sku": "ab", "qty": 1}, {"sku": "ab", "qty": 0}], "code": 1}
    )
    assert err is not None
    assert [i.path for i in err.issues] == [("lines", 1, "qty")]
    assert str(err).startswith("input validation failed: lines.1.qty: ")


# --------------------------------------------------------------------------------------
# The deferred mapping itself
# --------------------------------------------------------------------------------------


class _Rejected(Exception):
    pass


def _reject(value: Any) -> Any:
    raise _Rejected(value)


class _CountingProps:
    version = 1
    vendor = "tests"

    def __init__(self, issues: Any) -> None:
        self.calls = 0

        def mapped(err: _Rejected) -> Any:
            self.calls += 1
            return issues(err)

        self.fast_path = FastPath(_reject, _Rejected, mapped)
        self.json_schema = tool(place_order).input_schema.__standard__.json_schema

    def validate(self, value: Any) -> Any:  # the fast path is used instead
        raise AssertionError("validate called")


class _Counting:
    def __init__(self, issues: Any) -> None:
        self.__standard__ = _CountingProps(issues)


def test_the_issues_are_mapped_once_and_only_when_read() -> None:
    schema = _Counting(lambda err: [Issue("nope", ("a", 1))])
    built = standard_tool(name="t", description="d", input_schema=schema, execute=lambda v: v)
    err = _raised(built.execute, 5)
    assert err is not None
    assert isinstance(err.__cause__, _Rejected)
    assert schema.__standard__.calls == 0
    assert err.args == ("input", (Issue("nope", ("a", 1)),))
    assert schema.__standard__.calls == 1
    assert str(err) == "input validation failed: a.1: nope"
    assert err.issues is err.issues
    assert schema.__standard__.calls == 1


def test_a_mapping_that_fails_is_reported_as_one_bounded_issue() -> None:
    def broken(err: _Rejected) -> Any:
        raise RuntimeError("mapping broke")

    built = standard_tool(
        name="t", description="d", input_schema=_Counting(broken), execute=lambda v: v
    )
    err = _raised(built.execute, "x" * 10_000)
    assert err is not None
    (issue,) = err.issues
    assert issue.path is None
    assert issue.message.startswith("the schema's issues could not be read (RuntimeError): ")
    assert len(str(err)) < 1_000
    assert pickle.loads(pickle.dumps(err)).issues == err.issues


def test_args_of_a_deferred_error_behave_as_an_eager_ones() -> None:
    schema = _Counting(lambda err: (Issue("nope", ("a",)),))
    built = standard_tool(name="t", description="d", input_schema=schema, execute=lambda v: v)
    err = _raised(built.execute, 5)
    eager = StandardToolValidationError("input", [Issue("nope", ("a",))])
    assert err is not None
    assert err.args == eager.args == ("input", (Issue("nope", ("a",)),))
    err.args = (1, 2)
    eager.args = (1, 2)
    assert err.args == eager.args == (1, 2)
    assert str(err) == str(eager) == "input validation failed: a: nope"
    assert err.issues == eager.issues


@pytest.mark.parametrize(
    ("mapping", "expected"),
    [
        (lambda err: 42, "the schema's issues could not be read (TypeError): "),
        (lambda err: iter([Issue("one", ("a",))]), None),
        (lambda err: [Issue("one", ("a",)), Issue("two")], None),
    ],
    ids=["not-iterable", "an-iterator", "a-list"],
)
def test_whatever_the_mapping_returns_the_issues_are_a_tuple(mapping: Any, expected: Any) -> None:
    built = standard_tool(
        name="t", description="d", input_schema=_Counting(mapping), execute=lambda v: v
    )
    err = _raised(built.execute, 1)
    assert err is not None
    assert type(err.issues) is tuple
    assert err.issues is err.issues
    if expected is None:
        assert err.issues[0] == Issue("one", ("a",))
    else:
        assert err.issues[0].message.startswith(expected)


def test_threads_reading_one_deferred_error_see_the_same_issues() -> None:
    import threading

    built = tool(place_order)
    err = _raised(built.execute, {"lines": [{"sku": "x", "qty": 0}], "ship_to": 3})
    assert err is not None
    seen: list[Any] = []
    barrier = threading.Barrier(8)

    def read() -> None:
        barrier.wait()
        seen.append((err.args, str(err), err.issues))

    threads = [threading.Thread(target=read) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 8
    assert all(s == seen[0] for s in seen)
    assert [i.path for i in seen[0][2]] == [("lines", 0, "sku"), ("lines", 0, "qty"), ("ship_to",)]


def test_issues_can_still_be_replaced_as_before() -> None:
    err = _raised(tool(tag_items).execute, {"items": [0]})
    assert err is not None
    err.issues = (Issue("replaced"),)
    assert err.issues == (Issue("replaced"),)
    assert str(err) == "input validation failed: replaced"


_READS: dict[str, Any] = {
    "target": lambda err: err.target,
    "issues": lambda err: err.issues,
    "str": str,
    "repr": repr,
    "args": lambda err: err.args,
    "pickle": lambda err: pickle.loads(pickle.dumps(err)).args,
}


@pytest.mark.parametrize("first", list(_READS))
@pytest.mark.parametrize("kind", ["function", "adapter"])
def test_whatever_is_read_first_the_error_is_the_eager_one(kind: str, first: str) -> None:
    """The reject paths build the error without ``__init__``: every read still agrees."""
    if kind == "function":
        built: Any = tool(tag_items)
        value: Any = {"items": [0]}
        expected = built.input_schema.__standard__.validate(value).issues
    else:
        built = standard_tool(
            name="t",
            description="d",
            input_schema=_Counting(lambda err: (Issue("nope", ("a",)),)),
            execute=lambda v: v,
        )
        value = 5
        expected = (Issue("nope", ("a",)),)
    err = _raised(built.execute, value)
    assert err is not None
    # The deferred error is a subclass (``standard_tool._fast``); a pickled copy is the eager one.
    assert isinstance(err, StandardToolValidationError)
    assert isinstance(err, ValueError)
    assert type(pickle.loads(pickle.dumps(err))) is StandardToolValidationError
    eager = StandardToolValidationError("input", expected)
    assert _READS[first](err) == _READS[first](eager)
    assert_same_error(err, eager)


def test_the_target_of_a_raised_error_can_be_replaced() -> None:
    err = _raised(tool(tag_items).execute, {"items": [0]})
    assert err is not None
    err.target = "output"
    assert err.target == "output"
    assert str(err).startswith("output validation failed: ")


class _RaisingFast:
    """A third party's duck-typed fast path offering ``raising`` (no ``FastPath`` class)."""

    errors = _Rejected

    def __init__(self) -> None:
        self.targets: list[str] = []

    def convert(self, value: Any) -> Any:
        raise AssertionError("convert called: raising(target) should be used")

    def issues(self, err: _Rejected) -> Any:
        raise AssertionError("issues called: the raising convert reports its own error")

    def raising(self, target: Literal["input", "output"]) -> Any:
        self.targets.append(target)

        def convert(value: Any) -> Any:
            if value == "ok":
                return value
            raise StandardToolValidationError(target, (Issue(f"bad {target}"),))

        return convert


@pytest.mark.parametrize("is_async", [False, True])
def test_a_fast_path_that_raises_the_final_error_is_not_translated(is_async: bool) -> None:
    fast = _RaisingFast()
    props = _CountingProps(lambda err: ())
    props.fast_path = fast  # type: ignore[assignment]
    schema = _Counting(lambda err: ())
    schema.__standard__ = props

    def handler(value: Any) -> Any:
        return value

    async def ahandler(value: Any) -> Any:
        return value

    built = standard_tool(
        name="t",
        description="d",
        input_schema=schema,
        output_schema=schema,
        execute=ahandler if is_async else handler,
    )
    assert fast.targets == []  # asked on the first call, not at build

    def run(value: Any) -> Any:
        result = built.execute(value)
        return asyncio.run(result) if is_async else result

    assert run("ok") == "ok"
    assert sorted(fast.targets) == ["input", "output"]
    assert run("ok") == "ok"
    assert sorted(fast.targets) == ["input", "output"]  # once each
    err = _raised(run, "no")
    assert err is not None
    assert (err.target, str(err)) == ("input", "input validation failed: bad input")


def test_a_function_schema_as_an_output_schema_reports_the_output_target() -> None:
    schema = tool(tag_items).input_schema
    built = standard_tool(
        name="t", description="d", output_schema=schema, execute=lambda: {"items": [0]}
    )
    err = _raised(lambda _: built.execute(), None)
    assert err is not None
    assert err.target == "output"
    complete = schema.__standard__.validate({"items": [0]}).issues
    assert_same_error(err, StandardToolValidationError("output", complete))
