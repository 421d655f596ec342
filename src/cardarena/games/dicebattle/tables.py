"""The flat lookup tables the rules read in their hot loops: one tuple per card property, by card index, built once
per game from the card pool (:mod:`.cards`) and shared by every state of the game.

A native class when compiled (docs/speed.md): the rules then read its fields directly. It is never changed after
:meth:`Tables.build`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .constants import KIND_HUMAN, KIND_MAGIC, KIND_MONSTER

if TYPE_CHECKING:
    from .cards import Card, Effect

#: A card's kind as the data files spell it -> its code in ``Tables.kind``.
KIND_CODE = {"human": KIND_HUMAN, "monster": KIND_MONSTER, "magic": KIND_MAGIC}


class Tables:
    """Flat lookup tables built once per game from the card pool: the rules read these tuples by card index in
    their hot loops instead of following ``Card`` attributes."""

    cards: tuple[Card, ...]
    card_id: tuple[str, ...]  # what observations name a card by
    card_name: tuple[str, ...]
    kind: tuple[int, ...]  # KIND_HUMAN, KIND_MONSTER or KIND_MAGIC (CardKind's values)
    level: tuple[int, ...]
    grant_level: tuple[int, ...]
    effect: tuple[Effect | None, ...]
    grant: tuple[Effect | None, ...]
    with_monster: tuple[bool, ...]  # 異例 magic_with_monster
    # cost[roll][card]: what setting the card uses of a die showing ``roll`` (異例 set_on_one on a 1 costs 1).
    cost: tuple[tuple[int, ...], ...]
    # join[roll][card]: what a monster joining monsters already in the main zone uses (異例 free_join: 0).
    join: tuple[tuple[int, ...], ...]
    by_id: dict[str, int]
    by_name: dict[str, int]

    @staticmethod
    def build(cards: list[Card]) -> Tables:
        t = Tables()
        t.cards = tuple(cards)
        t.card_id = tuple(c.id for c in cards)
        t.card_name = tuple(c.name for c in cards)
        t.kind = tuple(KIND_CODE[c.kind] for c in cards)
        t.level = tuple(c.level for c in cards)
        t.grant_level = tuple(c.grant_level for c in cards)
        t.effect = tuple(c.effect for c in cards)
        t.grant = tuple(c.grant for c in cards)
        t.with_monster = tuple(c.special == "magic_with_monster" for c in cards)
        t.cost = tuple(
            tuple(1 if (roll == 1 and c.special == "set_on_one") else c.level for c in cards) for roll in range(7)
        )
        free = [c.special == "free_join" for c in cards]
        t.join = tuple(tuple(0 if f else n for f, n in zip(free, row, strict=True)) for row in t.cost)
        t.by_id = {c.id: c.index for c in cards}
        t.by_name = {normalise(c.name): c.index for c in cards}
        return t

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def indices(self) -> range:
        """Every card index (``indices[c] == c``): the filters of the rules give cards rather than actions."""
        return range(len(self.cards))

    def fits(self, card: int, roll: int) -> bool:
        """Whether ``card`` is a unit that may be set in the main zone on a die of ``roll``."""
        return self.kind[card] != KIND_MAGIC and self.cost[roll][card] <= roll

    def name(self, index: int) -> str:
        return self.card_name[index]

    def ids(self, indices: list[int]) -> list[str]:
        card_id = self.card_id
        return [card_id[i] for i in indices]


def normalise(text: str) -> str:
    """``"Ember Imp"``, ``"ember-imp"`` and ``"ember_imp"`` all read as ``"ember_imp"``."""
    return "_".join(text.lower().replace("-", " ").replace("_", " ").split())
