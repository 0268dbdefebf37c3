"""Table commands read against a view through the running game's table map
(companion/table_map.py): the same buttons serve every game, each meaning what its game's map says
in the current phase. The views here are plain dicts shaped like Session.view()."""

import pytest

from companion.errors import IllegalAction
from companion.games import Catalog
from companion.table_map import parse
from hardware.commands import Hooks, resolve
from hardware.settings import Command

CATALOG = Catalog(None)
INCREDIBLES = CATALOG("incredibles").table_map()
XMEN = CATALOG("xmen-alert").table_map()
ROLL = [{"die": "movement", "set": "incredibles-movement", "faces": ["1"], "action": "roll"}]


def view(phase="roll", timers=None, prompt="Dash: roll the Movement Die.", dice=None, **more):
    return {"expect": {"phase": phase, "player": "dash", "prompt": prompt, "dice": dice or [],
                       **more}, "timers": timers or {}}


def test_confirm_confirms_the_waiting_read_and_says_why_when_nothing_waits():
    confirmed = []
    hooks = Hooks(confirm=lambda: confirmed.append(1) or True)
    assert resolve(Command("confirm"), view(), hooks, "button", table=INCREDIBLES) is None and confirmed
    with pytest.raises(IllegalAction, match="nothing to confirm now: Dash: roll the Movement Die."):
        resolve(Command("confirm"), view(), Hooks(confirm=lambda: False), "button", table=INCREDIBLES)


def test_draw_card_means_nothing_where_the_companion_draws_and_says_so():
    with pytest.raises(IllegalAction, match="Card button means nothing now .roll phase.: the "
                                            "companion draws the top card itself"):
        resolve(Command("draw_card"), view(), Hooks(), "button", table=INCREDIBLES)


def test_next_is_the_maps_action_with_expects_values_filled_in():
    action = resolve(Command("next"), view("move", space="7"), Hooks(), "button", table=INCREDIBLES)
    assert (action.type, action.player, action.data, action.source) == ("move", "dash", {"to": "7"}, "button")
    end = resolve(Command("next"), view("play"), Hooks(), "device", table=XMEN)
    assert (end.type, end.player, end.source) == ("turn.end", "dash", "device")


def test_timer_toggle_follows_the_maps_timer():
    def toggle(timers, table=INCREDIBLES):
        a = resolve(Command("timer_toggle", seconds=45), view("roll", timers), Hooks(), "button",
                    table=table)
        return a.type, a.data

    assert toggle({}) == ("timer.start", {"name": "turn", "seconds": 45})
    assert toggle({"turn": {"running": True, "expired": False}}) == ("timer.pause", {"name": "turn"})
    assert toggle({"turn": {"running": False, "expired": False}}) == ("timer.resume", {"name": "turn"})
    assert toggle({"turn": {"running": False, "expired": True}})[0] == "timer.start"
    # a game's own timer (Invincible's hero time) is paused and resumed, never started here
    hero = parse({"timer": "hero_time"}, CATALOG("incredibles"), "test")
    assert toggle({"hero_time": {"running": True}}, hero) == ("timer.pause", {"name": "hero_time"})
    with pytest.raises(IllegalAction, match="hero time timer is not running now"):
        toggle({}, hero)
    # a game over has no turn to time (the Timer button started a 2-minute timer after a win)
    over = {**view("over", {}), "outcome": {"status": "won"}}
    with pytest.raises(IllegalAction, match="the game is over: no turn to time"):
        resolve(Command("timer_toggle"), over, Hooks(), "button", table=INCREDIBLES)


def test_done_names_its_player_and_read_dice_calls_the_camera_only_when_dice_are_due():
    assert resolve(Command("done", player="violet"), view(), Hooks(), "button").player == "violet"
    reads = []
    hooks = Hooks(read_dice=lambda: reads.append(1))
    assert resolve(Command("read_dice"), view(dice=ROLL), hooks, "button", table=INCREDIBLES) is None
    assert reads == [1]
    with pytest.raises(IllegalAction, match="no camera is wired"):
        resolve(Command("read_dice"), view(dice=ROLL), Hooks(), "button", table=INCREDIBLES)
    with pytest.raises(IllegalAction, match="Read dice button means nothing now .move phase."):
        resolve(Command("read_dice"), view("move"), hooks, "button", table=INCREDIBLES)
    assert reads == [1]


def test_no_game_refuses_every_command_but_undo():
    assert resolve(Command("undo"), {}, Hooks(), "button").type == "undo"
    with pytest.raises(IllegalAction, match="no game is in progress"):
        resolve(Command("next"), {}, Hooks(), "button")


def test_token_actions_fill_in_where_the_token_lies():
    from hardware.settings import token_settings

    tokens = token_settings({"tags": {"beef": {"piece": "KO marker", "player": "storm",
                                               "place": {"type": "ko", "data": {"at": ["{space}", "{piece}"]}}}}})
    place = tokens.tags["BEEF"].place
    action = resolve(place, view(), Hooks(), "token", {"space": "7", "piece": "KO marker"})
    assert (action.type, action.player, action.data, action.source) == (
        "ko", "storm", {"at": ["7", "KO marker"]}, "token")
    # a tag with no action of its own: the game's map (a mover's token on a space is that move)
    move = resolve(Command("token"), view("move"), Hooks(), "token", {"space": "4", "piece": "violet"},
                   table=INCREDIBLES)
    assert (move.type, move.player, move.data) == ("move", "violet", {"to": "4"})
    deploy = resolve(Command("token"), view("play"), Hooks(), "token", {"space": "2", "piece": "storm"},
                     table=XMEN)
    assert (deploy.type, deploy.data) == ("deploy", {"zone": 2, "heroes": ["storm"]})
    with pytest.raises(IllegalAction, match="a token on a reader means nothing now .roll phase."):
        resolve(Command("token"), view("roll"), Hooks(), "token", {"space": "4", "piece": "violet"},
                table=INCREDIBLES)
