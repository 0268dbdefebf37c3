"""What the wheel ships, read from pyproject.toml, for the tests of the installed package."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def project_packages() -> list[str]:
    """The top-level packages the wheel ships, as pyproject.toml declares them."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    return [p.rstrip("*") for p in config["tool"]["setuptools"]["packages"]["find"]["include"]]


def project_modules() -> dict[str, Path]:
    """Every module of those packages by its dotted name, with its source file."""
    modules = {}
    for package in project_packages():
        for path in sorted((REPO / package).rglob("*.py")):
            parts = list(path.relative_to(REPO).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules
