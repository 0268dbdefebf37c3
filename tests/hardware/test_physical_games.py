"""Whole games played through the table's physical channels only, in simulation
(tests/hardware/physical_table.py): every roll thrown into the rendered tray and read by the real
vision pipeline, every routine step a button press on gpiozero's MockFactory or a serial device
event over a pseudo-terminal, taps only for the choices a card leaves open. The journal's rolls
must be the faces thrown (read right, or flagged and confirmed)."""

import random
from collections import Counter

import pytest

from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from physical_table import PhysicalTable, journal_rolls

MAX_STEPS = 400


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    """One data folder for the module, the stand-in sets taught once (what the simulated camera
    does on first use, done here so no button press waits for it)."""
    from vision.reader import teach
    from vision.render import write_teaching_photos

    data = tmp_path_factory.mktemp("camera-data")
    for box in ("incredibles", "xmen", "invincible"):
        write_teaching_photos(box, data / "photos" / box)
        teach(box, data / "photos" / box, data, "classical")
    return data


def incredibles_table(tmp_path, data_dir, players=("dash", "violet"), seed=11):
    session = Session(Journal(tmp_path / "journal.sqlite3"), Catalog())
    session.start("incredibles", {"players": list(players)}, seed=seed)
    board = Catalog()("incredibles").data
    spaces = sorted(board.adjacency, key=board.rank.__getitem__)
    readers = dict(enumerate(spaces))
    tags = {f"0{i + 1}A0B0C0": hero for i, hero in enumerate(board.heroes)}
    return session, PhysicalTable(session, data_dir, readers, tags, seed=seed)


def where_to(view, rng):
    """A player's choice of space: Jack-Jack first, then a problem, else anywhere reachable."""
    state, expect = view["state"], view["expect"]
    reach = expect["reachable"]
    if state["jackjack"] in reach:
        return state["jackjack"]
    problems = [s for s in reach if state["tiles"].get(s) == "problem"]
    return rng.choice(problems or reach)


def test_the_incredibles_played_through_the_physical_table(tmp_path, data_dir):
    """"Roll the Movement Die ... move ... try to fix a problem by rolling your Power Die. If
    Jack-Jack has been rescued, you may roll the Jack-Jack Die in addition to your Power Die."
    The camera reads each roll, a mover's token on a space's reader is the move, the Next button
    stays put, and a card's choice is the one tap."""
    session, table = incredibles_table(tmp_path, data_dir)
    rng = random.Random(3)
    two_kind = stays = 0
    try:
        # a token or the device's Next button before the roll means nothing: refused, and why
        table.place("dash", "3")
        table.device_press(1)
        board = session.refusals.since(0)
        assert "a token on a reader means nothing now (roll phase)" in board[-2]["text"]
        assert "the Next button means nothing now (roll phase)" in board[-1]["text"]
        assert session.view()["seq"] == 1 and board[-1]["source"] == "button"
        for _ in range(MAX_STEPS):
            view = session.view()
            expect = view["expect"]
            phase = expect["phase"]
            if phase == "over":
                break
            if phase in ("roll", "fix"):
                kinds = 1 + len(expect["dice"][0].get("also", []))
                read = table.roll()
                after = session.view()
                if phase == "fix":
                    fix = after["state"]["last_fix"]
                    assert [fix["power"]] + ([fix["jackjack"]] if fix["jackjack"] else []) == read["faces"]
                    if kinds == 2:
                        two_kind += 1
                        assert len(read["faces"]) == 2    # one frame, one fix attempt, both dice
                roll = after["last_roll"]
                assert [d["face"] for d in roll["dice"]] == read["faces"]
                assert roll["source"] == "camera" and roll["read"] == read["id"]
            elif phase == "move":
                to = where_to(view, rng)
                seq = session.seq
                if to == expect["space"]:                 # stay: Next, on the table's edge
                    stays += 1                            # or on the serial device
                    table.press("next") if stays % 2 else table.device_press(1)
                else:
                    table.place(expect["player"], to)
                assert session.seq > seq, table.hardware.status()["actions"]
                mover = next(m for m in session.view()["state"]["movers"] if m["hero"] == expect["player"])
                assert mover["space"] == to
            elif phase == "choose":
                pending = expect["pending"]
                key = "space" if pending["kind"] == "displace" else "tile"
                table.tap({"type": "choose", "data": {key: rng.choice(pending["options"])}})
        view = session.view()
        assert view["outcome"]["status"] in ("won", "lost"), view["expect"]
        assert journal_rolls(session) == table.throws
        assert table.inputs["camera"] == len(table.throws) >= 10
        assert table.inputs["serial"] > 0 and table.inputs["gpio"] >= table.inputs["camera"]
        assert two_kind >= 1, "Jack-Jack was never rescued: no two-kind roll was read"
        # every action came from the table's own channels; a phone's tap only put right a read
        # the camera flagged as unsure: a die read wrong, missed or invented
        entries = [e.payload for e in session.journal.entries(view["game_id"])]
        sources = {a["source"] for a in entries if a["type"] != "dice.confirm"}
        assert sources <= {"camera", "button", "token", "api"}, sources
        corrections = [a for a in entries if a["source"] == "dashboard"]
        assert all(a["type"] == "dice.confirm" for a in corrections)
        assert len(corrections) <= table.inputs["flagged"]
        print("inputs per channel:", dict(table.inputs), "two-kind rolls:", two_kind)
    finally:
        table.close()


