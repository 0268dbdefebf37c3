"""Who may watch and who may change the game.

Every request must name the table by one of its own names (web/hosts.py: DNS rebinding).
Anyone on the table's network may watch (unless the config says otherwise). Changing the game
needs the table's join code, except from the Pi's own screen (loopback), which is trusted by
default. Every state-changing request must also look like it came from our own pages: a plain
cross-site form post or a request from another origin is refused before anything else runs.

The join code and the guess budget: codes are CODE_LENGTH characters from a 31-letter alphabet,
31**8 = 8.5e11 codes. Wrong codes are limited per address (WRONG_CODE_LIMIT a minute) and for the
whole table (GLOBAL_WRONG_LIMIT a minute, however many addresses a stranger uses), so at most
30 * 60 * 24 * 365 = 1.6e7 guesses a year get an answer: one chance in 54,000 of finding the code
in a year of non-stop guessing (a 6-character code, one in 56; a 4-character one, which the
config allowed, would fall in 31**4 / 2 / 30 minutes = 11 days on average even at that rate). Once joined, a device carries a token, not
the code: HMAC(key kept in the data folder, code), so being joined is never itself a guess and a
lockout never logs out the phones already at the table; the trusted screen is never locked out.
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

from companion.config import JOIN_CODE_MIN
from companion.errors import DataFileError
from companion.paths import write_whole
from web.hosts import HostAllowList

CODE_FILE = "join_code.txt"
# No 0/O, 1/I/L: a code read off a TV across the table must not be ambiguous.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
MIN_CODE_LENGTH = JOIN_CODE_MIN  # a kept code must be as hard to guess as a made one
KEY_FILE = "join_key.txt"
COOKIE = "companion_join"
CODE_HEADER = "X-Join-Code"
CSRF_HEADER = "X-Companion"
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
WRONG_CODE_LIMIT = 10          # wrong codes per address per window before we stop listening
GLOBAL_WRONG_LIMIT = 30        # wrong codes from all addresses together per window
WRONG_CODE_WINDOW = 60.0
MAX_TRACKED = 4096             # addresses remembered for the per-address limit


class Denied(Exception):
    """A request refused by the access rules; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str, need: str | None = None):
        super().__init__(message)
        self.status = status
        self.need = need


def make_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def load_or_make_code(data_dir: Path | None) -> str:
    """The code kept in the data folder, made on first use so it survives restarts. A kept code
    shorter than the guess budget needs (made by an older companion) is replaced."""
    if data_dir is None:
        return make_code()
    path = Path(data_dir) / CODE_FILE
    code = _read_kept(path, "the join code").upper()
    if code and MIN_CODE_LENGTH <= len(code) <= 32 and code.isalnum():
        return code
    code = make_code()
    _keep(path, code)
    return code


def load_or_make_key(data_dir: Path | None) -> bytes:
    """The key that turns the code into the joined devices' token (kept, so a restart does not
    make every phone join again)."""
    if data_dir is None:
        return secrets.token_bytes(32)
    path = Path(data_dir) / KEY_FILE
    key = _read_kept(path, "the join key")
    try:
        if len(key) == 64:
            return bytes.fromhex(key)
    except ValueError:
        pass
    raw = secrets.token_bytes(32)
    _keep(path, raw.hex())
    return raw


def _read_kept(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError) as exc:
        raise DataFileError(f"{path}: cannot read {what} ({exc})") from exc


