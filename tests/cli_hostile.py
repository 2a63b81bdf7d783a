"""Hostile targets for the CLI tests: each must end in one line on stderr, never a hang."""

import itertools
import sys
import time
from typing import Any

from standard_tool import standard_tool, tool


@tool
def add(a: int, b: int = 0) -> int:
    """Add two integers.

    Args:
        a: the first number.
        b: the second number.
    """
    return a + b


@tool
def settings(json: str, help: str = "none") -> str:  # the names under test
    """Join two settings whose names are options of `call` itself.

    Args:
        json: a setting called json.
        help: a setting called help.
    """
    return f"{json}/{help}"


@tool
def huge() -> int:
    """Return an integer with more digits than int() turns into text."""
    return 10**5000


class Unprintable:
    def __str__(self) -> str:
        raise RuntimeError("no text for you")

    __repr__ = __str__


unprintable = standard_tool(
    name="unprintable",
    description="Return an object whose __str__ raises.",
    execute=lambda: Unprintable(),
)


@tool
def wait() -> str:
    """Say ready on stderr, then wait (for Ctrl-C)."""
    print("ready", file=sys.stderr, flush=True)
    while True:
        time.sleep(0.05)


# Discovery: an endless iterable of tools, and attributes that raise when read.
endless = itertools.repeat(add)
many = [
    standard_tool(name=f"tool_{i}", description="x" * 200, execute=lambda: None) for i in range(500)
]


def __getattr__(name: str) -> Any:
    if name == "raising":
        raise RuntimeError("reading this attribute fails")
    raise AttributeError(name)


class _FailingJsonSchema:
    def input(self, target: str) -> dict[str, Any]:
        raise RuntimeError("this schema cannot be exported")

    output = input


class _FailingSchema:
    """A Standard Schema whose JSON Schema export raises: a broken tool, not a bad TARGET."""

    class __standard__:  # the Standard Schema protocol's name
        version = 1
        vendor = "cli-tests"
        json_schema = _FailingJsonSchema()

        @staticmethod
        def validate(value: object) -> dict[str, object]:
            return {"value": value}


class BrokenSchemaTool:
    name = "broken_schema"
    title = None
    description = "A tool whose input schema cannot be exported."
    input_schema = _FailingSchema()
    output_schema = None

    def execute(self, input: object, meta: object = None) -> object:
        return input


broken_schema = BrokenSchemaTool()
