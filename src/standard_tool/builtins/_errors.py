"""How the built-in tools report a bad input: the core's validation error, with a path.

Layer: top (built-in tools; imports function tools, the core and shared helpers).

A problem only the tool itself can find (an expression that overflows, an unknown
time zone, a JSON path that leads nowhere, a URL that resolves to a private
address) is still the caller's input at fault, so it is raised as the same
``StandardToolValidationError`` the input schema raises, with the parameter's name
as the issue path. A model then sees one kind of message to correct itself from.
"""

from __future__ import annotations

from standard_tool._core import Issue, StandardToolValidationError
from standard_tool._shared import truncate_text

__all__ = ["MAX_MESSAGE", "invalid", "quoted"]

#: Longest message a built-in tool puts in one issue.
MAX_MESSAGE = 300
_MAX_QUOTED = 60


def quoted(text: str, limit: int = _MAX_QUOTED) -> str:
    """``repr(text)``, cut to ``limit`` characters: a user value inside a message."""
    return truncate_text(repr(text), limit)


def invalid(parameter: str, message: str) -> StandardToolValidationError:
    """Return an input ``StandardToolValidationError`` at ``parameter``, to raise."""
    issue = Issue(truncate_text(message, MAX_MESSAGE), (parameter,))
    return StandardToolValidationError("input", (issue,))
