"""The cold-start target of ``bench_import.py``: ``standard-tool serve _stdio_ours``."""

from _serve_app import add, nap, order
from standard_tool import Toolkit, tool

toolkit = Toolkit([tool(add), tool(order), tool(nap)])
