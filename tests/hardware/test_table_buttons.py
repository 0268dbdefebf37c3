"""Each button of each game's table map, pressed through gpiozero's MockFactory in each phase of
that game: it does what the map says where it means something, and where it does not, the press
is refused with the map's reason on the refusals board every screen shows (companion/refusals.py)
and nothing is journaled. The physical decks' draw phases (and Invincible's Villain Phase with an
owner's map whose Card reads the event card) press Card on a rendered card laid in the card area
(vision/card_render.py) and read by the card camera (vision/card_camera.py).

Then, as data: every (game, phase, button) the engines' phases and the maps make is either a
meaning or a refusal with a reason, every phase whose moves roll dice, draw or reveal a card, or
end a turn gives that button a meaning, and every phase is pressed above or says why not."""

import random
import re
import time
import tomllib

import pytest

from companion.actions import Action
from companion.cli import _confirm_waiting_read
from companion.dice import requests
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from companion.table_map import BUTTONS, parse
from hardware.wiring import DEFAULT_GPIO, attach
from vision.card_camera import CardCamera, stand_in
from vision.card_render import draw

CATALOG = Catalog()
BUTTON_PINS = {"next": "next", "read_dice": "dice", "draw_card": "card", "confirm": "confirm",
               "timer_toggle": "timer"}
PHASES = {"incredibles": ("roll", "move", "fix", "choose", "draw", "over"),
          "xmen-alert": ("first", "draw", "play", "bonus", "over"),
          "invincible": ("advance", "hero", "crash", "training", "villain", "over", "roll",
                         "choose", "contingency", "hero_end", "manual")}
# Phases the presses above do not reach, with why; their maps are checked as data all the same.
NOT_PRESSED: dict[str, dict[str, str]] = {}
OPTIONS = {"incredibles": {"players": ["dash", "violet"]},
           "xmen-alert": {"players": ["Ana", "Ben"], "advanced": True},
           "invincible": {"heroes": ["invincible", "atom-eve"]}}
# The draw phases exist only where the table draws its own cards (setup options).
PHYSICAL_DECKS = {"incredibles": {"physical_deck": True}, "xmen-alert": {"physical_decks": True}}
# Invincible's questions and hero time come only with some setups; random play then reaches them.
REACH = {("invincible", "roll"): {"episode": 3},   # 'ability chaos': endanger 2 in a random zone
         ("invincible", "contingency"): {"helpers": ["cecils-contingency"]},
         ("invincible", "hero_end"): {"hero_time": 10},   # expiry while a power resolves
         ("invincible", "manual"): {"episode": 3}}        # with the owner's chaos: OWNERS_MANUAL
# An owner with the real event deck: "With the real event deck and the card camera: villain =
# "read_card"" (the shipped map's comment), their copy of the map in the components folder.
OWNERS_CARD = ("invincible", "villain")
# An owner whose data leaves an ability to the table ({ manual = "..." }, invincible_episodes.toml)
OWNERS_MANUAL = ("invincible", "manual")


def owners_catalog(tmp_path):
    """A catalog whose components folder holds the owner's Invincible map: Card reads the
    event card laid in the card area."""
    from companion.games.invincible.engine import Invincible

    shipped = (Invincible.table_dir / "invincible.table.toml").read_text()
    at = shipped.index("[buttons.draw_card]")
    card, n = re.subn(r'(?m)^villain = \{ type = "reveal".*$', 'villain = "read_card"',
                      shipped[at:], count=1)
    assert n == 1
    owners = tmp_path / "components"
    owners.mkdir()
    (owners / "invincible.table.toml").write_text(shipped[:at] + card)
    return Catalog(owners)


class Clock:
    """The wall clock, put forward to the moment hero time runs out when the robot lets it (it
    stamps the expiry with the moment it is due)."""

    def __init__(self):
        self.ahead = 0.0

    def __call__(self):
        return time.time() + self.ahead

    def reach(self, at):
        if at is not None:
            self.ahead = max(self.ahead, at - time.time())


