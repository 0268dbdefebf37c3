"""Taking a client's connection away from waitress, for an answer that outlives its request.

WSGI has no standard way to hand a connection to other code, and waitress (3.x) has no public
one. What it does put in every environ is ``waitress.client_disconnected``, a bound method of the
connection's channel; the channel holds the socket. Taking it means: a duplicate of the socket
for us, and the channel removed from waitress's map (so its I/O loop never selects it again and
its connection limit no longer counts it), then its own copy closed. While a request is being
answered waitress does not read from that channel (``channel_request_lookahead`` is 0), so no
read of it can be in flight; we wait until any earlier answer on a kept-alive connection has left.

This module is the only place that knows waitress's insides. Anything unexpected (another server,
a waitress that changed) gives None, and the caller answers in the ordinary way instead.
"""

from __future__ import annotations

import socket
import time

FLUSH_WAIT = 1.0    # seconds an earlier answer on the same connection may take to leave


def take_connection(environ: dict) -> socket.socket | None:
    """The client's socket, now ours alone; or None where it cannot be taken."""
    hook = environ.get("waitress.client_disconnected")
    channel = getattr(hook, "__self__", None)
    sock = getattr(channel, "socket", None)
    if not isinstance(sock, socket.socket) or not callable(getattr(channel, "del_channel", None)):
        return None
    if getattr(getattr(channel, "adj", None), "channel_request_lookahead", None) != 0:
        return None             # waitress may be reading this connection meanwhile: not safe
    deadline = time.monotonic() + FLUSH_WAIT
    while getattr(channel, "total_outbufs_len", 0):
        if time.monotonic() > deadline or not getattr(channel, "connected", False):
            return None
        time.sleep(0.005)
    try:
        taken = sock.dup()
    except OSError:
        return None             # the client has gone already
    channel.del_channel()
    sock.close()
    return taken
