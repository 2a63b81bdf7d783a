"""Typing promises of ``StandardToolV0``'s optional members (never executed).

A class written to the spec without ``title``, ``input_schema`` or ``output_schema`` is a
``StandardToolV0`` in both checkers; consumers read those members with ``optional_member``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from typing_extensions import assert_type

from standard_tool import (
    StandardToolV0,
    Toolkit,
    input_json_schema,
    optional_member,
    run_tool_sync,
    with_formatted_output,
)
from standard_tool.types import ErrorEnvelope


@dataclass
class Now:
    name: str
    description: str

    def execute(self, input: None = None, meta: Any = None) -> str:
        return "12:00"


now = Now(name="now", description="The time.")
_n: StandardToolV0[None, str] = now
_n2: StandardToolV0[None, str, str, Any] = now
assert_type(run_tool_sync(now), str)
assert_type(optional_member(now, "title"), Any)
assert_type(input_json_schema(now), dict[str, Any])
assert_type(run_tool_sync(with_formatted_output(now)), str | ErrorEnvelope)
Toolkit([now])


@dataclass(frozen=True)
class AsyncNow:
    name: str
    description: str

    async def execute(self, input: None = None, meta: Any = None) -> str:
        return "12:00"


async_now = AsyncNow(name="now", description="The time.")
_a: StandardToolV0[None, str] = async_now
assert_type(run_tool_sync(with_formatted_output(async_now)), str | ErrorEnvelope)


def title_of(tool: StandardToolV0) -> str | None:
    # The optional members are not attributes a type checker promises: read them as
    # consumers do.
    found: str | None = optional_member(tool, "title")
    return found
