"""The card area at the table: a card laid in the marked area (or held up to the camera) when the
game waits for the players to name a card they drew from the real deck (The Incredibles' option
``physical_deck``, X-Men's ``physical_decks``: expect offers ``draw`` with the deck's cards;
Invincible's Villain Phase: ``reveal``, named by expect's ``deck_action``) is named by
vision/cards.py and submitted as that draw. The engine still checks it: a card no longer in the deck is refused with
the rule's reason. A card the book cannot name for sure asks for a tap and applies nothing.

The book is taught once per game from the box's cards (the engine's component data): from the
owner's photos ``<data>/cards/<game>/<card id>.png`` (or .jpg), taken with the camera on the
"Your box" page (``take``: the walk-through names each card in turn, vision/card_teach.py checks
and keeps the photo) or put there by hand; in a simulation whose owner has taught none yet, from
rendered stand-ins (vision/card_render.py). The simulated camera can show a stand-in laid in
the card area (``lay``), so the walk-through and a physical-deck draw work without a camera. Cards that share a title
are the same printed card (The Incredibles' three "Edna Rescues"): they are taught as one face
and a read of it names whichever of them is still in the deck.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import numpy as np

from companion.actions import Action
from companion.errors import CompanionError, DataFileError, IllegalAction
from vision import card_teach
from vision.card_render import card as stand_in_card
from vision.card_render import draw as lay_on_table
from vision.cards import CardBook
from vision.errors import BadImage, CameraError, TeachError, VisionError
from vision.images import read_image
from vision.settle import MOTION_FRACTION, changed, thumbnail

log = logging.getLogger(__name__)
PHOTO_SUFFIXES = (".png", ".jpg", ".jpeg")
DECK = "cards"            # the deck a physical-deck draw names (The Incredibles' 30 cards)
STEADY_TRIES = 12         # frames a take waits for the card area to keep still (under 1 s at 15 fps)
FRESH_S = 10.0            # for each new frame (the camera's thread may be busy reading dice)


def decks(components: dict[str, Any]) -> dict[str, list[dict[str, str]]]:
    """The game's decks that can be taught by camera: each list of its component data named
    ``cards`` or ``<something>_cards`` whose entries have an id and a title (or name), as
    [{id, title, kind}] in the data's order."""
    out = {}
    for key, value in components.items():
        if (key == DECK or key.endswith("_" + DECK)) and (isinstance(value, list) and value and all(isinstance(v, dict) and isinstance(v.get("id"), str)
                                                      and isinstance(v.get("title", v.get("name")), str)
                                                      for v in value)):
            out[key] = [{"id": v["id"], "title": v.get("title", v.get("name")),
                         "kind": str(v.get("kind", ""))} for v in value]
    return out


