"""`make bench`: runs every tests/bench/bench_*.py and prints one table.

Each module offers ``run() -> list[tuple[str, str, str]]``: (what, figure, note) rows.
Benchmarks measure; they never fail a build on a slow machine.
"""

import importlib.util
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    wanted = set(argv)
    rows = []
    for path in sorted(HERE.glob("bench_*.py")):
        name = path.stem.removeprefix("bench_")
        if wanted and name not in wanted:
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        started = time.perf_counter()
        for what, figure, note in module.run():
            rows.append((name, what, figure, note))
            print(f"  {name:<10} {what:<48} {figure:>16}  {note}", flush=True)
        print(f"  ({name}: {time.perf_counter() - started:.1f} s)", flush=True)
    print()
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, "
          f"Python {platform.python_version()}, {platform.system()} {platform.release()}")
    print("| area | measure | figure | note |")
    print("|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
