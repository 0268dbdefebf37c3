"""The Flask application factory: one app per session, no module-level services."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify

from companion.errors import (BadAction, CompanionError, Conflict, DataFileError, IllegalAction,
                              NoGame, SetupError)

MAX_BODY = 64 * 1024


def create_app(session, *, config: Any = None, hardware: Any = None, extras: dict | None = None) -> Flask:
    """Build the app around a live ``Session``; adapters (hardware) are optional extras."""
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.config["JSON_SORT_KEYS"] = False
    app.extensions["companion"] = {"session": session, "config": config, "hardware": hardware,
                                   **(extras or {})}

    from web.api import api
    from web.events import events
    from web.pages import pages

    app.register_blueprint(api)
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
