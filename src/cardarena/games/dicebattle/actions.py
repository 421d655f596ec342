"""Actions: the action class, the prebuilt actions and the codec (text, parse, index).

An action is ``(kind, )`` for the plain kinds and ``(kind, card_id)`` for the card kinds (see ``Kind``).
"""

from __future__ import annotations

from dataclasses import dataclass

from cardarena.engine import Action, InvalidActionError

from .cards import Card
from .constants import CARD_KINDS, PLAIN_KINDS, Kind
from .tables import Tables, normalise


class DiceBattleAction(Action):
    """An action of Dice Battle Monsters. ``apply`` accepts only these (not an equal plain tuple or ``Action``)."""

    __slots__ = ()


MIRACLE = DiceBattleAction((Kind.MIRACLE,))
DONE = DiceBattleAction((Kind.DONE,))
REDRAW = DiceBattleAction((Kind.REDRAW,))
TOKEN = DiceBattleAction((Kind.TOKEN,))
PASS = DiceBattleAction((Kind.PASS,))
PENALTY_DRAW = DiceBattleAction((Kind.DRAW,))  # the opponent's deck ran out: draw 1 card as the penalty
DECLINE = DiceBattleAction((Kind.DECLINE,))  # ... or do not
PLAIN_ACTIONS = (MIRACLE, DONE, REDRAW, TOKEN, PASS, PENALTY_DRAW, DECLINE)
assert tuple(a[0] for a in PLAIN_ACTIONS) == PLAIN_KINDS


@dataclass(frozen=True)
class CardActions:
    """One prebuilt action per card index for each card kind (built once per game, shared by every state)."""

    set: tuple[DiceBattleAction, ...]
    magic: tuple[DiceBattleAction, ...]
    grant: tuple[DiceBattleAction, ...]
    use: tuple[DiceBattleAction, ...]
    skip: tuple[DiceBattleAction, ...]
    first: tuple[DiceBattleAction, ...]
    revive: tuple[DiceBattleAction, ...]

    @classmethod
    def build(cls, cards: tuple[Card, ...]) -> CardActions:
        return cls(**{str(k): tuple(DiceBattleAction((k, c.id)) for c in cards) for k in CARD_KINDS})

    def of(self, kind: Kind) -> tuple[DiceBattleAction, ...]:
        actions: tuple[DiceBattleAction, ...] = getattr(self, kind.value)
        return actions


class Codec:
    """Text and integer encodings of the actions of one card pool."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.card_actions = CardActions.build(tables.cards)
        self._plain_index: dict[Action, int] = {a: k for k, a in enumerate(PLAIN_ACTIONS)}
        self._kind = {str(k): k for k in (*PLAIN_KINDS, *CARD_KINDS)}

    def parse(self, text: str) -> DiceBattleAction:
        words = text.split()
        if not words:
            raise InvalidActionError(text, "empty action")
        kind = self._kind.get(words[0].lower())
        if kind is None:
            known = ", ".join((*PLAIN_KINDS, *CARD_KINDS))
            raise InvalidActionError(text, f"unknown action word {words[0].lower()!r}; known: {known}")
        if kind in PLAIN_KINDS:
            if len(words) != 1:
                raise InvalidActionError(text, f"'{kind}' takes no card")
            return PLAIN_ACTIONS[PLAIN_KINDS.index(kind)]
        if len(words) < 2:
            raise InvalidActionError(text, f"'{kind}' needs a card, as in '{kind} slime'")
        key = normalise(" ".join(words[1:]))
        t = self.tables
        index = t.by_id.get(key, t.by_name.get(key))
        if index is None:
            raise InvalidActionError(text, f"no card {' '.join(words[1:])!r} in the card pool")
        return self.card_actions.of(kind)[index]

    @property
    def size(self) -> int:
        return len(PLAIN_ACTIONS) + len(CARD_KINDS) * self.tables.size

    def index(self, action: Action) -> int:
        plain = self._plain_index.get(action)
        if plain is not None:
            return plain
        k = CARD_KINDS.index(action[0])
        return len(PLAIN_ACTIONS) + k * self.tables.size + self.tables.by_id[action[1]]

    def from_index(self, index: int) -> DiceBattleAction:
        if index < len(PLAIN_ACTIONS):
            return PLAIN_ACTIONS[index]
        k, card = divmod(index - len(PLAIN_ACTIONS), self.tables.size)
        return self.card_actions.of(CARD_KINDS[k])[card]
