"""Flat lookup tables built once per game from the card pool, and the fixed action catalogue.

The rules code reads these lists by card index in its hot loops instead of following ``Card`` attributes.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardarena.engine import Action

from .cards import HUMAN, MAGIC, MONSTER, Card
from .effects import Effect

KIND_HUMAN, KIND_MONSTER, KIND_MAGIC = 0, 1, 2
_KIND_CODE = {HUMAN: KIND_HUMAN, MONSTER: KIND_MONSTER, MAGIC: KIND_MAGIC}

# Action kinds. Plain ones take nothing; card ones take one card id.
PLAIN_KINDS = ("miracle", "done", "redraw", "token", "pass", "draw", "decline")
CARD_KINDS = ("set", "magic", "grant", "use", "skip", "first", "revive")

MIRACLE = Action(("miracle",))
DONE = Action(("done",))
REDRAW = Action(("redraw",))
TOKEN = Action(("token",))
PASS = Action(("pass",))
PENALTY_DRAW = Action(("draw",))  # the opponent's deck ran out: draw 1 card as the penalty
DECLINE = Action(("decline",))  # ... or do not
PLAIN_ACTIONS = (MIRACLE, DONE, REDRAW, TOKEN, PASS, PENALTY_DRAW, DECLINE)


@dataclass(frozen=True)
class Tables:
    cards: tuple[Card, ...]
    kind: tuple[int, ...]
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
    actions: dict[str, tuple[Action, ...]]  # kind -> one action per card index

    @classmethod
    def build(cls, cards: list[Card]) -> Tables:
        level = tuple(c.level for c in cards)
        cost = tuple(
            tuple(1 if (roll == 1 and c.special == "set_on_one") else c.level for c in cards) for roll in range(7)
        )
        free = [c.special == "free_join" for c in cards]
        join = tuple(tuple(0 if f else n for f, n in zip(free, row, strict=True)) for row in cost)
        return cls(
            cards=tuple(cards),
            kind=tuple(_KIND_CODE[c.kind] for c in cards),
            level=level,
            grant_level=tuple(c.grant_level for c in cards),
            effect=tuple(c.effect for c in cards),
            grant=tuple(c.grant for c in cards),
            with_monster=tuple(c.special == "magic_with_monster" for c in cards),
            cost=cost,
            join=join,
            by_id={c.id: c.index for c in cards},
            by_name={normalise(c.name): c.index for c in cards},
            actions={k: tuple(Action((k, c.id)) for c in cards) for k in CARD_KINDS},
        )

    @property
    def size(self) -> int:
        return len(self.cards)

    def fits(self, card: int, roll: int) -> bool:
        """Whether ``card`` is a unit that may be set in the main zone on a die of ``roll``."""
        return self.kind[card] != KIND_MAGIC and self.cost[roll][card] <= roll

    def name(self, index: int) -> str:
        return self.cards[index].name

    def ids(self, indices: list[int]) -> list[str]:
        return [self.cards[i].id for i in indices]


def normalise(text: str) -> str:
    """``"Ember Imp"``, ``"ember-imp"`` and ``"ember_imp"`` all read as ``"ember_imp"``."""
    return "_".join(text.lower().replace("-", " ").replace("_", " ").split())
