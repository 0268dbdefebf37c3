"""`companion doctor`: a self-test of the table's hardware that says what is wrong and how to fix it.

Checks the config file, the data folder (free space, write speed, the journal's health and its
newest backup), the GPIO backend, each configured button, LED and buzzer, the shutdown button,
the serial device, and the camera when
the composition root hands in a probe (vision is another adapter: ``run(argv, camera=probe)``,
where ``probe(simulate) -> [{"check", "status", "detail", "fix"}]``). ``--simulate`` runs the
same checks against mock pins and the simulated serial device and exits 0 when all pass.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from companion.errors import CompanionError, DataFileError
from companion.journal_commands import doctor_findings as journal_findings, held_finding

MIN_FREE = 200 * 2**20        # below this the journal may not be able to grow
WARN_FREE = 1024 * 2**20
MIN_SPEED = 1.0               # MB/s: slower than this and every fsync'd action drags
WARN_SPEED = 4.0
SAMPLE = 8 * 2**20


@dataclass
class Finding:
    check: str
    status: str               # ok | warn | fail | skip
    detail: str
    fix: str = ""


class _Collector:
    """Stands where the dispatcher would: doctor only needs to see a press arrive."""

    def __init__(self):
        self.requests = []
        self.arrived = threading.Event()

    def put(self, request) -> None:
        self.requests.append(request)
        self.arrived.set()


def config_fix(exc: Exception) -> str:
    """What to do about a config file doctor could not use: a file this user may not read
    (the Pi's is the service user's) is no key to correct."""
    if isinstance(exc.__cause__, PermissionError):
        return ("this user may not read it: run doctor as the service's user, as install.sh "
                "prints (sudo -u companion ... doctor --config ...)")
    return "correct that key (the README's configuration section shows every key with an example)"


def check_config(args) -> tuple[list[Finding], dict[str, Any], str]:
    from companion.config import load
    from hardware.settings import gpio_settings, serial_settings, token_settings

    data = Path(args.data) if args.data else None
    try:
        from companion.paths import data_dir
        config = load(args.config, data or data_dir(None))
    except DataFileError as exc:
        return [Finding("config", "fail", str(exc), config_fix(exc))], {}, "config.toml"
    source = str(config.path) if config.path else "config.toml"
    sections = {name: config.section(name) for name in ("gpio", "serial", "tokens")
                if name in config.sections}
    try:
        for name, check in (("gpio", gpio_settings), ("serial", serial_settings), ("tokens", token_settings)):
            if name in sections:
                check(sections[name], source)
    except DataFileError as exc:
        return [Finding("config", "fail", str(exc), config_fix(exc))], sections, source
    where = str(config.path) if config.path else "no config file: built-in defaults"
    return [Finding("config", "ok", f"{where}; sections: {', '.join(sections) or 'none'}")], sections, source


def check_components(args) -> list[Finding]:
    """Every game's component files load (the owner's copies in the components folder first):
    a mistake in one is found here, not when the family starts that game at the table."""
    from companion.config import load
    from companion.games import Catalog, available
    from companion.paths import data_dir

    try:
        catalog = Catalog(load(args.config, data_dir(args.data)).components_dir)
    except CompanionError:
        return []            # the config's own finding says why
    out = []
    for name in available():
        try:
            catalog(name)
        except CompanionError as exc:
            out.append(Finding(f"data {name}", "fail", str(exc), "correct that key in your copy, "
                               "or remove your copy to use the shipped file"))
        else:
            out.append(Finding(f"data {name}", "ok", "the component files load"))
    out += [Finding(f["check"], f["status"], f["detail"], f["fix"])
            for f in held_finding(data_dir(args.data), catalog)]
    return out


def check_data(folder: Path) -> list[Finding]:
    out = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        usage = shutil.disk_usage(folder)
    except OSError as exc:
        return [Finding("data folder", "fail", f"{folder}: {exc}",
                        f"create it and give the service user write access: "
                        f"sudo install -d -o companion -g companion {folder}")]
    free_mb = usage.free / 2**20
    status = "fail" if usage.free < MIN_FREE else "warn" if usage.free < WARN_FREE else "ok"
    out.append(Finding("data free space", status, f"{free_mb:,.0f} MB free on {folder}",
                       "" if status == "ok" else "free space on the SD card or use a larger one: "
                       "the journal and dice photos live here"))
    try:
        block = os.urandom(2**20)
        started = time.perf_counter()
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-", delete=True) as fh:
            for _ in range(SAMPLE // len(block)):
                fh.write(block)
            fh.flush()
            os.fsync(fh.fileno())
        speed = SAMPLE / 2**20 / (time.perf_counter() - started)
    except OSError as exc:
        out.append(Finding("data write", "fail", f"cannot write to {folder}: {exc}",
                           f"give the service user write access: sudo chown -R companion: {folder}"))
        return out
    status = "fail" if speed < MIN_SPEED else "warn" if speed < WARN_SPEED else "ok"
    out.append(Finding("data write speed", status, f"{speed:.1f} MB/s (8 MB, fsync'd)",
                       "" if status == "ok" else "use a faster SD card (A1/A2 class) or a USB SSD "
                       "for the data folder"))
    return out


def check_gpio(gpio_raw: dict | None, simulate: bool, source: str, interactive: bool,
               wait: float) -> list[Finding]:
    from hardware.errors import HardwareError
    from hardware.gpio import ShutdownButton, TableButton, make_pin_factory
    from hardware.settings import gpio_settings
    from hardware.wiring import DEFAULT_GPIO

    if gpio_raw is None:
        if not simulate:
            return [Finding("gpio", "skip", "no [gpio] section: no buttons, LEDs or buzzer",
                            "add one (deploy/config.example.toml) to use table buttons")]
        gpio_raw = DEFAULT_GPIO
    settings = gpio_settings(gpio_raw, source)
    try:
        factory, backend = make_pin_factory(settings.pin_factory, simulate)
    except HardwareError as exc:
        return [Finding("gpio backend", "fail", str(exc).split("; ")[0],
                        "sudo apt install python3-lgpio (and create the venv with "
                        "--system-site-packages), or set gpio.pin_factory")]
    out = [Finding("gpio backend", "ok", backend)]
    for name, b in settings.buttons.items():
        collector = _Collector()
        try:
            button = TableButton(b, collector, factory)
        except Exception as exc:
            out.append(Finding(f"button {name}", "fail", f"GPIO {b.pin}: {exc}",
                               "another program holds this pin, or the pin is wrong; "
                               "the service user must be in the gpio group"))
            continue
        try:
            if button.button.is_active:
                out.append(Finding(f"button {name}", "fail", f"GPIO {b.pin} reads pressed while "
                                   "nobody touches it", "check its wiring: one leg to the GPIO pin, "
                                   "the other to a ground pin (no resistor needed)"))
                continue
            if simulate:
                button.pin.drive_low()
                if b.hold is not None and b.press is None:
                    collector.arrived.wait(b.hold_time + 1.0)
                button.pin.drive_high()
                ok = collector.arrived.wait(b.hold_time + 1.0)
            elif interactive:
                print(f"  press the {name} button (GPIO {b.pin}) within {wait:.0f} s ...", flush=True)
                ok = _wait_edge(button, wait)
            else:
                out.append(Finding(f"button {name}", "ok", f"GPIO {b.pin} at rest reads released "
                                   "(run with --interactive to test a press)"))
                continue
            out.append(Finding(f"button {name}", "ok" if ok else "fail",
                               f"GPIO {b.pin}: a press {'arrived' if ok else 'never arrived'}",
                               "" if ok else "check the wiring and that the button closes to ground"))
        finally:
            button.close()
    out += _check_outputs(settings, factory, interactive)
    if settings.shutdown.enabled:
        try:
            sd = ShutdownButton(settings.shutdown, factory, run=lambda cmd: None)
            stuck = sd.button.is_active
            sd.close()
            out.append(Finding("shutdown button", "fail" if stuck else "ok",
                               f"GPIO {settings.shutdown.pin}, hold {settings.shutdown.hold_time:.0f} s"
                               + (": reads pressed at rest" if stuck else ""),
                               "fix its wiring before enabling it: a stuck button powers the Pi off"
                               if stuck else ""))
        except Exception as exc:
            out.append(Finding("shutdown button", "fail", str(exc), "check gpio.shutdown.pin"))
    return out


def _wait_edge(button, wait: float) -> bool:
    pressed = threading.Event()
    button.button.when_pressed = pressed.set
    return pressed.wait(wait)


def _check_outputs(settings, factory, interactive: bool) -> list[Finding]:
    from gpiozero import LED, Buzzer

    out = []
    parts = [(f"led {role}", pin, LED) for role, pin in settings.leds.items()]
    if settings.buzzer is not None:
        parts.append(("buzzer", settings.buzzer.pin, Buzzer))
    for label, pin, kind in parts:
        try:
            device = kind(pin, pin_factory=factory)
        except Exception as exc:
            out.append(Finding(label, "fail", f"GPIO {pin}: {exc}",
                               "another program holds this pin, or the service user is not in gpio"))
            continue
        try:
            device.on()
            lit = bool(device.value)
            if interactive:
                print(f"  {label} (GPIO {pin}) is on for a second: look (or listen)", flush=True)
                threading.Event().wait(1.0)
            device.off()
            ok = lit and not device.value
            out.append(Finding(label, "ok" if ok else "fail",
                               f"GPIO {pin} switches on and off" if ok else f"GPIO {pin} did not follow",
                               "" if ok else "check the pin number in [gpio]"))
        finally:
            device.close()
    return out


def check_serial(serial_raw: dict | None, simulate: bool, source: str) -> list[Finding]:
    from dataclasses import replace

    from hardware.serial_link import SerialLink
    from hardware.settings import serial_settings
    from hardware.wiring import DEFAULT_SERIAL

    if serial_raw is None and not simulate:
        return [Finding("serial device", "skip", "no [serial] section: no serial peripheral")]
    settings = serial_settings(serial_raw if serial_raw is not None else DEFAULT_SERIAL, source)
    if not settings.enabled:
        return [Finding("serial device", "skip", "serial.enabled = false")]
    device = None
    if simulate:
        from hardware.simulated_device import SimulatedDevice
        device = SimulatedDevice(heartbeat_ms=200).start()
        settings = replace(settings, port=device.port)
    events = []
    got = threading.Event()
    link = SerialLink(settings, lambda e: (events.append(e), got.set()))
    try:
        link.start()
        ready = link.wait_for("ready", settings.hello_timeout + 2.0)
        status = link.status()
        if not ready:
            reason = status["reason"]
            fix = ("plug the device in and check `ls -l /dev/serial/by-id/`; set serial.port or "
                   "serial.usb" if "no USB serial device" in reason or "does not exist" in reason
                   else "add the service user to the dialout group" if "ermission" in reason
                   else "flash hardware/firmware/main.py and protocol.py to the Pico"
                   if "hello" in reason or "protocol" in reason else "see the reason")
            return [Finding("serial device", "fail", f"{status['state']}: {reason}", fix)]
        out = [Finding("serial device", "ok", status["reason"])]
        if device is not None:
            device.press(1)
            ok = got.wait(3.0)
            out.append(Finding("serial events", "ok" if ok else "fail",
                               "a device button press arrived" if ok else "no event arrived",
                               "" if ok else "the link is up but events do not pass: check firmware"))
        return out
    finally:
        link.close()
        if device is not None:
            device.close()


def _service_runs(data: str | None) -> bool:
    from companion.journal_recovery import DataLock
    from companion.paths import data_dir

    try:
        return DataLock.held(data_dir(data, create=False))
    except OSError:
        return False


def run(argv: list[str], camera: Callable[[bool], list[dict]] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion doctor",
                                     description="check the camera, buttons, LEDs, serial device and data folder")
    parser.add_argument("--data", help="data folder")
    parser.add_argument("--config", help="config file (default: $COMPANION_CONFIG or <data>/config.toml)")
    parser.add_argument("--simulate", action="store_true",
                        help="run the same checks against mock pins and the simulated serial device")
    parser.add_argument("--interactive", action="store_true",
                        help="ask you to press each button and look at each LED")
    parser.add_argument("--wait", type=float, default=10.0, help="seconds to wait for each press")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)

    from companion.paths import data_dir

    print(f"companion doctor{' (simulated devices)' if args.simulate else ''}")
    findings, sections, source = check_config(args)
    config_ok = findings[0].status == "ok"
    try:
        folder = data_dir(args.data)
        findings += check_data(folder)
        findings += [Finding(f["check"], f["status"], f["detail"], f.get("fix", ""))
                     for f in journal_findings(folder)]
    except OSError as exc:
        findings.append(Finding("data folder", "fail", str(exc), "give --data a folder you can write"))
    findings += check_components(args)
    running = not args.simulate and _service_runs(args.data)
    if running:
        # the service holds the pins, the serial port and the camera: probing them here fails
        # with a wiring fix for wiring that works (or takes a pin from under the service)
        findings.append(Finding("devices", "warn", "not checked: the service is running and holds "
                                "the buttons, LEDs, serial port and camera",
                                "sudo systemctl stop companion, run doctor again, then sudo "
                                "systemctl start companion"))
    if config_ok and not running:
        for name, check in (("gpio", lambda: check_gpio(sections.get("gpio"), args.simulate, source,
                                                        args.interactive, args.wait)),
                            ("serial", lambda: check_serial(sections.get("serial"), args.simulate, source))):
            try:
                findings += check()
            except CompanionError as exc:
                findings.append(Finding(name, "fail", str(exc), "see the message"))
            except Exception as exc:  # doctor must report, not crash
                findings.append(Finding(name, "fail", f"unexpected error: {exc!r}", "report this"))
    if camera is None:
        findings.append(Finding("camera", "skip", "not checked: this build has no camera probe wired"))
    elif not running:
        try:
            for item in camera(args.simulate):
                findings.append(Finding(item.get("check", "camera"), item.get("status", "fail"),
                                        item.get("detail", ""), item.get("fix", "")))
        except Exception as exc:
            findings.append(Finding("camera", "fail", f"the camera check failed: {exc!r}",
                                    "check the ribbon cable and run `libcamera-hello`"))
    for f in findings:
        print(f"  {f.status.upper():<5} {f.check:<18} {f.detail}")
        if f.fix and f.status in ("fail", "warn"):
            print(f"  {'':<5} {'':<18} fix: {f.fix}")
    failed = [f for f in findings if f.status == "fail"]
    skipped = [f for f in findings if f.status == "skip"]
    print(f"doctor: {len(findings) - len(failed) - len(skipped)} checks passed, {len(failed)} failed, "
          f"{len(skipped)} skipped")
    return 1 if failed else 0
