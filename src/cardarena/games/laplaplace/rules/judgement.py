"""決着: the judgement after turn 30, and the fixed order of builds that breaks its last tie."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from ..cards import CardDef
from ..constants import JUDGE_TURN
from .board import BattleOver, Board


def judgement(b: Board) -> NoReturn:
    """After turn 30 (バトルが30ターンを超えたら…判定): higher HP; then higher base HP; then more cards in play;
    then the first player of turn 1, if the rules (not the coin) chose it; then the revealed builds compared
    card by card (:func:`compare_builds`). Only identical builds, which never get here, are left undecided."""
    hp, base = b.hp, b.base
    n = [len(b.cols[0]), len(b.cols[1])]
    if b.log is not None:
        b.key(f"Turn {JUDGE_TURN} is over: judgement")
    for label, v in (("HP", hp), ("base HP", base), ("cards in play", n)):
        if v[0] != v[1]:
            w = 0 if v[0] > v[1] else 1
            raise BattleOver(w, f"{b.who(w)} wins the judgement on {label} ({v[w]} vs {v[1 - w]})")
    w1 = b.first_of_turn1
    if w1 is not None:
        raise BattleOver(w1, f"{b.who(w1)} wins the judgement: HP, base HP and cards tied; first in turn 1")
    place = compare_builds(b.builds[0], b.builds[1])
    if place is None:  # only reachable when a test skips the reveal, which draws identical builds at once
        raise BattleOver(None, "identical builds: a draw")
    w, i = place
    mine = b.builds[w][i].name
    theirs = b.builds[1 - w][i].name if i < len(b.builds[1 - w]) else "no card"
    raise BattleOver(
        w,
        f"{b.who(w)} wins the judgement: HP, base HP, cards and turn 1 tied; "
        f"the builds first differ at place {i + 1}: {mine} beats {theirs}",
    )


def compare_builds(a: Sequence[CardDef], b: Sequence[CardDef]) -> tuple[int, int] | None:
    """The last tie-break of the judgement, a fixed order of builds: ``(winner, place)`` or ``None`` if identical.

    The two revealed columns are read from the top; at the first place where they differ, a card beats no card,
    then the card of higher force wins (force is HP and speed), then the card listed earlier in the card list.
    It depends only on the two builds (never on seats or chance), and two different builds always differ.
    """
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x.index != y.index:
            if x.force != y.force:
                return (0 if x.force > y.force else 1), i
            return (0 if x.index < y.index else 1), i
    if len(a) != len(b):
        return (0 if len(a) > len(b) else 1), min(len(a), len(b))
    return None
