"""Fixtures shared by every suite."""

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def shared_dir() -> Path | None:
    """The shared folder beside the clone (real photos, rulebooks), or None where it is absent.

    CI sets COMPANION_REQUIRE_SHARED=1, which turns the skip of a test needing it into a failure.
    """
    path = Path(os.environ.get("COMPANION_SHARED", REPO.parent / "shared"))
    return path if path.is_dir() else None


@pytest.fixture
def shared() -> Path:
    path = shared_dir()
    if path is None:
        message = "../shared is absent (a user's clone): real photos and rulebooks unavailable"
        if os.environ.get("COMPANION_REQUIRE_SHARED") == "1":
            pytest.fail(message + "; COMPANION_REQUIRE_SHARED=1 requires it")
        pytest.skip(message)
    return path
