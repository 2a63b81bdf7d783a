"""http_fetch: only public addresses, in every spelling, at every redirect hop.

Three kinds of test, by what a broken guard could reach:

- refusals decided from the URL alone run with the socket layer replaced by a
  recorder that fails the test on any lookup or connection attempt;
- tests against the local servers below reach only loopback addresses;
- tests whose target is off this machine (a public address, a private network, a
  rebinding DNS answer) re-run themselves inside a new network namespace that has
  only a loopback interface (``unshare -n``), so nothing can leave the machine.
"""

from __future__ import annotations

import http.server
import ipaddress
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from standard_tool import StandardToolValidationError, ToolDefinitionError
from standard_tool.builtins import HTTPFetchError, http_fetch, make_http_fetch

ROOT = Path(__file__).resolve().parent.parent
NETNS_FLAG = "STANDARD_TOOL_TEST_IN_PRIVATE_NETNS"

# -- helpers ------------------------------------------------------------------------------


def in_private_network(request: pytest.FixtureRequest) -> bool:
    """Re-run the calling test in a private network namespace; True when that run passed.

    Inside the namespace (the second run) this checks that only loopback exists and
    returns False, so the test body runs there.
    """
    if os.environ.get(NETNS_FLAG) == "1":
        assert {name for _, name in socket.if_nameindex()} == {"lo"}
        return False
    unshare = ["unshare", "-n"] if os.geteuid() == 0 else ["unshare", "-r", "-n"]
    script = 'ip link set lo up && exec "$0" -m pytest -q -p no:cacheprovider "$1"'
    done = subprocess.run(
        [*unshare, "sh", "-c", script, sys.executable, request.node.nodeid],
        cwd=ROOT,
        env={**os.environ, NETNS_FLAG: "1"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"in the network namespace:\n{done.stdout}\n{done.stderr}"
    assert "1 passed" in done.stdout, done.stdout
    return True


def refused(tool: Any, url: str, *, at: str = "url", **extra: Any) -> str:
    with pytest.raises(StandardToolValidationError) as info:
        tool.execute({"url": url, **extra})
    err = info.value
    assert err.target == "input"
    assert [tuple(i.path or ()) for i in err.issues] == [(at,)]
    return str(err)


class Network:
    """What the code under test asked of the socket layer."""

    def __init__(self) -> None:
        self.lookups: list[str] = []
        self.connects: list[Any] = []


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[Network]:
    """Fail on any DNS lookup or connection attempt, and record it."""
    seen = Network()

    def lookup(host: Any, *args: Any, **kwargs: Any) -> Any:
        seen.lookups.append(host)
        raise AssertionError(f"looked up {host!r}")

    def connect(self: socket.socket, address: Any) -> None:
        seen.connects.append(address)
        raise AssertionError(f"connected to {address!r}")

    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    monkeypatch.setattr(socket.socket, "connect", connect)
    yield seen
    assert seen.lookups == []
    assert seen.connects == []


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> Network:
    """Record connection attempts and let them through."""
    seen = Network()
    real = socket.socket.connect

    def connect(self: socket.socket, address: Any) -> None:
        seen.connects.append(address)
        real(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    return seen


def fake_dns(monkeypatch: pytest.MonkeyPatch, answers: dict[str, list[list[str]]]) -> list[str]:
    """Answer lookups of the names in ``answers`` (one list of addresses per lookup, in turn)."""
    real = socket.getaddrinfo
    asked: list[str] = []

    def lookup(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host not in answers:
            return real(host, port, *args, **kwargs)
        asked.append(host)
        turn = answers[host][min(len(asked) - 1, len(answers[host]) - 1)]
        out = []
        for address in turn:
            family = socket.AF_INET6 if ":" in address else socket.AF_INET
            sockaddr = (address, port, 0, 0) if ":" in address else (address, port)
            out.append((family, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", sockaddr))
        return out

    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    return asked


# -- local servers --------------------------------------------------------------------------


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def reply(self, status: int, body: bytes, content_type: str, **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self.server.requests.append(self.path)
        path, _, query = self.path.partition("?")
        if path == "/":
            self.reply(200, b"hello", "text/plain; charset=utf-8")
        elif path == "/echo":
            seen = {"path": self.path, "headers": dict(self.headers.items())}
            self.reply(200, json.dumps(seen).encode(), "application/json")
        elif path == "/big":
            self.reply(200, b"a" * 300_000, "text/plain")
        elif path == "/latin1":
            self.reply(200, "café".encode("latin-1"), "text/plain; charset=ISO-8859-1")
        elif path == "/unknown-charset":
            self.reply(200, b"ok \xff", "text/plain; charset=x-no-such-charset")
        elif path == "/missing":
            self.reply(404, b"nope", "text/plain", X_Reason="gone")
        elif path == "/redirect":
            self.reply(302, b"", "text/plain", Location=unquote(query.removeprefix("to=")))
        elif path == "/loop":
            self.reply(302, b"", "text/plain", Location="/loop")
        elif path == "/chunked":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for part in (b"one ", b"two ", b"three"):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
            self.wfile.write(b"0\r\n\r\n")
        elif path == "/trickle":  # a byte at a time, never ending, until the test is over
            self.send_response(200)
            self.send_header("Content-Length", "1000000")
            self.end_headers()
            while not self.server.stop.wait(0.05):
                try:
                    self.wfile.write(b"x")
                    self.wfile.flush()
                except OSError:
                    return
        else:
            self.reply(500, b"unexpected path", "text/plain")


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, host: str) -> None:
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        super().__init__((host, 0), Handler)
        self.requests: list[str] = []
        self.stop = threading.Event()

    @property
    def port(self) -> int:
        return self.server_address[1]

    def url(self, path: str = "/", host: str | None = None) -> str:
        if host is None:
            host = self.server_address[0]
            host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}{path}"


@pytest.fixture
def serve() -> Iterator[Callable[[str], Server]]:
    started: list[Server] = []

    def start(host: str = "127.0.0.1") -> Server:
        server = Server(host)
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop.set()
        server.shutdown()
        server.server_close()


@pytest.fixture
def local(serve: Callable[[str], Server]) -> Server:
    return serve("127.0.0.1")


LOCAL = make_http_fetch(allow=["127.0.0.1"])


def to(url: str) -> str:
    return "/redirect?to=" + quote(url, safe="")


# -- refused from the URL alone (no lookup, no connection) ---------------------------------


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://127.0.0.1/", "127.0.0.1 is a loopback address"),
        ("http://127.0.0.1./", "127.0.0.1 is a loopback address"),
        ("http://127.1/", "127.0.0.1 is a loopback address"),
        ("http://127.0.1/", "127.0.0.1 is a loopback address"),
        ("http://2130706433/", "127.0.0.1 is a loopback address"),
        ("http://0x7f000001/", "127.0.0.1 is a loopback address"),
        ("http://0X7F.0.0.1/", "127.0.0.1 is a loopback address"),
        ("http://0x7f.1/", "127.0.0.1 is a loopback address"),
        ("http://0177.0.0.1/", "127.0.0.1 is a loopback address"),
        ("http://017700000001/", "127.0.0.1 is a loopback address"),
        ("http://127.0.0.254:8080/x", "127.0.0.254 is a loopback address"),
        ("http://\uff11\uff12\uff17.\uff10.\uff10.\uff11/", "127.0.0.1 is a loopback address"),
        ("http://127\u30020\u30020\u30021/", "127.0.0.1 is a loopback address"),
        ("http://0/", "0.0.0.0 is the unspecified address"),
        ("http://0.0.0.0/", "0.0.0.0 is the unspecified address"),
        ("http://[::]/", ":: is the unspecified address"),
        ("http://[::1]/", "::1 is a loopback address"),
        ("http://[0:0:0:0:0:0:0:1]/", "::1 is a loopback address"),
        ("http://[::ffff:127.0.0.1]/", "carrying 127.0.0.1, a loopback address"),
        ("http://[::ffff:7f00:1]/", "carrying 127.0.0.1, a loopback address"),
        ("http://[::ffff:169.254.169.254]/", "carrying 169.254.169.254, a link-local address"),
        ("http://[::127.0.0.1]/", "carrying 127.0.0.1, a loopback address"),
        ("http://[64:ff9b::7f00:1]/", "carrying 127.0.0.1, a loopback address"),
        ("http://[64:ff9b::a00:1]/", "carrying 10.0.0.1, a private address"),
        ("http://[2002:7f00:1::]/", "carrying 127.0.0.1, a loopback address"),
        ("http://[2002:a9fe:a9fe::1]/", "carrying 169.254.169.254, a link-local address"),
        ("http://10.0.0.1/", "10.0.0.1 is a private address"),
        ("http://10.255.255.255/", "is a private address"),
        ("http://172.16.0.1/", "172.16.0.1 is a private address"),
        ("http://192.168.1.1/", "192.168.1.1 is a private address"),
        ("http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local address"),
        ("http://0xa9fea9fe/", "169.254.169.254 is a link-local address"),
        ("http://100.64.0.1/", "100.64.0.1 is not a public address"),
        ("http://192.0.2.1/", "192.0.2.1 is a private address"),
        ("http://198.18.0.1/", "198.18.0.1 is a private address"),
        ("http://224.0.0.1/", "224.0.0.1 is a multicast address"),
        ("http://239.255.255.250/", "is a multicast address"),
        ("http://240.0.0.1/", "240.0.0.1 is"),
        ("http://255.255.255.255/", "255.255.255.255 is"),
        ("http://[fe80::1]/", "fe80::1 is a link-local address"),
        ("http://[fc00::1]/", "fc00::1 is a private address"),
        ("http://[fd12:3456::1]/", "is a private address"),
        ("http://[fec0::1]/", "fec0::1 is a site-local address"),
        ("http://[ff02::1]/", "ff02::1 is a multicast address"),
        ("http://[2001:db8::1]/", "2001:db8::1 is a private address"),
        ("https://127.0.0.1:443/", "127.0.0.1 is a loopback address"),
        ("HTTP://127.0.0.1/", "127.0.0.1 is a loopback address"),
    ],
)
def test_every_spelling_of_a_non_public_address_is_refused_before_connecting(
    no_network: Network, url: str, reason: str
) -> None:
    message = refused(http_fetch, url)
    assert reason in message
    assert message.endswith("it cannot be fetched")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://example.com/", "the URL has scheme 'ftp'; only http and https"),
        ("file:///etc/passwd", "the URL has scheme 'file'"),
        ("gopher://example.com/", "the URL has scheme 'gopher'"),
        ("javascript:alert(1)", "the URL has scheme 'javascript'"),
        ("data:text/plain,hi", "the URL has scheme 'data'"),
        ("example.com/path", "the URL has no scheme"),
        ("//example.com/", "the URL has no scheme"),
        ("http:///path", "the URL has no host"),
        ("http://user:pass@example.com/", "user names and passwords in the URL"),
        ("http://127.0.0.1:80@example.com/", "user names and passwords in the URL"),
        ("http://example.com@127.0.0.1/", "user names and passwords in the URL"),
        ("http://exa mple.com/", "holds a space, a control character or a backslash"),
        ("http://example.com/\r\nX-Injected: 1", "a control character"),
        ("http://example.com\\@127.0.0.1/", "a backslash"),
        ("http://example.com/\x00", "a control character"),
        ("http://example.com/\ud800", "it holds a lone surrogate"),
        ("http://example.com:99999/", "the URL's host or port is malformed"),
        ("http://example.com:port/", "the URL's host or port is malformed"),
        ("http://example.com:0/", "port 0 is not a valid port"),
        ("http://[::1/", "the URL's host or port is malformed"),
        ("http://[fe80::1%25eth0]/", "IPv6 zone identifiers are not supported"),
        ("http://1.2.3.4.5/", "a host ending in a number must be an IPv4 address"),
        ("http://example.123/", "a host ending in a number must be an IPv4 address"),
        ("http://256.0.0.1/", "a number in the IPv4 address is out of range"),
        ("http://4294967296/", "a number in the IPv4 address is out of range"),
        ("http://08.0.0.1/", "'08' is not an octal number"),
        ("http://a..b/", "a host name may hold only letters, digits"),
        ("http://%31%32%37.0.0.1/", "a host name may hold only letters, digits"),
        ("http://exam\u00a0ple.com/", "a host name may hold only letters, digits"),
        ("http://" + "\u00fc" * 70 + ".com/", "not a valid internationalized host name"),
        ("http://" + "a" * 64 + ".com/", "a label of the host name is longer than 63"),
        ("http://" + "a." * 130 + "com/", "longer than 253 characters"),
    ],
)
def test_urls_that_are_not_plain_http_are_refused_before_connecting(
    no_network: Network, url: str, message: str
) -> None:
    assert message in refused(http_fetch, url)


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ({"Host": "example.com"}, "the Host header is set by http_fetch"),
        ({"transfer-encoding": "chunked"}, "the transfer-encoding header is set by http_fetch"),
        ({"Content-Length": "5"}, "is set by http_fetch"),
        ({"Connection": "keep-alive"}, "is set by http_fetch"),
        ({"Accept-Encoding": "gzip"}, "is set by http_fetch"),
        ({"X-A": "1\r\nX-Injected: 1"}, "the X-A header holds a control character"),
        ({"X-A": "\x00"}, "holds a control character"),
        ({"X-A": "\u20ac"}, "outside Latin-1"),
        ({"X-A": "\ud800"}, "outside Latin-1"),
        ({"X-A": "a" * 5000}, "the X-A header is longer than 4096 characters"),
        ({"Bad Name": "1"}, "'Bad Name' is not a valid header name"),
        ({"X:A": "1"}, "is not a valid header name"),
        ({"": "1"}, "is not a valid header name"),
        ({f"X-{i}": "1" for i in range(51)}, "must have at most 50 properties"),
    ],
)
def test_bad_request_headers_are_refused_before_connecting(
    no_network: Network, headers: dict[str, str], message: str
) -> None:
    assert message in refused(http_fetch, "http://example.com/", at="headers", headers=headers)


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"url": 1},
        {"url": None},
        {"url": ""},
        {"url": "http://example.com/" + "a" * 3000},
        {"url": "http://example.com/", "headers": ["X-A: 1"]},
        {"url": "http://example.com/", "headers": {"X-A": 1}},
        {"url": "http://example.com/", "method": "POST"},
    ],
)
def test_wrong_input_shapes_are_refused_by_the_schema(
    no_network: Network, payload: dict[str, Any]
) -> None:
    with pytest.raises(StandardToolValidationError):
        http_fetch.execute(payload)


