"""Tasks shared by two server processes through a real Redis (``redis-server`` on 127.0.0.1).

Any process answers a task's ``tasks/get``, ``tasks/update`` and ``tasks/cancel``; a
process killed mid-task leaves its task ``failed`` with the reason, reported by the
other. ``.ci/run`` installs Debian's ``redis-server``; without it this fails, saying so.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.test_mcp_serve import ENV, _free_port, _process  # noqa: E402
from tests.test_mcp_tasks import _call, _rpc, _until  # noqa: E402

sys.path.insert(0, str(ROOT / "tests_integration" / "mcp_scale"))
from scale import redis_server  # type: ignore[import-not-found]  # noqa: E402


@contextmanager
def _redis() -> Iterator[str]:
    """A throwaway ``redis-server`` on 127.0.0.1: the scale harness's (``mcp_scale/scale.py``)."""
    with redis_server() as redis:
        yield redis.url


@contextmanager
def _servers(url: str, count: int) -> Iterator[list[tuple[int, subprocess.Popen[bytes]]]]:
    started: list[tuple[int, subprocess.Popen[bytes]]] = []
    managers = []
    try:
        for _ in range(count):
            port = _free_port()
            args = [sys.executable, "-m", "uvicorn", "--factory", "task_tools:make_app"]
            env = {**ENV, "TASK_STORE_URL": url}
            manager = _process([*args, "--port", str(port)], port, env=env)
            proc = manager.__enter__()
            managers.append(manager)
            started.append((port, proc))
        yield started
    finally:
        for manager in reversed(managers):
            manager.__exit__(None, None, None)


def test_any_process_answers_for_a_task_another_runs() -> None:
    with _redis() as url, _servers(url, 2) as [(first, _), (second, _)]:
        task_id = _call(first, "ask_later", {})["result"]["taskId"]
        waiting = _until(second, task_id, "input_required")
        [key] = waiting["inputRequests"]
        answer = {key: {"action": "accept", "content": {"name": "Ada"}}}
        _rpc(second, "tasks/update", {"taskId": task_id, "inputResponses": answer})
        done = _until(second, task_id, "completed")
        assert done["result"]["content"][0]["text"] == "Hello, Ada!"
        long_one = _call(second, "sleepy", {"seconds": 60})["result"]["taskId"]
        _rpc(first, "tasks/cancel", {"taskId": long_one})
        assert _until(first, long_one, "cancelled", "failed", "completed")["status"] == "cancelled"


def test_a_process_killed_mid_task_leaves_it_failed_with_the_reason() -> None:
    with _redis() as url, _servers(url, 2) as [(first, doomed), (second, _)]:
        task_id = _call(first, "sleepy", {"seconds": 60})["result"]["taskId"]
        assert _rpc(second, "tasks/get", {"taskId": task_id})["result"]["status"] == "working"
        os.kill(doomed.pid, signal.SIGKILL)
        doomed.wait(10)
        failed = _until(second, task_id, "failed")
    assert failed["status"] == "failed"
    assert "the process running the task stopped" in failed["error"]["message"]
    assert "result" not in failed
