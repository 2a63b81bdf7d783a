"""A scripted Anthropic Messages API on 127.0.0.1, streaming as the API does, for Claude Code.

Claude Code (the CLI the Claude Agent SDK drives) sends ``POST /v1/messages`` with
``"stream": true`` and reads server-sent events. Each scripted reply is a list of
content blocks (text, or tool uses); a request whose last message carries tool
results is recorded, so a test can check what Claude Code sent back.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class ScriptedClaude:
    """What the model answers, in order, and the requests it received."""

    replies: list[list[dict[str, Any]]]
    requests: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])
    port: int = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def tool_results(self) -> dict[str, dict[str, Any]]:
        """The ``tool_result`` blocks Claude Code sent, by tool use id."""
        found: dict[str, dict[str, Any]] = {}
        for body in self.requests:
            for message in body["messages"]:
                content = message["content"]
                if message["role"] == "user" and isinstance(content, list):
                    for block in content:
                        if block.get("type") == "tool_result":
                            found[block["tool_use_id"]] = block
        return found

    def tools(self) -> dict[str, dict[str, Any]]:
        """The tools of the first request, by name."""
        return {t["name"]: t for t in self.requests[0].get("tools") or []}


def _events(blocks: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    usage = {"input_tokens": 5, "output_tokens": 1}
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-scripted",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": usage,
    }
    yield {"type": "message_start", "message": message}
    for index, block in enumerate(blocks):
        if block["type"] == "text":
            yield {
                "type": "content_block_start",
                "index": index,
                "content_block": {"type": "text", "text": ""},
            }
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            yield {"type": "content_block_start", "index": index, "content_block": start}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        yield {"type": "content_block_delta", "index": index, "delta": delta}
        yield {"type": "content_block_stop", "index": index}
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    yield {
        "type": "message_delta",
        "delta": {"stop_reason": stop, "stop_sequence": None},
        "usage": {"output_tokens": 3},
    }
    yield {"type": "message_stop"}


@contextmanager
def serve_scripted_claude(*replies: list[dict[str, Any]]) -> Iterator[ScriptedClaude]:
    """Serve the replies; a request beyond the script is answered with an error."""
    model = ScriptedClaude(list(replies))
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with lock:
                model.requests.append(json.loads(raw or b"{}"))
                reply = model.replies.pop(0) if model.replies else None
            if reply is None:
                self.send_response(400)
                self.end_headers()
                return
            data = "".join(
                f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in _events(reply)
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    model.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield model
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
