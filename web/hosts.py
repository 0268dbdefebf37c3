"""The names this table answers to: a Host allow-list against DNS rebinding.

A page on ``evil.example`` can make its own name resolve to 127.0.0.1 and then talk to the
service from the Pi's own browser, which is trusted, with ``Host: evil.example``. So every
request must name the table by one of its own names: localhost and the loopback addresses, the
machine's hostname (and ``hostname.local``, as phones on the Wi-Fi find it by mDNS), the
addresses of its network interfaces, the host of ``[dashboard] public_url``, and the names in
``[server] allowed_hosts``. Addresses are looked up again (at most every few seconds) when an
unknown address arrives, so a new DHCP lease does not lock the phones out.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
import threading
import time
from pathlib import Path
from typing import Callable, Iterable
from urllib.parse import urlsplit

LOOPBACK = {"localhost", "127.0.0.1", "::1"}
REFRESH_S = 10.0
SIOCGIFADDR = 0x8915        # Linux: an interface's IPv4 address


def host_name(header: str) -> str | None:
    """The name in a Host header, lower case, without port, brackets or a trailing dot."""
    try:
        name = urlsplit("//" + header.strip()).hostname
    except ValueError:
        return None
    return name.rstrip(".") if name else None


def machine_names() -> set[str]:
    names = set(LOOPBACK)
    for name in (socket.gethostname(), socket.getfqdn()):
        name = name.lower().rstrip(".")
        if name:
            names.add(name)
            names.add(name.split(".")[0] + ".local")
    return names


def machine_addresses() -> set[str]:
    """The addresses of this machine's interfaces (and whatever its hostname resolves to)."""
    found: set[str] = set()
    found |= _ipv4_of_interfaces()
    found |= _ipv6_of_interfaces()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            found.add(info[4][0].split("%")[0])
    except OSError:
        pass
    return {_canonical(a) for a in found if _canonical(a)}


def _ipv4_of_interfaces() -> set[str]:
    try:
        import fcntl
    except ImportError:         # not Linux or macOS: the hostname lookup has to do
        return set()
    out = set()
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        for _index, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(probe.fileno(), SIOCGIFADDR,
                                     struct.pack("256s", name[:15].encode()))
            except OSError:
                continue        # an interface without an IPv4 address
            out.add(socket.inet_ntoa(packed[20:24]))
    except OSError:
        pass
    finally:
        probe.close()
    return out


def _ipv6_of_interfaces() -> set[str]:
    try:
        lines = Path("/proc/net/if_inet6").read_text().splitlines()
    except OSError:
        return set()
    out = set()
    for line in lines:
        parts = line.split()
        if parts and len(parts[0]) == 32:
            out.add(str(ipaddress.IPv6Address(int(parts[0], 16))))
    return out


def _canonical(address: str) -> str | None:
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return None


class HostAllowList:
    def __init__(self, extra: Iterable[str] = (), *,
                 names: Callable[[], set[str]] = machine_names,
                 addresses: Callable[[], set[str]] = machine_addresses,
                 clock: Callable[[], float] = time.monotonic):
        self.extra = {n.lower().rstrip(".") for n in extra}
        self._names, self._addresses, self._clock = names, addresses, clock
        self._lock = threading.Lock()
        self._known: set[str] = set()
        self._looked = float("-inf")
        self._refresh()

    def allows(self, header: str | None) -> bool:
        """Whether a request naming ``header`` is for this table. No Host header at all is
        fine: browsers always send one, so a request without it is no rebinding attack."""
        if header is None:
            return True
        name = host_name(header)
        if name is None:
            return False
        name = _canonical(name) or name
        if name in self._known or name in self.extra:
            return True
        if _canonical(name) is not None and self._refresh():
            return name in self._known
        return False

    def names(self) -> list[str]:
        return sorted(self._known | self.extra)

    def _refresh(self) -> bool:
        """Look the machine's names and addresses up again, at most every REFRESH_S."""
        with self._lock:
            now = self._clock()
            if now - self._looked < REFRESH_S:
                return False
            self._looked = now
            self._known = self._names() | self._addresses() | LOOPBACK
            return True