def _keep(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_whole(path, text + "\n", mode=0o600)


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
                 trusts=None, hosts: HostAllowList | None = None, key: bytes | None = None):
        self.code = code
        self.trust_loopback = trust_loopback
        self.watch_requires_code = watch_requires_code
        self.hosts = hosts or HostAllowList()
        self._trusts = trusts or (lambda addr: self.trust_loopback and is_loopback(addr))
        self._token = hmac.new(key or secrets.token_bytes(32), code.encode(), "sha256").hexdigest()
        self._wrong: dict[str, deque] = {}
        self._wrong_all: deque = deque()
        self._lock = threading.Lock()

    @classmethod
    def from_config(cls, config: Any, data_dir: Path | None, public_url: str | None = None) -> "Access":
        code = getattr(config, "join_code", None) or load_or_make_code(data_dir)
        extra = list(getattr(config, "allowed_hosts", ()) or ())
        if public_url:
            extra.append(urlsplit(public_url).hostname or "")
        return cls(code.upper(),
                   trust_loopback=getattr(config, "trust_loopback", True),
                   watch_requires_code=getattr(config, "watch_requires_code", False),
                   hosts=HostAllowList(e for e in extra if e), key=load_or_make_key(data_dir))

    # -- the decisions --------------------------------------------------------------------------

    def trusted(self, request) -> bool:
        return bool(self._trusts(request.remote_addr))

    def token(self) -> str:
        """What a joined device's cookie carries."""
        return self._token

    def matches(self, code: Any) -> bool:
        return isinstance(code, str) and hmac.compare_digest(code.strip().upper().encode(),
                                                            self.code.encode())

    def carries_token(self, request) -> bool:
        token = request.cookies.get(COOKIE)
        return isinstance(token, str) and hmac.compare_digest(token.encode(), self._token.encode())

    def joined(self, request) -> bool:
        """Trusted, joined with a token, or sending the right code (which counts as a guess)."""
        if self.trusted(request) or self.carries_token(request):
            return True
        code = request.headers.get(CODE_HEADER)
        if code is None:
            return False
        try:
            self.attempt(request, code)
        except Denied:
            return False
        return True

    def check(self, request) -> None:
        """Raise Denied unless this request may do what it asks. Runs before every request."""
        self.check_host(request)
        unsafe = request.method in UNSAFE
        if unsafe:
            self.check_same_origin(request)
        if not request.path.startswith("/api/") or request.path == "/api/health":
            return
        if request.path in ("/api/join", "/api/access"):
            return
        if unsafe or self.watch_requires_code:
            self.check_code(request, "change the game" if unsafe else "watch this table")

    def check_host(self, request) -> None:
        host = request.environ.get("HTTP_HOST")
        if not self.hosts.allows(host):
            raise Denied(403, f"this table does not answer to the name {host!r} (a page of "
                              "another site that points its name at us?); to reach it by that "
                              "name add it to [server] allowed_hosts in the config")

    def check_same_origin(self, request) -> None:
        site = request.headers.get("Sec-Fetch-Site")
        if site is not None and site not in ("same-origin", "none"):
            raise Denied(403, f"cross-site request refused ({site}): use the table's own dashboard")
        origin = request.headers.get("Origin")
        if origin is not None:
            if (origin == "null" or urlsplit(origin).netloc.lower() != request.host.lower()
                    or not self.hosts.allows(urlsplit(origin).netloc)):
                raise Denied(403, f"request from another site ({origin}) refused: use the "
                                  "table's own dashboard")
        # A plain HTML form can only send form or text bodies; JSON or our own header needs
        # JavaScript from our origin (anything else triggers a CORS preflight we never grant).
        if request.mimetype != "application/json" and CSRF_HEADER not in request.headers:
            raise Denied(403, "changes must be sent as JSON (Content-Type: application/json) "
                              f"or carry the {CSRF_HEADER} header")

    def check_code(self, request, doing: str) -> None:
        if self.trusted(request) or self.carries_token(request):
            return
        code = request.headers.get(CODE_HEADER)
        if code is None:
            stale = request.cookies.get(COOKIE) is not None
            raise Denied(401, ("this device's join has expired (the code changed?): join again "
                               "with the code on the table screen") if stale else
                         f"to {doing} you need the table's join code: it is on the "
                         "table screen, with a QR code", need="join_code")
        self.attempt(request, code)

    def attempt(self, request, code: Any) -> None:
        """Check a code someone typed, refusing to guess along after too many wrong ones, from
        one address or from all together. The trusted screen is never refused."""
        if self.trusted(request):
            if self.matches(code):
                return
            raise Denied(403, "that join code is not right: check the table screen",
                         need="join_code")
        address = request.remote_addr or "?"
        now = time.monotonic()
        with self._lock:
            wrong = self._wrong.setdefault(address, deque())
            for seen in (wrong, self._wrong_all):
                while seen and now - seen[0] > WRONG_CODE_WINDOW:
                    seen.popleft()
            if len(wrong) >= WRONG_CODE_LIMIT:
                raise Denied(429, "too many wrong codes: wait a minute and try again",
                             need="join_code")
            if len(self._wrong_all) >= GLOBAL_WRONG_LIMIT:
                raise Denied(429, "too many wrong codes at this table just now (someone is "
                                  "guessing?): wait a minute and try again", need="join_code")
            if self.matches(code):
                return
            wrong.append(now)
            self._wrong_all.append(now)
            if len(self._wrong) > MAX_TRACKED:
                self._forget_quiet(now)
        raise Denied(403, "that join code is not right: check the table screen", need="join_code")

    def _forget_quiet(self, now: float) -> None:
        for address in [a for a, w in self._wrong.items()
                        if not w or now - w[-1] > WRONG_CODE_WINDOW]:
            del self._wrong[address]


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
