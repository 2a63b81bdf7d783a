"""Open every page of the built documentation site in headless Chromium, as a visitor would.

Usage: python scripts/check_site.py SITE_DIR [--chromium PATH]

The site is served from SITE_DIR on 127.0.0.1 and every page (each ``index.html``, and
``404.html``) is loaded in one headless Chromium, driven over the DevTools protocol on a
pipe (``--remote-debugging-pipe``: no extra package). A page fails when its document or
any resource it loads answers 400 or more or cannot load, when it logs a console error
or throws, or when one of its links to the site points to a page that is not there or
to an anchor the page does not have. Every failure is printed; the exit code is 1 when
there is any, 2 when Chromium cannot be started, 0 otherwise.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urlparse

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--remote-debugging-pipe",
)
PAGE_TIMEOUT = 60.0  # seconds Chromium may stay silent (a bound on a hang, not a measurement)

# Run in the page once it has loaded: its links and the ids anchors can point at.
HARVEST = """
new Promise(done => requestAnimationFrame(() => setTimeout(() => done(JSON.stringify({
  links: [...document.querySelectorAll("a[href]")].map(a => a.href),
  ids: [...document.querySelectorAll("[id]")].map(e => e.id),
  title: document.title,
})), 0)))
"""


class Quiet(SimpleHTTPRequestHandler):
    """Serve the site without a log line per request."""

    def log_message(self, format: str, *args: Any) -> None:
        """Say nothing."""


class Chromium:
    """One headless Chromium, spoken to over its DevTools pipe (NUL-separated JSON)."""

    def __init__(self, binary: str, profile: str) -> None:
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def pipes() -> None:  # the protocol's fds: 3 reads commands, 4 writes answers
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.process = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=pipes,
            close_fds=False,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []

    def send(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None
    ) -> Any:
        """Send one command and return its result, keeping the events that come first."""
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            answer = self.read()
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def read(self) -> dict[str, Any]:
        """Read the next message from the browser, waiting at most ``PAGE_TIMEOUT``."""
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self._from_browser], [], [], PAGE_TIMEOUT)
            if not ready:
                raise TimeoutError(f"Chromium said nothing for {PAGE_TIMEOUT:.0f} s")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed its DevTools pipe")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        parsed: dict[str, Any] = json.loads(message)
        return parsed

    def wait_for(self, method: str, session: str) -> None:
        """Read until the event ``method`` of ``session`` arrives, keeping the others."""
        if any(e.get("method") == method and e.get("sessionId") == session for e in self.events):
            return
        while True:
            event = self.read()
            self.events.append(event)
            if event.get("method") == method and event.get("sessionId") == session:
                return

    def close(self) -> None:
        """End the browser."""
        self.process.kill()
        self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)


def pages_of(site: Path) -> list[str]:
    """Every page of the site as a path below its root: ``/``, ``/guide/``, ``/404.html``."""
    found = [
        "/" + str(page.parent.relative_to(site)).replace(os.sep, "/") + "/"
        for page in site.rglob("index.html")
    ]
    found = ["/" if page == "/./" else page for page in found]
    if (site / "404.html").is_file():
        found.append("/404.html")
    return sorted(found)


def problems_of(events: list[dict[str, Any]], session: str) -> list[str]:
    """List the console errors, exceptions and failed loads among one page's events."""
    found: list[str] = []
    for event in events:
        if event.get("sessionId") != session:
            continue
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text")
            found.append(f"uncaught exception: {text}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"])
            found.append(f"console.{params['type']}: {args}")
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            entry = params["entry"]
            found.append(f"console error: {entry.get('text')} ({entry.get('url', '')})")
        elif method == "Network.responseReceived" and params["response"]["status"] >= 400:
            response = params["response"]
            found.append(f"HTTP {response['status']} for {response['url']}")
        elif method == "Network.loadingFailed" and not params.get("canceled"):
            found.append(f"failed to load a resource: {params.get('errorText')}")
    return found


def check(site: Path, binary: str) -> list[str]:
    """Load every page of ``site``; return what is wrong, one line per problem."""
    handler = functools.partial(Quiet, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    failures: list[str] = []
    harvested: dict[str, tuple[list[str], set[str]]] = {}
    with tempfile.TemporaryDirectory() as profile:
        browser = Chromium(binary, profile)
        try:
            target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})[
                "sessionId"
            ]
            for domain in ("Page", "Runtime", "Log", "Network"):
                browser.send(f"{domain}.enable", session=session)
            for page in pages_of(site):
                browser.events.clear()
                browser.send("Page.navigate", {"url": origin + page}, session=session)
                browser.wait_for("Page.loadEventFired", session)
                result = browser.send(
                    "Runtime.evaluate",
                    {"expression": HARVEST, "awaitPromise": True, "returnByValue": True},
                    session=session,
                )
                seen = json.loads(result["result"]["value"])
                harvested[page] = (seen["links"], set(seen["ids"]))
                failures += [f"{page}: {p}" for p in problems_of(browser.events, session)]
        finally:
            browser.close()
            server.shutdown()
    for page, (links, _) in harvested.items():
        for link in links:
            failures += [f"{page}: {p}" for p in broken(link, origin, site, harvested)]
    return sorted(set(failures))


def broken(link: str, origin: str, site: Path, harvested: dict[str, Any]) -> list[str]:
    """Say what is wrong with one link of the site (nothing for a link elsewhere)."""
    if not link.startswith(origin + "/"):
        return []
    address, fragment = urldefrag(link)
    path = urlparse(address).path
    if path in harvested:
        ids = harvested[path][1]
    elif (site / path.lstrip("/")).is_file():
        return []  # a file of the site (objects.inv, an asset): it exists
    else:
        return [f"broken link to {path} (no such page)"]
    if fragment and fragment not in ids:
        return [f"broken link to {path}#{fragment} (no such anchor)"]
    return []


def main() -> int:
    """Check the site the command line names."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="the built site (mkdocs build --site-dir)")
    parser.add_argument("--chromium", help="the Chromium binary (default: chromium on PATH)")
    args = parser.parse_args()
    binary = args.chromium or shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        print("check_site: no chromium on PATH (Debian: apt-get install chromium)", file=sys.stderr)
        return 2
    pages = pages_of(args.site)
    failures = check(args.site, binary)
    for failure in failures:
        print(failure)
    print(f"check_site: {len(pages)} pages, {len(failures)} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
