"""The battle's position: two columns of cards in play, HP and base HP, the turn; and the log a person can follow.

:class:`Board` holds what every part of the battle reads and changes; :mod:`.abilities` adds the firing of
abilities, :mod:`.battle` the turn structure and :mod:`.judgement` the judgement after turn 30.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from cardarena.engine import Rng

from ..cards import CardDef
from ..constants import Identical

NOTES_SHOWN = 8  # key events named in a turn's summary line; the rest are counted


class BattleOver(Exception):
    """Raised the moment a character's HP reaches 0 or less (or a judgement ends the battle)."""

    def __init__(self, winner: int | None, reason: str) -> None:
        super().__init__(reason)
        self.winner = winner
        self.reason = reason


class Unit:
    """One card in play in a column."""

    __slots__ = ("card", "in_play", "side", "up")

    def __init__(self, card: CardDef, side: int) -> None:
        self.card = card
        self.side = side
        self.up = True
        self.in_play = True


class Hit:
    """One damage hit being resolved (events change ``amount`` or nullify it)."""

    __slots__ = ("amount", "nullified", "source", "src_side")

    def __init__(self, amount: int, source: Unit, src_side: int) -> None:
        self.amount = amount
        self.source = source
        self.src_side = src_side
        self.nullified = False


class Flag:
    """A yes/no answer an event can set: an effect ignored by its target, an event negated."""

    __slots__ = ("set",)

    def __init__(self) -> None:
        self.set = False


@dataclass
class Outcome:
    winner: int | None
    reason: str
    turns: int
    hp: list[int]
    base: list[int]
    cards: list[int]
    safety_stops: int = 0

    def snapshot(self) -> list[Any]:
        """JSON-ready, for the state's snapshot."""
        return [self.winner, self.reason, self.turns, self.hp, self.base, self.cards, self.safety_stops]


def _answers(build: Sequence[CardDef]) -> frozenset[str]:
    """The event triggers the cards of a build answer."""
    return frozenset().union(*[c.answers for c in build])


