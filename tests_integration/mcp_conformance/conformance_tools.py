"""The tools the MCP conformance suite's server scenarios call, built with this package.

``@modelcontextprotocol/conformance`` (read at 0.2.0-alpha.12) names each tool, its
arguments and what it must return; serve ``TOOLS`` and ``ROUND_TOOLS`` with the
one-call server (``standard_tool.mcp.serve`` / ``http_app``) and point the suite's
server scenarios at it. ``TOOLS``: text, image, audio, embedded-resource and mixed
content, an error, progress, logging, sampling and the three elicitation scenarios.
``ROUND_TOOLS``: the input-required (multi-round, protocol 2026-07-28) scenarios,
written as any tool that asks its client is written: the same handler code serves
the older protocol versions with requests to the client. (The JSON Schema 2020-12,
``x-mcp-header`` and SSE reconnection tools belong to the serving options, not to
these tools.)
"""

from __future__ import annotations

import asyncio
import json
import struct

from standard_tool import CallerUnavailableError, ToolContext, tool
from standard_tool.content import Audio, EmbeddedResource, Image, Text, ToolOutput

#: A 1x1 red PNG.
RED_PIXEL = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8cfc0f01f0005000201e5270bde0000000049454e44ae426082"
)
#: An empty 8 kHz mono 16-bit WAV file.
SILENCE = b"".join(
    [
        b"RIFF",
        struct.pack("<I", 36),
        b"WAVEfmt ",
        struct.pack("<IHHIIHH", 16, 1, 1, 8000, 16000, 2, 16),
        b"data",
        struct.pack("<I", 0),
    ]
)


@tool
def test_simple_text() -> str:
    """Return simple text."""
    return "This is a simple text response for testing."


@tool
def test_image_content() -> Image:
    """Return a 1x1 red PNG."""
    return Image(RED_PIXEL, "image/png")


@tool
def test_audio_content() -> Audio:
    """Return a short WAV file."""
    return Audio(SILENCE, "audio/wav")


@tool
def test_embedded_resource() -> EmbeddedResource:
    """Return an embedded text resource."""
    return EmbeddedResource(
        "test://embedded-resource",
        text="This is an embedded resource content.",
        mime_type="text/plain",
    )


@tool
def test_multiple_content_types() -> ToolOutput:
    """Return text, an image and a resource."""
    return ToolOutput(
        [
            Text("Multiple content types test:"),
            Image(RED_PIXEL, "image/png"),
            EmbeddedResource(
                "test://mixed-content-resource",
                text=json.dumps({"test": "data", "value": 123}),
                mime_type="application/json",
            ),
        ]
    )


@tool
def test_error_handling() -> str:
    """Always fail."""
    raise RuntimeError("This tool intentionally returns an error for testing")


@tool
async def test_tool_with_progress(ctx: ToolContext) -> str:
    """Report progress 0, 50 and 100 of 100."""
    for step in (0, 50, 100):
        ctx.report_progress(step, 100)
        if step < 100:
            await asyncio.sleep(0.05)
    return "Progress tool completed"


@tool
async def test_tool_with_logging(ctx: ToolContext) -> str:
    """Send three info log messages while running."""
    await ctx.log("info", "Tool execution started")
    await asyncio.sleep(0.05)
    await ctx.log("info", "Tool processing data")
    await asyncio.sleep(0.05)
    await ctx.log("info", "Tool execution completed")
    return "Logging tool completed"


@tool
async def test_sampling(prompt: str, ctx: ToolContext) -> str:
    """Ask the client's model to answer the prompt."""
    answer = await ctx.sample(prompt, max_tokens=100)
    return f"LLM response: {answer}"


_USER = {
    "type": "object",
    "properties": {
        "username": {"type": "string", "description": "User's response"},
        "email": {"type": "string", "description": "User's email address"},
    },
    "required": ["username", "email"],
}


@tool
async def test_elicitation(message: str, ctx: ToolContext) -> str:
    """Ask the user for a username and an email address."""
    answer = await ctx.elicit(message, _USER)
    return f"User response: <action: {answer.action}, content: {json.dumps(answer.content)}>"


