"""Invincible: The Hero-Building Game (rulebook: shared/seeds/002_97f3d96307004ec9.txt).

The companion tracks the board and the procedure: the episode track, villains placed and acting,
civilians endangered, heroes' bags, pulls, crashes, confidence and training, the end checks and
the score, and the hero-time timer. It cannot know every card's text, so card effects are
generic actions the players apply when a card says so; the rules the rulebook gives about them
(range, HQ, caps, immunity) are enforced.

Where things live: the move table below ((phase, action) -> handler, arguments, who), the
handlers in moves_<phase>.py (moves_round: advance and the team's moves; moves_pull: the Hero
Phase's cubes and the crash die; moves_hero: powers resolving and card effects; moves_training;
moves_villain: the event card and the answers to the companion's questions), the automatic
procedure in villains.py, the battlefield in board.py, expect/reminders/JSON in view.py.
"""

from __future__ import annotations

import dataclasses

import random
from pathlib import Path
from typing import Any

from companion.actions import Action
from companion.dice import DiceRequest
from companion.errors import CompanionError, IllegalAction
from companion.games.base import Game, unconfirmed_mode
from companion.games.invincible import (
    args, at_once, board, campaign, card_powers, data, hero_time, moves_hero, moves_pull,
    moves_round, moves_training, moves_villain, resolve, robot, sampler, setup, view, view_dice,
)
from companion.games.invincible.invariants import invariants
from companion.games.invincible.scoring import score
from companion.games.invincible.state import (
    HERO_TIMER, R_ADVANCE, R_CHALLENGE, R_HERO, R_HERO_END, R_SCORING, R_TRAINING, R_VILLAIN,
    R_WINLOSE, InvincibleState,
)
from companion.games.move_table import ANY, TABLE, Move, MoveTable, Play
from companion.schema import NO_ARGS
from companion.timers import TIMER_ACTIONS, Timer

PHASES = ("advance", "hero", "hero_end", "crash", "training", "villain", "choose", "roll",
          "manual", "contingency")
#: the Hero Phase moves each hero makes for themselves: expect lists them hero by hero
HERO_TURN = ("play", "drop", "pull", "defiance", "done")


def move_table(d: data.InvincibleData) -> MoveTable:
    """Invincible's moves by phase. Heroes act at the same time in the Hero and Training Phases
    (who=ANY: the hero is data.hero, or the player's own hero); the table's moves need nobody."""
    a = args.schemas(d)
    return MoveTable([*_round_moves(a), *_hero_moves(a), *_training_moves(a), *_team_moves(a)])


def _round_moves(a: dict) -> list[Move]:
    """The round (moves_round), the Villain Phase and the companion's questions (moves_villain)."""
    s = sampler
    return [
        Move("advance", ("advance",), moves_round.advance, a["advance"], TABLE, rule=R_ADVANCE,
             sample=s.advance, doc="Advance the episode: move the round marker and resolve its "
                                   "icons (data.villains: villain cards drawn from a physical "
                                   "deck, in order)."),
        Move("reveal", ("villain",), moves_villain.reveal, a["reveal"], TABLE, rule=R_VILLAIN,
             sample=s.reveal,
             doc="Reveal the event card (data.card: the card drawn from a physical deck)."),
        Move("choose", ("choose",), moves_villain.choose, a["choose"], TABLE, sample=s.choose,
             doc="Answer the companion's question (data.zone or data.villain)."),
        Move("roll", ("roll",), moves_villain.roll, a["roll"], TABLE, sample=s.roll,
             doc="Roll the rescue die for a random zone (data.face, omit for a virtual roll)."),
        Move("resolved", ("contingency", "manual"), moves_villain.resolved, NO_ARGS, TABLE,
             sample=s.nothing,
             doc="The power being resolved (or the effect the companion asked for) is done."),
    ]


