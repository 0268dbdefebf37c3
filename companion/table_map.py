"""A game's table map: what each physical input at the table means in each phase of that game.

The table has a few generic inputs: the table-edge buttons (and the serial device's buttons,
configured with the same command names) and token readers under board spaces. A button does
not know the game; the game's map, owner-editable TOML beside the game's data
(``<game>.table.toml``, the owner's copy in the components folder wins), says for each button
and each phase either an action (a table such as ``{type = "move", data = {to =
"{expect.space}"}}``) or one of the table's own commands:

- ``read_dice``: the camera reads the tray now;
- ``read_card``: the camera names the card in the card area now (a card drawn from the table's
  own deck: vision/card_camera.py);
- ``confirm_read``: the camera read waiting for a tap is right as read;
- ``undo``: take back the last move (never the clocks: companion/undo.py);
- ``timer``: pause or resume the game's running timer (``timer`` at the top names it).

A phase the map does not list for a button: the button means nothing then, and a press is
refused with the button's ``note`` and the table's prompt. ``"*"`` stands for every phase.
Placeholders in an action: ``{player}`` (the player expect names), ``{expect.<key>}`` (one of
expect's values), and for tokens ``{piece}``, ``{space}``, ``{reader}``, ``{tag}``; a value that
is exactly one placeholder followed by ``:int`` (``"{space:int}"``) becomes a whole number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.actions import Action
from companion.components import component_file, load_toml
from companion.dice import check_readable
from companion.errors import BadAction, DataFileError, IllegalAction

BUTTONS = ("next", "read_dice", "draw_card", "confirm", "undo", "timer_toggle")
LABELS = {"next": "Next", "read_dice": "Read dice", "draw_card": "Card", "confirm": "Confirm",
          "undo": "Undo", "timer_toggle": "Timer"}
OWN = ("read_dice", "read_card", "confirm_read", "undo", "timer")
OWN_SAY = {"read_dice": "the camera reads the tray now",
           "read_card": "the camera names the card in the card area now",
           "confirm_read": "the camera read waiting for a tap is right as read",
           "undo": "take back the last move", "timer": "pause or resume the {timer} timer"}
ANY_PHASE = "*"
TOKEN_FIELDS = ("piece", "space", "reader", "tag")
_PLACEHOLDER = re.compile(r"\{([a-z_.]+)(:int)?\}")
_WHOLE = re.compile(r"^\{([a-z_.]+):int\}$")
# What every game's buttons mean unless its map says otherwise.
DEFAULTS: dict[str, dict[str, Any]] = {
    "confirm": {ANY_PHASE: "confirm_read"},
    "read_dice": {ANY_PHASE: "read_dice"},
    "undo": {ANY_PHASE: "undo"},
    "timer_toggle": {ANY_PHASE: "timer"},
}


@dataclass(frozen=True)
class Meaning:
    """What one input means in one phase: one of the table's own commands, or an action."""

    own: str | None = None
    action: dict[str, Any] | None = None
    say: str = ""

    def describe(self, timer: str = "turn") -> str:
        if self.own is not None:
            return OWN_SAY[self.own].format(timer=timer.replace("_", " "))
        data = self.action.get("data") or {}
        args = ", ".join(f"{k} = {v}" for k, v in data.items())
        return self.action["type"] + (f" ({args})" if args else "")


