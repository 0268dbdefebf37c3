"""What the table sees of Beacon: expect, with the die to roll as a DiceRequest."""

from companion.dice import Dice, DiceRequest

from .state import BeaconState


def die(data) -> Dice:
    sides = tuple(f.id for f in data.die)
    meanings = {f.id: "a storm: the table blows a climber down" if f.storm
                else f"climb {f.steps}" for f in data.die}
    return Dice("beacon", "beacon-die", tuple(dict.fromkeys(sides)), sides,
                meanings=meanings, field="face", single=True)


def expect(s: BeaconState, actions: list[str]) -> dict:
    if s.phase == "over":
        return {"phase": "over", "actions": [], "prompt": f"{s.winner} lit the beacon."}
    out = {"phase": s.phase, "player": s.player, "actions": actions}
    if s.phase == "roll":
        roll = DiceRequest((die(s.data),), action="roll", player=s.player, purpose="climb")
        out.update(prompt=f"{s.player}: roll the die.", dice=[roll.to_json()])
    else:
        out.update(prompt="A storm! Choose whom it blows one step down.", choices=s.players)
    return out
