"""The provider declarations against the official JSON-Schema-Test-Suite (issue 16).

Every non-remote group of the draft 2020-12 and draft-07 suites is wrapped as a tool
input (``{"v": <schema>}``, its references moved along) and declared for each provider
target. Each test instance ``{"v": <data>}`` is then judged twice: by the original
schema (``jsonschema``), and by what the provider is shown and enforces:

- ``openai-strict`` / ``anthropic-strict``: the strict schema
  (``OpenAIStrictSchema.schema``, ``AnthropicStrictSchema.schema``), judged with
  ``Draft202012Validator`` on the arguments a model would send for the instance (the
  instance encoded the way ``decode`` reads it back: a map as ``{"key", "value"}``
  entries, a missing optional property as ``null``; checked to decode back);
- ``gemini``: ``GeminiParameters.schema`` (OpenAPI 3.0 subset), judged with
  ``OAS30Validator`` on the encoded instance. Gemini's numbers are JSON numbers (``1``
  and ``1.0`` are one value on the wire), so an integral float is an integer here;
- ``gemini-json``: ``gemini_json_parameters(tool).schema`` (what
  ``to_gemini(tool, json_schema=True)`` sends), judged with ``Draft202012Validator``
  on the encoded instance;
- ``anthropic`` / ``mcp``: the JSON Schema ``to_anthropic`` / ``to_mcp`` (references
  inlined) emit, judged with ``Draft202012Validator``.

Every validator, the original's and the declared one's, asserts the formats of
``JUDGED_FORMATS`` (``FORMAT_CHECKER``), and the suite's ``optional/format`` groups
run too, so a format a provider moves into the description shows as a widening.

Most suite schemas have no ``type``, which the strict modes and Gemini refuse; each
untyped group runs again with ``"type"`` set to each kind of its test data
(``+type``), which judges the other keywords.

The verdicts must agree, except where the provider's row of the table in
docs/dialects.md names a keyword of the group that explains the difference
(``WIDENINGS``: the declared schema accepts more; the tool's own validation still
rejects it) or, for the strict modes, the narrowings their rules impose
(``NARROWINGS``: closed objects, and for OpenAI required keys; judged by rewriting
again with those rules off). Any other difference fails. A conversion may refuse
(``ProviderSchemaError``, OpenAI's fallback to non-strict) only with a documented
reason (``REFUSALS``). Groups that need remote references are skipped. Reproduce the
docs figures with ``python -m tests.test_providers_suite``.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
from collections.abc import Callable
from typing import Any, NamedTuple

import jsonschema
import pytest
from openapi_schema_validator import OAS30Validator

from standard_tool import ToolDefinitionError, standard_tool
from standard_tool.dialects import DRAFT_07_URI, SchemaConversionError
from standard_tool.providers import (
    AnthropicStrictSchema,
    GeminiParameters,
    OpenAIStrictSchema,
    ProviderSchemaError,
    check_anthropic_strict,
    check_gemini,
    check_gemini_json_schema,
    check_mcp_tool,
    check_openai_strict,
    gemini_json_parameters,
    to_anthropic,
    to_mcp,
)
from standard_tool.providers._anthropic_strict import ANTHROPIC_STRICT_RULES
from standard_tool.providers._convert_common import (
    AnyOfPlan,
    ArrayPlan,
    MapPlan,
    ObjectPlan,
    Plan,
    RefPlan,
)
from standard_tool.providers._openai import OPENAI_STRICT_RULES
from standard_tool.providers._walk import SchemaRules, rewrite
from tests.test_dialects_suite import SUITE, UNJUDGED, Case, _cases, _is_remote, _keywords

TARGETS = ("openai-strict", "gemini", "gemini-json", "anthropic", "anthropic-strict", "mcp")

#: The formats every validator here asserts: those jsonschema checks with what the
#: test environment installs (a missing checker fails the test below, never skips).
JUDGED_FORMATS = ("date", "date-time", "time", "email", "idn-email", "ipv4", "ipv6", "uuid")
FORMAT_CHECKER = jsonschema.FormatChecker(JUDGED_FORMATS)

#: target -> keyword -> what happens to it: the declared schema accepts more when the
#: keyword is in the schema (the tool's own validation still refuses the difference).
#: Mirrors the "loosens" rows of "What each provider declaration keeps, drops and
#: loosens" in docs/dialects.md.
_DESCRIBED = "moved into the description"
_FORMAT = "one the provider lacks: moved into the description"
WIDENINGS: dict[str, dict[str, str]] = {
    "openai-strict": {
        "format": _FORMAT,
        "minLength": _DESCRIBED,
        "maxLength": _DESCRIBED,
        "uniqueItems": _DESCRIBED,
        "contains": _DESCRIBED,
        "minContains": _DESCRIBED,
        "maxContains": _DESCRIBED,
        "unevaluatedItems": _DESCRIBED,
        "minProperties": _DESCRIBED,
        "maxProperties": _DESCRIBED,
        "propertyNames": _DESCRIBED,
        "dependentRequired": _DESCRIBED,
        "dependentSchemas": _DESCRIBED,
        "unevaluatedProperties": _DESCRIBED,
        "not": _DESCRIBED,
        "if": _DESCRIBED,
        "oneOf": "becomes anyOf",
    },
    "gemini": {
        "format": _FORMAT,
        "multipleOf": _DESCRIBED,
        "exclusiveMinimum": "inclusive on a number (exact on an integer)",
        "exclusiveMaximum": "inclusive on a number (exact on an integer)",
        "enum": "on non-strings: moved into the description",
        "const": "a non-string: moved into the description",
        "uniqueItems": _DESCRIBED,
        "contains": _DESCRIBED,
        "minContains": _DESCRIBED,
        "maxContains": _DESCRIBED,
        "unevaluatedItems": _DESCRIBED,
        "additionalProperties": "false is dropped: Gemini objects are open",
        "propertyNames": _DESCRIBED,
        "dependentRequired": _DESCRIBED,
        "dependentSchemas": _DESCRIBED,
        "unevaluatedProperties": _DESCRIBED,
        "not": _DESCRIBED,
        "if": _DESCRIBED,
        "oneOf": "becomes anyOf",
    },
    "gemini-json": {
        "format": _FORMAT,
        **dict.fromkeys(
            (
                "multipleOf",
                "contains",
                "minContains",
                "maxContains",
                "unevaluatedItems",
                "propertyNames",
                "dependentRequired",
                "dependentSchemas",
                "unevaluatedProperties",
                "not",
                "if",
            ),
            _DESCRIBED,
        ),
        "exclusiveMinimum": "inclusive on a number (exact on an integer)",
        "exclusiveMaximum": "inclusive on a number (exact on an integer)",
        "additionalProperties": "false is dropped: Gemini's objects are open",
        "oneOf": "becomes anyOf",
        "enum": "of objects or arrays: moved into the description",
        "const": "an object or array: moved into the description",
    },
    "anthropic": {},
    "anthropic-strict": {
        "format": _FORMAT,
        **dict.fromkeys(
            (
                "minimum",
                "maximum",
                "exclusiveMinimum",
                "exclusiveMaximum",
                "multipleOf",
                "minLength",
                "maxLength",
                "minItems",
                "maxItems",
                "uniqueItems",
                "contains",
                "minContains",
                "maxContains",
                "unevaluatedItems",
                "minProperties",
                "maxProperties",
                "propertyNames",
                "dependentRequired",
                "dependentSchemas",
                "unevaluatedProperties",
                "not",
                "if",
            ),
            _DESCRIBED,
        ),
        "oneOf": "becomes anyOf",
        "enum": "of arrays: moved into the description (of objects: refused)",
        "const": "an array: moved into the description (an object: refused)",
    },
    "mcp": {},
}
#: OpenAI strict mode's own rules: what a model cannot send under them. Mirrors the
#: "narrows" rows of the same table.
NARROWINGS: dict[str, dict[str, str]] = {
    "openai-strict": {
        "additionalProperties": "every object is closed: unnamed properties cannot be sent",
        "required": "an optional property that accepts null is required: null is sent",
    },
    "anthropic-strict": {
        "additionalProperties": "every object is closed: unnamed properties cannot be sent",
    },
}
#: Substrings of the documented refusal reasons: Gemini's ProviderSchemaError, OpenAI's
#: fallback reason, SchemaConversionError from inlining.
REFUSALS = (
    "accepts any value",
    "has no type",
    "give them a type",
    "must have items",
    "must list its properties",
    "must say additionalProperties",
    "false schema",
    "is a tuple",
    "is recursive",
    "must point into $defs",
    "only local references",
    "points nowhere",
    "with free keys",
    "any keys and any values",
    "must have named properties",
    "several key patterns",
    "has both properties and",
    "mixing kinds",
    "has an enum with no",
    "accepts only null",
    "cannot be merged",
    "clash with it",
    "is not an object schema",
    "no dynamic reference",
    "$ref",
)


def _moved(value: Any, *, pointers: bool = True) -> Any:
    """The schema with each local pointer ``$ref`` moved under ``/properties/v``.

    A subschema with its own ``$id`` is a resource of its own: the pointers inside it
    are read against it, so they stay as they are. Values that are data rather than
    schemas (``enum``, ``const``, ``default``, ``examples``) are not touched.
    """
    if isinstance(value, dict):
        ident = value.get("$id")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        if isinstance(ident, str) and not ident.startswith("#"):
            pointers = False
        out: dict[str, Any] = {}
        for key, item in value.items():  # pyright: ignore[reportUnknownVariableType]
            if key in ("enum", "const", "default", "examples"):
                out[str(key)] = item  # pyright: ignore[reportUnknownArgumentType]
            elif (
                pointers
                and key in ("$ref", "$dynamicRef")
                and isinstance(item, str)
                and (item == "#" or item.startswith("#/"))
            ):
                out[key] = "#/properties/v" + item[1:]
            else:
                out[str(key)] = _moved(item, pointers=pointers)  # pyright: ignore[reportUnknownArgumentType]
        return out
    if isinstance(value, list):
        return [_moved(v, pointers=pointers) for v in value]  # pyright: ignore[reportUnknownVariableType]
    return value


def _wrapped(case: Case) -> dict[str, Any]:
    marker = {"$schema": DRAFT_07_URI} if case.source == "draft7" else {}
    return {
        **marker,
        "type": "object",
        "properties": {"v": _moved(case.group["schema"])},
        "required": ["v"],
        "additionalProperties": False,
    }


# ------------------------------------------------------------------ encoding arguments

_MAX_CANDIDATES = 32


def encode(plan: Plan | None, value: Any) -> list[Any]:
    """The arguments a model could send under the rewritten schema to mean ``value``.

    The inverse of ``plan.decode``: a map becomes ``{"key", "value"}`` entries, a
    missing optional property ``null``. A union gives one candidate per branch.
    """
    if plan is None:
        return [value]
    if isinstance(plan, RefPlan):
        return encode(plan.plans.get(plan.name), value)
    if isinstance(plan, AnyOfPlan):
        found = [c for _, _, branch in plan.branches for c in encode(branch, value)]
        return found[:_MAX_CANDIDATES] or [value]
    if isinstance(plan, ObjectPlan) and isinstance(value, dict):
        keys = list(value)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
        options = [encode(plan.fields.get(k), value[k]) for k in keys]  # pyright: ignore[reportUnknownArgumentType]
        missing = {k: None for k in plan.drop_null if k not in value}
        combos = itertools.islice(itertools.product(*options), _MAX_CANDIDATES)
        return [{**dict(zip(keys, combo, strict=True)), **missing} for combo in combos]  # pyright: ignore[reportUnknownArgumentType]
    if isinstance(plan, MapPlan) and isinstance(value, dict):
        keys = list(value)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
        options = [encode(plan.value_plan, value[k]) for k in keys]  # pyright: ignore[reportUnknownArgumentType]
        combos = itertools.islice(itertools.product(*options), _MAX_CANDIDATES)
        return [
            [{"key": k, "value": v} for k, v in zip(keys, combo, strict=True)] for combo in combos
        ]  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    if isinstance(plan, ArrayPlan) and isinstance(value, list):
        options = [encode(plan.item_plan, v) for v in value]  # pyright: ignore[reportUnknownVariableType]
        return [list(c) for c in itertools.islice(itertools.product(*options), _MAX_CANDIDATES)]
    return [value]


# ------------------------------------------------------------------ declared schemas


def _json_integer(checker: Any, value: Any) -> bool:
    return bool(jsonschema.Draft202012Validator.TYPE_CHECKER.is_type(value, "integer"))


#: OpenAPI 3.0 as Gemini reads it: 1.0 and 1 are one JSON number on the wire.
GeminiValidator: Any = jsonschema.validators.extend(
    OAS30Validator,
    type_checker=OAS30Validator.TYPE_CHECKER.redefine("integer", _json_integer),
)


class Declared(NamedTuple):
    """What a target shows the model, and how an instance is sent under it."""

    validator: Any
    encode: Callable[[Any], list[Any]]
    decode: Callable[[Any], Any]
    #: OpenAI strict: whether the same rewrite with objects open and keys optional
    #: accepts the instance (then strict mode's own rules are why it is refused)
    relaxed: Callable[[Any], bool] | None


class Refused(Exception):
    """The conversion refused, with its reason."""


def _relaxed(schema: dict[str, Any], rules: SchemaRules) -> Callable[[Any], bool]:
    """Whether the same rewrite, with objects left open and keys optional, accepts a value."""
    open_rules = dataclasses.replace(rules, closed_objects=False, all_required=False)
    out, plan, _ = rewrite(dict(schema), open_rules, lambda _: ())
    validator: Any = jsonschema.Draft202012Validator(out, format_checker=FORMAT_CHECKER)
    return lambda v: any(validator.is_valid(c) for c in encode(plan, v))


def declare(target: str, schema: dict[str, Any]) -> Declared:
    """Declare ``schema`` for ``target``; raise ``Refused`` with the documented reason."""
    try:
        if target == "openai-strict":
            strict = OpenAIStrictSchema.from_json_schema(schema)
            if not strict.strict:
                raise Refused(f"fell back to non-strict: {strict.reason}")
            assert not check_openai_strict(strict.schema)
            plan: Plan | None = strict._plan  # pyright: ignore[reportPrivateUsage]
            return Declared(
                jsonschema.Draft202012Validator(strict.schema, format_checker=FORMAT_CHECKER),
                lambda v: encode(plan, v),
                strict.decode,
                _relaxed(schema, OPENAI_STRICT_RULES),
            )
        if target == "anthropic-strict":
            closed = AnthropicStrictSchema.from_json_schema(schema, name="t")
            assert not check_anthropic_strict(closed.schema)
            closed_plan: Plan | None = closed._plan  # pyright: ignore[reportPrivateUsage]
            return Declared(
                jsonschema.Draft202012Validator(closed.schema, format_checker=FORMAT_CHECKER),
                lambda v: encode(closed_plan, v),
                closed.decode,
                _relaxed(schema, ANTHROPIC_STRICT_RULES),
            )
        if target == "gemini":
            params = GeminiParameters.from_json_schema(schema, name="t")
            assert params.schema is not None
            assert not check_gemini(params.schema)
            gemini_plan: Plan | None = params._plan  # pyright: ignore[reportPrivateUsage]
            return Declared(
                GeminiValidator(params.schema, format_checker=FORMAT_CHECKER),
                lambda v: encode(gemini_plan, v),
                params.decode,
                None,
            )
        tool = standard_tool(name="t", description="d", input_schema=schema, execute=dict)
        if target == "gemini-json":
            json_params = gemini_json_parameters(tool)
            assert json_params.schema is not None
            assert not check_gemini_json_schema(json_params.schema)
            json_plan: Plan | None = json_params._plan  # pyright: ignore[reportPrivateUsage]
            return Declared(
                jsonschema.Draft202012Validator(json_params.schema, format_checker=FORMAT_CHECKER),
                lambda v: encode(json_plan, v),
                json_params.decode,
                None,
            )
        if target == "anthropic":
            emitted = to_anthropic(tool)["input_schema"]
        else:
            declaration = to_mcp(tool, inline_refs=True)
            assert not check_mcp_tool(declaration)
            emitted = declaration["inputSchema"]
        return Declared(
            jsonschema.Draft202012Validator(emitted, format_checker=FORMAT_CHECKER),
            lambda v: [v],
            lambda v: v,
            None,
        )
    except (ProviderSchemaError, SchemaConversionError, ToolDefinitionError) as err:
        raise Refused(str(err)) from err


# ------------------------------------------------------------------ one group, one target


class Outcome(NamedTuple):
    tests: int
    agree: int
    widened: list[str]  # documented widenings
    narrowed: list[str]  # documented narrowings (OpenAI strict mode's own rules)
    undocumented: list[str]  # any other difference, either way
    refused: str | None
    problem: str | None


def typed(case: Case, kind: str) -> Case:
    """The group with ``"type": kind`` added to its untyped root schema.

    Most suite schemas have no ``type``, which strict mode and Gemini cannot declare.
    Typed, the same keywords are judged on every test instance again, against the
    typed schema's own verdicts: this is where the converters' handling of each
    keyword shows.
    """
    return Case(
        case.source, case.file, {**case.group, "schema": {**case.group["schema"], "type": kind}}
    )


def kinds(case: Case) -> list[str]:
    """The JSON types to add to ``case``'s root schema: those of its test data, when untyped."""
    schema = case.group["schema"]
    if not isinstance(schema, dict) or {"type", "$ref", "$dynamicRef"} & schema.keys():
        return []
    found = {_json_type(t["data"]) for t in case.group["tests"]} - {"null"}
    return sorted(found)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


