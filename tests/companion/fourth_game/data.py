"""Beacon's component data: beacon.toml beside this module, or the owner's copy of it."""

from dataclasses import dataclass
from pathlib import Path

from companion.components import Reader, component_file, load_toml

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Face:
    id: str
    steps: int
    storm: bool


@dataclass(frozen=True)
class BeaconData:
    top: int
    die: tuple[Face, ...]
    assumptions: dict[str, str]


def load(components_dir=None) -> BeaconData:
    path = component_file("beacon.toml", components_dir, HERE)
    top = Reader(load_toml(path), path)
    die = top.table("die")
    faces = tuple(Face(f.get("id", str), f.get("steps", int), f.get("storm", bool, False))
                  for f in die.tables("faces"))
    if not faces:
        raise die.fail("faces", "the die needs faces")
    notes = {"die": die.get("note", str)} if die.get("assumption", bool, False) else {}
    return BeaconData(top.get("top", int), faces, notes)
