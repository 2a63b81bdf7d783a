"""Running an async runner from synchronous code (boto3 and other sync clients).

Layer: providers (imports ``_convert_common``; never the package root).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from typing_extensions import TypeVar

from standard_tool.providers._convert_common import PREFIX

__all__ = ["run_sync"]

_T = TypeVar("_T")


def run_sync(start: Callable[[], Coroutine[Any, Any, _T]], name: str, async_name: str) -> _T:
    """Run the coroutine ``start()`` makes in a new event loop; refuse inside a running one.

    The coroutine is made only when it can run, so no "never awaited" warning is left.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(start())
    raise RuntimeError(
        f"{PREFIX}{name}() cannot run inside a running event loop; "
        f"use `await {async_name}(...)` there"
    )