_DEFAULTS = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "age": {"type": "integer", "default": 30},
        "score": {"type": "number", "default": 95.5},
        "status": {
            "type": "string",
            "enum": ["active", "inactive", "pending"],
            "default": "active",
        },
        "verified": {"type": "boolean", "default": True},
    },
}


@tool
async def test_elicitation_sep1034_defaults(ctx: ToolContext) -> str:
    """Ask with a default for every primitive type (SEP-1034)."""
    answer = await ctx.elicit("Please review and update the form fields with defaults", _DEFAULTS)
    return f"Elicitation completed: action={answer.action}, content={json.dumps(answer.content)}"


_ENUMS = {
    "type": "object",
    "properties": {
        "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
        "titledSingle": {
            "type": "string",
            "oneOf": [
                {"const": "value1", "title": "First Option"},
                {"const": "value2", "title": "Second Option"},
                {"const": "value3", "title": "Third Option"},
            ],
        },
        "legacyEnum": {
            "type": "string",
            "enum": ["opt1", "opt2", "opt3"],
            "enumNames": ["Option One", "Option Two", "Option Three"],
        },
        "untitledMulti": {
            "type": "array",
            "items": {"type": "string", "enum": ["option1", "option2", "option3"]},
        },
        "titledMulti": {
            "type": "array",
            "items": {
                "anyOf": [
                    {"const": "value1", "title": "First Choice"},
                    {"const": "value2", "title": "Second Choice"},
                    {"const": "value3", "title": "Third Choice"},
                ]
            },
        },
    },
}


@tool
async def test_elicitation_sep1330_enums(ctx: ToolContext) -> str:
    """Ask with all five enum shapes (SEP-1330)."""
    answer = await ctx.elicit("Please select options from the enum fields", _ENUMS)
    return f"Elicitation completed: action={answer.action}, content={json.dumps(answer.content)}"


TOOLS = [
    test_simple_text,
    test_image_content,
    test_audio_content,
    test_embedded_resource,
    test_multiple_content_types,
    test_error_handling,
    test_tool_with_progress,
    test_tool_with_logging,
    test_sampling,
    test_elicitation,
    test_elicitation_sep1034_defaults,
    test_elicitation_sep1330_enums,
]


# -- Input-required results (SEP-2322): the same ctx.elicit / sample / roots ---------------

_NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
_OK = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
_COLOR = {"type": "object", "properties": {"color": {"type": "string"}}, "required": ["color"]}


@tool
async def test_input_required_result_elicitation(ctx: ToolContext) -> str:
    """Ask the user's name, then greet them."""
    answer = await ctx.elicit("What is your name?", _NAME, key="user_name")
    return f"Hello, {(answer.content or {}).get('name', 'stranger')}!"


@tool
async def test_input_required_result_sampling(ctx: ToolContext) -> str:
    """Ask the client's model a question."""
    text = await ctx.sample("What is the capital of France?", max_tokens=100)
    return f"Model said: {text}"


@tool
async def test_input_required_result_list_roots(ctx: ToolContext) -> str:
    """Count the client's roots."""
    roots = await ctx.roots()
    return f"Client exposed {len(roots)} root(s)."


@tool
async def test_input_required_result_request_state(ctx: ToolContext) -> str:
    """Ask for a confirmation; the answer comes back through the signed request state."""
    answer = await ctx.elicit("Please confirm", _OK)
    return f"state-ok: confirmation {answer.action}ed"


@tool
async def test_input_required_result_multiple_inputs(ctx: ToolContext) -> str:
    """Ask the user, the model and the roots at once (one round, three questions)."""
    await asyncio.gather(
        ctx.elicit("What is your name?", _NAME),
        ctx.sample("Generate a greeting", max_tokens=50),
        ctx.roots(),
    )
    return "All inputs received."


@tool
async def test_input_required_result_multi_round(ctx: ToolContext) -> str:
    """Ask a name, then a colour: two questions, three rounds."""
    name = await ctx.elicit("Step 1: What is your name?", _NAME)
    color = await ctx.elicit("Step 2: What is your favorite color?", _COLOR)
    return f"{(name.content or {}).get('name')} likes {(color.content or {}).get('color')}."


