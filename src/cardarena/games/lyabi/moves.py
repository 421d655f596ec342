"""Enumeration of Lyabi's legal actions, memoised on the few public facts each list depends on.

A main-phase list depends only on the hand (as a sorted tuple), which supply piles are not empty, which
face-down circle piles are not empty, the field (only when it is full) and whether the Space-Time Stone may be
used; a battle set or an item purchase only on the hand. The lists are shared and must not be mutated.
"""

from __future__ import annotations

from itertools import combinations, product

from .actions import PASS, SET_DUMMY, LyabiAction, use
from .data import CardSet

USE_STONE = use("stone")
CACHE_LIMIT = 20_000  # main-phase lists kept (a few MB); the cache is emptied when it reaches this size


class Moves:
    def __init__(self, cards: CardSet, *, circle_replace: bool) -> None:
        self.cards = cards
        self.circle_replace = circle_replace
        self._payments: dict[tuple[int, ...], list[tuple[tuple[int, ...], int]]] = {}
        self._main: dict[tuple[object, ...], list[LyabiAction]] = {}
        self._item: dict[tuple[int, ...], list[LyabiAction]] = {}
        self._sets: dict[tuple[int, ...], list[LyabiAction]] = {}

    def payments(self, hand: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        """Every non-empty sub-multiset of ``hand`` (sorted) with its total cost, smallest first."""
        found = self._payments.get(hand)
        if found is None:
            kinds = sorted(set(hand))
            counts = [hand.count(k) for k in kinds]
            cost = self.cards.r_cost
            found = []
            for take in product(*(range(c + 1) for c in counts)):
                pay = tuple(k for k, n in zip(kinds, take) for _ in range(n))
                if pay:
                    found.append((pay, sum(cost[k] for k in pay)))
            found.sort(key=lambda pt: (len(pt[0]), pt[0]))
            self._payments[hand] = found
        return found

    def main(
        self, hand: tuple[int, ...], supply_mask: int, pile_mask: int, field: tuple[int, ...], stone: bool
    ) -> list[LyabiAction]:
        """Main phase: use stone, (a) buy, (b) split, (c) place, then pass (rulebook: メインフェイズ)."""
        full = len(field) >= self.cards.max_circles
        key = (hand, supply_mask, pile_mask, field if full and self.circle_replace else full, stone)
        found = self._main.get(key)
        if found is not None:
            return found
        c = self.cards
        names, cost = c.r_names, c.r_cost
        avail = [k for k in range(c.num_kinds) if supply_mask >> k & 1]
        pays = self.payments(hand)
        out: list[LyabiAction] = [USE_STONE] if stone else []
        # (a) pay ≥1 ryabi, gain one ryabi whose cost is at most the total
        for target in avail:
            for pay, total in pays:
                if cost[target] <= total:
                    out.append(LyabiAction(("buy", names[target], *(names[k] for k in pay))))
        # (b) pay exactly one ryabi, gain up to two ryabi each of strictly lower cost, never two of equal cost
        for paid in sorted(set(hand)):
            below = [k for k in avail if cost[k] < cost[paid]]
            for k in below:
                out.append(LyabiAction(("split", names[paid], names[k])))
            for k1, k2 in combinations(below, 2):
                if cost[k1] != cost[k2]:
                    out.append(LyabiAction(("split", names[paid], names[k1], names[k2])))
        # (c) pay ≥1 ryabi, take the top card of a face-down circle pile whose cost is at most the total
        replaces: list[str] = [""]
        if full:
            replaces = sorted({c.c_names[x] for x in field}, key=c.c_names.index) if self.circle_replace else []
        for li, level in enumerate(c.levels):
            if not pile_mask >> li & 1:
                continue
            for rep in replaces:
                for pay, total in pays:
                    if c.level_cost[li] <= total:
                        out.append(LyabiAction(("place", level, rep, *(names[k] for k in pay))))
        out.append(PASS)
        if len(self._main) >= CACHE_LIMIT:
            self._main.clear()
        self._main[key] = out
        return out

    def item(self, hand: tuple[int, ...]) -> list[LyabiAction]:
        """Item phase: pay ryabi totalling at least the item cost, or pass (rulebook: アイテム取得フェイズ)."""
        found = self._item.get(hand)
        if found is None:
            names = self.cards.r_names
            found = [
                LyabiAction(("item", *(names[k] for k in pay)))
                for pay, total in self.payments(hand)
                if total >= self.cards.item_cost
            ]
            found.append(PASS)
            self._item[hand] = found
        return found

    def sets(self, hand: tuple[int, ...]) -> list[LyabiAction]:
        """Battle preparation: one ryabi, two ryabi of one colour (double charge), or the dummy."""
        found = self._sets.get(hand)
        if found is None:
            names, colour = self.cards.r_names, self.cards.r_colour
            kinds = sorted(set(hand))
            found = [LyabiAction(("set", names[k])) for k in kinds]
            for i, k1 in enumerate(kinds):
                for k2 in kinds[i:]:
                    if colour[k1] == colour[k2] and (k1 != k2 or hand.count(k1) >= 2):
                        found.append(LyabiAction(("set", names[k1], names[k2])))
            found.append(SET_DUMMY)
            self._sets[hand] = found
        return found
