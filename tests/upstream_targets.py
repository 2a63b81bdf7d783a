"""Tools written to the TypeScript proposal's current shape, as plain objects.

No ``title``, no ``formatted``; ``Ping`` takes no input, so it has no schema
attributes at all and its ``execute`` takes no argument. Nothing here comes from
this package but the JSON Schema adapter and the validation error, which any
Standard Schema library and any error could replace.

``python tests/upstream_targets.py`` serves them over stdio; ``make_app`` is the app
factory uvicorn imports.
"""

from __future__ import annotations

from typing import Any

from standard_tool import StandardToolValidationError
from standard_tool.schemas.jsonschema import from_json_schema


class Echo:
    """Echo a text, as the proposal's README tool would be written by hand."""

    name = "echo"
    description = "Echo a text back, repeated."
    input_schema = from_json_schema(
        {
            "type": "object",
            "properties": {
                "text": {"type": "string", "description": "What to echo."},
                "times": {"type": "integer", "minimum": 1, "default": 1},
            },
            "required": ["text"],
            "additionalProperties": False,
        }
    )
    output_schema = from_json_schema(
        {
            "type": "object",
            "properties": {"echo": {"type": "string"}},
            "required": ["echo"],
            "additionalProperties": False,
        }
    )

    def execute(self, input: Any) -> dict[str, str]:
        result = self.input_schema.__standard__.validate(input)
        if result.issues is not None:
            raise StandardToolValidationError("input", result.issues)
        value = result.value
        return {"echo": " ".join([value["text"]] * value.get("times", 1))}


class Ping:
    """A tool that takes no input: no schema attributes, and ``execute()``."""

    name = "ping"
    description = "Answer pong."

    def execute(self) -> str:
        return "pong"


echo = Echo()
ping = Ping()
tools = [echo, ping]


def make_app() -> object:
    """The app factory for ``uvicorn --factory upstream_targets:make_app``."""
    from standard_tool.mcp import http_app

    return http_app(tools, stateless=True, json_response=True)


if __name__ == "__main__":
    from standard_tool.mcp import serve

    serve(tools)