def xmen_table(tmp_path, data_dir, seed, **options):
    session = Session(Journal(tmp_path / "journal.sqlite3"), Catalog())
    session.start("xmen-alert", {"players": ["Ana", "Ben"], **options}, seed=seed)
    data = Catalog()("xmen-alert").data
    readers = {n: str(n) for n in range(1, data.zones + 1)}     # one reader per Battle Zone
    tags = {f"{i + 1:02X}E0E0E0": c for i, c in enumerate(data.characters)}
    return session, PhysicalTable(session, data_dir, readers, tags, seed=seed)


def test_xmen_alert_played_through_the_physical_table(tmp_path, data_dir):
    """Every roll the table makes ("roll 5 dice to see who goes first", each character's battle,
    recovery and bonus dice) thrown into the tray and read by the camera; a character's token on
    a Battle Zone's reader deploys it; Next ends the turn; playing a held card is a tap. The
    players' decisions are the engine's random player's (its sampler), carried out physically.
    The table draws its own X-Men Alert and Training & Luck cards (option physical_decks): "If a
    Battle Zone is empty, draw the top X-Men Alert Card" and "draw the top Training & Luck
    Card": each card drawn is laid in the card area and named by the card camera when Card is
    pressed (a tap where the camera asks)."""
    session, table = xmen_table(tmp_path, data_dir, seed=7, physical_decks=True)
    cards = Catalog()("xmen-alert").components()["cards"]
    rng = random.Random(7)
    most_dice = ends = 0
    laid = []
    try:
        for _ in range(MAX_STEPS):
            view = session.view()
            if view["outcome"]["status"] != "playing":
                break
            expect = view["expect"]
            wanted = [d for d in expect.get("dice", []) if d.get("action")]
            choice = session._engine.sample_action(session._top().game, rng)
            if choice.type == "game.abandon":
                continue
            if choice.type.endswith(".roll") and wanted:
                read = table.roll()                      # the dice the table lists first
                most_dice = max(most_dice, len(read["faces"]))
                roll = session.view()["last_roll"]
                assert sorted(d["face"] for d in roll["dice"]) == sorted(read["faces"])
                assert roll["type"] == wanted[0]["action"] and roll["source"] == "camera"
            elif choice.type == "deploy":
                seq = session.seq
                table.place(choice.data["heroes"][0], str(choice.data["zone"]))
                assert session.seq > seq, session.refusals.since(0)[-1:]
            elif choice.type == "turn.end":
                ends += 1
                seq = session.seq
                table.press("next") if ends % 2 else table.device_press(1)
                assert session.seq > seq, session.refusals.since(0)[-1:]
            elif choice.type == "card.play":
                table.tap(choice.to_json())
            elif choice.type == "draw":
                card = choice.data["card"]
                laid.append((expect["deck_name"], card))
                if not table.lay_card(cards, card, seed=len(laid)):
                    table.tap(choice.to_json())
            else:
                raise AssertionError(f"{choice.type}: no physical way to make it ({expect['prompt']})")
        view = session.view()
        assert view["outcome"]["status"] == "won", view["expect"]
        assert journal_rolls(session) == table.throws
        assert table.inputs["camera"] == len(table.throws) >= 10 and most_dice >= 4
        # every card drawn is the one the journal holds (copies print alike: the camera names
        # the first still in the deck), named by the camera or, where it asked, a tap
        draws = [e.payload for e in session.journal.entries(view["game_id"])
                 if e.payload["type"] == "draw"]
        title = {c["id"]: c["title"] for c in cards}
        assert [title[d["data"]["card"]] for d in draws] == [title[card] for _, card in laid]
        sources = [d["source"] for d in draws]
        assert sources.count("camera") >= len(laid) - 1 and set(sources) <= {"camera", "api"}
        assert {deck for deck, _ in laid} == {"alert", "training_luck"} and len(laid) >= 6
        print("inputs per channel:", dict(table.inputs), "most dice in one roll:", most_dice,
              "cards drawn:", len(laid))
    finally:
        table.close()


