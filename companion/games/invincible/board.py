"""The battlefield: zones, civilians, villains, minions, hero damage and KOs, the end checks.

Every function that changes something takes a fork (see state.py) and changes it through the
fork's own copies of what it touches; the rest only read.
"""

from __future__ import annotations

import functools

from companion.games.invincible import campaign
from companion.games.invincible.data import InvincibleData
from companion.games.invincible.state import (
    HQ, R_ENDANGER, R_KO, R_WINLOSE, InvincibleState, VillainState, ZoneState,
)


def counted(n: int, thing: str) -> str:
    """'1 minion', '3 minions', '2 black cubes': the table's words, not '1 minion(s)'."""
    return f"{n} {thing}" + ("" if n == 1 else "s")


def clock_words(seconds: float) -> str:
    """'10 minutes', '40 seconds', '1 minute 30 seconds': a custom hero time read aloud, not
    '0.666667 minutes'."""
    whole = round(seconds)
    m, sec = divmod(whole, 60)
    return " ".join(counted(n, unit) for n, unit in ((m, "minute"), (sec, "second"))
                    if n) or counted(0, "second")


def minions(n: int) -> str:
    return counted(n, "minion")


def adjacent(d: InvincibleData, a: str, b: str) -> bool:
    """'the two outer zones are not adjacent to each other'."""
    return adjacent_in(d.zones, a, b)


def adjacent_in(zones: tuple[str, ...], a: str, b: str) -> bool:
    if a == HQ or b == HQ:
        return False
    return abs(zones.index(a) - zones.index(b)) == 1


@functools.lru_cache(maxsize=256)
def neighbours(zones: tuple[str, ...], zone: str) -> tuple[str, ...]:
    """The zones adjacent to ``zone``, in the episode's order (read-only: a power's move and
    Telekimeanness's options ask it for every hero, every time they are listed)."""
    return tuple(z for z in zones if adjacent_in(zones, zone, z))


def in_range(d: InvincibleData, here: str, there: str, ranged: bool) -> bool:
    """'Unless a power says otherwise, it can only affect your own zone'; Ranged adds the
    adjacent ones; 'While at Guardians HQ, you can't target anything in any zone'."""
    if here == HQ:
        return False
    return here == there or (ranged and adjacent(d, here, there))


def endanger(s: InvincibleState, zone: str, count: int, why: str) -> None:
    """'move that many civilians in its zone from safety to danger. If there aren't enough
    civilians in safety to cover the full amount, kill the difference from the danger area'."""
    z = s.own_zone(zone)
    moved = min(count, z.safety)
    z.safety -= moved
    z.danger += moved
    killed = min(count - moved, z.danger)
    z.danger -= killed
    z.dead += killed
    if count:
        s.say(f"{why}: {count} endangered in the {zone} zone ({moved} to danger"
              + (f", {killed} killed" if killed else "") + ").")
    check_end(s)


def hurt_hero(s: InvincibleState, hero_id: str, amount: int, why: str) -> None:
    """'A hero is KOed once they've accumulated 10 damage tokens. Move them to Guardians HQ,
    remove all their damage tokens, and place a KO marker'."""
    if amount <= 0:
        return
    h = s.own_hero(hero_id)
    h.damage += amount
    s.say(f"{h.name} takes {amount} damage ({why}).")
    if h.damage >= h.max_health and h.immortal:
        # Immortality: 'from then on it protects you from being KOed even on a later round'
        h.damage = h.max_health
        s.say(f"{h.name} is not KOed: Immortality.")
    elif h.damage >= h.max_health:
        h.damage = 0
        h.zone = HQ
        s.kos += 1
        s.say(f"{h.name} is KOed and moved to Guardians HQ (KO {s.kos}).")
        check_end(s)


