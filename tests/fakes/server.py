"""A scripted model behind a real HTTP server on 127.0.0.1, for the SDK end-to-end tests.

The official ``openai`` and ``anthropic`` clients talk to it over HTTP exactly as they
would to the real APIs (non-streaming JSON). Each expected request is a :class:`Turn`:
the path it must hit, a ``check`` that asserts what the client sent, and the JSON
reply in that API's wire format. A failed check is recorded and answered with an
HTTP 400, and :meth:`FakeModel.verify` re-raises it in the test.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Generator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Check = Callable[[dict[str, Any]], None]


@dataclass
class Turn:
    """One scripted exchange: what must arrive and what the model answers."""

    path: str
    reply: dict[str, Any]
    check: Check | None = None


@dataclass
class Request:
    """A request the fake model received."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class FakeModel:
    """The script and what happened; shared between the test and the server thread."""

    turns: deque[Turn] = field(default_factory=deque[Turn])
    requests: list[Request] = field(default_factory=list[Request])
    failures: list[str] = field(default_factory=list[str])
    port: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def expect(self, path: str, reply: dict[str, Any], check: Check | None = None) -> None:
        """Script the next request: it must hit ``path``; ``reply`` is the answer."""
        self.turns.append(Turn(path, reply, check))

    @property
    def base_url(self) -> str:
        """The server's address, without the ``/v1`` suffix."""
        return f"http://127.0.0.1:{self.port}"

    def answer(self, path: str, headers: dict[str, str], raw: bytes) -> tuple[int, dict[str, Any]]:
        with self.lock:
            try:
                body = json.loads(raw)
            except ValueError:
                body = {"<unparsable>": raw[:200].decode("utf-8", "replace")}
            self.requests.append(Request(path, headers, body))
            if not self.turns:
                return self._fail(f"unexpected request #{len(self.requests)} to {path}")
            turn = self.turns.popleft()
            if path != turn.path:
                return self._fail(f"request to {path}, expected {turn.path}")
            if turn.check is not None:
                try:
                    turn.check(body)
                except AssertionError as err:
                    return self._fail(f"request #{len(self.requests)} to {path}: {err!r}")
            return 200, turn.reply

    def _fail(self, message: str) -> tuple[int, dict[str, Any]]:
        self.failures.append(message)
        error = {"type": "invalid_request_error", "message": message}
        return 400, {"type": "error", "error": error}

    def verify(self) -> None:
        """Fail the test if a check failed or a scripted turn was never requested."""
        assert not self.failures, self.failures
        assert not self.turns, f"{len(self.turns)} scripted turn(s) never requested"


def _handler(model: FakeModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            headers = {k.lower(): v for k, v in self.headers.items()}
            status, reply = model.answer(self.path, headers, raw)
            data = json.dumps(reply).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep the test output clean

    return Handler


@contextmanager
def serve_fake_model() -> Generator[FakeModel, None, None]:
    """Serve a :class:`FakeModel` on an ephemeral port of 127.0.0.1 in a background thread."""
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


def anthropic_message(content: list[dict[str, Any]], stop_reason: str) -> dict[str, Any]:
    """An Anthropic Messages reply with these ``content`` blocks, in the wire format."""
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-fake",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }
