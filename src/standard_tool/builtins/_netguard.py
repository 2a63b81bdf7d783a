"""Which hosts and addresses ``http_fetch`` may connect to: one URL and address guard.

Layer: top (built-in tools; imports function tools, the core and shared helpers).

A host is read the way a browser reads it (the WHATWG URL rules): non-ASCII names
go through IDNA, one trailing dot is dropped, and a name whose last label is a
number is an IPv4 address in any of its old spellings (``2130706433``,
``0x7f000001``, ``0177.0.0.1``, ``127.1``), never a name to look up. An address
is refused unless it is global unicast, and an IPv6 address that carries an IPv4
address (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo) is judged by that
address too. The allow-list lets chosen hosts and networks through.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from typing_extensions import TypeAlias

__all__ = ["Address", "AllowList", "Guard", "normalize_host", "refusal"]

Address: TypeAlias = ipaddress.IPv4Address | ipaddress.IPv6Address
Network: TypeAlias = ipaddress.IPv4Network | ipaddress.IPv6Network
#: What ``allow`` may hold: host names, addresses and networks (as text or objects).
AllowEntry: TypeAlias = str | Address | Network
AllowList: TypeAlias = Iterable[AllowEntry]

_HOST_CHARS = re.compile(r"[a-z0-9_-]+(?:\.[a-z0-9_-]+)*")
_NUMBER = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)")
_NAT64 = (
    ipaddress.IPv6Network("64:ff9b::/96"),
    ipaddress.IPv6Network("64:ff9b:1::/48"),
)
_IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")


class HostError(ValueError):
    """Internal: a host that is not a valid host name or address."""


def _ipv4_number(part: str) -> int:
    """One part of a WHATWG IPv4 host: decimal, ``0x`` hex or leading-zero octal."""
    if part.startswith("0x"):
        return int(part[2:] or "0", 16)
    if len(part) > 1 and part.startswith("0"):
        if not part.isdigit() or any(c in "89" for c in part):
            raise HostError(f"{part!r} is not an octal number")
        return int(part, 8)
    return int(part)


def _ipv4(host: str) -> ipaddress.IPv4Address:
    parts = host.split(".")
    if len(parts) > 4 or any(not _NUMBER.fullmatch(p) for p in parts):
        raise HostError("a host ending in a number must be an IPv4 address")
    if any(len(p) > 12 for p in parts):
        raise HostError("a number in the IPv4 address is too long")
    numbers = [_ipv4_number(p) for p in parts]
    *head, last = numbers
    if any(n > 255 for n in head) or last >= 256 ** (5 - len(numbers)):
        raise HostError("a number in the IPv4 address is out of range")
    value = last
    for i, n in enumerate(head):
        value += n << (8 * (3 - i))
    return ipaddress.IPv4Address(value)


def normalize_host(host: str) -> str | Address:
    """Return ``host`` as a lower-case ASCII name, or as the address it spells.

    ``host`` is the part of a URL between ``//`` and the port, without brackets.

    Raises:
        HostError: ``host`` is neither a valid name nor a valid address.
    """
    if not host:
        raise HostError("the URL has no host")
    if ":" in host:  # only an IPv6 literal has a colon here
        if "%" in host:
            raise HostError("IPv6 zone identifiers are not supported")
        try:
            return ipaddress.IPv6Address(host)
        except ValueError as err:
            raise HostError("not a valid IPv6 address") from err
    if not host.isascii():
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError as err:
            raise HostError("not a valid internationalized host name") from err
    host = host.lower()
    if host.endswith("."):
        host = host[:-1]
    if not _HOST_CHARS.fullmatch(host):
        raise HostError("a host name may hold only letters, digits, '-', '_' and dots")
    if len(host) > 253:
        raise HostError("the host name is longer than 253 characters")
    if any(len(label) > 63 for label in host.split(".")):
        raise HostError("a label of the host name is longer than 63 characters")
    if _NUMBER.fullmatch(host.rsplit(".", 1)[-1]):
        return _ipv4(host)
    return host


def _embedded(address: Address) -> Iterator[ipaddress.IPv4Address]:
    """Yield the IPv4 addresses an IPv6 address carries, by every standard embedding."""
    if isinstance(address, ipaddress.IPv4Address):
        return
    if address.ipv4_mapped is not None:
        yield address.ipv4_mapped
    if address.sixtofour is not None:
        yield address.sixtofour
    if address.teredo is not None:
        yield from address.teredo
    low32 = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if any(address in net for net in _NAT64):
        yield low32
    if address in _IPV4_COMPATIBLE and int(address) > 1:
        yield low32


def _reason(address: Address) -> str | None:
    if address.is_unspecified:
        return "the unspecified address"
    if address.is_loopback:
        return "a loopback address"
    if address.is_link_local:
        return "a link-local address"
    if address.is_multicast:
        return "a multicast address"
    if isinstance(address, ipaddress.IPv6Address) and address.is_site_local:
        return "a site-local address"
    if address.is_private:
        return "a private address"
    if address.is_reserved:
        return "a reserved address"
    if not address.is_global:
        return "not a public address"
    return None


def refusal(address: Address) -> str | None:
    """Why ``address`` may not be fetched (``None`` if it is global unicast)."""
    for inner in _embedded(address):
        reason = _reason(inner)
        if reason is not None:
            return f"an IPv6 address carrying {inner}, {reason}"
    return _reason(address)


@dataclass(frozen=True)
class Guard:
    """The allow-list: host names, and networks whose addresses are let through."""

    hosts: frozenset[str]
    networks: tuple[Network, ...]

    @classmethod
    def build(cls, allow: AllowList) -> tuple[Guard, list[str]]:
        """Read ``allow``; return the guard and the entries that could not be read."""
        hosts: set[str] = set()
        networks: list[Network] = []
        problems: list[str] = []
        if isinstance(allow, str):
            allow = [allow]
        for entry in allow:
            if isinstance(entry, (ipaddress.IPv4Network, ipaddress.IPv6Network)):
                networks.append(entry)
                continue
            if isinstance(entry, (ipaddress.IPv4Address, ipaddress.IPv6Address)):
                networks.append(ipaddress.ip_network(entry))
                continue
            if not isinstance(entry, str):  # pyright: ignore[reportUnnecessaryIsInstance]
                problems.append(f"allow: expected a host, address or network, got {entry!r:.60}")
                continue
            try:
                networks.append(ipaddress.ip_network(entry.strip("[]"), strict=False))
                continue
            except ValueError:
                pass
            try:
                host = normalize_host(entry)
            except HostError as err:
                problems.append(f"allow: {entry!r:.60} is not a host or network ({err})")
                continue
            if isinstance(host, str):
                hosts.add(host)
            else:
                networks.append(ipaddress.ip_network(host))
        return cls(frozenset(hosts), tuple(networks)), problems

    def allows_host(self, host: str) -> bool:
        """Whether ``host`` (normalized) is on the allow-list by name."""
        return host in self.hosts

    def check(self, address: Address) -> str | None:
        """Why ``address`` is refused, or ``None`` when it is allowed or global."""
        candidates = [address, *_embedded(address)]
        for net in self.networks:
            if any(c.version == net.version and c in net for c in candidates):
                return None
        return refusal(address)
