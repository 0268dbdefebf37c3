"""Step 4: recovery at Headquarters, and the seriously wounded's one roll to survive."""

from __future__ import annotations

from companion.games.xmen.data import XMenData
from companion.games.xmen.state import Hero, XMenState


def removal(s: XMenState, hero_id: str, faces: list[str]) -> int:
    """Hit chips a recovery roll removes.

    "For every X-Men rolled, remove one Hit Chip. For every Marvel rolled, remove two Hit Chips.
    Evil Mutant and blank rolls have no effect at Headquarters." A recovery ability (Wolverine's
    Regeneration) changes what each face removes.
    """
    per = dict(s.data.points)
    for a in s.data.characters[hero_id].abilities_of("recovery", s.advanced):
        per = {"xmen": a.params["xmen"], "marvel": a.params["marvel"]}
    return sum(n * faces.count(f) for f, n in per.items())


def on_picture(data: XMenData, hero: Hero) -> int:
    """Hit chips beyond the X symbols, on the character's picture."""
    return max(0, hero.hits - data.characters[hero.id].durability)


def recover(s: XMenState, hero_id: str, faces: list[str]) -> bool:
    """Apply the current team's recovery roll; False when a seriously wounded character is lost."""
    data = s.data
    team = s.own_team(s.turn)
    hero = team.hero(hero_id)
    card = data.characters[hero_id]
    removed = removal(s, hero_id, faces)
    hero.acted = True
    picture = on_picture(data, hero)
    if picture:
        if removed < picture:
            # "If the character attempts to recover and fails, ... the character's Power Stat Card
            # is placed at the bottom of the X-Men Power Stat Card deck."
            team.heroes.remove(hero)
            s.own("stat_deck").append(hero_id)
            s.log.append(f"{card.name} removes {removed} of {picture} chips on the picture "
                         f"and is lost: the card goes to the bottom of the Power Stat deck.")
            return False
        # "If the character's recovery is successful, first remove all the Hit Chips on the
        # character's picture." Whether the rest of the roll also clears X symbols is an option.
        hero.hits -= picture
        rest = removed - picture if s.options.get("serious_remainder", "carry") == "carry" else 0
        hero.hits = max(0, hero.hits - rest)
        s.log.append(f"{card.name} survives the serious wound; {hero.hits} hits remain.")
        return True
    hero.hits = max(0, hero.hits - removed)
    s.log.append(f"{card.name} recovers {removed}; {hero.hits} hits remain.")
    return True
