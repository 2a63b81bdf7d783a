"""standard_tool.schemas.as_standard_schema: the adapter for any accepted object."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from typing import Annotated, Any

import msgspec
import pytest
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from standard_tool import FailureResult, Issue, SuccessResult
from standard_tool.schemas import as_standard_schema
from standard_tool.schemas.jsonschema import JSONSchema
from standard_tool.schemas.msgspec import MsgspecSchema
from standard_tool.schemas.pydantic import PydanticSchema


class Model(BaseModel):
    a: int


class Struct(msgspec.Struct):
    a: int


class Movie(TypedDict):
    title: str


@dataclasses.dataclass
class Pair:
    left: int


class Custom:
    class _Props:
        version = 1
        vendor = "custom"

        def validate(self, value: Any) -> Any:
            return SuccessResult(value)

        class json_schema:
            @staticmethod
            def input(*, target: str, library_options: Any = None) -> dict[str, Any]:
                return {}

            output = input

    __standard__ = _Props()


@pytest.mark.parametrize(
    ("obj", "adapter"),
    [
        (Model, PydanticSchema),
        (Struct, MsgspecSchema),
        ({"type": "integer"}, JSONSchema),
        (list[int], PydanticSchema),
        (Movie, PydanticSchema),
        (Pair, PydanticSchema),
        (Annotated[int, Field(gt=0)], PydanticSchema),
        (int | None, PydanticSchema),
        (int, PydanticSchema),
    ],
)
def test_each_kind_of_object_gets_its_adapter(obj: Any, adapter: type) -> None:
    assert isinstance(as_standard_schema(obj), adapter)


def test_a_conforming_schema_is_returned_as_is() -> None:
    custom = Custom()
    assert as_standard_schema(custom) is custom


@pytest.mark.parametrize("obj", [42, "int", None, [1, 2], lambda x: x, Model(a=1)])
def test_anything_else_is_a_type_error_naming_what_was_passed(obj: Any) -> None:
    with pytest.raises(
        TypeError, match=r"^as_standard_schema: expected a pydantic model class"
    ) as info:
        as_standard_schema(obj)
    assert type(obj).__qualname__ in str(info.value)


def test_a_long_value_is_bounded_in_the_message() -> None:
    with pytest.raises(TypeError) as info:
        as_standard_schema("x" * 10_000)
    assert len(str(info.value)) < 300


def test_results_are_the_core_result_types() -> None:
    for obj in (Model, Struct, {"type": "object", "properties": {"a": {"type": "integer"}}}):
        validate = as_standard_schema(obj).__standard__.validate
        assert isinstance(validate({"a": 1}), SuccessResult)
        failure = validate({"a": "x"})
        assert isinstance(failure, FailureResult)
        assert all(isinstance(i, Issue) and i.path == ("a",) for i in failure.issues)


def _run(code: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout.strip()


def test_importing_the_package_imports_no_schema_library() -> None:
    code = (
        "import sys, standard_tool.schemas\n"
        "print(sorted(m for m in ('pydantic', 'msgspec', 'jsonschema') if m in sys.modules))"
    )
    assert _run(code) == "[]"


def test_a_plain_type_uses_msgspec_when_pydantic_is_missing() -> None:
    code = (
        "import sys\n"
        "sys.modules['pydantic'] = None\n"
        "from standard_tool.schemas import as_standard_schema\n"
        "print(type(as_standard_schema(list[int])).__name__)"
    )
    assert _run(code) == "MsgspecSchema"


def test_a_missing_library_names_the_extra_to_install() -> None:
    code = (
        "import sys\n"
        "sys.modules['pydantic'] = None\n"
        "sys.modules['msgspec'] = None\n"
        "sys.modules['jsonschema'] = None\n"
        "from standard_tool.schemas import as_standard_schema\n"
        "for obj in (list[int], {'type': 'integer'}):\n"
        "    try:\n"
        "        as_standard_schema(obj)\n"
        "    except ImportError as err:\n"
        "        print(err)\n"
    )
    out = _run(code).splitlines()
    assert "standard-tool[pydantic]" in out[0]
    assert "standard-tool[msgspec]" in out[0]
    assert "install the 'standard-tool[jsonschema]' extra" in out[1]
