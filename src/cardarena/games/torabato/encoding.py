"""The fixed-size numeric encoding of a seat's observation, for learning agents (``cardarena.rl``).

Built from ``observation(seat)`` only (this module imports nothing of the state, the rules or the views), so
hands, mana cards, deck orders and a reveal not yet shown cannot enter it. Seats are relative (``me``, ``opp``);
card blocks have one number per card of the 54 (``AS 2S ... KS AC ... KC JK0 AH ... KD JK1``, the order of
``cards.NAMES``). docs/games/torabato.md lists the fields.
"""

from __future__ import annotations

from typing import Any

from ...engine import Layout, ObservationEncoder
from ...engine.encoding import Buffer, ratio
from .cards import NAMES
from .constants import CARDS_PER_SEAT, MAX_REDEALS, Pending, Phase

PHASES = [p.text for p in Phase]
PHASE_INDEX = {text: i for i, text in enumerate(PHASES)}
PENDING = [p.value for p in Pending]
STACK_KINDS = ["spell", "ability", "recursion"]
STACK_SLOTS = 4  # the top of the stack first
SMALL = 10  # hand sizes, mana, attack and health are shown divided by this (capped at 1)
SOLDIER_STATS = ("attack", "health", "damage", "tapped", "sick", "unblockable", "zeroed", "tapped_this_turn")
SCALAR_KEYS = ("hand_size", "mana_count", "mana_tapped", "mana_pool", "available_mana")  # after the deck, / SMALL
SEAT_CARD_BLOCKS = ("discard", "known_in_hand_or_mana", "known_in_hand", "known_in_mana", "reveals")


