"""The servers the official MCP conformance suite is run against.

``ours(stateless)``: the one-call server, ``http_app``, serving Standard Tools with the
suite's resources, prompts, completions and logging handed to the SDK as options.
``reference(stateless)``: the SDK's own high-level ``MCPServer`` implementing every
scenario, the yardstick. Both are app factories for uvicorn:
``uvicorn --factory conformance_servers:ours``.

The one scenario ``ours`` cannot serve (closing the SSE stream mid-call) is in
``PENDING``.
"""

from __future__ import annotations

import base64
import json
import os
from typing import Any

from conformance_tools import (  # type: ignore[import-not-found]
    REQUIRED_CAPABILITIES,
    ROUND_TOOLS,
    TASK_SUPPORT,
    TASK_TOOLS,
)
from conformance_tools import TOOLS as CONFORMANCE_TOOLS  # type: ignore[import-not-found]
from mcp import types
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.utilities.types import Audio, Image

from standard_tool import standard_tool
from standard_tool.mcp import http_app
from standard_tool.schemas import as_standard_schema

#: A 1x1 red PNG and a tiny WAV file.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
)
WAV = base64.b64decode("UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=")
PNG_B64 = base64.b64encode(PNG).decode()

#: Scenarios ``ours`` cannot serve, and why (none at suite 0.2.0-alpha.12: its SSE
#: polling scenario warns, without failing, when the stream is not closed mid-call).
PENDING: dict[str, str] = {}

#: The JSON Schema 2020-12 scenario's schema: references, an anchor, composition and
#: conditionals, all listed as written (``keep_schemas=True``).
SCHEMA_2020_12 = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {
        "address": {
            "$anchor": "addressDef",
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
        }
    },
    "properties": {
        "name": {"type": "string"},
        "address": {"$ref": "#/$defs/address"},
        "contactMethod": {"type": "string", "enum": ["phone", "email"]},
        "phone": {"type": "string"},
        "email": {"type": "string"},
    },
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then": {"required": ["phone"]},
    "else": {"required": ["email"]},
    "additionalProperties": False,
}

# -- Standard Tools ---------------------------------------------------------------------


def _json_schema_tool(value: Any) -> str:
    return f"received {json.dumps(value, sort_keys=True)}"


json_schema_2020_12_tool = standard_tool(
    name="json_schema_2020_12_tool",
    description="Tool with JSON Schema 2020-12 features",
    input_schema=as_standard_schema(SCHEMA_2020_12),
    execute=_json_schema_tool,
)

#: A property sent as the ``Mcp-Param-Region`` header too (SEP-2243).
REGION_SCHEMA = {
    "type": "object",
    "properties": {
        "region": {
            "type": "string",
            "description": "Mirrored into the Mcp-Param-Region header",
            "x-mcp-header": "Region",
        }
    },
}

test_x_mcp_header = standard_tool(
    name="test_x_mcp_header",
    description="Echo the region, also sent as a header.",
    input_schema=as_standard_schema(REGION_SCHEMA),
    execute=lambda value: f"region={value.get('region', '<none>')}",
)

#: The suite's tools (``conformance_tools.py``), its JSON Schema 2020-12 tool and its
#: custom-header tool.
TOOLS = [
    *CONFORMANCE_TOOLS,
    *ROUND_TOOLS,
    *TASK_TOOLS,
    json_schema_2020_12_tool,
    test_x_mcp_header,
]


def task_options() -> Any:
    """The task tools' options: quick to become tasks and to notice answers."""
    from standard_tool.mcp import TaskOptions

    return TaskOptions(TASK_SUPPORT, after=0.5, poll=0.1)


# -- Resources, prompts, completions and logging, as SDK handlers ---------------------------

