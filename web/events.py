"""Server-sent events: every new state, whole, so a client that reconnects is never half-applied.

A connection starts with the current state; after that it waits on the session's condition
for a newer seq (the latest state wins; nothing queues up behind a slow phone).
"""

from __future__ import annotations

import logging

from flask import Blueprint, Response, current_app, stream_with_context

from companion import strict_json

events = Blueprint("events", __name__)
log = logging.getLogger(__name__)
KEEPALIVE = 15.0
SLICE = 1.0  # how often a quiet stream looks whether the server is stopping


def _frame(view: dict) -> str:
    """One state frame, encoded strictly. A state JSON cannot carry (a NaN an engine made) is
    logged and held back: a frame the pages' JSON.parse throws on would freeze every screen."""
    try:
        data = strict_json.dumps(view, separators=(",", ":"))
    except ValueError as exc:
        log.error("state %s not sent: it is not strict JSON (%s)", view.get("seq"), exc)
        return f": state {view.get('seq')} held back: not strict JSON\n\n"
    return f"id: {view['seq']}\nevent: state\ndata: {data}\n\n"


@events.get("/api/events")
def stream():
    session = current_app.extensions["companion"]["session"]
    stop = current_app.extensions["companion"].get("stopping")

    def generate():
        yield "retry: 1000\n\n"
        view = session.view()
        yield _frame(view)
        seq = view["seq"]
        quiet = 0.0
        while stop is None or not stop.is_set():
            view = session.wait(seq, SLICE)
            if view is None:
                quiet += SLICE
                if quiet >= KEEPALIVE:  # a comment line keeps proxies and phones from timing out
                    quiet = 0.0
                    yield ": keepalive\n\n"
                continue
            quiet = 0.0
            seq = view["seq"]
            yield _frame(view)

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(generate()), mimetype="text/event-stream", headers=headers)
