"""The Flask application factory: one app per session, no module-level services.

Every answer is JSON written strictly (no NaN or Infinity), errors included: each exception path
has a JSON handler, so a client never gets an HTML error page or a number it cannot parse.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, jsonify, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import HTTPException

from companion import strict_json
from companion.errors import (BadAction, CompanionError, Conflict, DataFileError, IllegalAction,
                              JournalError, NoGame, SetupError)
from web import refusals, settings
from web.access import Access, Denied
from web.events import HandOff, make_hub

MAX_BODY = 64 * 1024
log = logging.getLogger(__name__)


class StrictJSONProvider(DefaultJSONProvider):
    """Flask's JSON, strict both ways: a non-finite number in an answer is our error (logged,
    answered as a JSON 500), never a body the pages' ``JSON.parse`` throws on."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        kwargs.setdefault("default", self.default)
        kwargs.setdefault("ensure_ascii", self.ensure_ascii)
        kwargs.setdefault("sort_keys", self.sort_keys)
        return strict_json.dumps(obj, **kwargs)

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return strict_json.loads(s)


def create_app(session, *, config: Any = None, hardware: Any = None, extras: dict | None = None) -> Flask:
    """Build the app around a live ``Session``; adapters (hardware) are optional extras."""
    app = Flask(__name__)
    app.json = StrictJSONProvider(app)
    app.json.sort_keys = False
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.extensions["companion"] = {"session": session, "config": config, "hardware": hardware,
                                   **(extras or {})}
    ext = app.extensions["companion"]
    # The access rules and the dashboard settings may be injected (tests); else from the config.
    if ext.get("dashboard") is None:
        ext["dashboard"] = settings.load(config)
    if ext.get("access") is None:
        ext["access"] = Access.from_config(config, ext.get("data_dir"), ext["dashboard"].public_url)
    ext["streams"] = make_hub(session, config)
    app.wsgi_app = HandOff(app.wsgi_app, ext["streams"])   # event streams leave their thread

    @app.before_request
    def guard():
        ext["access"].check(request)

    from web.api import api
    from web.box import box
    from web.devices import devices
    from web.events import events
    from web.join import join
    from web.pages import pages
    from web.speech import speech

    app.register_blueprint(api)
    app.register_blueprint(box)
    app.register_blueprint(join)
    app.register_blueprint(devices)
    app.register_blueprint(events)
    app.register_blueprint(pages)
    app.register_blueprint(speech)

    @app.errorhandler(CompanionError)
    def companion_error(exc: CompanionError):
        status = 400
        if isinstance(exc, IllegalAction):
            status = 422
        elif isinstance(exc, (Conflict, NoGame)):
            status = 409
        elif isinstance(exc, (BadAction, SetupError, DataFileError)):
            status = 400
        elif isinstance(exc, JournalError):
            status = 503    # the table cannot keep moves now (a full or failing card): not the body's fault
        body = {"error": str(exc)}
        if isinstance(exc, IllegalAction) and exc.rule:
            body["rule"] = exc.rule
        refusals.refused(session, request, exc)
        return jsonify(body), status

    @app.errorhandler(Denied)
    def denied(exc: Denied):
        body = {"error": str(exc)}
        if exc.need:
            body["need"] = exc.need
        return jsonify(body), exc.status

    @app.errorhandler(413)
    def too_large(_exc):
        return jsonify({"error": f"the request body is larger than {MAX_BODY} bytes"}), 413

    @app.errorhandler(404)
    def not_found(_exc):
        return jsonify({"error": "no such page or API endpoint"}), 404

    @app.errorhandler(405)
    def not_allowed(_exc):
        return jsonify({"error": "that method is not allowed here"}), 405

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        return jsonify({"error": exc.description or exc.name}), exc.code or 500

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        # Our bug, not the client's: say so in JSON and keep the traceback for the log.
        log.error("%s %s failed", request.method, request.path, exc_info=exc)
        return jsonify({"error": "the table service hit an internal error (the log has the "
                                 "details): look at the table before trying again"}), 500

    return app
