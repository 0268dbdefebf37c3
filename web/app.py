"""The Flask application factory: one app per session, no module-level services."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, request

from companion.errors import (BadAction, CompanionError, Conflict, DataFileError, IllegalAction,
                              NoGame, SetupError)
from web import settings
from web.access import Access, Denied
from web.events import HandOff, make_hub

MAX_BODY = 64 * 1024


def create_app(session, *, config: Any = None, hardware: Any = None, extras: dict | None = None) -> Flask:
    """Build the app around a live ``Session``; adapters (hardware) are optional extras."""
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.config["JSON_SORT_KEYS"] = False
    app.extensions["companion"] = {"session": session, "config": config, "hardware": hardware,
                                   **(extras or {})}
    ext = app.extensions["companion"]
    # The access rules and the dashboard settings may be injected (tests); else from the config.
    if ext.get("access") is None:
        ext["access"] = Access.from_config(config, ext.get("data_dir"))
    if ext.get("dashboard") is None:
        ext["dashboard"] = settings.load(config)
    ext["streams"] = make_hub(session, config)
    app.wsgi_app = HandOff(app.wsgi_app, ext["streams"])   # event streams leave their thread

    @app.before_request
    def guard():
        ext["access"].check(request)

    from web.api import api
    from web.devices import devices
    from web.events import events
    from web.join import join
    from web.pages import pages

    app.register_blueprint(api)
    app.register_blueprint(join)
    app.register_blueprint(devices)
    app.register_blueprint(events)
    app.register_blueprint(pages)

    @app.errorhandler(CompanionError)
    def companion_error(exc: CompanionError):
        status = 400
        if isinstance(exc, IllegalAction):
            status = 422
        elif isinstance(exc, (Conflict, NoGame)):
            status = 409
        elif isinstance(exc, (BadAction, SetupError, DataFileError)):
            status = 400
        body = {"error": str(exc)}
        if isinstance(exc, IllegalAction) and exc.rule:
            body["rule"] = exc.rule
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

    return app
