"""The web app in this process behind a real waitress server on a free port, spoken to over real
HTTP (for tests that need to reach inside the session or plant an engine of their own)."""

import http.client
import json
import threading
from contextlib import contextmanager

from web import create_app
from web.serving import make_server, run_until


class Live:
    def __init__(self, port: int):
        self.port = port
        self.url = f"http://127.0.0.1:{port}"

    def request(self, method: str, path: str, body: bytes | str | None = None,
                headers: dict | None = None, timeout: float = 10):
        """(status, headers, raw body): exactly what came over the wire."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request(method, path, body=body,
                         headers={"Content-Type": "application/json", **(headers or {})})
            res = conn.getresponse()
            return res.status, dict(res.getheaders()), res.read()
        finally:
            conn.close()

    def json(self, method: str, path: str, body=None, **kw):
        raw = json.dumps(body) if body is not None and not isinstance(body, (bytes, str)) else body
        status, headers, data = self.request(method, path, raw, **kw)
        return status, headers, data


@contextmanager
def live_app(session, **kwargs):
    stopping = threading.Event()
    extras = {"stopping": stopping, **kwargs.pop("extras", {})}
    server = make_server(create_app(session, extras=extras, **kwargs), "127.0.0.1", 0, 8)
    thread = threading.Thread(target=run_until, args=(server, stopping), daemon=True)
    thread.start()
    try:
        yield Live(server.effective_port)
    finally:
        stopping.set()
        thread.join(10)