@mypyc_attr(allow_interpreted_subclasses=True)  # involvement.TracedBattle watches a battle
class Board:
    """A battle's position and log; built from two builds (lists of cards, top first) and an Rng.

    Its fields are public so scenario tests can build a position and play one step (see ``tests/games/laplaplace``).
    """

    def __init__(
        self,
        builds: Sequence[Sequence[CardDef]],
        rng: Rng,
        *,
        log: list[str] | None = None,
        identical: str = Identical.DRAW,
    ) -> None:
        self.cols: list[list[Unit]] = [[Unit(c, s) for c in builds[s]] for s in (0, 1)]
        self.builds = [list(builds[0]), list(builds[1])]
        self.rng = rng
        self.log = log
        # With a log, a summary too: the key lines (reveal, one line per turn, the result); see ``key``/``note``.
        self.summary: list[str] | None = None if log is None else []
        self.notes: list[str] = []  # the key events of the turn being played (logged battles only)
        self.dealt = [0, 0]  # damage each side dealt to the other this turn (logged battles only)
        self.fired: list[list[str]] = [[], []]  # the actions each side fired this turn (logged battles only)
        self.turn_hp: list[int] | None = None  # HP at the start of the turn being played (logged battles only)
        # the run of alike turns the last summary line stands for: (pattern, first turn, turns, HP before, line)
        self.turn_run: tuple[object, int, int, list[int], str] | None = None
        self.identical = identical
        self.hp = [0, 0]
        self.base = [sum(c.force for c in builds[0]), sum(c.force for c in builds[1])]
        self.bonus = [0, 0]
        self.turn = 0
        self.first = 0
        self.last_first: int | None = None
        self.first_of_turn1: int | None = None  # turn 1's first player when the rules chose it (not the coin)
        self.depth = 0
        self.safety_stops = 0
        self.firings = 0
        self.speed_tied = False  # whether this turn's speeds tied (then HP may choose the first player)
        self.healed = -1  # the last turn in which a character recovered HP
        self.nest = 0  # events being resolved inside one another
        self.phase_events = 0  # event firings in the current phase
        self.stops_seen: list[int] = []  # safety_stops after each turn played (kept exact by loop skipping)
        # Jumps over turns that repeat (``Battle._skip_loop`` and ``_skip_race``): the same battle in fewer steps.
        # Tests turn them off to play every turn and compare.
        self.skip_loops = True
        self.skip_races = True
        # Fast paths: which kinds of answer each side holds at all (a stale "yes" after a removal is harmless).
        self.answers = [_answers(builds[0]), _answers(builds[1])]

    # -- log ------------------------------------------------------------------------------------------------
    def say(self, text: str) -> None:
        if self.log is not None:
            self.log.append("  " * self.depth + text)

    def key(self, text: str) -> None:
        """A line of the log that the summary keeps too (the reveal, the loops, the judgement, the result)."""
        if self.log is not None and self.summary is not None:
            self.say(text)
            self.summary.append(text)

    def note(self, text: str) -> None:
        """A key event of this turn (a card removed, downed or upped by an effect, a reflection...): the turn's
        summary line lists them."""
        if self.summary is not None:
            self.notes.append(text)

    def start_turn_summary(self) -> None:
        if self.summary is not None:
            self.notes = []
            self.dealt = [0, 0]
            self.fired = [[], []]
            self.turn_hp = list(self.hp)

    def end_turn_summary(self) -> None:
        """The summary line of the turn just played (or cut short by the end of the battle). Turns in a row that
        went alike (the same first player, the same firings and damage, the same key events) share one line:
        ``Turns 3-17 (...), each turn: ...; P0 HP 106 -> 46, ...``."""
        start = self.turn_hp
        if self.summary is None or start is None:
            return
        self.turn_hp = None
        sides = []
        for s in (self.first, 1 - self.first):
            fired = self.fired[s]
            if fired:
                names = ", ".join(n if k == 1 else f"{n} x{k}" for n, k in Counter(fired).items())
                sides.append(f"{self.who(s)} fires {names} and deals {self.dealt[s]} damage")
            else:
                sides.append(f"{self.who(s)} fires nothing" + (f", deals {self.dealt[s]}" if self.dealt[s] else ""))
        what = "; ".join(sides)
        shown = self.notes[:NOTES_SHOWN]
        if shown:
            what += "; " + "; ".join(shown)
            if len(self.notes) > len(shown):
                what += f"; and {len(self.notes) - len(shown)} more (see the full log)"
        pattern = (self.first, what, self.hp[0] - start[0], self.hp[1] - start[1])
        run = self.turn_run
        if run is not None and run[0] == pattern and run[1] + run[2] == self.turn and self.summary[-1] == run[4]:
            first_turn, hp0 = run[1], run[3]
            self.summary.pop()
            label = f"Turns {first_turn}-{self.turn} ({self.who(self.first)} first), each turn"
        else:
            first_turn, hp0 = self.turn, start
            label = f"Turn {self.turn} ({self.who(self.first)} first)"
        hp = ", ".join(
            f"{self.who(s)} HP {hp0[s]}" + (f" -> {self.hp[s]}" if self.hp[s] != hp0[s] else " (unchanged)")
            for s in (0, 1)
        )
        line = f"{label}: {what}; {hp}"
        self.turn_run = (pattern, first_turn, self.turn - first_turn + 1, hp0, line)
        self.summary.append(line)

    @staticmethod
    def who(side: int) -> str:
        return f"P{side}"

    def name(self, u: Unit) -> str:
        return f"P{u.side} {u.card.name}"

    def column_text(self, side: int) -> str:
        cells = [u.card.name + ("" if u.up else "(down)") for u in self.cols[side]]
        return "[" + ", ".join(cells) + "]" if cells else "[]"

    def position(self) -> tuple[object, ...]:
        """Everything that decides the rest of the battle (after turn 1 no chance is left)."""
        c0, c1 = self.cols
        # units compare by identity, so the tuples of units capture the order of the columns (base HP follows)
        return (
            tuple(c0),
            tuple(c1),
            tuple([u.up for u in c0]),
            tuple([u.up for u in c1]),
            self.hp[0],
            self.hp[1],
            self.last_first,
        )
