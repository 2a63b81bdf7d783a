"""The peers' cold-start targets of ``bench_import.py``: ``python _stdio_peer.py sdk|fastmcp``."""

import sys

from _serve_app import add, nap, order

if __name__ == "__main__":
    if sys.argv[1] == "sdk":
        from mcp.server.mcpserver import MCPServer

        server = MCPServer("bench")
        for f in (add, order, nap):
            server.tool()(f)
        server.run()
    else:
        from fastmcp import FastMCP

        fast = FastMCP("bench")
        for f in (add, order, nap):
            fast.tool(f)
        fast.run(show_banner=False)
