"""Invincible: The Hero-Building Game (rulebook: shared/seeds/002_97f3d96307004ec9.txt).

The companion tracks the board and the procedure: the episode track, villains placed and acting,
civilians endangered, heroes' bags, pulls, crashes, confidence and training, the end checks and
the score, and the hero-time timer. It cannot know every card's text, so card effects are
generic actions the players apply when a card says so; the rules the rulebook gives about them
(range, HQ, caps, immunity) are enforced.
"""

from __future__ import annotations

import random
from typing import Any

from companion.actions import Action
from companion.errors import BadAction
from companion.games import invincible_board as board
from companion.games import invincible_campaign as campaign
from companion.games import invincible_data
from companion.games import invincible_effects as effects
from companion.games import invincible_hero_phase as hero_phase
from companion.games import invincible_training as training
from companion.games import invincible_villains as villains
from companion.games.base import Game, field, forbid
from companion.games.invincible_sampler import sample_action, sample_options
from companion.games.invincible_scoring import score
from companion.games.invincible_setup import setup as build
from companion.games.invincible_state import (
    HERO_TIMER, R_CHALLENGE, R_HERO, R_HERO_TIME, R_PLACE, R_ROUND, R_SCORING, R_VILLAIN,
    R_WINLOSE, HeroState, InvincibleState, clone,
)
from companion.timers import Timer, check_timer_action

EFFECTS = ("damage", "rescue", "thwart", "heal", "move", "gain_cube", "strengthen", "confidence",
           "endanger", "hurt", "minions", "bubble", "clear_power")
HERO_EFFECTS = ("damage", "rescue", "thwart", "heal", "move", "gain_cube", "strengthen",
                "confidence", "hurt", "bubble", "clear_power")


