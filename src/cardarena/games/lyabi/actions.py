"""Lyabi's actions: immutable values, their canonical text, and a fixed integer encoding.

Canonical texts (cards by name, a payment in the order of the supply: colour, then level)::

    pass                                  end the main phase or the item phase without acting
    buy red5 pay blue3 green3             main phase (a): pay ≥1 ryabi, gain one ryabi of cost ≤ the total
    split blue5 into green1 red3          main phase (b): pay one ryabi, gain up to two of lower, unequal costs
    place 5 pay blue3 red3 [replace red0] main phase (c): take the top circle of a level's face-down pile
    use stone                             take a second main-phase action (Space-Time Stone)
    item pay blue1 green1 red1            item phase: pay ≥ the item cost, take the top item face down
    order red3 blue1 green1               Mysterious Crystal: the looked-at cards back on the deck, top first
    use orb | use eye | use sword | use mirror | use brush green | decline    item timings
    set blue3 | set blue3 blue5 | set dummy                                    battle preparation (hidden)
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from ...engine import Action, InvalidActionError
from .cards import CardSet
from .constants import BUY_K, COLOURS, ITEM_K, ORDER_K, PLACE_K, SET_K, SPLIT_K, USE_ITEMS


class LyabiAction(Action):
    """A Lyabi action ``(kind, *args)`` whose ``str()`` is its canonical text."""

    __slots__ = ()

    def __str__(self) -> str:
        kind = self[0]
        if kind == BUY_K:
            return f"buy {self[1]} pay {' '.join(self[2:])}"
        if kind == SPLIT_K:
            return f"split {self[1]} into {' '.join(self[2:])}"
        if kind == PLACE_K:
            tail = f" replace {self[2]}" if self[2] else ""
            return f"place {self[1]} pay {' '.join(self[3:])}{tail}"
        if kind == ITEM_K:
            return f"item pay {' '.join(self[1:])}"
        return " ".join(str(x) for x in self)

    @property
    def pay(self) -> tuple[str, ...]:
        """The ryabi paid from the hand (empty for actions that pay nothing)."""
        kind = self[0]
        if kind == BUY_K:
            return tuple(self[2:])
        if kind == SPLIT_K:
            return (self[1],)
        if kind == PLACE_K:
            return tuple(self[3:])
        if kind == ITEM_K:
            return tuple(self[1:])
        return ()


PASS = LyabiAction(("pass",))
DECLINE = LyabiAction(("decline",))
SET_DUMMY = LyabiAction(("set", "dummy"))


def use(item: str, *args: str) -> LyabiAction:
    return LyabiAction(("use", item, *args))


class Codec:
    """Reads canonical text and numbers every action of a card set (``action_index``)."""

    def __init__(self, cards: CardSet) -> None:
        self.cards = cards
        self.names = cards.r_names
        self.kind_of = {n: k for k, n in enumerate(cards.r_names)}
        self.circle_of = {n: k for k, n in enumerate(cards.c_names)}
        self.level_of = {lv: i for i, lv in enumerate(cards.levels)}
        self.max_hand = cards.max_hand
        crystal = cards.items[0]
        self.max_look = int(crystal.value) if isinstance(crystal.value, int) else 1
        k = cards.num_kinds
        # all payments: multisets of 1..max_hand kinds, sorted
        self.multisets: list[tuple[int, ...]] = [
            m for n in range(1, self.max_hand + 1) for m in combinations_with_replacement(range(k), n)
        ]
        self.multiset_index = {m: i for i, m in enumerate(self.multisets)}
        self.small = [m for m in self.multisets if len(m) <= 2]  # battle sets and split targets
        self.small_index = {m: i for i, m in enumerate(self.small)}
        m_all, m_small, nl, nc = len(self.multisets), len(self.small), len(cards.levels), len(cards.c_names)
        self.uses: list[LyabiAction] = [use(i) for i in USE_ITEMS] + [use("brush", c) for c in COLOURS]
        self.fixed: list[LyabiAction] = [PASS, DECLINE, *self.uses, SET_DUMMY]
        self.fixed_index = {a: i for i, a in enumerate(self.fixed)}
        self.o_set = len(self.fixed)
        self.o_buy = self.o_set + m_small
        self.o_split = self.o_buy + k * m_all
        self.o_place = self.o_split + k * m_small
        self.o_item = self.o_place + nl * (1 + nc) * m_all
        self.o_order = self.o_item + m_all
        self.order_offsets = []
        total = self.o_order
        for n in range(1, self.max_look + 1):
            self.order_offsets.append(total)
            total += k**n
        self.size = total

    # -- text ---------------------------------------------------------------------------------------------
    def _kinds(self, text: str, words: list[str], what: str) -> list[int]:
        out = []
        for w in words:
            k = self.kind_of.get(w)
            if k is None:
                raise InvalidActionError(text, f"{w!r} is not a ryabi {what}; ryabi are: {', '.join(self.names)}")
            out.append(k)
        return out

    def _payment(self, text: str, words: list[str]) -> tuple[str, ...]:
        if not words:
            raise InvalidActionError(text, "a payment needs at least one ryabi after 'pay'")
        if len(words) > self.max_hand:
            raise InvalidActionError(text, f"a payment can hold at most {self.max_hand} cards (the largest hand)")
        return tuple(self.names[k] for k in sorted(self._kinds(text, words, "to pay")))

    def parse(self, text: str) -> LyabiAction:
        words = text.strip().lower().split()
        if not words:
            raise InvalidActionError(text, "empty action")
        head, rest = words[0], words[1:]
        if head in ("pass", "decline"):
            if rest:
                raise InvalidActionError(text, f"'{head}' takes nothing after it")
            return PASS if head == "pass" else DECLINE
        if head == "use":
            return self._parse_use(text, rest)
        if head == "buy":
            if len(rest) < 3 or rest[1] != "pay":
                raise InvalidActionError(text, "expected 'buy <ryabi> pay <ryabi>...'")
            target = self.names[self._kinds(text, rest[:1], "to gain")[0]]
            return LyabiAction(("buy", target, *self._payment(text, rest[2:])))
        if head == "split":
            if len(rest) not in (3, 4) or rest[1] != "into":
                raise InvalidActionError(text, "expected 'split <ryabi> into <ryabi> [<ryabi>]'")
            paid = self.names[self._kinds(text, rest[:1], "to pay")[0]]
            gains = sorted(self._kinds(text, rest[2:], "to gain"))
            return LyabiAction(("split", paid, *(self.names[k] for k in gains)))
        if head == "place":
            return self._parse_place(text, rest)
        if head == "item":
            if len(rest) < 2 or rest[0] != "pay":
                raise InvalidActionError(text, "expected 'item pay <ryabi>...'")
            return LyabiAction(("item", *self._payment(text, rest[1:])))
        if head == "order":
            if not 1 <= len(rest) <= self.max_look:
                raise InvalidActionError(text, f"'order' lists 1 to {self.max_look} cards, top of the deck first")
            return LyabiAction(("order", *(self.names[k] for k in self._kinds(text, rest, "to order"))))
        if head == "set":
            if rest == ["dummy"]:
                return SET_DUMMY
            if len(rest) not in (1, 2):
                raise InvalidActionError(text, "expected 'set dummy', 'set <ryabi>' or 'set <ryabi> <ryabi>'")
            kinds = sorted(self._kinds(text, rest, "to set"))
            return LyabiAction(("set", *(self.names[k] for k in kinds)))
        raise InvalidActionError(
            text, "unknown action word; expected pass, buy, split, place, item, use, decline, order or set"
        )

    def _parse_use(self, text: str, rest: list[str]) -> LyabiAction:
        if len(rest) == 1 and rest[0] in USE_ITEMS:
            return use(rest[0])
        if len(rest) == 2 and rest[0] == "brush" and rest[1] in COLOURS:
            return use("brush", rest[1])
        raise InvalidActionError(
            text, f"expected 'use <item>' with item one of {', '.join(USE_ITEMS)}, or 'use brush <colour>'"
        )

    def _parse_place(self, text: str, rest: list[str]) -> LyabiAction:
        replace = ""
        if len(rest) >= 2 and rest[-2] == "replace":
            replace = rest[-1]
            if replace not in self.circle_of:
                raise InvalidActionError(
                    text, f"{replace!r} is not a magic circle; circles are: {', '.join(self.circle_of)}"
                )
            rest = rest[:-2]
        if len(rest) < 3 or rest[1] != "pay":
            raise InvalidActionError(text, "expected 'place <level> pay <ryabi>... [replace <circle>]'")
        try:
            level = int(rest[0])
        except ValueError:
            raise InvalidActionError(text, f"{rest[0]!r} is not a circle level") from None
        if level not in self.level_of:
            levels = ", ".join(map(str, self.cards.levels))
            raise InvalidActionError(text, f"there is no circle level {level}; levels are {levels}")
        return LyabiAction(("place", level, replace, *self._payment(text, rest[2:])))

    # -- integers -----------------------------------------------------------------------------------------
    def _mset(self, names: tuple[str, ...]) -> int:
        return self.multiset_index[tuple(self.kind_of[n] for n in names)]

    def index(self, a: LyabiAction) -> int:
        kind = a[0]
        fixed = self.fixed_index.get(a)
        if fixed is not None:
            return fixed
        m_all, m_small = len(self.multisets), len(self.small)
        if kind == SET_K:
            return self.o_set + self.small_index[tuple(self.kind_of[n] for n in a[1:])]
        if kind == BUY_K:
            return self.o_buy + self.kind_of[a[1]] * m_all + self._mset(a[2:])
        if kind == SPLIT_K:
            gains = self.small_index[tuple(self.kind_of[n] for n in a[2:])]
            return self.o_split + self.kind_of[a[1]] * m_small + gains
        if kind == PLACE_K:
            rep = 0 if not a[2] else 1 + self.circle_of[a[2]]
            slot = self.level_of[a[1]] * (1 + len(self.cards.c_names)) + rep
            return self.o_place + slot * m_all + self._mset(a[3:])
        if kind == ITEM_K:
            return self.o_item + self._mset(a[1:])
        if kind == ORDER_K:
            n = len(a) - 1
            value = 0
            for name in a[1:]:
                value = value * self.cards.num_kinds + self.kind_of[name]
            return self.order_offsets[n - 1] + value
        raise InvalidActionError(str(a), "not a Lyabi action")

    def from_index(self, i: int) -> LyabiAction:
        if i < self.o_set:
            return self.fixed[i]
        names, k = self.names, self.cards.num_kinds
        m_all, m_small = len(self.multisets), len(self.small)

        def ms(j: int) -> tuple[str, ...]:
            return tuple(names[x] for x in self.multisets[j])

        if i < self.o_buy:
            return LyabiAction(("set", *(names[x] for x in self.small[i - self.o_set])))
        if i < self.o_split:
            t, p = divmod(i - self.o_buy, m_all)
            return LyabiAction(("buy", names[t], *ms(p)))
        if i < self.o_place:
            p, g = divmod(i - self.o_split, m_small)
            return LyabiAction(("split", names[p], *(names[x] for x in self.small[g])))
        if i < self.o_item:
            slot, p = divmod(i - self.o_place, m_all)
            lv, rep = divmod(slot, 1 + len(self.cards.c_names))
            replace = "" if rep == 0 else self.cards.c_names[rep - 1]
            return LyabiAction(("place", self.cards.levels[lv], replace, *ms(p)))
        if i < self.o_order:
            return LyabiAction(("item", *ms(i - self.o_item)))
        for n in range(self.max_look, 0, -1):
            if i >= self.order_offsets[n - 1]:
                value = i - self.order_offsets[n - 1]
                seq = []
                for _ in range(n):
                    value, x = divmod(value, k)
                    seq.append(names[x])
                return LyabiAction(("order", *reversed(seq)))
        raise InvalidActionError(str(i), "action index out of range")
