"""The ``http_fetch`` tool: GET a public URL, refusing every non-public address.

Layer: top (built-in tools; imports function tools, the core and shared helpers).

The request is made with the standard library's ``http.client`` over a socket this
module opens itself, because the guard needs that control: the host is resolved
once, every address it resolves to is checked, and the socket connects to a
checked address (then confirms the peer it reached), so a DNS answer that changes
between the check and the connection (DNS rebinding) cannot slip through.
Redirects are followed by hand, each hop checked like the first URL. No proxy
settings from the environment are used, and the body is never decompressed
(``Accept-Encoding: identity``), so its size on the wire is its size in memory.
"""

from __future__ import annotations

import codecs
import contextlib
import http.client
import ipaddress
import math
import re
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

from typing_extensions import Annotated, TypedDict

from standard_tool._core import StandardToolError, Tool, ToolDefinitionError
from standard_tool._function import Param, tool
from standard_tool._shared import safe_str, truncate_text
from standard_tool.builtins._errors import invalid, quoted
from standard_tool.builtins._netguard import (
    Address,
    AllowList,
    Guard,
    HostError,
    normalize_host,
)

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_REDIRECTS",
    "DEFAULT_TIMEOUT",
    "MAX_URL_CHARS",
    "FetchResult",
    "HTTPFetchError",
    "http_fetch",
    "make_http_fetch",
]

#: Most bytes of a response body returned by default; the rest is cut off.
DEFAULT_MAX_BYTES = 100_000
#: Seconds one call may take by default, redirects included (DNS lookups excepted).
DEFAULT_TIMEOUT = 10.0
#: Redirects followed by default before the call fails.
DEFAULT_MAX_REDIRECTS = 5
#: Longest URL accepted, in characters.
MAX_URL_CHARS = 2048

_MAX_HEADERS = 50
_MAX_HEADER_NAME = 100
_MAX_HEADER_VALUE = 4096
_MAX_HEADER_SHOWN = 1000
_USER_AGENT = "standard-tool-http-fetch/0"
_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_DEFAULT_PORTS = {"http": 80, "https": 443}
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
#: Headers the tool sets itself or that change how the message is framed.
_RESERVED_HEADERS = frozenset(
    {
        "accept-encoding",
        "connection",
        "content-length",
        "expect",
        "host",
        "keep-alive",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
    }
)
#: Headers dropped when a redirect leaves the origin they were sent to.
_CREDENTIAL_HEADERS = frozenset({"authorization", "cookie"})
# Characters left as they are in a path or query; the rest are percent-encoded as UTF-8.
_URL_SAFE = "/?%:@!$&'()*+,;=-._~[]"


class HTTPFetchError(StandardToolError):
    """``http_fetch`` could not complete an allowed request.

    The host did not resolve, no connection could be made, TLS failed, the server
    sent something that is not HTTP, there were too many redirects, or the call
    ran out of time. A refused URL is a ``StandardToolValidationError`` instead.
    """

    __slots__ = ()


class FetchResult(TypedDict):
    """What ``http_fetch`` returns (for any status, including 4xx and 5xx)."""

    url: str
    """The URL finally fetched, after redirects."""
    status: int
    """The HTTP status code."""
    content_type: str
    """The ``Content-Type`` header, or ``""``."""
    headers: dict[str, str]
    """Response headers (names lower-cased; at most 50, each value bounded)."""
    body: str
    """The body as text (decoded by its charset, else UTF-8; bad bytes replaced)."""
    truncated: bool
    """Whether the body was longer than the limit and was cut."""


