"""``standard-tool serve`` over stdio, driven by the official MCP Python client."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

import standard_tool

TESTS = Path(__file__).parent
SRC = TESTS.parent / "src"


def test_serve_stdio_lists_and_calls_tools() -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "standard_tool", "serve", "cli_targets:toolkit"],
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(TESTS)])},
    )

    async def session() -> None:
        with anyio.fail_after(60):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
                await client.initialize()
                listed = await client.list_tools()
                assert sorted(t.name for t in listed.tools) == ["add", "shout"]
                good = await client.call_tool("add", {"a": 2, "b": 3})
                assert good.is_error is False
                assert "5" in str(good)
                bad = await client.call_tool("add", {"a": "two"})
                assert bad.is_error is True
                assert "validation failed" in str(bad)

    anyio.run(session)


def test_serve_freezes_what_the_sdk_loads_and_collects_the_rest() -> None:
    """The SDK's long-lived objects are left out of the collector's passes; it runs on."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "standard_tool", "serve", "cli_collector"],
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(TESTS)])},
    )

    async def session() -> None:
        with anyio.fail_after(60):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
                await client.initialize()
                answer = await client.call_tool("collector", {})
                assert answer.structured_content == {
                    "at_import": True,
                    "now": True,
                    "sdk_scanned": False,
                }

    anyio.run(session)


def test_serve_http_lists_and_calls_tools() -> None:
    import socket
    import subprocess

    from mcp.client.streamable_http import streamable_http_client

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(TESTS)])}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "standard_tool",
            "serve",
            "cli_targets:toolkit",
            "--transport",
            "http",
            "--port",
            str(port),
        ],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stderr is not None
        assert server.stderr.readline() == (
            "standard-tool: serving 2 tools as MCP server 'cli_targets' "
            f"{standard_tool.__version__} over Streamable HTTP at "
            f"http://127.0.0.1:{port}/mcp; Ctrl-C stops\n"
        )

        async def session() -> None:
            with anyio.fail_after(60):
                for _ in range(50):
                    try:
                        with socket.create_connection(("127.0.0.1", port), timeout=1):
                            break
                    except OSError:
                        await anyio.sleep(0.1)
                url = f"http://127.0.0.1:{port}/mcp"
                async with (
                    streamable_http_client(url) as (read, write),
                    ClientSession(read, write) as client,
                ):
                    await client.initialize()
                    listed = await client.list_tools()
                    assert sorted(t.name for t in listed.tools) == ["add", "shout"]
                    assert "5" in str(await client.call_tool("add", {"a": 2, "b": 3}))

        anyio.run(session)
    finally:
        server.terminate()
        server.wait(timeout=30)
        if server.stderr is not None:
            server.stderr.close()


_STDIO_BANNER = (
    "standard-tool: serving 2 tools as MCP server 'cli_ready' "
    f"{standard_tool.__version__} over stdio (an MCP client talks on stdin and stdout); "
    "Ctrl-C stops\n"
).encode()

_SERVE_IN_PYTHON = """
import sys
from cli_ready import toolkit
from standard_tool.mcp import serve
try:
    serve(toolkit)
except KeyboardInterrupt:
    print("standard-tool: interrupted", file=sys.stderr, flush=True)
    sys.exit(130)
"""


@pytest.mark.parametrize(
    "command",
    [["-m", "standard_tool", "serve", "cli_ready:toolkit"], ["-c", _SERVE_IN_PYTHON]],
    ids=["cli", "serve"],
)
def test_ctrl_c_ends_serve_over_stdio_while_a_client_is_connected(command: list[str]) -> None:
    """Ctrl-C ends serve at once (KeyboardInterrupt; the command line's 130), client connected."""
    import json
    import signal
    import subprocess

    if sys.platform == "win32":
        return
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(TESTS)])}
    server = subprocess.Popen(
        [sys.executable, *command],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        # A test run started in the background (a CI lane is a `&` job of a script)
        # inherits SIGINT ignored, and Python then never raises KeyboardInterrupt:
        # give the server the default a terminal's Ctrl-C meets.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert server.stdin is not None
    assert server.stdout is not None
    assert server.stderr is not None
    try:
        assert server.stderr.readline() == b"ready\n"
        initialize = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "test", "version": "1"},
            },
        }
        server.stdin.write(json.dumps(initialize).encode() + b"\n")
        server.stdin.flush()
        assert json.loads(server.stdout.readline())["id"] == 1  # a client is connected
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=60) == 130
        said = server.stderr.read()
        if command[0] == "-m":  # the command line says what it serves first, on stderr
            said = said.replace(_STDIO_BANNER, b"", 1)
        assert said == b"standard-tool: interrupted\n"
    finally:
        server.kill()
        server.wait()
        for stream in (server.stdin, server.stdout, server.stderr):
            stream.close()


