"""OpenAI Agents SDK bridge in a streamed run, driven by the SDK's own scripted model.

``agents.testing.ScriptedModel`` exists from openai-agents 0.2x on, so this module
is not part of the floor environment's copy of the bridge tests.
"""

from __future__ import annotations

import asyncio
from typing import Any

from agents import Agent, RunConfig, Runner
from agents.items import ToolCallOutputItem
from agents.stream_events import RunItemStreamEvent
from agents.testing import ScriptedModel, assistant_message, function_call

from standard_tool import tool
from standard_tool.integrations.openai_agents import to_openai_agents


@tool
async def forecast(city: str, days: int) -> dict[str, Any]:
    """Forecast the weather.

    Args:
        city: the city.
        days: how many days ahead.
    """
    await asyncio.sleep(0)
    return {"city": city, "days": days}


def test_a_streamed_run_reports_each_tool_output_as_our_text() -> None:
    model = ScriptedModel(
        [
            [
                function_call("forecast", {"city": "Oslo", "days": 2}, call_id="call_1"),
                function_call("forecast", {"city": "Oslo", "days": "2"}, call_id="call_2"),
            ],
            [assistant_message("Clear in Oslo.")],
        ]
    )
    agent = Agent(name="helper", model=model, tools=[to_openai_agents(forecast)])

    async def main() -> tuple[dict[str, Any], Any]:
        run = Runner.run_streamed(agent, "Forecast.", run_config=RunConfig(tracing_disabled=True))
        outputs: dict[str, Any] = {}
        async for event in run.stream_events():
            if isinstance(event, RunItemStreamEvent) and isinstance(event.item, ToolCallOutputItem):
                raw: Any = event.item.raw_item
                outputs[raw["call_id"]] = event.item.output
        return outputs, run.final_output

    outputs, final = asyncio.run(main())

    assert outputs["call_1"] == '{"city": "Oslo", "days": 2}'
    assert outputs["call_2"].startswith("Error: input validation failed: days: ")
    assert final == "Clear in Oslo."
    assert model.remaining_steps == 0