def faces(cards: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Title -> the ids of the box's cards printed with it, in the data's order."""
    out: dict[str, list[str]] = {}
    for c in cards:
        out.setdefault(c["title"], []).append(c["id"])
    return out


def stand_in(cards: list[dict[str, Any]], card_id: str) -> np.ndarray:
    """The rendered stand-in of ``card_id`` (as the simulation teaches it): cards that share a
    title share one picture, drawn for the first of them."""
    by_id = {c["id"]: c for c in cards}
    kinds = sorted({c.get("kind", "") for c in cards})
    first = faces(cards)[by_id[card_id]["title"]][0]
    return stand_in_card(first, by_id[first]["title"], kinds.index(by_id[first].get("kind", "")))


class CardCamera:
    """Names the card in the card area for the session's physical-deck draw."""

    def __init__(self, session, data_dir: Path, *, simulate: bool = False,
                 area: tuple[int, int, int, int] | None = None, camera=None):
        """``camera``: the table's camera (vision/table_camera.py), whose latest frames a take
        and the Card button read; its simulated source can show a laid card."""
        self.session = session
        self.data_dir = Path(data_dir)
        self.simulate = simulate
        self.area = checked_area(area)
        self.camera = camera
        self._books: dict[str, tuple[CardBook, dict[str, list[str]]]] = {}
        self._lays = 0
        self._drawn: tuple[str, str, str, np.ndarray] | None = None   # game, title, card, its look

    def read_frame(self, frame: np.ndarray) -> dict[str, Any]:
        """Read ``frame`` (the camera's view; cropped to the card area when one is set) and
        submit the draw it shows. Returns what happened: ``drawn`` (the card id journaled),
        ``asked`` (nothing applied: the players tap the card) or ``refused`` (the engine's
        reason); an ask or a refusal is also posted on the refusals board for every screen."""
        view = self.session.view()
        expect = view.get("expect") or {}
        action = expect.get("deck_action", "draw")
        if action not in (expect.get("actions") or []) or "deck" not in expect:
            raise IllegalAction("no card is to be named now: the card area is read when the "
                                "game waits for the card drawn from the table's deck")
        book, by_title = self._book(view["game"])
        crop = self._crop(frame)
        read = book.read(crop)
        out: dict[str, Any] = {"read": read.to_json()}
        if read.name is None:
            text = ("The card in the card area could not be named for sure: tap the card you "
                    "drew")
            self.session.refusals.post(text, source="camera", kind="ask", origin="card area")
            return {**out, "asked": text}
        in_deck = {c["id"] for c in expect["deck"]}
        if self._still_there(view["game"], read.name, crop, in_deck):
            # the card drawn last, left where it lay (with three Edna cards alike, a re-read
            # drew the next Edna): a card the same as the last, laid anew, moved the area
            text = (f"The card area still shows {read.name}, the card drawn last: lay the card "
                    "you drew there and press Card again, or tap it")
            self.session.refusals.post(text, source="camera", kind="ask", origin="card area")
            return {**out, "asked": text}
        ids = by_title[read.name]
        card = next((i for i in ids if i in in_deck), ids[0])
        try:
            self.session.submit(Action(action, data={"card": card}, source="camera"),
                                if_seq=view["seq"])
        except CompanionError as exc:      # the rules' reason, shown on every screen
            self.session.refusals.post(str(exc), source="camera", origin="card area",
                                       rule=getattr(exc, "rule", None))
            return {**out, "refused": str(exc)}
        self._drawn = (view["game"], read.name, card, thumbnail(crop))
        return {**out, "drawn": card}

    def _still_there(self, game: str, title: str, crop: np.ndarray, in_deck: set[str]) -> bool:
        """The card area shows the card the camera drew last, not moved since (the tray's own
        test of a scene that moved, vision/settle.py), and still drawn (an undo puts it back in
        the deck: then it is the card to draw)."""
        if self._drawn is None or self._drawn[:2] != (game, title) or self._drawn[2] in in_deck:
            return False
        return changed(thumbnail(crop), self._drawn[3]) <= MOTION_FRACTION

    def read_now(self, frame: np.ndarray | None) -> dict[str, Any]:
        """The Card button: read the camera's latest ``frame``; what cannot be read (no frame
        yet, no card taught, a bad photo) is refused with the reason, for every screen."""
        if frame is None:
            raise IllegalAction("the camera has no picture of the card area yet: tap the card "
                                "drawn on the screen")
        try:
            return self.read_frame(frame)
        except VisionError as exc:
            raise IllegalAction(f"{exc}; tap the card drawn on the screen") from exc

    def read_latest(self) -> dict[str, Any]:
        """The Card button: read the first frame the camera begins after the press (the card
        was laid just now)."""
        number, frame = self._latest(-1)
        if frame is not None:
            try:
                frame = self._fresh(self._fresh(number)[0])[1]
            except VisionError as exc:
                raise IllegalAction(f"{exc}; tap the card drawn on the screen") from exc
        return self.read_now(frame)

    # -- teaching by camera (the "Your box" page's walk-through) -------------------------------------

    def folder(self, game: str, deck: str = DECK) -> Path:
        base = self.data_dir / "cards" / game
        return base if deck == DECK else base / deck

    def walk(self, game: str, deck: str | None = None) -> dict[str, Any]:
        """Where the walk-through through ``deck`` stands: each card and whether its face has a
        photo, how many are taught, and the first card still to show."""
        all_decks = decks(self.session.catalog(game).components())
        if not all_decks:
            raise IllegalAction(f"{game} has no deck of cards to teach")
        deck = deck or (DECK if DECK in all_decks else next(iter(all_decks)))
        if deck not in all_decks:
            raise IllegalAction(f"{game} has no deck {deck!r}: its decks are "
                                + ", ".join(all_decks))
        cards, folder = all_decks[deck], self.folder(game, deck)
        photo = {title: next((i for i in ids if _photo(folder, i) is not None), None)
                 for title, ids in faces(cards).items()}
        listed = [{**c, "taught": photo[c["title"]] is not None, "photo": photo[c["title"]]}
                  for c in cards]
        taught = sum(c["taught"] for c in listed)
        nxt = next((c["id"] for c in listed if not c["taught"]), None)
        return {"game": game, "deck": deck, "decks": list(all_decks), "cards": listed,
                "taught": taught, "total": len(listed), "next": nxt,
                "progress": f"{taught} of {len(listed)} taught",
                "camera": self.camera is not None,
                "can_lay": self.simulate and hasattr(getattr(self.camera, "source", None), "show_card")}

    def take(self, game: str, card_id: str, deck: str | None = None) -> dict[str, Any]:
        """Keep the card area's picture as ``card_id``'s photo: taken from a steady frame, found,
        squared up and checked (vision/card_teach.py); a card the book already knows as another
        is refused. Anything wrong raises with why and keeps every photo as it was."""
        walk = self.walk(game, deck)
        card = next((c for c in walk["cards"] if c["id"] == card_id), None)
        if card is None:
            raise IllegalAction(f"{card_id!r} is not a card of {game}'s {walk['deck']}")
        picture = card_teach.photo_of(self._crop(self._steady_frame()), card["title"])
        if walk["deck"] == DECK and any(c["taught"] for c in walk["cards"]):
            seen = self._book(game)[0].read(picture)
            if seen.name is not None and seen.name != card["title"]:
                raise TeachError(f"this is {seen.name} (taught already), not {card['title']}: "
                                 f"lay {card['title']} in the card area, or retake {seen.name}")
        same = [c["id"] for c in walk["cards"] if c["title"] == card["title"]]
        card_teach.keep_photo(self.folder(game, walk["deck"]), card_id, picture, same)
        self._books.pop(game, None)        # taught afresh on the next read
        log.info("card area: %s of %s taught by camera", card_id, game)
        return {**self.walk(game, walk["deck"]), "took": card_id}

    def photo(self, game: str, card_id: str, deck: str | None = None) -> bytes | None:
        walk = self.walk(game, deck)
        card = next((c for c in walk["cards"] if c["id"] == card_id), None)
        if card is None or card["photo"] is None:
            return None
        return _photo(self.folder(game, walk["deck"]), card["photo"]).read_bytes()

    def lay(self, game: str, card_id: str | None, deck: str | None = None) -> dict[str, Any]:
        """Simulation: the simulated camera shows ``card_id``'s stand-in laid (a little askew) in
        the card area; None takes the card away."""
        source = getattr(self.camera, "source", None)
        if not self.simulate or not hasattr(source, "show_card"):
            raise IllegalAction("a card can be laid from the dashboard only in the simulated "
                                "card area (companion serve --simulate)")
        if card_id is None:
            source.show_card(None)
            return {"laid": None}
        cards = decks(self.session.catalog(game).components()).get(deck or DECK) or []
        if card_id not in {c["id"] for c in cards}:
            raise IllegalAction(f"{card_id!r} is not a card of {game}'s {deck or DECK}")
        self._lays += 1
        source.show_card(lay_on_table(stand_in(cards, card_id), self._lays, "tilt"), self.area)
        return {"laid": card_id}

    def _latest(self, after: int, timeout: float = 0.5) -> tuple[int, np.ndarray | None]:
        if self.camera is None:
            raise CameraError("no camera is attached (configure [camera], or run with --simulate)")
        return self.camera.watcher.latest_frame(after, timeout=timeout)

    def _fresh(self, after: int) -> tuple[int, np.ndarray]:
        number, frame = self._latest(after, FRESH_S)
        if number <= after or frame is None:
            raise CameraError(f"the camera gave no new picture in {FRESH_S:.0f} s: check it on "
                              "the Devices page, then take again")
        return number, frame

    def _steady_frame(self) -> np.ndarray:
        """Two frames in a row begun after the take, alike in the card area: the card lies
        still (a frame the camera was already reading may show the area as it was before)."""
        number, frame = self._latest(-1)
        if frame is None and self.camera.watcher.running:     # just started: its first frame
            number, frame = self._latest(number, FRESH_S)
        if frame is None:
            raise CameraError("the camera has no picture yet: wait for it, then take again")
        number, frame = self._fresh(self._fresh(number)[0])
        for _ in range(STEADY_TRIES):
            later, newer = self._fresh(number)
            if card_teach.steady(self._crop(frame), self._crop(newer)):
                return newer
            number, frame = later, newer
        raise TeachError("the card area kept changing: hold the card still (or lay it down) "
                         "and take again")

    def _crop(self, frame: np.ndarray) -> np.ndarray:
        if self.area is None or not isinstance(frame, np.ndarray) or frame.ndim < 2:
            return frame         # the book says what is wrong with a bad frame
        x, y, w, h = self.area
        if frame.shape[0] < y + h or frame.shape[1] < x + w:
            raise BadImage(f"the card area ({x}, {y}, {w} x {h}) lies outside the camera's "
                           f"{frame.shape[1]} x {frame.shape[0]} frame: set camera.card_area")
        return frame[y:y + h, x:x + w]

    def _book(self, game: str) -> tuple[CardBook, dict[str, list[str]]]:
        if game not in self._books:
            cards = self.session.catalog(game).components().get(DECK) or []
            self._books[game] = self._teach(game, cards)
        return self._books[game]

    def _teach(self, game: str, cards: list[dict[str, Any]]) -> tuple[CardBook,
                                                                        dict[str, list[str]]]:
        book, by_title = CardBook(), faces(cards)
        folder = self.folder(game)
        photos = {title: next((p for i in ids if (p := _photo(folder, i)) is not None), None)
                  for title, ids in by_title.items()}
        # stand-ins only until the owner teaches the first card: then what was taught is what
        # the table knows, as at a real table
        stand_ins = self.simulate and not any(photos.values())
        for title, ids in by_title.items():
            photo = photos[title]
            if photo is not None:
                picture = read_image(photo)
            elif stand_ins:
                picture = stand_in(cards, ids[0])
            else:
                continue              # not taught: a draw of it asks for a tap
            try:
                book.teach(title, picture)
            except ValueError as exc:
                raise TeachError(f"{photo or 'stand-in of ' + ids[0]}: {exc}") from exc
        if not book.names:
            raise TeachError(f"no card of {game} is taught: put a photo of each card in "
                             f"{folder} (named by the card's id, .png or .jpg)")
        log.info("card area: %d of %d faces of %s taught", len(book.names), len(by_title), game)
        return book, by_title


def _photo(folder: Path, card_id: str) -> Path | None:
    return next((folder / f"{card_id}{s}" for s in PHOTO_SUFFIXES
                 if (folder / f"{card_id}{s}").is_file()), None)


def checked_area(area, source: str = "config.toml") -> tuple[int, int, int, int] | None:
    """The ``[camera] card_area`` setting: where the marked card area lies in the frame."""
    if area is None:
        return None
    if (not isinstance(area, (list, tuple)) or len(area) != 4
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in area)
            or area[0] < 0 or area[1] < 0 or area[2] < 32 or area[3] < 32):
        raise DataFileError(f"{source}: camera.card_area: [x, y, width, height] in whole "
                            "pixels, at least 32 a side")
    return tuple(area)
