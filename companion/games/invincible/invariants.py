"""What every Invincible state must satisfy: civilians and cubes add up, every villain card is
somewhere exactly once, nobody stands nowhere, the phase agrees with the result and the timer.
The conformance test checks it after every action of thousands of random games."""

from __future__ import annotations

from companion.games.invincible import board, bosses, experimental
from companion.games.invincible.data import CUBES
from companion.games.invincible.state import HQ, InvincibleState

CUBE_SET = frozenset(CUBES)


def invariants(s: InvincibleState) -> list[str]:
    """What is wrong with a state (empty when it is a legal one)."""
    return [*_zones(s), *_villains(s), *_heroes(s), *_table(s), *bosses.problems(s),
            *experimental.wrong(s)]


def _zones(s: InvincibleState) -> list[str]:
    d, bad = s.data, []
    for z in s.zones:
        if z.safety + z.danger + z.dead != d.safety + d.danger or min(z.safety, z.danger, z.dead) < 0:
            bad.append(f"the {z.name} zone's civilians do not add up to ten")
        if not 0 <= z.minions <= d.minion_cap:
            bad.append(f"the {z.name} zone holds {z.minions} minions")
        if len(z.villains) != d.villain_slots:
            bad.append(f"the {z.name} zone has {len(z.villains)} villain slots")
    return bad


def _villains(s: InvincibleState) -> list[str]:
    d, bad = s.data, []
    placed = board.villains_in_play(s)
    by_level: dict[int, list[str]] = {1: [], 2: [], 3: []}
    for _, _, v in placed:
        by_level[v.level].append(v.id)
        if v.damage >= v.health or not 0 <= v.thwart <= v.thwart_spaces:
            bad.append(f"{v.name} has impossible damage or thwart tokens")
    # a revealed villain waits in the queue or on the players' choice before it is placed
    waiting = [t["villain"] for t in s.queue if t["do"] == "place"]
    if s.pending and s.pending["kind"] in ("zone", "discard"):
        waiting.append(s.pending["villain"])
    for vid in waiting:
        by_level[d.villains[vid].level].append(vid)
    for level in (1, 2, 3):
        key = f"villain{level}"
        held = s.decks[key] + s.discards[key] + by_level[level]
        if len(held) != len(s.level_decks[key]) or set(held) != set(s.level_decks[key]):
            bad.append(f"Level {level} villains were lost or duplicated")
    return bad


def _heroes(s: InvincibleState) -> list[str]:
    d, bad = s.data, []
    powers = d.powers
    reset = s.phase in ("advance", "villain")
    zones_hq = (*d.zones, HQ)
    for h in s.heroes:
        # an immortal hero's damage stops at the maximum (board.hurt_hero)
        if not 0 <= h.damage < h.max_health + h.immortal:
            bad.append(f"{h.name} has {h.damage} damage but is not KOed")
        if min(h.bag.values()) < 0 or not h.bag.keys() <= CUBE_SET:
            bad.append(f"{h.name}'s bag is impossible")
        black = h.bag.get("black", 0) + h.ready.count("black") + h.dropped.count("black")
        out = bool(h.ready or h.dropped)
        for slot, p in h.powers.items():
            cubes = p.cubes
            black += cubes.count("black")
            open_ = cubes.count(None)
            out = out or open_ < len(cubes)
            if len(cubes) != len(powers[p.power].symbols) or p.filled == (open_ > 0):
                bad.append(f"{h.name}'s {slot} power has the wrong symbols or filled mark")
        if black != d.bag["black"]:
            bad.append(f"{h.name}'s black cubes do not add up")
        if h.zone not in zones_hq:
            bad.append(f"{h.name} stands nowhere")
        if s.phase == "hero" and h.crashed and h.can_pull:
            bad.append(f"{h.name} crashed but may still pull")
        if reset and out:
            bad.append(f"{h.name} still has cubes out of the bag after the reset")
    return bad


def _table(s: InvincibleState) -> list[str]:
    d, bad = s.data, []
    events = s.decks["event"] + s.discards["event"]
    if len(set(events)) != len(events):
        bad.append("an event card is in the deck twice")
    if any(v < 0 for v in s.supply.values()):
        bad.append("the cube supply went negative")
    if s.kos > d.limits["kos"] or (s.kos >= d.limits["kos"] and s.result is None):
        bad.append("three KOs but the game goes on")
    if board.dead_total(s) >= d.limits["dead"] and s.result is None:
        bad.append("fifteen dead but the game goes on")
    if (s.result is None) == (s.phase == "over"):
        bad.append("the phase and the result disagree")
    if s.resolving is not None and s.phase not in ("hero", "hero_end"):
        bad.append("a power resolves outside the Hero Phase")
    if s.phase == "hero_end" and s.resolving is None:
        bad.append("hero_end without a power to finish")
    if s.timer is not None and s.timer.running and s.phase != "hero":
        bad.append("hero time runs outside the Hero Phase")
    if not 0 <= s.space < len(s.track):
        bad.append("the round marker is off the track")
    return bad