def _hero_moves(a: dict) -> list[Move]:
    """The Hero Phase (moves_pull, moves_hero): a hero's own moves first, by name (as expect
    lists them), then the power resolving and the card effects, then the crash die."""
    s, hero, effects = sampler, ("hero",), ("manual",)
    own = [Move(name, hero, move, a[name], ANY, move.when, R_HERO, sample=getattr(s, name),
                doc=HERO_DOCS[name])
           for name, move in (("defiance", moves_pull.DEFIANCE), ("done", moves_pull.DONE),
                              ("drop", moves_pull.DROP), ("play", moves_pull.PLAY),
                              ("pull", moves_pull.PULL))]
    return [
        *own,
        Move("effect", ("hero", "hero_end"), resolve.EFFECT, a["effect"], ANY,
             resolve.EFFECT.when, R_HERO, sample=s.effect,
             doc="Apply an effect of the power resolving with the card's amount (data.step, "
                 "omit for the first open; the choice the card leaves: data.target, data.zone, "
                 "data.to, data.crashed with data.face, data.villain, data.ability, "
                 "data.colour, data.slot)."),
        Move("decline", ("hero", "hero_end"), resolve.DECLINE, a["decline"], ANY,
             resolve.DECLINE.when, R_HERO, sample=s.decline,
             doc="Skip an effect of the power resolving that the card lets you skip (data.step)."),
        *(Move(name, effects, move, a[name], ANY, move.when, R_HERO, sample=s.EFFECTS[name],
               doc=EFFECT_DOCS[name]) for name, move in moves_hero.EFFECTS.items()),
        Move("crash_roll", ("crash",), moves_pull.CRASH_ROLL, a["crash_roll"], ANY,
             moves_pull.CRASH_ROLL.when, R_HERO_END, sample=s.crash_roll,
             doc="Crash damage at the end of the Hero Phase (data.hero, data.faces: the crash die "
                 "faces rolled in order, omit for a virtual roll)."),
    ]


def _training_moves(a: dict) -> list[Move]:
    t = moves_training
    moves = (("learn", "learn", t.LEARN), ("punch", "punch", t.PUNCH_MOVE),
             ("train_cube", "train_cube", t.TRAIN_CUBE),
             ("discard_power", "discard_power", t.DISCARD_POWER), ("arrange", "arrange", t.ARRANGE),
             ("done", "done.training", t.FINISH))
    return [Move(name, ("training",), move, a[key], ANY, move.when, R_TRAINING,
                 sample=sampler.TRAINING[name], doc=TRAINING_DOCS.get(name, ""))
            for name, key, move in moves]


def _team_moves(a: dict) -> list[Move]:
    """Open all game long (moves_round)."""
    s = sampler
    return [
        Move("use_helper", PHASES, moves_round.use_helper, a["use_helper"], TABLE,
             lambda st: bool(moves_round.usable_helpers(st)), R_CHALLENGE, sample=s.use_helper,
             doc="Spend a helper card (data.helper; data.cancel for Cecil's Contingency; "
                 "data.hero: the hero a helper's effects come through, in the Hero Phase); its "
                 "effects then resolve as steps, answered with effect."),
        Move("episode_bonus", PHASES, moves_round.episode_bonus, a["episode_bonus"], TABLE,
             sample=s.episode_bonus,
             doc="The episode's bonus scoring condition is met (data.met: true/false)."),
        Move("declare_win", PHASES, moves_round.DECLARE_WIN, NO_ARGS, TABLE,
             moves_round.DECLARE_WIN.when, R_WINLOSE, sample=s.nothing,
             doc="The episode's win condition (which the companion cannot check) is met."),
    ]


HERO_DOCS = {
    "pull": "Pull cubes from your bag (data.hero; data.cubes: the colours pulled, omit for a "
            "virtual pull).",
    "defiance": "Flip your defiance token: set the pull aside, pull fresh cubes (data.cubes).",
    "play": "Play a ready cube on a power (data.hero, data.cube, data.power = slot, optional "
            "data.symbol).",
    "drop": "Drop a ready cube (data.hero, data.cube).",
    "done": "Your Hero Phase (or Training Phase) is over (data.hero; in training optional "
            "data.ultimates refill cards from the Ultimate deck, data.drawn the cards drawn from "
            "physical decks).",
}
EFFECT_DOCS = {
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
    "hurt": "A hero takes damage a card deals (data.hero, data.amount).",
    "minions": "Place (data.count > 0) or remove (< 0) minions in a zone (data.zone).",
    "bubble": "Atom Eve gives her bubble token to a hero (data.hero, data.target).",
    "clear_power": "Clean Slate: a power's cubes go back to the bag (data.hero, data.power).",
}
TRAINING_DOCS = {
    "learn": "Learn a power from hand (data.hero, data.card, data.slot; Ultimates: the slot of "
             "the Super Power above).",
    "punch": "Discard a card to take Learn By Punching (data.hero, data.discard, data.slot).",
    "train_cube": "Discard a power from hand to gain a cube of its colour (data.hero, "
                  "data.discard, data.colour).",
    "discard_power": "Discard a learned power (data.hero, data.slot).",
    "arrange": "Swap the powers of two slots (data.hero, data.slots = [a, b]).",
}


