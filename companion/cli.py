"""The composition root: builds the session and the adapters a command needs, and nothing more.

Adapters are imported inside the command that uses them, so `companion replay` never loads
OpenCV or Flask and `companion dice` never loads Flask.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from pathlib import Path

from companion import config as config_mod
from companion import ticker
from companion.errors import CompanionError
from companion.backups import Backups
from companion.games import Catalog, available
from companion.journal import Journal
from companion.journal_commands import JOURNAL
from companion.journal_recovery import DataLock, RecoveryLog, open_journal
from companion.paths import data_dir
from companion.session import Session

log = logging.getLogger("companion")


def _serve(args: argparse.Namespace) -> int:
    from web import create_app  # imported here: only `serve` needs a web server
    from web.serving import listen, phones_line, run_until

    data = data_dir(args.data)
    config = config_mod.load(args.config, data)
    lock = DataLock(data)
    try:
        journal, session, backups = _open_journal(data, config)
    except BaseException:
        lock.release()
        raise
    stopping = threading.Event()
    adapters = _Adapters(stopping)
    ext: dict = {}
    try:
        app = create_app(session, config=config,
                         extras={"data_dir": data, "simulate": args.simulate, "camera": None,
                                 "starting": {"camera", "hardware"},
                                 "notices": RecoveryLog(data)})
        ext = app.extensions["companion"]
        host = args.host or config.host
        port = config.port if args.port is None else args.port
        # Event streams leave their request thread (web/handoff.py): these threads answer requests.
        server = listen(app, host, port, args.threads)

        def stop(signum, _frame):
            # Only the flag: the serving loop drains the requests in flight, then closes.
            log.info("stopping on signal %s", signum)
            stopping.set()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        threading.Thread(target=ticker.run, args=(session, backups, stopping, ext["notices"]),
                         name="ticker", daemon=True).start()
        mode = "simulation" if args.simulate else "hardware"
        print(f"companion {mode}: dashboard at http://{_display_host(host)}:{server.effective_port}/ "
              f"(data in {data})", flush=True)
        print(phones_line(app, host, server.effective_port), flush=True)
        # The camera stack (OpenCV) takes longer to import than all the rest of start-up: the
        # dashboard answers first, and /api/health lists what is still "starting".
        adapters.thread = threading.Thread(target=adapters.attach, name="adapters", daemon=True,
                                           args=(args, config, session, data, ext))
        adapters.thread.start()
        run_until(server, stopping)
        if adapters.failed is not None:
            raise adapters.failed
    finally:
        # The way out, in order: no new work, streams closed (pages reconnect to the next
        # service), adapters closed in reverse, the journal last.
        stopping.set()
        if ext.get("streams") is not None:
            ext["streams"].close()
        adapters.close()
        if journal.last_seq() != backups.newest_seq():
            backups.take("the service stopped")
        journal.close()
        lock.release()
    return 0


ATTACH_WAIT_S = 10.0   # with the server's 6 s, inside the unit's TimeoutStopSec=30


class _Adapters:
    """The adapters `serve` attaches after the dashboard answers, closed in reverse order."""

    def __init__(self, stopping: threading.Event):
        self.stopping = stopping
        self.failed: BaseException | None = None
        self.thread: threading.Thread | None = None
        self._open: list = []
        self._lock = threading.Lock()

    def attach(self, args: argparse.Namespace, config, session: Session, data: Path, ext: dict) -> None:
        try:
            camera = _attach_camera(args, config, session, data)
            if self._keep(ext, "camera", camera):
                cards = None if camera is None else _card_area(args, config, session, camera, data)
                ext["cards"] = cards            # the Your box page teaches the cards with it
                if args.simulate or config.section("camera").get("pull_source") is not None:
                    from vision.pull_camera import attach as pulls  # Invincible's pull areas
                    self._keep(ext, "pulls", pulls(session, config.section("camera"), args.simulate))
                self._keep(ext, "hardware", _attach_hardware(args, config, session, camera, cards))
        except Exception as exc:  # a bad [camera] or [gpio] section stops the service, as before
            self.failed = exc
            log.error("cannot attach the adapters: %s", exc)
            os.kill(os.getpid(), signal.SIGTERM)   # the same way out as a stop from outside

    def _keep(self, ext: dict, name: str, adapter) -> bool:
        """Put an attached adapter to work; False (and it closed) when the service is stopping."""
        with self._lock:
            if self.stopping.is_set():
                if adapter is not None:
                    adapter.close()
                    log.info("the %s attached as the service stopped: closed again", name)
                return False
            if adapter is not None:
                self._open.append(adapter)
            ext[name] = adapter
            ext["starting"].discard(name)
            return True

    def close(self) -> None:
        # A stop while OpenCV or onnxruntime is still importing would end the process under a
        # half-built C++ runtime ("terminate called without an active exception", exit 134, seen
        # under pi-check): the attaching thread is let finish, within the service's stop budget.
        if self.thread is not None and self.thread.is_alive():
            self.thread.join(ATTACH_WAIT_S)
            if self.thread.is_alive():
                log.warning("the adapters were still attaching after %s s; stopping anyway",
                            ATTACH_WAIT_S)
        with self._lock:
            self.stopping.set()
            for adapter in reversed(self._open):
                adapter.close()
            self._open = []


def _open_journal(data: Path, config) -> tuple[Journal, Session, Backups]:
    """The journal, recovered first when it is damaged (the table is told what was lost), the
    session replaying it, and the rolling backups that watch it."""
    backups = Backups(data / "backups")
    journal, session, report = open_journal(
        data / JOURNAL, lambda j: Session(j, Catalog(config.components_dir)),
        backups=lambda: [(b.path, b.seq) for b in backups.listing()])
    notices = RecoveryLog(data)
    backups.journal = journal
    if report is not None:
        notices.add(report)
        backups.take("after the recovery")     # the old backups went aside with the damage
    notices.told.settle(journal)      # an entry a notice tells of, taken back before a stop
    session.set_notices(notices.notices())
    session.add_listener(backups.on_view)
    session.add_listener(notices.told.listener(journal))
    return journal, session, backups


def _attach_camera(args: argparse.Namespace, config, session: Session, data: Path):
    """The camera over the dice tray; in simulation a simulated tray for none or a real one."""
    section = config.section("camera")
    if not section and not args.simulate:
        return None   # no camera configured
    from vision.sources import is_device, open_source  # only a camera needs OpenCV
    from vision.table_camera import TableCamera, settings

    options = settings(section, str(config.path or "config.toml"))
    if args.simulate and (options["source"] is None or is_device(options["source"])):
        from vision.simulated_tray import SimulatedTray

        source = SimulatedTray()
    else:
        source = open_source(options["source"])
    session.read_threshold = options["threshold"]
    return TableCamera(session, source, data, threshold=options["threshold"],
                       sets=options["sets"], simulate=args.simulate,
                       settle_s=options["settle_s"], recognizer=options["recognizer"]).start()


def _card_area(args: argparse.Namespace, config, session: Session, camera, data: Path):
    """The Card button names the card in ``[camera] card_area``; the Your box page teaches with it."""
    from vision.card_camera import CardCamera

    return CardCamera(session, data, simulate=args.simulate,
                      area=config.section("camera").get("card_area"), camera=camera)


def _attach_hardware(args: argparse.Namespace, config, session: Session, camera, cards):
    """Buttons, LEDs, buzzer and the serial peripheral, from the config (defaults in simulation)."""
    sections = {name: config.section(name) for name in ("gpio", "serial", "tokens")}
    if not args.simulate and not any(sections.values()):
        return None   # nothing configured: a laptop or a Pi without table hardware yet
    from hardware.wiring import attach  # imported here: only `serve` with devices drives them

    hardware = attach(session, sections, simulate=args.simulate,
                      read_dice=camera.read_now if camera is not None else None,
                      read_card=cards.read_latest if cards is not None else None,
                      confirm=lambda: _confirm_waiting_read(session),
                      source=str(config.path or "config.toml"))
    if camera is not None:       # the reading LED: lit while the camera reads the dice
        camera.watcher.on_reading = hardware.set_reading
    return hardware


def _confirm_waiting_read(session: Session) -> bool:
    """The confirm button accepts a waiting camera read as it was read."""
    waiting = session.view().get("dice_read")
    if not waiting or waiting.get("confirmed"):    # a confirmed read is only on show
        return False
    session.confirm_read(waiting["id"], [d["face"] for d in waiting["dice"]], source="button")
    return True


def _display_host(host: str) -> str:
    return "localhost" if host in ("0.0.0.0", "127.0.0.1", "::") else host


def _replay(args: argparse.Namespace) -> int:
    from companion import replay_file

    return replay_file.run(Path(args.file), args.game, args.seed, args.players, args.components)


def _dice(args: argparse.Namespace) -> int:
    from vision.cli import run as run_dice  # imported here: only `dice` needs OpenCV

    # --data belongs to the dice subcommand (`read`, `teach`, `watch`), so it goes after it
    data = ["--data", args.data] if args.data and args.rest else []
    rest = args.rest[:1] + data + args.rest[1:]
    return run_dice(rest)


def _journal(args: argparse.Namespace) -> int:
    from companion import journal_commands

    data = data_dir(args.data, create=False)     # a look at a journal makes no folder
    config = config_mod.load(None, data)
    return journal_commands.run(args.rest, data, lambda j: Session(j, Catalog(config.components_dir)))


def _doctor(args: argparse.Namespace) -> int:
    from hardware.doctor import config_fix, run as run_doctor  # only `doctor` needs devices

    def camera_probe(simulate: bool) -> list[dict]:
        from vision.checks import camera_checks
        from vision.sources import is_device, open_source
        from vision.table_camera import settings as camera_settings
        from web.settings import load as dashboard_settings

        try:        # the sections serve checks that the hardware's checks do not
            # the config doctor itself reads (its own --data and --config, after "doctor")
            config = config_mod.load(_option(args.rest, "--config"),
                                     data_dir(_option(args.rest, "--data") or args.data))
            camera_settings(config.section("camera"), str(config.path or "config.toml"))
            dashboard_settings(config)
        except CompanionError as exc:
            return [{"check": "config", "status": "fail", "detail": str(exc), "fix": config_fix(exc)}]
        spec = config.section("camera").get("source")
        if spec is None and not simulate:
            return [{"check": "camera", "status": "skip", "detail": "no [camera] source configured"}]
        if simulate and (spec is None or is_device(spec)):    # the tray serve --simulate uses
            from vision.simulated_tray import SimulatedTray

            return camera_checks(lambda _spec: SimulatedTray(fps=0), None)
        return camera_checks(open_source, spec)

    return run_doctor((["--data", args.data] if args.data else []) + args.rest, camera=camera_probe)


def _option(argv: list[str], name: str) -> str | None:
    """``name``'s value in arguments passed on whole ("--config X" or "--config=X")."""
    for i, arg in enumerate(argv):
        if arg == name and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="A table companion for "
                                     "three superhero board games.")
    parser.add_argument("--data", help="data folder (default: $COMPANION_DATA, else per-user)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log more")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the table service and its dashboard")
    serve.add_argument("--simulate", action="store_true",
                       help="simulated camera, buttons and serial device (no hardware needed)")
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1, this computer "
                       "only; 0.0.0.0 lets phones on the network join with the code)")
    serve.add_argument("--port", type=int, help="port (default 8000; 0 picks a free one)")
    serve.add_argument("--data", dest="data", default=argparse.SUPPRESS, help="data folder")
    serve.add_argument("--config", help="config file (default: $COMPANION_CONFIG or <data>/config.toml)")
    serve.add_argument("--threads", type=int, default=48, help="web server threads")
    serve.set_defaults(func=_serve)

    replay = sub.add_parser("replay", help="apply a file of JSON actions and print the final state")
    replay.add_argument("file")
    replay.add_argument("--game", required=True, choices=available())
    replay.add_argument("--seed", type=int, help="seed (default: the file's setup line, else 0)")
    replay.add_argument("--players", help="comma-separated players when the file has no setup line")
    replay.add_argument("--components", help="folder of owner component files")
    replay.set_defaults(func=_replay)

    # The two forwarding commands parse their own options: "+" keeps argparse off the "--".
    dice = sub.add_parser("dice", help="teach and read dice with the camera", add_help=False,
                          prefix_chars="+")
    dice.add_argument("rest", nargs=argparse.REMAINDER)
    dice.set_defaults(func=_dice)

    journal = sub.add_parser("journal", help="check, recover, export or restore the journal",
                             add_help=False, prefix_chars="+")
    journal.add_argument("rest", nargs=argparse.REMAINDER)
    journal.set_defaults(func=_journal)

    doctor = sub.add_parser("doctor", help="check the camera, buttons, serial device, data folder",
                            add_help=False, prefix_chars="+")
    doctor.add_argument("rest", nargs=argparse.REMAINDER)
    doctor.set_defaults(func=_doctor)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return args.func(args)
    except (CompanionError, PermissionError) as exc:
        # PermissionError: another user's files (on the Pi, the service user's data)
        owner = ": run it as their owner (sudo -u companion ...)" * isinstance(exc, OSError)
        print(f"companion: {exc}{owner}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
