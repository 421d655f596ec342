"""The fixed-size numeric encoding of a seat's observation, for learning agents (``cardarena.rl``).

Built from ``observation(seat)`` only (this module imports nothing of the state, the rules or the views), so
nothing hidden can enter it. Seats are relative: block ``me`` is the observing seat, ``opp`` the other one.
Cards are counted in card-pool order (``cards.toml``), a count divided by 2 (a deck holds at most 2 copies).
docs/games/dicebattle.md lists the fields.
"""

from __future__ import annotations

from typing import Any

from cardarena.engine import Layout, ObservationEncoder
from cardarena.engine.encoding import Buffer, put_counts, ratio

from .cards import Tables
from .constants import DECK_SIZE, MAX_COPIES, MAX_REDRAWS, STARS_TO_WIN, Phase, Zone

PHASES = [p.label for p in Phase]
ZONES = [z.label for z in Zone]
#: what ``observation["waiting"]["kind"]`` may be: a phase's label, or ``nothing`` once the game is over
WAITING = [*PHASES, "nothing"]
PHASE_INDEX = {label: i for i, label in enumerate(PHASES)}
WAITING_INDEX = {label: i for i, label in enumerate(WAITING)}
QUEUE_SLOTS = 8  # the battle queue's first entries, in order (a battle queues far fewer in practice)
MAX_LEVEL = 20  # levels are shown divided by this (capped at 1)
HAND_MAX = 12  # hand and zone sizes are shown divided by this (capped at 1)
SEAT_ZONES = ("graveyard", "stock", "known_in_hand", "used_last_battle", "main", "circle", "hand")
COUNTED_ZONES = ("graveyard", "stock", "known_in_hand", "used_last_battle", "hand")  # always lists of card ids


