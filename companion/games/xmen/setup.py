"""Setting up X-Men Alert: options -> the first state (rulebook: Set Up, Going First).

Options: ``players`` (2 to 4 names, clockwise), ``advanced``, ``stat_cards`` (the X-Men each
player chose), ``first_player`` (skip the going-first roll), ``serious_remainder`` ("carry" or
"drop"), ``knocked_out_backer`` ("advances": a backer whose own roll sends him home still
moves the leader by his points; "lost", the reading of games journaled before the option), ``unconfirmed`` ("remind", the default: a move a rule refuses only on an assumed
Power Stat card is accepted with a reminder; "refuse"), ``typed_cards`` (Power Stat cards typed in from the box: resolved into the game's data
by ``typed_cards`` below, before setup), ``physical_decks`` (the decks the table draws itself:
draws.py) and, for tests and known first games, ``alert_deck``,
``stat_deck`` and ``luck_deck`` (card ids for the top of each deck; the rest shuffled beneath).
"""

from __future__ import annotations

import random
from typing import Any, Callable

from companion.errors import DataFileError, SetupError
from companion.games.base import unconfirmed_mode
from companion.games.xmen import data as xmen_data
from companion.games.xmen import draws, turn
from companion.games.xmen.data import XMenData
from companion.games.xmen.state import Hero, Team, XMenState, Zone
from companion.schema import shown

OPTIONS = {"players", "advanced", "stat_cards", "first_player", "alert_deck", "stat_deck",
           "luck_deck", "serious_remainder", "typed_cards", "box", "unconfirmed",
           "physical_decks", "knocked_out_backer"}
MAX_TYPED = 40
#: "Advance the leader one space on the Strength Track for every point that other character
#: scored" and "move the leader on the Strength Track and record hits on the character doing
#: battle": a backer's points count though his hits then send him home ("advances"); "lost"
#: keeps the first reading ("must return to Headquarters to recover before advancing"), which
#: a game journaled before this option has (it records no value)
BACKER_READINGS = ("advances", "lost")


def typed_cards(data: XMenData, options: dict[str, Any]) -> tuple[XMenData, list[dict[str, Any]]]:
    """The data a game with ``options["typed_cards"]`` plays with, and those cards as the game
    keeps them (typed in from a card in the box: printed values, not an assumption)."""
    typed = options.get("typed_cards", [])
    if (not isinstance(typed, list) or len(typed) > MAX_TYPED
            or not all(isinstance(v, dict) for v in typed)):
        raise SetupError(f"typed_cards is a list of up to {MAX_TYPED} Power Stat cards, each "
                         "{id, name, fighting_skill, durability, intelligence, total_power, "
                         "abilities}")
    if not typed:
        return data, []
    typed = [{**v, "assumption": False} for v in typed]
    try:
        resolved = xmen_data.with_typed_cards(data, typed)
    except DataFileError as err:
        raise SetupError(str(err)) from None
    ids = [v["id"] for v in typed]
    if len(set(ids)) != len(ids):
        raise SetupError("typed_cards: each card needs its own id")
    return resolved, typed


