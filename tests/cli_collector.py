"""A ``standard-tool serve`` target that reports the garbage collector's state."""

import gc

from standard_tool import tool

ON_AT_IMPORT = gc.isenabled()


@tool
def collector() -> dict[str, bool]:
    """Say whether the cyclic garbage collector ran while this module loaded, and runs now."""
    return {"at_import": ON_AT_IMPORT, "now": gc.isenabled()}
