"""Fixtures for the hardware suite: a real Session on a real SQLite journal, gpiozero's own
MockFactory (installed and restored in ``finally``), and helpers that wait on events, not sleeps.
"""

import threading

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session


@pytest.fixture
def session(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite3")
    s = Session(journal, Catalog())
    s.start("incredibles", {"players": ["dash", "violet"]}, seed=7)
    try:
        yield s
    finally:
        journal.close()


@pytest.fixture
def mock_factory():
    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved


class Views:
    """A session listener that lets a test wait for a view matching a condition."""

    def __init__(self, session):
        self.views = []
        self.cond = threading.Condition()
        session.add_listener(self)

    def __call__(self, view):
        with self.cond:
            self.views.append(view)
            self.cond.notify_all()

    def wait(self, predicate, timeout=5.0):
        with self.cond:
            ok = self.cond.wait_for(lambda: any(predicate(v) for v in self.views), timeout)
        assert ok, f"no view matched within {timeout} s; last: {self.views[-1:] and self.views[-1]['expect']}"
        return next(v for v in self.views if predicate(v))


@pytest.fixture
def views(session):
    return Views(session)