def test_nine_xmen_dice_in_one_frame_are_one_battle_roll(data_dir):
    """X-Men rolls up to nine dice at once (a character's stat and its bonuses): nine thrown into
    the tray are read from one frame and become the nine faces of one battle roll."""
    from companion.dice import DiceRequest
    from companion.games.xmen.dice import die
    from vision.reader import make_reader
    from vision.simulated_tray import TUMBLE_FRAMES, SimulatedTray

    data = Catalog()("xmen-alert").data
    assert data.max_dice == 9
    rng = random.Random(9)
    thrown = [rng.choice(data.faces) for _ in range(9)]
    tray = SimulatedTray(seed=9, fps=0)
    assert tray.throw(thrown) == thrown                             # all nine landed in view
    frame = [tray.read() for _ in range(TUMBLE_FRAMES + 1)][-1]
    reads = make_reader("xmen", data_dir, recognizer="classical").read(frame)
    assert len(reads) == 9 and sorted(r.face for r in reads) == sorted(thrown), reads
    request = DiceRequest((die(data, 9),), action="battle.roll", data={"zone": 1}, player="Ana")
    action = request.action_for([r.face for r in reads], None, "camera")
    assert (action.type, action.player, action.data["zone"]) == ("battle.roll", "Ana", 1)
    assert sorted(action.data["faces"]) == sorted(thrown)


ZONES = ("left", "center", "right", "hq")
# What no physical input makes at this table: a hero's choices that the cards (the powers, the
# event card, the training hand) leave open, tapped on the screen.
TAPPED = {"play", "drop", "effect", "decline", "choose", "learn", "train_cube", "punch",
          "discard_power", "arrange", "use_helper", "episode_bonus", "declare_win"}


def invincible_table(tmp_path, data_dir, heroes, seed):
    session = Session(Journal(tmp_path / "journal.sqlite3"), Catalog())
    session.start("invincible", {"heroes": list(heroes), "hero_time": 15}, seed=seed)
    readers = dict(enumerate(ZONES, 1))               # a reader under each zone and the HQ
    tags = {f"{i + 1:02X}1A2B3C": hero for i, hero in enumerate(heroes)}   # each hero's standee
    done = {f"done-{h}": {"pin": (16, 20, 21, 7)[i], "action": "done", "player": h} for i, h in enumerate(heroes)}
    return session, PhysicalTable(session, data_dir, readers, tags, seed=seed, buttons=done,
                                  pull_mat=True)


