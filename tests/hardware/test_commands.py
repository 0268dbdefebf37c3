"""Generic table commands read against a view: the same buttons serve every game. The views here
are plain dicts shaped like Session.view(), for the games whose actions Incredibles lacks."""

import pytest

from companion.errors import IllegalAction
from hardware.commands import Hooks, resolve
from hardware.settings import Command


def view(actions, timers=None, prompt="Storm: roll the dice."):
    return {"expect": {"actions": actions, "prompt": prompt}, "timers": timers or {}}


def test_confirm_takes_the_first_confirm_type_action_expected():
    action = resolve(Command("confirm"), view(["recruit", "end_turn"]), Hooks(), "button")
    assert (action.type, action.source) == ("end_turn", "button")


def test_confirm_asks_the_hook_first_and_says_why_when_nothing_waits():
    confirmed = []
    hooks = Hooks(confirm=lambda: confirmed.append(1) or True)
    assert resolve(Command("confirm"), view(["next"]), hooks, "button") is None and confirmed
    with pytest.raises(IllegalAction, match="nothing to confirm now: Storm: roll the dice."):
        resolve(Command("confirm"), view(["roll"]), Hooks(confirm=lambda: False), "button")


def test_draw_card_uses_the_games_own_draw_action():
    assert resolve(Command("draw_card"), view(["draw_villain", "fight"]), Hooks(), "button").type == "draw_villain"
    with pytest.raises(IllegalAction, match="no card is to be drawn now"):
        resolve(Command("draw_card"), view(["roll"]), Hooks(), "button")


def test_timer_toggle_follows_the_turn_timers_state():
    def toggle(timers):
        a = resolve(Command("timer_toggle", seconds=45), view([], timers), Hooks(), "button")
        return a.type, a.data

    assert toggle({}) == ("timer.start", {"name": "turn", "seconds": 45})
    assert toggle({"turn": {"running": True, "expired": False}}) == ("timer.pause", {"name": "turn"})
    assert toggle({"turn": {"running": False, "expired": False}}) == ("timer.resume", {"name": "turn"})
    assert toggle({"turn": {"running": False, "expired": True}})[0] == "timer.start"


def test_done_names_its_player_and_read_dice_calls_the_camera():
    assert resolve(Command("done", player="violet"), view([]), Hooks(), "button").player == "violet"
    reads = []
    assert resolve(Command("read_dice"), view([]), Hooks(read_dice=lambda: reads.append(1)), "button") is None
    assert reads == [1]
    with pytest.raises(IllegalAction, match="no camera is wired"):
        resolve(Command("read_dice"), view([]), Hooks(), "button")


def test_token_actions_fill_in_where_the_token_lies():
    from hardware.settings import token_settings

    tokens = token_settings({"tags": {"beef": {"piece": "KO marker", "player": "storm",
                                               "place": {"type": "ko", "data": {"at": ["{space}", "{piece}"]}}}}})
    place = tokens.tags["BEEF"].place
    action = resolve(place, view([]), Hooks(), "token", {"space": "7", "piece": "KO marker"})
    assert (action.type, action.player, action.data, action.source) == (
        "ko", "storm", {"at": ["7", "KO marker"]}, "token")
