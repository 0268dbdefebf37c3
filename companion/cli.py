"""The composition root: builds the session and the adapters a command needs, and nothing more.

Adapters are imported inside the command that uses them, so `companion replay` never loads
OpenCV and `companion dice` never loads Flask.
"""

import argparse
import sys

from companion.paths import data_dir


def _dice(args: argparse.Namespace) -> int:
    from vision.cli import run as run_dice  # imported here: only `dice` needs OpenCV

    rest = (["--data", args.data] if args.data else []) + args.rest
    return run_dice(rest)


def _doctor(args: argparse.Namespace) -> int:
    from hardware.doctor import run as run_doctor  # imported here: only `doctor` needs devices

    return run_doctor((["--data", args.data] if args.data else []) + args.rest)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="A table companion.")
    parser.add_argument("--data", help="data folder (default: $COMPANION_DATA or per-user)")
    sub = parser.add_subparsers(dest="command", required=True)

    dice = sub.add_parser("dice", help="teach and read dice with the camera", add_help=False)
    dice.add_argument("rest", nargs=argparse.REMAINDER)
    dice.set_defaults(func=_dice)

    doctor = sub.add_parser("doctor", help="check the camera, buttons, serial device, data folder",
                            add_help=False)
    doctor.add_argument("rest", nargs=argparse.REMAINDER)
    doctor.set_defaults(func=_doctor)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