# --------------------------------------------------------------------------------------
# The URL
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Target:
    scheme: str
    host: str  # an ASCII host name, or the address as text
    address: Address | None
    port: int
    path: str  # the request target: path and query

    @property
    def authority(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == _DEFAULT_PORTS[self.scheme] else f"{host}:{self.port}"

    @property
    def url(self) -> str:
        return f"{self.scheme}://{self.authority}{self.path}"

    @property
    def origin(self) -> tuple[str, str, int]:
        return (self.scheme, self.host, self.port)


def _parse_url(url: str, hop: str) -> _Target:
    """Check ``url`` (no network); ``hop`` names a redirect in messages, or is ``""``."""

    def refuse(problem: str) -> Exception:
        return invalid("url", f"{hop}{problem}")

    if any(c <= " " or c in "\x7f\\" for c in url):
        raise refuse("the URL holds a space, a control character or a backslash")
    try:
        url.encode("utf-8")
    except UnicodeEncodeError as err:
        raise refuse("the URL is not valid text (it holds a lone surrogate)") from err
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as err:
        raise refuse("the URL's host or port is malformed") from err
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        shown = f"scheme {quoted(parts.scheme)}" if parts.scheme else "no scheme"
        raise refuse(f"the URL has {shown}; only http and https URLs can be fetched")
    if "@" in parts.netloc:
        raise refuse(
            "user names and passwords in the URL are not supported; "
            "send an Authorization header instead"
        )
    if port == 0:
        raise refuse("port 0 is not a valid port")
    try:
        host = normalize_host(parts.hostname or "")
    except HostError as err:
        raise refuse(f"{err}: {quoted(parts.netloc)}") from err
    path = quote(parts.path or "/", safe=_URL_SAFE)
    if parts.query:
        path += "?" + quote(parts.query, safe=_URL_SAFE)
    address = None if isinstance(host, str) else host
    return _Target(scheme, str(host), address, port or _DEFAULT_PORTS[scheme], path)


# --------------------------------------------------------------------------------------
# The deadline
# --------------------------------------------------------------------------------------


class _Deadline:
    """One call's time limit: a timer that shuts the current socket down when it fires.

    A socket timeout alone bounds each read, not the whole call: a server that sends
    one byte just before each timeout would hold the call forever.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._end = time.monotonic() + seconds
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self.expired = False
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def __enter__(self) -> _Deadline:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            if self._sock is not None:
                with contextlib.suppress(OSError):
                    self._sock.shutdown(socket.SHUT_RDWR)

    def error(self) -> HTTPFetchError:
        return HTTPFetchError(f"http_fetch: timed out after {self.seconds:g} s")

    def remaining(self) -> float:
        """Seconds left; raises the timeout error when none are."""
        left = self._end - time.monotonic()
        if left <= 0 or self.expired:
            raise self.error()
        return left

    def watch(self, sock: socket.socket | None) -> None:
        with self._lock:
            self._sock = sock
            if self.expired and sock is not None:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)


# --------------------------------------------------------------------------------------
# One request
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Config:
    guard: Guard
    max_bytes: int
    timeout: float
    max_redirects: int
    user_agent: str


def _addresses(config: _Config, target: _Target, hop: str) -> list[Address]:
    """Return the checked addresses to try for ``target``, in the resolver's order."""
    if target.address is not None:
        reason = config.guard.check(target.address)
        if reason is not None:
            raise invalid("url", f"{hop}{target.address} is {reason}; it cannot be fetched")
        return [target.address]
    try:
        infos = socket.getaddrinfo(
            target.host, target.port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
        )
    except (OSError, UnicodeError) as err:
        raise HTTPFetchError(f"http_fetch: could not resolve the host {target.host!r}") from err
    found: list[Address] = []
    for family, *_, sockaddr in infos:
        if family not in (socket.AF_INET, socket.AF_INET6):
            continue
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if address not in found:
            found.append(address)
    if not found:
        raise HTTPFetchError(f"http_fetch: the host {target.host!r} has no IP address")
    if not config.guard.allows_host(target.host):
        # One refused address refuses the host: any of them could be the one used.
        for address in found:
            reason = config.guard.check(address)
            if reason is not None:
                raise invalid(
                    "url",
                    f"{hop}the host {target.host!r} resolves to {address}, {reason}; "
                    "it cannot be fetched",
                )
    return found


def _connect(config: _Config, target: _Target, hop: str, deadline: _Deadline) -> socket.socket:
    """Return a socket connected to one of ``target``'s checked addresses."""
    failures: list[str] = []
    for address in _addresses(config, target, hop):
        family = socket.AF_INET if address.version == 4 else socket.AF_INET6
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            deadline.watch(sock)
            sock.settimeout(deadline.remaining())
            sock.connect((str(address), target.port))
            peer = ipaddress.ip_address(str(sock.getpeername()[0]).split("%", 1)[0])
            if peer != address:  # the kernel connected somewhere else: never read from it
                raise HTTPFetchError(f"http_fetch: connected to {peer}, not to {address}")
        except OSError as err:
            sock.close()
            failures.append(f"{address}: {safe_str(err, 100)}")
            continue
        except BaseException:
            sock.close()
            raise
        return sock
    deadline.remaining()  # a connection that failed because time ran out says so
    raise HTTPFetchError(
        f"http_fetch: could not connect to {target.authority} ({'; '.join(failures)})"
    )


def _charset(response: http.client.HTTPResponse) -> str:
    charset = response.headers.get_content_charset() or "utf-8"
    try:
        return codecs.lookup(charset).name
    except LookupError:
        return "utf-8"


def _read(response: http.client.HTTPResponse, limit: int) -> tuple[bytes, bool]:
    """Read at most ``limit`` bytes of the body; say whether there was more."""
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = response.read(min(65536, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    data = b"".join(chunks)
    return data[:limit], len(data) > limit


def _response_headers(response: http.client.HTTPResponse) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in response.getheaders():
        key = name.lower()
        if key not in out and len(out) >= _MAX_HEADERS:
            continue
        joined = f"{out[key]}, {value}" if key in out else value
        out[key] = truncate_text(joined, _MAX_HEADER_SHOWN)
    return out


@dataclass(frozen=True)
class _Response:
    status: int
    location: str | None
    result: FetchResult | None


def _request(
    config: _Config,
    target: _Target,
    headers: list[tuple[str, str]],
    hop: str,
    deadline: _Deadline,
) -> _Response:
    sock = _connect(config, target, hop, deadline)
    conn: http.client.HTTPConnection | None = None
    try:
        if target.scheme == "https":
            context = ssl.create_default_context()
            sock = context.wrap_socket(sock, server_hostname=target.host)
            deadline.watch(sock)
        conn = http.client.HTTPConnection(target.host, target.port)
        conn.sock = sock
        conn.putrequest("GET", target.path, skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", target.authority)
        for name, value in headers:
            conn.putheader(name, value)
        conn.endheaders()
        response = conn.getresponse()
        location = response.getheader("Location")
        if response.status in _REDIRECT_STATUSES and location is not None:
            return _Response(response.status, location, None)
        body, truncated = _read(response, config.max_bytes)
        if deadline.expired:  # the timer shut the socket: what was read is incomplete
            raise deadline.error()
        result: FetchResult = {
            "url": target.url,
            "status": response.status,
            "content_type": response.getheader("Content-Type") or "",
            "headers": _response_headers(response),
            "body": body.decode(_charset(response), errors="replace"),
            "truncated": truncated,
        }
        return _Response(response.status, None, result)
    except (OSError, http.client.HTTPException) as err:
        if deadline.expired:
            raise deadline.error() from err
        if isinstance(err, ssl.SSLError):
            raise HTTPFetchError(f"http_fetch: TLS failed: {safe_str(err, 200)}") from err
        raise HTTPFetchError(
            f"http_fetch: the request to {target.authority} failed: "
            f"{type(err).__name__}: {safe_str(err, 200)}"
        ) from err
    finally:
        deadline.watch(None)
        if conn is not None:
            conn.close()
        sock.close()


# --------------------------------------------------------------------------------------
# The tool
# --------------------------------------------------------------------------------------


def _request_headers(config: _Config, headers: dict[str, str] | None) -> list[tuple[str, str]]:
    chosen: dict[str, tuple[str, str]] = {
        "user-agent": ("User-Agent", config.user_agent),
        "accept": ("Accept", "*/*"),
    }
    for name, value in (headers or {}).items():
        if not _TOKEN.fullmatch(name) or len(name) > _MAX_HEADER_NAME:
            raise invalid("headers", f"{quoted(name)} is not a valid header name")
        if name.lower() in _RESERVED_HEADERS:
            raise invalid("headers", f"the {name} header is set by http_fetch and cannot be sent")
        if len(value) > _MAX_HEADER_VALUE:
            raise invalid(
                "headers", f"the {name} header is longer than {_MAX_HEADER_VALUE} characters"
            )
        if any((c < " " and c != "\t") or "\x7f" <= c <= "\x9f" or c > "\xff" for c in value):
            raise invalid(
                "headers",
                f"the {name} header holds a control character or a character outside Latin-1",
            )
        chosen[name.lower()] = (name, value)
    return [*chosen.values(), ("Accept-Encoding", "identity"), ("Connection", "close")]


def _fetch(config: _Config, url: str, headers: dict[str, str] | None) -> FetchResult:
    sent = _request_headers(config, headers)
    target = _parse_url(url, "")
    hop = ""
    with _Deadline(config.timeout) as deadline:
        redirects = 0
        while True:
            response = _request(config, target, sent, hop, deadline)
            if response.result is not None:
                return response.result
            if redirects == config.max_redirects:
                raise HTTPFetchError(
                    f"http_fetch: too many redirects (more than {config.max_redirects}); "
                    f"the last pointed to {quoted(response.location or '')}"
                )
            redirects += 1
            location = (response.location or "").strip().replace(" ", "%20")
            next_url = urljoin(target.url, location)
            hop = f"redirect {redirects} to {quoted(next_url)}: "
            following = _parse_url(next_url, hop)
            if following.origin != target.origin:
                sent = [h for h in sent if h[0].lower() not in _CREDENTIAL_HEADERS]
            target = following


def _config_problems(
    max_bytes: object, timeout: object, max_redirects: object, user_agent: object
) -> list[str]:
    problems: list[str] = []
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
        problems.append(f"max_bytes must be a positive integer, got {max_bytes!r:.40}")
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, (int, float))
        or not (timeout > 0 and math.isfinite(timeout))
    ):
        problems.append(f"timeout must be a positive number of seconds, got {timeout!r:.40}")
    if (
        isinstance(max_redirects, bool)
        or not isinstance(max_redirects, int)
        or not 0 <= max_redirects <= 30
    ):
        problems.append(f"max_redirects must be an integer from 0 to 30, got {max_redirects!r:.40}")
    if not isinstance(user_agent, str) or not user_agent or not user_agent.isprintable():
        problems.append("user_agent must be a non-empty printable string")
    return problems


def make_http_fetch(
    *,
    allow: AllowList = (),
    max_bytes: int = DEFAULT_MAX_BYTES,
    timeout: float = DEFAULT_TIMEOUT,
    max_redirects: int = DEFAULT_MAX_REDIRECTS,
    name: str = "http_fetch",
    user_agent: str = _USER_AGENT,
) -> Tool[dict[str, Any], FetchResult, FetchResult, Any]:
    """Build an ``http_fetch`` tool with its own limits and allow-list.

    Args:
        allow: host names, addresses and networks (``"intranet.example"``,
            ``"10.1.2.3"``, ``"10.0.0.0/8"``, ``"::1"``) to let through although
            they are not public. A host name is trusted with whatever it resolves
            to; an address or network lets that address through under any name
            and in any spelling (``::ffff:10.1.2.3`` too).
        max_bytes: the most body bytes returned; a longer body is cut and the
            result says ``truncated``.
        timeout: seconds the whole call may take, redirects included. Looking up
            a host name uses the system resolver and its own timeout.
        max_redirects: redirects followed, each one checked like the first URL;
            one more fails the call (with 0, any redirect does).
        name: the tool name.
        user_agent: the ``User-Agent`` sent unless the call sets one.

    Raises:
        ToolDefinitionError: an argument is out of range or an ``allow`` entry
            is not a host, address or network (every problem is listed).

    Examples:
        >>> fetch_internal = make_http_fetch(allow=["10.0.0.0/8"], max_bytes=20_000)
        >>> fetch_internal.name
        'http_fetch'
    """
    guard, problems = Guard.build(allow)
    problems += _config_problems(max_bytes, timeout, max_redirects, user_agent)
    if problems:
        raise ToolDefinitionError("make_http_fetch: " + "; ".join(problems))
    config = _Config(guard, max_bytes, float(timeout), max_redirects, user_agent)
    description = (
        "Fetch a web page or API response with HTTP GET and return its status, "
        f"headers and text body (at most {max_bytes:,} bytes; a longer body is cut "
        f"and marked truncated). Follows up to {max_redirects} redirects. Only public "
        "http(s) addresses can be fetched: private, loopback and other internal "
        "addresses are refused."
    )

    @tool(name=name, description=description, title="HTTP fetch")
    def http_fetch(
        url: Annotated[
            str,
            Param(
                "The http:// or https:// URL to fetch.",
                min_length=1,
                max_length=MAX_URL_CHARS,
                examples=("https://example.com/",),
            ),
        ],
        headers: Annotated[
            Annotated[dict[str, str], Param(max_length=_MAX_HEADERS)] | None,
            Param('Extra request headers, e.g. {"Accept": "application/json"}.'),
        ] = None,
    ) -> FetchResult:
        return _fetch(config, url, headers)

    return http_fetch


#: The default ``http_fetch``: public addresses only, 100,000 bytes, 10 s, 5 redirects.
http_fetch = make_http_fetch()
