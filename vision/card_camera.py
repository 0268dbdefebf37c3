"""The card area at the table: a card laid in the marked area (or held up to the camera) when the
game waits for the players to name a card they drew from the real deck (The Incredibles' option
``physical_deck``: expect offers ``draw`` with the deck's cards) is named by vision/cards.py and
submitted as that draw. The engine still checks it: a card no longer in the deck is refused with
the rule's reason. A card the book cannot name for sure asks for a tap and applies nothing.

The book is taught once per game from the box's cards (the engine's component data): from the
owner's photos ``<data>/cards/<game>/<card id>.png`` (or .jpg), and in a simulation from
rendered stand-ins (vision/card_render.py) for a card without a photo. Cards that share a title
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
from vision.card_render import card as stand_in_card
from vision.cards import CardBook
from vision.errors import BadImage, TeachError, VisionError
from vision.images import read_image

log = logging.getLogger(__name__)
PHOTO_SUFFIXES = (".png", ".jpg", ".jpeg")


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
                 area: tuple[int, int, int, int] | None = None):
        self.session = session
        self.data_dir = Path(data_dir)
        self.simulate = simulate
        self.area = checked_area(area)
        self._books: dict[str, tuple[CardBook, dict[str, list[str]]]] = {}

    def read_frame(self, frame: np.ndarray) -> dict[str, Any]:
        """Read ``frame`` (the camera's view; cropped to the card area when one is set) and
        submit the draw it shows. Returns what happened: ``drawn`` (the card id journaled),
        ``asked`` (nothing applied: the players tap the card) or ``refused`` (the engine's
        reason); an ask or a refusal is also posted on the refusals board for every screen."""
        view = self.session.view()
        expect = view.get("expect") or {}
        if "draw" not in (expect.get("actions") or []) or "deck" not in expect:
            raise IllegalAction("no card is to be named now: the card area is read when the "
                                "game waits for the card drawn from the table's deck")
        book, by_title = self._book(view["game"])
        read = book.read(self._crop(frame))
        out: dict[str, Any] = {"read": read.to_json()}
        if read.name is None:
            text = ("The card in the card area could not be named for sure: tap the card you "
                    "drew")
            self.session.refusals.post(text, source="camera", kind="ask", origin="card area")
            return {**out, "asked": text}
        in_deck = {c["id"] for c in expect["deck"]}
        ids = by_title[read.name]
        card = next((i for i in ids if i in in_deck), ids[0])
        try:
            self.session.submit(Action("draw", data={"card": card}, source="camera"),
                                if_seq=view["seq"])
        except CompanionError as exc:      # the rules' reason, shown on every screen
            self.session.refusals.post(str(exc), source="camera", origin="card area",
                                       rule=getattr(exc, "rule", None))
            return {**out, "refused": str(exc)}
        return {**out, "drawn": card}

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
            cards = self.session.catalog(game).components().get("cards") or []
            self._books[game] = self._teach(game, cards)
        return self._books[game]

    def _teach(self, game: str, cards: list[dict[str, Any]]) -> tuple[CardBook,
                                                                        dict[str, list[str]]]:
        book, by_title = CardBook(), faces(cards)
        folder = self.data_dir / "cards" / game
        for title, ids in by_title.items():
            photo = next((folder / f"{i}{s}" for i in ids for s in PHOTO_SUFFIXES
                          if (folder / f"{i}{s}").is_file()), None)
            if photo is not None:
                picture = read_image(photo)
            elif self.simulate:
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
