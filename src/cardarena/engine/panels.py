"""What a face draws: a game's board as titled panels of plain text lines (the faces style them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Panel:
    """One zone of the table as a seat sees it: a title and its lines of plain text.

    Games write hidden cards as backs (``[?]``, ``##``) and never a hidden card's name. ``seat`` names the owner
    of the zone (``None``: shared, like a supply, a board or the dice), so a face can colour it; ``key`` keeps a
    panel's identity between two decisions when its title changes (a face highlights the lines that changed).
    """

    title: str
    lines: tuple[str, ...]
    seat: int | None = None
    key: str = ""

    @property
    def ident(self) -> str:
        return self.key or self.title


@dataclass(frozen=True, slots=True)
class CardText:
    """What one card says, for a face's card viewer (:meth:`cardarena.engine.game.Game.card_texts`).

    ``name`` is the card's name in words; ``cost`` its cost as the game prints it (``None``: no cost);
    ``kind`` a short category ("spell", "soldier 2/3"); ``text`` its effect, one paragraph per item; ``notes`` the
    game's notation on this card explained in words (``<A>``: "an action: ..."). Public facts only.
    """

    name: str
    text: tuple[str, ...]
    cost: str | None = None
    kind: str = ""
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        """The JSON form a browser gets (``welcome.cards``)."""
        return {
            "name": self.name,
            "cost": self.cost,
            "kind": self.kind,
            "text": list(self.text),
            "notes": list(self.notes),
        }
