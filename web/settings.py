"""The ``[dashboard]`` section of the config file: a few display choices, each checked by name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.errors import DataFileError


@dataclass(frozen=True)
class DashboardSettings:
    public_url: str | None = None   # the address phones use, when the Pi's own guess is wrong
    kid_mode: bool = False          # icons first, gentle sounds, on every device by default
    table_sound: bool = True        # the table view beeps when a timer runs out
    phone_sound: bool = False       # phones stay silent unless their owner turns sound on

    def to_json(self) -> dict[str, Any]:
        return {"kid_mode": self.kid_mode, "table_sound": self.table_sound,
                "phone_sound": self.phone_sound}


def load(config: Any) -> DashboardSettings:
    raw = config.section("dashboard") if config is not None else {}
    where = f"{getattr(config, 'path', None) or 'config'}: dashboard"
    known = {"public_url": str, "kid_mode": bool, "table_sound": bool, "phone_sound": bool}
    values = {}
    for key, value in raw.items():
        if key not in known:
            raise DataFileError(f"{where}.{key}: unknown setting; known: {', '.join(known)}")
        if not isinstance(value, known[key]):
            raise DataFileError(f"{where}.{key}: expected {known[key].__name__}, got {value!r}")
        values[key] = value
    url = values.get("public_url")
    if url is not None and not url.startswith(("http://", "https://")):
        raise DataFileError(f"{where}.public_url: must start with http:// or https://")
    return DashboardSettings(**values)