def test_a_host_resolving_to_any_non_public_address_is_refused(
    monkeypatch: pytest.MonkeyPatch, no_network: Network
) -> None:
    fake_dns(
        monkeypatch,
        {
            "internal.example": [["10.0.0.5"]],
            "mixed.example": [["93.184.216.34", "127.0.0.1"]],
            "mapped.example": [["::ffff:169.254.169.254"]],
            "localhost": [["127.0.0.1", "::1"]],
        },
    )
    assert "the host 'internal.example' resolves to 10.0.0.5, a private address" in refused(
        http_fetch, "http://internal.example/"
    )
    assert "resolves to 127.0.0.1, a loopback address" in refused(
        http_fetch, "http://mixed.example/"
    )
    assert "carrying 169.254.169.254, a link-local address" in refused(
        http_fetch, "https://mapped.example/"
    )
    assert "resolves to 127.0.0.1" in refused(http_fetch, "http://LOCALHOST./")
    assert "resolves to 127.0.0.1" in refused(
        http_fetch, "http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/"
    )
    assert no_network.connects == []


def test_a_host_that_does_not_resolve_is_a_fetch_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def lookup(*args: Any, **kwargs: Any) -> Any:
        raise socket.gaierror(socket.EAI_NONAME, "not known")

    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    with pytest.raises(HTTPFetchError, match=r"could not resolve the host 'nowhere\.invalid'"):
        http_fetch.execute({"url": "http://nowhere.invalid/"})


