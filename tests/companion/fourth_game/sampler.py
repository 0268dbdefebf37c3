"""Random valid data for each Beacon move (the conformance test plays thousands of games)."""


def roll(s, rng) -> dict:
    return {"face": rng.choice(s.data.die).id}


def blow(s, rng) -> dict:
    return {"player": rng.choice(s.players)}