_RUNS: dict[tuple[int, str], Outcome] = {}


def run_case(case: Case, target: str) -> Outcome:
    """Declare one group's schema for ``target`` and compare every test's verdict.

    Memoized per group object: the parametrized test and ``table()`` share the runs.
    """
    key = (id(case.group), target)
    if key not in _RUNS:
        _RUNS[key] = _run_case(case, target)
    return _RUNS[key]


def _run_case(case: Case, target: str) -> Outcome:
    schema = case.group["schema"]
    if case.source == "draft7" and isinstance(schema, dict):
        schema = {"$schema": DRAFT_07_URI, **schema}
    tests: list[dict[str, Any]] = case.group["tests"]
    source_cls: Any = (
        jsonschema.Draft7Validator if case.source == "draft7" else jsonschema.Draft202012Validator
    )
    try:
        source_cls.check_schema(schema)
        original = source_cls(schema, format_checker=FORMAT_CHECKER)
        expected = [bool(original.is_valid(t["data"])) for t in tests]
    except Exception:  # e.g. an ECMA 262 regex Python's re lacks
        return Outcome(len(tests), 0, [], [], [], UNJUDGED, None)
    try:
        declared = declare(target, _wrapped(case))
    except Refused as err:
        known = any(reason in str(err) for reason in REFUSALS)
        return Outcome(len(tests), 0, [], [], [], str(err), None if known else f"refused: {err}")
    except Exception as err:  # a crash is the case's failure
        return Outcome(len(tests), 0, [], [], [], None, f"crashed: {err!r}"[:500])
    loosening = _keywords(case.group["schema"]) & WIDENINGS[target].keys()
    agree = 0
    widened: list[str] = []
    narrowed: list[str] = []
    undocumented: list[str] = []
    for test, want in zip(tests, expected, strict=True):
        instance = {"v": test["data"]}
        try:
            sent = [c for c in declared.encode(instance) if declared.validator.is_valid(c)]
        except Exception as err:  # e.g. a reference pointing nowhere
            return Outcome(len(tests), 0, [], [], [], None, f"validator failed: {err!r}"[:500])
        got = bool(sent)
        if sent and not any(_same(declared.decode(c), instance) for c in sent):
            problem = f"{test['description']}: the arguments do not decode back to the instance"
            return Outcome(len(tests), 0, [], [], [], None, problem)
        if got == want:
            agree += 1
        elif got and loosening:
            widened.append(test["description"])
        elif not got and declared.relaxed is not None and declared.relaxed(instance):
            narrowed.append(test["description"])
        else:
            undocumented.append(f"{test['description']} ({'accepted' if got else 'rejected'})")
    return Outcome(len(tests), agree, widened, narrowed, undocumented, None, None)


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values, ``True`` and ``1`` told apart."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(_same, a, b))  # pyright: ignore[reportUnknownArgumentType]
    return type(a) is type(b) and a == b