def manual_catalog(tmp_path):
    """A catalog whose components folder holds an owner's Invincible episodes where episode 3's
    Chaos in the Streets is card text the data does not structure ({ manual = "..." }): the
    table applies it by hand (the manual phase) when the track's 'ability chaos' comes."""
    from companion.games.invincible.data import HERE

    owners = tmp_path / "components"
    owners.mkdir()
    for name in ("invincible.toml", "invincible_powers.toml"):
        (owners / name).write_text((HERE / name).read_text())
    text, n = re.subn(r'(id = "chaos", .*effects = )\[\{ endanger = 2, zone = "random" \}\]',
                      r'\1[{ manual = "Endanger 2 in the zone the players pick." }]',
                      (HERE / "invincible_episodes.toml").read_text())
    assert n == 1
    (owners / "invincible_episodes.toml").write_text(text)
    return Catalog(owners)


def session_in(game, phase, tmp_path, catalog=CATALOG):
    """A real session whose game random play (the engine's own sampler) has brought to
    ``phase``; X-Men's table ends a game by abandoning it."""
    options = {**OPTIONS[game], **(PHYSICAL_DECKS.get(game, {}) if phase == "draw" else {}),
               **REACH.get((game, phase), {})}
    for seed in range(40):
        clock = Clock()
        session = Session(Journal(":memory:"), catalog, clock=clock)   # SQLite, no fsync a step
        session.start(game, options, seed=seed)
        rng = random.Random(seed)
        for _ in range(600):
            view = session.view()
            if view["expect"].get("phase", "over") == phase:
                return session
            if view["outcome"]["status"] != "playing":
                break
            if game == "xmen-alert" and phase == "over" and rng.random() < 0.05:
                session.submit(Action("game.abandon", data={"reason": "bedtime"}))
                continue
            engine, table = session._engine, session._top()
            action = engine.sample_action(table.game, rng)
            clock.reach(action.at)
            session.submit(action)
        session.journal.close()
    raise AssertionError(f"random play never reached {game}'s {phase} phase")


def press(handle, session, button):
    seq, refused = session.seq, len(session.refusals.since(0))
    handle.press(BUTTON_PINS[button])
    assert handle.dispatcher.wait_idle(5)
    board = session.refusals.since(0)
    return session.seq > seq, board[-1] if len(board) > refused else None


@pytest.mark.parametrize("game, phase, owners", [(g, p, False) for g, phases in PHASES.items()
                                                  for p in phases] + [(*OWNERS_CARD, True)])