class DiceBattleEncoder(ObservationEncoder):
    """Dice Battle Monsters' observation as ``size`` floats in [0, 1]."""

    def __init__(self, tables: Tables) -> None:
        self.index = dict(tables.by_id)
        n = len(tables.cards)
        lay = self.layout = Layout()
        self.o_phase = lay.add("phase", len(PHASES), f"one-hot phase: {', '.join(PHASES)}")
        self.o_round = lay.add("round", 1, "round number / 50 (capped at 1)")
        self.o_first = lay.add("first", 2, "one-hot: I go first this round, the opponent does")
        self.o_wait = lay.add("waiting_kind", len(WAITING), f"one-hot: what the game waits on: {', '.join(WAITING)}")
        self.o_wait_me = lay.add("waiting_me", 1, "1 if the game waits on me")
        self.o_wait_card = lay.add("waiting_card", n, "one-hot: the card whose effect is to be used or skipped")
        self.o_wait_zone = lay.add("waiting_zone", len(ZONES), f"one-hot zone of that card: {', '.join(ZONES)}")
        self.o_wait_order = lay.add("waiting_order", n, "the cards whose order I choose (1 each)")
        self.o_seat: list[dict[str, int]] = []
        for who, what in (("me", "mine"), ("opp", "the opponent's")):
            o: dict[str, int] = {}
            o["scalars"] = lay.add(
                f"{who}.scalars",
                13,
                f"{what}: stars / 3, Miracle face up, Revival face up, hand size / {HAND_MAX}, deck size / 30, "
                "redraws / 3, dice token set, level / 20, cancelled, wins ties, main-zone cards / 12, "
                "magic-circle cards / 12, a grant set",
            )
            o["roll"] = lay.add(f"{who}.roll", 7, f"one-hot: {what} die (0: not rolled yet, 1-6)")
            for zone in SEAT_ZONES:
                if zone == "hand" and who == "opp":
                    continue
                o[zone] = lay.add(f"{who}.{zone}", n, f"{what} {zone.replace('_', ' ')} cards, count / 2 per card")
            o["grant"] = lay.add(f"{who}.grant", n, f"one-hot: {what} grant card, once it is shown")
            self.o_seat.append(o)
        self.o_queue = lay.add(
            "queue",
            QUEUE_SLOTS * (n + 5),
            f"the battle queue's first {QUEUE_SLOTS} entries, each: level / 20, mine, one-hot zone (3), card one-hot",
        )
        self.o_result = lay.add("result", 3, "one-hot once the game is over: I won, I lost, a draw")
        self.n = n

    def encode_into(self, observation: dict[str, Any], seat: int, out: Buffer) -> None:
        # the hot path of every RL step: plain loops and inline arithmetic (counts are never negative)
        idx = self.index
        out[self.o_phase + PHASE_INDEX[observation["phase"]]] = 1.0
        out[self.o_round] = ratio(observation["round"], 50)
        first = observation["first"]
        if first is not None:
            out[self.o_first + (first != seat)] = 1.0
        w = observation["waiting"]
        out[self.o_wait + WAITING_INDEX[w["kind"]]] = 1.0
        if w["seat"] == seat:
            out[self.o_wait_me] = 1.0
        if "card" in w:
            out[self.o_wait_card + idx[w["card"]]] = 1.0
            out[self.o_wait_zone + ZONES.index(w["zone"])] = 1.0
        if "cards" in w:
            put_counts(out, self.o_wait_order, w["cards"], idx, 1.0)
        unit = 1.0 / MAX_COPIES
        for s, p in enumerate(observation["players"]):
            o = self.o_seat[s != seat]
            k = o["scalars"]
            if p["stars"]:
                out[k] = p["stars"] / STARS_TO_WIN
            if p["miracle"]:
                out[k + 1] = 1.0
            if p["revival"]:
                out[k + 2] = 1.0
            x = p["hand_count"]
            out[k + 3] = x / HAND_MAX if x < HAND_MAX else 1.0
            x = p["deck_count"]
            out[k + 4] = x / DECK_SIZE if x < DECK_SIZE else 1.0
            if p["redraws"]:
                out[k + 5] = ratio(p["redraws"], MAX_REDRAWS)
            if p["token"]:
                out[k + 6] = 1.0
            if "level" in p:
                x = p["level"]
                out[k + 7] = x / MAX_LEVEL if x < MAX_LEVEL else 1.0
                out[k + 8] = float(p["cancelled"])
                out[k + 9] = float(p["tie_win"])
            main, circle, grant = p["main"], p["circle"], p["grant"]
            if isinstance(main, list):  # shown
                out[k + 10] = ratio(len(main), HAND_MAX)
                out[k + 11] = ratio(len(circle), HAND_MAX)
                base = o["main"]
                for c in main:
                    out[base + idx[c]] += unit
                base = o["circle"]
                for c in circle:
                    out[base + idx[c]] += unit
                if grant is not None:
                    out[k + 12] = 1.0
                    out[o["grant"] + idx[grant]] = 1.0
            else:  # set face down: only how many
                out[k + 10] = ratio(main, HAND_MAX)
                out[k + 11] = ratio(circle, HAND_MAX)
                out[k + 12] = float(grant)
            out[o["roll"] + min(max(int(p["roll"] or 0), 0), 6)] = 1.0
            for zone in COUNTED_ZONES:
                cards = p.get(zone)
                if cards:
                    base = o[zone]
                    for c in cards:
                        out[base + idx[c]] += unit
        queue = observation["queue"]
        if queue:
            width = self.n + 5
            for i, (level, owner, card, zone) in enumerate(queue[:QUEUE_SLOTS]):
                q = self.o_queue + i * width
                out[q] = ratio(level, MAX_LEVEL)
                out[q + 1] = float(owner == seat)
                out[q + 2 + ZONES.index(zone)] = 1.0
                out[q + 5 + idx[card]] = 1.0
        result = observation["result"]
        if result is not None:
            r = result[seat]
            out[self.o_result + (0 if r > 0 else 1 if r < 0 else 2)] = 1.0
