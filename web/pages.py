"""The pages: one HTML shell per view; all rendering happens in the browser from the state the
API serves, with one small script per game and a generic one for games without their own."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, render_template

pages = Blueprint("pages", __name__)
GAMES = Path(__file__).resolve().parent / "static" / "games"


def renderers() -> list[str]:
    return sorted(p.stem for p in GAMES.glob("*.js"))


def _page(template: str, view: str):
    return render_template(template, view=view, renderers=renderers())


def _one_game_page(template: str, view: str):
    """A page about one game at a time: it fetches that game's renderer when a view of it first
    comes or it is picked (core.js), not every game's on every load."""
    return render_template(template, view=view, renderers=[], lazy=renderers())


@pages.get("/")
@pages.get("/table")
def table():
    return _one_game_page("table.html", "table")


@pages.get("/play")
def play():
    return _one_game_page("play.html", "play")


@pages.get("/setup")
def setup():
    return _one_game_page("setup.html", "setup")   # the picked game's setup form comes with it


@pages.get("/devices")
def devices():
    return _page("devices.html", "devices")
