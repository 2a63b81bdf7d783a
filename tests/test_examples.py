"""The README's demo command runs the demo: it must work offline and say what it shows."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_demo_runs_offline_and_reports_every_outcome() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "demo.py")],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    assert out.startswith("standard-tool demo: the model is a script, offline, with no API key")
    assert "meta parameter 'user' hidden from every schema: True" in out
    assert 'call_1: {"temperature": 21.0}' in out
    assert "call_2: Error: input validation failed: items.0.qty:" in out
    assert "call_3: Error: unknown tool 'get_wether'" in out
    assert "call_4: Error: the arguments are not valid JSON" in out
    assert "toolu_1: order for ada: 2 item(s) to Lyon" in out
    assert "toolu_2 (is_error): Error: input validation failed: amount:" in out
    assert "Toolkit.aexecute with a bad city: False - input validation failed: city:" in out
