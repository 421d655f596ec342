"""The main phase and the item phase: paying ryabi to gain ryabi, place circles and take items (rulebook:
メインフェイズ, アイテム取得フェイズ).

Each condition is a check written once, returning ``None`` (allowed) or the reason in plain words: the memoised
lists of :class:`Market` keep the candidates whose checks pass, and ``why_not`` reports the first that fails. A
main-phase list depends only on the hand (as a sorted tuple), which supply piles are not empty, which face-down
circle piles are not empty, the field (only when it is full) and whether the Space-Time Stone may be used; an item
purchase only on the hand. The lists are shared and must not be mutated.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from ..actions import PASS, LyabiAction, use
from ..cards import CardSet
from ..constants import BUY_K, PASS_K, SPLIT_K, USE_K
from .board import gain, pay, use_item

if TYPE_CHECKING:
    from ..state import LyabiState

USE_STONE = use("stone")
CACHE_LIMIT = 20_000  # main-phase lists kept (a few MB); the cache is emptied when it reaches this size

#: A hand's payments: the cards paid (sorted), their total cost, and their names (the tail of an action's tuple).
Payments = list[tuple[tuple[int, ...], int, tuple[str, ...]]]


# -- the checks ---------------------------------------------------------------------------------------------
def held_fault(c: CardSet, hand: Sequence[int], names: Sequence[str]) -> str | None:
    """The cards named (a payment, a battle set) are in the hand."""
    missing = Counter(names) - Counter(c.r_names[k] for k in hand)
    if missing:
        return f"you do not hold {' '.join(sorted(missing.elements()))}"
    return None


def supply_fault(c: CardSet, supply_mask: int, k: int) -> str | None:
    """A gained ryabi comes from a supply pile that is not empty."""
    return None if supply_mask >> k & 1 else f"no {c.r_names[k]} is left in the supply"


def buy_cost_fault(c: CardSet, target: int, total: int) -> str | None:
    """(a) the payment's total cost reaches the gained ryabi's cost."""
    if c.r_cost[target] <= total:
        return None
    return f"the payment's total cost {total} is less than {c.r_names[target]}'s cost {c.r_cost[target]}"


def split_cost_fault(c: CardSet, paid: int, k: int) -> str | None:
    """(b) each gained ryabi costs less than the one paid."""
    if c.r_cost[k] < c.r_cost[paid]:
        return None
    return f"each gained ryabi must cost less than the paid {c.r_names[paid]} ({c.r_cost[paid]})"


def split_pair_fault(c: CardSet, k1: int, k2: int) -> str | None:
    """(b) two gained ryabi never have equal costs."""
    return "two gained ryabi may not have equal costs" if c.r_cost[k1] == c.r_cost[k2] else None


def pile_fault(c: CardSet, pile_mask: int, li: int) -> str | None:
    """(c) a level whose face-down pile is empty cannot be chosen."""
    return None if pile_mask >> li & 1 else f"the Lv{c.levels[li]} circle pile is empty"


def place_cost_fault(c: CardSet, li: int, total: int) -> str | None:
    """(c) the payment's total cost reaches the level's circle cost."""
    if c.level_cost[li] <= total:
        return None
    return f"the payment's total cost {total} is less than the Lv{c.levels[li]} circles' cost {c.level_cost[li]}"


def room_fault(c: CardSet, field: Sequence[int], circle_replace: bool, replace: str) -> str | None:
    """At most ``max_circles`` circles on a field; with the option circle_replace, a full field makes room by
    removing one of its own circles (and only a full field removes one)."""
    if replace and not circle_replace:
        return "replacing a circle needs the option circle_replace"
    if replace and c.c_names.index(replace) not in field:
        return f"you have no {replace} circle to remove"
    if len(field) >= c.max_circles and not replace:
        return f"your field already holds {len(field)} circles (at most {c.max_circles})"
    if len(field) < c.max_circles and replace:
        return "you have room for a circle; nothing needs removing"
    return None


def item_cost_fault(c: CardSet, total: int) -> str | None:
    """アイテム取得: the payment totals at least the item cost."""
    if total >= c.item_cost:
        return None
    return f"an item costs a total of at least {c.item_cost}; this payment totals {total}"


def total_cost(c: CardSet, codec_kind_of: dict[str, int], names: Sequence[str]) -> int:
    return sum(c.r_cost[codec_kind_of[n]] for n in names)


# -- the lists ----------------------------------------------------------------------------------------------
class Market:
    """The main-phase and item-phase lists of one card set, memoised (kept on the game)."""

    def __init__(self, cards: CardSet, *, circle_replace: bool) -> None:
        self.cards = cards
        self.circle_replace = circle_replace
        self._payments: dict[tuple[int, ...], Payments] = {}
        self._main: dict[tuple[object, ...], list[LyabiAction]] = {}
        self._item: dict[tuple[int, ...], list[LyabiAction]] = {}
        self._split_lists: dict[tuple[int, int], list[LyabiAction]] = {}
        # Every payment and every action is made once and shared by the lists (fewer objects for the collector).
        self._payment_of: dict[tuple[int, ...], tuple[tuple[int, ...], int, tuple[str, ...]]] = {}
        self._actions: dict[tuple[object, ...], LyabiAction] = {}
        self._buys_of: dict[tuple[int, ...], list[list[LyabiAction]]] = {}
        self._buys_by_payment: dict[tuple[int, ...], list[LyabiAction]] = {}
        self._places_of: dict[tuple[tuple[int, ...], int, str], list[LyabiAction]] = {}
        # The verdicts of the checks that depend only on the card set, computed once: ``_buy_ok[target][total]``
        # is ``buy_cost_fault(...) is None``, and so on, for every total a payment reaches (see ``_cover``).
        kinds = range(cards.num_kinds)
        self._split_ok = [[split_cost_fault(cards, p, k) is None for k in kinds] for p in kinds]
        self._pair_ok = [[split_pair_fault(cards, k1, k2) is None for k2 in kinds] for k1 in kinds]
        self._buy_ok: list[list[bool]] = []
        self._place_ok: list[list[bool]] = []
        self._item_ok: list[bool] = []
        self._cover(cards.max_hand * max(cards.r_cost))

    def _action(self, parts: tuple[object, ...]) -> LyabiAction:
        """The action ``parts`` (its words), one object per action however many lists hold it."""
        found = self._actions.get(parts)
        if found is None:
            found = self._actions[parts] = LyabiAction(parts)
        return found

    def _cover(self, most: int) -> None:
        """The verdicts of the checks on a payment's total, for totals up to ``most`` at least."""
        if most < len(self._item_ok):
            return
        c = self.cards
        totals = range(most + 1)
        self._buy_ok = [[buy_cost_fault(c, k, t) is None for t in totals] for k in range(c.num_kinds)]
        self._place_ok = [[place_cost_fault(c, li, t) is None for t in totals] for li in range(len(c.levels))]
        self._item_ok = [item_cost_fault(c, t) is None for t in totals]

    def payments(self, hand: tuple[int, ...]) -> Payments:
        """Every non-empty sub-multiset of ``hand`` (sorted) with its total cost and names, smallest first."""
        found = self._payments.get(hand)
        if found is None:
            cost, names = self.cards.r_cost, self.cards.r_names
            found = []
            ordered = sorted(hand)
            # The sub-multisets of n cards are the distinct n-card combinations of the sorted hand (each sorted).
            for n in range(1, len(ordered) + 1):
                for paid in sorted(set(combinations(ordered, n))):
                    payment = self._payment_of.get(paid)
                    if payment is None:
                        payment = (paid, sum([cost[k] for k in paid]), tuple([names[k] for k in paid]))
                        self._payment_of[paid] = payment
                    found.append(payment)
            self._cover(sum([cost[k] for k in hand]))
            self._payments[hand] = found
        return found

    def main(
        self, hand: tuple[int, ...], supply_mask: int, pile_mask: int, field: tuple[int, ...], stone: bool
    ) -> list[LyabiAction]:
        """Main phase: use stone, (a) buy, (b) split, (c) place, then pass (rulebook: メインフェイズ)."""
        full = len(field) >= self.cards.max_circles
        key = (hand, supply_mask, pile_mask, field if full and self.circle_replace else full, stone)
        found = self._main.get(key)
        if found is None:
            found = [USE_STONE] if stone else []
            pays = self.payments(hand)
            self._buys(found, hand, pays, supply_mask)
            self._splits(found, hand, supply_mask)
            self._places(found, hand, pays, pile_mask, field)
            found.append(PASS)
            if len(self._main) >= CACHE_LIMIT:
                self._main.clear()
            self._main[key] = found
        return found

    def _buys(self, out: list[LyabiAction], hand: tuple[int, ...], pays: Payments, supply_mask: int) -> None:
        """(a) pay ≥1 ryabi, gain one ryabi whose cost is at most the total."""
        c = self.cards
        for target, actions in enumerate(self._buy_lists(hand, pays)):
            if supply_fault(c, supply_mask, target) is None:
                out += actions

    def _buy_lists(self, hand: tuple[int, ...], pays: Payments) -> list[list[LyabiAction]]:
        """The buys a hand pays for, one list per gained ryabi whatever the supply, memoised by hand (shared lists:
        the main-phase lists of a hand share their actions)."""
        found = self._buys_of.get(hand)
        if found is None:
            found = [[] for _ in self._buy_ok]
            for kinds, total, paid in pays:
                row = self._buys_paying(kinds, paid)
                for target, ok in enumerate(self._buy_ok):
                    if ok[total]:
                        found[target].append(row[target])
            self._buys_of[hand] = found
        return found

    def _buys_paying(self, kinds: tuple[int, ...], paid: tuple[str, ...]) -> list[LyabiAction]:
        """Every buy with this payment, one per gained ryabi (made once)."""
        found = self._buys_by_payment.get(kinds)
        if found is None:
            found = [self._action(("buy", name, *paid)) for name in self.cards.r_names]
            self._buys_by_payment[kinds] = found
        return found

    def _splits(self, out: list[LyabiAction], hand: tuple[int, ...], supply_mask: int) -> None:
        """(b) pay exactly one ryabi, gain up to two ryabi each of strictly lower cost, never two of equal cost."""
        for paid in sorted(set(hand)):
            out += self._splits_of(paid, supply_mask)

    def _splits_of(self, paid: int, supply_mask: int) -> list[LyabiAction]:
        """The splits of one ryabi, memoised by the supply piles that are not empty (shared lists)."""
        found = self._split_lists.get((paid, supply_mask))
        if found is None:
            c = self.cards
            names = c.r_names
            avail = [k for k in range(c.num_kinds) if supply_fault(c, supply_mask, k) is None]
            pair_ok = self._pair_ok
            ok = self._split_ok[paid]
            below = [k for k in avail if ok[k]]
            found = [self._action(("split", names[paid], names[k])) for k in below]
            for k1, k2 in combinations(below, 2):
                if pair_ok[k1][k2]:
                    found.append(self._action(("split", names[paid], names[k1], names[k2])))
            if len(self._split_lists) >= CACHE_LIMIT:
                self._split_lists.clear()
            self._split_lists[(paid, supply_mask)] = found
        return found

    def _places(
        self, out: list[LyabiAction], hand: tuple[int, ...], pays: Payments, pile_mask: int, field: tuple[int, ...]
    ) -> None:
        """(c) pay ≥1 ryabi, take the top card of a face-down circle pile whose cost is at most the total."""
        c = self.cards
        replaces = ["", *sorted({c.c_names[x] for x in field}, key=c.c_names.index)]
        replaces = [rep for rep in replaces if room_fault(c, field, self.circle_replace, rep) is None]
        for li in range(len(c.levels)):
            if pile_fault(c, pile_mask, li) is not None:
                continue
            for rep in replaces:
                out += self._place_list(hand, pays, li, rep)

    def _place_list(self, hand: tuple[int, ...], pays: Payments, li: int, rep: str) -> list[LyabiAction]:
        """The places of one level (replacing ``rep``) a hand pays for, memoised by hand (shared lists)."""
        key = (hand, li, rep)
        found = self._places_of.get(key)
        if found is None:
            ok = self._place_ok[li]
            head = ("place", self.cards.levels[li], rep)
            found = [self._action(head + paid) for _, total, paid in pays if ok[total]]
            self._places_of[key] = found
        return found

    def item(self, hand: tuple[int, ...]) -> list[LyabiAction]:
        """Item phase: pay ryabi totalling at least the item cost, or pass (rulebook: アイテム取得フェイズ)."""
        found = self._item.get(hand)
        if found is None:
            found = [self._action(("item", *paid)) for _, total, paid in self.payments(hand) if self._item_ok[total]]
            found.append(PASS)
            self._item[hand] = found
        return found


