"""Every path a call takes, against its best peer: one table, one process, paired rounds.

Run: ``python benchmarks/bench_paths.py`` (about two minutes; needs the ``bench``
dependency group for fastjsonschema). Each section times its cases in interleaved
rounds (``_timing.paired``): every round runs every case once, and each case is
divided by its section's base *in the same round*. The figures are the median of
those per-round ratios with their first and third quartiles, so a burst of load on
the machine moves both sides of a ratio alike. The run ends with its CPU/wall
ratio: near 1.0 means the process had a core to itself and the run is a fair one.

Sections (the rows of issue 15):

1. reject: the nested order with ``qty = 0`` in the last of 10 items, rejected by
   ``@tool`` and by the peers, each against pydantic ``TypeAdapter`` ("TA");
2. accept: the same order, valid;
3. adapters: ``standard_tool`` over a pydantic ``TypeAdapter`` and over a msgspec
   ``Struct``, as microseconds over the library's own call, accept and reject;
4. toolkit: ``Toolkit.execute`` of a flat tool, and of the nested order tool,
   against the tool's own ``execute``;
5. runners: ``run_openai_chat_tool_calls`` per call, 1 to 1,000 calls in one
   response, against ``Toolkit.execute`` with the decoded arguments, with the
   runners' default deadline and with none (``timeout=math.inf``); the MCP SDK's
   ``MCPServer.call_tool`` and openai-agents' ``FunctionTool.on_invoke_tool`` on
   the same flat tool for comparison;
6. emission: repeated ``input_json_schema`` / ``to_openai_chat`` / ``to_mcp`` of
   the nested tool, in microseconds and against TA accepting the order (so runs on
   different trees compare).
"""

from __future__ import annotations

import asyncio
import json
import math
import queue
import sys
import threading
from collections.abc import Awaitable, Callable, Coroutine
from contextvars import ContextVar
from pathlib import Path
from time import perf_counter
from typing import Annotated, Any

import fastjsonschema
import msgspec
from annotated_types import Gt
from pydantic import BaseModel, Field, TypeAdapter, ValidationError
from typing_extensions import NotRequired, TypedDict

sys.path.insert(0, str(Path(__file__).parent))

from _timing import CpuWall, Paired, paired
from standard_tool import (
    StandardToolValidationError,
    Toolkit,
    ToolResult,
    input_json_schema,
    standard_tool,
    tool,
)
from standard_tool.providers import run_openai_chat_tool_calls, to_mcp, to_openai_chat
from standard_tool.schemas.pydantic import pydantic_schema

LOOP = asyncio.new_event_loop()

# --------------------------------------------------------------------------------------
# The nested order, in each library's own spelling
# --------------------------------------------------------------------------------------


class Item(TypedDict):
    sku: str
    qty: Annotated[int, Gt(0)]


class Address(TypedDict):
    street: str
    city: str
    zip: str


class Order(TypedDict):
    items: list[Item]
    address: Address
    note: NotRequired[str | None]


class ItemModel(BaseModel):
    sku: str
    qty: int = Field(gt=0)


class AddressModel(BaseModel):
    street: str
    city: str
    zip: str


class OrderModel(BaseModel):
    items: list[ItemModel]
    address: AddressModel
    note: str | None = None


class ItemStruct(msgspec.Struct):
    sku: str
    qty: Annotated[int, msgspec.Meta(gt=0)]


class AddressStruct(msgspec.Struct):
    street: str
    city: str
    zip: str


class OrderStruct(msgspec.Struct):
    items: list[ItemStruct]
    address: AddressStruct
    note: str | None = None


@tool
def place_order(items: list[Item], address: Address, note: str | None = None) -> int:
    """Place an order."""
    return len(items)


def _handler(order: Any) -> int:
    return 1


GOOD: dict[str, Any] = {
    "items": [{"sku": f"sku-{i}", "qty": i + 1} for i in range(10)],
    "address": {"street": "1 Main St", "city": "Springfield", "zip": "12345"},
    "note": None,
}
BAD: dict[str, Any] = {**GOOD, "items": [*GOOD["items"][:9], {"sku": "sku-9", "qty": 0}]}
# A function tool generates its code on its first call, then makes that code its
# ``execute``: a reference taken before (``_rejecting(place_order.execute, ...)``)
# would keep going through the function that made it. Steady state is measured.
place_order.execute(GOOD)

