"""A ``standard-tool serve`` target that reports the garbage collector's state."""

import gc
import sys

from standard_tool import tool

ON_AT_IMPORT = gc.isenabled()


@tool
def collector() -> dict[str, bool]:
    """Say whether the collector ran as this module loaded, runs now, and passes over the SDK."""
    sdk = vars(sys.modules["mcp"])
    return {
        "at_import": ON_AT_IMPORT,
        "now": gc.isenabled(),
        "sdk_scanned": any(found is sdk for found in gc.get_objects()),
    }
