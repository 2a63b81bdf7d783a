"""CONTRACT.md section 3: the ``standard_tool()`` builder, sync and async."""

from __future__ import annotations

import asyncio
import functools
import inspect
import pickle
from typing import Any

import pytest

from standard_tool import (
    AsyncTool,
    FailureResult,
    FastPath,
    Issue,
    PathSegment,
    StandardToolValidationError,
    SuccessResult,
    Tool,
    run_tool,
    standard_tool,
)
from tests.core_schemas import (
    ASYNC_INT,
    COERCING_INT,
    EMPTY_ISSUES,
    INT,
    NESTED_PATH,
    POINT,
    PlainFailure,
    PlainIssue,
    Point,
    Schema,
    SneakySchema,
)

MODES = ["sync", "async"]


def make_handler(mode: str, fn: Any) -> Any:
    """The same handler body, as a plain function or a coroutine function."""
    if mode == "sync":
        return fn

    @functools.wraps(fn)  # keeps the signature, so the arity is the same
    async def handler(*args: Any) -> Any:
        await asyncio.sleep(0)
        return fn(*args)

    return handler


async def call(tool: Any, *args: Any) -> Any:
    return await run_tool(tool, *args)


# 1. validated input in, validated output out ------------------------------------------


@pytest.mark.parametrize("mode", MODES)
async def test_handler_receives_the_validated_value_not_the_raw_one(mode: str) -> None:
    seen: list[Any] = []
    tool = standard_tool(
        name="double",
        description="Double a number.",
        input_schema=COERCING_INT,
        execute=make_handler(mode, lambda n: seen.append(n) or n * 2),
    )
    assert await call(tool, "21") == 42
    assert seen == [21]


@pytest.mark.parametrize("mode", MODES)
async def test_output_is_validated_and_the_validated_value_returned(mode: str) -> None:
    tool = standard_tool(
        name="echo",
        description="Echo.",
        output_schema=COERCING_INT,
        execute=make_handler(mode, lambda value: value),
    )
    assert await call(tool, "7") == 7


@pytest.mark.parametrize("mode", MODES)
async def test_input_schema_builds_domain_objects(mode: str) -> None:
    tool = standard_tool(
        name="norm",
        description="Manhattan norm.",
        input_schema=POINT,
        execute=make_handler(mode, lambda p: abs(p.x) + abs(p.y)),
    )
    assert await call(tool, {"x": 3, "y": -4}) == 7


# 2. validation errors ------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
async def test_invalid_input_raises_with_target_issues_and_message(mode: str) -> None:
    calls: list[Any] = []
    tool = standard_tool(
        name="norm",
        description="d",
        input_schema=POINT,
        execute=make_handler(mode, calls.append),
    )
    with pytest.raises(StandardToolValidationError) as info:
        await call(tool, {"x": "a", "y": None})
    err = info.value
    assert isinstance(err, ValueError)
    assert err.target == "input"
    assert isinstance(err.issues, tuple)
    assert len(err.issues) == 2
    assert str(err) == "input validation failed: x: expected an integer; y: expected an integer"
    assert calls == []


@pytest.mark.parametrize("mode", MODES)
async def test_invalid_output_raises_with_output_target(mode: str) -> None:
    tool = standard_tool(
        name="bad", description="d", output_schema=INT, execute=make_handler(mode, lambda: "x")
    )
    with pytest.raises(StandardToolValidationError, match=r"^output validation failed: ") as info:
        await call(tool)
    assert info.value.target == "output"


def test_issue_paths_join_ints_and_segment_objects_with_dots() -> None:
    tool = standard_tool(name="t", description="d", input_schema=NESTED_PATH, execute=lambda: 1)
    with pytest.raises(StandardToolValidationError) as info:
        tool.execute({})
    assert str(info.value) == "input validation failed: items.3.qty: too small; no path here"


def test_an_empty_issues_tuple_is_still_a_failure() -> None:
    tool = standard_tool(name="t", description="d", input_schema=EMPTY_ISSUES, execute=lambda: 1)
    with pytest.raises(StandardToolValidationError) as info:
        tool.execute(1)
    assert info.value.issues == ()
    assert str(info.value) == "input validation failed: "


def test_plain_result_and_issue_objects_conform() -> None:
    schema = Schema(lambda v: PlainFailure([PlainIssue("nope", ["a", 0])]), {"type": "object"})
    tool = standard_tool(name="t", description="d", input_schema=schema, execute=lambda: 1)
    with pytest.raises(StandardToolValidationError, match=r"^input validation failed: a\.0: nope$"):
        tool.execute({})


