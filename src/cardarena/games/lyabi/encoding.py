"""Numbers for learning agents (``cardarena.rl``): the observation as a fixed-size vector, and the factored actions.

The encoding is built from ``observation(seat)`` only (this module imports nothing of the state, the rules or the
views), so the opponent's hand, deck, face-down set and item cannot enter it. Seats are relative (``me``,
``opp``); ryabi blocks have one number per ryabi kind (``blue1 blue3 blue5 blue11 green1 ... red11``), circle
blocks one per circle kind (``blue0 green0 red0 blue5 ... red11``).

Lyabi's flat action encoding has 269,106 entries (a payment is any multiset of up to 5 ryabi), too many for a
network's output layer, so a decision is taken as up to 7 sub-decisions of at most 3,108 entries
(:class:`LyabiFactoring`): first the *head* (the whole action where it is small: pass, decline, use, set, split,
order; else what is bought or placed, or the item purchase), then, for buy / place / item, the payment one ryabi
at a time in supply order, closed by ``end``. docs/games/lyabi.md and docs/rl.md give the details.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from ...engine import Action, Layout, ObservationEncoder
from ...engine.encoding import Buffer, CachedFactoring, put_counts, ratio
from .actions import Codec
from .constants import BUY_K, COLOURS, ITEM_IDS, ITEM_K, ORDER_K, PHASE_NAMES, PLACE_K, SET_K, SPLIT_K

SET_STATES = ["none", "face down", "dummy", "shown"]
PHASE_INDEX = {name: i for i, name in enumerate(PHASE_NAMES)}
MAX_HP = 20
SMALL = 10  # sizes and counts without a hard limit are shown divided by this (capped at 1)


class LyabiEncoder(ObservationEncoder):
    """Lyabi's observation as ``size`` floats in [0, 1]."""

    def __init__(self, codec: Codec) -> None:
        cards = codec.cards
        self.r_index = {name: i for i, name in enumerate(cards.r_names)}
        self.c_index = {name: i for i, name in enumerate(cards.c_names)}
        self.i_index = {name: i for i, name in enumerate(ITEM_IDS)}
        self.levels = [str(lv) for lv in cards.levels]
        self.max_look = codec.max_look
        k, nc, ni = len(cards.r_names), len(cards.c_names), len(ITEM_IDS)
        self.k = k
        lay = self.layout = Layout()
        self.o_phase = lay.add("phase", len(PHASE_NAMES), f"one-hot phase: {', '.join(PHASE_NAMES)}")
        self.o_flags = lay.add(
            "flags",
            6,
            f"turn / 100, I am to act, I went first, main-phase actions left / 2, damage pending / {SMALL}, "
            "the game is over",
        )
        self.o_supply = lay.add("supply", k, f"ryabi left in the supply, count / {SMALL} per kind")
        self.o_piles = lay.add("circle_piles", len(self.levels), f"face-down circles per level ({self.levels}) / 8")
        self.o_item_pile = lay.add("item_pile", 1, "items left in the pile / 12")
        self.o_removed = lay.add(
            "removed", k + nc + ni, "removed from the game: ryabi / 4, circles / 4, items (1 each)"
        )
        self.o_colours = lay.add("battle_colours", 6, "once the sets are revealed: one-hot colour of my set, of theirs")
        self.o_last = lay.add(
            "last_battle",
            4 + 2 * (k + 1),
            f"the last battle: I won, they won, no winner, damage / {SMALL}; then my set and theirs: "
            "ryabi counts / 2 and a dummy flag",
        )
        self.o_result = lay.add("result", 3, "one-hot once over: I won, I lost, a draw")
        self.o_seen = lay.add("seen_opponent_hand", k + 1, "the opponent's hand seen with the eye: counts / 5, seen")
        self.o_seat: list[dict[str, int]] = []
        for who, what in (("me", "my"), ("opp", "the opponent's")):
            o: dict[str, int] = {}
            o["scalars"] = lay.add(
                f"{who}.scalars",
                6,
                f"{what} HP / {MAX_HP}, hand size / {SMALL}, deck size / {SMALL * 2}, draws up to / 5, battling, "
                "holds an item",
            )
            o["discard"] = lay.add(f"{who}.discard", k, f"{what} discard pile: count / {SMALL} per ryabi kind")
            o["field"] = lay.add(f"{who}.field", nc, f"{what} magic circles: count / 4 per circle kind")
            o["hand_known"] = lay.add(f"{who}.hand_known", k, f"{what} hand cards known to both: count / 5")
            o["set_state"] = lay.add(f"{who}.set_state", len(SET_STATES), f"one-hot set: {', '.join(SET_STATES)}")
            o["set"] = lay.add(f"{who}.set", k, f"{what} set once seen: count / 2 per ryabi kind")
            if who == "me":
                o["hand"] = lay.add("me.hand", k, "my hand: count / 5 per ryabi kind")
                o["extra"] = lay.add("me.extra", 1 + ni, "the dummy is in my hand; one-hot my face-down item")
                o["deck_top"] = lay.add(
                    "me.deck_top", self.max_look * k, f"the top {self.max_look} cards of my deck I know, top first"
                )
            self.o_seat.append(o)

    def encode_into(self, observation: dict[str, Any], seat: int, out: Buffer) -> None:
        ri, ci, k = self.r_index, self.c_index, self.k
        out[self.o_phase + PHASE_INDEX[observation["phase"]]] = 1.0
        f = self.o_flags
        out[f] = ratio(observation["turn"], 100)
        if observation["to_act"] == seat:
            out[f + 1] = 1.0
        if observation["first_player"] == seat:
            out[f + 2] = 1.0
        out[f + 3] = ratio(observation["actions_left"], 2)
        out[f + 4] = ratio(observation["pending_damage"] or 0, SMALL)
        o_supply = self.o_supply
        for name, n in observation["supply"].items():
            if n:
                out[o_supply + ri[name]] = n / SMALL if n < SMALL else 1.0
        for i, lv in enumerate(self.levels):
            out[self.o_piles + i] = ratio(observation["circle_piles"].get(lv, 0), 8)
        out[self.o_item_pile] = ratio(observation["item_pile"], 12)
        removed = observation["removed"]
        for name, n in removed["ryabi"].items():
            out[self.o_removed + ri[name]] = ratio(n, 4)
        if removed["circles"]:
            put_counts(out, self.o_removed + k, removed["circles"], ci, 0.25)
        for name in removed["items"]:
            out[self.o_removed + k + len(ci) + self.i_index[name]] = 1.0
        colours = observation["battle_colours"]
        if colours is not None:
            for s, colour in enumerate(colours):
                if colour is not None:
                    out[self.o_colours + 3 * (s != seat) + COLOURS.index(colour)] = 1.0
        last = observation["last_battle"]
        if last:
            q = self.o_last
            winner = last.get("winner")
            out[q + (2 if winner is None else 0 if winner == seat else 1)] = 1.0
            out[q + 3] = ratio(last.get("damage") or 0, SMALL)
            for s, shown in enumerate(last.get("sets") or ()):
                base = q + 4 + (s != seat) * (k + 1)
                if shown == "dummy":
                    out[base + k] = 1.0
                elif shown:
                    put_counts(out, base, shown, ri, 0.5)
        result = observation["result"]
        if result is not None:
            out[f + 5] = 1.0
            r = result[seat]
            out[self.o_result + (0 if r > 0 else 1 if r < 0 else 2)] = 1.0
        seen = observation.get("seen_opponent_hand")
        if seen is not None:
            put_counts(out, self.o_seen, seen, ri, 0.2)
            out[self.o_seen + k] = 1.0
        for s, p in enumerate(observation["players"]):
            o = self.o_seat[s != seat]
            q = o["scalars"]
            out[q] = ratio(p["hp"], MAX_HP)
            out[q + 1] = ratio(p["hand_size"], SMALL)
            out[q + 2] = ratio(p["deck_size"], SMALL * 2)
            out[q + 3] = ratio(p["draw_to"], 5)
            out[q + 4] = float(p["battling"])
            out[q + 5] = float(p["item"] is not None)
            for block, cards, index, unit in (
                ("discard", p["discard"], ri, 1.0 / SMALL),
                ("field", p["field"], ci, 0.25),
                ("hand_known", p["hand_known"], ri, 0.2),
            ):
                if cards:
                    base = o[block]
                    for c in cards:
                        out[base + index[c]] += unit
            shown = p["set"]
            state = 0 if shown is None else 1 if shown == "face down" else 2 if shown == "dummy" else 3
            out[o["set_state"] + state] = 1.0
            if state == 3:
                put_counts(out, o["set"], shown, ri, 0.5)
            if "hand" in p:
                put_counts(out, o["hand"], p["hand"], ri, 0.2)
                if p["dummy_in_hand"]:
                    out[o["extra"]] = 1.0
                if p["item"] is not None:
                    out[o["extra"] + 1 + self.i_index[p["item"]]] = 1.0
                for i, name in enumerate(p["deck_top"][: self.max_look]):
                    out[o["deck_top"] + i * k + ri[name]] = 1.0


