"""Joining the table: what this client may do, giving the join code, and the code's QR code."""

from __future__ import annotations

import io

from flask import Blueprint, Response, current_app, jsonify, request

from web.access import COOKIE, Denied, join_url
from web.api import json_body

join = Blueprint("join", __name__, url_prefix="/api")
COOKIE_DAYS = 30


def _ext():
    return current_app.extensions["companion"]


def _url() -> str:
    return join_url(request, _ext()["access"].code, _ext()["dashboard"].public_url)


@join.get("/access")
def access_info():
    """What this client may do; the code and its URL only for those who already have it."""
    access = _ext()["access"]
    joined = access.joined(request)
    return jsonify({
        "trusted": access.trusted(request),
        "joined": joined,
        "watch_requires_code": access.watch_requires_code,
        "code": access.code if joined else None,
        "join_url": _url() if joined else None,
        "simulate": bool(_ext().get("simulate")),
        "settings": _ext()["dashboard"].to_json(),
    })


@join.post("/join")
def give_code():
    code = json_body().get("code")
    if not isinstance(code, str) or not code.strip():
        raise Denied(400, "type the join code shown on the table screen", need="join_code")
    access = _ext()["access"]
    access.attempt(request, code)
    res = jsonify({"joined": True})
    # The cookie holds a token, not the code. HttpOnly: scripts never see it; SameSite=Strict:
    # another site's page never sends it.
    res.set_cookie(COOKIE, access.token(), max_age=COOKIE_DAYS * 86400, httponly=True,
                   samesite="Strict", secure=request.is_secure)
    return res


@join.delete("/join")
def leave():
    res = jsonify({"joined": False})
    res.delete_cookie(COOKIE, samesite="Strict")
    return res


@join.get("/join.svg")
def qr_code():
    access = _ext()["access"]
    if not access.joined(request):
        raise Denied(403, "the QR code is shown only on the table screen and to players who "
                          "joined", need="join_code")
    try:
        import segno  # pure Python; only this endpoint needs it
    except ImportError:
        return jsonify({"error": "the QR code needs the segno package (pip install segno)"}), 501
    out = io.BytesIO()
    segno.make(_url(), error="m").save(out, kind="svg", scale=6, border=2, dark="#000",
                                      light="#fff", xmldecl=False, svgns=True)
    return Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})
