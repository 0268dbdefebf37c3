"""Setup: options checked, the battlefield, the decks by episode and difficulty, supplies, helper
and challenge cards, heroes with their boards, bags and starting hands."""

from __future__ import annotations

import random
from typing import Any

from companion.errors import SetupError
from companion.games.base import check_option_names
from companion.games.invincible import campaign as campaign_mod, experimental
from companion.games.invincible.data import BASIC_SLOTS, COLOURS, DIFFICULTIES, InvincibleData
from companion.games.invincible.state import HeroState, InvincibleState, Played, ZoneState
from companion.schema import shown
from companion.timers import Timer

OPTIONS = {"box", "heroes", "players", "solo", "episode", "difficulty", "hero_time", "helpers",
           "challenges", "campaign", "stack", "unconfirmed", "learn_by_punching", "self_damage",
           "hero_time_controls"}
# 'Learn By Punching is always available as a fallback: instead of learning a power from your
# hand, you may discard a card ...': "instead" (a hero does one or the other in a Training Phase,
# the literal reading, which the session records for every new game) or "also". A game whose
# options lack it began before the reading and keeps "also", so it replays as it was played.
PUNCH_READINGS = ("instead", "also")
# A hero's own damage from a power (Power Conduit): 'When a power offers multiple effects, you
# may do them in any order': "any_order" (a step the hero takes before or after the card's
# other effects, the literal reading, recorded for every new game) or "at_fill" (taken as the
# power fills). A game whose options lack it began before the reading and keeps "at_fill".
SELF_DAMAGE_READINGS = ("any_order", "at_fill")
# Hero time is 'a 10-minute timer at the start of each Hero Phase': "hero_phase" (it is paused,
# resumed and given more time only while its Hero Phase runs, recorded for every new game) or
# "any_time" (pausing and adding time were accepted in any phase, and time added outside the
# Hero Phase was lost with the next phase's fresh timer). A game whose options lack it began
# before and keeps "any_time", so a pause its journal holds in a Villain Phase replays.
HERO_TIME_CONTROLS = ("hero_phase", "any_time")


def setup(d: InvincibleData, options: dict[str, Any], rng: random.Random) -> InvincibleState:
    """The first state of a game with ``options``, playing with the component data ``d``."""
    o = _options(d, options)
    heroes, solo, episode, difficulty, progress = (o["heroes"], o["solo"], o["episode"],
                                                   o["difficulty"], o["progress"])
    ep = d.episodes[episode]
    # 'Use the 2-player health values on villains and the 2-player side of the episode card.'
    count = len(heroes)
    decks = _decks(d, ep, difficulty, rng, options.get("stack"))
    level_decks = {f"villain{n}": sorted(set(decks[f"villain{n}"])) for n in (1, 2, 3)}
    supply = {c: d.cubes[c] - d.bag[c] * count for c in COLOURS}
    if any(v < 0 for v in supply.values()):
        raise SetupError("the cube supply cannot fill every hero's bag")
    full = not ep.fixed_order
    # 'The 6 red cubes belong to Rex Splode's "Fire Up" signature power in the full game'
    supply["red"] = d.cubes["red"] if full and any(h["id"] == "rex-splode" for h in heroes) else 0
    zones = [ZoneState(z, d.safety, d.danger, villains=[None] * d.villain_slots) for z in d.zones]
    state = InvincibleState(
        episode=episode, difficulty=difficulty, solo=solo, hero_count=count,
        track=[list(space) for space in ep.track(count)],
        heroes=[_hero(d, h, full and ep.signature) for h in heroes], zones=zones,
        decks=decks, discards={k: [] for k in decks}, supply=supply, level_decks=level_decks,
        helpers=list(o["helpers"]), helpers_taken=[] if progress else list(o["helpers"]),
        challenges=o["challenges"], punch_left=count, data=d,
        punch_instead=o["learn_by_punching"] == "instead",
        self_damage_any_order=o["self_damage"] == "any_order",
        hero_time_in_phase=o["hero_time_controls"] == "hero_phase",
    )
    if progress:
        state.campaign = {"id": o["campaign"].get("id"), "attempt": progress["attempt"],
                          "helpers": list(progress["helpers"]), "total_before": progress["total"],
                          "results": progress["results"]}
    _deal(d, state, full)
    state.experimental = experimental.set_aside(d, state.heroes)
    seconds = _hero_time(d, options.get("hero_time"))
    if seconds is not None:
        state.hero_time = seconds
        state.timer = Timer("hero_time", "Hero time", seconds, warn=float(d.hero_time_warn))
    state.say(f"Episode {episode}: {ep.name} ({difficulty}"
              + (", solo" if solo else f", {count} heroes") + ").")
    state.say("Advance the episode to begin round 1.")
    return state