@mypyc_attr(native_class=False)  # as its base: see engine/encoding.py
class LyabiFactoring(CachedFactoring):
    """Lyabi's actions as a head and, for the actions that pay, the payment one ryabi at a time.

    Head tokens, in order: the fixed actions (pass, decline, use ..., set dummy), ``set`` of each one- or
    two-ryabi set, ``split`` of each paid ryabi and gains, ``order`` of each sequence of 1 to 3 looked-at cards,
    ``buy`` of each ryabi kind, ``place`` of each circle level and replaced circle (or none), and ``item``. After
    a buy / place / item head come payment tokens: ryabi kinds in supply order (0-11, never decreasing, as the
    action's text lists them) and then ``end`` (12). So ``buy red5 pay blue3 green3`` is
    ``(buy red5, blue3, green3, end)``.
    """

    steps: tuple[str, ...] = ("head", "pay 1", "pay 2", "pay 3", "pay 4", "pay 5", "pay end")

    def __init__(self, codec: Codec) -> None:
        self.codec = codec
        k = codec.cards.num_kinds
        self.kind_of = codec.kind_of
        self.end = k
        self.fixed_index = codec.fixed_index
        self.o_set = len(codec.fixed)
        self.small_index = codec.small_index
        self.m_small = len(codec.small)
        self.o_split = self.o_set + self.m_small
        self.o_order = self.o_split + k * self.m_small
        self.order_offsets = []
        n = self.o_order
        for length in range(1, codec.max_look + 1):
            self.order_offsets.append(n)
            n += k**length
        self.o_buy = n
        self.o_place = self.o_buy + k
        self.n_circles = len(codec.cards.c_names)
        self.o_item = self.o_place + len(codec.cards.levels) * (1 + self.n_circles)
        self.width = self.o_item + 1
        self.depth = 2 + codec.max_hand

    def _factors(self, a: Action) -> tuple[int, ...]:
        fixed = self.fixed_index.get(a)  # type: ignore[call-overload]
        if fixed is not None:
            return (fixed,)
        kind, kind_of = a[0], self.kind_of
        if kind == SET_K:
            return (self.o_set + self.small_index[tuple(kind_of[x] for x in a[1:])],)
        if kind == SPLIT_K:
            gains = self.small_index[tuple(kind_of[x] for x in a[2:])]
            return (self.o_split + kind_of[a[1]] * self.m_small + gains,)
        if kind == ORDER_K:
            value = 0
            for name in a[1:]:
                value = value * self.codec.cards.num_kinds + kind_of[name]
            return (self.order_offsets[len(a) - 2] + value,)
        if kind == BUY_K:
            head = self.o_buy + kind_of[a[1]]
            pay = a[2:]
        elif kind == PLACE_K:
            replace = 0 if not a[2] else 1 + self.codec.circle_of[a[2]]
            head = self.o_place + self.codec.level_of[a[1]] * (1 + self.n_circles) + replace
            pay = a[3:]
        elif kind == ITEM_K:
            head, pay = self.o_item, a[1:]
        else:
            raise ValueError(f"not a Lyabi action: {a!r}")
        return (head, *(kind_of[x] for x in pay), self.end)

    def token_text(self, position: int, token: int) -> str:
        if position > 0:
            return "end" if token == self.end else self.codec.names[token]
        if token < self.o_split:
            return str(self.codec.from_index(token))  # the fixed actions and the sets keep the flat numbering
        for action, seq in self.known.items():
            if seq[0] == token:
                return str(action) if len(seq) == 1 else str(action).split(" pay ")[0] + " ..."
        return f"head {token}"