def _params() -> list[Any]:
    if not SUITE.is_dir():
        return [pytest.param(None, "", id="suite-missing")]
    params: list[Any] = []
    for case, label in _variants():
        for target in TARGETS:
            name = f"{label}/{case.file}:{case.group['description']}->{target}"
            params.append(pytest.param(case, target, id=name))
    return params


def needs_remote(case: Case) -> bool:
    """Whether the group reaches a remote document (a boolean root is wrapped like any)."""
    return isinstance(case.group["schema"], dict) and _is_remote(case)


def _format_cases() -> list[Case]:
    """The suite's ``optional/format`` groups, which judge ``format`` as an assertion."""
    return [
        Case(source, str(path.relative_to(SUITE / source)), group)
        for source in ("draft2020-12", "draft7")
        for path in sorted((SUITE / source / "optional" / "format").glob("*.json"))
        for group in json.loads(path.read_text(encoding="utf-8"))
    ]


@functools.cache
def _variants() -> list[tuple[Case, str]]:
    """Every non-remote group as it is, then typed with each kind of its test data."""
    found: list[tuple[Case, str]] = []
    for case in [*_cases(), *_format_cases()]:
        if needs_remote(case):
            continue
        found.append((case, case.source))
        found.extend((typed(case, kind), f"{case.source}+type") for kind in kinds(case))
    return found


