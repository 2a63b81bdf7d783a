"""Built-in tools: ordinary Standard Tools for common needs, safe with hostile input.

Layer: top (built-in tools; imports function tools, the core and shared helpers).

- ``calculator``: arithmetic and math functions, parsed (never ``eval``-ed) and bounded.
- ``current_time``: the time now in an IANA time zone.
- ``json_query``: one value out of a JSON document, by path.
- ``http_fetch``: GET a public URL; ``make_http_fetch`` builds one with other
  limits or an allow-list of internal hosts.

Each is built with ``@tool``, so it works alone, in a ``Toolkit`` and with every
provider converter. Input a tool cannot use raises ``StandardToolValidationError``
with the parameter's name as the path.
"""

from standard_tool.builtins._calculator import calculator
from standard_tool.builtins._http import (
    FetchResult,
    HTTPFetchError,
    http_fetch,
    make_http_fetch,
)
from standard_tool.builtins._json_query import json_query
from standard_tool.builtins._time import CurrentTime, current_time

__all__ = [
    "CurrentTime",
    "FetchResult",
    "HTTPFetchError",
    "calculator",
    "current_time",
    "http_fetch",
    "json_query",
    "make_http_fetch",
]
