"""The conformance suite's 2026-07-28 leg through HAProxy, against three processes.

Three stateless processes of ``conformance_servers:ours`` share one
``STANDARD_TOOL_STATE_KEYS`` behind a load balancer with no session affinity
(``tests_integration/mcp_scale/scale.py``), so consecutive requests of a scenario,
the rounds of a multi-round call among them, reach different processes. The suite
installed by this folder's ``setup.sh`` runs here, so it is installed once for both.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from conformance_servers import PENDING  # type: ignore[import-not-found]
from test_conformance import LEGS, _passed  # type: ignore[import-not-found]

HERE = Path(__file__).parent
SRC = HERE.parent.parent / "src"
sys.path.insert(0, str(HERE.parent / "mcp_scale"))
from scale import deployment  # type: ignore[import-not-found]  # noqa: E402


def test_three_processes_behind_haproxy_pass_the_2026_07_28_leg(tmp_path: Path) -> None:
    leg = "2026-07-28"
    env = {"CONFORMANCE_STATELESS": "1", "CONFORMANCE_JSON": "0"}  # event streams
    with deployment("conformance_servers:ours", 3, pythonpath=[SRC, HERE], env=env) as served:
        passed = _passed(served.url, tmp_path / "scaled", leg)
        states = served.balancer.states()
        requests = served.balancer.served()
    every = {p.name for p in (tmp_path / "scaled").iterdir()}
    every = {re.sub(r"-\d{4}-\d\d-\d\dT[\d-]+Z$", "", n.removeprefix("server-")) for n in every}
    print(f"\n{leg} through HAProxy, three processes: {len(passed)}/{LEGS[leg][1]}")
    print(f"  failed: {sorted(every - passed)}; requests per process: {requests}")
    assert states == {"p0": "UP", "p1": "UP", "p2": "UP"}
    assert min(requests.values()) > 0, requests
    expected = every - set(PENDING)
    assert expected <= passed, f"through the load balancer, ours fails: {sorted(expected - passed)}"
