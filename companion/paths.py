"""Where companion keeps its data: --data DIR, else $COMPANION_DATA, else a per-user default."""

import os
import uuid
from pathlib import Path


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "companion"


def data_dir(arg: str | os.PathLike | None = None, create: bool = True) -> Path:
    """The data folder for this run, created if missing (unless only looked at: ``create``)."""
    if arg:
        path = Path(arg)
    elif os.environ.get("COMPANION_DATA"):
        path = Path(os.environ["COMPANION_DATA"])
    else:
        path = default_data_dir()
    path = path.expanduser().resolve()
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path


def fsync(path: str | os.PathLike) -> None:
    """Flush a file (or a folder's entries, after a rename) to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_whole(path: str | os.PathLike, data: bytes | str, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` whole or not at all: a file of its own beside it, flushed to
    the disk, then renamed over it. A reader in another thread, or the next start after a
    power cut, finds the old file or the new one, never half of one. ``mode``: the file's
    permissions (set before the rename: a secret is never readable by others)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync(path.parent)
