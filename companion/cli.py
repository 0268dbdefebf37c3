"""The composition root: builds the session and the adapters a command needs, and nothing more.

Adapters are imported inside the command that uses them, so `companion replay` never loads
OpenCV and `companion dice` never loads Flask.
"""

import argparse
import sys

from companion.paths import data_dir


def _dice(args: argparse.Namespace) -> int:
    from vision.cli import run as run_dice  # imported here: only `dice` needs OpenCV

    return run_dice(args.rest, data_dir(args.data))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="A table companion.")
    parser.add_argument("--data", help="data folder (default: $COMPANION_DATA or per-user)")
    sub = parser.add_subparsers(dest="command", required=True)

    dice = sub.add_parser("dice", help="teach and read dice with the camera", add_help=False)
    dice.add_argument("rest", nargs=argparse.REMAINDER)
    dice.set_defaults(func=_dice)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
