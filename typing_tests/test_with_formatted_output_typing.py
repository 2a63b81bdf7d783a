"""Typing promises of ``with_formatted_output`` (the proposal's ``withFormattedOutput``).

Never executed. The formatted output is inferred from the format (awaited when it
is async), the tool's input, output and meta are kept, and only a neutral tool is
accepted: re-formatting a formatted tool is a type error (each ignore must be used).
"""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict, assert_type

import standard_tool as standard_tool_package
from standard_tool import StandardToolV0, run_tool_sync, standard_tool, with_formatted_output
from standard_tool.types import ErrorEnvelope


class Temp(TypedDict):
    temp_c: float


class Locale(TypedDict):
    locale: str


def reading(city: str, meta: Locale) -> Temp:
    return {"temp_c": 21.0}


weather = standard_tool(name="weather", description="d", execute=reading)


def to_text(result: Temp | Exception) -> str:
    return str(result)


async def to_status(result: Temp | Exception) -> dict[str, str]:
    return {"status": "ok"}


enveloped = with_formatted_output(weather)
assert_type(run_tool_sync(enveloped, "Oslo"), Temp | ErrorEnvelope)

as_text = with_formatted_output(weather, to_text)
assert_type(run_tool_sync(as_text, "Oslo"), str)

as_status = with_formatted_output(weather, to_status)
assert_type(run_tool_sync(as_status, "Oslo"), dict[str, str])

# The format receives the output or an exception.
with_formatted_output(weather, lambda result: result)

# Only neutral tools: a formatted tool cannot be formatted again (its format would
# receive the formatted output, which a format for the tool's output does not take).
with_formatted_output(as_text, to_text)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
with_formatted_output(enveloped, to_text)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
# Also the bare form (TypeScript's NoInfer case).
with_formatted_output(enveloped)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
with_formatted_output(as_status)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]

# Through the package's module, as by name.
standard_tool_package.with_formatted_output(as_text)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]

# Where one checker does not catch it (docs/contract.md, section 4, lists these): a
# handler without a typed meta gives a tool whose meta is Any, and where another overload
# also accepts the call mypy then picks none; pyright reports the deprecated overload
# only under the function's names.


def plain(city: str) -> Temp:
    return {"temp_c": 21.0}


plain_formatted = with_formatted_output(standard_tool(name="p", description="d", execute=plain))
with_formatted_output(plain_formatted)  # pyright: ignore[reportDeprecated]
with_formatted_output(plain_formatted, str)  # pyright: ignore[reportDeprecated]
# A format that cannot take the formatted output leaves mypy only the deprecated overload.
with_formatted_output(plain_formatted, to_text)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
wrap = with_formatted_output
wrap(as_text, to_text)  # type: ignore[deprecated]

# Heterogeneous tools, formatted or not, fit the bare protocol.
tools: list[StandardToolV0] = [weather, enveloped, as_text, as_status]
_: Any = tools
