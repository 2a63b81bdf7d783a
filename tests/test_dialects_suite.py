"""The dialect transforms against the official JSON-Schema-Test-Suite.

Every group of the draft 2020-12 (required and optional) and draft-07 suites is converted
to each target; the converted schema must be usable by a validator of that target and give
every test instance the original's verdict, except for the widenings ``docs/dialects.md``
documents (``LOOSENINGS`` mirrors its table) and the one narrowing it documents (an
OpenAPI 3.0 integer is no float, so ``1.0`` is rejected). Any other difference fails.
A refusal must give one of the documented reasons (``REFUSALS``). Groups that need
remote references are skipped (``REMOTE_MARKERS``; their count is printed by
``python -m tests.test_dialects_suite``).

The suite is fetched by ``scripts/fetch_test_suite.sh`` (``scripts/test.sh`` runs it).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import jsonschema
import pytest
from openapi_schema_validator import OAS30Validator

from standard_tool.dialects import (
    DRAFT_07_URI,
    SchemaConversionError,
    inline_refs,
    to_draft07,
    to_draft202012,
    to_openapi30,
)

SUITE = Path(__file__).resolve().parent.parent / ".cache" / "json-schema-test-suite"
MISSING_SUITE = (
    f"the JSON-Schema-Test-Suite is missing at {SUITE}: run `bash scripts/fetch_test_suite.sh`"
)
# Groups whose schemas reach a remote document (the suite's localhost:1234 server) or a
# metaschema by URI: the transforms only resolve references inside the schema.
REMOTE_MARKERS = ("localhost:1234", "json-schema.org/draft", "urn:", "tag:", "example.com")

#: target -> keyword -> why the target accepts more when the keyword is in the schema.
#: Mirrors the "Loosenings" table of docs/dialects.md.
LOOSENINGS: dict[str, dict[str, str]] = {
    "draft-07": {
        "unevaluatedProperties": "dropped unless it is exactly additionalProperties",
        "unevaluatedItems": "dropped unless it is exactly additionalItems",
        "minContains": "dropped (contains is dropped with minContains 0)",
        "maxContains": "dropped",
        "$dynamicRef": "refused",
    },
    "openapi-3.0": {
        "patternProperties": "dropped (and the additionalProperties beside it)",
        "prefixItems": "becomes one items schema accepting any positional schema",
        "unevaluatedProperties": "dropped",
        "unevaluatedItems": "dropped",
        "contains": "dropped",
        "propertyNames": "dropped",
        "dependentRequired": "dropped",
        "dependentSchemas": "dropped",
        "if": "dropped",
        "const": "kept as enum; no loosening by itself",
        "minContains": "dropped",
        "maxContains": "dropped",
        "additionalProperties": "boolean false kept only without patternProperties",
    },
    "draft-2020-12": {},
    "inline": {},
}
#: Substrings of the documented refusal reasons (SchemaConversionError messages).
REFUSALS = (
    "is recursive",
    "no dynamic reference",
    "one $id",
    "only local references",
    "no $anchor",
    "points nowhere",
    "unsupported $schema",
)


#: A group whose schema the reference validator (jsonschema) rejects or cannot run,
#: e.g. an ECMA 262 regex Python's ``re`` cannot compile: no verdict to compare with.
UNJUDGED = "the reference validator cannot judge"


class Case(NamedTuple):
    source: str  # "draft2020-12" or "draft7"
    file: str
    group: dict[str, Any]


def _cases() -> Iterator[Case]:
    for source in ("draft2020-12", "draft7"):
        root = SUITE / source
        for path in sorted([*root.glob("*.json"), *root.glob("optional/*.json")]):
            for group in json.loads(path.read_text(encoding="utf-8")):
                yield Case(source, str(path.relative_to(root)), group)


def _is_remote(case: Case) -> bool:
    if not isinstance(case.group["schema"], dict):
        return True  # a boolean root: the transforms take a Mapping (counted with these)
    refs = json.dumps(_refs(case.group["schema"]))
    return case.file == "refRemote.json" or any(m in refs for m in REMOTE_MARKERS)


def _refs(schema: Any) -> list[Any]:
    if isinstance(schema, dict):
        own = [v for k, v in schema.items() if k in ("$ref", "$dynamicRef")]  # pyright: ignore[reportUnknownVariableType]
        return own + [r for v in schema.values() for r in _refs(v)]  # pyright: ignore[reportUnknownVariableType]
    if isinstance(schema, list):
        return [r for v in schema for r in _refs(v)]  # pyright: ignore[reportUnknownVariableType]
    return []


def _targets(source: str) -> dict[str, Callable[[Any], Any]]:
    if source == "draft7":
        return {
            "draft-2020-12": to_draft202012,
            "draft-07": lambda s: to_draft07(to_draft202012(s)),
            "inline": inline_refs,
        }
    return {
        "draft-07": to_draft07,
        "draft-2020-12": to_draft202012,
        "openapi-3.0": to_openapi30,
        "inline": inline_refs,
    }


def _validator(source: str, target: str) -> Any:
    if target == "openapi-3.0":
        return OAS30Validator
    if target == "draft-07" or (target == "inline" and source == "draft7"):
        return jsonschema.Draft7Validator
    return jsonschema.Draft202012Validator


def _keywords(schema: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(schema, dict):
        for key, value in schema.items():  # pyright: ignore[reportUnknownVariableType]
            found.add(str(key))  # pyright: ignore[reportUnknownArgumentType]
            found |= _keywords(value)
    elif isinstance(schema, list):
        for value in schema:  # pyright: ignore[reportUnknownVariableType]
            found |= _keywords(value)
    return found


def _integral_float(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value) and value.is_integer()
    if isinstance(value, dict):
        return any(_integral_float(v) for v in value.values())  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, list):
        return any(_integral_float(v) for v in value)  # pyright: ignore[reportUnknownVariableType]
    return False


class Outcome(NamedTuple):
    tests: int
    agree: int
    widened: list[str]  # documented widenings
    narrowed: list[str]  # documented narrowings (OpenAPI 3.0: 1.0 is no integer)
    undocumented: list[str]
    refused: str | None  # the refusal message
    problem: str | None  # unusable schema, unknown refusal


def run_case(case: Case, target: str) -> Outcome:
    """Convert one group's schema to ``target`` and compare every test's verdict."""
    schema = case.group["schema"]
    if case.source == "draft7":
        schema = {"$schema": DRAFT_07_URI, **schema}  # the draft-07 suite leaves it out
    tests: list[dict[str, Any]] = case.group["tests"]
    source_cls = (
        jsonschema.Draft7Validator if case.source == "draft7" else jsonschema.Draft202012Validator
    )
    try:
        source_cls.check_schema(schema)
    except jsonschema.SchemaError:  # e.g. an ECMA regex Python's re cannot compile
        return Outcome(len(tests), 0, [], [], [], UNJUDGED, None)
    try:
        converted = _targets(case.source)[target](schema)
    except SchemaConversionError as err:
        known = any(reason in str(err) for reason in REFUSALS)
        return Outcome(len(tests), 0, [], [], [], str(err), None if known else f"refused: {err}")
    except Exception as err:  # a crash is the case's failure
        return Outcome(len(tests), 0, [], [], [], None, f"crashed: {err!r}")
    cls = _validator(case.source, target)
    try:
        cls.check_schema(converted)
    except jsonschema.SchemaError as err:
        return Outcome(len(tests), 0, [], [], [], None, f"unusable schema: {err.message}")
    original: Any = source_cls(schema)
    after: Any = cls(converted)
    keywords = _keywords(schema) & LOOSENINGS[target].keys()
    agree = 0
    widened: list[str] = []
    narrowed: list[str] = []
    undocumented: list[str] = []
    for test in tests:
        try:
            expected = bool(original.is_valid(test["data"]))
        except Exception:  # e.g. an ECMA regex re lacks
            return Outcome(len(tests), 0, [], [], [], UNJUDGED, None)
        try:
            got = bool(after.is_valid(test["data"]))
        except Exception as err:  # e.g. a ref pointing nowhere
            return Outcome(len(tests), 0, [], [], [], None, f"validator failed: {err!r}")
        if got == expected:
            agree += 1
        elif got and keywords:
            widened.append(test["description"])
        elif target == "openapi-3.0" and not got and _integral_float(test["data"]):
            narrowed.append(test["description"])  # documented: 1.0 is no OpenAPI integer
        else:
            undocumented.append(test["description"])  # an unexplained widening or narrowing
    return Outcome(len(tests), agree, widened, narrowed, undocumented, None, None)


def _params() -> list[Any]:
    if not SUITE.is_dir():
        return [pytest.param(None, "", id="suite-missing")]
    params: list[Any] = []
    for case in _cases():
        if _is_remote(case):
            continue
        for target in _targets(case.source):
            name = f"{case.source}/{case.file}:{case.group['description']}->{target}"
            params.append(pytest.param(case, target, id=name))
    return params


def test_the_docs_give_the_suite_figures() -> None:
    if not SUITE.is_dir():
        pytest.fail(MISSING_SUITE)
    docs = (Path(__file__).resolve().parent.parent / "docs" / "dialects.md").read_text("utf-8")
    assert table() in docs, "docs/dialects.md: paste `python -m tests.test_dialects_suite`"


@pytest.mark.parametrize(("case", "target"), _params())
def test_conversion_agrees_with_the_suite(case: Case | None, target: str) -> None:
    if case is None:
        pytest.fail(MISSING_SUITE)
    outcome = run_case(case, target)
    assert outcome.problem is None, outcome.problem
    assert not outcome.undocumented, f"verdicts differ, unexplained: {outcome.undocumented}"


def table() -> str:
    """The agreement figures of docs/dialects.md, as a Markdown table."""
    rows: dict[tuple[str, str], list[int]] = {}
    remote = 0
    for case in _cases():
        if _is_remote(case):
            remote += 1
            continue
        for target in _targets(case.source):
            o = run_case(case, target)
            row = rows.setdefault((case.source, target), [0, 0, 0, 0, 0, 0, 0])
            bad = o.problem is not None and o.refused is None
            row[0] += o.tests
            row[1] += o.agree
            row[2] += len(o.widened)
            row[3] += len(o.narrowed)
            row[4] += len(o.undocumented) + (o.tests if bad else 0)
            unjudged = o.refused == UNJUDGED
            row[5] += o.tests if o.refused is not None and not unjudged else 0
            row[6] += o.tests if unjudged else 0
    lines = [
        "| source | target | tests | agree | documented widenings | documented narrowings"
        " | undocumented"
        " | refused | not judged |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for (source, target), r in rows.items():
        lines.append(f"| {source} | {target} | " + " | ".join(map(str, r)) + " |")
    lines.append("")
    lines.append(
        f"{remote} groups skipped: they need remote references or have a boolean root "
        "schema (the transforms take a mapping)."
    )
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
