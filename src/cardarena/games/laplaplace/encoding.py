"""The fixed-size numeric encoding of a seat's observation, for learning agents (``cardarena.rl``).

Built from ``observation(seat)`` only (this module imports nothing of the state, the rules or the views), so the
other seat's secret build cannot enter it. Seats are relative (``me``, ``opp``); cards are in card-list order
(``data/cards.toml``). docs/games/laplaplace.md lists the fields.
"""

from __future__ import annotations

from typing import Any

from cardarena.engine import Layout, ObservationEncoder
from cardarena.engine.encoding import Buffer, put_counts, put_one_hot, ratio

from .cards import CardTable
from .constants import JUDGE_TURN, MAX_CARDS, OPEN_CARDS, Phase, Scene

SCENES = [s.value for s in Scene]
PHASES = [p.value for p in Phase]
MAX_HP = 200  # HP and base HP are shown divided by this (capped at 1)


class LaplaplaceEncoder(ObservationEncoder):
    """Laplaplace's observation as ``size`` floats in [0, 1]."""

    def __init__(self, table: CardTable) -> None:
        self.index = {c.id: i for i, c in enumerate(table.cards)}
        n = self.n = len(table.cards)
        lay = self.layout = Layout()
        self.o_scene = lay.add("scene", len(SCENES), f"one-hot build scene: {', '.join(SCENES)}")
        self.o_phase = lay.add("phase", len(PHASES), f"one-hot phase: {', '.join(PHASES)}")
        self.o_flags = lay.add(
            "flags", 4, "I am to act, my build is done, the opponent's build is done, the opponent's open cards shown"
        )
        self.o_build = lay.add(
            "me.build_slots",
            MAX_CARDS * n,
            f"my build, top first: {MAX_CARDS} slots, each a one-hot card (zeros past the build's end)",
        )
        self.o_counts = lay.add("me.build", n, f"my build's cards, count / {MAX_CARDS} per card")
        self.o_size = lay.add("me.size", 2, f"my build's size / {MAX_CARDS}, my base HP / {MAX_HP}")
        self.o_open = lay.add("open", 2 * n, f"my open cards, then the opponent's once shown: count / {OPEN_CARDS}")
        self.o_opp = lay.add("opp.build", n, f"the opponent's build once the battle is fought: count / {MAX_CARDS}")
        self.o_result = lay.add(
            "result",
            7,
            f"once fought: one-hot I won / I lost / a draw, turns / {JUDGE_TURN}, final HP mine and the opponent's "
            f"/ {MAX_HP}, the opponent's base HP / {MAX_HP}",
        )

    def encode_into(self, observation: dict[str, Any], seat: int, out: Buffer) -> None:
        idx, n = self.index, self.n
        put_one_hot(out, self.o_scene, SCENES.index(observation["scene"]))
        put_one_hot(out, self.o_phase, PHASES.index(observation["phase"]))
        other = 1 - seat
        f = self.o_flags
        if observation["to_act"] == seat:
            out[f] = 1.0
        done = observation["done"]
        out[f + 1] = float(done[seat])
        out[f + 2] = float(done[other])
        seats = observation["seats"]
        mine, theirs = seats[seat], seats[other]
        build = mine.get("build", [])
        for i, card in enumerate(build[:MAX_CARDS]):
            out[self.o_build + i * n + idx[card]] = 1.0
        put_counts(out, self.o_counts, build, idx, 1.0 / MAX_CARDS)
        out[self.o_size] = ratio(len(build), MAX_CARDS)
        out[self.o_size + 1] = ratio(mine.get("base_hp", 0), MAX_HP)
        if mine.get("open"):
            put_counts(out, self.o_open, mine["open"], idx, 1.0 / OPEN_CARDS)
        if theirs.get("open") is not None:
            out[f + 3] = 1.0
            put_counts(out, self.o_open + n, theirs["open"], idx, 1.0 / OPEN_CARDS)
        result = observation.get("result")
        if result is not None:
            put_counts(out, self.o_opp, theirs.get("build", []), idx, 1.0 / MAX_CARDS)
            r = self.o_result
            winner = result["winner"]
            out[r + (2 if winner is None else 0 if winner == seat else 1)] = 1.0
            out[r + 3] = ratio(result["turns"], JUDGE_TURN)
            out[r + 4] = ratio(result["hp"][seat], MAX_HP)
            out[r + 5] = ratio(result["hp"][other], MAX_HP)
            out[r + 6] = ratio(theirs.get("base_hp", 0), MAX_HP)
