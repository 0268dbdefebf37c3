"""The Uncanny X-Men Alert Adventure Game (rulebook: shared/seeds/004_4d0143f029a592d7.txt).

Basic and Advanced are one engine: ``options["advanced"]`` switches the Advanced sections on.
A turn: Step 1 fills empty Battle Zones (done by the companion as the turn begins); Step 2 the
team deploys and battles, one roll per character; Step 3 (Advanced) recruits; Step 4 recovers at
Headquarters; ``turn.end`` does Step 5 (turn in, bonus dice, Experience Track) and Step 6.
Physical dice arrive as data.faces; omitting them rolls virtual dice from the journal's seed.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from typing import Any

from companion.actions import Action
from companion.components import Reader
from companion.errors import BadAction, DataFileError, IllegalAction, SetupError
from companion.games import xmen_battle as battle
from companion.games import xmen_cards as cards
from companion.games import xmen_data
from companion.games import xmen_dice as dice
from companion.games import xmen_recovery as recovery
from companion.games import xmen_track as track
from companion.games import xmen_view
from companion.games.base import Game, forbid
from companion.games.xmen_state import (HQ, R_BATTLE, R_BONUS, R_FIGHT, R_FIRST, R_JOIN,
                                        R_LUCK, R_NEW, R_PLAYING, R_RECOVER, R_RECRUIT, R_SERIOUS,
                                        R_STEP1, R_TEAMWORK, R_TURN_IN, R_WIN, Hero, Team,
                                        XMenState, Zone)

LOG_LENGTH = 40
OPTIONS = {"players", "advanced", "stat_cards", "first_player", "alert_deck", "stat_deck",
           "luck_deck", "serious_remainder", "typed_cards"}
MAX_TYPED = 40


class XMenAlert(Game):
    name = "xmen-alert"
    title = "The Uncanny X-Men Alert Adventure Game"
    dice_set = "xmen"
    # Competitive: every finished game has a winner ("game.abandon" ends one without, by choice).
    outcomes = ("won",)
    actions = {
        "first.roll": "Going first: a player's roll of 5 dice (data.faces; omit to roll virtual dice).",
        "deploy": "Move characters from Headquarters to a Battle Zone: data.zone (1-3), data.heroes "
                  "(list of character ids), optional data.leader for a new battle.",
        "battle.roll": "One character's battle roll in a zone: data.zone, optional data.hero (the next "
                       "to fight), data.faces, data.attack (an alternative attack such as "
                       "\"wing_missile\"), data.hits_to, data.new_leader.",
        "recruit.roll": "One character's recruiting roll (Intelligence dice, Advanced): data.zone, "
                        "optional data.hero, data.faces, data.new_leader.",
        "recover.roll": "A character's recovery roll at Headquarters (Durability dice): data.hero, data.faces.",
        "turn.end": "End the turn: turn in captured Evil Mutants and move on the Experience Track.",
        "bonus.roll": "Experience Bonus dice as the team turns in (Advanced): data.faces.",
        "card.play": "Play a held Training & Luck card: data.card, and data.target (a player) or "
                     "data.hero (a character) when the card needs one.",
        "game.abandon": "The table stops the game without a winner: optional data.reason.",
    }

    def __init__(self, components_dir=None):
        super().__init__(components_dir)
        self.data = xmen_data.load(components_dir)
        self._typed: dict[str, XMenAlert] = {}   # typed cards (as JSON) -> engine using them
        self._scoped = False

    # -- Power Stat cards typed in by the owner ---------------------------------------------------
    # A game started with ``typed_cards`` keeps them in its options; every entry point then runs
    # on a copy of the engine whose data holds those cards, so the rules code stays unaware.

    def _with_cards(self, typed: list[dict[str, Any]]) -> "XMenAlert":
        key = json.dumps(typed, sort_keys=True)
        eng = self._typed.get(key)
        if eng is None:
            chars = dict(self.data.characters)
            for i, values in enumerate(typed):
                c = xmen_data.character(Reader(values, "setup form", f"typed_cards[{i}]"),
                                        self.data.strength_track)
                chars[c.id] = c
            eng = copy.copy(self)
            eng.data = dataclasses.replace(self.data, characters=chars)
            eng._scoped, eng._typed = True, {}
            if len(self._typed) >= 16:
                self._typed.clear()
            self._typed[key] = eng
        return eng

    def _for(self, s: XMenState) -> "XMenAlert | None":
        """The engine for a game with typed cards (None: this one will do)."""
        typed = None if self._scoped else s.options.get("typed_cards")
        return self._with_cards(typed) if typed else None

    def _typed_cards(self, options: dict[str, Any]) -> list[dict[str, Any]]:
        typed = options.get("typed_cards", [])
        if not isinstance(typed, list) or len(typed) > MAX_TYPED or not all(isinstance(v, dict) for v in typed):
            raise SetupError(f"typed_cards is a list of up to {MAX_TYPED} Power Stat cards, each "
                             "{id, name, fighting_skill, durability, intelligence, total_power, "
                             "abilities}")
        # typed in from a card in the box: printed values, not an assumption
        typed = [{**v, "assumption": False} for v in typed]
        try:
            self._with_cards(typed)
        except DataFileError as err:
            raise SetupError(str(err)) from None
        ids = [v["id"] for v in typed]
        if len(set(ids)) != len(ids):
            raise SetupError("typed_cards: each card needs its own id")
        return typed

    @staticmethod
    def evolve(state: XMenState) -> XMenState:
        return state.clone()

    # -- setup ------------------------------------------------------------------------------------

    def setup(self, options: dict[str, Any], rng: random.Random) -> XMenState:
        if not isinstance(options, dict):
            raise SetupError("options must be an object")
        unknown = set(options) - OPTIONS
        if unknown:
            raise SetupError(f"unknown option(s) {', '.join(sorted(unknown))}: the options are "
                             + ", ".join(sorted(OPTIONS)))
        typed = self._typed_cards(options)
        if not typed:
            return self._setup(options, rng)
        s = self._with_cards(typed)._setup(options, rng)
        s.options = {**s.options, "typed_cards": typed}
        return s

    def _setup(self, options: dict[str, Any], rng: random.Random) -> XMenState:
        d = self.data
        players = options.get("players")
        if (not isinstance(players, list) or not 2 <= len(players) <= 4
                or not all(isinstance(p, str) and p.strip() and len(p) <= 40 for p in players)
                or len(set(players)) != len(players)):
            raise SetupError("players: give 2 to 4 different names (short strings), in seating "
                             "order clockwise: play passes to the left, the next name")
        advanced = options.get("advanced", False)
        if not isinstance(advanced, bool):
            raise SetupError("advanced must be true or false")
        remainder = options.get("serious_remainder", "carry")
        if remainder not in ("carry", "drop"):
            raise SetupError("serious_remainder is \"carry\" or \"drop\"")
        per = 2 if advanced else 1   # "In the Advanced game, deal two X-Men Power Stat Cards"

        chosen = options.get("stat_cards") or {}
        if not isinstance(chosen, dict) or any(p not in players for p in chosen):
            raise SetupError("stat_cards maps player names to the X-Men each one chose")
        taken: list[str] = []
        for p, ids in chosen.items():
            ids = [ids] if isinstance(ids, str) else ids
            if not isinstance(ids, list) or len(ids) != per:
                raise SetupError(f"stat_cards.{p}: each player takes {per} X-Men in the "
                                 f"{'Advanced' if advanced else 'Basic'} game")
            taken += [self._character(x, f"stat_cards.{p}") for x in ids]
        if len(set(taken)) != len(taken):
            raise SetupError("stat_cards: an X-Men can be on only one team")
        stat_deck = self._stacked(options, "stat_deck", [c for c in d.characters if c not in taken],
                                  rng, self._character)
        teams = []
        for p in players:
            ids = chosen.get(p)
            if ids is None:
                ids = [stat_deck.pop(0) for _ in range(per)]
            else:
                ids = [self._character(x, "stat_cards") for x in ([ids] if isinstance(ids, str) else ids)]
            teams.append(Team(p, [Hero(i) for i in ids]))

        # "Remove all X-Men Alert cards with the Advanced symbol from the deck. Also remove all
        # 'Recruit Another X-Men' cards." / "In the Advanced game, use the entire deck"
        alert = self._alert_cards(advanced)
        alert_deck = self._stacked(options, "alert_deck", alert, rng, self._alert_id)
        luck = self._luck_cards(advanced)
        luck_deck = self._stacked(options, "luck_deck", luck, rng, self._luck_id)

        s = XMenState(advanced=advanced, teams=teams, zones=[Zone() for _ in range(d.zones)],
                      alert_deck=alert_deck, alert_discard=[], stat_deck=stat_deck,
                      luck_deck=luck_deck, luck_discard=[],
                      options={"serious_remainder": remainder})
        s.log.append(f"Set up a{'n Advanced' if advanced else ' Basic'} game: "
                     + "; ".join(f"{t.player} with " + ", ".join(d.characters[h.id].name for h in t.heroes)
                                 for t in teams) + ".")
        first = options.get("first_player")
        if first is None:
            s.first_to_roll = list(players)
        elif first not in players:
            raise SetupError("first_player must be one of the players")
        else:
            self._start_play(s, players.index(first), rng)
        return s

    def _alert_cards(self, advanced: bool) -> list[str]:
        return [c.id for c in self.data.alert.values()
                if advanced or (not c.advanced and c.kind != "recruit")]

    def _luck_cards(self, advanced: bool) -> list[str]:
        return [c.id for c in self.data.luck.values() if advanced or not c.advanced]

    def _stacked(self, options, key, cards, rng, resolve) -> list[str]:
        """A shuffled deck; an option may fix the cards on top (tests, a known first game)."""
        top = options.get(key) or []
        if not isinstance(top, list):
            raise SetupError(f"{key} must be a list of card ids, top first")
        top = [resolve(x, key) for x in top]
        if len(set(top)) != len(top) or any(t not in cards for t in top):
            raise SetupError(f"{key}: each card once, and only cards that are in this deck")
        rest = [c for c in cards if c not in top]
        rng.shuffle(rest)
        return top + rest

    def _character(self, key: Any, option: str) -> str:
        if isinstance(key, str):
            norm = key.strip().lower().replace(" ", "-").replace(".", "")
            for c in self.data.characters.values():
                if norm in (c.id, c.name.lower().replace(" ", "-").replace(".", "")):
                    return c.id
        raise SetupError(f"{option}: {key!r} is not an X-Men of this box ("
                         + ", ".join(self.data.characters) + ")")

    def _alert_id(self, key: Any, option: str) -> str:
        if isinstance(key, str) and key in self.data.alert:
            return key
        raise SetupError(f"{option}: {key!r} is not an X-Men Alert card id")

    def _luck_id(self, key: Any, option: str) -> str:
        if isinstance(key, str) and key in self.data.luck:
            return key
        raise SetupError(f"{option}: {key!r} is not a Training & Luck card id")

    # -- turn flow -------------------------------------------------------------------------------

    def _start_play(self, s: XMenState, first: int, rng: random.Random) -> None:
        s.phase, s.turn, s.starter, s.round = "play", first, first, 1
        s.first_to_roll = []
        s.log.append(f"{s.teams[first].player} goes first.")
        self._begin_turn(s, rng)

    def _begin_turn(self, s: XMenState, rng: random.Random) -> None:
        d = self.data
        for _ in range(4 * len(s.teams) + 8):     # a Cerebro'd team's turn passes at once
            team = s.current
            for h in team.heroes:
                h.acted = False
            team.boosts, team.bonus_dice = {}, 0
            s.stage, s.zone_open, s.must_recover, s.bonus = "battle", None, [], None
            if not team.heroes:
                # "In the event a player loses their entire team of characters, at the start of
                # his next turn, that player recruits one X-Men by taking the top X-Men Power
                # Stat Card from the deck."
                track.recruit_top(d, s, team, "having lost the whole team")
                for h in team.heroes:
                    h.acted = False
            self._fill_zones(s, rng)
            if not any(t.heroes for t in s.teams) and not s.stat_deck:
                s.ended = "no team has an X-Men left and the Power Stat deck is empty"
                s.phase = "over"
                s.log.append("Every team is lost and no X-Men is left to recruit: the game ends.")
                return
            if team.cerebro:
                team.cerebro -= 1
                battle.send_home(s, team)
                s.log.append(f"Cerebro is on the fritz! {team.player}'s whole team reports to "
                             "Headquarters for this turn, with no other actions.")
                self._pass_turn(s)
                continue
            s.must_recover = [h.id for h in team.heroes if recovery.on_picture(d, h)]
            s.log.append(f"{team.player}'s turn (round {s.round}).")
            return

    def _pass_turn(self, s: XMenState) -> None:
        # "Once you have completed your turn, play continues to the left."
        s.turn = (s.turn + 1) % len(s.teams)
        if s.turn == s.starter:
            s.round += 1

    def _fill_zones(self, s: XMenState, rng: random.Random) -> None:
        """ "If a Battle Zone is empty, draw the top X-Men Alert Card and place it face up on the
        large X in the Battle Zone." """
        d = self.data
        for z, zone in enumerate(s.zones):
            if zone.card is not None:
                continue
            for _ in range(len(d.alert) + 1):
                cid = track.draw(s.alert_deck, s.alert_discard, rng)
                if cid is None:
                    break
                card = d.alert[cid]
                if card.kind == "recruit":
                    if all(len(t.heroes) >= d.max_team for t in s.teams) or not s.stat_deck:
                        # "If all players already have the maximum number of four X-Men
                        # characters on their teams, place the recruit card to the side and draw
                        # another card." (an empty Power Stat deck is treated the same way)
                        s.alert_discard.append(cid)
                        s.log.append("A Recruit card nobody can use is set aside.")
                        continue
                    # "turn over the top X-Men Power Stat Card. The Strength Indicator is placed
                    # on the number space that corresponds to that X-Men character's Total Power"
                    zone.card, zone.recruit = cid, s.stat_deck.pop(0)
                    zone.indicator = d.characters[zone.recruit].total_power
                    s.log.append(f"Battle Zone {z + 1}: {d.characters[zone.recruit].name} can be "
                                 f"recruited (Total Power {zone.indicator}).")
                else:
                    zone.card, zone.indicator = cid, card.strength
                    s.log.append(f"Battle Zone {z + 1}: {card.name} appears (Strength "
                                 f"{card.strength}, Experience {card.experience}).")
                break

    # -- reading the state -----------------------------------------------------------------------

    def outcome(self, s: XMenState) -> dict[str, Any]:
        if (eng := self._for(s)) is not None:
            return eng.outcome(s)
        score = {t.player: t.mover for t in s.teams}
        if s.winner is not None:
            goal = "the Victory space" if s.advanced else "the first X-Men Recruit space"
            return {"status": "won", "winner": s.winner, "reason": f"{s.winner} reached {goal}",
                    "rule": R_WIN, "score": score}
        if s.ended is not None:
            return {"status": "lost", "reason": s.ended, "score": score}
        return {"status": "playing", "score": score}

    def choices(self, s: XMenState) -> dict[str, Any]:
        """Everything the table may do now in the play phase (shared by expect and random play)."""
        if (eng := self._for(s)) is not None:
            return eng.choices(s)
        d, team = self.data, s.current
        unfought_all = battle.unfought(s, team)
        unfought_battle = [u for u in unfought_all if battle.zone_kind(s.zones[u[0]]) == "battle"]
        out: dict[str, Any] = {"fights": [], "deploy": {}, "recover": [], "end": False}
        for z, zone in enumerate(s.zones):
            kind = battle.zone_kind(zone)
            if kind is None or not self._stage_allows(s, kind, unfought_battle):
                continue
            if s.zone_open is not None and s.zone_open != z:
                continue
            side = zone.side(team.player)
            if side is not None:
                nxt = battle.next_fighter(side, team, s)
                if nxt is not None:
                    leader_first = not s.hero(team, side.leader).acted
                    for hid in ([side.leader] if leader_first else
                                [h for h in side.order if not s.hero(team, h).acted]):
                        count = dice.capped(d, battle.dice_for(d, s, team, side, hid, kind))
                        out["fights"].append({"zone": z, "hero": hid, "kind": kind, "count": count})
                        if kind == "battle":
                            for a in d.characters[hid].abilities_of("alt_attack", s.advanced):
                                n = dice.capped(d, battle.dice_for(d, s, team, side, hid, kind, a.name))
                                out["fights"].append({"zone": z, "hero": hid, "kind": kind,
                                                      "count": n, "attack": a.name})
            heroes = []
            for hid in battle.deployable(d, s, team):
                try:
                    battle.check_deploy(d, s, team, z, [hid], None)
                except IllegalAction:
                    continue
                heroes.append(hid)
            if heroes:
                out["deploy"][z] = heroes
        if not unfought_all:
            for h in team.heroes:
                if h.where == HQ and not h.acted and h.hits > 0:
                    out["recover"].append({"hero": h.id, "count": dice.capped(d, d.characters[h.id].durability),
                                           "serious": h.id in s.must_recover})
            out["end"] = not self._pending_recovery(s)
        out["must"] = [f"{d.characters[h].name} in Battle Zone {z + 1}" for z, h in unfought_all] + \
                      [f"{d.characters[h].name} (seriously wounded) at Headquarters"
                       for h in self._pending_recovery(s)]
        return out

    def _stage_allows(self, s: XMenState, kind: str, unfought_battle: list) -> bool:
        if kind == "battle":
            return s.stage == "battle"
        return s.stage == "recruit" or (s.stage == "battle" and not unfought_battle)

    def _pending_recovery(self, s: XMenState) -> list[str]:
        team = s.current
        return [h for h in s.must_recover if (x := s.hero(team, h)) is not None and not x.acted]

    def playable_cards(self, s: XMenState) -> list[dict[str, Any]]:
        if (eng := self._for(s)) is not None:
            return eng.playable_cards(s)
        return cards.playable(self.data, s)

    def expect(self, s: XMenState) -> dict[str, Any]:
        if (eng := self._for(s)) is not None:
            return eng.expect(s)
        d = self.data
        if s.phase == "over":
            return {"phase": "over", "actions": [], "prompt": "The game is over.", "dice": []}
        if s.phase == "first":
            who = s.first_to_roll[0]
            n = d.going_first_dice
            return {"phase": "first", "player": who, "actions": ["first.roll", "game.abandon"],
                    "to_roll": list(s.first_to_roll),
                    "dice": [dice.entry(d, n, "going first", who, "first.roll")],
                    "prompt": f"{who}: roll {n} dice to see who goes first (X-Men 1 point, "
                              "Marvel 2).", "rule": R_FIRST}
        team = s.current
        if s.phase == "bonus":
            n = s.bonus["dice"]
            return {"phase": "bonus", "player": team.player, "actions": ["bonus.roll", "game.abandon"],
                    "dice": [dice.entry(d, n, "bonus experience", team.player, "bonus.roll")],
                    "prompt": f"{team.player}: roll {n} Experience Bonus dice (X-Men 1, Marvel 2) "
                              f"to add to {s.bonus['experience']} Experience.", "rule": R_BONUS}
        ch = self.choices(s)
        rolls = []
        for f in ch["fights"]:
            data = {"zone": f["zone"] + 1, "hero": f["hero"]}
            if "attack" in f:
                data["attack"] = f["attack"]
            rolls.append(dice.entry(d, f["count"], "battle" if f["kind"] == "battle" else "recruit",
                                    team.player, f"{f['kind']}.roll", **data))
        for r in sorted(ch["recover"], key=lambda r: not r["serious"]):
            rolls.append(dice.entry(d, r["count"], "recovery", team.player, "recover.roll", hero=r["hero"]))
        actions = sorted({r["action"] for r in rolls})
        if ch["deploy"]:
            actions.append("deploy")
        cards = self.playable_cards(s)
        if cards:
            actions.append("card.play")
        if ch["end"]:
            actions.append("turn.end")
        actions.append("game.abandon")
        if ch["must"]:
            prompt = f"{team.player}: " + "; ".join(ch["must"]) + " must still roll."
        else:
            prompt = (f"{team.player}: deploy X-Men to a Battle Zone, recover at Headquarters, "
                      "or end the turn.")
        return {"phase": "play", "player": team.player, "round": s.round, "stage": s.stage,
                "actions": actions, "dice": rolls, "prompt": prompt, "must": ch["must"],
                "deploy": {str(z + 1): h for z, h in ch["deploy"].items()}, "cards": cards,
                "rule": R_PLAYING}

    def reminders(self, s: XMenState) -> list[dict[str, str]]:
        if (eng := self._for(s)) is not None:
            return eng.reminders(s)
        if s.phase in ("over", "first"):
            return []
        out = [{"text": "Each character either battles (or recruits) or recovers in a turn, never both.",
                "rule": R_PLAYING}]
        team = s.current
        if battle.unfought(s, team):
            out.append({"text": "Characters already in a Battle Zone must continue to battle: the "
                                "leader first, then each backer.", "rule": R_FIGHT})
        if self._pending_recovery(s):
            out.append({"text": "A seriously wounded character must clear every chip on its picture "
                                "in one recovery roll, or it is lost.", "rule": R_SERIOUS})
        if not s.alert_deck:
            out.append({"text": "The Alert deck is empty: turned-in cards are shuffled into a new deck "
                                "when the next card is needed.", "rule": R_STEP1})
        for t in s.teams:
            if t.cerebro:
                out.append({"text": f"Cerebro is on the fritz for {t.player}: the whole team reports to "
                                    "Headquarters at the start of the next turn.", "rule": R_LUCK})
        if any(t.held for t in s.teams):
            out.append({"text": "Held Training & Luck cards can be played before or during your turn, "
                                "or before another player's turn.", "rule": R_LUCK})
        if s.advanced:
            out.append({"text": "Only characters with flight can join a battle already in progress.",
                        "rule": R_JOIN})
        if team.captured:
            out.append({"text": "End the turn to turn in captured Evil Mutants and move on the "
                                "Experience Track.", "rule": R_TURN_IN})
        return out

    def components(self) -> dict[str, Any]:
        return self.data.describe()

    def dice(self) -> dict[str, tuple[str, ...]]:
        return {"xmen-alert": self.data.faces}

    # -- actions ---------------------------------------------------------------------------------

    def apply(self, state: XMenState, action: Action, rng: random.Random) -> XMenState:
        if (eng := self._for(state)) is not None:
            return eng.apply(state, action, rng)
        self.check_type(action)
        if state.phase == "over":
            raise forbid("the game is over: undo the last action or start a new game", R_WIN)
        if not isinstance(action.data, dict):
            raise BadAction(f"{action.type}: data must be an object")
        s = state.clone()
        getattr(self, "_" + action.type.replace(".", "_"))(s, action, rng)
        if s.winner is not None:
            s.phase = "over"
            s.log.append(f"{s.winner} wins!")
        del s.log[:-LOG_LENGTH]
        return s

    def _own_turn(self, s: XMenState, action: Action, phase: str = "play") -> Team:
        if s.phase != phase:
            raise forbid(f"{action.type} is not possible now: {self.expect(s)['prompt']}",
                         R_FIRST if s.phase == "first" else R_PLAYING)
        team = s.current
        if action.player is not None and action.player != team.player:
            raise forbid(f"it is {team.player}'s turn, not {action.player}'s", R_PLAYING)
        return team

    def _first_roll(self, s: XMenState, action: Action, rng: random.Random) -> None:
        if s.phase != "first":
            raise forbid("the first player is already decided", R_FIRST)
        who = action.player or s.first_to_roll[0]
        if who not in s.first_to_roll:
            raise forbid(f"{who} is not waiting to roll for the first turn: "
                         + ", ".join(s.first_to_roll) + " still roll", R_FIRST)
        faces = dice.read_roll(self.data, action.type, action.data, self.data.going_first_dice, rng)
        total = dice.points(faces, self.data.points)
        s.first_rolls[who] = total
        s.first_to_roll.remove(who)
        s.last_roll = {"player": who, "purpose": "going first", "faces": faces, "points": total}
        s.log.append(f"{who} rolls {total} for the first turn.")
        if s.first_to_roll:
            return
        best = max(s.first_rolls.values())
        tied = [p for p, v in s.first_rolls.items() if v == best]
        if len(tied) > 1:
            # "The highest point total goes first." ties roll again
            s.first_rolls, s.first_to_roll = {}, tied
            s.log.append(f"Tie at {best} between {', '.join(tied)}: they roll again.")
            return
        players = [t.player for t in s.teams]
        self._start_play(s, players.index(tied[0]), rng)

    def _zone_arg(self, s: XMenState, action: Action, default: int | None = None) -> int:
        z = action.data.get("zone", None if default is None else default + 1)
        if z is None:
            raise BadAction(f"{action.type} needs data.zone (1 to {len(s.zones)})")
        if isinstance(z, bool) or not isinstance(z, int) or not 1 <= z <= len(s.zones):
            raise BadAction(f"{action.type}: data.zone is a Battle Zone number, 1 to {len(s.zones)}")
        return z - 1

    def _hero_arg(self, action: Action, key: str, value: Any = ...) -> str:
        if value is ...:
            value = action.data.get(key)
        if not isinstance(value, str):
            raise BadAction(f"{action.type}: data.{key} names a character, e.g. \"wolverine\"")
        try:
            return self._character(value, f"data.{key}")
        except SetupError as exc:
            raise BadAction(f"{action.type}: {exc}") from None

    def _check_stage(self, s: XMenState, team: Team, kind: str) -> None:
        unfought_battle = battle.unfought(s, team, "battle")
        if not self._stage_allows(s, kind, unfought_battle):
            if kind == "battle":
                raise forbid("battles (Step 2) come before recruiting and recovery (Steps 3 and 4): "
                              "this turn has moved past them", R_PLAYING)
            raise forbid("recruiting (Step 3) comes after your battles and before recovery: "
                         + ("finish your battles first" if unfought_battle else "this turn has moved past it"),
                         R_RECRUIT)
        if kind == "recruit":
            s.stage = "recruit"

    def _check_open(self, s: XMenState, z: int) -> None:
        if s.zone_open is not None and s.zone_open != z:
            raise forbid(f"complete all your character actions in Battle Zone {s.zone_open + 1} "
                         "before going on to another zone", R_TEAMWORK)

    def _deploy(self, s: XMenState, action: Action, rng: random.Random) -> None:
        team = self._own_turn(s, action)
        z = self._zone_arg(s, action)
        raw = action.data.get("heroes", action.data.get("hero"))
        raw = [raw] if isinstance(raw, str) else raw
        if not isinstance(raw, list) or not raw:
            raise BadAction("deploy needs data.heroes, a list of character ids")
        heroes = [self._hero_arg(action, "heroes", h) for h in raw]
        leader = self._hero_arg(action, "leader") if action.data.get("leader") is not None else None
        kind = battle.zone_kind(s.zones[z])
        if kind is not None:
            self._check_stage(s, team, kind)
        self._check_open(s, z)
        battle.check_deploy(self.data, s, team, z, heroes, leader)
        battle.deploy(self.data, s, team, z, heroes, leader)

    def _battle_roll(self, s: XMenState, action: Action, rng: random.Random) -> None:
        self._fight(s, action, rng, "battle")

    def _recruit_roll(self, s: XMenState, action: Action, rng: random.Random) -> None:
        self._fight(s, action, rng, "recruit")

    def _fight(self, s: XMenState, action: Action, rng: random.Random, kind: str) -> None:
        d = self.data
        team = self._own_turn(s, action)
        mine = sorted({z for z, _ in battle.unfought(s, team, kind)})
        default = s.zone_open if s.zone_open is not None else (mine[0] if len(mine) == 1 else None)
        z = self._zone_arg(s, action, default)
        zone = s.zones[z]
        if battle.zone_kind(zone) != kind:
            what = {"battle": "an Evil Mutant to battle", "recruit": "an X-Men to recruit",
                    None: "nothing"}[battle.zone_kind(zone)]
            raise forbid(f"Battle Zone {z + 1} holds {what}: use "
                         + ("recruit.roll" if kind == "battle" else "battle.roll") + " there"
                         if battle.zone_kind(zone) else f"Battle Zone {z + 1} is empty",
                         R_RECRUIT if kind == "recruit" else R_FIGHT)
        side = zone.side(team.player)
        if side is None or battle.next_fighter(side, team, s) is None:
            raise forbid(f"{team.player} has nobody left to roll in Battle Zone {z + 1}: deploy "
                         "characters from Headquarters first", R_FIGHT)
        self._check_stage(s, team, kind)
        self._check_open(s, z)
        hid = self._hero_arg(action, "hero") if action.data.get("hero") is not None else \
            battle.next_fighter(side, team, s)
        hero = s.hero(team, hid)
        name = d.characters[hid].name
        if hero is None or hid not in side.order:
            raise forbid(f"{name} is not in your team's Deployment Area of Battle Zone {z + 1}", R_FIGHT)
        if hero.acted:
            raise forbid(f"{name} has already rolled this turn", R_PLAYING)
        if hid != side.leader and not s.hero(team, side.leader).acted:
            raise forbid(f"the team leader {d.characters[side.leader].name} is always the first "
                         "character to battle", R_NEW)
        attack = action.data.get("attack")
        if attack is not None:
            if not isinstance(attack, str):
                raise BadAction("battle.roll: data.attack names an alternative attack")
            if kind != "battle":
                raise forbid("alternative attacks are for battling Evil Mutants, not recruiting", R_RECRUIT)
        count = dice.capped(d, battle.dice_for(d, s, team, side, hid, kind, attack))
        faces = dice.read_roll(d, action.type, action.data, count, rng)
        n_hits = dice.hits(faces)
        if attack is None:
            score = dice.points(faces, d.points)
            hit_list = [hid] * n_hits
        else:
            a = battle.alt_attack(d, s, d.characters[hid], attack)
            score = faces.count("xmen") * a["xmen"] + faces.count("marvel") * a["marvel"]
            hit_list = self._alt_hits(action, side, hid, n_hits)
        new_leader = action.data.get("new_leader")
        if new_leader is not None:
            new_leader = self._hero_arg(action, "new_leader")
        team.boosts.pop(hid, None)
        what = d.alert[zone.card].name if kind == "battle" else d.characters[zone.recruit].name
        s.last_roll = {"player": team.player, "purpose": kind, "zone": z + 1, "hero": hid,
                       "faces": faces, "points": score, "hits": n_hits, "attack": attack}
        s.log.append(f"{name} {'battles' if kind == 'battle' else 'tries to recruit'} {what} "
                     f"with {count} dice{' (' + attack + ')' if attack else ''}: {score} points, "
                     f"{n_hits} Evil Mutant{'s' if n_hits != 1 else ''}.")
        battle.resolve(d, s, team, z, hid, score, hit_list, new_leader)
        side = zone.side(team.player)
        open_now = side is not None and battle.next_fighter(side, team, s) is not None
        s.zone_open = z if open_now else None

    def _alt_hits(self, action: Action, side, hid: str, n: int) -> list[str]:
        """ "Evil Mutant rolls give 1 hit to a teammate. When no teammates are in the Battle Zone,
        all hits are taken by Archangel." data.hits_to names the teammate (or one per hit);
        by default they go to the leader, or the first backer when the attacker leads."""
        mates = [h for h in side.order if h != hid]
        if not mates:
            return [hid] * n
        raw = action.data.get("hits_to")
        if raw is None:
            return [mates[0]] * n
        names = [raw] * n if isinstance(raw, str) else raw
        if not isinstance(names, list) or len(names) != n:
            raise BadAction(f"battle.roll: data.hits_to is one teammate, or a list of {n} (one per Evil Mutant)")
        out = [self._hero_arg(action, "hits_to", x) for x in names]
        if any(x not in mates for x in out):
            raise forbid("Evil Mutant rolls give 1 hit to a teammate in the Battle Zone: choose from "
                         + ", ".join(self.data.characters[m].name for m in mates), R_BATTLE)
        return out

    def _recover_roll(self, s: XMenState, action: Action, rng: random.Random) -> None:
        d = self.data
        team = self._own_turn(s, action)
        left = battle.unfought(s, team)
        if left:
            z, h = left[0]
            raise forbid(f"{d.characters[h].name} must still battle in Battle Zone {z + 1}: recovery "
                         "(Step 4) comes after the battles", R_PLAYING)
        if action.data.get("hero") is not None:
            hid = self._hero_arg(action, "hero")
        else:
            pending = self._pending_recovery(s)
            hurt = [h.id for h in team.heroes if h.where == HQ and not h.acted and h.hits > 0]
            if not (pending or hurt):
                raise forbid("nobody at Headquarters has hit chips to remove", R_RECOVER)
            hid = (pending or hurt)[0]
        hero = s.hero(team, hid)
        name = d.characters[hid].name
        if hero is None:
            raise forbid(f"{name} is not on {team.player}'s team", R_RECOVER)
        if hero.where != HQ:
            raise forbid(f"{name} is in Battle Zone {hero.where + 1}: only characters at "
                         "Headquarters recover", R_RECOVER)
        if hero.acted:
            raise forbid(f"{name} has already battled or recovered this turn: a character does only "
                         "one of the two in a turn", R_PLAYING)
        if hero.hits == 0:
            raise forbid(f"{name} has no hit chips to remove", R_RECOVER)
        s.stage = "recover"
        count = dice.capped(d, d.characters[hid].durability)
        faces = dice.read_roll(d, action.type, action.data, count, rng)
        removed = recovery.removal(d, s, hid, faces)
        s.last_roll = {"player": team.player, "purpose": "recovery", "hero": hid, "faces": faces,
                       "removes": removed}
        recovery.recover(d, s, team, hero, faces)
        if hid in s.must_recover:
            s.must_recover.remove(hid)

    def _turn_end(self, s: XMenState, action: Action, rng: random.Random) -> None:
        d = self.data
        team = self._own_turn(s, action)
        left = battle.unfought(s, team)
        if left:
            z, h = left[0]
            raise forbid(f"{d.characters[h].name} is in Battle Zone {z + 1} and must continue to "
                         "battle before the turn ends", R_FIGHT)
        pending = self._pending_recovery(s)
        if pending:
            raise forbid(f"{d.characters[pending[0]].name} is seriously wounded and must roll to "
                         "recover this turn", R_SERIOUS)
        if team.captured:
            # "your team must turn in all the captured Evil Mutant Cards"
            experience = sum(d.alert[c].experience for c in team.captured)
            s.log.append(f"{team.player} turns in " + ", ".join(d.alert[c].name for c in team.captured)
                         + f" for {experience} Experience.")
            s.alert_discard.extend(team.captured)
            team.captured = []
            n = dice.capped(d, track.bonus_dice(d, s, team)) if s.advanced else 0
            if n:
                s.phase, s.bonus = "bonus", {"experience": experience, "dice": n}
                return
            track.move(d, s, team, experience, rng)
        self._finish_turn(s, rng)

    def _bonus_roll(self, s: XMenState, action: Action, rng: random.Random) -> None:
        team = self._own_turn(s, action, "bonus")
        faces = dice.read_roll(self.data, action.type, action.data, s.bonus["dice"], rng)
        extra = dice.points(faces, self.data.points)
        total = s.bonus["experience"] + extra
        s.last_roll = {"player": team.player, "purpose": "bonus experience", "faces": faces,
                       "points": extra}
        s.log.append(f"{team.player} rolls {extra} bonus Experience: {total} spaces.")
        s.phase, s.bonus = "play", None
        track.move(self.data, s, team, total, rng)
        self._finish_turn(s, rng)

    def _finish_turn(self, s: XMenState, rng: random.Random) -> None:
        if s.winner is not None:
            return
        self._pass_turn(s)
        self._begin_turn(s, rng)

    def _card_play(self, s: XMenState, action: Action, rng: random.Random) -> None:
        if s.phase != "play":
            raise forbid("Training & Luck cards are played before or during a turn", R_LUCK)
        player = action.player or s.current.player
        try:
            team = s.team(player)
        except KeyError:
            raise BadAction(f"card.play: {player!r} is not a player") from None
        key = action.data.get("card")
        if not isinstance(key, str):
            raise BadAction("card.play needs data.card, the id of a held Training & Luck card")
        cid = cards.held_card(team, key)
        if cid is None:
            raise forbid(f"{player} holds no {key!r} card: held cards are "
                         + (", ".join(team.held) or "none"), R_LUCK)
        target = hero = None
        need = cards.needs(self.data, cid)
        if need == "target":
            target = action.data.get("target")
            if not isinstance(target, str) or target not in [t.player for t in s.teams]:
                raise BadAction(f"card.play: {self.data.luck[cid].title} needs data.target, "
                                "another player's name")
        elif need == "hero":
            hero = self._hero_arg(action, "hero")
        cards.play(self.data, s, team, cid, target, hero)

    def _game_abandon(self, s: XMenState, action: Action, rng: random.Random) -> None:
        reason = action.data.get("reason", "the table stopped the game")
        if not isinstance(reason, str) or len(reason) > 200:
            raise BadAction("game.abandon: data.reason is a short sentence")
        s.ended = reason or "the table stopped the game"
        s.phase = "over"
        s.log.append(f"The game stops without a winner: {s.ended}.")

    # -- random play and checks ------------------------------------------------------------------

    def sample_options(self, rng: random.Random) -> dict[str, Any]:
        names = ["Ana", "Ben", "Chloe", "Dev"][: rng.randint(2, 4)]
        options: dict[str, Any] = {"players": names, "advanced": rng.random() < 0.5}
        if rng.random() < 0.3:
            options["first_player"] = rng.choice(names)
        if rng.random() < 0.1:
            # an owner's typed card: one the file lacks, and Storm typed over the file's values
            options["typed_cards"] = [
                {"id": "dazzler", "name": "Dazzler", "fighting_skill": 4, "durability": 3,
                 "intelligence": 2, "total_power": 9},
                {"id": "storm", "name": "Storm", "fighting_skill": 4, "durability": 3,
                 "intelligence": 2, "total_power": 9,
                 "abilities": [{"name": "Flight", "kind": "flight", "text": "Flies."}]}]
        return options

    def sample_action(self, s: XMenState, rng: random.Random) -> Action:
        if (eng := self._for(s)) is not None:
            return eng.sample_action(s, rng)
        d = self.data

        def faces(n: int) -> list[str]:
            return [rng.choice(d.faces) for _ in range(n)]

        if s.phase == "first":
            return Action("first.roll", s.first_to_roll[0], {"faces": faces(d.going_first_dice)})
        player = s.current.player
        if s.phase == "bonus":
            return Action("bonus.roll", player, {"faces": faces(s.bonus["dice"])})
        if s.phase != "play":
            raise IllegalAction("the game is over")
        ch = self.choices(s)
        if ch["fights"]:
            f = rng.choice(ch["fights"])
            data = {"zone": f["zone"] + 1, "hero": f["hero"], "faces": faces(f["count"])}
            if "attack" in f:
                data["attack"] = f["attack"]
            return Action(f"{f['kind']}.roll", player, data)
        cards = self.playable_cards(s)
        if cards and rng.random() < 0.2:
            c = rng.choice(cards)
            data = {"card": c["card"]}
            if "targets" in c:
                data["target"] = rng.choice(c["targets"])
            if "heroes" in c:
                data["hero"] = rng.choice(c["heroes"])
            return Action("card.play", c["player"], data)
        serious = [r for r in ch["recover"] if r["serious"]]
        if serious:
            r = serious[0]
            return Action("recover.roll", player, {"hero": r["hero"], "faces": faces(r["count"])})
        options = []
        if ch["deploy"] and rng.random() < 0.85:
            z = rng.choice(list(ch["deploy"]))
            heroes = ch["deploy"][z]
            pick = rng.sample(heroes, rng.randint(1, len(heroes)))
            data = {"zone": z + 1, "heroes": pick}
            if s.zones[z].side(player) is None:
                data["leader"] = rng.choice(pick)
            options.append(Action("deploy", player, data))
        if ch["recover"] and rng.random() < 0.7:
            r = rng.choice(ch["recover"])
            options.append(Action("recover.roll", player, {"hero": r["hero"], "faces": faces(r["count"])}))
        if options:
            return rng.choice(options)
        if ch["end"]:
            return Action("turn.end", player)
        r = ch["recover"][0]
        return Action("recover.roll", player, {"hero": r["hero"], "faces": faces(r["count"])})

    def invariants(self, s: XMenState) -> list[str]:
        if (eng := self._for(s)) is not None:
            return eng.invariants(s)
        return xmen_view.invariants(self.data, s, self._alert_cards(s.advanced),
                                    self._luck_cards(s.advanced))

    def to_json(self, s: XMenState) -> dict[str, Any]:
        if (eng := self._for(s)) is not None:
            return eng.to_json(s)
        return xmen_view.view(self.data, self.name, s)
