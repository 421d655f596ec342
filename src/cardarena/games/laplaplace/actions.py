"""Laplaplace's actions and their codec: ``add CARD`` (the next card of the build, top first), ``show CARD`` (an
open card) and ``done`` (the build is complete); text, parse and index."""

from __future__ import annotations

from cardarena.engine import Action, InvalidActionError

from .cards import CardTable
from .constants import ADD, DONE_KIND, SHOW


class LaplaplaceAction(Action):
    """``add CARD``, ``show CARD`` or ``done``: ``action[0]`` is a ``Kind``, ``action[1]`` a card id."""

    __slots__ = ()


DONE = LaplaplaceAction((DONE_KIND,))


class ActionCodec:
    """Every action of a card list, prebuilt once per game: the lists the rules hand out, and the codec.

    Indices: ``add`` of each card in card-list order, then ``show`` of each, then ``done``.
    """

    def __init__(self, table: CardTable) -> None:
        self.table = table
        cards = table.cards
        self.add: list[Action] = [LaplaplaceAction((ADD, c.id)) for c in cards]
        self.show: list[Action] = [LaplaplaceAction((SHOW, c.id)) for c in cards]
        self.all: list[Action] = [*self.add, *self.show, DONE]
        self.index_of: dict[Action, int] = {a: i for i, a in enumerate(self.all)}
        self.card_index: dict[Action, int] = {a: i for i, a in enumerate(self.add)}
        self.card_index.update({a: i for i, a in enumerate(self.show)})
        #: the legal actions of a blind build (any card, or done); of the n-th open card shown (card-list order)
        self.blind_legal: list[Action] = [*self.add, DONE]
        self.show_legal: list[list[Action]] = [self.show[i:] for i in range(len(cards))]

    def parse(self, text: str) -> Action:
        words = text.strip().split()
        if words == [DONE_KIND]:
            return DONE
        if len(words) >= 2 and words[0] in (ADD, SHOW):
            card = self.table.find(" ".join(words[1:]))
            if card is None:
                raise InvalidActionError(text, f"no card named {' '.join(words[1:])!r}")
            return (self.add if words[0] == ADD else self.show)[card.index]
        raise InvalidActionError(text, "expected 'add CARD', 'show CARD' or 'done'")

    def index(self, action: Action) -> int:
        try:
            return self.index_of[action]
        except (KeyError, TypeError):
            raise InvalidActionError(str(action), "not a Laplaplace action") from None
