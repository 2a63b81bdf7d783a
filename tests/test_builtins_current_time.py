"""The current_time built-in: now in an IANA zone; an unknown zone is a validation error."""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

import pytest

from standard_tool import StandardToolValidationError
from standard_tool.builtins import current_time

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def refused(payload: Any) -> StandardToolValidationError:
    with pytest.raises(StandardToolValidationError) as info:
        current_time.execute(payload)
    err = info.value
    assert err.target == "input"
    assert [tuple(i.path or ()) for i in err.issues] == [("timezone",)]
    return err


def test_defaults_to_utc() -> None:
    before = int(time.time())
    now = current_time.execute({})
    after = int(time.time())
    assert now["timezone"] == "UTC"
    assert now["utc_offset"] == "+00:00"
    assert before <= now["unix"] <= after
    parsed = datetime.fromisoformat(now["iso"])
    assert int(parsed.timestamp()) == now["unix"]
    assert now["iso"].endswith("+00:00")
    assert now["weekday"] == WEEKDAYS[parsed.weekday()]


@pytest.mark.parametrize(
    ("zone", "offsets"),
    [
        ("Asia/Kolkata", {"+05:30"}),
        ("Asia/Tokyo", {"+09:00"}),
        ("America/St_Johns", {"-03:30", "-02:30"}),
        ("Europe/Paris", {"+01:00", "+02:00"}),
        ("Etc/GMT+5", {"-05:00"}),
    ],
)
def test_reports_the_zone_offset_and_the_same_instant(zone: str, offsets: set[str]) -> None:
    now = current_time.execute({"timezone": zone})
    assert now["timezone"] == zone
    assert now["utc_offset"] in offsets
    assert now["iso"].endswith(now["utc_offset"])
    assert int(datetime.fromisoformat(now["iso"]).timestamp()) == now["unix"]
    assert abs(now["unix"] - time.time()) < 3600  # the same instant, not a shifted one


def test_an_unknown_zone_is_a_validation_error_naming_it() -> None:
    err = refused({"timezone": "Mars/Olympus_Mons"})
    assert str(err).startswith(
        "input validation failed: timezone: unknown time zone 'Mars/Olympus_Mons'"
    )
    assert "Europe/Paris" in str(err)


def test_a_zone_with_the_wrong_case_gets_a_suggestion() -> None:
    err = refused({"timezone": "europe/paris"})
    assert "did you mean 'Europe/Paris'?" in str(err)


@pytest.mark.parametrize(
    "zone",
    [
        "../../../../etc/passwd",
        "/etc/passwd",
        "Europe",  # a directory of the zone database
        "zone.tab",  # a data file beside the zones
        "tzdata.zi",
        "Europe//Paris",
        "Europe/Paris/",
        ".",
        "a\x00b",
        "\ud800",
        "Europe/Paris\n",
        "UTC+2",
        "+05:30",
        "\uff25\uff55\uff52\uff4f\uff50\uff45/\uff30\uff41\uff52\uff49\uff53",  # full width
    ],
)
def test_paths_files_and_odd_text_are_unknown_zones(zone: str) -> None:
    assert "unknown time zone" in str(refused({"timezone": zone}))


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"timezone": 5}, "expected string"),
        ({"timezone": None}, "expected string"),
        ({"timezone": ""}, "at least 1"),
        ({"timezone": "x" * 100_000}, "at most 64 characters"),
    ],
)
def test_wrong_shapes_are_refused_by_the_schema(payload: Any, message: str) -> None:
    assert message in str(refused(payload))


def test_unknown_keys_are_refused() -> None:
    with pytest.raises(StandardToolValidationError, match="unexpected property"):
        current_time.execute({"timezone": "UTC", "tz": "UTC"})


def test_the_message_bounds_a_long_zone_name() -> None:
    err = refused({"timezone": "A/" + "b" * 60})
    assert "[truncated" in str(err)