def spellings(value: int) -> list[str]:
    """Ways to write the IPv4 address ``value`` in a URL host."""
    b = value.to_bytes(4, "big")
    return [
        ".".join(str(x) for x in b),
        str(value),
        hex(value),
        ".".join(oct(x).replace("0o", "0") for x in b),
        f"{b[0]}.{b[1]}.{int.from_bytes(b[2:], 'big')}",
        f"{b[0]}.{int.from_bytes(b[1:], 'big')}",
        ".".join(hex(x) for x in b) + ".",
        f"[::ffff:{'.'.join(str(x) for x in b)}]",
    ]


@given(st.integers(min_value=0, max_value=2**32 - 1))
@example(int(ipaddress.IPv4Address("127.0.0.1")))
@example(int(ipaddress.IPv4Address("10.1.2.3")))
@example(int(ipaddress.IPv4Address("169.254.169.254")))
@example(int(ipaddress.IPv4Address("100.64.0.1")))
@example(int(ipaddress.IPv4Address("224.0.0.1")))
@example(int(ipaddress.IPv4Address("8.8.8.8")))
@example(0)
@example(2**32 - 1)
def test_the_guard_decides_by_the_address_whatever_the_spelling(value: int) -> None:
    address = ipaddress.IPv4Address(value)
    public = address.is_global and not address.is_multicast
    for host in spellings(value):
        tried: list[Any] = []

        def connect(self: socket.socket, target: Any, tried: list[Any] = tried) -> None:
            tried.append(target[0])
            raise ConnectionRefusedError("not in tests")

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(socket.socket, "connect", connect)
            patch.setattr(socket, "getaddrinfo", None)  # a lookup would be a bug: fail loudly
            error: Exception | None = None
            try:
                http_fetch.execute({"url": f"http://{host}/"})
            except Exception as err:
                error = err
        if public and not host.startswith("["):
            assert isinstance(error, HTTPFetchError), (host, error)
            assert tried == [str(address)], host
        elif not public:
            assert isinstance(error, StandardToolValidationError), (host, error)
            assert tried == [], host


