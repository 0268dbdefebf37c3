"""Who may watch and who may change the game.

Anyone on the table's network may watch (unless the config says otherwise). Changing the game
needs the table's join code, except from the Pi's own screen (loopback), which is trusted by
default. Every state-changing request must also look like it came from our own pages: a plain
cross-site form post or a request from another origin is refused before anything else runs.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from companion.errors import DataFileError

CODE_FILE = "join_code.txt"
# No 0/O, 1/I/L: a code read off a TV across the table must not be ambiguous.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
COOKIE = "companion_code"
CODE_HEADER = "X-Join-Code"
CSRF_HEADER = "X-Companion"
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
WRONG_CODE_LIMIT = 10          # wrong codes per address per window before we stop listening
WRONG_CODE_WINDOW = 60.0


class Denied(Exception):
    """A request refused by the access rules; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str, need: str | None = None):
        super().__init__(message)
        self.status = status
        self.need = need


def make_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def load_or_make_code(data_dir: Path | None) -> str:
    """The code kept in the data folder, made on first use so it survives restarts."""
    if data_dir is None:
        return make_code()
    path = Path(data_dir) / CODE_FILE
    try:
        code = path.read_text(encoding="utf-8").strip().upper()
    except FileNotFoundError:
        code = ""
    except (OSError, UnicodeDecodeError) as exc:
        raise DataFileError(f"{path}: cannot read the join code ({exc})") from exc
    if code and 4 <= len(code) <= 32 and code.isalnum():
        return code
    code = make_code()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(code + "\n", encoding="utf-8")
    tmp.chmod(0o600)
    tmp.replace(path)
    return code


def is_loopback(address: str | None) -> bool:
    if not address:
        return False
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


class Access:
    """The access rules of one table. ``trusts`` decides which client addresses need no code."""

    def __init__(self, code: str, *, trust_loopback: bool = True, watch_requires_code: bool = False,
                 trusts=None):
        self.code = code
        self.trust_loopback = trust_loopback
        self.watch_requires_code = watch_requires_code
        self._trusts = trusts or (lambda addr: self.trust_loopback and is_loopback(addr))
        self._wrong: dict[str, deque] = {}
        self._lock = threading.Lock()

    @classmethod
    def from_config(cls, config: Any, data_dir: Path | None) -> "Access":
        code = getattr(config, "join_code", None) or load_or_make_code(data_dir)
        return cls(code.upper(),
                   trust_loopback=getattr(config, "trust_loopback", True),
                   watch_requires_code=getattr(config, "watch_requires_code", False))

    # -- the decisions --------------------------------------------------------------------------

    def trusted(self, request) -> bool:
        return bool(self._trusts(request.remote_addr))

    def presented(self, request) -> str | None:
        return request.headers.get(CODE_HEADER) or request.cookies.get(COOKIE)

    def matches(self, code: Any) -> bool:
        return isinstance(code, str) and hmac.compare_digest(code.strip().upper().encode(),
                                                            self.code.encode())

    def joined(self, request) -> bool:
        return self.trusted(request) or self.matches(self.presented(request))

    def check(self, request) -> None:
        """Raise Denied unless this request may do what it asks. Runs before every request."""
        unsafe = request.method in UNSAFE
        if unsafe:
            self.check_same_origin(request)
        if not request.path.startswith("/api/") or request.path == "/api/health":
            return
        if request.path in ("/api/join", "/api/access"):
            return
        if unsafe or self.watch_requires_code:
            self.check_code(request, "change the game" if unsafe else "watch this table")

    def check_same_origin(self, request) -> None:
        site = request.headers.get("Sec-Fetch-Site")
        if site is not None and site not in ("same-origin", "none"):
            raise Denied(403, f"cross-site request refused ({site}): use the table's own dashboard")
        origin = request.headers.get("Origin")
        if origin is not None:
            if origin == "null" or urlsplit(origin).netloc.lower() != request.host.lower():
                raise Denied(403, f"request from another site ({origin}) refused: use the "
                                  "table's own dashboard")
        # A plain HTML form can only send form or text bodies; JSON or our own header needs
        # JavaScript from our origin (anything else triggers a CORS preflight we never grant).
        if request.mimetype != "application/json" and CSRF_HEADER not in request.headers:
            raise Denied(403, "changes must be sent as JSON (Content-Type: application/json) "
                              f"or carry the {CSRF_HEADER} header")

    def check_code(self, request, doing: str) -> None:
        if self.trusted(request):
            return
        code = self.presented(request)
        if code is None:
            raise Denied(401, f"to {doing} you need the table's join code: it is on the "
                              "table screen, with a QR code", need="join_code")
        self.attempt(request.remote_addr or "?", code)

    def attempt(self, address: str, code: Any) -> None:
        """Check a code someone typed, refusing to guess along after too many wrong ones."""
        now = time.monotonic()
        with self._lock:
            wrong = self._wrong.setdefault(address, deque())
            while wrong and now - wrong[0] > WRONG_CODE_WINDOW:
                wrong.popleft()
            if len(wrong) >= WRONG_CODE_LIMIT:
                raise Denied(429, "too many wrong codes: wait a minute and try again",
                             need="join_code")
            if self.matches(code):
                return
            wrong.append(now)
        raise Denied(403, "that join code is not right: check the table screen", need="join_code")


def lan_address() -> str:
    """This machine's address on the local network, for the QR code a phone scans."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))  # UDP connect sends nothing; it only picks a route
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def join_url(request, code: str, public_url: str | None = None) -> str:
    """The address a phone at the table opens to join: the Pi's LAN address, not loopback."""
    if public_url:
        base = public_url.rstrip("/")
    else:
        host = request.host
        hostname = urlsplit("//" + host).hostname or ""
        if hostname == "localhost" or is_loopback(hostname):
            port = urlsplit("//" + host).port
            host = lan_address() + (f":{port}" if port else "")
        base = f"{request.scheme}://{host}"
    return f"{base}/play?code={code}"
