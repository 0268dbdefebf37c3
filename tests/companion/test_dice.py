"""The DiceRequest contract: what every engine's expect["dice"] says, and what a camera read of
those dice becomes. The faces come from the games' data and nowhere else."""

import random

import pytest

from companion.dice import Dice, DiceRequest, game_dice, requests
from companion.errors import BadAction, IllegalAction
from companion.games import Catalog

POWER = Dice("power", "incredibles-power-dash", ("agility", "speed", "wild"),
             ("agility", "speed", "speed", "wild"), field="power", single=True)
JACKJACK = Dice("jackjack", "incredibles-jackjack", ("speed", "wild"), min=0, field="jackjack",
                single=True)


def test_a_request_round_trips_through_its_json():
    req = DiceRequest((POWER, JACKJACK), action="fix", data={"x": 1}, player="dash",
                      purpose="fix a problem")
    obj = req.to_json()
    assert obj["die"] == "power" and obj["faces"] == ["agility", "speed", "wild"]
    assert obj["also"][0]["die"] == "jackjack" and obj["also"][0]["min"] == 0
    assert DiceRequest.from_json(obj) == req


def test_several_kinds_in_one_roll_fill_their_own_fields():
    """The power die and the Jack-Jack die thrown together: the first face is the power die's,
    the second (if any) Jack-Jack's."""
    req = DiceRequest((POWER, JACKJACK), action="fix", player="dash")
    assert req.action_for(["speed"], None, "camera").data == {"power": "speed"}
    both = req.action_for(["speed", "wild"], "violet", "camera")
    assert both.data == {"power": "speed", "jackjack": "wild"} and both.player == "violet"
    with pytest.raises(IllegalAction, match="1 to 2 dice"):
        req.action_for(["speed", "wild", "wild"], None, "camera")
    with pytest.raises(BadAction, match="not a face"):
        req.action_for(["strength"], None, "camera")


def test_a_list_field_takes_every_die_and_an_exact_count_is_kept():
    alert = Dice("alert", "xmen-alert", ("xmen", "blank"), count=3)
    req = DiceRequest((alert,), action="battle.roll", data={"zone": 1}, player="Ana")
    act = req.action_for(["xmen", "blank", "xmen"], None, "camera")
    assert (act.type, act.player, act.data) == ("battle.roll", "Ana",
                                                {"zone": 1, "faces": ["xmen", "blank", "xmen"]})
    with pytest.raises(IllegalAction, match="this roll is 3 dice"):
        req.action_for(["xmen"], None, "camera")
    one = DiceRequest((Dice("alert", "xmen-alert", ("xmen",), count=1),), action="recover.roll")
    assert one.action_for(["xmen"], None, "camera").data == {"faces": ["xmen"]}


def test_an_older_plain_entry_still_reads():
    (req,) = requests({"dice": [{"die": "movement", "set": "m", "count": 1, "action": "roll",
                                 "field": "face", "faces": ["1", "2"]}]})
    assert req.first.single and req.action_for(["2"], None, "c").data == {"face": "2"}
    with pytest.raises(IllegalAction, match="one movement was expected"):
        req.action_for(["1", "2"], None, "c")


@pytest.mark.parametrize("game", ["incredibles", "xmen-alert", "invincible"])
def test_every_engine_asks_for_dice_from_its_own_data(game):
    """Random states of each game: every request's faces and sides are the data's dice."""
    engine = Catalog()(game)
    sides = {s: set(v) for s, v in engine.dice().items()}
    seen = set()
    for seed in range(40):
        rng = random.Random(seed)
        state = engine.setup(engine.sample_options(rng), random.Random(seed))
        for _ in range(60):
            if engine.outcome(state)["status"] != "playing":
                break
            for req in requests(engine.expect(state)):
                for kind in req.dice:
                    assert set(kind.sides) == sides[kind.set] >= set(kind.faces), kind
                    assert set(kind.meanings) == set(kind.faces)
                    seen.add(kind.set)
            state = engine.apply(state, engine.sample_action(state, rng), random.Random(seed))
    assert seen and seen <= set(sides)


def test_the_boxes_dice_come_from_the_engines_data():
    boxes = game_dice()
    assert set(boxes) == {"incredibles", "invincible", "xmen"}
    rescue = Catalog()("invincible").data.rescue_die
    # the rescue die's faces exist only in the game's data: the simulator now throws them
    assert boxes["invincible"]["invincible-rescue"] == tuple(f.id for f in rescue)
    assert boxes["xmen"]["xmen-alert"] == Catalog()("xmen-alert").data.faces