RESOURCES = [
    types.Resource(
        uri="test://static-text", name="static-text", description="A text.", mime_type="text/plain"
    ),
    types.Resource(
        uri="test://static-binary",
        name="static-binary",
        description="A PNG.",
        mime_type="image/png",
    ),
    types.Resource(
        uri="test://watched-resource",
        name="watched",
        description="Watched.",
        mime_type="text/plain",
    ),
]
PROMPTS = [
    types.Prompt(name="test_simple_prompt", description="A simple prompt."),
    types.Prompt(
        name="test_prompt_with_arguments",
        description="A prompt with arguments.",
        arguments=[
            types.PromptArgument(name="arg1", description="First", required=True),
            types.PromptArgument(name="arg2", description="Second", required=True),
        ],
    ),
    types.Prompt(
        name="test_prompt_with_embedded_resource",
        description="A prompt with a resource.",
        arguments=[types.PromptArgument(name="resourceUri", description="URI", required=True)],
    ),
    types.Prompt(name="test_prompt_with_image", description="A prompt with an image."),
    types.Prompt(name="test_input_required_result_prompt", description="A prompt that asks."),
]


async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
    return types.ListResourcesResult(resources=RESOURCES)


async def list_resource_templates(ctx: Any, params: Any) -> types.ListResourceTemplatesResult:
    template = types.ResourceTemplate(
        uri_template="test://template/{id}/data",
        name="template",
        description="Data by id.",
        mime_type="application/json",
    )
    return types.ListResourceTemplatesResult(resource_templates=[template])


async def read_resource(
    ctx: Any, params: types.ReadResourceRequestParams
) -> types.ReadResourceResult:
    uri = str(params.uri)
    contents: types.TextResourceContents | types.BlobResourceContents
    if uri == "test://static-binary":
        contents = types.BlobResourceContents(uri=uri, blob=PNG_B64, mime_type="image/png")
    elif uri.startswith("test://template/") and uri.endswith("/data"):
        ident = uri[len("test://template/") : -len("/data")]
        text = json.dumps({"id": ident, "templateTest": True, "data": f"Data for ID: {ident}"})
        contents = types.TextResourceContents(uri=uri, text=text, mime_type="application/json")
    elif uri in {"test://static-text", "test://watched-resource"}:
        text = "This is the content of the static text resource."
        contents = types.TextResourceContents(uri=uri, text=text, mime_type="text/plain")
    else:  # SEP-2164: an unknown resource is invalid params, naming the URI
        from mcp.shared.exceptions import MCPError

        raise MCPError(code=types.INVALID_PARAMS, message="Resource not found", data={"uri": uri})
    return types.ReadResourceResult(contents=[contents])


async def subscribe(ctx: Any, params: Any) -> types.EmptyResult:
    return types.EmptyResult()


async def list_prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
    return types.ListPromptsResult(prompts=PROMPTS)


def _text(text: str) -> types.PromptMessage:
    return types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))


async def get_prompt(
    ctx: Any, params: types.GetPromptRequestParams
) -> types.GetPromptResult | types.InputRequiredResult:
    args = params.arguments or {}
    if params.name == "test_input_required_result_prompt":  # SEP-2322 on prompts/get
        answer = (params.input_responses or {}).get("user_name")
        if not isinstance(answer, types.ElicitResult):
            form = types.ElicitRequestFormParams(
                message="Whose prompt is this?",
                requested_schema={
                    "type": "object",
                    "properties": {"name": {"type": "string"}},
                    "required": ["name"],
                },
            )
            return types.InputRequiredResult(
                input_requests={"user_name": types.ElicitRequest(params=form)}
            )
        name = (answer.content or {}).get("name", "stranger")
        return types.GetPromptResult(messages=[_text(f"A prompt for {name}.")])
    if params.name == "test_prompt_with_arguments":
        text = f"Prompt with arguments: arg1='{args.get('arg1')}', arg2='{args.get('arg2')}'"
        return types.GetPromptResult(messages=[_text(text)])
    if params.name == "test_prompt_with_embedded_resource":
        resource = types.TextResourceContents(
            uri=args.get("resourceUri", "test://embedded"),
            text="Embedded resource content for testing.",
            mime_type="text/plain",
        )
        embedded = types.EmbeddedResource(type="resource", resource=resource)
        return types.GetPromptResult(
            messages=[
                types.PromptMessage(role="user", content=embedded),
                _text("Please process the embedded resource above."),
            ]
        )
    if params.name == "test_prompt_with_image":
        image = types.ImageContent(type="image", data=PNG_B64, mime_type="image/png")
        return types.GetPromptResult(
            messages=[
                types.PromptMessage(role="user", content=image),
                _text("Please analyze the image above."),
            ]
        )
    return types.GetPromptResult(messages=[_text("This is a simple prompt for testing.")])