def test_invincible_played_through_the_physical_table(tmp_path, data_dir):
    """'Draw three random cubes from your bag at a time': every pull laid in the hero's pull area
    and read by the pull camera; 'Move your hero standee to an adjacent zone': a Move by the
    standee on the zone's reader; the crash die and the rescue die thrown in the tray and read;
    the round's steps (advance, the event card, an effect applied by hand) the Next button, each
    hero's Done their own button, hero time the Timer button; taps only for what the cards leave
    open (which power a cube goes on, a target, a card to learn). The players' decisions are the
    engine's robot's, carried out physically."""
    heroes = ("invincible", "atom-eve")
    session, table = invincible_table(tmp_path, data_dir, heroes, seed=7)
    rng = random.Random(7)
    made = Counter()
    try:
        table.place("invincible", "left")                 # no power is resolving: refused, why
        assert "a token on a reader means nothing now (advance phase)" in session.refusals.since(0)[-1]["text"]
        paused = False
        for _ in range(2000):
            view = session.view()
            if view["outcome"]["status"] != "playing":
                break
            expect = view["expect"]
            choice = session._engine.sample_action(session._top().game, rng)
            kind, data = choice.type, choice.data
            seq = session.seq
            if not paused and expect["phase"] == "hero":  # hero time paused and resumed: Timer
                for running in (False, True):
                    table.press("timer")
                    assert session.view()["timers"]["hero_time"]["running"] is running
                paused = True
            if kind in ("defiance", "timer.expire"):
                continue                                  # a pull set aside, or time run out: not here
            if kind == "pull":
                table.pull(data["hero"])
            elif kind in ("advance", "reveal", "resolved"):
                table.press("next") if made["next"] % 2 else table.device_press(1)
                made["next"] += 1
            elif kind == "done":
                table.press(f"done-{data['hero']}")
            elif kind in ("timer.resume", "timer.pause"):
                table.press("timer")
            elif kind in ("crash_roll", "roll") or (kind == "effect" and "crashed" in data
                                                     and any(d.get("action") for d in expect["dice"])):
                table.roll()                              # the die the table expects, thrown
                made["dice"] += 1
            elif kind == "effect" and "to" in data and data.get("target", data["hero"]) == data["hero"]:
                table.place(data.get("target") or data["hero"], data["to"])   # a hero's standee
                made["token"] += 1
            elif kind in TAPPED:
                table.tap(choice.to_json())
            else:
                raise AssertionError(f"{kind}: no physical way to make it ({expect['prompt']})")
            assert session.seq > seq, (kind, data, session.refusals.since(0)[-1]["text"])
            made[kind] += 1
        view = session.view()
        assert view["outcome"]["status"] in ("won", "lost"), view["expect"]
        assert journal_rolls(session) == table.throws     # every pull and roll as laid or thrown
        entries = [e.payload for e in session.journal.entries(view["game_id"])]
        pulls = [e for e in entries if e["type"] == "dice.read" and e["data"]["set"] == "invincible-cubes"]
        assert len(pulls) == table.inputs["pull area"] == made["pull"] >= 10
        assert all(e["source"] == "camera" for e in pulls)
        assert made["token"] >= 1 and made["dice"] >= 1, made
        tapped = {e["type"] for e in entries if e["source"] == "api"}
        assert tapped <= TAPPED | {"dice.confirm"}, tapped
        assert {e["source"] for e in entries} <= {"camera", "button", "token", "api"}
        print("inputs per channel:", dict(table.inputs), "moves made:", dict(made))
    finally:
        table.close()


def test_a_heros_standee_on_a_zones_reader_is_the_move_of_the_power_resolving(tmp_path):
    """'Move. Move your hero standee to an adjacent zone, or to Guardians HQ from anywhere ...
    Note that the two outer zones are not adjacent to each other.' A standee put on a reader
    (a TAG event over the simulated device's pseudo-terminal) is the Move of the power
    resolving; with nothing resolving, or to a zone the Move cannot reach, it is refused with
    the reason on the refusals board and nothing is journaled."""
    heroes = ("invincible", "atom-eve")
    session, table = invincible_table(tmp_path, tmp_path, heroes, seed=4)
    try:
        session.submit({"type": "advance"})
        table.place("invincible", "left")                  # nothing resolving: means nothing
        refusal = session.refusals.since(0)[-1]["text"]
        assert "no power is resolving" in refusal, refusal
        session.submit({"type": "pull", "data": {"hero": "invincible",
                                                 "cubes": ["blue", "blue", "yellow"]}})
        session.submit({"type": "play", "data": {"hero": "invincible", "cube": "blue",
                                                 "power": "move"}})
        assert session.view()["expect"]["resolving"]["name"] == "Move"
        seq = session.seq
        table.place("atom-eve", "center")                  # Eve's standee: she has no power resolving
        assert session.seq == seq and "Atom Eve has no power resolving" in session.refusals.since(0)[-1]["text"]
        table.place("invincible", "hq")
        last = session.journal.entries(session.view()["game_id"])[-1].payload
        assert (last["type"], last["source"], last["data"]) == (
            "effect", "token", {"hero": "invincible", "target": "invincible", "to": "hq"})
        inv = next(h for h in session.view()["state"]["heroes"] if h["id"] == "invincible")
        assert inv["zone"] == "hq" and session.view()["expect"]["resolving"] is None
        assert table.inputs["serial"] >= 3
    finally:
        table.close()
