"""Where companion keeps its data: --data DIR, else $COMPANION_DATA, else a per-user default."""

import os
from pathlib import Path


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "companion"


def data_dir(arg: str | os.PathLike | None = None) -> Path:
    """The data folder for this run, created if missing."""
    if arg:
        path = Path(arg)
    elif os.environ.get("COMPANION_DATA"):
        path = Path(os.environ["COMPANION_DATA"])
    else:
        path = default_data_dir()
    path = path.expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


def fsync(path: str | os.PathLike) -> None:
    """Flush a file (or a folder's entries, after a rename) to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
