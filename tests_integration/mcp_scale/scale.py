"""One served toolkit as several processes behind a real load balancer, for tests and benchmarks.

``app_processes(factory, count)`` starts ``count`` uvicorn processes of one app factory
(``module:function``) on free ports of 127.0.0.1, every one with the same
``STANDARD_TOOL_STATE_KEYS``; ``haproxy(backends)`` puts Debian's HAProxy in front of
them (round robin, no session affinity, a health check every 200 ms, a failed
connection retried on another process), its configuration written into a temporary
folder; ``deployment(factory, count)`` does both. ``redis_server()`` starts a Redis
server with nothing saved to disk. Everything listens on 127.0.0.1 only, every wait
is bounded and ends with a message naming what did not come up, and leaving a
``with`` block stops what it started (SIGTERM, then SIGKILL after a bounded wait).

Each answer that passed through HAProxy names the process that served it in the
``X-Served-By`` header (``p0``, ``p1``, ...), so a test can see where each request went.

Example::

    with deployment("conformance_servers:ours", 3, pythonpath=[folder]) as served:
        httpx.post(served.url, ...)
        served.backends[0].stop()                # SIGTERM, like a rolling restart
        served.balancer.wait_until("p0", "DOWN")

    # processes sharing a Redis server; SIGKILL plays a crash
    with redis_server() as redis, deployment("app:make", 3, env={"REDIS_URL": redis.url}) as d:
        d.backends[1].stop(signal.SIGKILL)
        redis.stop()                             # the store goes away
"""

from __future__ import annotations

import csv
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

#: The environment variable every process reads its request-state keys from.
STATE_KEYS_ENV = "STANDARD_TOOL_STATE_KEYS"
HOST = "127.0.0.1"
#: How long anything may take to start or stop before the harness gives up, seconds.
START_TIMEOUT = 60.0
STOP_TIMEOUT = 15.0


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def new_state_keys() -> str:
    """A fresh value for ``STANDARD_TOOL_STATE_KEYS``: one random 64-character key."""
    return secrets.token_hex(32)


def _stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> int:
    """Send ``sig``, wait up to ``STOP_TIMEOUT`` seconds, then kill; return the exit code."""
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(STOP_TIMEOUT)
    return process.returncode


def _die_with_parent() -> None:
    """In the child, before it runs: ask Linux for SIGTERM when the harness's process dies.

    So a harness killed without running its ``with`` blocks' exits (SIGKILL, or SIGTERM
    to a script that does not handle it) leaves no server behind.
    """
    if sys.platform == "linux":
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None).prctl(pr_set_pdeathsig, signal.SIGTERM)


def _tail(path: Path, limit: int = 2000) -> str:
    try:
        return path.read_text(errors="replace")[-limit:]
    except FileNotFoundError:
        return ""


def _wait_listening(
    port: int, process: subprocess.Popen[bytes], what: str, log: Path, timeout: float
) -> None:
    """Wait until ``port`` accepts a connection; fail naming ``what`` if it exits or times out."""
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise RuntimeError(
                f"{what} exited with {process.returncode} before listening on port {port}:\n"
                f"{_tail(log)}"
            )
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"{what} did not listen on port {port} within {timeout:g} s:\n{_tail(log)}"
                ) from None
            time.sleep(0.05)


# -- The app's processes --------------------------------------------------------------------


@dataclass
class Backend:
    """One uvicorn process of the app: its name in HAProxy's configuration and its port."""

    name: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/mcp"

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Stop this process (SIGTERM: uvicorn finishes the requests it has, then exits)."""
        return _stop(self.process, sig)


@contextmanager
def app_processes(
    factory: str,
    count: int,
    *,
    pythonpath: Sequence[Path | str] = (),
    env: Mapping[str, str] | None = None,
    state_keys: str | None = None,
    cwd: Path | str | None = None,
    uvicorn_args: Sequence[str] = (),
) -> Iterator[list[Backend]]:
    """Start ``count`` uvicorn processes of the app factory ``factory`` (``module:function``).

    Every process gets the same ``STANDARD_TOOL_STATE_KEYS`` (``state_keys``, or a
    fresh key), ``pythonpath`` before the inherited ``PYTHONPATH``, and ``env`` on
    top of this process's environment. Yields once every process listens.
    """
    keys = state_keys or new_state_keys()
    paths = [str(p) for p in pythonpath]
    inherited = os.environ.get("PYTHONPATH")
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([*paths, *([inherited] if inherited else [])]),
        STATE_KEYS_ENV: keys,
        **(env or {}),
    }
    with tempfile.TemporaryDirectory(prefix="mcp-scale-app-") as folder, ExitStack() as stack:
        backends: list[Backend] = []
        for index in range(count):
            port = free_port()
            log = Path(folder) / f"p{index}.log"
            args = [sys.executable, "-m", "uvicorn", "--factory", factory, "--host", HOST]
            args += ["--port", str(port), "--log-level", "warning", *uvicorn_args]
            with log.open("wb") as out:
                process = subprocess.Popen(
                    args,
                    env=environment,
                    cwd=cwd,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    preexec_fn=_die_with_parent,
                )
            backend = Backend(f"p{index}", port, process, log)
            stack.callback(backend.stop)
            backends.append(backend)
        for backend in backends:
            what = f"uvicorn {factory} ({backend.name})"
            _wait_listening(backend.port, backend.process, what, backend.log, START_TIMEOUT)
        yield backends


# -- HAProxy --------------------------------------------------------------------------------


def haproxy_config(
    port: int, backends: Sequence[tuple[str, int]], stats_socket: Path, *, threads: int = 1
) -> str:
    """HAProxy's configuration: round robin over ``backends``, no affinity, health checks.

    No cookie, stick table or source hashing: each request goes to the next process
    that is up, whichever served the client before. A process is checked every 200 ms
    (a TCP connect) and taken out after two failures; a request whose connection is
    refused is sent again, to another process (``retry-on conn-failure``, ``redispatch``),
    so it never reaches the client as an error.
    """
    servers = "\n".join(
        f"    server {name} {HOST}:{server_port} check inter 200ms fall 2 rise 1"
        for name, server_port in backends
    )
    return f"""\
global
    nbthread {threads}
    maxconn 4096
    stats socket {stats_socket} mode 600 level admin

defaults
    mode http
    option http-keep-alive
    timeout connect 2s
    timeout client 120s
    timeout server 120s
    timeout http-request 30s
    retries 3
    retry-on conn-failure empty-response
    option redispatch

frontend mcp
    bind {HOST}:{port}
    default_backend app

backend app
    balance roundrobin
    http-response set-header X-Served-By %s
{servers}
"""


@dataclass
class Balancer:
    """A running HAProxy: its URL, configuration file and admin socket."""

    port: int
    config: Path
    stats_socket: Path
    process: subprocess.Popen[bytes]
    log: Path
    path: str = "/mcp"
    names: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}{self.path}"

    def command(self, line: str) -> str:
        """Send one command to HAProxy's admin socket and return its answer."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(5)
            sock.connect(str(self.stats_socket))
            sock.sendall(line.encode() + b"\n")
            chunks = []
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode()

    def states(self) -> dict[str, str]:
        """Each process's state as HAProxy sees it: ``UP``, ``DOWN``, ``UP 1/2``..."""
        rows = csv.DictReader(self.command("show stat").lstrip("# ").splitlines())
        return {
            row["svname"]: row["status"]
            for row in rows
            if row["pxname"] == "app" and row["svname"] in self.names
        }

    def served(self) -> dict[str, int]:
        """How many requests HAProxy has sent to each process so far."""
        rows = csv.DictReader(self.command("show stat").lstrip("# ").splitlines())
        return {
            row["svname"]: int(row["stot"] or 0)
            for row in rows
            if row["pxname"] == "app" and row["svname"] in self.names
        }

    def wait_until(self, name: str, state: str, timeout: float = START_TIMEOUT) -> None:
        """Wait until HAProxy reports process ``name`` in ``state`` (``UP`` or ``DOWN``)."""
        deadline = time.monotonic() + timeout
        while (seen := self.states().get(name)) != state:
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"HAProxy did not see {name} {state} within {timeout:g} s "
                    f"(it says {seen!r}; all: {self.states()})"
                )
            time.sleep(0.05)


