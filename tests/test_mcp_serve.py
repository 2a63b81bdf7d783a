"""``standard_tool.mcp.serve``: stdio as a subprocess, Streamable HTTP, uvicorn workers.

Driven by the official MCP Python client.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from standard_tool.mcp import serve

TESTS = Path(__file__).parent
SRC = TESTS.parent / "src"
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(TESTS)])}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def _process(
    args: list[str], port: int, env: dict[str, str] | None = None, cwd: Path | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen(
        args, env=env or ENV, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        for _ in range(300):
            if proc.poll() is not None:
                raise AssertionError(f"server exited with {proc.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                import time

                time.sleep(0.1)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@asynccontextmanager
async def _http_session(url: str) -> AsyncIterator[ClientSession]:
    async with (
        streamable_http_client(url) as (read, write, *_),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def _text(result: Any) -> str:
    return "\n".join(block.text for block in result.content)


async def test_stdio_subprocess_lists_and_calls_tools() -> None:
    params = StdioServerParameters(
        command=sys.executable, args=[str(TESTS / "mcp_targets.py")], env=ENV
    )
    with anyio.fail_after(60):
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            listed = {t.name: t for t in (await session.list_tools()).tools}
            assert sorted(listed) == [
                "add",
                "code",
                "crash",
                "explode",
                "index",
                "move",
                "nap",
                "steps",
            ]
            assert listed["move"].title == "Move a point"
            assert listed["move"].output_schema is not None
            assert listed["move"].output_schema["type"] == "object"

            added = await session.call_tool("add", {"a": 2, "b": 3})
            assert (added.is_error, added.structured_content) == (False, {"result": 5})

            moved = await session.call_tool("move", {"point": {"x": 1, "y": 2}, "dx": 3})
            assert moved.is_error is False
            assert moved.structured_content is not None
            assert moved.structured_content["x"] == 4

            bad = await session.call_tool("move", {"point": {"x": -1, "y": 2}})
            assert bad.is_error is True
            assert _text(bad).startswith("Error: input validation failed: point.x")

            failed = await session.call_tool("explode", {"reason": "boom"})
            assert failed.is_error is True
            assert "boom" in _text(failed)


async def test_http_server_answers_concurrent_calls_from_several_sessions() -> None:
    port = _free_port()
    script = (
        "import mcp_targets\nfrom standard_tool.mcp import serve\n"
        f"serve(mcp_targets.toolkit, transport='http', port={port}, path='/tools')"
    )
    with _process([sys.executable, "-c", script], port):
        results: dict[tuple[int, int], Any] = {}

        async def client(n: int) -> None:
            url = f"http://127.0.0.1:{port}/tools"
            async with _http_session(url) as session, anyio.create_task_group() as calls:
                for i in range(6):
                    calls.start_soon(one, session, n, i)

        async def one(session: ClientSession, n: int, i: int) -> None:
            if i % 2:
                results[n, i] = await session.call_tool("nap", {"seconds": 0.2})
            else:
                results[n, i] = await session.call_tool("add", {"a": n, "b": i})

        with anyio.fail_after(60):
            async with anyio.create_task_group() as clients:
                for n in range(3):
                    clients.start_soon(client, n)

    assert len(results) == 18
    for (n, i), result in results.items():
        assert result.is_error is False
        expected = {"result": "awake"} if i % 2 else {"result": n + i}
        assert result.structured_content == expected


async def test_stateless_http_under_two_uvicorn_workers() -> None:
    port = _free_port()
    args = [
        sys.executable,
        "-m",
        "uvicorn",
        "--factory",
        "mcp_targets:make_app",
        "--workers",
        "2",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]
    with _process(args, port) as proc:
        results: list[Any] = []

        async def client(n: int) -> None:
            async with _http_session(f"http://127.0.0.1:{port}/mcp") as session:
                for i in range(3):
                    arguments = {"point": {"x": n, "y": i}, "dx": 1}
                    results.append((n, i, await session.call_tool("move", arguments)))

        with anyio.fail_after(90):
            async with anyio.create_task_group() as clients:
                for n in range(8):
                    clients.start_soon(client, n)

    assert len(results) == 24
    for n, i, result in results:
        assert result.is_error is False
        content = result.structured_content
        assert (content["x"], content["y"]) == (n + 1, i)
        assert content["worker"] != proc.pid  # answered by a worker process


def test_serve_refuses_an_unknown_transport() -> None:
    with pytest.raises(ValueError, match="transport must be 'stdio' or 'http', not 'sse'"):
        serve([], transport="sse")  # type: ignore[arg-type]


async def test_the_docs_multi_worker_recipe_serves_as_written(tmp_path: Path) -> None:
    """docs/mcp.md's ``myserver.py`` and ``serve_workers.py``, run as written (port aside)."""
    import re

    page = (TESTS.parent / "docs" / "mcp.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(# (\w+\.py)\n.*?)^```", page, re.DOTALL | re.MULTILINE)
    files = {name: source for source, name in blocks}
    port = _free_port()
    launcher = files["serve_workers.py"]
    assert "port=8000, workers=4" in launcher
    (tmp_path / "myserver.py").write_text(files["myserver.py"])
    (tmp_path / "serve_workers.py").write_text(
        launcher.replace("port=8000, workers=4", f"port={port}, workers=2")
    )
    env = {**ENV, "PYTHONPATH": os.pathsep.join([str(SRC), str(tmp_path)])}
    args = [sys.executable, str(tmp_path / "serve_workers.py")]
    with _process(args, port, env=env, cwd=tmp_path), anyio.fail_after(90):
        async with _http_session(f"http://127.0.0.1:{port}/mcp") as session:
            result = await session.call_tool("add", {"a": 2, "b": 3})
    assert result.is_error is False
    assert result.structured_content == {"result": 5}
