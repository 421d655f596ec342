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