# -- the factory ----------------------------------------------------------------------------


def test_the_factory_lists_every_bad_argument_at_once() -> None:
    with pytest.raises(ToolDefinitionError) as info:
        make_http_fetch(
            allow=["10.0.0.0/8", "not a host", 5],  # type: ignore[list-item]
            max_bytes=0,
            timeout=float("nan"),
            max_redirects=100,
            user_agent="",
        )
    message = str(info.value)
    assert message.startswith("make_http_fetch: ")
    for part in [
        "'not a host' is not a host or network",
        "expected a host, address or network, got 5",
        "max_bytes must be a positive integer",
        "timeout must be a positive number of seconds",
        "max_redirects must be an integer from 0 to 30",
        "user_agent must be a non-empty printable string",
    ]:
        assert part in message


def test_the_factory_names_and_describes_its_tool() -> None:
    custom = make_http_fetch(name="fetch_page", max_bytes=2048, max_redirects=2)
    assert custom.name == "fetch_page"
    assert "at most 2,048 bytes" in custom.description
    assert "up to 2 redirects" in custom.description
    assert http_fetch.name == "http_fetch"
    assert "at most 100,000 bytes" in http_fetch.description
    assert http_fetch.title == "HTTP fetch"


# -- against local servers (loopback only) ------------------------------------------------