def test_validation_error_pickles_intact() -> None:
    err = StandardToolValidationError("output", (Issue("bad", ("a", 1, PathSegment("b"))),))
    assert err.args == ("output", err.issues)
    clone = pickle.loads(pickle.dumps(err))
    assert type(clone) is StandardToolValidationError
    assert clone.target == "output"
    assert clone.issues == err.issues
    assert str(clone) == str(err) == "output validation failed: a.1.b: bad"


def test_validation_error_message_is_bounded() -> None:
    huge = "x" * 1_000_000
    issues = [Issue(huge, (huge,)) for _ in range(100)]
    err = StandardToolValidationError("input", issues)
    assert len(str(err)) < 20_000
    assert str(err).endswith("; and 80 more issues")
    assert len(err.issues) == 100


# 3. handler errors propagate unchanged -------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
async def test_handler_exceptions_propagate_unwrapped(mode: str) -> None:
    boom = KeyError("boom")

    def fail(value: Any) -> Any:
        raise boom

    tool = standard_tool(
        name="t", description="d", input_schema=INT, execute=make_handler(mode, fail)
    )
    with pytest.raises(KeyError) as info:
        await call(tool, 1)
    assert info.value is boom


# 4. handler arity and meta ------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
async def test_handler_may_take_nothing_input_or_input_and_meta(mode: str) -> None:
    none = standard_tool(name="a", description="d", execute=make_handler(mode, lambda: "none"))
    one = standard_tool(name="b", description="d", execute=make_handler(mode, lambda i: ("one", i)))
    two = standard_tool(
        name="c", description="d", execute=make_handler(mode, lambda i, m: ("two", i, m))
    )
    assert await call(none, 1, "m") == "none"
    assert await call(one, 1, "m") == ("one", 1)
    assert await call(two, 1, "m") == ("two", 1, "m")


def test_arity_is_decided_once_from_the_signature() -> None:
    def defaults(value: Any, meta: Any = "default-meta", extra: int = 0) -> Any:
        return (value, meta, extra)

    def star(*args: Any) -> Any:
        return args

    tool = standard_tool(name="a", description="d", execute=defaults)
    assert tool.execute(1) == (1, None, 0)
    assert standard_tool(name="b", description="d", execute=star).execute(1, 2) == (1, 2)


def test_meta_is_passed_verbatim_and_never_validated() -> None:
    sentinel = object()
    tool = standard_tool(name="a", description="d", input_schema=INT, execute=lambda i, m: m)
    assert tool.execute(1, sentinel) is sentinel
    assert "meta" not in str(tool.input_schema.__standard__.json_schema.input(target="draft-07"))


@pytest.mark.parametrize("mode", MODES)
async def test_execute_without_input_passes_none_through_validation(mode: str) -> None:
    seen: list[Any] = []
    tool = standard_tool(name="a", description="d", execute=make_handler(mode, seen.append))
    await call(tool)
    assert seen == [None]
    checked = standard_tool(name="b", description="d", input_schema=INT, execute=lambda: 1)
    with pytest.raises(StandardToolValidationError, match="expected an integer"):
        checked.execute()


# 5. sync and async ---------------------------------------------------------------------


def test_sync_handler_and_schemas_give_a_plain_synchronous_execute() -> None:
    tool = standard_tool(
        name="a", description="d", input_schema=INT, output_schema=INT, execute=lambda i: i
    )
    assert isinstance(tool, Tool)
    assert not inspect.iscoroutinefunction(tool.execute)
    assert tool.execute(3) == 3


async def test_async_handler_gives_a_coroutine_function() -> None:
    async def handler(i: int) -> int:
        return i

    tool = standard_tool(name="a", description="d", input_schema=INT, execute=handler)
    assert isinstance(tool, AsyncTool)
    assert inspect.iscoroutinefunction(tool.execute)
    assert await tool.execute(3) == 3


@pytest.mark.parametrize("role", ["input_schema", "output_schema"])
async def test_async_validate_makes_execute_async(role: str) -> None:
    tool = standard_tool(name="a", description="d", execute=lambda i: i, **{role: ASYNC_INT})
    assert inspect.iscoroutinefunction(tool.execute)
    assert await tool.execute(5) == 5
    with pytest.raises(StandardToolValidationError, match="expected an integer"):
        await tool.execute("x")


def test_async_callable_object_handler_is_detected() -> None:
    class Handler:
        async def __call__(self, value: Any) -> Any:
            return value

    tool = standard_tool(name="a", description="d", execute=Handler())
    assert inspect.iscoroutinefunction(tool.execute)
    assert asyncio.run(tool.execute(1)) == 1


def test_sync_tool_whose_validate_returns_an_awaitable_says_to_make_the_handler_async() -> None:
    tool = standard_tool(name="a", description="d", input_schema=SneakySchema(), execute=lambda: 1)
    with pytest.raises(TypeError, match="make the handler async"):
        tool.execute(1)