def _options(d: InvincibleData, options: Any) -> dict[str, Any]:
    """The options checked: heroes, solo, episode, difficulty, helpers, challenges and the
    campaign's progress so far."""
    check_option_names(options, OPTIONS)
    if "players" in options:
        # the CLI's --players (and other games' habit): the heroes, one per player
        if "heroes" in options:
            raise SetupError("give heroes or players, not both")
        options = {**options, "heroes": options["players"]}
    solo = options.get("solo", False)
    if not isinstance(solo, bool):
        raise SetupError("solo is true or false")
    heroes = _heroes(d, options.get("heroes"), solo)
    camp = options.get("campaign")
    progress = None
    if camp is not None:
        if not isinstance(camp, dict):
            raise SetupError("campaign is {\"id\": ..., \"history\": [earlier records]}")
        progress = campaign_mod.progress(d, camp.get("history", []))
        if progress["finished"]:
            raise SetupError("this campaign has played all seven episodes: start a new one")
        if options.get("helpers"):
            raise SetupError("helpers: skip this step in Campaign Mode (it determines helper "
                             "cards on its own)")
    episode = options.get("episode", progress["episode"] if progress else 1)
    if type(episode) is not int or episode not in d.episodes:     # not a bool, not a list
        raise SetupError(f"episode is one of {', '.join(map(str, sorted(d.episodes)))}")
    if progress and episode != progress["episode"]:
        raise SetupError(f"the campaign is at episode {progress['episode']} (attempt "
                         f"{progress['attempt']}), not episode {episode}")
    difficulty = options.get("difficulty", "normal")
    if not isinstance(difficulty, str) or difficulty not in DIFFICULTIES:
        raise SetupError(f"difficulty is one of {', '.join(DIFFICULTIES)}")
    punch = options.get("learn_by_punching", "also")
    if punch not in PUNCH_READINGS:
        raise SetupError("learn_by_punching is \"instead\" (Learn By Punching or powers from the "
                         "hand in a Training Phase) or \"also\" (both)")
    self_damage = options.get("self_damage", "at_fill")
    if self_damage not in SELF_DAMAGE_READINGS:
        raise SetupError("self_damage is \"any_order\" (a hero's own damage from a power is taken "
                         "before or after its other effects) or \"at_fill\" (as it fills)")
    controls = options.get("hero_time_controls", "any_time")
    if controls not in HERO_TIME_CONTROLS:
        raise SetupError("hero_time_controls is \"hero_phase\" (hero time is paused, resumed and "
                         "given more time only in its Hero Phase) or \"any_time\"")
    helpers = _cards(options.get("helpers", []), d.helpers, "helpers")
    challenges = _cards(options.get("challenges", []), d.challenges, "challenges")
    if progress:
        listed = d.episodes[episode].challenge
        if challenges and (not progress["challenge_allowed"] or challenges != [listed]):
            raise SetupError(
                "challenges: in Campaign Mode you may only attempt the episode's listed challenge "
                f"({d.challenges[listed].name}), and only if you won the previous episode")
        helpers = list(progress["helpers"])
    return {"heroes": heroes, "solo": solo, "episode": episode, "difficulty": difficulty,
            "helpers": helpers, "challenges": challenges, "progress": progress, "campaign": camp,
            "learn_by_punching": punch, "self_damage": self_damage,
            "hero_time_controls": controls}


def _hero(d: InvincibleData, h: dict[str, str], signature: bool) -> HeroState:
    """A hero's board: the four basic powers, the starter, from Episode 2 the signature power."""
    hero = d.heroes[h["id"]]
    slots = {b: b for b in BASIC_SLOTS}
    slots["starter"] = hero.starter
    if signature:
        # 'starting with Episode 2, each hero also unlocks a signature power'
        slots["signature"] = hero.signature
    powers = {slot: Played(p, p, [None] * len(d.powers[p].symbols)) for slot, p in slots.items()}
    return HeroState(hero.id, hero.name, h["name"], hero.start_zone, hero.max_health,
                     dict(d.bag), powers)


def _deal(d: InvincibleData, state: InvincibleState, full: bool) -> None:
    """'each hero draws four cards from the Super Power deck and one from the Ultimate Power
    deck. In Episode 1, each hero instead draws five cards'; solo: 'a single seven-card hand'."""
    if state.solo:
        state.shared_hand = _draw(state, "super", 5 if full else d.limits["solo_hand"])
        state.shared_hand += _draw(state, "ultimate", 2 if full else 0)
        return
    for h in state.heroes:
        h.hand = _draw(state, "super", d.limits["hand"] - (1 if full else 0))
        h.hand += _draw(state, "ultimate", 1 if full else 0)


def _heroes(d: InvincibleData, value: Any, solo: bool) -> list[dict[str, str]]:
    names = ", ".join(d.heroes)
    if not isinstance(value, list) or not 2 <= len(value) <= 4:
        raise SetupError(f"heroes: list 2 to 4 heroes ({names}); solo mode plays two")
    if solo and len(value) != 2:
        raise SetupError("solo: 'one person controls two heroes': list exactly two heroes")
    out, seen = [], set()
    for i, h in enumerate(value):
        hero_id, name = (h, None) if isinstance(h, str) else (
            (h.get("hero"), h.get("name")) if isinstance(h, dict) else (None, None))
        if not isinstance(hero_id, str) or hero_id not in d.heroes:
            raise SetupError(f"heroes[{i}]: {hero_id!r} is not a hero; choose from {names}")
        if hero_id in seen:
            raise SetupError(f"heroes[{i}]: {hero_id} is already taken")
        if name is not None and (not isinstance(name, str) or not shown(name) or len(name) > 40):
            raise SetupError(f"heroes[{i}].name must be a short non-empty string")
        seen.add(hero_id)
        out.append({"id": hero_id, "name": name or ("Solo player" if solo else d.heroes[hero_id].name)})
    return out


