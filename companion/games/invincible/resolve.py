"""A power resolving: 'the moment a cube covers a power's last remaining symbol, you resolve that
power immediately'. Its printed effects (the card's data, data_powers.py) become steps; the
table answers only what a step leaves open (``effect``: which enemy, zone, civilian, hero), or
skips one the card lets it skip (``decline``); the engine applies the card's amount. The power is
resolved when no step is left: there is no separate "resolved" that could skip an effect.

'Filling a power means using its text, dealing whatever damage it shows'; 'When a power offers
multiple effects, you may do them in any order and skip any you don't want, unless the card says
otherwise'. A step nothing can answer now (no enemy in range, nobody in danger) waits while
another step could change that (Flying Charge may move first); once no step has an answer, the
rest do nothing and the power is resolved.
"""

from __future__ import annotations

from companion.errors import BadAction
from companion.games.base import forbid
from companion.games.invincible import (
    board, card_powers, card_rules, choices, effects, gain_play, moves_pull,
)
from companion.games.invincible.needs import Need, TableMove, hero_named
from companion.games.invincible.state import (
    R_CLARIFY, R_HERO, R_POWERS, HeroState, InvincibleState,
)
from companion.games.move_table import Play

R_FIRE_UP = R_CLARIFY


def open_power(s: InvincibleState, h: HeroState, slot: str, now: float) -> None:
    """``h`` (the fork's own) has just filled the power in ``slot``: its effects become steps."""
    played = h.powers[slot]
    power = s.data.powers[played.power]
    red = played.cubes.count("red")
    # Fire Up: 'any power filled using a red cube gets +1 to its damage, exactly as if a
    # strengthen token were applied'
    boost = played.strength + (1 if red else 0)
    # Convenient Creation: only the effect the civilians safe now allow is named
    others = card_rules.others_of_type(s, h, slot)
    hints = [card_rules.hint_now(e, others) for e in card_rules.at_fill(s, h, power)]
    steps, again = card_rules.steps(s, h, slot, boost)
    s.resolutions = {**s.resolutions, h.id: {
        "hero": h.id, "slot": slot, "power": power.id, "name": power.name,
        "effects": hints, "ranged": power.ranged, "ordered": power.ordered,
        "strength": boost, "confidence": power.confidence, "steps": steps, "again": again,
        "healed": 0}}
    s.say(f"{h.name} fills {power.name}" + (f": {'; '.join(hints)}." if hints else "."))
    if red:
        # 'Whenever a hero fills a power using red cubes, they take 1 damage per red cube used'
        board.hurt_hero(s, h.id, red, f"{power.name}'s red {'cube' if red == 1 else 'cubes'}")
    settle(s, h.id, now)


def open_helper(s: InvincibleState, h: HeroState, card, now: float) -> None:
    """The team has spent ``card``, a helper with effects, through ``h``: its effects become
    steps as a power's do, but 'helper cards aren't restricted to a hero's current zone — they can
    affect any zone' (``ranged``: ANYWHERE)."""
    steps = card_rules.effect_steps(h, card, card.effects, 0)
    hints = [e.hint for e in card.effects]
    s.resolutions = {**s.resolutions, h.id: {
        "hero": h.id, "slot": None, "power": f"helper:{card.id}", "name": card.name,
        "effects": hints, "ranged": effects.ANYWHERE, "ordered": card.ordered, "strength": 0,
        "confidence": 0, "steps": steps, "again": [], "healed": 0}}
    s.say(f"The team uses {card.name} through {h.name}: {'; '.join(hints)}.")
    settle(s, h.id, now)


def open_steps(s: InvincibleState, hero: str) -> list[int]:
    """The steps of ``hero``'s power the table may answer now (an ordered power: its next)."""
    return [i for i, _ in _open(s, hero)]


def open_options(s: InvincibleState, hero: str) -> dict[int, list]:
    """``open_steps`` with each step's options (the random player answers one of them)."""
    return dict(_open(s, hero))


def has_open(s: InvincibleState, hero: str) -> bool:
    """``open_steps`` is not empty: asked after every move while a power resolves, and the
    first open step is enough to know (each step's options are worked out in full)."""
    return next(_open(s, hero), None) is not None


def _open(s: InvincibleState, hero: str):
    """Each open step of ``hero``'s power with its options, one at a time."""
    r = s.resolutions[hero]
    h = s.hero(hero)
    steps = r["steps"]
    for i in (range(min(1, len(steps))) if r["ordered"] else range(len(steps))):
        if card_rules.open_now(steps, i):
            options = choices.options(s, h, steps[i], r["ranged"])
            if options:
                yield i, options


