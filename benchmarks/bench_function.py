"""Function tools: ``@tool`` against pydantic ``validate_call``, ``TypeAdapter`` and toolschema.

Side by side in one process, on the same functions:

- flat: ``get_weather(city: str, units: Literal["c", "f"] = "c")``;
- order: 10 items of a TypedDict with ``qty > 0``, a nested address, an optional note;
- reject: the same order with ``qty = 0`` on the last item;
- decoration of a 10-parameter function;
- output: checking a flat and a nested return value (what ``execute`` does with
  what the function returns) against ``TypeAdapter(...).validate_python``.

Each line is the best of several repeats, in microseconds per call. Ratios are
``@tool`` over ``TypeAdapter`` plus the call (targets: flat <= 1.5x, order <= 2x,
reject <= 2x; output <= 1x; decoration < 1 ms). Run: ``python benchmarks/bench_function.py``.
"""

from __future__ import annotations

import timeit
from typing import Any, Callable, Literal

import toolschema
from annotated_types import Gt
from pydantic import TypeAdapter, ValidationError, validate_call
from typing_extensions import Annotated, NotRequired, TypedDict

from _timing import measure
from standard_tool import StandardToolValidationError, tool


class Item(TypedDict):
    sku: str
    qty: Annotated[int, Gt(0)]


class Address(TypedDict):
    street: str
    city: str
    zip: str


def get_weather(city: str, units: Literal["c", "f"] = "c") -> str:
    """Get the weather for a city."""
    return city


def place_order(items: list[Item], address: Address, note: str | None = None) -> int:
    """Place an order."""
    return len(items)


class TsItem(TypedDict):
    """The same item for toolschema, which reads its own ``Field`` (not annotated-types)."""

    sku: str
    qty: Annotated[int, toolschema.Field(gt=0)]


def ts_place_order(items: list[TsItem], address: Address, note: str | None = None) -> int:
    """Place an order."""
    return len(items)


class WeatherArgs(TypedDict):
    city: str
    units: NotRequired[Literal["c", "f"]]


class OrderArgs(TypedDict):
    items: list[Item]
    address: Address
    note: NotRequired[str | None]


class Weather(TypedDict):
    city: str
    temperature: float
    units: Literal["c", "f"]


class Receipt(TypedDict):
    order_id: int
    items: list[Item]
    address: Address
    note: str | None


def weather_report(city: str) -> Weather:
    """Report the weather."""
    return {"city": city, "temperature": 21.5, "units": "c"}


def receipt(order_id: int) -> Receipt:
    """Return a receipt."""
    return {**RECEIPT_OUT, "order_id": order_id}


FLAT = {"city": "Paris", "units": "f"}
ORDER: dict[str, Any] = {
    "items": [{"sku": f"sku-{i}", "qty": i + 1} for i in range(10)],
    "address": {"street": "1 Main St", "city": "Springfield", "zip": "12345"},
    "note": "leave at the door",
}
REJECT: dict[str, Any] = {**ORDER, "items": [*ORDER["items"][:9], {"sku": "x", "qty": 0}]}
WEATHER_OUT: Weather = {"city": "Paris", "temperature": 21.5, "units": "c"}
RECEIPT_OUT: Receipt = {
    "order_id": 7,
    "items": ORDER["items"],
    "address": ORDER["address"],
    "note": ORDER["note"],
}


def best_of(runners: dict[str, Callable[[], object]], number: int) -> dict[str, float]:
    """Microseconds per call for each runner, best of 7 rounds.

    The rounds interleave the libraries so a busy machine slows them all alike.
    """
    times = {label: float("inf") for label in runners}
    for _ in range(7):
        for label, fn in runners.items():
            elapsed = timeit.timeit(fn, number=number) / number * 1e6
            times[label] = min(times[label], elapsed)
    return times


def best(fn: Callable[[], object], number: int) -> float:
    """Microseconds per call, best of 7 repeats."""
    return min(timeit.repeat(fn, number=number, repeat=7)) / number * 1e6


def rejecting(fn: Callable[[], object], *errors: type[BaseException]) -> Callable[[], object]:
    def run() -> object:
        try:
            fn()
        except errors:
            return True
        return False

    return run


