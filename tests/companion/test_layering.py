"""The one layering rule: the core imports no adapter and no third-party package."""

import ast
import subprocess
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "companion"
FORBIDDEN = {"flask", "waitress", "cv2", "numpy", "gpiozero", "serial", "web", "vision", "hardware"}


def test_core_modules_import_only_the_standard_library_and_the_core():
    offenders = []
    for path in CORE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                # the composition root may import adapters, inside the command that needs them
                inside_function = path.name in ("cli.py",) and node.col_offset > 0
                if top in FORBIDDEN and not inside_function:
                    offenders.append(f"{path.relative_to(CORE.parent)}:{node.lineno} imports {name}")
    assert not offenders, offenders


def test_replay_loads_neither_flask_nor_opencv(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text('{"type": "roll", "data": {"face": "2"}}\n')
    code = ("import sys, contextlib, io\n"
            "from companion.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    assert main(['replay', {str(path)!r}, '--game', 'incredibles', '--players', 'dash']) == 0\n"
            "loaded = {'flask', 'cv2', 'gpiozero', 'serial', 'waitress'} & set(sys.modules)\n"
            "assert not loaded, loaded\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