def test_the_default_tool_refuses_a_local_server_in_any_spelling(local: Server) -> None:
    for host in [
        "127.0.0.1",
        "localhost",
        "2130706433",
        "0x7f000001",
        "127.1",
        "[::ffff:127.0.0.1]",
    ]:
        assert "cannot be fetched" in refused(http_fetch, local.url("/", host=host))
    assert local.requests == []


def test_an_allowed_address_is_fetched(local: Server, recorded: Network) -> None:
    result = LOCAL.execute({"url": local.url("/")})
    assert result == {
        "url": local.url("/"),
        "status": 200,
        "content_type": "text/plain; charset=utf-8",
        "headers": result["headers"],
        "body": "hello",
        "truncated": False,
    }
    assert result["headers"]["content-length"] == "5"
    assert recorded.connects == [("127.0.0.1", local.port)]


def test_an_allowed_address_is_allowed_in_every_spelling(local: Server) -> None:
    for host in ["2130706433", "0x7f.0.0.1", "127.1", "0177.0.0.1"]:
        result = LOCAL.execute({"url": local.url("/", host=host)})
        assert result["url"] == local.url("/")
        assert result["body"] == "hello"


def test_a_network_in_the_allow_list_lets_its_addresses_through(local: Server) -> None:
    fetch = make_http_fetch(allow=["127.0.0.0/8"])
    assert fetch.execute({"url": local.url("/")})["body"] == "hello"