def main() -> None:
    ours_flat = tool(get_weather)
    ours_order = tool(place_order)
    ta_flat = TypeAdapter(WeatherArgs)
    ta_order = TypeAdapter(OrderArgs)
    vc_flat = validate_call(get_weather)
    vc_order = validate_call(place_order)
    ts_flat = toolschema.schema(get_weather)
    ts_order = toolschema.schema(ts_place_order)

    def ts_call(definition: Any, fn: Callable[..., Any], args: dict[str, Any]) -> Any:
        result = definition.validate(args)
        if result.issues:
            raise ValueError(result.issues)
        return fn(**result.value)

    cases: list[tuple[str, dict[str, Any], int, dict[str, Callable[[], object]]]] = [
        (
            "flat",
            FLAT,
            30_000,
            {
                "@tool": lambda: ours_flat.execute(FLAT),
                "TypeAdapter": lambda: get_weather(**ta_flat.validate_python(FLAT)),
                "validate_call": lambda: vc_flat(**FLAT),
                "toolschema": lambda: ts_call(ts_flat, get_weather, FLAT),
            },
        ),
        (
            "order",
            ORDER,
            5_000,
            {
                "@tool": lambda: ours_order.execute(ORDER),
                "TypeAdapter": lambda: place_order(**ta_order.validate_python(ORDER)),
                "validate_call": lambda: vc_order(**ORDER),
                "toolschema": lambda: ts_call(ts_order, place_order, ORDER),
            },
        ),
        (
            "reject",
            REJECT,
            5_000,
            {
                "@tool": rejecting(lambda: ours_order.execute(REJECT), StandardToolValidationError),
                "TypeAdapter": rejecting(
                    lambda: place_order(**ta_order.validate_python(REJECT)), ValidationError
                ),
                "validate_call": rejecting(lambda: vc_order(**REJECT), ValidationError),
                "toolschema": rejecting(lambda: ts_call(ts_order, place_order, REJECT), ValueError),
            },
        ),
    ]
    targets = {"flat": 1.5, "order": 2.0, "reject": 2.0}
    print(f"{'case':<8}{'library':<15}{'us/call':>10}{'vs TypeAdapter':>16}")
    for case, _, number, runners in cases:
        times = best_of(runners, number)
        if case == "reject":
            missed = [label for label, fn in runners.items() if fn() is False]
            for label in missed:
                print(f"note: {label} ACCEPTED the invalid order (qty = 0 in a nested item)")
        base = times["TypeAdapter"]
        for label, us in times.items():
            print(f"{case:<8}{label:<15}{us:>10.2f}{us / base:>15.2f}x")
        ratio = times["@tool"] / base
        verdict = "ok" if ratio <= targets[case] else "OVER TARGET"
        print(
            f"{case:<8}@tool / TypeAdapter = {ratio:.2f}x (target <= {targets[case]}x): {verdict}"
        )
        print()

    def ten(
        a: str,
        b: int,
        c: float,
        d: bool,
        e: list[str],
        f: dict[str, int],
        g: str | None = None,
        h: Literal["x", "y"] = "x",
        i: Annotated[int, Gt(0)] = 1,
        j: tuple[int, str] = (1, "a"),
    ) -> str:
        """Ten parameters.

        Args:
            a: first.
            b: second.
        """
        return a

    decorate = best(lambda: tool(ten), 500)
    print(f"decorate a 10-parameter function: {decorate / 1000:.3f} ms (target < 1 ms)")
    print()
    output_validation()


def output_validation() -> None:
    """``@tool``'s output check of a flat and a nested return value against ``TypeAdapter``.

    ``convert`` is what ``execute`` runs on the returned value (the schema's fast
    path); ``validate`` is the Standard Schema ``validate`` (a result object).
    """
    print(f"{'output':<8}{'library':<22}{'us/call':>10}{'vs TypeAdapter':>16}")
    for case, built, adapter, value in (
        ("flat", tool(weather_report), TypeAdapter(Weather), WEATHER_OUT),
        ("nested", tool(receipt), TypeAdapter(Receipt), RECEIPT_OUT),
    ):
        props = built.output_schema.__standard__
        convert, validate = props.fast_path.convert, props.validate
        assert convert(value) is value
        namespace = {"convert": convert, "validate": validate, "ta": adapter, "value": value}
        times = measure(
            {
                "@tool convert": "convert(value)",
                "@tool validate": "validate(value)",
                "TypeAdapter": "ta.validate_python(value)",
            },
            namespace,
        )
        base = times["TypeAdapter"]
        for label, seconds in times.items():
            print(f"{case:<8}{label:<22}{seconds * 1e6:>10.2f}{seconds / base:>15.2f}x")
        ratio = times["@tool convert"] / base
        verdict = "ok" if ratio <= 1.0 else "OVER TARGET"
        print(f"{case:<8}@tool convert / TypeAdapter = {ratio:.2f}x (target <= 1x): {verdict}")
        print()


if __name__ == "__main__":
    main()