TA = TypeAdapter(Order)
TA_VALIDATE = TA.validate_python
ORDER_STRUCT_SCHEMA = msgspec.json.schema(OrderStruct)
FJS = fastjsonschema.compile(input_json_schema(place_order))
PYDANTIC_TOOL = standard_tool(
    name="order", description="d", input_schema=pydantic_schema(Order), execute=_handler
)
MSGSPEC_TOOL = standard_tool(
    name="order", description="d", input_schema=OrderStruct, execute=_handler
)


def _ta_accept() -> Any:
    value = TA_VALIDATE(GOOD)
    return place_order(**value)


def _rejecting(
    fn: Callable[[Any], Any], value: Any, *errors: type[BaseException]
) -> Callable[[], Any]:
    def run() -> Any:
        try:
            fn(value)
        except errors:
            return None
        raise AssertionError("accepted the invalid order")

    return run


def _then_call(validate: Callable[[Any], Any], unpack: bool) -> Callable[[Any], Any]:
    if unpack:
        return lambda value: place_order(**validate(value))
    return lambda value: _handler(validate(value))


def _fjs(value: Any) -> Any:
    return place_order(**FJS(value))


# --------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------


def _row(label: str, figure: Paired, base: str) -> str:
    low, high = figure.spread
    return f"  {label:<58} {figure.us:8.2f} us  {figure.ratio:5.2f}x [{low:.2f}-{high:.2f}]  {base}"


#: The function under ``@tool``, called directly by the hand-written floor.
_PLACE_ORDER: Callable[..., int] = place_order.__wrapped__


def _floor_accept(value: Any) -> Any:
    """The least pure Python can do for the order: ``@tool``'s tests and copies, no errors.

    What the generated code does on a valid order, written by hand: the same
    type, key-count and bound tests, the same fresh dicts for the handler, and
    the output's type test. Anything faster than this has to leave Python.
    """
    if type(value) is not dict or len(value) != 2 + ("note" in value):
        raise ValueError("invalid")
    items, address, note = value["items"], value["address"], value.get("note")
    if type(items) is not list:
        raise ValueError("invalid")
    copied = []
    for item in items:
        if type(item) is not dict or len(item) != 2:
            raise ValueError("invalid")
        sku, qty = item["sku"], item["qty"]
        if type(sku) is not str or type(qty) is not int or not qty > 0:
            raise ValueError("invalid")
        copied.append({"sku": sku, "qty": qty})
    if type(address) is not dict or len(address) != 3:
        raise ValueError("invalid")
    street, city, zip_code = address["street"], address["city"], address["zip"]
    if type(street) is not str or type(city) is not str or type(zip_code) is not str:
        raise ValueError("invalid")
    if note is not None and type(note) is not str:
        raise ValueError("invalid")
    result = _PLACE_ORDER(copied, {"street": street, "city": city, "zip": zip_code}, note)
    if type(result) is not int:
        raise ValueError("invalid output")
    return result


def validation() -> list[str]:
    lines = ["1-2. nested order (10 items), against TypeAdapter(Order).validate_python + call"]
    accept = {
        "TA": _ta_accept,
        "@tool": lambda: place_order.execute(GOOD),
        "floor: the same tests and copies, by hand in Python": lambda: _floor_accept(GOOD),
        "msgspec.convert(x, OrderStruct)": lambda: _handler(msgspec.convert(GOOD, OrderStruct)),
        "pydantic BaseModel.model_validate": lambda: _handler(OrderModel.model_validate(GOOD)),
        "fastjsonschema": lambda: _fjs(GOOD),
    }
    reject = {
        "TA": _rejecting(_then_call(TA_VALIDATE, True), BAD, ValidationError),
        "@tool": _rejecting(place_order.execute, BAD, StandardToolValidationError),
        "msgspec.convert(x, OrderStruct)": _rejecting(
            _then_call(lambda v: msgspec.convert(v, OrderStruct), False),
            BAD,
            msgspec.ValidationError,
        ),
        "pydantic BaseModel.model_validate": _rejecting(
            _then_call(OrderModel.model_validate, False), BAD, ValidationError
        ),
        "fastjsonschema": _rejecting(_fjs, BAD, fastjsonschema.JsonSchemaException),
    }
    for title, cases in (("reject (items[9].qty = 0)", reject), ("accept", accept)):
        lines.append(f" {title}")
        figures = paired(cases, "TA")
        for name, figure in figures.items():
            lines.append(_row(name, figure, "TA"))
    lines.append(" reject, then read the message (what a model loop sends back)")
    read = {
        "TA + str(err)": _reading(_then_call(TA_VALIDATE, True), ValidationError),
        "@tool + str(err)": _reading(place_order.execute, StandardToolValidationError),
        "@tool.formatted()": lambda: FORMATTED.execute(BAD),
    }
    for name, figure in paired(read, "TA + str(err)").items():
        lines.append(_row(name, figure, "TA + str(err)"))
    return lines


