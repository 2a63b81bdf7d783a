"""The scripted model of tests/fakes/server.py, answering streamed Chat Completions too.

Strands' ``OpenAIModel`` streams by default (and older releases can only stream),
so a request with ``"stream": true`` gets the scripted completion cut into
server-sent chunks, as the Chat Completions API sends them. The script, the checks
and ``verify`` are the shared ``FakeModel``'s.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.fakes.server import FakeModel


def _chunks(reply: dict[str, Any]) -> Iterator[dict[str, Any]]:
    head = {k: reply[k] for k in ("id", "created", "model")}
    choice = reply["choices"][0]
    message = choice["message"]

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        body = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}
        return {**head, "object": "chat.completion.chunk", "choices": [body]}

    yield chunk({"role": "assistant", "content": message.get("content")})
    for index, call in enumerate(message.get("tool_calls") or []):
        yield chunk({"tool_calls": [{"index": index, **call}]})
    yield chunk({}, choice["finish_reason"])
    yield {**head, "object": "chat.completion.chunk", "choices": [], "usage": reply["usage"]}


def _handler(model: FakeModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            headers = {k.lower(): v for k, v in self.headers.items()}
            status, reply = model.answer(self.path, headers, raw)
            streamed = status == 200 and json.loads(raw).get("stream") is True
            if streamed:
                lines = [f"data: {json.dumps(c)}\n\n" for c in _chunks(reply)]
                data = ("".join(lines) + "data: [DONE]\n\n").encode()
                kind = "text/event-stream"
            else:
                data, kind = json.dumps(reply).encode(), "application/json"
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@contextmanager
def serve_streaming_fake_model() -> Generator[FakeModel, None, None]:
    """Serve a ``FakeModel`` that also streams, on an ephemeral port of 127.0.0.1."""
    model = FakeModel()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(model))
    server.daemon_threads = True
    model.port = server.server_address[1]
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield model
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
