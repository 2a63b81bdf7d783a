"""The ``calculator`` tool: arithmetic and math functions, with every step bounded.

Layer: top (built-in tools; imports function tools, the core and shared helpers).

Nothing the caller writes is run by Python. The expression is parsed with
``ast.parse(mode="eval")`` and walked over an allow-list: number literals, the
operators ``+ - * / // % **``, unary ``+`` and ``-``, parentheses, the constants
in ``CONSTANTS`` and calls of the functions in ``FUNCTIONS``. Every operation is
checked *before* it runs when its cost depends on its operands (a power, a
factorial, a rounding to many digits), and every result is checked after, so no
intermediate integer has more than ``MAX_DIGITS`` digits and no float is infinite
or NaN. The expression itself is at most ``MAX_EXPRESSION_CHARS`` characters and
``MAX_DEPTH`` levels deep, which bounds the number of operations.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable

from typing_extensions import Annotated, TypeAlias

from standard_tool._function import Param, tool
from standard_tool.builtins._errors import invalid, quoted

__all__ = [
    "CONSTANTS",
    "FUNCTIONS",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_EXPRESSION_CHARS",
    "calculator",
]

#: Longest expression accepted, in characters.
MAX_EXPRESSION_CHARS = 1000
#: Deepest nesting accepted: parentheses, calls and chained operators together.
MAX_DEPTH = 100
#: Most decimal digits an integer may have, in the result or on the way to it.
MAX_DIGITS = 1000

Number: TypeAlias = int | float

_INT_LIMIT = 10**MAX_DIGITS
_ALLOWED_CHARS = frozenset(
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_.,+-*/%() \t\r\n"
)


class _CalcError(Exception):
    """Internal: why an expression cannot be evaluated (turned into a validation error)."""


def _show(value: Number) -> str:
    if isinstance(value, int) and not -(10**15) < value < 10**15:
        return f"a {len(str(abs(value)))}-digit integer"
    return repr(value)


def _checked(value: object) -> Number:
    """Return ``value`` if it is a finite float or an int within ``MAX_DIGITS``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _CalcError(f"expected a real number, got {type(value).__name__}")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _CalcError("the result is not a finite number (it overflowed or is undefined)")
    elif not -_INT_LIMIT < value < _INT_LIMIT:
        raise _CalcError(f"an integer would have more than {MAX_DIGITS} digits")
    return value


# --------------------------------------------------------------------------------------
# Operators
# --------------------------------------------------------------------------------------


def _power(base: Number, exponent: Number) -> Number:
    if isinstance(base, int) and isinstance(exponent, int) and exponent >= 0:
        if abs(base) >= 2:
            # Refuse before computing: the digits of base**exponent are known in advance.
            too_big = exponent > 4 * MAX_DIGITS or exponent * math.log10(abs(base)) >= MAX_DIGITS
            if too_big:
                shown = f"({_show(base)})" if base < 0 else _show(base)
                raise _CalcError(
                    f"{shown} ** {_show(exponent)} would have more than {MAX_DIGITS} digits"
                )
        return _checked(base**exponent)
    if base == 0 and exponent < 0:
        raise _CalcError("division by zero (0 raised to a negative power)")
    # math.pow: a float result, a domain error instead of a complex number, no big-int work.
    return _checked(math.pow(base, exponent))


def _divide(left: Number, right: Number) -> Number:
    if right == 0:
        raise _CalcError("division by zero")
    return _checked(left / right)


