"""Parsers of the string formats function tools convert: date-time, date, time, UUID, decimal.

Each returns the Python value, or ``None`` when the text is not one.

Layer: function tools (imports only standard_tool._core, standard_tool._shared and this
package; pydantic/msgspec lazily).
"""

from __future__ import annotations

import datetime as dt
import decimal
import re
import uuid
from collections.abc import Callable
from typing import Any

from standard_tool._shared import ecma_regex

__all__ = [
    "DECIMAL_PATTERN",
    "FORMATS",
    "UUID_PATTERN",
    "parse_date",
    "parse_datetime",
    "parse_time",
    "parse_uuid",
]

_RFC3339_DATE = r"(\d{4})-(\d{2})-(\d{2})"
_RFC3339_TIME = r"(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})"
_DATETIME_RE = re.compile(_RFC3339_DATE + "[Tt]" + _RFC3339_TIME, re.ASCII)
_TIME_RE = re.compile(_RFC3339_TIME, re.ASCII)
_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
#: The strings a ``Decimal`` parameter accepts (also emitted as the schema's ``pattern``).
DECIMAL_PATTERN = r"^-?(0|[1-9][0-9]*)(\.[0-9]+)?$"
_DECIMAL_RE = ecma_regex(DECIMAL_PATTERN)  # as the advertised pattern reads: no final newline


def _offset(text: str) -> dt.tzinfo:
    if text in ("Z", "z"):
        return dt.timezone.utc
    hours, minutes = int(text[1:3]), int(text[4:6])
    if hours > 23 or minutes > 59:
        raise ValueError(text)
    delta = dt.timedelta(hours=hours, minutes=minutes)
    return dt.timezone(-delta if text[0] == "-" else delta)


def _micro(frac: str | None) -> int:
    return int((frac or "0")[:6].ljust(6, "0"))


def parse_datetime(text: str) -> dt.datetime | None:
    """Parse an RFC 3339 date-time (offset required); ``None`` when it is not one."""
    m = _DATETIME_RE.fullmatch(text)
    if m is None:
        return None
    y, mo, d, h, mi, s, frac, off = m.groups()
    try:
        return dt.datetime(
            int(y), int(mo), int(d), int(h), int(mi), int(s), _micro(frac), _offset(off)
        )
    except ValueError:
        return None


def parse_time(text: str) -> dt.time | None:
    """Parse an RFC 3339 full-time (offset required); ``None`` when it is not one."""
    m = _TIME_RE.fullmatch(text)
    if m is None:
        return None
    h, mi, s, frac, off = m.groups()
    try:
        return dt.time(int(h), int(mi), int(s), _micro(frac), _offset(off))
    except ValueError:
        return None


def parse_date(text: str) -> dt.date | None:
    """Parse a ``YYYY-MM-DD`` date; ``None`` when it is not one."""
    if _DATE_RE.fullmatch(text) is None:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


#: The strings a ``UUID`` parameter accepts (also emitted as the schema's ``pattern``).
UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
_UUID_RE = ecma_regex(UUID_PATTERN)


def parse_uuid(text: str) -> uuid.UUID | None:
    """Parse a hyphenated UUID; ``None`` when it is not one."""
    if _UUID_RE.search(text) is None:
        return None
    try:
        value = uuid.UUID(text)
    except ValueError:
        return None
    if len(text) < 24 or any(text[i] != "-" for i in (8, 13, 18, 23)):
        return None
    return value


def _parse_decimal(text: str) -> decimal.Decimal | None:
    # ``search``, as JSON Schema's ``pattern`` does (``$`` also matches before a final newline).
    if _DECIMAL_RE.search(text) is None:
        return None
    return decimal.Decimal(text)


FORMATS: dict[type, tuple[str, str, Callable[[str], Any]]] = {
    dt.datetime: ("date-time", "an RFC 3339 date-time with offset", parse_datetime),
    dt.date: ("date", "a YYYY-MM-DD date", parse_date),
    dt.time: ("time", "an RFC 3339 time with offset", parse_time),
    uuid.UUID: ("uuid", "a UUID", parse_uuid),
    decimal.Decimal: ("decimal", "a decimal number string", _parse_decimal),
}
