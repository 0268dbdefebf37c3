"""The pages: one HTML shell per view; all rendering happens from the state the API serves."""

from flask import Blueprint, render_template

pages = Blueprint("pages", __name__)


@pages.get("/")
def table():
    return render_template("table.html")
