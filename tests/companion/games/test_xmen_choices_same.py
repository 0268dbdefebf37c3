"""The short ways X-Men Alert's choices take (issue 17) answer what the long ways answer: where
the random player and expect ask who may deploy to a zone, ``battle.deployers`` says what
``battle.heroes_problem`` says of each free character alone.

Rulebook: "If you have one or more characters at Headquarters and they have fewer hits than
their Durability number, they can move to a Battle Zone Deployment Area." and "only characters
with flight can join a teammate already fighting" (Step 2, Characters Joining A Battle Already
In Progress, Advanced).
"""

import pytest

from companion.games import Catalog
from companion.games.xmen import battle
from xmen_helpers import random_states


@pytest.fixture(scope="module")
def engine():
    return Catalog()("xmen-alert")


def test_deployers_are_the_characters_heroes_problem_lets_deploy_alone(engine):
    asked = started = fewer = 0
    for s, _, _ in random_states(engine, games=12, first=7000):
        if s.phase != "play":
            continue
        team = s.current
        free = battle.deployable(s.data, team)
        for z in range(len(s.zones)):
            if s.zones[z].kind is None:
                continue
            long_way = [h for h in free
                        if battle.heroes_problem(s, team, z, [h], None, free) is None]
            short = battle.deployers(s, team, z, free)
            assert short == long_way, (z, free)
            assert short is not free          # the random player may keep it as its own
            asked += 1
            side = s.zones[z].side(team.player)
            started += side is not None and side.started
            fewer += len(short) < len(free)
    # the rule that narrows it (flight to join a battle in progress) is met both ways
    assert asked > 1000 and started > 100 and fewer > 20, (asked, started, fewer)