class Invincible(Game):
    name = "invincible"
    title = "Invincible: The Hero-Building Game"
    dice_set = "invincible"
    read_types = frozenset({"pull", "defiance"})   # a hero's pull area; defiance's fresh pull
    table_dir = Path(__file__).resolve().parent
    phase_rules = {"advance": R_ADVANCE, "hero": R_HERO, "hero_end": R_HERO_END,
                   "crash": R_HERO_END, "training": R_TRAINING, "villain": R_VILLAIN,
                   "roll": R_VILLAIN, "manual": R_VILLAIN, "choose": R_VILLAIN,
                   "contingency": R_VILLAIN, "over": R_WINLOSE}

    def __init__(self, components_dir=None):
        super().__init__(components_dir)
        self.boxed = data.boxed(components_dir)
        self.data = self.boxed.data
        self.declare(move_table(self.data))
        self.actions = {**self.actions, **hero_time.DOCS}

    # -- setup ------------------------------------------------------------------------------------

    def prepare_options(self, options: dict[str, Any], history: list[dict[str, Any]]) -> dict[str, Any]:
        # A campaign named only by its id continues from the results the journal holds.
        camp = options.get("campaign")
        if isinstance(camp, dict) and "id" in camp and "history" not in camp:
            records = campaign.history_from_games(history, camp["id"])
            options = {**options, "campaign": {**camp, "history": records}}
        # a new game records the literal readings unless the table chose (setup.PUNCH_READINGS,
        # setup.SELF_DAMAGE_READINGS, setup.HERO_TIME_CONTROLS)
        return {"learn_by_punching": "instead", "self_damage": "any_order",
                "hero_time_controls": "hero_phase", **options}

    def resolve_data(self, options: dict[str, Any]) -> data.InvincibleData:
        """The data the game began with: the owner's box it recorded, else the base files; with
        ``unconfirmed = "refuse"`` assumed numbers are refused on like printed ones (default
        "remind": learning a power whose assumed cost is more than the assumed confidence left
        is accepted with a reminder)."""
        strict = unconfirmed_mode(options) == "refuse"
        resolved = self.boxed.for_options(options)
        return dataclasses.replace(resolved, strict=True) if strict else resolved

    def setup(self, options: dict[str, Any], rng: random.Random) -> InvincibleState:
        return setup.setup(self.resolve_data(options), options, rng)

    def sample_options(self, rng: random.Random) -> dict[str, Any]:
        return sampler.sample_options(self.data, rng)

    def sample_action(self, state: InvincibleState, rng: random.Random) -> Action:
        if self.is_over(state):
            raise IllegalAction("the game is over")
        return robot.robot(state, rng)

    # -- reading the state ------------------------------------------------------------------------

    def outcome(self, s: InvincibleState) -> dict[str, Any]:
        sc = score(s)
        if s.result is None:
            return {"status": "playing", "score": sc["total"], "score_items": sc["items"]}
        out = dict(s.result)
        out.update(score=sc["total"], score_items=sc["items"], rule_scoring=R_SCORING)
        if s.campaign is not None:
            out["campaign"] = campaign.record(s, sc["total"])
        return out

    def is_over(self, s: InvincibleState) -> bool:
        return s.result is not None

    def phase_of(self, s: InvincibleState) -> str:
        return view.table_phase(s)

    def players_of(self, s: InvincibleState) -> tuple[str, ...]:
        """A hero is named by its id or name, or by its player's name."""
        return tuple(dict.fromkeys(x for h in s.heroes for x in (h.id, h.name, h.player)))

    def shown_name(self, s: InvincibleState, player: str) -> str:
        """A hero's name for its id (a pull's read names the hero by id), as the pages show it."""
        return next((h.name for h in s.heroes if h.id == player), player)

    def chosen_on(self, s: InvincibleState, action: Action) -> Any:
        return at_once.chosen_on(s, action)

    def timers(self, s: InvincibleState) -> dict[str, Timer]:
        return {HERO_TIMER: s.timer} if s.timer is not None else {}

    def timer_controls(self, s: InvincibleState) -> dict[str, Any]:
        return hero_time.controls(s)

    def components(self) -> dict[str, Any]:
        return self.data.describe()

    def dice(self) -> dict[str, tuple[str, ...]]:
        return {d.set: d.sides for d in (view_dice.rescue_die(self.data), view_dice.crash_die(self.data))}

    def expect(self, s: InvincibleState) -> dict[str, Any]:
        if self.is_over(s):
            return view.expect(s, [], {})
        moves = self.moves.open(self.phase_of(s), s)
        mine = {}
        if s.phase == "hero" and s.pending is None:
            turn = {m.type: m.handler for m in moves if m.type in HERO_TURN}
            mine = {h.id: [t for t in HERO_TURN if t in turn and turn[t].open_for(s, h)]
                    for h in s.heroes}
        return view.expect(s, [m.type for m in moves], mine)

    def read_requests(self, s: InvincibleState) -> list[DiceRequest]:
        """Every hero's pull area in the Hero Phase: a read for a hero who may not pull now is
        refused by the pull itself, with its reason."""
        if self.is_over(s) or s.phase != "hero" or s.pending is not None:
            return []
        return view_dice.pull_reads(s, [h.id for h in s.heroes])

    def drawn_requests(self, s: InvincibleState) -> list[DiceRequest]:
        """Every hero's defiance while a pull could be read (a defiance not open now is refused
        by the move itself)."""
        return view_dice.defiance_draws(self.read_requests(s))

    def reminders(self, s: InvincibleState) -> list[dict[str, str]]:
        return view.reminders(s)

    def to_json(self, s: InvincibleState) -> dict[str, Any]:
        return view.to_json(s)

    def view_json(self, s: InvincibleState,
                  before: tuple[InvincibleState, dict[str, Any]] | None) -> dict[str, Any]:
        return view.to_json(s, before)

    def invariants(self, s: InvincibleState) -> list[str]:
        return invariants(s)

    # -- moves ------------------------------------------------------------------------------------

    def apply(self, state: InvincibleState, action: Action, rng: random.Random) -> InvincibleState:
        if action.type in TIMER_ACTIONS:     # hero time: the session's clock, not a move
            return hero_time.apply(state, action)
        return super().apply(state, action, rng)

    def after_move(self, s: InvincibleState, play: Play) -> InvincibleState:
        if s.resolutions:
            resolve.settle_all(s, play.action.at if play.action.at is not None else 0.0)
        card_powers.drop_stale_drone(s)
        board.check_end(s)
        if s.result is not None and s.phase != "over":
            board.finish(s, play.rng, play.action.at if play.action.at is not None else 0.0)
        return s.settle()

    def refuse_over(self, s: InvincibleState, action: Action) -> IllegalAction:
        return IllegalAction(f"the game is over ({s.result['status']}: {s.result['reason']})",
                             R_WINLOSE)

    def refuse_closed(self, s: InvincibleState, action: Action) -> CompanionError:
        """A move not open now is refused in its own words: its handler's checks (which change
        nothing) say which rule forbids it; a move of another phase, by what the table waits for."""
        phase = self.phase_of(s)
        if phase in ("hero", "hero_end") and (action.type in moves_hero.EFFECTS
                                              or action.type == "resolved"):
            return moves_hero.from_a_power(action.type)
        move = self.moves.get(phase, action.type)
        if move is not None:
            try:
                move.handler(s, Play(move.args.check(action.data, action.type), action,
                                     random.Random(0)))
            except CompanionError as refusal:
                return refusal
        if s.pending is not None:
            return IllegalAction(f"waiting for: {s.pending['prompt']}", s.pending["rule"])
        return super().refuse_closed(s, action)