def why_not_main(st: LyabiState, s: int, a: LyabiAction) -> str | None:
    """The first failing check of a main-phase buy, split or place (the kind is one of these)."""
    c = st.game.cards
    kind_of = st.game.codec.kind_of
    fault = held_fault(c, st.hand[s], a.pay)
    if fault is not None:
        return fault
    total = total_cost(c, kind_of, a.pay)
    kind = a[0]
    if kind == BUY_K:
        target = kind_of[a[1]]
        return supply_fault(c, st.supply_mask, target) or buy_cost_fault(c, target, total)
    if kind == SPLIT_K:
        paid = kind_of[a[1]]
        gains = [kind_of[n] for n in a[2:]]
        for g in gains:
            fault = supply_fault(c, st.supply_mask, g) or split_cost_fault(c, paid, g)
            if fault is not None:
                return fault
        return split_pair_fault(c, gains[0], gains[1]) if len(gains) == 2 else None
    li = st.game.codec.level_of[a[1]]
    return (
        pile_fault(c, st.pile_mask, li)
        or place_cost_fault(c, li, total)
        or room_fault(c, st.field[s], st.game.options["circle_replace"], a[2])
    )


def why_not_item(st: LyabiState, s: int, a: LyabiAction) -> str | None:
    c = st.game.cards
    fault = held_fault(c, st.hand[s], a.pay)
    if fault is not None:
        return fault
    return item_cost_fault(c, total_cost(c, st.game.codec.kind_of, a.pay))


