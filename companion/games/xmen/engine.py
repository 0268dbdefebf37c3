"""The Uncanny X-Men Alert Adventure Game (rulebook: shared/seeds/004_4d0143f029a592d7.txt).

Basic and Advanced are one engine: ``options["advanced"]`` switches the Advanced sections on.
A turn: Step 1 fills empty Battle Zones (done by the companion as the turn begins); Step 2 the
team deploys and battles, one roll per character; Step 3 (Advanced) recruits; Step 4 recovers at
Headquarters; ``turn.end`` does Step 5 (turn in, bonus dice, Experience Track) and Step 6.
Physical dice arrive as data.faces; omitting them rolls virtual dice from the journal's seed.

Where things live: the move table below (phase, action -> handler, arguments, who, when it is
open); the handlers in moves_<phase>.py (first, play, bonus; game.abandon in moves_any.py); what
is open now in choices.py; the Battle Zones in battle.py, recovery in recovery.py, the Experience
Track in track.py, held cards in cards.py, the turn's frame in turn.py, the die in dice.py;
expect, reminders and the JSON in view.py; random play in sampler.py.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from companion.actions import Action
from companion.errors import CompanionError
from companion.games.base import Game, check_option_names
from companion.games.move_table import ANY, TABLE, TURN, Move, MoveTable, Play
from companion.games.xmen import cards, choices, sampler, setup, view
from companion.games.xmen import data as xmen_data
from companion.games.xmen.data import XMenData
from companion.games.xmen.dice import FACES_READ
from companion.games.xmen.moves_any import game_abandon
from companion.games.xmen.moves_bonus import bonus_roll
from companion.games.xmen.moves_draw import draw
from companion.games.xmen.moves_first import first_roll
from companion.games.xmen.moves_play import (battle_roll, card_play, deploy, recover_roll,
                                             recruit_roll, turn_end)
from companion.games.xmen.state import (LOG_LENGTH, R_BONUS, R_FIGHT, R_FIRST, R_LUCK, R_PLAYING,
                                        R_RECOVER, R_RECRUIT, R_STEP1, R_TURN_IN, R_WIN, XMenState,
                                        invariants)
from companion.schema import Arg, Args, ListOf, Text, Whole

NAME = Text(max_len=40)          # a character or a player, by id or name
FACES = Arg(FACES_READ, required=False, doc="the faces read; omit them to roll virtual dice")


def move_table(d: XMenData) -> MoveTable:
    """X-Men Alert's moves. In each phase the table's order is the order expect lists them."""
    zone = Arg(Whole(1, d.zones), required=False, doc="the Battle Zone (default: the one the "
                                                       "team is fighting in)")
    optional = Arg(NAME, required=False)
    roll = Args({"faces": FACES})
    fight = Args({"zone": zone, "hero": optional, "faces": FACES, "attack": optional,
                  "hits_to": Arg(ListOf(NAME, min_len=1, max_len=d.max_dice, one=True),
                                 required=False),
                  "new_leader": optional})
    play = ("play",)
    return MoveTable([
        Move("first.roll", ("first",), first_roll, roll, who=ANY, rule=R_FIRST,
             sample=sampler.first_roll,
             doc="Going first: a player's roll of 5 dice (data.faces; omit to roll virtual dice)."),
        Move("battle.roll", play, battle_roll, fight, when=lambda s: choices.can_fight(s, "battle"),
             rule=R_FIGHT, sample=sampler.battle_roll,
             doc="One character's battle roll in a zone: data.zone, optional data.hero (the next "
                 "to fight), data.faces, data.attack (an alternative attack such as "
                 "\"wing_missile\"), data.hits_to, data.new_leader."),
        Move("recover.roll", play, recover_roll, Args({"hero": optional, "faces": FACES}),
             when=choices.can_recover, rule=R_RECOVER, sample=sampler.recover_roll,
             doc="A character's recovery roll at Headquarters (Durability dice): data.hero, "
                 "data.faces."),
        Move("recruit.roll", play, recruit_roll, fight,
             when=lambda s: choices.can_fight(s, "recruit"), rule=R_RECRUIT,
             sample=sampler.recruit_roll,
             doc="One character's recruiting roll (Intelligence dice, Advanced): data.zone, "
                 "optional data.hero, data.faces, data.new_leader."),
        Move("deploy", play, deploy,
             Args({"zone": Arg(Whole(1, d.zones)),
                   "heroes": Arg(ListOf(NAME, min_len=1, max_len=len(d.characters), one=True),
                                 required=False),
                   "hero": optional, "leader": optional}),
             when=choices.deploy_open, rule=R_FIGHT, sample=sampler.deploy,
             doc="Move characters from Headquarters to a Battle Zone: data.zone (1-3), "
                 "data.heroes (list of character ids), optional data.leader for a new battle."),
        Move("card.play", play, card_play,
             Args({"card": Arg(NAME), "target": optional, "hero": optional}),
             who=ANY, when=cards.any_playable, rule=R_LUCK, sample=sampler.card_play,
             doc="Play a held Training & Luck card: data.card, and data.target (a player) or "
                 "data.hero (a character) when the card needs one."),
        Move("turn.end", play, turn_end, when=choices.can_end, rule=R_TURN_IN,
             sample=sampler.turn_end,
             doc="End the turn: turn in captured Evil Mutants and move on the Experience Track."),
        Move("bonus.roll", ("bonus",), bonus_roll, roll, rule=R_BONUS, sample=sampler.bonus_roll,
             doc="Experience Bonus dice as the team turns in (Advanced): data.faces."),
        Move("draw", ("draw",), draw, Args({"card": Arg(Text(max_len=60))}), who=TABLE,
             rule=R_STEP1, sample=sampler.draw,
             doc="With the table's own decks (option physical_decks): the card drawn from the "
                 "deck the table draws now, data.card (its id or printed name)."),
        Move("game.abandon", ("first", "play", "bonus", "draw"), game_abandon,
             Args({"reason": Arg(Text(min_len=0, max_len=200), required=False)}),
             who=TABLE, sample=sampler.game_abandon,
             doc="The table stops the game without a winner: optional data.reason."),
    ])


class XMenAlert(Game):
    name = "xmen-alert"
    title = "The Uncanny X-Men Alert Adventure Game"
    dice_set = "xmen"
    table_dir = Path(__file__).resolve().parent
    # Competitive: every finished game has a winner ("game.abandon" ends one without, by choice).
    outcomes = ("won",)
    phase_rules = {"first": R_FIRST, "play": R_PLAYING, "bonus": R_PLAYING, "draw": R_STEP1,
                   "over": R_WIN}
    turn_rule = R_PLAYING

    def __init__(self, components_dir=None):
        super().__init__(components_dir)
        self.boxed = xmen_data.boxed(components_dir)
        self.data = self.boxed.data
        self.declare(move_table(self.data))

    # -- setup ------------------------------------------------------------------------------------

    def resolve_data(self, options: dict[str, Any]) -> XMenData:
        """The data the game began with (the owner's box it recorded, else the base file) with
        its typed Power Stat cards (option ``typed_cards``) in it."""
        return setup.typed_cards(self.boxed.for_options(options), options)[0]

    def prepare_options(self, options: dict[str, Any], history: list[dict[str, Any]]) -> dict[str, Any]:
        # a new Advanced game (backers are Advanced) records the literal reading unless the
        # table chose (setup.BACKER_READINGS)
        return {"knocked_out_backer": "advances", **options} if options.get("advanced") is True \
            else options

    def setup(self, options: dict[str, Any], rng: random.Random) -> XMenState:
        check_option_names(options, setup.OPTIONS)
        data, typed = setup.typed_cards(self.boxed.for_options(options), options)
        return setup.setup(data, options, rng, typed)

    def sample_options(self, rng: random.Random) -> dict[str, Any]:
        return sampler.options(rng)

    # -- reading the state ------------------------------------------------------------------------

    def outcome(self, s: XMenState) -> dict[str, Any]:
        score = {}
        for t in s.teams:       # a loop rather than a comprehension's frame: asked every action
            score[t.player] = t.mover
        if s.winner is not None:
            goal = "the Victory space" if s.advanced else "the first X-Men Recruit space"
            return {"status": "won", "winner": s.winner, "reason": f"{s.winner} reached {goal}",
                    "rule": R_WIN, "score": score}
        if s.ended is not None:
            return {"status": "lost", "reason": s.ended, "score": score}
        return {"status": "playing", "score": score}

    def is_over(self, s: XMenState) -> bool:
        return s.phase == "over"

    def turn_of(self, s: XMenState) -> tuple[str, ...]:
        if s.phase in ("play", "bonus", "draw"):
            return (s.current.player,)
        return (s.first_to_roll[0],) if s.phase == "first" and s.first_to_roll else ()

    def players_of(self, s: XMenState) -> tuple[str, ...]:
        return tuple([t.player for t in s.teams])

    def expect(self, s: XMenState) -> dict[str, Any]:
        return view.expect(s, self.open_moves(s))

    def reminders(self, s: XMenState) -> list[dict[str, str]]:
        return view.reminders(s)

    def to_json(self, s: XMenState) -> dict[str, Any]:
        return view.to_json(s)

    def invariants(self, s: XMenState) -> list[str]:
        return invariants(s)

    def components(self) -> dict[str, Any]:
        return self.data.describe()

    def dice(self) -> dict[str, tuple[str, ...]]:
        return {"xmen-alert": self.data.faces}

    # -- the move table's hooks --------------------------------------------------------------------

    def after_move(self, s: XMenState, play: Play) -> XMenState:
        if s.winner is not None:
            s.phase = "over"
            s.log.append(f"{s.winner} wins!")
        del s.log[:-LOG_LENGTH]
        return s

    def refuse_closed(self, s: XMenState, action: Action) -> CompanionError:
        """A move the table does not list now is refused in its own rule's words where it has
        them ("Battle Zone 1 holds an X-Men to recruit: use recruit.roll there"): its handler's
        checks fail for every argument when its ``when`` is false, and say why. Another
        player's move is refused as such first (the words are the current team's)."""
        move = self.moves.get(self.phase_of(s), action.type)
        if move is None or (action.player is not None
                            and action.player not in self.players_of(s)):
            return super().refuse_closed(s, action)
        if move.who == TURN and action.player is not None and action.player not in self.turn_of(s):
            return self.refuse_player(s, action)
        try:
            move.handler(s, Play(move.args.check(action.data, action.type), action,
                                 random.Random(0)))
        except CompanionError as exc:
            return exc
        return super().refuse_closed(s, action)

    def sample_action(self, s: XMenState, rng: random.Random) -> Action:
        """A random open move, in the random player's order of preference (sampler.py), with
        random valid data from that move's sampler (None: the move has no valid data now)."""
        if not self.is_over(s):
            for kind in sampler.preference(s, rng):
                action = self.sample_move(s, kind, rng)
                if action is not None:
                    return action
        return super().sample_action(s, rng)