def _cards(value: Any, known: dict, option: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SetupError(f"{option} is a list of card ids ({', '.join(known)})")
    if len(value) > 2:
        raise SetupError(f"{option}: 'your team may choose up to two'")
    if len(set(value)) != len(value) or not set(value) <= set(known):
        raise SetupError(f"{option}: unknown or repeated card; choose from {', '.join(known)}")
    return list(value)


def _hero_time(d: InvincibleData, value: Any) -> float | None:
    if value is None or value is False:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        if value not in d.hero_time_minutes:
            raise SetupError(f"hero_time is {', '.join(map(str, d.hero_time_minutes))} minutes or "
                             "{\"seconds\": n}")
        return float(value * 60)
    if isinstance(value, dict) and set(value) == {"seconds"}:
        seconds = value["seconds"]
        if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and 1 <= seconds <= 3600:
            return float(seconds)
    raise SetupError("hero_time is 5, 10 or 15 (minutes) or {\"seconds\": 1 to 3600}")


def _decks(d, ep, difficulty, rng, stack) -> dict[str, list[str]]:
    decks: dict[str, list[str]] = {}
    supers = [f"{p.id}#{i + 1}" for p in d.powers.values() if p.kind == "super"
              for i in range(p.copies)]
    ultimates = [f"{p.id}#{i + 1}" for p in d.powers.values() if p.kind == "ultimate"
                 for i in range(p.copies)]
    if ep.fixed_order:
        # 'do not shuffle them, since they're ordered to match the examples in this book'
        for n in (1, 2):
            decks[f"villain{n}"] = list(ep.orders.get(f"villain{n}", ()))
        decks["villain3"] = []
        decks["event"] = list(ep.orders.get("event", ()))
        order = ep.orders.get("super")
        decks["super"] = ([c for pid in order for c in supers if c.split("#")[0] == pid]
                          if order else supers)
        decks["ultimate"] = []  # 'Leave the Level III Villain deck and the Ultimate Power deck in the box'
    else:
        for n in (1, 2, 3):
            pile = [v.id for v in d.villains.values() if v.level == n]
            if n == 3 and ep.number == 2:
                pile = []  # 'Level III Villains aren't used in Episode 2'
            rng.shuffle(pile)
            decks[f"villain{n}"] = pile
        by_level = {n: [e.id for e in d.events.values() if e.level == n] for n in (1, 2, 3)}
        for pile in by_level.values():
            rng.shuffle(pile)
        need = d.difficulty[difficulty]
        if len(by_level[1]) < need["level1"] or len(by_level[2]) < need["level2"]:
            raise SetupError(f"the event data has too few Level I/II events for {difficulty}")
        # 'Start with a face-down stack of all the Level III events, then deal a number of
        # Level II events on top based on difficulty, then a number of Level I events on top'
        decks["event"] = by_level[1][:need["level1"]] + by_level[2][:need["level2"]] + by_level[3]
        rng.shuffle(supers)
        rng.shuffle(ultimates)
        decks["super"], decks["ultimate"] = supers, ultimates
        boss = d.bosses.get(ep.boss)
        if boss is not None and boss.events:
            # the boss's own event deck (Omni-Man's 12 cards), shuffled (assumed)
            decks["boss"] = [e.id for e in d.boss_events.values() if e.boss == boss.id]
            rng.shuffle(decks["boss"])
    if stack is not None:
        if not isinstance(stack, dict):
            raise SetupError("stack maps a deck name to the cards on top, in order")
        for name, top in stack.items():
            if name not in decks:
                raise SetupError(f"stack: no deck called {name!r} ({', '.join(decks)})")
            if not isinstance(top, list) or not all(isinstance(c, str) for c in top):
                raise SetupError(f"stack.{name} is a list of card ids")
            pile = decks[name]
            picked = []
            for c in top:
                match = c if c in pile else next((x for x in pile if x.split("#")[0] == c), None)
                if match is None or match in picked:
                    raise SetupError(f"stack.{name}: {c!r} is not (or no longer) in that deck")
                picked.append(match)
            decks[name] = picked + [c for c in pile if c not in picked]
    for name in ("villain1", "event"):
        if not decks[name]:
            raise SetupError(f"the {name} deck is empty: check the episode data")
    return decks


def _draw(s: InvincibleState, deck: str, n: int) -> list[str]:
    out = s.decks[deck][:n]
    del s.decks[deck][:n]
    return out