async def complete(ctx: Any, params: types.CompleteRequestParams) -> types.CompleteResult:
    values = [v for v in ("paris", "park", "party") if v.startswith(params.argument.value)]
    return types.CompleteResult(
        completion=types.Completion(values=values, total=len(values), has_more=False)
    )


async def set_level(ctx: Any, params: Any) -> types.EmptyResult:
    return types.EmptyResult()


HANDLERS: dict[str, Any] = {
    "on_list_resources": list_resources,
    "on_list_resource_templates": list_resource_templates,
    "on_read_resource": read_resource,
    "on_subscribe_resource": subscribe,
    "on_unsubscribe_resource": subscribe,
    "on_list_prompts": list_prompts,
    "on_get_prompt": get_prompt,
    "on_completion": complete,
    "on_set_logging_level": set_level,
}


def ours() -> Any:
    """The one-call server (``CONFORMANCE_STATELESS=1``: stateless, JSON responses)."""
    stateless = os.environ.get("CONFORMANCE_STATELESS") == "1"
    return http_app(
        TOOLS,
        name="standard-tool-conformance",
        stateless=stateless,
        json_response=stateless and os.environ.get("CONFORMANCE_JSON", "1") == "1",
        keep_schemas=True,
        required_capabilities=REQUIRED_CAPABILITIES,
        tasks=task_options(),
        **HANDLERS,
    )


def gateway() -> Any:
    """The suite's tools imported from an upstream one-call server and served again.

    The upstream's URL is ``CONFORMANCE_UPSTREAM``. At start-up the app opens a
    session to it with ``relay_callbacks()``, imports its tools (``import_tools``,
    relaying the upstream's logs, sampling and elicitation to each call) and serves
    them with ``http_app`` and the same resources, prompts and completions as ``ours``.
    """
    from contextlib import AsyncExitStack

    from mcp import Client, ClientSession
    from mcp.client.streamable_http import streamable_http_client

    from standard_tool.mcp import import_tools, relay_callbacks

    upstream = os.environ["CONFORMANCE_UPSTREAM"]
    mode = os.environ.get("CONFORMANCE_UPSTREAM_MODE", "legacy")
    served: dict[str, Any] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "lifespan":
            await served["app"](scope, receive, send)
            return
        await receive()  # lifespan.startup
        async with AsyncExitStack() as stack:
            relay = relay_callbacks()
            if mode == "legacy":  # protocol 2025-11-25: the upstream asks with requests
                read, write, *_ = await stack.enter_async_context(streamable_http_client(upstream))
                session = await stack.enter_async_context(ClientSession(read, write, **relay))
                await session.initialize()
            else:  # protocol 2026-07-28: the upstream asks in input_required rounds
                client = await stack.enter_async_context(Client(upstream, **relay))
                session = client.session
            tools = await import_tools(session, relay=relay)
            inner = http_app(
                tools,
                name="standard-tool-gateway",
                keep_schemas=True,
                required_capabilities=REQUIRED_CAPABILITIES,
                **HANDLERS,
            )
            await stack.enter_async_context(inner.router.lifespan_context(inner))
            served["app"] = inner
            await send({"type": "lifespan.startup.complete"})
            await receive()  # lifespan.shutdown
        await send({"type": "lifespan.shutdown.complete"})

    return app


# -- The SDK's own server, every scenario ---------------------------------------------------


