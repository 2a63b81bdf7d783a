"""A target module whose import fails (the CLI must say so and exit 2)."""

raise RuntimeError("broken on purpose")
