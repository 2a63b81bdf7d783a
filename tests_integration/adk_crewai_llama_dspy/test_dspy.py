"""DSPy bridge: our tools in a ``dspy.ReAct`` program's own loop, and ``dspy.Tool`` as ours.

The program runs on DSPy's own test model, ``DummyLM``, which answers each request
with the next scripted output: a good call, a rejected call, a raising tool, then
``finish`` and the answer. The test reads the prompts DSPy sent (our schemas in
the tool list, each observation in the trajectory the model is shown next).
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import dspy
import pytest
from dspy.utils.dummies import DummyLM
from tests.context_tools import whoami
from tests.fakes.tools import PlainTool
from tests_integration.adk_crewai_llama_dspy.tools import explode, forecast, tag_count

from standard_tool import StandardToolValidationError, Toolkit, standard_tool
from standard_tool.integrations.dspy import StandardDSPyTool, from_dspy, to_dspy
from standard_tool.providers import to_openai_chat


def _step(name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"next_thought": f"call {name}", "next_tool_name": name, "next_tool_args": args}


SCRIPT = [
    _step("tag_count", {"tags": {"a": "1", "b": "2"}}),
    _step("forecast", {"city": "Paris", "days": "three"}),
    _step("explode", {"reason": "no such luck"}),
    _step("finish", {}),
    {"reasoning": "read the observations", "answer": "Two tags; no forecast."},
]

ERRORS = [
    "Error: input validation failed: days: expected integer, got string 'three'",
    "Error: RuntimeError: no such luck",
]


def _prompt(lm: DummyLM, index: int) -> str:
    return "\n".join(str(m["content"]) for m in lm.history[index]["messages"])


def _check_the_turn(lm: DummyLM, prediction: Any) -> None:
    assert prediction.answer == "Two tags; no forecast."
    observations = [prediction.trajectory[f"observation_{i}"] for i in range(3)]
    assert observations == ["2", *ERRORS]
    first = _prompt(lm, 0)
    for ours in (tag_count, forecast, explode):
        schema = to_openai_chat(ours, strict=False)["function"]["parameters"]
        assert f"It takes arguments matching the JSON Schema {json.dumps(schema)}." in first
    # the model is shown each observation on its next step: the loop went on after both errors
    assert ERRORS[0] in _prompt(lm, 2)
    assert ERRORS[1] in _prompt(lm, 3)


# -- the DSPy ReAct loop ------------------------------------------------------------------


def test_a_good_call_a_rejected_call_and_a_raising_tool_in_one_program() -> None:
    lm = DummyLM(list(SCRIPT))
    react = dspy.ReAct("question -> answer", tools=to_dspy(Toolkit([tag_count, forecast, explode])))

    with dspy.context(lm=lm):
        prediction = react(question="Count and forecast.")

    _check_the_turn(lm, prediction)


def test_the_same_program_run_async() -> None:
    lm = DummyLM(list(SCRIPT))
    react = dspy.ReAct("question -> answer", tools=to_dspy([tag_count, forecast, explode]))

    async def main() -> Any:
        with dspy.context(lm=lm):
            return await react.acall(question="Count and forecast.")

    _check_the_turn(lm, asyncio.run(main()))


def test_a_tool_reads_its_call_context_in_the_program() -> None:
    lm = DummyLM(
        [_step("whoami", {"sku": "A-1"}), _step("finish", {}), {"reasoning": "r", "answer": "ok"}]
    )
    react = dspy.ReAct("question -> answer", tools=[to_dspy(whoami)])

    with dspy.context(lm=lm):
        prediction = react(question="Who?")

    seen = json.loads(prediction.trajectory["observation_0"])
    assert (seen["tool"], seen["raw"]) == ("whoami", {"sku": "A-1"})
    assert seen["call"].startswith("call_")


# -- to DSPy --------------------------------------------------------------------------------


def test_dspy_does_not_check_or_convert_the_arguments_first() -> None:
    bridged = to_dspy(tag_count)

    assert bridged(tags={"a": "b"}) == "1"
    assert bridged(tags={"a": 1}) == (
        "Error: input validation failed: tags.a: expected string, got integer 1"
    )
    assert "extra" in bridged(tags={}, extra=1)
    assert (
        bridged.args
        == to_openai_chat(tag_count, strict=False)["function"]["parameters"]["properties"]
    )
    declared = bridged.format_as_litellm_function_call()["function"]["parameters"]
    assert declared == to_openai_chat(tag_count, strict=False)["function"]["parameters"]


def test_a_sync_tool_runs_in_a_worker_thread_and_an_async_one_in_the_loop() -> None:
    threads: dict[str, int] = {}

    def sync_handler(input: Any) -> str:
        threads["sync"] = threading.get_ident()
        return "s"

    async def async_handler(input: Any) -> str:
        threads["async"] = threading.get_ident()
        return "a"

    sync_tool, async_tool = to_dspy(
        [
            standard_tool(name="s", description="Sync.", execute=sync_handler),
            standard_tool(name="a", description="Async.", execute=async_handler),
        ]
    )

    async def main() -> list[str]:
        threads["loop"] = threading.get_ident()
        out = [await sync_tool.acall(), await async_tool.acall()]
        threads["awaited"] = threads["async"]
        return [*out, async_tool()]  # a sync call inside a running loop

    assert asyncio.run(main()) == ["s", "a", "a"]
    assert threads["awaited"] == threads["loop"]
    assert threads["sync"] != threads["loop"]
    assert threads["async"] != threads["loop"]  # the sync call ran in a loop of its own


def test_a_toolkit_becomes_a_list_in_order() -> None:
    bridged = to_dspy(Toolkit([forecast, tag_count]))

    assert [t.name for t in bridged] == ["forecast", "tag_count"]
    assert isinstance(to_dspy(forecast), StandardDSPyTool)
    assert bridged[0].standard_tool is forecast
    assert bridged[0].desc == forecast.description


# -- from DSPy ------------------------------------------------------------------------------


def shout(text: str, times: int = 1) -> str:
    """Shout a text, ``times`` times."""
    return " ".join([text.upper()] * times)


async def ashout(text: str) -> str:
    """Shout a text, asynchronously."""
    await asyncio.sleep(0)
    return text.upper()


def test_a_dspy_tool_becomes_a_standard_tool_validated_by_us() -> None:
    st = from_dspy(dspy.Tool(shout))

    assert st.name == "shout"
    assert "Shout a text" in st.description
    assert asyncio.run(st.execute({"text": "hi", "times": 2})) == "HI HI"
    assert asyncio.run(st.execute({"text": "hi"})) == "HI"
    with pytest.raises(StandardToolValidationError) as info:
        asyncio.run(st.execute({"text": "hi", "times": "2"}))
    assert info.value.target == "input"
    assert "times" in str(info.value)
    with pytest.raises(StandardToolValidationError, match="text"):
        asyncio.run(st.execute({}))


def test_an_async_dspy_tool_runs_and_what_it_raises_propagates() -> None:
    assert asyncio.run(from_dspy(dspy.Tool(ashout)).execute({"text": "hi"})) == "HI"

    def boom(reason: str) -> str:
        """Fail."""
        raise KeyError(reason)

    with pytest.raises(KeyError):
        asyncio.run(from_dspy(dspy.Tool(boom)).execute({"reason": "x"}))


def test_a_toolkit_mixes_dspy_tools_and_ours() -> None:
    kit = Toolkit([from_dspy(dspy.Tool(shout)), tag_count])

    async def main() -> list[Any]:
        return [
            await kit.aexecute("shout", {"text": "a", "times": 3}),
            await kit.aexecute("shout", {"times": 3}),
            await kit.aexecute("tag_count", {"tags": {"x": "y"}}),
        ]

    ok, bad, ours = asyncio.run(main())
    assert ok.value == "A A A"
    assert not bad.success
    assert "text" in str(bad.error)
    assert ours.value == 1


def test_round_trip_gives_back_the_same_tool() -> None:
    assert from_dspy(to_dspy(tag_count)) is tag_count


def test_round_trip_of_a_plain_object_tool_runs_it() -> None:
    back = from_dspy(to_dspy(PlainTool()))

    assert asyncio.run(back.execute({})) == json.dumps({"input": {}, "meta": None})


def test_a_rich_result_is_its_bounded_text_naming_dspy() -> None:
    from tests_integration.adk_crewai_llama_dspy.tools import snapshot, snapshot_text

    bridged = to_dspy(snapshot)

    assert bridged() == snapshot_text("DSPy")
    assert asyncio.run(bridged.acall()) == snapshot_text("DSPy")