def reference() -> Any:
    """The official SDK's ``MCPServer`` (same environment variable for stateless)."""
    stateless = os.environ.get("CONFORMANCE_STATELESS") == "1"
    srv = MCPServer("sdk-conformance")

    @srv.tool(name="test_simple_text", description="Return a simple text.")
    def simple_text() -> str:
        return "This is a simple text response for testing."

    @srv.tool(name="test_image_content", description="Return an image.")
    def image_content() -> Image:
        return Image(data=PNG, format="png")

    @srv.tool(name="test_audio_content", description="Return audio.")
    def audio_content() -> Audio:
        return Audio(data=WAV, format="wav")

    @srv.tool(name="test_embedded_resource", description="Return an embedded resource.")
    def embedded_resource() -> types.EmbeddedResource:
        resource = types.TextResourceContents(
            uri="test://embedded-resource",
            text="This is an embedded resource content.",
            mime_type="text/plain",
        )
        return types.EmbeddedResource(type="resource", resource=resource)

    @srv.tool(name="test_multiple_content_types", description="Return mixed content.")
    def mixed() -> list[Any]:
        resource = types.TextResourceContents(
            uri="test://mixed-content-resource",
            text='{"test":"data","value":123}',
            mime_type="application/json",
        )
        return [
            types.TextContent(type="text", text="Multiple content types test:"),
            types.ImageContent(type="image", data=PNG_B64, mime_type="image/png"),
            types.EmbeddedResource(type="resource", resource=resource),
        ]

    @srv.tool(name="test_tool_with_logging", description="Log three messages.")
    async def with_logging(ctx: Context) -> str:
        import anyio

        await ctx.info("Tool execution started")
        await anyio.sleep(0.05)
        await ctx.info("Tool processing data")
        await anyio.sleep(0.05)
        await ctx.info("Tool execution completed")
        return "Logging done"

    @srv.tool(name="test_error_handling", description="Always fail.")
    def error_handling() -> str:
        raise RuntimeError("This tool intentionally returns an error for testing")

    @srv.tool(name="test_tool_with_progress", description="Report progress.")
    async def with_progress(ctx: Context) -> str:
        import anyio

        for step in (0, 50, 100):
            await ctx.report_progress(step, 100)
            if step < 100:
                await anyio.sleep(0.05)
        return "Progress reported"

    @srv.tool(name="test_sampling", description="Ask the client's model.")
    async def sampling(prompt: str, ctx: Context) -> str:
        message = types.SamplingMessage(
            role="user", content=types.TextContent(type="text", text=prompt)
        )
        result = await ctx.session.create_message(messages=[message], max_tokens=100)
        content = result.content
        text = content.text if isinstance(content, types.TextContent) else str(content)
        return f"LLM response: {text}"

    from pydantic import BaseModel, Field

    class User(BaseModel):
        username: str = Field(description="User's response")
        email: str = Field(description="User's email address")

    @srv.tool(name="test_elicitation", description="Ask the user.")
    async def elicitation(message: str, ctx: Context) -> str:
        result = await ctx.elicit(message=message, schema=User)
        return f"User response: action={result.action}, content={getattr(result, 'data', None)}"

    class Defaults(BaseModel):
        name: str = "John Doe"
        age: int = 30
        score: float = 95.5
        status: str = Field(
            default="active", json_schema_extra={"enum": ["active", "inactive", "pending"]}
        )
        verified: bool = True

    @srv.tool(name="test_elicitation_sep1034_defaults", description="Ask with defaults.")
    async def defaults(ctx: Context) -> str:
        result = await ctx.elicit(message="Defaults", schema=Defaults)
        return f"Elicitation completed: action={result.action}"

    @srv.tool(name="test_elicitation_sep1330_enums", description="Ask with enums.")
    async def enums(ctx: Context) -> str:
        schema = {
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
        result = await ctx.session.elicit_form(message="Enums", requested_schema=schema)
        return f"Elicitation completed: action={result.action}"

    @srv.tool(name="test_reconnection", description="Close the stream mid-call.")
    async def reconnection(ctx: Context) -> str:
        import anyio

        await ctx.close_sse_stream()
        await anyio.sleep(0.2)
        return "Reconnected"

    low = srv._lowlevel_server  # the suite's resources, prompts and logging, same handlers
    for method, params_type, handler in (
        ("resources/list", types.PaginatedRequestParams, list_resources),
        ("resources/templates/list", types.PaginatedRequestParams, list_resource_templates),
        ("resources/read", types.ReadResourceRequestParams, read_resource),
        ("resources/subscribe", types.SubscribeRequestParams, subscribe),
        ("resources/unsubscribe", types.UnsubscribeRequestParams, subscribe),
        ("prompts/list", types.PaginatedRequestParams, list_prompts),
        ("prompts/get", types.GetPromptRequestParams, get_prompt),
        ("completion/complete", types.CompleteRequestParams, complete),
        ("logging/setLevel", types.SetLevelRequestParams, set_level),
    ):
        low.add_request_handler(method, params_type, handler)
    json_answers = stateless and os.environ.get("CONFORMANCE_JSON", "1") == "1"
    return srv.streamable_http_app(stateless_http=stateless, json_response=json_answers)
