"""A target module whose import raises an exception with a 100 KB, many-line message."""

raise RuntimeError("line of a huge message\n" * 4500)
