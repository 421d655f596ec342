"""A card ready for battle (:class:`CardDef`): compiled with mypyc with the rules, which read it on every firing
(``table.py`` builds it from the validated card file; its pydantic models stay interpreted)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .abilities import Ability


@dataclass(eq=False)
class CardDef:
    """A card ready for battle: its data plus its abilities sorted by timing for quick look-up."""

    index: int
    id: str
    name: str
    number: str
    force: int
    category: str
    text: str
    abilities: tuple[Ability, ...]
    text_en: str = ""
    action: Ability | None = None
    build: tuple[Ability, ...] = ()
    events: dict[str, tuple[Ability, ...]] = field(default_factory=dict)
    no_up_phase: bool = False
    lifts_above: bool = False
    # abilities that read or raise HP: a limit "HP at most half the base HP", damage to the characters above their
    # base HP, a recovery (one that only the limit allows is governed by the limit)
    hp_limit: bool = False
    above_base: bool = False
    free_heal: bool = False
    answers: frozenset[str] = frozenset()  # the event triggers it answers (damage events as my_/enemy_damage)
    # damage events by stage: [stage] -> abilities, for the hit's source side (my_damage) and target side
    src_damage: tuple[tuple[Ability, ...], ...] = ()
    dst_damage: tuple[tuple[Ability, ...], ...] = ()

    def __repr__(self) -> str:
        return f"CardDef({self.id!r})"

    def summary(self) -> str:
        """One line for people: name, number, force, category and the card's text (English where the card list
        has it, else the rulebook's Japanese)."""
        return f"{self.name} [{self.number}, force {self.force}, {self.category}] {self.text_en or self.text}"

    def stats(self) -> str:
        """``Name [number, force F, category]``: the card without its text."""
        return f"{self.name} [{self.number}, force {self.force}, {self.category}]"