@tool
async def test_input_required_result_tampered_state(ctx: ToolContext) -> str:
    """Ask for a confirmation (a changed request state is refused before this runs again)."""
    answer = await ctx.elicit("Please confirm", _OK)
    return f"state-ok: {answer.action}"


@tool
async def test_input_required_result_capabilities(ctx: ToolContext) -> str:
    """Ask only what the client declared it can answer."""
    asked = []
    for ask in (lambda: ctx.sample("Say hello", max_tokens=50), lambda: ctx.elicit("Name?", _NAME)):
        try:
            await ask()
        except CallerUnavailableError:
            continue
        asked.append("answered")
    return f"{len(asked)} question(s) answered"


@tool
async def test_missing_capability() -> str:
    """Need the client's sampling capability (declared when served: required_capabilities)."""
    return "Client declared sampling capability; proceeding."


@tool
async def test_reconnection() -> str:
    """Answer on the request's stream (SEP-1699's stream closing is not asked of tools here)."""
    await asyncio.sleep(0.05)
    return "Reconnected"


ROUND_TOOLS = [
    test_input_required_result_elicitation,
    test_input_required_result_sampling,
    test_input_required_result_list_roots,
    test_input_required_result_request_state,
    test_input_required_result_multiple_inputs,
    test_input_required_result_multi_round,
    test_input_required_result_tampered_state,
    test_input_required_result_capabilities,
    test_missing_capability,
    test_reconnection,
]
#: What ``test_missing_capability`` needs: ``server(required_capabilities=...)``.
REQUIRED_CAPABILITIES = {"test_missing_capability": ["sampling"]}


# -- Tasks (the extension io.modelcontextprotocol/tasks): served with TASK_OPTIONS ----------


@tool
def greet(name: str) -> str:
    """Greet someone (never a task)."""
    return f"Hello, {name}!"


@tool
async def slow_compute(seconds: float, label: str = "") -> str:
    """Compute for a while (a task when it outlives half a second)."""
    await asyncio.sleep(seconds)
    return f"computed {label} in {seconds:g} s"


@tool
async def failing_job() -> str:
    """Fail after a second: a tool error, so the task completes with isError."""
    await asyncio.sleep(1)
    raise RuntimeError("the job failed")


@tool
async def protocol_error_job() -> str:
    """Fail after a second with a protocol error, so the task fails."""
    from mcp.shared.exceptions import MCPError

    await asyncio.sleep(1)
    raise MCPError(code=-32603, message="the job broke down")


_CONFIRM = {"type": "object", "properties": {"confirm": {"type": "boolean"}}}


@tool
async def confirm_delete(filename: str, ctx: ToolContext) -> str:
    """Look the file up, then ask before deleting it (asked on the task)."""
    await asyncio.sleep(0.8)
    answer = await ctx.elicit(f"Delete {filename}?", _CONFIRM)
    confirmed = answer.action == "accept" and (answer.content or {}).get("confirm") is True
    return f"deleted {filename}" if confirmed else f"kept {filename}"


_EITHER = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "confirm": {"type": "boolean"}},
}


@tool
async def multi_input(ctx: ToolContext) -> str:
    """Ask two questions at once, on the task."""
    await asyncio.sleep(0.8)
    first, second = await asyncio.gather(
        ctx.elicit("Who are you?", _EITHER), ctx.elicit("Are you sure?", _EITHER)
    )
    return f"got {first.action} and {second.action}"


@tool
async def test_tool_with_task(ctx: ToolContext) -> str:
    """Ask a name (a round before the task), then work on it as a task."""
    answer = await ctx.elicit("What is your name?", _NAME, key="user_name")
    await asyncio.sleep(1)
    return f"Hello, {(answer.content or {}).get('name')}, from a task"


TASK_TOOLS = [
    greet,
    slow_compute,
    failing_job,
    protocol_error_job,
    confirm_delete,
    multi_input,
    test_tool_with_task,
]
#: How they run as tasks: ``server(tasks=TaskOptions(TASK_SUPPORT, ...))``.
TASK_SUPPORT = {
    "slow_compute": "optional",
    "failing_job": "required",
    "protocol_error_job": "optional",
    "confirm_delete": "optional",
    "multi_input": "optional",
    "test_tool_with_task": "required",
}
