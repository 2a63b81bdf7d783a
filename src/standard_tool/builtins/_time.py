"""The ``current_time`` tool: the time now in an IANA time zone.

Layer: top (built-in tools; imports function tools, the core and shared helpers).

The zone name is checked against ``zoneinfo.available_timezones()`` (read once), so
only real zone names are opened: never a path, a directory or a data file that
happens to sit in the time zone folder. An unknown name is an input validation
error at ``timezone``, with a suggestion when only the letter case is wrong.
"""

from __future__ import annotations

import functools
import zoneinfo
from datetime import datetime, tzinfo
from datetime import timezone as dt_timezone

from typing_extensions import Annotated, TypedDict

from standard_tool._core import StandardToolError
from standard_tool._function import Param, tool
from standard_tool.builtins._errors import invalid, quoted

__all__ = ["CurrentTime", "current_time"]

_MAX_ZONE_CHARS = 64
# English names, whatever the process locale (strftime("%A") follows the locale).
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


class CurrentTime(TypedDict):
    """What ``current_time`` returns."""

    timezone: str
    """The IANA zone name used."""
    iso: str
    """The local time in ISO 8601 with its UTC offset, to the second."""
    unix: int
    """Seconds since 1970-01-01T00:00:00Z."""
    utc_offset: str
    """The zone's offset from UTC now, such as ``+01:00``."""
    weekday: str
    """The local day of the week, in English."""


@functools.lru_cache(maxsize=1)
def _zones() -> dict[str, str]:
    """Every zone name the system knows, keyed by its lower-case spelling."""
    return {name.lower(): name for name in zoneinfo.available_timezones()}


def _zone(name: str) -> tzinfo:
    if name == "UTC":  # needs no database
        return dt_timezone.utc
    zones = _zones()
    if not zones:
        raise StandardToolError(
            "current_time: no IANA time zone database was found; install the 'tzdata' package"
        )
    if name not in zones.values():
        known = zones.get(name.lower())
        hint = f"; did you mean {known!r}?" if known else ""
        raise invalid(
            "timezone",
            f"unknown time zone {quoted(name)}{hint} "
            "(use an IANA name such as 'Europe/Paris', 'America/New_York' or 'UTC')",
        )
    return zoneinfo.ZoneInfo(name)


def _offset(now: datetime) -> str:
    delta = now.utcoffset()
    seconds = int(delta.total_seconds()) if delta is not None else 0
    sign = "-" if seconds < 0 else "+"
    hours, rest = divmod(abs(seconds), 3600)
    minutes, seconds = divmod(rest, 60)
    text = f"{sign}{hours:02d}:{minutes:02d}"
    return f"{text}:{seconds:02d}" if seconds else text


@tool(name="current_time", title="Current time")
def current_time(
    timezone: Annotated[
        str,
        Param(
            "An IANA time zone name, such as 'Europe/Paris' or 'America/New_York'.",
            min_length=1,
            max_length=_MAX_ZONE_CHARS,
        ),
    ] = "UTC",
) -> CurrentTime:
    """Get the current date and time in a time zone (UTC by default)."""
    now = datetime.now(_zone(timezone)).replace(microsecond=0)
    return {
        "timezone": timezone,
        "iso": now.isoformat(),
        "unix": int(now.timestamp()),
        "utc_offset": _offset(now),
        "weekday": _WEEKDAYS[now.weekday()],
    }