# -- carrying out -------------------------------------------------------------------------------------------
def apply_main(st: LyabiState, s: int, action: LyabiAction) -> bool:
    """Carry out a main-phase action; True when the main phase is over (a pass, or no action or card left)."""
    kind = action[0]
    if kind == PASS_K:
        return True
    if kind == USE_K:  # Space-Time Stone: a second main-phase action this turn
        use_item(st, s)
        st.actions_left += 1
        return False
    codec = st.game.codec
    pay(st, s, action.pay)
    if kind == BUY_K:
        gain(st, s, codec.kind_of[action[1]])
    elif kind == SPLIT_K:
        for name in action[2:]:
            gain(st, s, codec.kind_of[name])
    else:
        place(st, s, codec.level_of[action[1]], action[2])
    st.main_used += 1
    st.actions_left -= 1
    return st.actions_left <= 0 or not st.hand[s]


def place(st: LyabiState, s: int, level: int, replace: str) -> None:
    """(c) the top circle of the level's pile onto the field, a replaced circle removed from the game."""
    field = st.field[s]
    if replace:
        old = st.game.codec.circle_of[replace]
        field.remove(old)
        st.removed_circles.append(old)
    pile = st.piles[level]
    field.append(pile.pop())
    if not pile:
        st.pile_mask &= ~(1 << level)
    assert len(field) <= st.game.cards.max_circles