@dataclass(frozen=True)
class TableMap:
    game: str
    buttons: dict[str, dict[str, Meaning]] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)      # button -> why it means nothing
    tokens: dict[str, Meaning] = field(default_factory=dict)  # phase -> a token placed
    timer: str = "turn"
    source: str = ""

    def meaning(self, button: str, phase: str) -> Meaning | None:
        phases = self.buttons.get(button) or {}
        return phases.get(phase) or phases.get(ANY_PHASE)

    def token(self, phase: str) -> Meaning | None:
        return self.tokens.get(phase) or self.tokens.get(ANY_PHASE)

    def resolve(self, button: str, view: dict[str, Any], source: str,
                fill: dict[str, str] | None = None) -> Meaning:
        """The meaning of ``button`` now, or IllegalAction saying why it means nothing."""
        expect = view.get("expect") or {}
        phase = expect.get("phase") or "over"
        meaning = self.meaning(button, phase) if button != "token" else self.token(phase)
        if meaning is None:
            label = "a token on a reader" if button == "token" else f"the {LABELS.get(button, button)} button"
            note = self.notes.get(button)
            raise IllegalAction(f"{label} means nothing now ({phase} phase)"
                                + (f": {note}" if note else "") + f". {_prompt(view)}")
        return meaning

    def action(self, meaning: Meaning, view: dict[str, Any], source: str,
               fill: dict[str, str] | None = None) -> Action:
        """The action a meaning stands for now, its placeholders filled in."""
        expect = view.get("expect") or {}
        values = {"player": expect.get("player"), **(fill or {})}
        for key, value in expect.items():
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                values[f"expect.{key}"] = value
        spec = meaning.action
        filled = _fill(spec, values)
        player = filled.get("player")
        return Action(filled["type"], player=player if player else None,
                      data=filled.get("data") or {}, source=source)

    def now(self, phase: str) -> dict[str, str]:
        """What each button means in ``phase``, in the map's words (the Devices page's list):
        what a press does, or why it does nothing."""
        out = {}
        for button in BUTTONS:
            m = self.meaning(button, phase)
            note = self.notes.get(button)
            out[button] = (m.say or m.describe(self.timer)) if m is not None else (
                "nothing now" + (f": {note}" if note else ""))
        return out

    def at(self, view: dict[str, Any]) -> dict[str, str]:
        """``now`` for the table ``view`` shows: a table command a press of which would be refused
        says why instead (the Devices page said Confirm "confirms the camera read" with none
        waiting, Undo "takes back the last action" with nothing to take back)."""
        phase = (view.get("expect") or {}).get("phase") or "over"
        out = self.now(phase)
        for button in BUTTONS:
            m = self.meaning(button, phase)
            why = _refused(m.own, view, self.timer) if m is not None and m.own else None
            if why:
                out[button] = f"nothing now: {why}"
            elif m is not None and m.own == "timer" and self.timer == "turn" and not _running(
                    view, self.timer):
                out[button] = "start the turn timer"     # none yet, or it ran out: a fresh one
        return out

    def rows(self) -> list[tuple[str, str, str]]:
        """(input, phase, meaning) for the docs' tables."""
        out = []
        for label, key, phases in ([(LABELS[b], b, self.buttons.get(b) or {}) for b in BUTTONS]
                                   + [("token placed", "token", self.tokens)]):
            for phase, m in phases.items():
                out.append((label, "every phase" if phase == ANY_PHASE else phase,
                            m.say or m.describe(self.timer)))
            if ANY_PHASE not in phases:
                why = self.notes.get(key)
                out.append((label, "other phases" if phases else "every phase",
                            "refused" + (f": {why}" if why else "")))
        return out


def _prompt(view: dict[str, Any]) -> str:
    return (view.get("expect") or {}).get("prompt") or "No game is in progress."


def _fill(value: Any, values: dict[str, Any]) -> Any:
    if isinstance(value, str):
        whole = _WHOLE.match(value)
        if whole:
            raw = values.get(whole.group(1))
            try:
                return int(str(raw))
            except ValueError:
                raise BadAction(f"{whole.group(1)} is {raw!r}, not a whole number") from None

        def one(m: re.Match) -> str:
            got = values.get(m.group(1))
            if got is None:
                raise IllegalAction(f"the table map needs {m.group(1)}, which is not known now")
            return str(got)
        return _PLACEHOLDER.sub(one, value)
    if isinstance(value, dict):
        return {k: _fill(v, values) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, values) for v in value]
    return value


# -- loading and checking ---------------------------------------------------------------------

def load(game, shipped: Path | None, components_dir: str | Path | None = None) -> TableMap:
    """The map of ``game`` (an engine): the owner's ``<name>.table.toml`` in the components
    folder, else the shipped one in ``shipped`` (a folder), else the defaults alone. Checked
    against the game's move table: every key named in errors."""
    name = f"{game.name}.table.toml"
    path = component_file(name, components_dir, shipped) if shipped is not None else None
    if path is None or not path.is_file():
        return parse({}, game, "(defaults)")
    return parse(load_toml(path), game, str(path))


def parse(data: dict[str, Any], game, source: str) -> TableMap:
    moves = getattr(game, "moves", None)
    phases = set(getattr(game, "phase_rules", {})) | {ANY_PHASE, "over"}
    if moves is not None:
        phases |= {p for m in moves.moves for p in m.phases}
    types = set(moves.types) if moves is not None else set()

    def fail(key: str, message: str) -> DataFileError:
        return DataFileError(f"{source}: {key}: {message}")

    unknown = sorted(set(data) - {"buttons", "tokens", "timer", "note"})
    if unknown:
        raise fail(unknown[0], "unknown key; known keys here: buttons, tokens, timer, note")
    timer = data.get("timer", "turn")
    if not isinstance(timer, str) or not timer:
        raise fail("timer", f"expected a timer's name, got {timer!r}")
    buttons_raw = data.get("buttons", {})
    if not isinstance(buttons_raw, dict):
        raise fail("buttons", "expected a table of buttons")
    buttons: dict[str, dict[str, Meaning]] = {}
    notes: dict[str, str] = {}
    for button in BUTTONS:
        table = buttons_raw.get(button, DEFAULTS.get(button, {}))
        where = f"buttons.{button}"
        if not isinstance(table, dict):
            raise fail(where, "expected a table of phase = meaning")
        note = table.get("note", "")
        if not isinstance(note, str):
            raise fail(f"{where}.note", "expected text")
        if note:
            notes[button] = note
        buttons[button] = {phase: _meaning(value, f"{where}.{phase}", phases, types, fail, False)
                           for phase, value in table.items() if phase != "note"}
        for phase in buttons[button]:
            if phase not in phases:
                raise fail(f"{where}.{phase}", f"{phase!r} is not a phase of {game.name} "
                           f"({', '.join(sorted(phases - {ANY_PHASE}))}, or \"*\")")
    for button in buttons_raw:
        if button not in BUTTONS:
            raise fail(f"buttons.{button}", f"unknown button; the buttons are {', '.join(BUTTONS)}")
    tokens_raw = data.get("tokens", {})
    if not isinstance(tokens_raw, dict):
        raise fail("tokens", "expected a table of phase = action")
    tokens = {}
    for phase, value in tokens_raw.items():
        if phase == "note":
            continue
        if phase not in phases:
            raise fail(f"tokens.{phase}", f"{phase!r} is not a phase of {game.name}")
        tokens[phase] = _meaning(value, f"tokens.{phase}", phases, types, fail, True)
    if isinstance(tokens_raw.get("note"), str):
        notes["token"] = tokens_raw["note"]
    return TableMap(game.name, buttons, notes, tokens, timer, source)


