"""The card list as the rules read it: each card id's printed numbers and kinds, in plain tuples.

The game builds one :class:`CardTable` from its checked card list (``game.table``). The rules index its tuples by
card id; compiled, that is a C array read, where a ``CardSpec`` (a pydantic model) would be an attribute lookup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..constants import OWN, SOLDIER, Ability, Effect, Timing

if TYPE_CHECKING:
    from ..cards import CardSpec


class CardTable:
    """Per card id (``table.cost[card]``): the fields of its :class:`~..cards.CardSpec` the rules read."""

    def __init__(self, spec: Sequence[CardSpec]) -> None:
        self.value: tuple[int, ...] = tuple(s.value for s in spec)
        self.cost: tuple[int, ...] = tuple(s.cost for s in spec)
        self.soldier: tuple[bool, ...] = tuple(s.kind == SOLDIER for s in spec)
        self.timing: tuple[Timing, ...] = tuple(s.timing for s in spec)
        #: whether a spell may be cast only on its caster's own turn (相手ターンで使用不可)
        self.own_turn_only: tuple[bool, ...] = tuple(s.timing == OWN for s in spec)
        self.effect: tuple[Effect | None, ...] = tuple(s.effect for s in spec)
        self.amount: tuple[int, ...] = tuple(s.amount for s in spec)
        self.attack: tuple[int, ...] = tuple(s.attack for s in spec)
        self.health: tuple[int, ...] = tuple(s.health for s in spec)
        self.ability: tuple[Ability | None, ...] = tuple(s.ability for s in spec)
        #: what the soldier's ability costs, ``None`` for cards without one
        self.ability_cost: tuple[int | None, ...] = tuple(None if s.ability is None else s.ability_cost for s in spec)
        self.health_boost: tuple[int, ...] = tuple(s.health_boost for s in spec)
        self.recur_cost: tuple[int | None, ...] = tuple(s.recur_cost for s in spec)
        #: a soldier, or a spell whose effect takes no target
        self.untargeted: tuple[bool, ...] = tuple(s.takes_no_target for s in spec)