FORMATTED = place_order.formatted()


def _reading(fn: Callable[[Any], Any], error: type[BaseException]) -> Callable[[], Any]:
    def run() -> Any:
        try:
            fn(BAD)
        except error as err:
            return str(err)
        raise AssertionError("accepted the invalid order")

    return run


def adapters() -> list[str]:
    lines = ["3. schema adapters: microseconds over the wrapped library's own call (+ handler)"]
    groups = {
        "pydantic TypeAdapter(Order)": (
            PYDANTIC_TOOL,
            lambda v: _handler(TA_VALIDATE(v)),
            ValidationError,
        ),
        "msgspec OrderStruct": (
            MSGSPEC_TOOL,
            lambda v: _handler(msgspec.convert(v, OrderStruct)),
            msgspec.ValidationError,
        ),
    }
    floors = {"msgspec OrderStruct": _floor_msgspec}
    for label, (wrapped, own, error) in groups.items():
        cases = {
            "own accept": lambda own=own: own(GOOD),
            "tool accept": lambda wrapped=wrapped: wrapped.execute(GOOD),
            "own reject": _rejecting(own, BAD, error),
            "tool reject": _rejecting(wrapped.execute, BAD, StandardToolValidationError),
        }
        floor = floors.get(label)
        if floor is not None:
            cases["floor reject"] = _rejecting(floor, BAD, ValueError)
        figures = paired(cases, "own accept")
        reject_delta = _median_delta(figures["tool reject"], figures["own reject"])
        lines.append(
            f"  {label:<34} accept +{figures['tool accept'].delta_us:.2f} us"
            f" ({figures['tool accept'].ratio:.2f}x), reject +{reject_delta:.2f} us"
            f" (own: {figures['own accept'].us:.2f} / {figures['own reject'].us:.2f} us)"
        )
        if floor is not None:
            floor_delta = _median_delta(figures["floor reject"], figures["own reject"])
            lines.append(
                f"  {'':<34} floor: a bare wrapper that turns the library's error into"
                f" another, reject +{floor_delta:.2f} us"
            )
    return lines


def _msgspec_convert(value: Any) -> Any:
    return msgspec.convert(value, OrderStruct)  # ``type`` passed positionally, as ours does


def _floor_msgspec(value: Any) -> Any:
    """What any adapter pays to raise an error of its own: one more frame, one more raise."""
    try:
        order = _msgspec_convert(value)
    except msgspec.ValidationError as err:
        raise ValueError("invalid") from err
    return _handler(order)


def _median_delta(case: Paired, base: Paired) -> float:
    """Median per-round difference between two cases paired against the same base."""
    deltas = sorted(c - b for c, b in zip(case.deltas, base.deltas, strict=True))
    return Paired._median(deltas) * 1e6


# --------------------------------------------------------------------------------------
# Toolkit and runners
# --------------------------------------------------------------------------------------


def _add(args: dict[str, int]) -> int:
    return args["a"] + args["b"]


async def _aadd(args: dict[str, int]) -> int:
    return args["a"] + args["b"]


class AddArgs(TypedDict):
    a: int
    b: int


ADD_SCHEMA = pydantic_schema(AddArgs)
ADD = standard_tool(name="add", description="Add.", input_schema=ADD_SCHEMA, execute=_add)
AADD = standard_tool(name="aadd", description="Add.", input_schema=ADD_SCHEMA, execute=_aadd)
KIT = Toolkit([ADD, AADD])
ARGS = {"a": 2, "b": 3}
ARGS_JSON = json.dumps(ARGS)