def test_every_judged_format_has_a_checker() -> None:
    """The format checker is real: each judged format refuses a bad string."""
    missing = [f for f in JUDGED_FORMATS if f not in FORMAT_CHECKER.checkers]
    assert not missing, f"install the checkers of {missing} (jsonschema's format extras)"
    assert not FORMAT_CHECKER.conforms("not a date", "date")


@pytest.mark.parametrize(("case", "target"), _params())
def test_provider_declaration_agrees_with_the_suite(case: Case | None, target: str) -> None:
    if case is None:
        pytest.fail(f"the JSON-Schema-Test-Suite is missing at {SUITE}")
    outcome = run_case(case, target)
    assert outcome.problem is None, outcome.problem
    assert not outcome.undocumented, f"undocumented difference: {outcome.undocumented}"


def table() -> str:
    """The provider agreement figures of docs/dialects.md, as a Markdown table."""
    rows: dict[tuple[str, str], list[int]] = {}
    remote = sum(1 for case in _cases() if needs_remote(case))
    for case, label in _variants():
        for target in TARGETS:
            o = run_case(case, target)
            row = rows.setdefault((label, target), [0] * 7)
            bad = o.problem is not None and o.refused is None
            unjudged = o.refused == UNJUDGED
            row[0] += o.tests
            row[1] += o.agree
            row[2] += len(o.widened)
            row[3] += len(o.narrowed)
            row[4] += len(o.undocumented) + (o.tests if bad else 0)
            row[5] += o.tests if o.refused is not None and not unjudged else 0
            row[6] += o.tests if unjudged else 0
    lines = [
        "| source | target | tests | agree | documented widenings | documented narrowings"
        " | undocumented | refused | not judged |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for (source, target), r in rows.items():
        lines.append(f"| {source} | {target} | " + " | ".join(map(str, r)) + " |")
    lines.append("")
    lines.append(f"{remote} groups skipped: they need remote references.")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
