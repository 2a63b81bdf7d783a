"""One hierarchy for everything the library raises on purpose (docs/errors.md).

Each error derives from ``StandardToolError`` and from the built-in exception a
caller would already catch (``ValueError``, ``TypeError``).
"""

from __future__ import annotations

import pytest

from standard_tool import (
    StandardToolError,
    StandardToolValidationError,
    ToolDefinitionError,
    standard_tool,
    tool,
)
from standard_tool.dialects import (
    SchemaConversionError,
    UnsupportedTargetError,
    convert,
    inline_refs,
)
from standard_tool.schemas import InvalidSchemaError, as_standard_schema


@pytest.mark.parametrize(
    ("error", "builtin"),
    [
        (StandardToolValidationError, ValueError),
        (ToolDefinitionError, TypeError),
        (SchemaConversionError, ValueError),
        (UnsupportedTargetError, ValueError),
        (InvalidSchemaError, ValueError),
    ],
)
def test_every_error_is_a_standard_tool_error_and_its_builtin(
    error: type[Exception], builtin: type[Exception]
) -> None:
    assert issubclass(error, StandardToolError)
    assert issubclass(error, builtin)


def test_both_builders_raise_the_same_definition_error() -> None:
    with pytest.raises(ToolDefinitionError, match="standard_tool: invalid definition"):
        standard_tool(name="", description="d", execute=lambda: 1)

    def unsupported(x: complex) -> int:
        """Take a value JSON cannot carry."""
        return 1

    with pytest.raises(ToolDefinitionError, match="complex"):
        tool(unsupported)


def test_a_definition_error_lists_every_problem_at_once() -> None:
    with pytest.raises(ToolDefinitionError) as info:
        standard_tool(name="", description=3, title=4, execute=lambda: 1)
    message = str(info.value)
    assert "name:" in message
    assert "description:" in message
    assert "title:" in message


def test_an_unsupported_target_is_named_with_the_supported_ones() -> None:
    with pytest.raises(UnsupportedTargetError, match="supported targets: 'draft-2020-12'"):
        convert({"type": "integer"}, "draft-04")
    schema = as_standard_schema({"type": "integer"})
    with pytest.raises(UnsupportedTargetError):
        schema.__standard__.json_schema.input(target="draft-04")


def test_a_recursive_schema_asked_without_refs_is_a_conversion_error() -> None:
    recursive = {"$defs": {"N": {"properties": {"n": {"$ref": "#/$defs/N"}}}}, "$ref": "#/$defs/N"}
    with pytest.raises(SchemaConversionError, match="recursive"):
        inline_refs(recursive)


def test_a_json_schema_its_metaschema_rejects_is_an_invalid_schema_error() -> None:
    with pytest.raises(InvalidSchemaError, match="not a valid"):
        as_standard_schema({"type": 3})


def test_one_pointer_reader_decodes_percent_escapes() -> None:
    """``#/$defs/a%20b`` names the key ``a b`` (a JSON Pointer in a URI fragment)."""
    schema = {
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/a%20b"}, "y": {"$ref": "#/$defs/c~1d"}},
        "$defs": {"a b": {"type": "integer"}, "c/d": {"type": "string"}},
    }
    inlined = inline_refs(schema)
    assert inlined["properties"] == {"x": {"type": "integer"}, "y": {"type": "string"}}
