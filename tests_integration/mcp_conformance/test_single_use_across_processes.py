"""Request states accepted once across two server processes sharing a real Redis.

Two processes of ``tests/guarded_tools.py`` (bearer authentication, the same state
keys, used states and tasks in one ``redis-server`` on 127.0.0.1) are sent the same
confirmed round at the same time: one redeems, every other copy is refused, whichever
process it reaches. The principal binding and the task ownership hold across them too.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.test_mcp_guarded import YES, _call, _guarded, _redeem_rounds, _rpc  # noqa: E402

sys.path.insert(0, str(ROOT / "tests_integration" / "mcp_scale"))
from scale import redis_server  # type: ignore[import-not-found]  # noqa: E402


async def test_of_concurrent_copies_sent_to_two_processes_one_is_accepted() -> None:
    with redis_server() as redis, _guarded(redis.url, count=2) as (first, second):
        state = _redeem_rounds(first, "alice", "R-1")
        confirm = {"inputResponses": {"elicit-1": YES}, "requestState": state}
        params = {"name": "redeem", "arguments": {"voucher": "R-1"}, **confirm}

        def send(port: int) -> dict[str, Any]:
            return _rpc(port, "alice", "tools/call", params)

        copies = [asyncio.to_thread(send, (first, second)[n % 2]) for n in range(20)]
        answers = await asyncio.gather(*copies)
        accepted = [answer for answer in answers if "result" in answer]
        assert len(accepted) == 1, answers
        assert accepted[0]["result"]["content"][0]["text"].startswith("redeemed R-1")
        refused = [answer["error"]["message"] for answer in answers if "error" in answer]
        assert all("it was used already" in message for message in refused), refused
        # The next round's state is new: accepted once, by either process.
        greeted = _call(first, "alice", "greet")["result"]
        again = _call(second, "alice", "greet", requestState=greeted["requestState"])
        assert again["result"]["resultType"] == "input_required"
        replayed = _call(first, "alice", "greet", requestState=greeted["requestState"])
        assert "it was used already" in replayed["error"]["message"]


def test_principals_and_task_owners_hold_across_processes() -> None:
    with redis_server() as redis, _guarded(redis.url, count=2) as (first, second):
        asked = _call(first, "alice", "greet")["result"]
        ada = {"elicit-1": {"action": "accept", "content": {"name": "Ada"}}}
        stolen = {"inputResponses": ada, "requestState": asked["requestState"]}
        refused = _call(second, "bob", "greet", **stolen)
        assert "issued to another principal" in refused["error"]["message"]
        task_id = _call(first, "alice", "sleepy", arguments={"seconds": 30})["result"]["taskId"]
        assert _rpc(second, "bob", "tasks/get", {"taskId": task_id})["error"]["code"] == -32602
        assert (
            _rpc(second, "alice", "tasks/get", {"taskId": task_id})["result"]["status"] == "working"
        )
        _rpc(second, "alice", "tasks/cancel", {"taskId": task_id})