class Invincible(Game):
    name = "invincible"
    title = "Invincible: The Hero-Building Game"
    dice_set = "invincible"
    actions = {
        "advance": "Advance the episode: move the round marker and resolve its icons "
                   "(data.villains: ids of villain cards drawn from a physical deck, in order).",
        "pull": "Pull cubes from your bag (data.hero; data.cubes: the colours pulled, omit for a "
                "virtual pull).",
        "defiance": "Flip your defiance token: set the pull aside, pull fresh cubes (data.cubes).",
        "play": "Play a ready cube on a power (data.hero, data.cube, data.power = slot, "
                "optional data.symbol).",
        "drop": "Drop a ready cube (data.hero, data.cube).",
        "resolved": "The power being resolved (or the effect the companion asked for) is done.",
        "done": "Your Hero Phase (or Training Phase) is over (data.hero; in training optional "
                "data.ultimates refill cards from the Ultimate deck).",
        "crash_roll": "Crash damage at the end of the Hero Phase (data.hero, data.faces: the crash "
                      "die faces rolled in order, omit for a virtual roll).",
        "damage": "Deal damage (data.hero, data.amount, data.target = villain id or \"minion\", "
                  "data.zone, data.ranged, data.explosive, data.power = slot for strengthen).",
        "rescue": "Rescue a civilian in a zone, or a crashed hero (data.crashed, data.face of the "
                  "rescue die; data.auto for a no-roll rescue).",
        "thwart": "Place a thwart token on a villain (data.villain) or ability (data.ability).",
        "heal": "Heal a hero (data.hero, data.target, data.amount).",
        "move": "Move a hero to an adjacent zone or to/from HQ (data.hero, data.to, data.target).",
        "gain_cube": "Gain a cube from the supply into your bag (data.hero, data.colour).",
        "strengthen": "Put a strengthen token on one of your damaging powers (data.hero, data.power).",
        "confidence": "Bonus confidence a card grants (data.hero, data.amount).",
        "endanger": "Endanger civilians (data.zone, data.count).",
        "bubble": "Atom Eve gives her bubble token to a hero (data.hero, data.target).",
        "clear_power": "Clean Slate: a power's cubes go back to the bag (data.hero, data.power).",
        "hurt": "A hero takes damage a card deals (data.hero, data.amount).",
        "minions": "Place (data.count > 0) or remove (< 0) minions in a zone (data.zone).",
        "learn": "Learn a power from hand (data.hero, data.card, data.slot; Ultimates: the slot of "
                 "the Super Power above).",
        "punch": "Discard a card to take Learn By Punching (data.hero, data.discard, data.slot).",
        "train_cube": "Discard a power from hand to gain a cube of its colour (data.hero, "
                      "data.discard, data.colour).",
        "discard_power": "Discard a learned power (data.hero, data.slot).",
        "arrange": "Swap the powers of two slots (data.hero, data.slots = [a, b]).",
        "reveal": "Reveal the event card (data.card: the card drawn from a physical deck).",
        "choose": "Answer the companion's question (data.zone or data.villain).",
        "roll": "Roll the rescue die for a random zone (data.face, omit for a virtual roll).",
        "use_helper": "Spend a helper card (data.helper); apply its effect with the actions above.",
        "episode_bonus": "The episode's bonus scoring condition is met (data.met: true/false).",
        "declare_win": "The episode's win condition (which the companion cannot check) is met.",
        "timer.pause": "Pause hero time (data.name = \"hero_time\").",
        "timer.resume": "Resume hero time.",
        "timer.add": "Add (or take away) seconds of hero time (data.seconds).",
        "timer.expire": "Hero time has run out (sent by the session's clock).",
        "timer.start": "Hero time starts by itself with each Hero Phase (refused).",
        "timer.cancel": "Hero time is a setup option (refused).",
    }

    def __init__(self, components_dir=None):
        super().__init__(components_dir)
        self.data = invincible_data.load(components_dir)

    @staticmethod
    def evolve(state: Any) -> Any:
        return clone(state)

    # -- setup ------------------------------------------------------------------------------------

    def prepare_options(self, options: dict[str, Any], history: list[dict[str, Any]]) -> dict[str, Any]:
        # A campaign named only by its id continues from the results the journal holds.
        camp = options.get("campaign")
        if isinstance(camp, dict) and "id" in camp and "history" not in camp:
            records = campaign.history_from_games(history, camp["id"])
            options = {**options, "campaign": {**camp, "history": records}}
        return options

    def setup(self, options: dict[str, Any], rng: random.Random) -> InvincibleState:
        return build(self.data, options, rng)

    def sample_options(self, rng: random.Random) -> dict[str, Any]:
        return sample_options(self.data, rng)

    def sample_action(self, state: InvincibleState, rng: random.Random) -> Action:
        return sample_action(self, state, rng)

    # -- reading the state ------------------------------------------------------------------------

    def outcome(self, s: InvincibleState) -> dict[str, Any]:
        sc = score(self.data, s)
        if s.result is None:
            return {"status": "playing", "score": sc["total"], "score_items": sc["items"]}
        out = dict(s.result)
        out.update(score=sc["total"], score_items=sc["items"], rule_scoring=R_SCORING)
        if s.campaign is not None:
            out["campaign"] = campaign.record(s, sc["total"])
        return out

    def timers(self, s: InvincibleState) -> dict[str, Timer]:
        return {HERO_TIMER: s.timer} if s.timer is not None else {}

    def components(self) -> dict[str, Any]:
        return self.data.describe()

    def dice(self) -> dict[str, tuple[str, ...]]:
        from companion.games.invincible_view import crash_die, rescue_die
        return {d.set: d.sides for d in (rescue_die(self.data), crash_die(self.data))}

    def expect(self, s: InvincibleState) -> dict[str, Any]:
        from companion.games.invincible_view import expect
        return expect(self, s)

    def reminders(self, s: InvincibleState) -> list[dict[str, str]]:
        from companion.games.invincible_view import reminders
        return reminders(self, s)

    def to_json(self, s: InvincibleState) -> dict[str, Any]:
        from companion.games.invincible_view import to_json
        return to_json(self, s)

    def invariants(self, s: InvincibleState) -> list[str]:
        from companion.games.invincible_view import invariants
        return invariants(self, s)

    # -- moves ------------------------------------------------------------------------------------

    def apply(self, state: InvincibleState, action: Action, rng: random.Random) -> InvincibleState:
        self.check_type(action)
        if not isinstance(action.data, dict):
            raise BadAction("data must be a JSON object")
        if action.type.startswith("timer."):
            return self._timer(state, action)
        if state.result is not None:
            raise forbid(f"the game is over ({state.result['status']}: {state.result['reason']})",
                         R_WINLOSE)
        s = self.evolve(state)
        now = action.at if action.at is not None else 0.0
        self._dispatch(s, action, rng, now)
        board.check_end(self.data, s)
        if s.result is not None:
            self._finish(s, rng, now)
        return s

    def _dispatch(self, s: InvincibleState, action: Action, rng, now: float) -> None:
        d, kind, data = self.data, action.type, action.data
        if kind == "use_helper":
            helper = field(data, "helper", str, kind)
            if helper not in s.helpers:
                raise forbid(f"the team holds no unused helper {helper!r} (held: "
                             f"{', '.join(s.helpers) or 'none'})", R_CHALLENGE)
            contingency = s.pending is not None and s.pending["kind"] == "contingency"
            if d.helpers[helper].cancel_abilities:
                if not (contingency and s.pending["helper"] == helper):
                    raise forbid(f"{d.helpers[helper].name} is spent right after an event card "
                                 "is revealed", "Card Clarifications")
                villains.cancel(d, s, action.data.get("cancel"))
            s.helpers.remove(helper)
            s.helpers_used.append(helper)
            s.say(f"The team uses {d.helpers[helper].name}: {d.helpers[helper].text}")
            if d.helpers[helper].cancel_abilities:
                s.pending = None
                villains.run(d, s, rng, now)
            return
        if kind == "episode_bonus":
            s.episode_bonus = field(data, "met", bool, kind, True)
            s.say("Episode bonus " + ("claimed." if s.episode_bonus else "withdrawn."))
            return
        if kind == "declare_win":
            if d.episodes[s.episode].win["kind"] != "declare":
                raise forbid("this episode's win condition is checked by the companion "
                             f"({d.episodes[s.episode].win_text})", R_WINLOSE)
            s.declared = True
            return
        pending = s.pending
        if pending is not None:
            self._answer(s, action, rng, now)
            return
        if kind in EFFECTS:
            if s.phase not in ("hero", "hero_end"):
                raise forbid(f"{kind} is a card effect: apply it in the Hero Phase, or when the "
                             "companion asks for an effect it cannot apply itself", R_HERO)
            self._effect(s, action, rng, self._hero(s, action, kind in HERO_EFFECTS))
            return
        if kind == "advance":
            if s.phase != "advance":
                raise forbid(f"the episode advances at the start of a round (now: {s.phase})",
                             R_ROUND)
            wanted = field(data, "villains", list, kind, [])
            for vid in wanted:
                if not isinstance(vid, str) or vid not in d.villains:
                    raise BadAction(f"advance: {vid!r} is not a villain card")
            villains.advance(d, s, rng, now, self._check_wanted(s, wanted))
            return
        if kind == "reveal":
            if s.phase != "villain":
                raise forbid(f"the event card is revealed in the Villain Phase (now: {s.phase})",
                             R_VILLAIN)
            card = field(data, "card", str, kind, None)
            if card is not None and card not in (s.decks["event"] or s.discards["event"]):
                raise forbid(f"{card!r} is not in the event deck", R_VILLAIN)
            villains.reveal(d, s, rng, now, card)
            return
        if kind == "resolved":
            hero = self._hero(s, action, False)
            if s.resolving is None:
                raise forbid("nothing is waiting to be resolved", R_HERO)
            hero_phase.resolved(d, s, hero, now)
            return
        if kind == "done":
            hero = self._hero(s, action, True)
            if s.phase == "training":
                training.finish(d, s, hero, data.get("ultimates"), rng, data.get("drawn"))
            else:
                hero_phase.done(d, s, hero, now)
            return
        if kind == "crash_roll":
            hero_phase.crash_roll(d, s, self._hero(s, action, True), data.get("faces"), rng)
            return
        if kind in ("pull", "defiance"):
            cubes = data.get("cubes")
            fn = hero_phase.pull if kind == "pull" else hero_phase.defiance
            fn(d, s, self._hero(s, action, True), cubes, rng, now)
            return
        if kind == "play":
            hero_phase.play(d, s, self._hero(s, action, True), field(data, "cube", str, kind),
                            field(data, "power", str, kind), data.get("symbol"), rng)
            return
        if kind == "drop":
            hero_phase.drop(d, s, self._hero(s, action, True), field(data, "cube", str, kind))
            return
        if kind == "learn":
            training.learn(d, s, self._hero(s, action, True), field(data, "card", str, kind),
                           field(data, "slot", str, kind))
            return
        if kind == "punch":
            training.punch(d, s, self._hero(s, action, True), field(data, "discard", str, kind),
                           field(data, "slot", str, kind))
            return
        if kind == "train_cube":
            training.gain_cube(d, s, self._hero(s, action, True),
                               field(data, "discard", str, kind), data.get("colour"))
            return
        if kind == "discard_power":
            training.discard_power(d, s, self._hero(s, action, True), field(data, "slot", str, kind))
            return
        if kind == "arrange":
            slots = field(data, "slots", list, kind)
            if len(slots) != 2:
                raise BadAction("arrange: data.slots names two slots")
            training.arrange(d, s, self._hero(s, action, True), slots[0], slots[1])
            return
        raise forbid(f"{kind} answers a question the companion is not asking now", R_ROUND)

    def _check_wanted(self, s: InvincibleState, wanted: list[str]) -> list[str]:
        for vid in wanted:
            level = self.data.villains[vid].level
            if vid not in s.decks[f"villain{level}"] and not (
                    not s.decks[f"villain{level}"] and vid in s.discards[f"villain{level}"]):
                raise forbid(f"{self.data.villains[vid].name} is not in the Level {level} villain "
                             "deck", R_PLACE)
        return wanted

    def _answer(self, s: InvincibleState, action: Action, rng, now: float) -> None:
        """The run is waiting on the players: a choice, a die, or an effect to apply by hand."""
        d, p, kind = self.data, s.pending, action.type
        if p["kind"] == "contingency":
            if kind != "resolved":
                raise forbid(f"waiting for: {p['prompt']}", p["rule"])
        elif p["kind"] == "manual":
            if kind in EFFECTS:
                self._effect(s, action, rng, self._hero(s, action, kind in HERO_EFFECTS))
                return
            if kind != "resolved":
                raise forbid(f"waiting for: {p['prompt']}", p["rule"])
        elif p["kind"] == "random_zone":
            if kind != "roll":
                raise forbid(f"waiting for: {p['prompt']}", p["rule"])
            face_id = field(action.data, "face", str, "roll", None)
            faces = {f.id: f for f in d.rescue_die}
            if face_id is not None and face_id not in faces:
                raise BadAction(f"roll: {face_id!r} is not a rescue die face ({', '.join(faces)})")
            face = faces[face_id] if face_id else rng.choice(d.rescue_die)
            s.say(f"The rescue die picks the {face.zone} zone ({face.id}).")
            villains.push(s, {**p["task"], "zone": face.zone})
        else:
            if kind != "choose":
                raise forbid(f"waiting for: {p['prompt']}", p["rule"])
            key = "villain" if p["kind"] == "discard" else "zone"
            choice = field(action.data, key, str, "choose")
            if choice not in p["options"]:
                raise forbid(f"choose one of {', '.join(p['options'])}", p["rule"])
            if p["kind"] == "zone":
                villains.arrive(d, s, p["villain"], choice)
            elif p["kind"] == "discard":
                board.discard_from_play(d, s, choice)
                villains.push(s, {"do": "place", "villain": p["villain"]})
            else:
                villains.finish_move(d, s, p["villain"], choice)
        s.pending = None
        villains.run(d, s, rng, now)

    def _effect(self, s: InvincibleState, action: Action, rng, hero: HeroState | None) -> None:
        d, kind, data = self.data, action.type, action.data
        if kind == "endanger":
            effects.endanger(d, s, data)
        elif kind == "minions":
            effects.minions(d, s, data)
        elif kind == "rescue":
            effects.rescue(d, s, hero, data, rng)
        else:
            getattr(effects, kind)(d, s, hero, data)

    def _hero(self, s: InvincibleState, action: Action, required: bool) -> HeroState | None:
        key = action.data.get("hero", action.player)
        if key is None:
            if not required:
                return None
            raise BadAction(f"{action.type} needs data.hero (one of "
                            f"{', '.join(h.id for h in s.heroes)})")
        for h in s.heroes:
            if key == h.id or (isinstance(key, str) and key.lower() == h.name.lower()):
                return h
        # a player's own name names their hero, unless they play two (solo)
        mine = [h for h in s.heroes if isinstance(key, str) and key.lower() == h.player.lower()]
        if len(mine) == 1:
            return mine[0]
        raise BadAction(f"{action.type}: {key!r} is not a hero in this game "
                        f"({', '.join(h.id for h in s.heroes)})")

    def _finish(self, s: InvincibleState, rng, now: float) -> None:
        s.phase, s.pending, s.queue, s.resolving = "over", None, [], None
        if s.timer is not None and s.timer.running:
            s.timer = s.timer.pause(now)
        if s.campaign is not None and s.result["status"] == "lost":
            s.helper_gained = campaign.helper_for_loss(self.data, s, rng)
        s.say(("Victory! " if s.result["status"] == "won" else "Defeat: ") + s.result["reason"] + ".")

    # -- the hero-time timer ----------------------------------------------------------------------

    def _timer(self, state: InvincibleState, action: Action) -> InvincibleState:
        name = action.data.get("name")
        if state.timer is None or name != HERO_TIMER:
            raise BadAction(f"{action.type}: this game's timer is {HERO_TIMER!r}"
                            + ("" if state.timer else " (hero time is off)"))
        kind = action.type[6:]
        if kind in ("start", "cancel"):
            raise forbid("hero time starts by itself with each Hero Phase and is switched on or "
                         "off at setup", R_HERO_TIME)
        s = self.evolve(state)
        now = action.at if action.at is not None else 0.0
        t = s.timer
        if kind == "pause":
            s.timer = t.pause(now)
        elif kind == "resume":
            if t.expired or s.phase != "hero":
                raise forbid("hero time runs only during the Hero Phase", R_HERO_TIME)
            s.timer = t.resume(now)
        elif kind == "add":
            s.timer = t.add(check_timer_action(action, HERO_TIMER)["seconds"])
        elif kind == "expire":
            if not t.running:
                raise forbid("hero time is not running", R_HERO_TIME)
            if t.remaining(now) > 0.5:
                raise forbid(f"hero time still has {t.remaining(now):.0f} s left", R_HERO_TIME)
            hero_phase.expire(self.data, s, now)
            if s.result is not None:
                self._finish(s, random.Random(0), now)
        return s