def _meaning(value: Any, where: str, phases, types, fail, token: bool) -> Meaning:
    if isinstance(value, str):
        if value not in OWN or token:
            raise fail(where, f"{value!r} is not one of the table's own commands "
                       f"({', '.join(OWN)}); an action is a table such as {{type = \"...\"}}")
        return Meaning(own=value)
    if not isinstance(value, dict):
        raise fail(where, f"expected an action table or a command name, got {value!r}")
    unknown = sorted(set(value) - {"type", "player", "data", "say"})
    if unknown:
        raise fail(f"{where}.{unknown[0]}", "unknown key; an action has type, player, data, say")
    kind = value.get("type")
    if not isinstance(kind, str) or (types and kind not in types):
        raise fail(f"{where}.type", f"{kind!r} is not one of this game's actions "
                   f"({', '.join(sorted(types))})")
    player = value.get("player")
    if player is not None and not isinstance(player, str):
        raise fail(f"{where}.player", f"expected a name or a placeholder, got {player!r}")
    data = value.get("data", {})
    if not isinstance(data, dict):
        raise fail(f"{where}.data", f"expected a table, got {data!r}")
    say = value.get("say", "")
    if not isinstance(say, str):
        raise fail(f"{where}.say", "expected text")
    allowed = {"player"} | (set(TOKEN_FIELDS) if token else set())
    for name in _placeholders({"player": player, "data": data}):
        if name not in allowed and not name.startswith("expect."):
            raise fail(where, f"{{{name}}} is not a placeholder here; use "
                       + ", ".join(f"{{{a}}}" for a in sorted(allowed)) + " or {expect.<key>}")
    spec = {"type": kind, "data": data}
    if player is not None:
        spec["player"] = player
    return Meaning(action=spec, say=say)


def _placeholders(value: Any) -> list[str]:
    if isinstance(value, str):
        return [m.group(1) for m in _PLACEHOLDER.finditer(value)]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _placeholders(v)]
    if isinstance(value, list):
        return [n for v in value for n in _placeholders(v)]
    return []


def markdown(table: TableMap) -> str:
    """The map as a Markdown table (docs/hardware.md shows each game's)."""
    lines = ["| input | phase | what it does |", "|---|---|---|"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in table.rows()]
    return "\n".join(lines)


def _running(view: dict[str, Any], timer: str) -> bool:
    got = (view.get("timers") or {}).get(timer)
    return got is not None and not got.get("expired")


def timer_closed(view: dict[str, Any], timer: str) -> str | None:
    """Why the game says its timer ``timer`` can be neither paused nor resumed now (the view's
    ``timer_controls``); None where it can, or where the timer is the table's own."""
    owned = (view.get("timer_controls") or {}).get(timer)
    if owned is None or {"pause", "resume"} & set(owned.get("open") or ()):
        return None
    return owned.get("why") or "the timer cannot be paused now"


def _refused(own: str, view: dict[str, Any], timer: str) -> str | None:
    """Why a press of the table's own command ``own`` would be refused on ``view``'s table, as
    hardware/commands.py refuses it (None: it would not be)."""
    if own == "timer" and (closed := timer_closed(view, timer)):
        return closed
    if own == "timer" and not _running(view, timer):
        if (view.get("outcome") or {}).get("status", "playing") != "playing":
            return "the game is over"
        if timer != "turn":
            return f"the {timer.replace('_', ' ')} timer is not running"
    if own == "undo" and not view.get("undo"):
        return "there is nothing to take back"
    if own == "confirm_read":
        read = view.get("dice_read")
        if not read or read.get("confirmed"):
            return "no camera read waits for a tap"
        if read.get("miscounted"):
            return "the read waiting has a die too many or too few: put it right on a screen"
    if own == "read_dice":
        try:
            check_readable(view.get("expect"))
        except IllegalAction:
            return "no roll is asked for"
    return None
