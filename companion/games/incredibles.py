"""The Incredibles: Save the Day (rulebook: shared/seeds/000_ecc340ccf4c7d0ae.txt).

A turn: roll the movement die (an Alarm draws a card), move up to the roll, rescue Jack-Jack by
ending on his space, then try to fix the problem you stand on. Cards that need the players'
choice (where a displaced mover goes, which problem Frozone fixes) leave a pending choice.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from companion.actions import Action
from companion.errors import BadAction, IllegalAction, SetupError
from companion.games import incredibles_data
from companion.games.base import Game, forbid
from companion.games.base import field as data_field

LOG_LENGTH = 30


@dataclass
class Mover:
    hero: str
    name: str       # the player's name, or the hero's
    space: str


@dataclass
class Slot:
    card: str
    tile: str
    power: str
    face_up: bool


@dataclass
class IncrediblesState:
    movers: list[Mover]
    track: list[Slot | None]
    deck: list[str]                       # top first
    tiles: dict[str, str]                 # letter -> "problem" | "safe"
    jackjack: str | None                  # his die's space; None once rescued
    turn: int = 0
    round: int = 1
    phase: str = "roll"                   # roll | choose | move | fix | over
    roll: dict[str, Any] | None = None
    pending: dict[str, Any] | None = None
    discard: list[str] = field(default_factory=list)
    rubble: list[str] = field(default_factory=list)
    last_card: str | None = None
    too_late: Slot | None = None
    last_fix: dict[str, Any] | None = None
    log: list[str] = field(default_factory=list)


# Rulebook sections, named the way the rulebook's contents name them.
R_SETUP = "Set Up"
R_ROLL = "On Your Turn › 1. Roll the Movement Die"
R_ALARM = "On Your Turn › 2. If you roll an Alarm symbol"
R_MOVE = "On Your Turn › 3. Move your Mover"
R_FIX = "On Your Turn › 4. Try to fix a problem"
R_PROBLEM = "Card Types › Problem Cards"
R_ROAD = "Card Types › Road Destroyed Cards"
R_FROZONE = "Card Types › Frozone Cards"
R_JACKJACK = "Card Types › Jack-Jack Cards"
R_EDNA = "Card Types › Edna Cards"
R_EMPTY = "Card Types › IMPORTANT (the cards run out)"
R_END = "Ending the Game"


class Incredibles(Game):
    name = "incredibles"
    title = "The Incredibles: Save the Day"
    actions = {
        "roll": "Roll the movement die: data.face is the face rolled (omit it to roll a virtual die).",
        "move": "Move your mover: data.to is the space you end on (your own space to stay).",
        "fix": "Try to fix the problem you stand on: data.power is your power die's face, "
               "data.jackjack the Jack-Jack die's face when he is rescued (omit both to roll virtual dice).",
        "choose": "Answer a card's choice: data.space for a displaced mover, data.tile for Frozone.",
    }

    def __init__(self, components_dir=None):
        super().__init__(components_dir)
        self.data = incredibles_data.load(components_dir)

    # -- setup ------------------------------------------------------------------------------------

    def setup(self, options: dict[str, Any], rng: random.Random) -> IncrediblesState:
        d = self.data
        movers = self._players(options.get("players"))
        problems = [c.id for c in d.cards.values() if c.kind == "problem"]
        start = options.get("starting_problems")
        if start is None:
            start = rng.sample(problems, d.track_spaces)
        else:
            start = [self._card_id(x, "starting_problems", kind="problem") for x in _list(start, "starting_problems")]
            if len(start) != d.track_spaces or len(set(start)) != len(start):
                raise SetupError(f"starting_problems must name {d.track_spaces} different problem cards")
        rest = [c for c in d.cards if c not in start]
        stacked = options.get("deck")
        if stacked is None:
            rng.shuffle(rest)
            deck = rest
        else:
            top = [self._card_id(x, "deck") for x in _list(stacked, "deck")]
            if len(set(top)) != len(top) or set(top) & set(start):
                raise SetupError("deck: each card may appear once, and not among the starting problems")
            below = [c for c in rest if c not in top]
            rng.shuffle(below)
            deck = top + below
        tiles = {letter: "safe" for letter in d.tiles}
        track: list[Slot | None] = []
        # "Place the three starting Problem Cards face-up on the three spaces of the Problem Track"
        for card_id in start:
            card = d.cards[card_id]
            tiles[card.tile] = "problem"
            track.append(Slot(card.id, card.tile, card.power, True))
        state = IncrediblesState(movers=movers, track=track, deck=deck, tiles=tiles,
                                 jackjack=d.jackjack_start)
        state.log.append("Set up: starting problems " + ", ".join(s.tile for s in track)
                         + f"; Jack-Jack on space {d.jackjack_start}.")
        return state

    def _players(self, players: Any) -> list[Mover]:
        if not isinstance(players, list) or not 1 <= len(players) <= len(self.data.heroes):
            raise SetupError(f"players: give 1 to {len(self.data.heroes)} players, youngest first, "
                             "each a hero (" + ", ".join(h.name for h in self.data.heroes.values()) + ")")
        movers, seen = [], set()
        for i, p in enumerate(players):
            if isinstance(p, str):
                hero_key, name = p, None
            elif isinstance(p, dict) and isinstance(p.get("hero"), str):
                hero_key, name = p["hero"], p.get("name")
                if name is not None and (not isinstance(name, str) or not name.strip() or len(name) > 40):
                    raise SetupError(f"players[{i}].name must be a short non-empty string")
            else:
                raise SetupError(f"players[{i}] must be a hero name or {{\"name\": ..., \"hero\": ...}}")
            hero = self._hero(hero_key)
            if hero is None:
                raise SetupError(f"players[{i}]: unknown hero {hero_key!r}; choose from "
                                 + ", ".join(h.name for h in self.data.heroes.values()))
            if hero.id in seen:
                raise SetupError(f"players[{i}]: {hero.name} is already taken; each player chooses a different character")
            seen.add(hero.id)
            movers.append(Mover(hero.id, name or hero.name, self.data.start))
        return movers

    def _hero(self, key: str):
        norm = key.strip().lower().replace(".", "").replace(" ", "-")
        for hero in self.data.heroes.values():
            if norm in (hero.id, hero.name.lower().replace(".", "").replace(" ", "-")):
                return hero
        return None

    def _card_id(self, key: Any, option: str, kind: str | None = None) -> str:
        if not isinstance(key, str):
            raise SetupError(f"{option}: card names are strings")
        cards = self.data.cards
        card_id = key if key in cards else f"problem-{key}" if f"problem-{key}" in cards else None
        if card_id is None or (kind and cards[card_id].kind != kind):
            raise SetupError(f"{option}: {key!r} is not a {kind or 'known'} card")
        return card_id

    # -- reading the state ------------------------------------------------------------------------

    def outcome(self, s: IncrediblesState) -> dict[str, Any]:
        if s.too_late is not None and s.too_late.face_up:
            return {"status": "lost", "reason": f"problem {s.too_late.tile} reached \"Too Late!\"",
                    "rule": R_END}
        if s.jackjack is None and all(slot is None or not slot.face_up for slot in s.track):
            return {"status": "won", "reason": "every problem is fixed and Jack-Jack is rescued",
                    "rule": R_END}
        return {"status": "playing"}

    def expect(self, s: IncrediblesState) -> dict[str, Any]:
        if self.outcome(s)["status"] != "playing":
            return {"phase": "over", "actions": [], "prompt": "The game is over."}
        mover = s.movers[s.turn]
        out: dict[str, Any] = {"player": mover.hero, "player_name": mover.name,
                               "phase": s.phase, "round": s.round}
        if s.phase == "roll":
            out.update(actions=["roll"], prompt=f"{mover.name}: roll the Movement Die.",
                       dice=[{"die": "movement", "set": "incredibles-movement", "count": 1,
                              "action": "roll", "field": "face",
                              "faces": sorted({f.id for f in self.data.movement_die})}])
        elif s.phase == "choose":
            out.update(actions=["choose"], pending=s.pending, prompt=s.pending["prompt"])
        elif s.phase == "move":
            reach = self.reachable(s, mover.space, s.roll["move"])
            out.update(actions=["move"], reachable=reach,
                       prompt=f"{mover.name}: move up to {s.roll['move']} "
                              f"space{'s' if s.roll['move'] != 1 else ''} (or stay).")
        elif s.phase == "fix":
            slot = self._slot_for(s, mover.space)
            dice = [{"die": "power", "set": f"incredibles-power-{mover.hero}", "count": 1,
                     "action": "fix", "field": "power",
                     "faces": sorted(set(self.data.heroes[mover.hero].die))}]
            if s.jackjack is None:
                dice.append({"die": "jackjack", "set": "incredibles-jackjack", "count": 1,
                             "optional": True, "faces": sorted(set(self.data.jackjack_die))})
            out.update(actions=["fix"], dice=dice, problem={"tile": slot.tile, "power": slot.power},
                       prompt=f"{mover.name}: roll to fix problem {slot.tile} (needs {slot.power.title()}).")
        return out

    def reminders(self, s: IncrediblesState) -> list[dict[str, str]]:
        if self.outcome(s)["status"] != "playing":
            return []
        out = []
        if s.phase == "roll":
            out.append({"text": "Roll the Movement Die at the start of your turn, even if you do not plan to move.",
                        "rule": R_ROLL})
        if s.jackjack is not None:
            out.append({"text": f"Jack-Jack is on space {s.jackjack}: nobody may roll his die until "
                                "someone ends a move there.", "rule": R_MOVE})
        else:
            out.append({"text": "Jack-Jack is rescued: roll his die with your Power Die when you "
                                "try to fix a problem.", "rule": R_FIX})
        if not s.deck:
            out.append({"text": "The deck is empty: each Alarm slides every card on the Problem "
                                "Track one space right. Do not reshuffle.", "rule": R_EMPTY})
        last = s.track[-1] if len(s.track) == self.data.track_spaces else None
        if last is not None and last.face_up:
            out.append({"text": f"Problem {last.tile} ({last.power.title()}) is one slide from "
                                "\"Too Late!\": fix it before the next problem arrives.",
                        "rule": R_PROBLEM})
        if s.rubble:
            out.append({"text": "Rubble on space " + ", ".join(s.rubble) +
                                ": no moving onto or through it.", "rule": R_ROAD})
        return out

    def components(self) -> dict[str, Any]:
        return self.data.describe()

    def to_json(self, s: IncrediblesState) -> dict[str, Any]:
        out = super().to_json(s)
        out["deck_count"] = len(s.deck)
        del out["deck"]  # the order of the face-down deck is nobody's business
        out["last_card_info"] = self.data.cards[s.last_card].__dict__ if s.last_card else None
        return out

    # -- moves ------------------------------------------------------------------------------------

    def apply(self, state: IncrediblesState, action: Action, rng: random.Random) -> IncrediblesState:
        self.check_type(action)
        s = state
        mover = s.movers[s.turn]
        if action.type != "choose" and action.player is not None and action.player not in (mover.hero, mover.name):
            raise forbid(f"it is {mover.name}'s turn, not {action.player}'s", R_MOVE)
        expected = self.expect(s)["actions"]
        if action.type not in expected:
            raise forbid(f"{action.type} is not possible now: {self.expect(s)['prompt']}",
                         _rule_for_phase(s.phase))
        s = self.evolve(state)
        getattr(self, "_" + action.type)(s, action, rng)
        if self.outcome(s)["status"] != "playing":
            s.phase = "over"
            s.log.append("The city is saved! Everyone wins." if self.outcome(s)["status"] == "won"
                         else "Too late! The problem could not be fixed in time.")
        del s.log[:-LOG_LENGTH]
        return s

    def _roll(self, s: IncrediblesState, action: Action, rng: random.Random) -> None:
        faces = self.data.movement_die
        face_id = data_field(action.data, "face", str, "roll", None)
        if face_id is None:
            face = rng.choice(faces)
        else:
            face = next((f for f in faces if f.id == face_id.strip().lower()), None)
            if face is None:
                raise BadAction(f"roll: {face_id!r} is not a face of the movement die "
                                f"({', '.join(sorted({f.id for f in faces}))})")
        mover = s.movers[s.turn]
        s.roll = {"face": face.id, "move": face.move, "alarm": face.alarm}
        s.log.append(f"{mover.name} rolled {face.id}.")
        s.phase = "move"
        if face.alarm:
            self._alarm(s)
        self._stay_if_no_steps(s)

    def _stay_if_no_steps(self, s: IncrediblesState) -> None:
        # A roll of no spaces leaves nothing to decide: the mover ends its movement where it is.
        if s.phase == "move" and s.roll["move"] == 0 and self.outcome(s)["status"] == "playing":
            self._end_move(s, s.movers[s.turn].space)

    def _alarm(self, s: IncrediblesState) -> None:
        # "If the cards run out, each time the Alarm symbol is rolled, slide all the cards on the
        # Problem Track one space to the right. Do not shuffle or reuse discarded cards."
        if not s.deck:
            s.log.append("Alarm! The deck is empty: the Problem Track slides.")
            self._slide(s)
            s.last_card = None
            return
        card = self.data.cards[s.deck.pop(0)]
        s.last_card = card.id
        s.log.append(f"Alarm! Drew {card.title}.")
        getattr(self, "_card_" + card.kind)(s, card)

    def _slide(self, s: IncrediblesState) -> None:
        track = [None] + s.track
        while len(track) > self.data.track_spaces:
            off = track.pop()
            if off is None:
                continue
            if off.face_up:
                s.too_late = off       # "If a face-up Problem Card slides onto 'Too Late!', the game is over"
            else:
                s.discard.append(off.card)   # "...a face-down Problem Card ... discard it."
                s.log.append(f"Problem {off.tile} was fixed in time and is discarded.")
        s.track = track

    def _card_problem(self, s: IncrediblesState, card) -> None:
        s.tiles[card.tile] = "problem"
        self._slide(s)
        s.track[0] = Slot(card.id, card.tile, card.power, True)

    def _card_road_destroyed(self, s: IncrediblesState, card) -> None:
        s.discard.append(card.id)
        if card.space not in s.rubble:
            s.rubble.append(card.space)
        stranded = [m.hero for m in s.movers if m.space == card.space]
        if stranded:
            self._ask_displace(s, card.space, stranded)

    def _ask_displace(self, s: IncrediblesState, space: str, heroes: list[str]) -> None:
        options = [n for n in self.data.adjacency[space] if n not in s.rubble] or list(self.data.adjacency[space])
        hero = heroes[0]
        if len(options) == 1:
            self._mover(s, hero).space = options[0]
            s.log.append(f"{self._mover(s, hero).name} is moved off the rubble to {options[0]}.")
            if heroes[1:]:
                self._ask_displace(s, space, heroes[1:])
            return
        name = self._mover(s, hero).name
        s.pending = {"kind": "displace", "hero": hero, "from": space, "options": options,
                     "then": heroes[1:], "return_phase": s.phase if s.phase != "choose" else s.pending["return_phase"],
                     "prompt": f"Rubble fell on {name}'s space {space}: choose an adjacent space "
                               f"({', '.join(options)}).", "rule": R_ROAD}
        s.phase = "choose"

    def _card_frozone(self, s: IncrediblesState, card) -> None:
        s.discard.append(card.id)
        matches = [slot.tile for slot in s.track if slot is not None and slot.face_up and slot.power == card.power]
        if not matches:
            # "If there are no problems with a matching Power symbol, the Frozone Card is discarded with no effect."
            s.log.append("Frozone finds no matching problem: no effect.")
        elif len(matches) == 1:
            self._fixed(s, matches[0], "Frozone")
        else:
            s.pending = {"kind": "frozone", "power": card.power, "options": matches,
                         "return_phase": s.phase,
                         "prompt": f"Frozone helps: choose a {card.power.title()} problem to fix "
                                   f"({', '.join(matches)}).", "rule": R_FROZONE}
            s.phase = "choose"

    def _card_jackjack(self, s: IncrediblesState, card) -> None:
        s.discard.append(card.id)
        if any(m.space == card.space for m in s.movers):
            # "If a Mover is on the space where Jack-Jack appears, Jack-Jack is immediately rescued"
            s.jackjack = None
            s.log.append(f"Jack-Jack teleports to {card.space}, right next to a hero: rescued at once!")
        else:
            s.jackjack = card.space
            s.log.append(f"Jack-Jack teleports to space {card.space}.")

    def _card_edna(self, s: IncrediblesState, card) -> None:
        s.discard.append(card.id)
        if s.jackjack is not None:
            s.jackjack = None
            s.log.append("Edna rescues Jack-Jack!")
        else:
            s.log.append("Edna: Jack-Jack is not on the board, no effect.")

    def _choose(self, s: IncrediblesState, action: Action, rng: random.Random) -> None:
        pending = s.pending
        if pending["kind"] == "displace":
            space = data_field(action.data, "space", str, "choose")
            if space not in pending["options"]:
                raise forbid(f"{space!r} is not a space next to the rubble: choose one of "
                             f"{', '.join(pending['options'])}", R_ROAD)
            mover = self._mover(s, pending["hero"])
            mover.space = space
            s.log.append(f"{mover.name} moves off the rubble to {space}.")
        else:
            tile = data_field(action.data, "tile", str, "choose")
            if tile not in pending["options"]:
                raise forbid(f"Frozone fixes a {pending['power'].title()} problem: choose one of "
                             f"{', '.join(pending['options'])}", R_FROZONE)
            self._fixed(s, tile, "Frozone")
        s.pending, s.phase = None, pending["return_phase"]
        if pending.get("then"):
            self._ask_displace(s, pending["from"], pending["then"])
        self._stay_if_no_steps(s)

    def _move(self, s: IncrediblesState, action: Action, rng: random.Random) -> None:
        to = data_field(action.data, "to", (str, int), "move")
        to = str(to)
        mover = s.movers[s.turn]
        if to not in self.data.adjacency:
            raise BadAction(f"move: {to!r} is not a space on the board")
        if to in s.rubble:
            raise forbid(f"space {to} has rubble on it: players may not move onto or through it", R_ROAD)
        reach = self.reachable(s, mover.space, s.roll["move"])
        if to not in reach:
            blocked = " (rubble blocks some roads)" if s.rubble else ""
            raise forbid(f"{to} is more than {s.roll['move']} space(s) from {mover.space}{blocked}; "
                         f"you can reach {', '.join(reach)}", R_MOVE)
        self._end_move(s, to)

    def _end_move(self, s: IncrediblesState, to: str) -> None:
        mover = s.movers[s.turn]
        s.log.append(f"{mover.name} moves to {to}." if to != mover.space else f"{mover.name} stays.")
        mover.space = to
        if s.jackjack == to:
            # "If you end your movement on the space with the Jack-Jack Die, you rescue Jack-Jack!"
            s.jackjack = None
            s.log.append(f"{mover.name} rescues Jack-Jack!")
        if self._slot_for(s, to) is not None:
            s.phase = "fix"
        else:
            self._next_turn(s)

    def _fix(self, s: IncrediblesState, action: Action, rng: random.Random) -> None:
        mover = s.movers[s.turn]
        hero = self.data.heroes[mover.hero]
        slot = self._slot_for(s, mover.space)
        virtual = "power" not in action.data
        power = self._die_face(action.data, "power", hero.die, f"{hero.name}'s Power Die", rng if virtual else None)
        jj = None
        if "jackjack" in action.data or (virtual and s.jackjack is None):
            if s.jackjack is not None:
                raise forbid(f"Jack-Jack is on space {s.jackjack}: players may not roll his die "
                             "until someone rescues him", R_MOVE)
            jj = self._die_face(action.data, "jackjack", self.data.jackjack_die, "the Jack-Jack Die",
                                rng if virtual else None)
        fixed = slot.power in (power, jj) or "wild" in (power, jj)
        s.last_fix = {"hero": mover.hero, "tile": slot.tile, "needs": slot.power, "power": power,
                      "jackjack": jj, "fixed": fixed}
        rolled = power + (f" and Jack-Jack {jj}" if jj else "")
        if fixed:
            self._fixed(s, slot.tile, mover.name, rolled)
        else:
            s.log.append(f"{mover.name} rolled {rolled}: problem {slot.tile} still needs {slot.power.title()}.")
        self._next_turn(s)

    def _die_face(self, data: dict, key: str, faces, what: str, rng: random.Random | None) -> str:
        if rng is not None:
            return rng.choice(faces)
        face = data_field(data, key, str, "fix").strip().lower()
        if face not in faces:
            raise BadAction(f"fix: {face!r} is not a face of {what} ({', '.join(sorted(set(faces)))})")
        return face

    def _fixed(self, s: IncrediblesState, tile: str, by: str, rolled: str | None = None) -> None:
        # "turn over the tile ... Turn the corresponding Problem Card on the Problem Track face-down"
        s.tiles[tile] = "safe"
        for slot in s.track:
            if slot is not None and slot.tile == tile:
                slot.face_up = False
        s.log.append(f"{by} fixed problem {tile}" + (f" (rolled {rolled})." if rolled else "."))

    def _next_turn(self, s: IncrediblesState) -> None:
        s.turn = (s.turn + 1) % len(s.movers)
        if s.turn == 0:
            s.round += 1
        s.phase, s.roll = "roll", None

    # -- helpers ----------------------------------------------------------------------------------

    def reachable(self, s: IncrediblesState, start: str, steps: int) -> list[str]:
        """Spaces a mover can end on within ``steps``, never onto or through rubble."""
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if seen[here] == steps:
                continue
            for nxt in self.data.adjacency[here]:
                if nxt not in seen and nxt not in s.rubble:
                    seen[nxt] = seen[here] + 1
                    queue.append(nxt)
        return sorted(seen, key=incredibles_data._space_order)

    def _slot_for(self, s: IncrediblesState, space: str) -> Slot | None:
        for slot in s.track:
            if slot is not None and slot.face_up and slot.tile == space:
                return slot
        return None

    @staticmethod
    def _mover(s: IncrediblesState, hero: str) -> Mover:
        return next(m for m in s.movers if m.hero == hero)

    def sample_options(self, rng: random.Random) -> dict[str, Any]:
        heroes = list(self.data.heroes)
        rng.shuffle(heroes)
        return {"players": heroes[: rng.randint(1, len(heroes))]}

    def invariants(self, s: IncrediblesState) -> list[str]:
        d, bad = self.data, []
        on_track = [slot.card for slot in s.track if slot is not None]
        cards = s.deck + s.discard + on_track + ([s.too_late.card] if s.too_late else [])
        if sorted(cards) != sorted(d.cards):
            bad.append("cards were lost or duplicated between deck, track and discard")
        if len(s.track) > d.track_spaces:
            bad.append("the Problem Track is longer than the board's")
        for letter, side in s.tiles.items():
            face_up = any(slot and slot.tile == letter and slot.face_up for slot in s.track)
            lost_here = s.too_late is not None and s.too_late.tile == letter
            if (side == "problem") != (face_up or lost_here):
                bad.append(f"tile {letter} shows {side} but its card disagrees")
        for m in s.movers:
            if m.space not in d.adjacency:
                bad.append(f"{m.name} stands on unknown space {m.space}")
            if m.space in s.rubble and s.phase != "choose":
                bad.append(f"{m.name} stands on rubble at {m.space}")
        if len(s.rubble) > len(set(s.rubble)):
            bad.append("rubble placed twice on one space")
        if (s.phase == "choose") != (s.pending is not None):
            bad.append("a pending choice and the phase disagree")
        return bad

    def sample_action(self, s: IncrediblesState, rng: random.Random) -> Action:
        player = s.movers[s.turn].hero
        if s.phase == "roll":
            return Action("roll", player, {"face": rng.choice(self.data.movement_die).id})
        if s.phase == "choose":
            key = "space" if s.pending["kind"] == "displace" else "tile"
            return Action("choose", None, {key: rng.choice(s.pending["options"])})
        if s.phase == "move":
            return Action("move", player, {"to": rng.choice(self.reachable(s, s.movers[s.turn].space, s.roll["move"]))})
        if s.phase == "fix":
            data = {"power": rng.choice(self.data.heroes[player].die)}
            if s.jackjack is None and rng.random() < 0.8:
                data["jackjack"] = rng.choice(self.data.jackjack_die)
            return Action("fix", player, data)
        raise IllegalAction("the game is over")


def _rule_for_phase(phase: str) -> str:
    return {"roll": R_ROLL, "move": R_MOVE, "fix": R_FIX, "choose": R_ALARM}.get(phase, R_END)


def _list(value: Any, option: str) -> list:
    if not isinstance(value, list):
        raise SetupError(f"{option} must be a list")
    return value
