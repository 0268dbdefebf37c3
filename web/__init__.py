"""The Flask adapter: JSON API, server-sent events and the pages. Built by ``create_app``."""

from web.app import create_app

__all__ = ["create_app"]