def answerable(s: InvincibleState) -> list[str]:
    """The heroes whose power resolving has an effect the table can answer now."""
    return [hero for hero in s.resolutions if has_open(s, hero)]


def settle(s: InvincibleState, hero: str, now: float) -> None:
    """Apply the steps that leave nothing to choose, drop those nothing can answer, and end the
    power once no step is left (then the Hero Phase may end)."""
    while hero in s.resolutions and s.result is None:
        r, h = s.resolutions[hero], s.hero(hero)
        steps = r["steps"]
        auto = _auto(s, hero, r)
        if auto is not None:
            _take(s, hero, auto)
            _apply(s, h, steps[auto], {}, None)
        elif steps and not has_open(s, hero):
            gone = [i for i, st in enumerate(steps) if st["kind"] != card_rules.REPEAT]
            s.say(f"{r['name']}: nothing in range for "
                  + ", ".join(steps[i]["hint"] for i in gone) + ".")
            _take(s, hero, *gone)
            for i in gone:
                if steps[i]["kind"] == gain_play.PLACE:
                    gain_play.forgo(s, steps[i])
        elif not steps:
            s.resolutions = {k: v for k, v in s.resolutions.items() if k != hero}
            s.say(f"{r['name']} is resolved.")
            if r.get("then"):
                # 'Resolve Defensive Mastery itself completely before resolving any power the
                # new cube might complete'
                who, slot = r["then"]
                open_power(s, s.hero(who), slot, now)
            elif s.phase == "hero_end":
                if not s.resolutions:
                    moves_pull.end_phase(s, now)
            else:
                moves_pull.maybe_end(s, now)
        else:
            return


def _auto(s: InvincibleState, hero: str, r: dict) -> int | None:
    """The first step that leaves nothing to choose and may be applied now. A hero's own damage
    (Power Conduit), under the "any_order" reading, waits while another step is open: 'you may do
    them in any order' (the hero may take it sooner by answering it)."""
    for i, st in enumerate(r["steps"]):
        if st["kind"] not in choices.AUTO or st["skip"] or (r["ordered"] and i != 0):
            continue
        if (st["kind"] == "hurt_self" and s.self_damage_any_order
                and any(j != i for j, _ in _open(s, hero))):
            continue
        return i
    return None


def settle_all(s: InvincibleState, now: float) -> None:
    """Hero time: another hero's move may have taken away (or brought) what a resolving power's
    effects could reach; each is settled again, so none waits on an effect nothing can take."""
    for hero in list(s.resolutions):
        settle(s, hero, now)


def _apply(s: InvincibleState, h: HeroState, step: dict, answer: dict, rng) -> None:
    """One step applied to the fork ``s``: the repeat and the gained cube's place here, every
    other kind by choices.py with its amount as it stands now (card_rules.bound)."""
    r = s.resolutions[h.id]
    kind = step["kind"]
    if kind == card_rules.REPEAT:
        s.say(f"{h.name} repeats {r['name']}.")
        s.resolutions = {**s.resolutions, h.id: {
            **r, "steps": [*r["steps"], *(dict(st) for st in r["again"])], "again": []}}
    elif kind == gain_play.PLACE:
        gain_play.place(s, h.id, step, answer["slot"])
    elif kind == "gain_cube" and step["play"]:
        gain_play.gain(s, h, step, answer)
    else:
        was = card_rules.damage_of(s) if kind == "heal" else None
        choices.apply(s, h, card_rules.bound(s, h, r, step), answer, r["ranged"], r["name"], rng)
        if was is not None and h.id in s.resolutions:
            r = s.resolutions[h.id]
            s.resolutions = {**s.resolutions, h.id: {
                **r, "healed": r.get("healed", 0) + card_rules.healed(was, s)}}


def _take(s: InvincibleState, hero: str, *indices: int) -> None:
    r = dict(s.resolutions[hero])
    r["steps"] = [st for i, st in enumerate(r["steps"]) if i not in indices]
    s.resolutions = {**s.resolutions, hero: r}


def _whose(s: InvincibleState, play: Play, what: str, heroes) -> dict:
    """The power resolving the action answers: the named hero's (data.hero, or the player's),
    else the first of ``heroes(s)`` (those the action could answer, asked only then)."""
    h = hero_named(s, play.args["hero"], play.player, what, required=False)
    if h is None:
        return s.resolutions[(heroes(s) or list(s.resolutions))[0]]
    if h.id not in s.resolutions:
        r = s.resolving
        raise forbid(f"{h.name} has no power resolving; {s.hero(r['hero']).name}'s {r['name']} "
                     "is: 'each power must fully resolve before the next begins'", R_POWERS)
    return s.resolutions[h.id]


