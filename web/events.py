"""Server-sent events: every new state, whole, so a client that reconnects is never half-applied.

``GET /api/events`` answers ``retry:`` and the newest frame of each event name (``event: state``
with the whole view, ``id:`` its seq; ``event: refusal`` with the newest refusals, from
companion/refusals.py, no ``id:``), then every newer frame. The request passes through Flask
like any other (access rules, the cap on streams per address, error answers as JSON), and a 200
answer then leaves its request thread: ``HandOff`` gives the connection to the ``StreamHub``
(web/streams.py), whose one writer thread serves all streams.

To add an event kind, publish it: ``app.extensions["companion"]["streams"].publish("name", value)``
from any thread. The value must be whole (a client keeps only the newest one it was sent) and
strict JSON. Pages listen with ``source.addEventListener("name", ...)`` in web/static/live.js.
"""

from __future__ import annotations

import logging

from flask import Blueprint, Response, current_app, jsonify, request

from web.handoff import take_connection
from web.streams import Refused, StreamHub

log = logging.getLogger(__name__)
events = Blueprint("events", __name__)
PATH = "/api/events"
TICKET = "companion.stream"       # the environ key a stream's reserved place travels under
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
SKIPPED = {"content-length", "transfer-encoding", "connection", "keep-alive"}


def make_hub(session, config=None) -> StreamHub:
    """The hub for one app, fed every change of the session as an ``event: state`` frame (the
    change's bytes as they are, encoded once, for the answer too, straight from the thread that
    committed it, with no event-bus thread to wake in between) and the session's refusals board
    as ``event: refusal`` (a page shows the refusals newer than the ones its stream opened with:
    an opening always carries one, empty or not)."""
    hub = StreamHub(per_address=getattr(config, "streams_per_address", 8),
                    total=getattr(config, "streams_total", 256), clock=session.clock)
    session.add_sink(lambda change: hub.publish_encoded("state", change.body, id=change.seq))
    view = session.view()
    hub.publish("state", view, id=view["seq"])   # a newer one from the sink wins
    board = getattr(session, "refusals", None)
    if board is not None:
        board.listen(lambda latest: hub.publish("refusal", latest))
    return hub


@events.get(PATH)
def stream():
    hub = current_app.extensions["companion"]["streams"]
    request.environ[TICKET] = hub.admit(request.remote_addr or "?")
    # The body is what a stream starts with; HandOff sends it afresh from the hub instead, and
    # it is the whole answer only where the connection cannot be handed over.
    return Response(hub.opening(), mimetype="text/event-stream", headers=HEADERS)


@events.app_errorhandler(Refused)
def refused(exc: Refused):
    body = jsonify({"error": str(exc), "limit": exc.limit, "open": exc.open})
    return body, exc.status, {"Retry-After": "5"}


class HandOff:
    """WSGI middleware: an admitted stream's connection goes to the hub once Flask has answered
    200; every other request, and every refusal, passes through untouched."""

    def __init__(self, app, hub: StreamHub):
        self.app, self.hub = app, hub
        self._warned = False

    def __call__(self, environ, start_response):
        if environ.get("PATH_INFO") != PATH:
            return self.app(environ, start_response)
        answer: dict = {}

        def capture(status, headers, exc_info=None):
            answer.update(status=status, headers=headers, exc_info=exc_info)
            return lambda _data: None

        body = self.app(environ, capture)
        ticket = environ.pop(TICKET, None)
        if (ticket is None or environ.get("REQUEST_METHOD") != "GET"
                or not answer["status"].startswith("200")):
            if ticket is not None:
                ticket.cancel()
            start_response(answer["status"], answer["headers"], answer["exc_info"])
            return body
        try:
            content = b"".join(body)
        finally:
            if hasattr(body, "close"):
                body.close()
        sock = take_connection(environ)
        if sock is None:
            # A finite answer: the page reconnects after the retry delay, so it still follows,
            # one request thread at a time; worth a word in the log, once.
            ticket.cancel()
            if not self._warned:
                self._warned = True
                log.warning("event streams cannot leave the request thread under this server; "
                            "each stream answers once and the page reconnects")
            start_response(answer["status"], answer["headers"])
            return [content]
        ticket.start(sock, _head(answer["status"], answer["headers"]))
        # waitress has let go of the connection: this answer is written nowhere.
        start_response("204 No Content", [("Content-Length", "0")])
        return []


def _head(status: str, headers) -> bytes:
    """The answer's status line and headers; the body runs until either side closes."""
    lines = [f"HTTP/1.1 {status}"]
    lines += [f"{name}: {value}" for name, value in headers if name.lower() not in SKIPPED]
    lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
