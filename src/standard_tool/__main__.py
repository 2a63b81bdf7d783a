"""``python -m standard_tool``: the command line.

Layer: top (the command line; imports anything below, never the package root)
"""

from standard_tool._cli import console_main

if __name__ == "__main__":
    console_main()