def _step(s: InvincibleState, play: Play, what: str) -> tuple[HeroState, int, list]:
    """The hero, the step the action answers and that step's options."""
    r = _whose(s, play, what, answerable)
    i = play.args["step"]
    open_now = open_options(s, r["hero"])
    if i is None:
        if not open_now:
            raise forbid(f"{r['name']} has no effect left to answer", R_POWERS)
        # the first open step, or else the first the answer names in full (a standee put on a
        # zone's reader names a move, not a step); none: the first's refusal says what it takes
        h = s.hero(r["hero"])
        answer = {k: v for k, v in play.args.items() if v is not None and k not in ("hero", "step")}

        def names(j: int, whole: bool) -> bool:
            return any(choices.matches(r["steps"][j], answer, o, h) and (not whole or set(answer) <= set(o))
                       for o in open_now[j])
        first = next(iter(open_now))
        i = first if not answer or names(first, False) else next(
            (j for j in open_now if names(j, True)), first)
    if i >= len(r["steps"]):
        raise BadAction(f"{what}: data.step is 0 to {len(r['steps']) - 1} ({r['name']}: "
                        + "; ".join(st["hint"] for st in r["steps"]) + ")")
    if i not in open_now:
        st = r["steps"][i]
        why = ("it comes after everything else the power offers"
               if st["kind"] == card_rules.REPEAT else
               "its effects resolve in the printed order"
               if r["ordered"] or card_rules.waits(r["steps"], i) else
               "nothing in range can take it now")
        raise forbid(f"{r['name']}'s '{st['hint']}' cannot be applied now: {why}", R_POWERS)
    return s.hero(r["hero"]), i, open_now[i]


def _effect(state: InvincibleState, play: Play) -> InvincibleState:
    """Apply step ``data.step`` (omitted: the first open) with the table's choice."""
    h, i, allowed = _step(state, play, "effect")
    r = state.resolutions[h.id]
    step = r["steps"][i]
    answer = {k: v for k, v in play.args.items() if v is not None}
    s = state.fork()
    if not any(choices.matches(step, answer, o, h) for o in allowed):
        # the rule's own words where effects.py has them, else the choices the card leaves
        try:
            if step["kind"] not in choices.APPLY:
                choices.apply(s, h, step, answer, r["ranged"], r["name"], play.rng)
        except KeyError:
            pass    # a field the card needs is missing: the choices it leaves say which
        raise forbid(f"{r['name']}: '{step['hint']}' is open to: "
                     + "; ".join(_words(o) for o in allowed), R_POWERS)
    option = next(o for o in allowed if choices.matches(step, answer, o, h))
    _take(s, h.id, i)
    card_powers.chosen(s, h.id, step)
    _apply(s, h, step, {**option, "face": answer.get("face")}, play.rng)
    settle(s, h.id, _now(play))
    return s


def skippable(s: InvincibleState) -> list[str]:
    return [hero for hero, r in s.resolutions.items() if any(st["skip"] for st in r["steps"])]


def _decline(state: InvincibleState, play: Play) -> InvincibleState:
    """'skip any you don't want, unless the card says otherwise', or a printed 'may' declined."""
    r = _whose(state, play, "decline", skippable)
    skips = [i for i, st in enumerate(r["steps"]) if st["skip"]]
    i = play.args["step"] if play.args["step"] is not None else (skips or [0])[0]
    if i >= len(r["steps"]) or not r["steps"][i]["skip"]:
        raise forbid(f"{r['name']} has one effect and no 'may': 'Filling a power means using its "
                     "text, dealing whatever damage it shows'", R_POWERS)
    s = state.fork()
    s.say(f"{s.hero(r['hero']).name} skips {r['name']}'s '{r['steps'][i]['hint']}'.")
    _take(s, r["hero"], i)
    if r["steps"][i]["kind"] == gain_play.PLACE:
        gain_play.forgo(s, r["steps"][i])
    settle(s, r["hero"], _now(play))
    return s


def _words(option: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in option.items()) or "nothing to choose"


def _resolving(s: InvincibleState, h) -> bool:
    return bool(s.resolutions)


NOTHING = Need(_resolving, lambda s, h: "no power is resolving: play a power's last cube to "
                                        "resolve it", R_HERO)
EFFECT = TableMove(_effect, NOTHING, Need(
    lambda s, h: any(has_open(s, hero) for hero in s.resolutions),
    lambda s, h: "no effect is left to answer", R_POWERS))
DECLINE = TableMove(_decline, NOTHING, Need(
    lambda s, h: bool(skippable(s)),
    lambda s, h: f"{s.resolving['name']}'s effects may not be skipped: 'Filling a power means "
                 "using its text'", R_POWERS))


def _now(play: Play) -> float:
    return play.action.at if play.action.at is not None else 0.0
