"""How a battle was decided, in a player's words (``Game.end_reason``): the outcome's reason without its "P0 wins"
(the table's result line says who won) and with the judgement's turn spelt out. Seats stay "P0"/"P1": the server
puts the players' names in, as it does for the log."""

from __future__ import annotations

import re

from .constants import JUDGE_TURN

#: (pattern of an outcome's reason, the words for it); the first that matches is used
_WORDS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^identical builds; a coin decides: .*$"), "the builds were identical, so a coin decided"),
    (re.compile(r"^identical builds: a draw$"), "the builds were identical"),
    (re.compile(r"^(P\d) wins: (P\d) HP (-?\d+)$"), r"\2's HP fell to \3"),
    (re.compile(r"^(P\d) wins: (P\d) starts with 0 HP$"), r"\2 started the battle with 0 HP"),
    (
        re.compile(r"^(P\d) wins: both start with 0 HP and it is first in turn 1$"),
        r"both started with 0 HP and \1 was first in turn 1",
    ),
    (
        re.compile(r"^(P\d) wins the judgement on (.+) \((-?\d+) vs (-?\d+)\)$"),
        rf"the battle went past turn {JUDGE_TURN} and was judged on \2: \3 against \4",
    ),
    (
        re.compile(r"^(P\d) wins the judgement: HP, base HP and cards tied; first in turn 1$"),
        rf"the battle went past turn {JUDGE_TURN}; HP, base HP and cards in play were tied, and \1 was first in turn 1",
    ),
    (
        re.compile(r"^(P\d) wins the judgement: HP, base HP, cards and turn 1 tied; (.*)$"),
        rf"the battle went past turn {JUDGE_TURN} with everything tied; \2",
    ),
]


def end_reason(reason: str) -> str:
    """The words for an outcome's ``reason`` (the reason itself where no pattern knows it)."""
    for pattern, words in _WORDS:
        if pattern.match(reason):
            return pattern.sub(words, reason)
    return reason
