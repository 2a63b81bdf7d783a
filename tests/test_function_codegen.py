"""@tool's generated validators: values enter as constants, the source is inspectable."""

from __future__ import annotations

import dataclasses
import enum
import inspect
import linecache
import traceback
from typing import Any, Literal

import pytest
from typing_extensions import Annotated, TypedDict

from standard_tool import Param, StandardToolValidationError, ToolDefinitionError, tool


def errors(fn: Any, value: Any) -> str:
    with pytest.raises(StandardToolValidationError) as info:
        fn.execute(value)
    return str(info.value)


def test_infinite_bounds_are_constants_and_left_out_of_the_schema() -> None:
    @tool
    def f(
        x: Annotated[float, Param(lt=float("inf"))],
        y: Annotated[float, Param(ge=-float("inf"))] = 0.0,
    ) -> float:
        return x + y

    assert f.execute({"x": 1e308, "y": -1e308}) == 0.0
    assert f.execute({"x": 2}) == 2
    schema = f.input_schema.__standard__.json_schema.input(target="draft-2020-12")
    assert schema["properties"]["x"] == {"type": "number"}
    assert "minimum" not in schema["properties"]["y"]


def test_a_bound_no_json_number_meets_is_refused() -> None:
    with pytest.raises(ToolDefinitionError, match="gt=inf leaves no number to accept"):

        @tool
        def f(x: Annotated[float, Param(gt=float("inf"))]) -> None: ...


@pytest.mark.parametrize("key", ["gt", "ge", "lt", "le", "multiple_of"])
def test_a_nan_bound_is_refused_at_definition(key: str) -> None:
    def f(x: float) -> None: ...

    f.__annotations__ = {"x": Annotated[float, Param(**{key: float("nan")})], "return": None}
    with pytest.raises(ToolDefinitionError, match=f"parameter 'x': {key} is NaN"):
        tool(f)


class Shade(enum.Enum):
    DARK = 'it\'s "dark"\n'
    LIGHT = "light"


class Box(TypedDict):
    quoted: Literal["a'b", 'c"d', "e\nf"]
    big: Annotated[int, Param(le=10**40)]
    shade: Shade


def test_values_reach_the_generated_code_unchanged() -> None:
    @tool
    def f(
        boxes: list[Box],
        code: Annotated[str, Param(pattern=r"^[a-z]+\d{2}$", max_length=10)] = "ab12",
    ) -> str:
        return f"{len(boxes)}:{boxes[0]['shade'].name if boxes else ''}:{code}"

    box = {"quoted": "e\nf", "big": 10**40, "shade": 'it\'s "dark"\n'}
    assert f.execute({"boxes": [box, {**box, "quoted": "a'b"}], "code": "xy99"}) == "2:DARK:xy99"
    assert "boxes.0.big: must be less than or equal to" in errors(
        f, {"boxes": [{**box, "big": 10**40 + 1}]}
    )
    assert "boxes.1.quoted: expected one of" in errors(f, {"boxes": [box, {**box, "quoted": "x"}]})
    assert "code: must match the pattern" in errors(f, {"boxes": [], "code": "AB12"})


class Pair(TypedDict):
    a: int
    b: int


def test_generated_source_is_registered_in_linecache_and_inspectable() -> None:
    @tool
    def f(pairs: list[Pair], note: str | None = None) -> int:
        return len(pairs)

    validate = f.input_schema.__standard__.validate
    assert validate({"pairs": [{"a": 1, "b": 2}]}).value["pairs"] == [{"a": 1, "b": 2}]
    # A long validator is a stub handing over to the code compiled on its first
    # call (``IMPL``); a short one is that code itself.
    assert "def validate(value" in inspect.getsource(validate)
    impl = validate.__globals__.get("IMPL", validate)
    filename = impl.__code__.co_filename
    assert filename.startswith("<standard_tool generated f input validate")
    source = "".join(linecache.getlines(filename))
    assert "def validate(value" in source
    assert inspect.getsource(impl) in source
    # Short property names are written as literals (their repr); the checks are bound.
    assert "['a']" in source
    assert "['b']" in source


_Weird = TypedDict(
    "_Weird",
    {'it\'s "quoted"\\\n': int, "k" * 150: str, "\ud800": Annotated[int, Param(gt=-5)]},
)


def test_any_key_is_written_safely_and_long_ones_are_bound_by_name() -> None:
    @tool
    def f(w: _Weird) -> int:
        return len(w)

    good = {"w": {'it\'s "quoted"\\\n': 1, "k" * 150: "x", "\ud800": -4}}
    assert f.execute(good) == 3
    bad = {"w": {'it\'s "quoted"\\\n': 1, "k" * 150: "x", "\ud800": -5}}
    with pytest.raises(StandardToolValidationError) as raised:
        f.execute(bad)
    assert [(i.message, i.path) for i in raised.value.issues] == [
        ("must be greater than -5, got -5", ("w", "\ud800"))
    ]
    source = "".join(linecache.getlines(f.execute.__code__.co_filename))
    assert "k" * 150 not in source  # too long for a literal: bound by name
    assert "> (-5)" in source  # a negative number is parenthesised


class Boom(Exception):
    """Not a TypeError or ValueError: nothing on the way catches it."""


@dataclasses.dataclass
class Exploding:
    x: int

    def __post_init__(self) -> None:
        if self.x == 13:
            raise Boom


def test_a_traceback_through_generated_code_shows_its_lines() -> None:
    @tool
    def f(items: list[Exploding], n: int) -> None: ...

    validate = f.input_schema.__standard__.validate
    validate({"items": [], "n": 1})
    with pytest.raises(Boom) as info:
        validate({"items": [{"x": 13}], "n": 1})
    frames = traceback.extract_tb(info.value.__traceback__)
    generated = [fr for fr in frames if fr.filename.startswith("<standard_tool generated")]
    assert generated
    assert all(fr.line for fr in generated)


class Report(TypedDict):
    pairs: list[Pair]
    tags: frozenset[str]
    note: str | None


def test_return_values_are_checked_by_generated_code_and_passed_through() -> None:
    good: Report = {"pairs": [{"a": 1, "b": 2}], "tags": frozenset({"x"}), "note": None}

    @tool
    def f(bad: bool) -> Report:
        if bad:
            return {"pairs": [{"a": 1, "b": "2"}], "tags": frozenset(), "note": 3}  # type: ignore[typeddict-item]
        return good

    props = f.output_schema.__standard__
    assert props.fast_path.convert(good) is good
    assert props.validate(good).value is good
    assert f.execute({"bad": False}) is good
    with pytest.raises(StandardToolValidationError) as info:
        f.execute({"bad": True})
    assert info.value.target == "output"
    assert "pairs.0.b: expected integer" in str(info.value)
    assert "note: expected string or null, got integer 3" in str(info.value)


def test_one_test_and_longer_validators_both_show_their_generated_source() -> None:
    @tool
    def double(pairs: list[Pair], note: str | None = None) -> int:
        return 2 * len(pairs)

    one_test = double.output_schema.__standard__.validate  # ``int``: compiled at once
    longer = double.input_schema.__standard__.validate  # compiled on its first call
    assert one_test(3).value == 3
    assert longer({"pairs": []}).issues is None
    assert "IMPL" not in one_test.__globals__
    for validate, what in ((one_test, "output"), (longer, "input")):
        impl = validate.__globals__.get("IMPL", validate)
        assert impl.__code__.co_filename.startswith(f"<standard_tool generated double {what}")
        assert "def validate(value" in inspect.getsource(impl)