def test_serve_on_a_taken_port_is_one_line_and_exit_1() -> None:
    import socket
    import subprocess

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(TESTS)])}
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "standard_tool",
                "serve",
                "cli_targets:toolkit",
                "--transport",
                "http",
                "--port",
                str(port),
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert result.returncode == 1, result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"standard-tool: cannot listen on 127.0.0.1:{port}: OSError: ")


def _initialize(server: Any) -> dict[str, Any]:
    """Send ``initialize`` over the server's stdin; return its result."""
    import json

    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    }
    server.stdin.write(json.dumps(initialize).encode() + b"\n")
    server.stdin.flush()
    answer: dict[str, Any] = json.loads(server.stdout.readline())["result"]
    return answer


@pytest.mark.parametrize(
    ("args", "module", "info"),
    [
        ([], "", {"name": "tools", "version": standard_tool.__version__}),
        ([], '__version__ = "2.5.0"\n', {"name": "tools", "version": "2.5.0"}),
        (
            ["--name", "weather", "--server-version", "1.0"],
            "",
            {"name": "weather", "version": "1.0"},
        ),
    ],
    ids=["ours", "module", "given"],
)
def test_serve_over_stdio_says_what_it_serves_on_stderr_only(
    tmp_path: Path, args: list[str], module: str, info: dict[str, str]
) -> None:
    """The banner names the tools, transport, server and how to stop; stdout is the protocol."""
    import subprocess

    target = tmp_path / "tools.py"
    target.write_text(module + "from cli_targets import toolkit\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(TESTS)])}
    server = subprocess.Popen(
        [sys.executable, "-m", "standard_tool", "serve", str(target), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert server.stdin is not None
    assert server.stdout is not None
    assert server.stderr is not None
    try:
        banner = server.stderr.readline().decode()
        assert banner == (
            f"standard-tool: serving 2 tools as MCP server {info['name']!r} {info['version']} "
            "over stdio (an MCP client talks on stdin and stdout); Ctrl-C stops\n"
        )
        result = _initialize(server)  # the first line on stdout is the answer
        assert result["serverInfo"]["name"] == info["name"]
        assert result["serverInfo"]["version"] == info["version"]
        server.stdin.close()
        assert server.wait(timeout=60) == 0
        assert server.stdout.read() == b""
    finally:
        server.kill()
        server.wait()
        for stream in (server.stdout, server.stderr):
            stream.close()


def test_ctrl_c_ends_serve_over_http_with_130() -> None:
    """docs/cli.md: Ctrl-C exits 130 over HTTP too (uvicorn's own shutdown runs first)."""
    import signal
    import socket
    import subprocess

    if sys.platform == "win32":
        return
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(TESTS)])}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "standard_tool",
            "serve",
            "cli_targets:toolkit",
            "--transport",
            "http",
            "--port",
            str(port),
        ],
        stderr=subprocess.PIPE,
        env=env,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as a terminal's
    )
    assert server.stderr is not None
    try:
        assert "over Streamable HTTP" in server.stderr.readline()
        for _ in range(600):  # listening: uvicorn has taken Ctrl-C over
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=60) == 130
        assert server.stderr.read() == "standard-tool: interrupted\n"
    finally:
        server.kill()
        server.wait()
        server.stderr.close()


def test_a_served_package_announces_its_distributions_version(tmp_path: Path) -> None:
    """No ``__version__``: the version of the installed distribution the module is from."""
    import subprocess

    (tmp_path / "weatherpkg").mkdir()
    (tmp_path / "weatherpkg" / "__init__.py").write_text("from cli_targets import toolkit\n")
    info = tmp_path / "weatherpkg-3.1.4.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: weatherpkg\nVersion: 3.1.4\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(TESTS), str(tmp_path)])}
    server = subprocess.Popen(
        [sys.executable, "-m", "standard_tool", "serve", "weatherpkg"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert server.stdin is not None
    assert server.stdout is not None
    assert server.stderr is not None
    try:
        assert b"as MCP server 'weatherpkg' 3.1.4 over stdio" in server.stderr.readline()
        assert _initialize(server)["serverInfo"]["version"] == "3.1.4"
        server.stdin.close()
        assert server.wait(timeout=60) == 0
    finally:
        server.kill()
        server.wait()
        for stream in (server.stdout, server.stderr):
            stream.close()
