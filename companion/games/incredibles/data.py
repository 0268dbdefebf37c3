"""The Incredibles' component data, loaded from incredibles.toml (beside this module, or the owner's
copy) and checked before any game starts."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from companion.box import Boxed
from companion.components import Reader

FILE = "incredibles.toml"
KINDS = ("problem", "road_destroyed", "frozone", "jackjack", "edna")   # printed: the five card types
HERE = Path(__file__).resolve().parent
SHIPPED = HERE / FILE
MAX_COPIES = 40     # copies of one card an owner's data may give (X-Men Alert's counts stop there too)


@dataclass(frozen=True)
class Card:
    id: str
    kind: str          # problem | road_destroyed | frozone | jackjack | edna
    title: str
    tile: str | None = None
    power: str | None = None
    space: str | None = None


@dataclass(frozen=True)
class Hero:
    id: str
    name: str
    power: str
    die: tuple[str, ...]


@dataclass(frozen=True)
class MoveFace:
    id: str
    move: int
    alarm: bool


@dataclass(frozen=True)
class IncrediblesData:
    path: str
    powers: tuple[str, ...]
    track_spaces: int
    movement_die: tuple[MoveFace, ...]
    jackjack_die: tuple[str, ...]
    heroes: dict[str, Hero]
    start: str
    jackjack_start: str
    adjacency: dict[str, tuple[str, ...]]
    numbered: tuple[str, ...]
    tiles: dict[str, str]          # letter -> power
    cards: dict[str, Card]
    assumptions: dict[str, str]    # section -> note
    rank: dict[str, int]           # space -> its place in the board's order (numbers first)
    #: sections the owner has checked against the box (``confirmed = true``), and cards by id
    confirmed: frozenset[str] = frozenset()
    #: refuse on assumed data as on printed data (setup option ``unconfirmed = "refuse"``)
    strict: bool = False
    # The table draws the real cards and names each one (option ``physical_deck``); set at
    # setup by Incredibles.resolve_data, never read from the file.
    physical_deck: bool = False
    #: a space's printed name where it is not its id (board.labels: "start" is "Start")
    labels: dict[str, str] = field(default_factory=dict)

    def label(self, space: str) -> str:
        """``space`` as the board prints it: the one way a message names a space."""
        return self.labels.get(space, space)

    def trusted(self, section: str) -> bool:
        """Printed, or assumed and confirmed by the owner: a rule may refuse on it."""
        return self.strict or section not in self.assumptions or section in self.confirmed

    def describe(self) -> dict:
        return {
            "powers": list(self.powers),
            "track_spaces": self.track_spaces,
            "movement_die": [f.__dict__ for f in self.movement_die],
            "jackjack_die": list(self.jackjack_die),
            "heroes": [{"id": h.id, "name": h.name, "power": h.power, "die": list(h.die)}
                       for h in self.heroes.values()],
            "board": {"start": self.start, "numbered": list(self.numbered),
                      "tiles": self.tiles, "labels": self.labels,
                      "adjacency": {k: list(v) for k, v in self.adjacency.items()}},
            "cards": [c.__dict__ for c in self.cards.values()],
            "assumptions": self.assumptions,
            "file": self.path,
        }


def boxed(components_dir: str | Path | None = None) -> Boxed:
    """The shipped file beside this module (or the owner's copy of it) with the owner's box over
    it; checked before any game."""
    return Boxed("incredibles", FILE, HERE, parse, components_dir)


def load(components_dir: str | Path | None = None) -> IncrediblesData:
    return boxed(components_dir).data


def parse(raw: dict, path: Path | str) -> IncrediblesData:
    top = Reader(raw, path)
    powers = tuple(top.strings("powers"))
    if not powers:
        raise top.fail("powers", "needs at least one power")
    assumptions: dict[str, str] = {}
    confirmed: set[str] = set()

    def note(section: Reader, name: str) -> None:
        if section.get("assumption", bool, False):
            assumptions[name] = section.get("note", str, "assumed, not printed")
        if section.get("confirmed", (bool, list), False) is True:
            confirmed.add(name)

    track = top.table("problem_track")
    spaces = track.get("spaces", int)
    if not 1 <= spaces <= 10:
        raise track.fail("spaces", "must be between 1 and 10")
    note(track, "problem_track")
    movement_die = _movement_die(top.table("movement_die"), note)
    jj = top.table("jackjack_die")
    note(jj, "jackjack_die")
    jj_faces = tuple(jj.strings("faces"))
    _check_faces(jj, "faces", jj_faces, set(powers) | {"wild"})
    heroes = _heroes(top, powers, note)
    board = _board(top.table("board"), powers, note)
    cards = _deck(top.table("deck"), powers, board, spaces, note)
    confirmed.update(_confirmed_cards(top.table("deck"), cards))
    return IncrediblesData(
        path=str(path), powers=powers, track_spaces=spaces, movement_die=movement_die,
        jackjack_die=jj_faces, heroes=heroes, cards=cards, assumptions=assumptions,
        rank={s: i for i, s in enumerate(sorted(board["adjacency"], key=space_order))}, **board,
        confirmed=frozenset(confirmed),
    )


def _confirmed_cards(deck: Reader, cards: dict[str, Card]) -> list[str]:
    """The cards the owner has checked one by one (deck.confirmed: card ids)."""
    ids = deck.get("confirmed", (list, bool), [])
    if isinstance(ids, bool):
        return list(cards) if ids else []
    unknown = [c for c in ids if c not in cards]
    if unknown or not all(isinstance(c, str) for c in ids):
        raise deck.fail("confirmed", f"unknown card(s) {unknown}: confirmed lists card ids")
    return list(ids)


def _movement_die(move_t: Reader, note) -> tuple[MoveFace, ...]:
    note(move_t, "movement_die")
    move_faces = []
    for f in move_t.tables("faces"):
        move = f.get("move", int)
        if not 0 <= move <= 12:
            raise f.fail("move", "must be between 0 and 12")
        move_faces.append(MoveFace(f.get("id", str), move, f.get("alarm", bool, False)))
    if not move_faces:
        raise move_t.fail("faces", "the movement die needs faces")
    return tuple(move_faces)


def _heroes(top: Reader, powers: tuple[str, ...], note) -> dict[str, Hero]:
    heroes = {}
    for h in top.tables("heroes"):
        own = h.one_of("power", set(powers))
        die = tuple(h.strings("die")) if "die" in h.data else (*powers, own, "wild")
        _check_faces(h, "die", die, set(powers) | {"wild"})
        hero = Hero(h.get("id", str), h.get("name", str), own, die)
        if hero.id in heroes:
            raise h.fail("id", f"hero {hero.id!r} appears twice")
        if any(other.name.casefold() == hero.name.casefold() for other in heroes.values()):
            raise h.fail("name", f"{hero.name!r} names two heroes: the table could not tell "
                                 "them apart")
        heroes[hero.id] = hero
        note(h, f"hero {hero.id}")
    if not heroes:
        raise top.fail("heroes", "needs at least one hero")
    return heroes


def _board(board: Reader, powers: tuple[str, ...], note) -> dict:
    """The board's spaces and roads: start, numbered spaces, lettered tiles, adjacency."""
    note(board, "board")
    start = board.get("start", str)
    n = board.get("numbered", int)
    if not 1 <= n <= 200:
        raise board.fail("numbered", "must be between 1 and 200")
    numbered = tuple(str(i) for i in range(1, n + 1))
    tiles = {}
    for t in board.tables("tiles"):
        letter = t.get("letter", str)
        if letter in tiles or letter in numbered or letter == start:
            raise t.fail("letter", f"{letter!r} names a space twice")
        tiles[letter] = t.one_of("power", set(powers))
    spaces_all = {start, *numbered, *tiles}
    adjacency: dict[str, set[str]] = {s: set() for s in spaces_all}
    links = board.get("links", list)
    if board.get("ring", bool, False):
        links = links + [[numbered[i], numbered[(i + 1) % n]] for i in range(n)]
    for i, link in enumerate(links):
        if (not isinstance(link, list) or len(link) != 2
                or not all(isinstance(s, str) and s in spaces_all for s in link)):
            raise board.fail(f"links[{i}]", f"{link!r} must be two known spaces")
        a, b = link
        adjacency[a].add(b)
        adjacency[b].add(a)
    jackjack_start = board.get("jackjack_start", str)
    if jackjack_start not in numbered:
        raise board.fail("jackjack_start", "must be a numbered space")
    labels = board.get("labels", dict, {})
    for space, label in labels.items():
        if space not in spaces_all or not isinstance(label, str) or not label.strip():
            raise board.fail(f"labels.{space}", "must name a known space with some words")
    return {"start": start, "jackjack_start": jackjack_start, "numbered": numbered,
            "tiles": tiles, "labels": dict(labels),
            # in the board's order (a set's changes from run to run, and a refusal lists them)
            "adjacency": {k: tuple(sorted(adjacency[k], key=space_order))
                          for k in sorted(adjacency, key=space_order)}}


def _deck(deck: Reader, powers: tuple[str, ...], board: dict, spaces: int,
          note) -> dict[str, Card]:
    note(deck, "deck")
    unknown = set(deck.data) - {*KINDS, "assumption", "note", "confirmed"}
    if unknown:
        raise deck.fail(sorted(unknown)[0], f"unknown card kind: the kinds are {', '.join(KINDS)}")
    cards: dict[str, Card] = {}
    tiles, numbered = board["tiles"], board["numbered"]

    def add(card: Card) -> None:
        if card.id in cards:
            raise deck.fail(card.kind, f"card {card.id} appears twice")
        cards[card.id] = card

    for letter in deck.strings("problem"):
        if letter not in tiles:
            raise deck.fail("problem", f"{letter!r} is not a lettered tile of the board")
        add(Card(f"problem-{letter}", "problem", f"Problem {letter}", tile=letter,
                 power=tiles[letter]))
    for space in deck.strings("road_destroyed"):
        if space not in numbered:
            raise deck.fail("road_destroyed", f"{space!r} is not a numbered space")
        add(Card(f"road-{space}", "road_destroyed", f"Road Destroyed: space {space}",
                 space=space))
    for power in deck.strings("frozone"):
        if power not in powers:
            raise deck.fail("frozone", f"{power!r} is not a power")
        add(Card(f"frozone-{power}", "frozone", f"Frozone Helps: {power.title()}", power=power))
    for space in deck.strings("jackjack"):
        if space not in numbered:
            raise deck.fail("jackjack", f"{space!r} is not a numbered space")
        add(Card(f"jackjack-{space}", "jackjack", f"Jack-Jack Teleports: space {space}",
                 space=space))
    edna = deck.get("edna", int)
    if not 0 <= edna <= MAX_COPIES:      # a million made every move take seconds
        raise deck.fail("edna", f"{edna} copies: give 0 to {MAX_COPIES}")
    for i in range(edna):
        add(Card(f"edna-{i + 1}", "edna", "Edna Rescues"))
    if sum(c.kind == "problem" for c in cards.values()) < spaces:
        raise deck.fail("problem", f"needs at least {spaces} problem cards to start")
    return cards


def _check_faces(section: Reader, key: str, faces: tuple[str, ...], allowed: set[str]) -> None:
    if not faces:
        raise section.fail(key, "a die needs faces")
    bad = [f for f in faces if f not in allowed]
    if bad:
        raise section.fail(key, f"unknown face(s) {bad}: faces are powers or 'wild'")


def space_order(space: str) -> tuple[int, str]:
    return (0, f"{int(space):04d}") if space.isdigit() else (1, space)