try:  # the toolkit's own way to build a result, the fastest known
    from standard_tool._toolkit import _NO_METADATA, _succeeded
except ImportError:  # a tree from before it (a "before" run): the public constructor

    def _succeeded(  # type: ignore[misc]
        name: str, call_id: str | None, value: Any, start: float, metadata: Any
    ) -> ToolResult:
        return ToolResult(name, call_id, True, value, duration=perf_counter() - start)

    _NO_METADATA = {}


_FLOOR_CONTEXT: ContextVar[Any] = ContextVar("floor_context", default=None)
_FLOOR_TOOLS = {"add": ADD}


def _floor_toolkit(name: str, args: Any) -> ToolResult:
    """What every ``Toolkit.execute`` must do around the tool: no more.

    Find the tool, make the call's context current (so the handler can read it)
    and restore it, time the call, and return a frozen ``ToolResult`` (built the
    fastest way known, as the toolkit builds it).
    """
    start = perf_counter()
    found = _FLOOR_TOOLS[name]
    token = _FLOOR_CONTEXT.set(name)
    try:
        value = found.execute(args, None)
    finally:
        _FLOOR_CONTEXT.reset(token)
    return _succeeded(name, None, value, start, _NO_METADATA)


def toolkit() -> list[str]:
    lines = ["4. Toolkit.execute of a flat tool, against the tool's own execute"]
    cases = {
        "tool.execute(args)": lambda: ADD.execute(ARGS),
        "floor: look-up, context, clock, result": lambda: _floor_toolkit("add", ARGS),
        "Toolkit.execute(name, args)": lambda: KIT.execute("add", ARGS),
        "Toolkit.execute(name, args, timeout=5)": lambda: KIT.execute("add", ARGS, timeout=5),
    }
    for name, figure in paired(cases, "tool.execute(args)").items():
        lines.append(_row(name, figure, "tool.execute"))
    lines.append(" the nested order tool (10 items)")
    order_kit = Toolkit([place_order])
    cases = {
        "place_order.execute(order)": lambda: place_order.execute(GOOD),
        "Toolkit.execute('place_order', order)": lambda: order_kit.execute("place_order", GOOD),
    }
    for name, figure in paired(cases, "place_order.execute(order)").items():
        lines.append(_row(name, figure, "tool.execute"))
    return lines