class ToraBatoEncoder(ObservationEncoder):
    """ToraBato's observation as ``size`` floats in [0, 1]."""

    def __init__(self) -> None:
        self.index = {name: i for i, name in enumerate(NAMES)}
        n = self.n = len(NAMES)
        lay = self.layout = Layout()
        self.o_phase = lay.add("phase", len(PHASES), f"one-hot phase: {', '.join(PHASES)}")
        self.o_flags = lay.add(
            "flags",
            10,
            "turn / 100, it is my turn, I went first, I am to act, I hold priority, passes in a row / 2, "
            f"mana set this turn, attacked this turn, redeals / {MAX_REDEALS}, the game is over",
        )
        self.o_pending = lay.add("pending", len(PENDING) + 1, f"one-hot pending choice ({', '.join(PENDING)}), mine")
        self.o_result = lay.add("result", 3, "one-hot once over: I won, I lost, a draw")
        self.o_seat: list[dict[str, int]] = []
        for who, what in (("me", "my"), ("opp", "the opponent's")):
            o: dict[str, int] = {}
            o["scalars"] = lay.add(
                f"{who}.scalars",
                6,
                f"{what} deck / {CARDS_PER_SEAT}, hand size / {SMALL}, mana cards / {SMALL}, tapped mana / {SMALL}, "
                f"mana pool / {SMALL}, available mana / {SMALL}",
            )
            for block in SEAT_CARD_BLOCKS:
                o[block] = lay.add(f"{who}.{block}", n, f"{what} {block.replace('_', ' ')}: 1 per card")
            if who == "me":
                o["hand"] = lay.add("me.hand", n, "my hand: 1 per card")
                o["mana"] = lay.add("me.mana", n, "my mana cards: 1 per card")
            o["soldiers"] = lay.add(
                f"{who}.soldiers",
                n * (1 + len(SOLDIER_STATS)),
                f"{what} soldiers, per card: on the field, attack / {SMALL}, health / {SMALL}, damage / {SMALL}, "
                "tapped, summoning-sick, unblockable, ability zeroed, tapped this turn",
            )
            self.o_seat.append(o)
        self.o_attack = lay.add(
            "attack", 3 * n, "the attack: attackers (1 per card), blockers (1 per card), damage assigned to it / 5"
        )
        self.o_blocked = lay.add("blocked", n, "attackers that are blocked: 1 per card")
        self.stack_width = len(STACK_KINDS) + 3 + 2 * n
        self.o_stack = lay.add(
            "stack",
            STACK_SLOTS * self.stack_width,
            f"the stack's top {STACK_SLOTS} items, top first, each: one-hot kind ({', '.join(STACK_KINDS)}), mine, "
            "targets the opponent of its controller, ability zeroed, the card (one-hot), its target card (one-hot)",
        )

    def encode_into(self, observation: dict[str, Any], seat: int, out: Buffer) -> None:
        # the hot path of every RL step: plain loops and inline arithmetic (counts are never negative)
        idx, n = self.index, self.n
        out[self.o_phase + PHASE_INDEX[observation["phase"]]] = 1.0
        f = self.o_flags
        turn = observation["turn"]
        out[f] = turn / 100 if turn < 100 else 1.0
        if observation["active"] == seat:
            out[f + 1] = 1.0
        if observation["first_player"] == seat:
            out[f + 2] = 1.0
        if observation["to_act"] == seat:
            out[f + 3] = 1.0
        if observation["priority"] == seat:
            out[f + 4] = 1.0
        out[f + 5] = ratio(observation["passes"], 2)
        if observation["mana_set_this_turn"]:
            out[f + 6] = 1.0
        if observation["attacked_this_turn"]:
            out[f + 7] = 1.0
        out[f + 8] = ratio(observation["redeals"], MAX_REDEALS)
        pending = observation["pending"]
        if pending is not None:
            out[self.o_pending + PENDING.index(pending[0])] = 1.0
            out[self.o_pending + len(PENDING)] = float(pending[1] == seat)
        result = observation["result"]
        if result is not None:
            out[f + 9] = 1.0
            r = result[seat]
            out[self.o_result + (0 if r > 0 else 1 if r < 0 else 2)] = 1.0
        reveals = observation["reveals"]
        stride = 1 + len(SOLDIER_STATS)
        for s, p in enumerate(observation["players"]):
            o = self.o_seat[s != seat]
            k = o["scalars"]
            out[k] = ratio(p["deck"], CARDS_PER_SEAT)
            for i, key in enumerate(SCALAR_KEYS, 1):
                x = p[key]
                if x:
                    out[k + i] = x / SMALL if x < SMALL else 1.0
            for block, cards in (
                ("discard", p["discard"]),
                ("known_in_hand_or_mana", p["known_in_hand_or_mana"]),
                ("known_in_hand", p["known_in_hand"]),
                ("known_in_mana", p["known_in_mana"]),
                ("reveals", reveals[s]),
                ("hand", p.get("hand")),
                ("mana", p.get("mana")),
            ):
                if cards:
                    base = o[block]
                    for c in cards:
                        out[base + idx[c]] = 1.0
            base = o["soldiers"]
            for sol in p["soldiers"]:
                q = base + idx[sol["card"]] * stride
                out[q] = 1.0
                a, h, d = sol["attack"], sol["health"], sol["damage"]
                if a > 0:
                    out[q + 1] = a / SMALL if a < SMALL else 1.0
                if h > 0:
                    out[q + 2] = h / SMALL if h < SMALL else 1.0
                if d > 0:
                    out[q + 3] = d / SMALL if d < SMALL else 1.0
                if sol["tapped"]:
                    out[q + 4] = 1.0
                if sol["sick"]:
                    out[q + 5] = 1.0
                if sol["unblockable"]:
                    out[q + 6] = 1.0
                if sol["zeroed"]:
                    out[q + 7] = 1.0
                if sol["tapped_this_turn"]:
                    out[q + 8] = 1.0
        attack = observation["attack"]
        a = self.o_attack
        for c in attack["attackers"]:
            out[a + idx[c]] = 1.0
        for blocker, attacker in attack["blocks"]:
            out[a + n + idx[blocker]] = 1.0
            out[self.o_blocked + idx[attacker]] = 1.0
        for _attacker, blocker in attack["assigned"]:
            q = a + 2 * n + idx[blocker]
            out[q] = min(out[q] + 0.2, 1.0)
        stack = observation["stack"]
        if stack:
            for i, item in enumerate(reversed(stack[-STACK_SLOTS:])):
                q = self.o_stack + i * self.stack_width
                out[q + STACK_KINDS.index(item["kind"])] = 1.0
                out[q + 3] = float(item["controller"] == seat)
                target = item["target"]
                if target == "opponent":
                    out[q + 4] = 1.0
                out[q + 5] = float(item["zeroed"])
                out[q + 6 + idx[item["card"]]] = 1.0
                if target is not None and target != "opponent":
                    out[q + 6 + n + idx[target]] = 1.0