def test_an_allowed_host_name_is_trusted_with_what_it_resolves_to(
    monkeypatch: pytest.MonkeyPatch, local: Server
) -> None:
    fake_dns(monkeypatch, {"intranet.example": [["127.0.0.1"]]})
    fetch = make_http_fetch(allow=["Intranet.Example."])
    result = fetch.execute({"url": f"http://intranet.example:{local.port}/echo"})
    assert json.loads(result["body"])["headers"]["Host"] == f"intranet.example:{local.port}"
    other = make_http_fetch(allow=["other.example"])
    assert "resolves to 127.0.0.1" in refused(other, f"http://intranet.example:{local.port}/")


def test_sends_the_callers_headers_and_its_own(local: Server) -> None:
    result = LOCAL.execute(
        {
            "url": local.url("/echo?q=caf\u00e9&x=[1]"),
            "headers": {"X-Token": "abc", "Accept": "text/html"},
        }
    )
    seen = json.loads(result["body"])
    assert seen["path"] == "/echo?q=caf%C3%A9&x=[1]"
    headers = seen["headers"]
    assert headers["X-Token"] == "abc"
    assert headers["Accept"] == "text/html"
    assert headers["Accept-Encoding"] == "identity"
    assert headers["Connection"] == "close"
    assert headers["User-Agent"].startswith("standard-tool-http-fetch")
    assert headers["Host"] == f"127.0.0.1:{local.port}"


def test_the_body_is_cut_at_max_bytes(local: Server) -> None:
    result = make_http_fetch(allow=["127.0.0.1"], max_bytes=1000).execute(
        {"url": local.url("/big")}
    )
    assert result["body"] == "a" * 1000
    assert result["truncated"] is True
    default = LOCAL.execute({"url": local.url("/big")})
    assert len(default["body"]) == 100_000
    assert default["truncated"] is True


def test_chunked_bodies_charsets_and_error_statuses(local: Server) -> None:
    assert LOCAL.execute({"url": local.url("/chunked")})["body"] == "one two three"
    assert LOCAL.execute({"url": local.url("/latin1")})["body"] == "caf\u00e9"
    assert LOCAL.execute({"url": local.url("/unknown-charset")})["body"] == "ok \ufffd"
    missing = LOCAL.execute({"url": local.url("/missing")})
    assert (missing["status"], missing["body"], missing["headers"]["x-reason"]) == (
        404,
        "nope",
        "gone",
    )


def test_redirects_within_allowed_hosts_are_followed(local: Server) -> None:
    result = LOCAL.execute({"url": local.url(to("/"))})
    assert result["url"] == local.url("/")
    assert result["body"] == "hello"


@pytest.mark.parametrize(
    "target",
    [
        "http://127.0.0.2:{port}/",
        "http://[::1]:{port}/",
        "http://0x7f000002:{port}/",
        "http://0:{port}/",
    ],
)
def test_a_redirect_from_an_allowed_host_to_a_refused_one_is_refused(
    local: Server, recorded: Network, target: str
) -> None:
    hop = target.format(port=local.port)
    message = refused(LOCAL, local.url(to(hop)))
    assert "redirect 1 to 'http://" in message
    assert "cannot be fetched" in message
    assert recorded.connects == [("127.0.0.1", local.port)]
    assert len(local.requests) == 1


def test_a_redirect_to_a_refused_name_is_refused(
    monkeypatch: pytest.MonkeyPatch, local: Server
) -> None:
    fake_dns(monkeypatch, {"rebound.example": [["127.0.0.2"]]})
    message = refused(LOCAL, local.url(to("http://rebound.example/")))
    assert (
        "redirect 1 to 'http://rebound.example/': the host 'rebound.example' resolves to 127.0.0.2"
        in message
    )


def test_a_redirect_to_another_scheme_is_refused(local: Server) -> None:
    message = refused(LOCAL, local.url(to("file:///etc/passwd")))
    assert "redirect 1 to 'file:///etc/passwd': the URL has scheme 'file'" in message


def test_redirects_are_bounded(local: Server) -> None:
    with pytest.raises(HTTPFetchError, match=r"too many redirects \(more than 5\)"):
        LOCAL.execute({"url": local.url("/loop")})
    assert len(local.requests) == 6
    no_redirects = make_http_fetch(allow=["127.0.0.1"], max_redirects=0)
    with pytest.raises(HTTPFetchError, match=r"more than 0"):
        no_redirects.execute({"url": local.url(to("/"))})


def test_credentials_are_not_sent_to_another_origin(serve: Callable[[str], Server]) -> None:
    first, second = serve("127.0.0.1"), serve("127.0.0.1")
    url = first.url(to(second.url("/echo")))
    headers = {"Authorization": "Bearer secret", "Cookie": "a=b", "X-Other": "kept"}
    seen = json.loads(LOCAL.execute({"url": url, "headers": headers})["body"])["headers"]
    assert "Authorization" not in seen
    assert "Cookie" not in seen
    assert seen["X-Other"] == "kept"
    same = json.loads(LOCAL.execute({"url": first.url(to("/echo")), "headers": headers})["body"])
    assert same["headers"]["Authorization"] == "Bearer secret"


def test_the_whole_call_has_one_deadline(local: Server) -> None:
    # The server sends a byte every 50 ms forever: no single read ever times out.
    fetch = make_http_fetch(allow=["127.0.0.1"], timeout=0.5, max_bytes=10_000_000)
    with pytest.raises(HTTPFetchError, match=r"timed out after 0\.5 s"):
        fetch.execute({"url": local.url("/trickle")})


def test_connection_and_tls_failures_are_fetch_errors(local: Server) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    with pytest.raises(HTTPFetchError, match=r"could not connect to 127\.0\.0\.1:\d+"):
        LOCAL.execute({"url": f"http://127.0.0.1:{port}/"})
    with pytest.raises(HTTPFetchError, match="TLS failed"):
        LOCAL.execute({"url": f"https://127.0.0.1:{local.port}/"})


# -- off this machine: inside a private network namespace -----------------------------------


def test_a_public_address_passes_the_guard(
    request: pytest.FixtureRequest, recorded: Network
) -> None:
    if in_private_network(request):
        return
    for url, address in [
        ("http://93.184.216.34/", ("93.184.216.34", 80)),
        ("https://1.1.1.1/", ("1.1.1.1", 443)),
        ("http://134744072:8080/", ("8.8.8.8", 8080)),
        ("http://[2606:4700:4700::1111]/", ("2606:4700:4700::1111", 80)),
    ]:
        recorded.connects.clear()
        with pytest.raises(HTTPFetchError, match="could not connect"):
            http_fetch.execute({"url": url})
        assert recorded.connects == [address], url


PRIVATE_TARGETS = [
    "http://10.0.0.1/",
    "http://192.168.0.1:8080/admin",
    "http://169.254.169.254/latest/meta-data/",
    "http://100.64.0.1/",
    "http://[fd00::1]/",
    "http://[::ffff:10.0.0.1]/",
    "http://2852039166/",  # 169.254.169.254
]


def test_a_redirect_to_a_private_network_is_refused(
    request: pytest.FixtureRequest, local: Server, recorded: Network
) -> None:
    if in_private_network(request):
        return
    for target in PRIVATE_TARGETS:
        recorded.connects.clear()
        message = refused(LOCAL, local.url(to(target)))
        assert f"redirect 1 to {target!r}" in message
        assert recorded.connects == [("127.0.0.1", local.port)], target


def test_dns_rebinding_cannot_redirect_the_connection(
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
    local: Server,
    recorded: Network,
) -> None:
    if in_private_network(request):
        return
    # The first answer is public; any later answer would point at the local server.
    asked = fake_dns(monkeypatch, {"rebind.example": [["93.184.216.34"], ["127.0.0.1"]]})
    with pytest.raises(HTTPFetchError, match="could not connect"):
        http_fetch.execute({"url": f"http://rebind.example:{local.port}/"})
    assert asked == ["rebind.example"]
    assert recorded.connects == [("93.184.216.34", local.port)]
    assert local.requests == []


def test_a_public_name_redirecting_to_loopback_is_refused_at_the_hop(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, local: Server
) -> None:
    if in_private_network(request):
        return
    # A name allowed by the allow-list fronts the local server and redirects inward.
    fake_dns(monkeypatch, {"public.example": [["127.0.0.1"]]})
    fetch = make_http_fetch(allow=["public.example"])
    target = f"http://localhost:{local.port}/"
    message = refused(fetch, f"http://public.example:{local.port}{to(target)}")
    assert f"redirect 1 to {target!r}: the host 'localhost' resolves to" in message
    assert len(local.requests) == 1
