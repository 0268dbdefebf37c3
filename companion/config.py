"""The config file: --config FILE, else $COMPANION_CONFIG, else <data>/config.toml, else defaults.

The core checks the sections it knows; each adapter section (camera, gpio, serial, tokens) is
handed to its adapter as a plain table, and the adapter checks it, naming the key in every error.
A missing file is fine (embedded defaults); a broken one stops start-up with a clear message.
"""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.components import Reader, load_toml
from companion.errors import DataFileError

ADAPTER_SECTIONS = ("camera", "gpio", "serial", "tokens", "dashboard")
KNOWN = {"server", "components", *ADAPTER_SECTIONS}
SERVER_KEYS = {"host", "port", "join_code", "allowed_hosts", "watch_requires_code",
               "trust_loopback", "streams_per_address", "streams_total"}
# A chosen join code must be as hard to guess as a made one (web/access.py has the arithmetic).
JOIN_CODE_MIN = 8
_HOSTNAME = re.compile(r"^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?"
                       r"(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$")


@dataclass
class Config:
    path: Path | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    join_code: str | None = None         # None: one is made and kept in the data folder
    allowed_hosts: tuple[str, ...] = ()  # names the table answers to besides its own
    watch_requires_code: bool = False
    trust_loopback: bool = True
    streams_per_address: int = 8         # live event streams (dashboards) one device may hold
    streams_total: int = 256
    components_dir: Path | None = None
    sections: dict[str, dict[str, Any]] = field(default_factory=dict)

    def section(self, name: str) -> dict[str, Any]:
        return self.sections.get(name, {})


def config_path(arg: str | os.PathLike | None, data: Path) -> Path | None:
    if arg:
        return Path(arg)
    if os.environ.get("COMPANION_CONFIG"):
        return Path(os.environ["COMPANION_CONFIG"])
    default = data / "config.toml"
    return default if default.is_file() else None


def load(arg: str | os.PathLike | None, data: Path) -> Config:
    path = config_path(arg, data)
    config = Config(path=path, components_dir=data / "components")
    if path is None:
        return config
    raw = load_toml(path)
    top = Reader(raw, path)
    unknown = set(raw) - KNOWN
    if unknown:
        raise DataFileError(f"{path}: unknown section(s) {', '.join(sorted(unknown))}; "
                            f"known: {', '.join(sorted(KNOWN))}")
    if "server" in raw:
        server = top.table("server")
        typo = set(server.data) - SERVER_KEYS
        if typo:
            raise server.fail(sorted(typo)[0],
                              f"not a [server] key; known: {', '.join(sorted(SERVER_KEYS))}")
        config.host = server.get("host", str, config.host)
        if not host_ok(config.host):
            raise server.fail("host", f"{config.host!r} is not a host name or address")
        config.port = server.get("port", int, config.port)
        if not 1 <= config.port <= 65535:
            raise server.fail("port", "must be between 1 and 65535")
        code = server.get("join_code", str, None)
        if code is not None and not (JOIN_CODE_MIN <= len(code) <= 32 and code.isalnum()):
            raise server.fail("join_code", f"must be {JOIN_CODE_MIN} to 32 letters or digits "
                              "(better: leave it out, and a random one is made)")
        config.join_code = code
        hosts = server.strings("allowed_hosts", [])
        for name in hosts:
            if not (_HOSTNAME.match(name.lower().rstrip(".")) or _is_address(name)):
                raise server.fail("allowed_hosts", f"{name!r} is not a host name or address")
        config.allowed_hosts = tuple(h.lower().rstrip(".") for h in hosts)
        config.watch_requires_code = server.get("watch_requires_code", bool, False)
        config.trust_loopback = server.get("trust_loopback", bool, True)
        for key in ("streams_per_address", "streams_total"):
            value = server.get(key, int, getattr(config, key))
            if not 1 <= value <= 1000:
                raise server.fail(key, "must be between 1 and 1000")
            setattr(config, key, value)
    if "components" in raw:
        comp = top.table("components")
        folder = Path(comp.get("dir", str)).expanduser()
        config.components_dir = folder if folder.is_absolute() else path.parent / folder
    for name in ADAPTER_SECTIONS:
        if name in raw:
            config.sections[name] = top.table(name).data
    return config


def host_ok(text: str) -> bool:
    """An address or host name to listen on ("0.0.0.0", "::", "pi.local")."""
    if _is_address(text):
        return True
    name = text.lower().rstrip(".")
    # all digits and dots is an IPv4 address or nothing (999.999.1.1 is no host)
    return bool(_HOSTNAME.match(name)) and not name.replace(".", "").isdigit()


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return False
    return True