def setup(d: XMenData, options: dict[str, Any], rng: random.Random,
          typed: list[dict[str, Any]] = ()) -> XMenState:
    """The first state; ``d`` already holds the game's typed cards (``typed``)."""
    players = _players(options.get("players"))
    advanced = options.get("advanced", False)
    if not isinstance(advanced, bool):
        raise SetupError("advanced must be true or false")
    remainder = options.get("serious_remainder", "carry")
    if remainder not in ("carry", "drop"):
        raise SetupError("serious_remainder is \"carry\" or \"drop\"")
    # kept only when strict: a default game's state is what it was before the option existed
    strict = {"unconfirmed": "refuse"} if unconfirmed_mode(options) == "refuse" else {}
    backer = options.get("knocked_out_backer", "lost")
    if backer not in BACKER_READINGS:
        raise SetupError("knocked_out_backer is \"advances\" or \"lost\"")
    if backer != "lost":       # likewise: a game without the option plays as it always did
        strict["knocked_out_backer"] = backer
    physical = draws.checked(options.get("physical_decks"))
    teams, stat_deck = _teams(d, options, players, advanced, rng)
    s = XMenState(advanced=advanced, teams=teams, zones=[Zone() for _ in range(d.zones)],
                  alert_deck=_stacked(options, "alert_deck", d.alert_cards(advanced), rng,
                                      lambda x, o: _card(d.alert, x, o, "an X-Men Alert card id")),
                  alert_discard=[], stat_deck=stat_deck,
                  luck_deck=_stacked(options, "luck_deck", d.luck_cards(advanced), rng,
                                     lambda x, o: _card(d.luck, x, o, "a Training & Luck card id")),
                  luck_discard=[], options={"serious_remainder": remainder, **strict}, data=d)
    if typed:
        s.options["typed_cards"] = list(typed)
    if physical:
        s.options["physical_decks"] = physical
    s.log.append(f"Set up a{'n Advanced' if advanced else ' Basic'} game: "
                 + "; ".join(f"{t.player} with " + ", ".join(d.characters[h.id].name for h in t.heroes)
                             for t in teams) + ".")
    first = options.get("first_player")
    if first is None:
        s.first_to_roll = list(players)
    elif first not in players:
        raise SetupError("first_player must be one of the players")
    else:
        turn.start_play(s, players.index(first), rng)
    return s


def _players(players: Any) -> list[str]:
    if (not isinstance(players, list) or not 2 <= len(players) <= 4
            or not all(isinstance(p, str) and shown(p) and len(p) <= 40 for p in players)
            or len(set(players)) != len(players)):
        raise SetupError("players: give 2 to 4 different names (short strings), in seating "
                         "order clockwise: play passes to the left, the next name")
    return players


def _teams(d: XMenData, options: dict[str, Any], players: list[str], advanced: bool,
           rng: random.Random) -> tuple[list[Team], list[str]]:
    """Each player's X-Men (chosen, else dealt) and the Power Stat deck left: "Mix the X-Men Power
    Stat Cards and deal one card to each player" / "(Advanced) ... deal two"."""
    per = 2 if advanced else 1
    chosen = options.get("stat_cards") or {}
    if not isinstance(chosen, dict) or any(p not in players for p in chosen):
        raise SetupError("stat_cards maps player names to the X-Men each one chose")
    picks: dict[str, list[str]] = {}
    for p, ids in chosen.items():
        ids = [ids] if isinstance(ids, str) else ids
        # one of two chosen in the Advanced game: the other is dealt, as the rules deal both
        if not isinstance(ids, list) or not 1 <= len(ids) <= per:
            raise SetupError(f"stat_cards.{p}: each player takes {per} X-Men in the "
                             f"{'Advanced game (name one and the other is dealt)' if advanced else 'Basic game'}")
        picks[p] = [character(d, x, f"stat_cards.{p}") for x in ids]
    taken = [x for ids in picks.values() for x in ids]
    if len(set(taken)) != len(taken):
        raise SetupError("stat_cards: an X-Men can be on only one team")
    stat_deck = _stacked(options, "stat_deck", [c for c in d.characters if c not in taken], rng,
                         lambda x, o: character(d, x, o))
    teams = []
    for p in players:
        ids = picks.get(p, [])
        ids = ids + [stat_deck.pop(0) for _ in range(per - len(ids))]
        teams.append(Team(p, [Hero(i) for i in ids]))
    return teams, stat_deck


def _stacked(options: dict[str, Any], key: str, cards: list[str], rng: random.Random,
             resolve: Callable[[Any, str], str]) -> list[str]:
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


def character(d: XMenData, key: Any, option: str) -> str:
    found = d.named(key) if isinstance(key, str) else None
    if found is None:
        raise SetupError(f"{option}: {key!r} is not an X-Men of this box ("
                         + ", ".join(d.characters) + ")")
    return found


def _card(deck: dict[str, Any], key: Any, option: str, what: str) -> str:
    if isinstance(key, str) and key in deck:
        return key
    raise SetupError(f"{option}: {key!r} is not {what}")