def _floor_divide(left: Number, right: Number) -> Number:
    if right == 0:
        raise _CalcError("division by zero")
    return _checked(left // right)


def _modulo(left: Number, right: Number) -> Number:
    if right == 0:
        raise _CalcError("modulo by zero")
    return _checked(left % right)


_BINARY: dict[type[ast.operator], Callable[[Number, Number], Number]] = {
    ast.Add: lambda a, b: _checked(a + b),
    ast.Sub: lambda a, b: _checked(a - b),
    ast.Mult: lambda a, b: _checked(a * b),
    ast.Div: _divide,
    ast.FloorDiv: _floor_divide,
    ast.Mod: _modulo,
    ast.Pow: _power,
}

# --------------------------------------------------------------------------------------
# Functions and constants
# --------------------------------------------------------------------------------------


def _largest_factorial() -> int:
    n, value = 0, 1
    while value * (n + 1) < _INT_LIMIT:
        n += 1
        value *= n
    return n


_MAX_FACTORIAL = _largest_factorial()


def _integer(name: str, value: Number) -> int:
    if not isinstance(value, int):
        raise _CalcError(f"{name}() needs an integer, got {_show(value)}")
    return value


def _factorial(n: Number) -> Number:
    n = _integer("factorial", n)
    if n < 0:
        raise _CalcError("factorial() is not defined for negative numbers")
    if n > _MAX_FACTORIAL:
        raise _CalcError(
            f"factorial({_show(n)}) would have more than {MAX_DIGITS} digits "
            f"(the largest allowed is factorial({_MAX_FACTORIAL}))"
        )
    return math.factorial(n)


def _round(x: Number, ndigits: Number | None = None) -> Number:
    if ndigits is None:
        return round(x)
    ndigits = _integer("round", ndigits)
    if not -MAX_DIGITS <= ndigits <= MAX_DIGITS:
        raise _CalcError(
            f"round(): the number of digits must be between -{MAX_DIGITS} and {MAX_DIGITS}"
        )
    return round(x, ndigits)


def _log(x: Number, base: Number | None = None) -> Number:
    if base is None:
        return math.log(x)
    return math.log(x, base)


def _gcd(a: Number, b: Number) -> Number:
    return math.gcd(_integer("gcd", a), _integer("gcd", b))


def _lcm(a: Number, b: Number) -> Number:
    a, b = _integer("lcm", a), _integer("lcm", b)
    return 0 if a == 0 or b == 0 else abs(a * b) // math.gcd(a, b)


def _as_float(fn: Callable[[float], float]) -> Callable[[Number], Number]:
    """Return ``fn`` on a float: a huge integer argument overflows instead of running long."""
    return lambda x: fn(float(x))


def _atan2(y: Number, x: Number) -> Number:
    return math.atan2(float(y), float(x))


def _hypot(x: Number, y: Number) -> Number:
    return math.hypot(float(x), float(y))


def _abs(x: Number) -> Number:
    return abs(x)


def _ceil(x: Number) -> Number:
    return math.ceil(x)


def _floor(x: Number) -> Number:
    return math.floor(x)


def _trunc(x: Number) -> Number:
    return math.trunc(x)


def _min(*args: Number) -> Number:
    return min(args)


def _max(*args: Number) -> Number:
    return max(args)


#: The functions an expression may call: name -> (fewest, most arguments, function).
FUNCTIONS: dict[str, tuple[int, int, Callable[..., Number]]] = {
    "abs": (1, 1, _abs),
    "acos": (1, 1, _as_float(math.acos)),
    "acosh": (1, 1, _as_float(math.acosh)),
    "asin": (1, 1, _as_float(math.asin)),
    "asinh": (1, 1, _as_float(math.asinh)),
    "atan": (1, 1, _as_float(math.atan)),
    "atan2": (2, 2, _atan2),
    "atanh": (1, 1, _as_float(math.atanh)),
    "ceil": (1, 1, _ceil),
    "cos": (1, 1, _as_float(math.cos)),
    "cosh": (1, 1, _as_float(math.cosh)),
    "degrees": (1, 1, _as_float(math.degrees)),
    "exp": (1, 1, _as_float(math.exp)),
    "factorial": (1, 1, _factorial),
    "floor": (1, 1, _floor),
    "gcd": (2, 2, _gcd),
    "hypot": (2, 2, _hypot),
    "lcm": (2, 2, _lcm),
    "log": (1, 2, _log),
    "log10": (1, 1, math.log10),
    "log2": (1, 1, math.log2),
    "max": (1, 20, _max),
    "min": (1, 20, _min),
    "radians": (1, 1, _as_float(math.radians)),
    "round": (1, 2, _round),
    "sin": (1, 1, _as_float(math.sin)),
    "sinh": (1, 1, _as_float(math.sinh)),
    "sqrt": (1, 1, _as_float(math.sqrt)),
    "tan": (1, 1, _as_float(math.tan)),
    "tanh": (1, 1, _as_float(math.tanh)),
    "trunc": (1, 1, _trunc),
}

#: The named constants an expression may use.
CONSTANTS: dict[str, float] = {"e": math.e, "pi": math.pi, "tau": math.tau}

# --------------------------------------------------------------------------------------
# The walk
# --------------------------------------------------------------------------------------

_UNSUPPORTED: dict[type[ast.AST], str] = {
    ast.Compare: "comparisons",
    ast.BoolOp: "'and' / 'or'",
    ast.Attribute: "attribute access",
    ast.Subscript: "indexing",
    ast.Tuple: "tuples",
    ast.IfExp: "conditional expressions",
    ast.Lambda: "lambda",
}


def _where(node: ast.AST) -> str:
    col = getattr(node, "col_offset", None)
    return "" if col is None else f" (at column {col + 1})"


def _call(node: ast.Call) -> Number:
    if not isinstance(node.func, ast.Name):
        raise _CalcError(f"only the listed functions can be called{_where(node)}")
    name = node.func.id
    entry = FUNCTIONS.get(name)
    if entry is None:
        raise _CalcError(
            f"unknown function {quoted(name)}{_where(node)}; the functions are "
            + ", ".join(FUNCTIONS)
        )
    if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        raise _CalcError(f"{name}() takes positional arguments only{_where(node)}")
    fewest, most, fn = entry
    if not fewest <= len(node.args) <= most:
        wanted = str(fewest) if fewest == most else f"{fewest} to {most}"
        raise _CalcError(f"{name}() takes {wanted} argument(s), got {len(node.args)}")
    args = [_evaluate(a) for a in node.args]
    try:
        return _checked(fn(*args))
    except _CalcError:
        raise
    except ZeroDivisionError as err:
        raise _CalcError(f"{name}(): division by zero") from err
    except OverflowError as err:
        raise _CalcError(f"{name}(): a number is too large") from err
    except ValueError as err:
        shown = ", ".join(_show(a) for a in args)
        raise _CalcError(f"{name}({shown}) is not defined (outside its domain)") from err


def _evaluate(node: ast.AST) -> Number:
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, complex):
            raise _CalcError(f"complex numbers are not supported{_where(node)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _CalcError(f"only numbers are supported{_where(node)}")
        return _checked(value)
    if isinstance(node, ast.BinOp):
        op = _BINARY.get(type(node.op))
        if op is None:
            raise _CalcError(f"the operator is not supported{_where(node)}; use + - * / // % **")
        left = _evaluate(node.left)
        right = _evaluate(node.right)
        try:
            return op(left, right)
        except OverflowError as err:
            raise _CalcError(f"a number is too large{_where(node)}") from err
        except ValueError as err:
            raise _CalcError(
                f"the operation is not defined (outside its domain){_where(node)}"
            ) from err
        except ZeroDivisionError as err:
            raise _CalcError(f"division by zero{_where(node)}") from err
    if isinstance(node, ast.UnaryOp):
        if isinstance(node.op, ast.USub):
            return _checked(-_evaluate(node.operand))
        if isinstance(node.op, ast.UAdd):
            return _evaluate(node.operand)
        raise _CalcError(f"only unary + and - are supported{_where(node)}")
    if isinstance(node, ast.Call):
        return _call(node)
    if isinstance(node, ast.Name):
        constant = CONSTANTS.get(node.id)
        if constant is None:
            hint = "; call it with ()" if node.id in FUNCTIONS else ""
            raise _CalcError(
                f"unknown name {quoted(node.id)}{_where(node)}{hint}; "
                f"the constants are {', '.join(CONSTANTS)}"
            )
        return constant
    what = _UNSUPPORTED.get(type(node), type(node).__name__)
    raise _CalcError(
        f"{what} not supported{_where(node)}; use numbers, + - * / // % **, "
        "parentheses and the listed functions"
    )


def _depth(tree: ast.AST) -> int:
    """Return the depth of ``tree``, found without recursion."""
    deepest = 0
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


def _parse(expression: str) -> ast.AST:
    expression = expression.strip()
    for i, char in enumerate(expression):
        if char not in _ALLOWED_CHARS:
            raise _CalcError(
                f"character {char!r} at column {i + 1} is not allowed; use digits, "
                "ASCII names, + - * / % ( ) , . and spaces"
            )
    depth = 0
    for char in expression:
        depth += (char == "(") - (char == ")")
        if depth > MAX_DEPTH:
            raise _CalcError(f"parentheses are nested more than {MAX_DEPTH} deep")
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError as err:
        where = f" (at column {err.offset})" if err.offset else ""
        raise _CalcError(f"not a valid arithmetic expression{where}") from err
    except (ValueError, MemoryError, RecursionError) as err:
        raise _CalcError("not a valid arithmetic expression") from err
    if _depth(tree) > MAX_DEPTH:
        raise _CalcError(f"the expression is nested more than {MAX_DEPTH} levels deep")
    return tree


def evaluate(expression: str) -> Number:
    """Evaluate ``expression`` as ``calculator`` does, raising its validation error.

    Raises:
        StandardToolValidationError: the expression is not valid, or its value
            cannot be computed within the bounds (at the path ``expression``).
    """
    try:
        tree = _parse(expression)
        assert isinstance(tree, ast.Expression)
        return _evaluate(tree.body)
    except _CalcError as err:
        raise invalid("expression", str(err)) from err


@tool(name="calculator", title="Calculator")
def calculator(
    expression: Annotated[
        str,
        Param(
            "An arithmetic expression, e.g. '(2 + 3) * sqrt(16) / 2'.",
            min_length=1,
            max_length=MAX_EXPRESSION_CHARS,
            examples=("2 ** 10", "sin(pi / 6)", "round(100 / 7, 2)"),
        ),
    ],
) -> int | float:
    """Evaluate an arithmetic expression and return the number.

    Operators: + - * / // % ** and parentheses. Functions: abs, ceil, floor, round,
    trunc, sqrt, exp, log (natural, or log(x, base)), log10, log2, sin, cos, tan,
    asin, acos, atan, atan2, sinh, cosh, tanh, asinh, acosh, atanh, degrees,
    radians, hypot, factorial, gcd, lcm, min, max. Constants: pi, e, tau.
    Integers are exact up to 1000 digits; results that are not finite are errors.
    """
    return evaluate(expression)
