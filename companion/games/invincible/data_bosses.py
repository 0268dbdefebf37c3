"""The bosses of the episode file (``[[bosses]]``) and their own event decks (``[[boss_events]]``),
read and checked. The rulebook prints only that "the Machine Head and Omni-Man bosses ... appear
in episodes 4 and 7", that they are enemies, and that the box holds "12 Omni-Man Event cards";
every value of these tables is the owner's to correct (bosses.py applies them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from companion.components import Reader

ABILITIES = ("power", "strike")


@dataclass(frozen=True)
class Boss:
    id: str
    name: str
    zone: str
    health: tuple[int, int, int]
    arrive: tuple[dict, ...] = ()
    power: tuple[dict, ...] = ()
    strike: tuple[dict, ...] = ()
    acts: tuple[str, ...] = ()     # its abilities each Villain Phase (without an event deck)
    events: bool = False           # it has its own event deck ([[boss_events]])
    text: str = ""

    def health_for(self, heroes: int) -> int:
        """As a villain's: 'separate totals for 2-, 3-, and 4-hero games' (assumed for bosses)."""
        return self.health[min(max(heroes, 2), 4) - 2]


@dataclass(frozen=True)
class BossEvent:
    id: str
    name: str
    boss: str
    use: tuple[str, ...]           # the boss's abilities the card calls, in order
    effects: tuple[dict, ...]      # then these, at the boss's zone unless one names a zone


def boss_data(r: Reader, zones: tuple[str, ...], effect_list: Callable,
              note: Callable[[Reader, str], None]) -> tuple[dict[str, Boss], dict[str, BossEvent]]:
    """``effect_list(reader, key, zones)`` checks a list of effects as the villains' are."""
    bosses: dict[str, Boss] = {}
    for b in r.tables("bosses") if "bosses" in r.data else []:
        health = b.get("health", list)
        if len(health) != 3 or not all(isinstance(x, int) and not isinstance(x, bool) and x > 0
                                       for x in health):
            raise b.fail("health", "needs three positive totals: 2, 3 and 4 heroes")
        acts = tuple(b.strings("acts", []))
        if not set(acts) <= set(ABILITIES):
            raise b.fail("acts", "lists \"power\" and/or \"strike\"")
        boss = Boss(b.get("id", str), b.get("name", str), b.one_of("zone", set(zones)),
                    tuple(health), effect_list(b, "arrive", zones), effect_list(b, "power", zones),
                    effect_list(b, "strike", zones), acts, b.get("events", bool, False),
                    b.get("text", str, ""))
        if boss.id in bosses:
            raise b.fail("id", f"boss {boss.id!r} appears twice")
        bosses[boss.id] = boss
        note(b, f"boss {boss.id}")
    events: dict[str, BossEvent] = {}
    for e in r.tables("boss_events") if "boss_events" in r.data else []:
        use = tuple(e.strings("use", []))
        if not set(use) <= set(ABILITIES):
            raise e.fail("use", "lists \"power\" and/or \"strike\"")
        event = BossEvent(e.get("id", str), e.get("name", str), e.one_of("boss", set(bosses)),
                          use, effect_list(e, "effects", zones))
        if not event.use and not event.effects:
            raise e.fail("effects", "the card does nothing: give use and/or effects")
        if event.id in events:
            raise e.fail("id", f"boss event {event.id!r} appears twice")
        events[event.id] = event
        note(e, f"boss event {event.id}")
    for boss in bosses.values():
        if boss.events and not any(e.boss == boss.id for e in events.values()):
            raise r.fail("boss_events", f"{boss.id} has events = true but no card names it")
    return bosses, events