def enemy_damage(s: InvincibleState, zone: str, amount: int, why: str,
                 no_hero_endanger: int | None = None, villain: bool = False) -> None:
    """'Whenever an enemy deals damage, it hits every hero standing in its zone. If no hero is
    present, it endangers that many civilians instead.'"""
    targets = [h.id for h in s.heroes if h.zone == zone]
    if not targets:
        endanger(s, zone, amount if no_hero_endanger is None else no_hero_endanger,
                 f"No hero faces {why}")
        return
    for hero_id in targets:
        if villain and s.bubble == hero_id and amount > 0:
            # Bubble Up: 'The bubble only blocks damage from villains ... Once it blocks damage,
            # returning it is not optional.'
            s.bubble = None
            s.say(f"Eve's bubble blocks {why} for {s.hero(hero_id).name} and returns to Bubble Up.")
            continue
        if s.result is None:
            hurt_hero(s, hero_id, amount, why)


def villains_in_play(s: InvincibleState) -> list[tuple[str, int, VillainState]]:
    """Villains left to right: zones in order, slots in order."""
    return [(z.name, i, v) for z in s.zones for i, v in enumerate(z.villains) if v is not None]


def find_villain(s: InvincibleState, villain_id: str) -> tuple[ZoneState, int] | None:
    for z in s.zones:
        for i, v in enumerate(z.villains):
            if v is not None and v.id == villain_id:
                return z, i
    return None


def enemies_in(z: ZoneState) -> bool:
    """A minion or a villain stands in the zone."""
    return bool(z.minions) or any(v is not None for v in z.villains)


def damageable(s: InvincibleState, zone: str, villain_id: str) -> bool:
    """Multi-Paul: 'This villain can't be damaged while any minion shares its zone'; Hurl Into
    Space: the targeted villain 'can't be damaged'."""
    return villain_id not in s.hurled and not (s.data.villains[villain_id].immune_with_minions and s.zone(zone).minions)


def damage_villain(s: InvincibleState, villain_id: str, amount: int, why: str) -> None:
    """'Once a villain has taken damage equal to its starting health, it is defeated and
    discarded'."""
    if villain_id in s.hurled:
        # Hurl Into Space: the targeted villain '... can't be damaged'
        s.say(f"{s.data.villains[villain_id].name} is hurled into space: no damage ({why}).")
        return
    v = s.own_villain(villain_id)
    v.damage += amount
    s.say(f"{v.name} takes {amount} damage ({why}): {max(0, v.health - v.damage)} health left.")
    if v.damage >= v.health:
        _take_out(s, villain_id)
        s.defeated.append(v.id)
        s.say(f"{v.name} is defeated.")
        check_end(s)


def add_minions(s: InvincibleState, zone: str, count: int) -> None:
    """'Each zone can hold at most three minions at a time; ignore any minions that would
    exceed that cap.'"""
    z = s.own_zone(zone)
    placed = max(0, min(count, s.data.minion_cap - z.minions))
    z.minions += placed
    if count:
        s.say(f"{minions(placed)} placed in the {zone} zone"
              + (f" ({count - placed} ignored: at most {s.data.minion_cap})" if placed < count else "")
              + ".")


def new_villain(s: InvincibleState, villain_id: str) -> VillainState:
    v = s.data.villains[villain_id]
    return VillainState(v.id, v.name, v.level, v.health_for(s.hero_count), thwart_spaces=v.thwart)


def open_slot(z: ZoneState) -> int | None:
    """'Place the new villain in the leftmost open card slot of that zone.'"""
    for i, v in enumerate(z.villains):
        if v is None:
            return i
    return None


def placement_zones(s: InvincibleState, intended: str) -> list[str]:
    """Where a villain can go: its own zone if a slot is open; else the nearest zones with room
    ('side zones default toward the center', 'the center lets the players pick'); empty when
    there is no room anywhere."""
    if open_slot(s.zone(intended)) is not None:
        return [intended]
    zones = s.data.zones
    i = zones.index(intended)
    for distance in (1, 2):
        near = [zones[j] for j in (i - distance, i + distance) if 0 <= j < len(zones)]
        room = [z for z in near if open_slot(s.zone(z)) is not None]
        if room:
            return room
    return []


def weakest(s: InvincibleState) -> list[str]:
    """'discard the villain with the least remaining health' (ties: the players choose)."""
    rest = {v.id: v.health - v.damage for _, _, v in villains_in_play(s)}
    low = min(rest.values())
    return [vid for vid, left in rest.items() if left == low]


