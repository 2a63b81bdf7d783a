"""A target that says ``ready`` on stderr once imported (for the Ctrl-C tests)."""

import sys

from cli_targets import toolkit

__all__ = ["toolkit"]

print("ready", file=sys.stderr, flush=True)
