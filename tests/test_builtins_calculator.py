"""The calculator built-in: arithmetic from text, never eval'd, every step bounded."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from standard_tool import StandardToolValidationError
from standard_tool.builtins import calculator


def calc(expression: Any) -> Any:
    return calculator.execute({"expression": expression})


def refused(expression: Any) -> str:
    """Run ``expression``; return the message of the validation error at ``expression``."""
    with pytest.raises(StandardToolValidationError) as info:
        calc(expression)
    err = info.value
    assert err.target == "input"
    assert [tuple(i.path or ()) for i in err.issues] == [("expression",)]
    return str(err)


# -- what it computes ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("7 / 2", 3.5),
        ("7 // 2", 3),
        ("-7 // 2", -4),
        ("7 % 3", 1),
        ("2 ** 10", 1024),
        ("2 ** -2", 0.25),
        ("-3 ** 2", -9),
        ("(-3) ** 2", 9),
        ("--5", 5),
        ("+5", 5),
        ("1_000 + 0x10", 1016),
        ("1.5e3", 1500.0),
        ("  2 + 2  ", 4),
        ("sqrt(16)", 4.0),
        ("abs(-4)", 4),
        ("round(100 / 7, 2)", 14.29),
        ("round(2.5)", 2),
        ("floor(2.7) + ceil(2.1) + trunc(-2.7)", 3),
        ("log(e)", 1.0),
        ("log(8, 2)", 3.0),
        ("log10(1000)", 3.0),
        ("log2(1024)", 10.0),
        ("exp(0)", 1.0),
        ("factorial(5)", 120),
        ("gcd(12, 18) + lcm(4, 6)", 18),
        ("min(3, 1, 2) + max(3, 1, 2)", 4),
        ("hypot(3, 4)", 5.0),
        ("degrees(pi)", 180.0),
        ("tau / 2 - pi", 0.0),
        ("2 ** 100", 2**100),
        ("(sqrt)(4)", 2.0),
    ],
)
def test_evaluates_arithmetic_functions_and_constants(expression: str, expected: Any) -> None:
    result = calc(expression)
    assert result == expected
    assert type(result) is type(expected)


def test_trigonometry() -> None:
    assert math.isclose(calc("sin(pi / 6)"), 0.5)
    assert math.isclose(calc("cos(0)"), 1.0)
    assert math.isclose(calc("tan(pi / 4)"), 1.0)
    assert math.isclose(calc("atan2(1, 1)"), math.pi / 4)


def test_integers_are_exact_up_to_the_digit_limit() -> None:
    assert calc("10 ** 999") == 10**999
    assert calc("factorial(449)") == math.factorial(449)
    assert calc("2 ** 3321") == 2**3321


def test_the_tool_is_described_for_a_model() -> None:
    assert calculator.name == "calculator"
    assert calculator.title == "Calculator"
    assert "sqrt" in calculator.description
    schema = calculator.input_schema.__standard__.json_schema.input(target="draft-2020-12")  # type: ignore[union-attr]
    assert schema["required"] == ["expression"]
    assert schema["properties"]["expression"]["maxLength"] == 1000
    assert schema["additionalProperties"] is False


# -- what it refuses, quickly ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("9**9**9**9", "would have more than 1000 digits"),
        ("10**10**10", "would have more than 1000 digits"),
        ("2**100000000", "2 ** 100000000 would have more than 1000 digits"),
        ("2 ** 3322", "2 ** 3322 would have more than 1000 digits"),
        ("(-2) ** 3322", "(-2) ** 3322 would have more than 1000 digits"),
        ("10 ** 999 * 10", "an integer would have more than 1000 digits"),
        ("factorial(10 ** 9)", "factorial(1000000000) would have more than 1000 digits"),
        ("factorial(450)", "the largest allowed is factorial(449)"),
        ("factorial(-1)", "not defined for negative numbers"),
        ("factorial(2.5)", "factorial() needs an integer"),
        ("round(1, -10 ** 9)", "the number of digits must be between -1000 and 1000"),
        ("1 / 0", "division by zero"),
        ("1 // 0", "division by zero"),
        ("1 % 0", "modulo by zero"),
        ("1.0 / 0.0", "division by zero"),
        ("0 ** -1", "division by zero"),
        ("log(8, 1)", "log(): division by zero"),
        ("10.0 ** 400", "a number is too large"),
        ("exp(1000)", "exp(): a number is too large"),
        ("sqrt(10 ** 999)", "sqrt(): a number is too large"),
        ("10 ** 999 / 3", "a number is too large"),
        ("1.5 ** (10 ** 900)", "a number is too large"),
        ("1e308 * 10", "the result is not a finite number"),
        ("1e999", "the result is not a finite number"),
        ("sqrt(-1)", "sqrt(-1) is not defined (outside its domain)"),
        ("log(0)", "log(0) is not defined"),
        ("acos(2)", "acos(2) is not defined"),
        ("(-8) ** (1 / 3)", "the operation is not defined (outside its domain)"),
        ("3j", "complex numbers are not supported"),
        ("True", "only numbers are supported"),
        ("None", "only numbers are supported"),
    ],
)
def test_refuses_what_cannot_be_computed_within_bounds(expression: str, message: str) -> None:
    assert message in refused(expression)


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("__import__('os').system('true')", 'character "\'" at column 12 is not allowed'),
        ('__import__("os")', "character '\"' at column 12 is not allowed"),
        ("().__class__", "attribute access not supported"),
        ("pi.real", "attribute access not supported"),
        ("(1, 2)", "tuples not supported"),
        ("1 if 1 else 2", "conditional expressions not supported"),
        ("lambda: 1", "character ':' at column 7 is not allowed"),
        ("1 < 2", "character '<' at column 3 is not allowed"),
        ("1 and 2", "'and' / 'or' not supported"),
        ("x + 1", "unknown name 'x' (at column 1); the constants are e, pi, tau"),
        ("sqrt", "unknown name 'sqrt' (at column 1); call it with ()"),
        ("open(1)", "unknown function 'open' (at column 1); the functions are abs,"),
        ("sqrt(x=4)", "character '=' at column 7 is not allowed"),
        ("sqrt(1, 2)", "sqrt() takes 1 argument(s), got 2"),
        ("log()", "log() takes 1 to 2 argument(s), got 0"),
        ("1 +", "not a valid arithmetic expression"),
        ("1 ~ 2", "character '~' at column 3 is not allowed"),
        ("1 << 2", "character '<' at column 3 is not allowed"),
        ("1 & 2", "character '&' at column 3 is not allowed"),
        ("2 @ 3", "character '@' at column 3 is not allowed"),
        ("\U0001d429\U0001d422", "character '\U0001d429' at column 1 is not allowed"),
        ("\u0661 + \u0661", "character '\u0661' at column 1 is not allowed"),
        ("1\x00", "character '\\x00' at column 2 is not allowed"),
        ("\ud800", "character '\\ud800' at column 1 is not allowed"),
    ],
)
def test_refuses_anything_but_arithmetic(expression: str, message: str) -> None:
    assert message in refused(expression)


def test_bitwise_and_matrix_operators_are_refused_even_when_the_parser_would_accept_them() -> None:
    # '|' and '^' pass neither the character check nor, if they did, the node allow-list.
    assert "is not allowed" in refused("1 | 2")
    assert "is not allowed" in refused("1 ^ 2")


def test_deep_nesting_is_refused_before_parsing() -> None:
    assert "nested more than 100 deep" in refused("(" * 101 + "1" + ")" * 101)
    assert calc("(" * 100 + "1" + ")" * 100) == 1


def test_long_operator_chains_are_refused_by_depth() -> None:
    assert "nested more than 100 levels deep" in refused("-" * 500 + "1")
    assert "nested more than 100 levels deep" in refused("+".join(["1"] * 400))
    assert calc("+".join(["1"] * 90)) == 90


def test_huge_input_is_refused_by_the_schema() -> None:
    message = refused("1+" * 500_000 + "1")
    assert "must have at most 1000 characters" in message
    assert len(message) < 300


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"expression": 5},
        {"expression": None},
        {"expression": ["1+1"]},
        {"expression": ""},
        {"expression": "1", "extra": 1},
    ],
)
def test_wrong_input_shapes_are_validation_errors(payload: Any) -> None:
    with pytest.raises(StandardToolValidationError):
        calculator.execute(payload)


def test_messages_never_paste_a_long_name_whole() -> None:
    message = refused("a" * 999)
    assert "[truncated" in message
    assert len(message) < 400


@given(st.text(alphabet="0123456789+-*/%().,e pisqrtfaclog", max_size=60))
def test_any_text_gives_a_finite_number_or_a_validation_error(expression: str) -> None:
    result: Any = None
    error: StandardToolValidationError | None = None
    try:
        result = calc(expression)
    except StandardToolValidationError as err:
        error = err
    if error is not None:
        assert [tuple(i.path or ()) for i in error.issues] == [("expression",)]
    else:
        assert isinstance(result, (int, float))
        assert not isinstance(result, bool)
        assert isinstance(result, int) or math.isfinite(result)