async def test_async_tool_accepts_a_sync_looking_validate_that_returns_an_awaitable() -> None:
    async def handler(i: int) -> int:
        return i + 1

    tool = standard_tool(name="a", description="d", input_schema=SneakySchema(), execute=handler)
    assert await tool.execute(1) == 2


def test_validate_returning_a_non_result_is_a_clear_type_error() -> None:
    tool = standard_tool(
        name="a", description="d", input_schema=Schema(lambda v: 42, {}), execute=lambda: 1
    )
    with pytest.raises(TypeError, match=r"not a result with \.value and \.issues"):
        tool.execute(1)


# definition problems -------------------------------------------------------------------


def test_definition_problems_are_collected_and_raised_together() -> None:
    class NotASchema:
        pass

    with pytest.raises(TypeError) as info:
        standard_tool(
            name="",
            description=3,  # type: ignore[arg-type]
            input_schema=NotASchema(),
            execute=lambda a, b, c: None,
        )
    message = str(info.value)
    assert message.startswith("standard_tool: invalid definition: ")
    for part in ("name:", "description:", "input_schema:", "execute:"):
        assert part in message


def test_a_schema_without_json_schema_is_refused() -> None:
    class ValidateOnly:
        class __standard__:
            version = 1
            vendor = "x"

            @staticmethod
            def validate(value: Any) -> Any:
                return None

    with pytest.raises(TypeError, match=r"has no __standard__\.json_schema"):
        standard_tool(name="a", description="d", input_schema=ValidateOnly(), execute=lambda: 1)


def test_execute_must_be_callable() -> None:
    with pytest.raises(TypeError, match="execute must be callable"):
        standard_tool(name="a", description="d", execute=42)  # type: ignore[call-overload]


# the decorator form ---------------------------------------------------------------------


def test_decorator_defaults_name_and_cleaned_docstring() -> None:
    @standard_tool(input_schema=INT)
    def square(n: int) -> int:
        """Square a number.

        Details follow.
            Relative indentation is kept.
        """
        return n * n

    assert square.name == "square"
    assert square.description == (
        "Square a number.\n\nDetails follow.\n    Relative indentation is kept."
    )
    assert square.execute(4) == 16


def test_decorator_with_explicit_name_and_async_handler() -> None:
    @standard_tool(name="get_x", description="Read x.", input_schema=POINT)
    async def handler(p: Point) -> int:
        return p.x

    assert handler.name == "get_x"
    assert asyncio.run(handler.execute({"x": 1, "y": 2})) == 1


def test_decorator_without_docstring_or_description_is_refused() -> None:
    with pytest.raises(TypeError, match="description: required"):

        @standard_tool()
        def nothing() -> None:
            pass


# 8. immutable, readable repr -----------------------------------------------------------


def test_built_tool_is_immutable_and_title_defaults_to_none() -> None:
    tool = standard_tool(name="a", description="d", execute=lambda: 1)
    assert tool.title is None
    with pytest.raises(AttributeError, match="immutable"):
        tool.name = "b"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="immutable"):
        del tool.description  # type: ignore[misc]
    with pytest.raises(AttributeError):
        tool.extra = 1  # type: ignore[attr-defined]


def test_repr_is_readable_and_bounded() -> None:
    tool = standard_tool(
        name="get_weather", title="Weather", description="w" * 500, input_schema=INT, execute=len
    )
    text = repr(tool)
    assert text.startswith("Tool(name='get_weather', title='Weather', description='www")
    assert "input_schema=Schema" in text
    assert len(text) < 200
    assert "formatted=True" in repr(tool.formatted())


# the optional raising fast path ---------------------------------------------------------


class _Invalid(Exception):
    def __init__(self, where: str) -> None:
        super().__init__(where)
        self.where = where