def test_each_button_does_what_the_map_says_or_is_refused_with_why(game, phase, owners, tmp_path):
    catalog = (owners_catalog(tmp_path) if owners else manual_catalog(tmp_path)
               if (game, phase) == OWNERS_MANUAL else CATALOG)
    session = session_in(game, phase, tmp_path, catalog)
    table = catalog(game).table_map()
    card = table.meaning("draw_card", phase)
    assert (card is not None and card.own == "read_card") is (phase == "draw" or owners)
    reads = []
    cards = CardCamera(session, tmp_path / "data", simulate=True)   # the marked card area
    laid = [None]

    def read_dice():
        reads.append(session.seq)
        wanted = requests(session.view()["expect"])[0]
        faces = [d.sides[0] for d in wanted.dice for _ in range(d.count)]
        session.submit(Action("dice.read", source="camera", data={
            "set": wanted.first.set, "dice": [{"face": f, "confidence": 0.3} for f in faces]}))

    gpio = {**DEFAULT_GPIO, "hold_time": 0.2}
    handle = attach(session, {"gpio": gpio, "serial": {"enabled": False}}, simulate=True,
                    read_dice=read_dice,
                    confirm=lambda: _confirm_waiting_read(session),
                    read_card=lambda: cards.read_now(laid[0]))
    try:
        for button in BUTTON_PINS:
            meaning = table.meaning(button, phase)
            before = session.view()
            changed, refusal = press(handle, session, button)
            if meaning is None:
                assert not changed and refusal is not None, (button, phase)
                assert f"means nothing now ({phase} phase)" in refusal["text"]
                assert table.notes.get(button, "") in refusal["text"]
                assert (before["expect"].get("prompt") or "No game") in refusal["text"]
                continue
            if meaning.action is not None:
                assert changed and refusal is None, (button, phase, refusal)
                last = session.journal.entries(before["game_id"])[-1].payload
                assert (last["type"], last["source"]) == (meaning.action["type"], "button")
            elif meaning.own == "read_card":
                # nothing laid yet: refused, and why
                assert not changed and "no picture of the card area yet" in refusal["text"]
                # the card drawn from the table's own deck, laid in the card area (a tilted
                # rendered draw of its stand-in) and named by the camera when Card is pressed
                expect = before["expect"]
                drawn = expect["deck"][len(expect["deck"]) // 2]
                laid[0] = draw(stand_in(catalog(game).components()["cards"], drawn["id"]),
                               len(expect["deck"]), "tilt")
                changed, refusal = press(handle, session, button)
                assert changed and refusal is None, (button, phase, refusal)
                last = session.journal.entries(before["game_id"])[-1].payload
                assert (last["type"], last["source"]) == (expect.get("deck_action", "draw"), "camera")
                # copies print alike: the camera names the first of them still in the deck
                assert {c["id"]: c["title"] for c in expect["deck"]}[last["data"]["card"]] == \
                    drawn["title"]
            elif meaning.own == "read_dice" and not any(
                    r.action for r in requests(before["expect"])):
                assert not changed and "no dice are to be read now" in refusal["text"]
                continue
            elif meaning.own == "read_dice":
                assert reads and changed, (button, phase)
                # ... the read waits for a tap: Confirm confirms it as read
                assert session.view()["dice_read"]["confirmed"] is False
                changed, refusal = press(handle, session, "confirm")
                assert changed and refusal is None and session.view()["dice_read"]["confirmed"]
                session.submit(Action("undo"))
            elif meaning.own == "confirm_read":       # nothing waits now: refused, and why
                assert not changed and "nothing to confirm now" in refusal["text"]
                continue
            elif meaning.own == "timer" and before["outcome"]["status"] != "playing" and (
                    before["timers"].get(table.timer) or {"expired": True}).get("expired"):
                # a game over has no turn to time (a 2-minute timer was started after a win)
                assert not changed and "the game is over" in refusal["text"]
                continue
            elif meaning.own == "timer" and table.timer != "turn":   # a game's own timer
                timer = before["timers"].get(table.timer)
                owned = (before.get("timer_controls") or {}).get(table.timer)
                if owned is not None and not {"pause", "resume"} & set(owned["open"]):
                    # closed, as the game says (hero time off, or outside its Hero Phase)
                    assert not changed and owned["why"] in refusal["text"], refusal
                    continue
                if timer is None or timer.get("expired"):
                    assert not changed and "timer is not running now" in refusal["text"]
                    continue
                assert changed and session.view()["timers"][table.timer]["running"] != timer["running"]
                assert press(handle, session, button)[0]
                assert session.view()["timers"][table.timer]["running"] == timer["running"]
                # a clock, not a move: nothing for undo (companion/undo.py), the game unchanged
                assert session.view()["state"] == before["state"], (button, phase)
                continue
            elif meaning.own == "timer":
                assert changed and session.view()["timers"][table.timer]["running"]
                assert press(handle, session, button)[0]
                assert not session.view()["timers"][table.timer]["running"]
                session.submit(Action("timer.cancel", data={"name": table.timer}))
                assert session.view()["state"] == before["state"], (button, phase)
                continue
            session.submit(Action("undo"))
            assert session.view()["state"] == before["state"], (button, phase)
        # undo is a long press on Confirm (the default table): it takes the last action back
        if session.undo_preview() is not None:
            seq = session.seq
            handle.press("undo", hold=True)
            assert handle.dispatcher.wait_idle(5) and _wait(lambda: session.seq > seq)
            assert session.journal.entries(before["game_id"])[-1].kind == "undo"
    finally:
        handle.close()
        session.journal.close()


def _wait(predicate, timeout=5.0):
    import time

    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


# What a phase's moves ask of the table: a phase whose engine moves include one of these is a
# phase where that button must mean something (the map cannot forget it). A move is a roll
# where the engine's expect asks dice for it (seen in play) or, in a phase play does not reach,
# by its name.
NEEDED = {"read_dice": lambda move: move.startswith("roll:"),
          "draw_card": lambda move: move in ("draw", "reveal"),
          "next": lambda move: move in ("turn.end", "advance", "resolved")}


# The Incredibles' random games are short (a face-up problem slides to "Too Late!" within a few
# Alarms): fewer than one in three ends a move on a problem and rolls to fix it.
SEEDS_SEEN = {"incredibles": 20}


def rolls_seen(game, seeds=None):
    """Phase -> the actions whose faces the engine's expect asks the dice for, in random play."""
    seen: dict[str, set[str]] = {}
    for seed in range(seeds or SEEDS_SEEN.get(game, 10)):
        options = {**OPTIONS[game], **PHYSICAL_DECKS.get(game, {})}
        with Journal(":memory:") as journal:
            session = Session(journal, CATALOG)
            session.start(game, options, seed=seed)
            rng = random.Random(seed)
            for _ in range(400):
                view = session.view()
                if view["outcome"]["status"] != "playing":
                    break
                seen.setdefault(view["expect"]["phase"], set()).update(
                    r.action for r in requests(view["expect"]) if r.action)
                session.submit(session._engine.sample_action(session._top().game, rng))
    return seen


def gaps(engine, table, rolls):
    """Each (game, phase, button) the map leaves without a meaning where the phase's moves need
    one, or refuses without a reason; the phases are the engine's own (its rules per phase and
    its move table) and "over"."""
    moves: dict[str, set[str]] = {}
    for move in engine.moves.moves:
        for phase in move.phases:
            moves.setdefault(phase, set()).add(move.type)
    for phase, types in moves.items():
        named = {t for t in types if t == "roll" or t.endswith((".roll", "_roll"))}
        types |= {f"roll:{t}" for t in (rolls[phase] if phase in rolls else named)}
    phases = set(engine.phase_rules) | set(moves) | {"over"}
    out = []
    for phase in sorted(phases):
        for button in BUTTONS:
            if table.meaning(button, phase) is not None:
                continue
            needs = NEEDED.get(button)
            if needs and any(needs(m) for m in moves.get(phase, ())):
                out.append((engine.name, phase, button, "forgotten: "
                            + ", ".join(sorted(m for m in moves[phase] if needs(m)))))
            elif not table.notes.get(button):
                out.append((engine.name, phase, button, "refused without a reason"))
    return out


def test_every_phase_of_every_game_gives_each_button_a_meaning_or_a_reason():
    """Enumerated from the data: the engines' phases and each game's shipped map. Each press the
    map makes is pressed above in the phases random play reaches; the rest say why not."""
    for game in PHASES:
        engine = CATALOG(game)
        assert gaps(engine, engine.table_map(), rolls_seen(game)) == [], game
        phases = set(engine.phase_rules) | {p for m in engine.moves.moves for p in m.phases}
        pressed, unpressed = set(PHASES[game]), set(NOT_PRESSED.get(game, {}))
        assert not pressed & unpressed and phases | {"over"} == pressed | unpressed, game
    # ... and it can fail: a map that forgets the Incredibles' fix roll, a Card without a note
    engine = CATALOG("incredibles")
    data = tomllib.loads((engine.table_dir / "incredibles.table.toml").read_text())
    del data["buttons"]["read_dice"]["fix"]
    del data["buttons"]["draw_card"]["note"]
    found = gaps(engine, parse(data, engine, "owner's copy"), rolls_seen("incredibles"))
    assert ("incredibles", "fix", "read_dice", "forgotten: roll:fix") in found, found
    assert ("incredibles", "roll", "draw_card", "refused without a reason") in found, found
