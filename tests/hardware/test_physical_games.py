"""Whole games played through the table's physical channels only, in simulation
(tests/hardware/physical_table.py): every roll thrown into the rendered tray and read by the real
vision pipeline, every routine step a button press on gpiozero's MockFactory or a serial device
event over a pseudo-terminal, taps only for the choices a card leaves open. The journal's rolls
must be the faces thrown (read right, or flagged and confirmed)."""

import random

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
    for box in ("incredibles", "xmen"):
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
        sources = {e.payload["source"] for e in session.journal.entries(view["game_id"])}
        assert sources <= {"camera", "button", "token", "api"}, sources
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
