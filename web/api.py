"""The JSON API. Every change goes through the session; errors are JSON with a player's reason."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

import companion
from companion import strict_json
from companion.errors import BadAction, DataFileError, SetupError
from companion.games import available

api = Blueprint("api", __name__, url_prefix="/api")


def session():
    return current_app.extensions["companion"]["session"]


def json_body() -> dict[str, Any]:
    """The request's JSON object, or a clear 400 naming the field: never a half-read body, never
    a NaN or Infinity (JSON has neither), never nesting deeper than the strict parser allows."""
    body = strict_json.loads(request.get_data(cache=True) or b"null")
    if not isinstance(body, dict):
        raise BadAction("the body must be a JSON object")
    return body


def answer(view) -> Response:
    """A change's view as the answer: the bytes it was encoded to once (companion/views.py),
    the same bytes every event stream is sent."""
    return Response(view.body, mimetype="application/json")


@api.get("/health")
def health():
    """A bare status for anyone (a monitor, a phone before joining); the journal's path and the
    hardware only for the trusted screen."""
    ext = current_app.extensions["companion"]
    if not ext["access"].trusted(request):
        return jsonify({"ok": True})
    s = session()
    view = s.view()
    hw = ext.get("hardware")
    return jsonify({"ok": True, "version": companion.__version__, "seq": view["seq"],
                    "game": view["game"], "journal": s.journal.path,
                    "hardware": hw.status() if hw is not None else None,
                    "starting": sorted(ext.get("starting") or ()),  # adapters still attaching
                    "streams": ext["streams"].count()})


@api.get("/state")
def state():
    return jsonify(session().view())


@api.post("/session")
def start_session():
    body = json_body()
    game = body.pop("game", None)
    if not isinstance(game, str):
        raise SetupError("say which game to start: {\"game\": \"incredibles\", \"players\": [...]}")
    seed = body.pop("seed", None)
    options = body.pop("options", {})
    if not isinstance(options, dict):
        raise SetupError("options must be a JSON object")
    return answer(session().start(game, {**options, **body}, seed=seed)), 201


@api.delete("/session")
def close_session():
    return answer(session().close_game())


@api.post("/actions")
def act():
    body = json_body()
    if_seq = body.pop("if_seq", None)
    if if_seq is not None and (isinstance(if_seq, bool) or not isinstance(if_seq, int) or if_seq < 0):
        raise BadAction("if_seq must be the seq number you last saw")
    if if_seq is not None and if_seq > session().view()["seq"]:
        # not "the table changed since you looked": no page ever saw a seq the table has not had
        raise BadAction(f"if_seq must be the seq number you last saw: the table is at "
                        f"{session().view()['seq']}, not yet at {str(if_seq)[:24]}")
    body.setdefault("source", "api")
    return answer(session().submit(body, if_seq=if_seq))


@api.delete("/notices")
def dismiss_notices():
    """The table has read what start-up had to tell it (a recovered journal): clear it."""
    book = current_app.extensions["companion"].get("notices")
    if book is not None:
        book.acknowledge()
    session().set_notices([], read=True)
    return jsonify(session().view())


@api.get("/history")
def history():
    return jsonify({"games": session().history()})


@api.get("/games")
def games():
    catalog = session().catalog
    out = []
    for name in available():
        try:
            engine = catalog(name)
        except DataFileError as exc:      # one game's broken file leaves the others startable
            out.append({"name": name, "title": name, "actions": {}, "error": str(exc)})
            continue
        out.append({"name": name, "title": engine.title, "actions": engine.actions})
    return jsonify({"games": out})


@api.get("/games/<name>")
def game_components(name: str):
    engine = session().catalog(name)
    boxed = getattr(engine, "boxed", None)     # the owner's box: its base changed under it?
    return jsonify({"name": name, "title": engine.title, "actions": engine.actions,
                    "components": engine.components(),
                    "box_warning": boxed.base_warning() if boxed is not None else None})
