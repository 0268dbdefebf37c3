"""Every module of the project stands on its own imports.

An editable install (`make venv`) loads `importlib.util` and friends before any project code runs
(its import hook needs them), so a module that uses `importlib.util` after a bare `import importlib`
works in the suite and fails when installed the way the Pi installs it (issue 19). Two checks,
neither of which an editable install can mask:

- each module is imported in a fresh interpreter started with `-S` (no site, so no `.pth` hook),
  with nothing of the project loaded before it;
- each module's source is read for `package.submodule` attribute uses (`importlib.util.find_spec`)
  where the module never imports `package.submodule` and a lone `import package` does not bind it;
  this covers uses inside functions, which an import alone never runs.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import json
import subprocess
import sys
import sysconfig

import pytest

from project_layout import REPO, project_modules

SITE_DIRS = list(dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib")))


def bare_python(code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run code in a fresh interpreter that has loaded nothing beyond Python's own start-up: no
    site module, so no editable-install hook; the checkout and the venv's site-packages are put
    on sys.path by hand (a list assignment, which imports nothing)."""
    prelude = f"import sys; sys.path[:0] = {[str(REPO), *SITE_DIRS]!r}\n"
    return subprocess.run([sys.executable, "-S", "-c", prelude + code], cwd=REPO,
                          capture_output=True, text=True, timeout=timeout)


def import_alone(module: str) -> subprocess.CompletedProcess:
    if module.rsplit(".", 1)[-1] == "__main__":
        # running `python -m package` imports it as a module; --help exits 0 before any work
        code = f"sys.argv = [{module!r}, '--help']\nimport {module}\n"
    else:
        code = f"import {module}\n"
    return bare_python(code)


MODULES = project_modules()


def test_the_project_has_modules_to_check():
    assert {"companion.cli", "companion.games", "web.app", "vision.reader"} <= set(MODULES)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_each_module_imports_in_a_fresh_interpreter(module):
    proc = import_alone(module)
    if proc.returncode != 0 and module.startswith(TRAINING) and not _has_training_extra():
        # the training tools need the `train` extra, which `make test` does not install: the
        # one thing such a module may miss is the training framework itself
        missing = [name for name in TRAIN_EXTRA if f"No module named '{name}'" in proc.stderr]
        assert missing, f"import {module} alone failed:\n{proc.stderr[-3000:]}"
        return
    assert proc.returncode == 0, f"import {module} alone failed:\n{proc.stderr[-3000:]}"


TRAINING = "vision.training"
TRAIN_EXTRA = ("torch", "onnx")


def _has_training_extra() -> bool:
    return all(importlib.util.find_spec(name) is not None for name in TRAIN_EXTRA)


# -- package.submodule used without importing it -----------------------------------------------


@functools.cache
def _is_package(name: str) -> bool:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return False
    return spec is not None and spec.submodule_search_locations is not None


@functools.cache
def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


@functools.cache
def bound_by_lone_import(package: str) -> frozenset[str]:
    """The attributes a package has right after `import package` in a fresh interpreter."""
    proc = bare_python(f"import json, {package}\nprint(json.dumps(dir({package})))")
    assert proc.returncode == 0, f"import {package} alone failed:\n{proc.stderr[-2000:]}"
    return frozenset(json.loads(proc.stdout.splitlines()[-1]))


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def unimported_submodule_uses(source: str, module: str = "<snippet>",
                              is_package: bool = False) -> list[str]:
    """`line: package.sub` for each attribute use of a submodule that this source never imports
    and that `import package` alone does not provide. Names are taken file-wide (an import in one
    function counts for the file): the check is for modules that never import what they use."""
    tree = ast.parse(source)
    bound: dict[str, str] = {}          # a local name -> the module it names
    imported: set[str] = set()          # every module this source imports, with its parents
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                imported.update(".".join(parts[: i + 1]) for i in range(len(parts)))
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    bound[parts[0]] = parts[0]
        elif isinstance(node, ast.ImportFrom):
            source_module = _absolute(node, module, is_package)
            imported.add(source_module)
            for alias in node.names:
                full = f"{source_module}.{alias.name}"
                if alias.name != "*" and _is_module(full):
                    imported.add(full)
                    bound[alias.asname or alias.name] = full

    def resolve(node: ast.expr) -> str | None:
        """The module an expression names, when it is a chain of names and attributes."""
        if isinstance(node, ast.Name):
            return bound.get(node.id)
        if isinstance(node, ast.Attribute):
            parent = resolve(node.value)
            if parent and _is_package(parent) and _is_module(f"{parent}.{node.attr}"):
                return f"{parent}.{node.attr}"
        return None

    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        parent = resolve(node.value)
        if not parent or not _is_package(parent):
            continue
        full = f"{parent}.{node.attr}"
        if (_is_module(full) and full not in imported
                and node.attr not in bound_by_lone_import(parent)):
            found.append(f"{node.lineno}: {full}")
    return found


def test_no_module_uses_a_submodule_it_does_not_import():
    offenders = []
    for module, path in MODULES.items():
        for use in unimported_submodule_uses(path.read_text(), module, path.name == "__init__.py"):
            offenders.append(f"{path.relative_to(REPO)}:{use} (add `import {use.split(' ')[1]}`)")
    assert not offenders, "\n".join(offenders)


def test_the_submodule_check_catches_the_install_bug():
    """The pattern of issue 19, and the ways of writing it that are sound."""
    bug = "import importlib\n\ndef f(m):\n    return importlib.util.find_spec(m)\n"
    assert unimported_submodule_uses(bug) == ["4: importlib.util"]
    assert unimported_submodule_uses("import importlib.util\nimportlib.util.find_spec('x')\n") == []
    assert unimported_submodule_uses("from importlib import util\nutil.find_spec('x')\n") == []
    assert unimported_submodule_uses("import importlib.util as u\nu.find_spec('x')\n") == []
    # a submodule that its package imports itself is bound by the package's own import
    assert unimported_submodule_uses("import json\njson.decoder.JSONDecodeError\n") == []
    assert set(unimported_submodule_uses("import xml\nxml.dom.minidom\n")) == {
        "2: xml.dom", "2: xml.dom.minidom"}


def test_a_fresh_interpreter_has_not_loaded_what_an_editable_install_loads():
    """The premise of the first check: here `importlib.util` is missing until something imports
    it, so a module that leans on someone else's import fails."""
    proc = bare_python("import importlib\nimportlib.util\n")
    assert proc.returncode != 0 and "has no attribute 'util'" in proc.stderr