@contextmanager
def haproxy(
    backends: Sequence[Backend], *, path: str = "/mcp", threads: int = 1
) -> Iterator[Balancer]:
    """Run HAProxy in front of ``backends``; yield once it listens and sees each one up."""
    binary = shutil.which("haproxy") or next(
        (p for p in ("/usr/sbin/haproxy", "/usr/local/sbin/haproxy") if Path(p).exists()), None
    )
    if binary is None:
        raise RuntimeError("haproxy is not installed: `apt-get install haproxy` (.ci/run does)")
    with tempfile.TemporaryDirectory(prefix="mcp-scale-lb-") as folder:
        port = free_port()
        stats = Path(folder) / "admin.sock"
        config = Path(folder) / "haproxy.cfg"
        pairs = [(b.name, b.port) for b in backends]
        config.write_text(haproxy_config(port, pairs, stats, threads=threads))
        check = subprocess.run(
            [binary, "-c", "-q", "-f", str(config)], capture_output=True, timeout=30, check=False
        )
        if check.returncode != 0:
            raise RuntimeError(f"HAProxy refuses {config}: {check.stderr.decode()[-2000:]}")
        log = Path(folder) / "haproxy.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                [binary, "-db", "-f", str(config)],
                stdout=out,
                stderr=subprocess.STDOUT,
                preexec_fn=_die_with_parent,
            )
        balancer = Balancer(port, config, stats, process, log, path, [name for name, _ in pairs])
        try:
            _wait_listening(port, process, "haproxy", log, START_TIMEOUT)
            for name, _ in pairs:
                balancer.wait_until(name, "UP")
            yield balancer
        finally:
            _stop(process)


@dataclass
class Deployment:
    """Processes of one app behind HAProxy: ``url`` is the load balancer's."""

    backends: list[Backend]
    balancer: Balancer
    state_keys: str

    @property
    def url(self) -> str:
        return self.balancer.url


@contextmanager
def deployment(
    factory: str,
    count: int,
    *,
    pythonpath: Sequence[Path | str] = (),
    env: Mapping[str, str] | None = None,
    state_keys: str | None = None,
    cwd: Path | str | None = None,
    threads: int = 1,
) -> Iterator[Deployment]:
    """``count`` processes of ``factory`` sharing one state key, behind HAProxy."""
    keys = state_keys or new_state_keys()
    with (
        app_processes(
            factory, count, pythonpath=pythonpath, env=env, state_keys=keys, cwd=cwd
        ) as backends,
        haproxy(backends, threads=threads) as balancer,
    ):
        yield Deployment(backends, balancer, keys)


# -- Redis ----------------------------------------------------------------------------------


@dataclass
class Redis:
    """A running ``redis-server``: ``url`` is ``redis://127.0.0.1:PORT/0``."""

    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def ping(self) -> bool:
        """Whether the server answers ``PING`` now."""
        try:
            with socket.create_connection((HOST, self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(64).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Stop the server (SIGTERM, or SIGKILL to play a crash)."""
        return _stop(self.process, sig)


@contextmanager
def redis_server() -> Iterator[Redis]:
    """Start ``redis-server`` on a free port of 127.0.0.1, nothing saved; yield once it answers."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError(
            "redis-server is not installed: `apt-get install redis-server` (.ci/run does)"
        )
    with tempfile.TemporaryDirectory(prefix="mcp-scale-redis-") as folder:
        port = free_port()
        log = Path(folder) / "redis.log"
        args = [binary, "--port", str(port), "--bind", HOST, "--save", "", "--appendonly", "no"]
        args += ["--dir", folder, "--logfile", str(log)]
        process = subprocess.Popen(
            args,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
        )
        server = Redis(port, process)
        try:
            deadline = time.monotonic() + START_TIMEOUT
            while not server.ping():
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"redis-server did not answer PING on port {port} "
                        f"(exit code {process.poll()}):\n{_tail(log)}"
                    )
                time.sleep(0.05)
            yield server
        finally:
            server.stop()