def _strict_int(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise _Invalid("n")


class FastProps:
    version = 1
    vendor = "tests-fast"

    def __init__(self) -> None:
        self.validate_calls = 0
        self.fast_path = FastPath(
            convert=_strict_int,
            errors=_Invalid,
            issues=lambda err: (Issue("expected an integer", (err.where,)),),
        )
        self.json_schema = INT.__standard__.json_schema

    def validate(self, value: Any) -> Any:
        self.validate_calls += 1
        try:
            return SuccessResult(_strict_int(value))
        except _Invalid as err:
            return FailureResult(tuple(self.fast_path.issues(err)))


class FastSchema:
    def __init__(self) -> None:
        self.__standard__ = FastProps()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("role", ["input_schema", "output_schema"])
async def test_builder_prefers_the_fast_path_and_reports_the_same_issues(
    mode: str, role: str
) -> None:
    schema = FastSchema()
    tool = standard_tool(
        name="t", description="d", execute=make_handler(mode, lambda v: v), **{role: schema}
    )
    assert await call(tool, 5) == 5
    with pytest.raises(StandardToolValidationError) as info:
        await call(tool, "5")
    target = role.split("_")[0]
    assert info.value.target == target
    assert str(info.value) == f"{target} validation failed: n: expected an integer"
    assert isinstance(info.value.__cause__, _Invalid)
    assert schema.__standard__.validate_calls == 0


def test_fast_input_and_slow_output_schemas_combine() -> None:
    tool = standard_tool(
        name="t",
        description="d",
        input_schema=FastSchema(),
        output_schema=COERCING_INT,
        execute=lambda n: str(n),
    )
    assert tool.execute(7) == 7
    with pytest.raises(StandardToolValidationError, match=r"^input validation failed"):
        tool.execute(None)


def test_a_fast_path_of_another_type_is_ignored() -> None:
    schema = FastSchema()
    schema.__standard__.fast_path = object()  # type: ignore[assignment]
    tool = standard_tool(name="t", description="d", input_schema=schema, execute=lambda v: v)
    assert tool.execute(3) == 3
    assert schema.__standard__.validate_calls == 1


def test_validation_error_reads_well_in_repr_and_tracebacks() -> None:
    import traceback

    err = StandardToolValidationError("input", [Issue("expected an integer", ("n",))])
    assert err.issues == (Issue("expected an integer", ("n",)),)
    assert err.args == ("input", err.issues)
    assert repr(err) == (
        "StandardToolValidationError('input validation failed: n: expected an integer')"
    )
    assert traceback.format_exception_only(type(err), err)[-1] == (
        "standard_tool._core.StandardToolValidationError: "
        "input validation failed: n: expected an integer\n"
    )


def test_a_required_keyword_only_parameter_is_refused() -> None:
    def handler(value: Any, *, strict: bool) -> Any:
        return value

    with pytest.raises(TypeError, match="keyword-only parameter 'strict' has no default"):
        standard_tool(name="a", description="d", execute=handler)


@pytest.mark.parametrize("wrap", [False, True], ids=["plain function", "functools.wraps"])
def test_what_a_handler_is_passed_is_read_alike_from_code_and_from_its_signature(
    wrap: bool,
) -> None:
    """Plain functions are read from their code object, others by ``inspect.signature``."""
    import functools

    def as_handler(fn: Any) -> Any:
        if not wrap:
            return fn

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            return fn(*args, **kwargs)

        return wrapper

    def none() -> str:
        return "none"

    def one(value: Any, flag: bool = True, *, also: int = 1) -> Any:
        return ("one", value)

    def two(value: Any, meta: Any, extra: int = 0) -> Any:
        return ("two", value, meta)

    def varargs(*args: Any) -> Any:
        return ("var", args)

    cases = (
        (none, "none"),
        (one, ("one", 5)),
        (two, ("two", 5, "m")),
        (varargs, ("var", (5, "m"))),
    )
    for fn, expected in cases:
        built = standard_tool(name="a", description="d", execute=as_handler(fn))
        assert built.execute(5, "m") == expected

    def three(a: Any, b: Any, c: Any) -> Any:
        return a

    def keyword(value: Any, *, strict: bool) -> Any:
        return value

    with pytest.raises(TypeError, match="requires 3 positional arguments"):
        standard_tool(name="a", description="d", execute=as_handler(three))
    with pytest.raises(TypeError, match="keyword-only parameter 'strict' has no default"):
        standard_tool(name="a", description="d", execute=as_handler(keyword))


def test_a_handler_without_a_readable_signature_gets_input_and_meta() -> None:
    class Opaque:
        @property
        def __signature__(self) -> Any:
            raise ValueError("no signature")

        def __call__(self, *args: Any) -> Any:
            return args

    tool = standard_tool(name="a", description="d", execute=Opaque())
    assert tool.execute(1, "m") == (1, "m")


def test_a_lambda_needs_a_name_and_title_must_be_a_string() -> None:
    with pytest.raises(TypeError) as info:
        standard_tool(description="d", title=3, execute=lambda: 1)  # type: ignore[call-overload]
    assert "name: required (the handler has no usable __name__)" in str(info.value)
    assert "title: must be a string or None, got int" in str(info.value)


@pytest.mark.parametrize("mode", MODES)
async def test_an_output_validate_returning_a_non_result_is_a_clear_type_error(mode: str) -> None:
    tool = standard_tool(
        name="a",
        description="d",
        output_schema=Schema(lambda v: 42, {}),
        execute=make_handler(mode, lambda: 1),
    )
    with pytest.raises(TypeError, match="output schema's validate returned int, not a result"):
        await call(tool)