def _chat(name: str, count: int) -> dict[str, Any]:
    calls = [
        {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": ARGS_JSON}}
        for i in range(count)
    ]
    return {"choices": [{"message": {"role": "assistant", "tool_calls": calls}}]}


def _in_loop(make: Callable[[], Awaitable[Any]], times: int) -> Callable[[], Any]:
    """One sample: ``times`` awaits inside one running loop, so loop entry is amortised."""

    async def many() -> None:
        for _ in range(times):
            await make()

    return lambda: LOOP.run_until_complete(many())


def runners() -> list[str]:
    lines = [
        "5. run_openai_chat_tool_calls, per call, against Toolkit.execute with decoded arguments"
    ]
    peers = _runner_peers()
    for count in (1, 10, 100, 1000):
        repeat = max(1, 1000 // count)
        per = repeat * count
        sync_response, async_response = _chat("add", count), _chat("aadd", count)

        def kit_sync(times: int = per) -> None:
            for _ in range(times):
                KIT.execute("add", ARGS)

        async def kit_async() -> None:
            await KIT.aexecute("aadd", ARGS)

        cases: dict[str, Callable[[], Any]] = {
            "Toolkit.execute": kit_sync,
            "await Toolkit.aexecute": _in_loop(kit_async, per),
            "runner, sync tool": _in_loop(
                lambda r=sync_response: run_openai_chat_tool_calls(r, KIT), repeat
            ),
            "runner, async tool": _in_loop(
                lambda r=async_response: run_openai_chat_tool_calls(r, KIT), repeat
            ),
            "runner, sync tool, timeout=math.inf": _in_loop(
                lambda r=sync_response: run_openai_chat_tool_calls(r, KIT, timeout=math.inf),
                repeat,
            ),
            "runner, async tool, timeout=math.inf": _in_loop(
                lambda r=async_response: run_openai_chat_tool_calls(r, KIT, timeout=math.inf),
                repeat,
            ),
        }
        cases["floor: a task per call (asyncio.gather)"] = _in_loop(
            lambda n=count: asyncio.gather(*[_aadd(ARGS) for _ in range(n)]), repeat
        )
        if count == 1:
            cases["floor: the runner, for a response with no call"] = _in_loop(
                lambda: run_openai_chat_tool_calls(EMPTY, KIT, timeout=math.inf), per
            )
            cases["floor: json.loads of the arguments"] = lambda per=per: [
                json.loads(ARGS_JSON) for _ in range(per)
            ]
            cases["floor: one hand-over to a waiting worker thread"] = _handing_over(per)
            for name, make in peers.items():
                cases[name] = _in_loop(make, per)
        figures = paired(cases, "Toolkit.execute", rounds=15)
        lines.append(f" {count} call(s) per response")
        for name, figure in figures.items():
            figure.seconds = [s / per for s in figure.seconds]
            lines.append(_row(name, figure, "Toolkit.execute"))
    return lines


EMPTY: dict[str, Any] = {"choices": [{"message": {"role": "assistant", "tool_calls": []}}]}


def _handing_over(times: int) -> Callable[[], Any]:
    """A sync call under a deadline must leave the loop's thread: the least that costs.

    One worker thread, already started and waiting; each call puts the work on
    its queue and waits for the result, as the runner's thread hand-over must.
    """
    work: queue.SimpleQueue[Any] = queue.SimpleQueue()
    done = threading.Event()
    out: list[Any] = [None]

    def worker() -> None:
        while True:
            job = work.get()
            if job is None:
                return
            out[0] = KIT.execute("add", ARGS)
            done.set()

    threading.Thread(target=worker, daemon=True).start()

    def run() -> None:
        for _ in range(times):
            done.clear()
            work.put(1)
            done.wait()

    return run


def _runner_peers() -> dict[str, Callable[[], Coroutine[Any, Any, Any]]]:
    from agents import RunContextWrapper, function_tool
    from agents.tool_context import ToolContext
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("bench")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add."""
        return a + b

    @function_tool
    def agents_add(a: int, b: int) -> int:
        """Add."""
        return a + b

    context = ToolContext(
        context=None, tool_name="agents_add", tool_call_id="c0", tool_arguments=ARGS_JSON
    )
    assert isinstance(context, RunContextWrapper)
    return {
        "peer: MCP SDK MCPServer.call_tool": lambda: server.call_tool("add", ARGS),
        "peer: openai-agents FunctionTool.on_invoke_tool": lambda: agents_add.on_invoke_tool(
            context, ARGS_JSON
        ),
    }


# --------------------------------------------------------------------------------------
# Emission
# --------------------------------------------------------------------------------------


def emission() -> list[str]:
    lines = [
        "6. repeated emission of the nested order tool (us, and against TA accepting the order)"
    ]
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("bench")
    server.tool()(_order_fn)
    cases: dict[str, Callable[[], Any]] = {
        "TA": _ta_accept,
        "input_json_schema(tool)": lambda: input_json_schema(place_order),
        "to_openai_chat(tool)": lambda: to_openai_chat(place_order),
        "to_mcp(tool)": lambda: to_mcp(place_order),
        "peer: MCP SDK MCPServer.list_tools (1 tool)": lambda: LOOP.run_until_complete(
            server.list_tools()
        ),
    }
    for name, figure in paired(cases, "TA").items():
        lines.append(_row(name, figure, "TA"))
    return lines


def _order_fn(items: list[Item], address: Address, note: str | None = None) -> int:
    """Place an order."""
    return len(items)


def main() -> None:
    import platform

    with CpuWall() as clock:
        sections = [validation(), adapters(), toolkit(), runners(), emission()]
    print(f"CPython {platform.python_version()}, {platform.machine()}")
    print("median of per-round ratios [first-third quartile]\n")
    for section in sections:
        print("\n".join(section))
        print()
    print(f"CPU/wall for the whole run: {clock.ratio:.3f} (near 1.0: a quiet machine)")


if __name__ == "__main__":
    try:
        main()
    finally:
        LOOP.close()