def place(s: InvincibleState, villain_id: str, zone: str) -> None:
    z = s.own_zone(zone)
    slot = open_slot(z)
    z.villains[slot] = new_villain(s, villain_id)
    s.say(f"{s.data.villains[villain_id].name} arrives in the {zone} zone (slot {slot + 1}).")


def relocate(s: InvincibleState, villain_id: str, target: str) -> None:
    """The villain leaves its slot for the leftmost open slot of ``target``."""
    zone, slot = find_villain(s, villain_id)
    v = zone.villains[slot]
    s.own_zone(zone.name).villains[slot] = None
    t = s.own_zone(target)
    t.villains[open_slot(t)] = v


def discard_from_play(s: InvincibleState, villain_id: str) -> None:
    v = _take_out(s, villain_id)
    s.say(f"{v.name} is discarded to make room (least remaining health).")


def _take_out(s: InvincibleState, villain_id: str) -> VillainState:
    """The villain leaves play for its level's discard pile."""
    zone, slot = find_villain(s, villain_id)
    v = zone.villains[slot]
    s.own_zone(zone.name).villains[slot] = None
    s.own_discards(f"villain{v.level}").append(v.id)
    return v


def refilled(s: InvincibleState, name: str, rng, sentence: str) -> list[str]:
    """The fork's own deck ``name``; when it is empty, its discard pile shuffled into it."""
    deck = s.own_deck(name)
    if not deck:
        pile = s.own_discards(name)
        deck.extend(pile)
        pile.clear()
        rng.shuffle(deck)
        s.say(sentence)
    return deck


def draw_villain(s: InvincibleState, level: int, rng, wanted: str | None = None) -> str:
    """'If you ever run out of a given villain level entirely, reshuffle that level's discard
    pile into a new deck.'"""
    deck = refilled(s, f"villain{level}", rng,
                    f"The Level {level} villain deck ran out: its discard pile is reshuffled.")
    if not deck:
        return ""
    if wanted is not None:
        deck.remove(wanted)
        return wanted
    return deck.pop(0)


def dead_total(s: InvincibleState) -> int:
    return sum(z.dead for z in s.zones)


def check_end(s: InvincibleState) -> None:
    """The instant end conditions: 'You lose immediately if ...' / 'you win the instant it's
    satisfied'. The first one met ends the game."""
    if s.result is not None:
        return
    limits = s.data.limits
    dead, gone = 0, None
    for z in s.zones:
        dead += z.dead
        if gone is None and z.safety + z.danger == 0:
            gone = z.name
    if s.kos >= limits["kos"]:
        s.result = {"status": "lost", "reason": f"the heroes were KOed a {_nth(limits['kos'])} time",
                    "rule": R_KO}
    elif dead >= limits["dead"]:
        s.result = {"status": "lost", "reason": f"{limits['dead']} civilians have died",
                    "rule": R_WINLOSE}
    elif gone is not None:
        s.result = {"status": "lost", "reason": f"every civilian in the {gone} zone has died",
                    "rule": R_ENDANGER}
    elif won(s):
        s.result = {"status": "won", "reason": s.data.episodes[s.episode].win_text or "episode won",
                    "rule": R_WINLOSE}


def finish(s: InvincibleState, rng, now: float) -> None:
    """The game is over: nothing waits any more, hero time stops, and a lost campaign game gains
    the team a helper."""
    s.phase, s.pending, s.queue, s.resolutions = "over", None, [], {}
    if s.timer is not None and s.timer.running:
        s.timer = s.timer.pause(now)
    if s.campaign is not None and s.result["status"] == "lost":
        s.helper_gained = campaign.helper_for_loss(s, rng)
    s.say(("Victory! " if s.result["status"] == "won" else "Defeat: ") + s.result["reason"].rstrip(".") + ".")


def won(s: InvincibleState) -> bool:
    win = s.data.episodes[s.episode].win
    if win["kind"] == "defeat_boss":
        return s.boss is not None and s.boss.defeated
    if win["kind"] == "defeat_level":
        needed = s.level_decks[f"villain{win['level']}"]
        return bool(needed) and len(s.defeated) >= len(needed) and set(needed) <= set(s.defeated)
    return s.declared


def _nth(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")
