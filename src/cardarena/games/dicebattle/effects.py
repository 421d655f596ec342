"""The small effect language of Dice Battle Monsters: conditions and operations, read from card data.

A card's effect is data::

    effect = { type = "forced", when = "opp_monster", do = ["weaken 2", "draw 1"] }

``when`` is one condition word (some take a number); ``do`` is a list of operations, each a word and at most
one number. This module parses and describes them; :mod:`.battle` carries them out.
"""

from __future__ import annotations

from dataclasses import dataclass

# Condition word -> (takes a number, English text with {n}).
CONDITIONS: dict[str, tuple[bool, str]] = {
    "always": (False, ""),
    "opp_human": (False, "if the opponent's main unit is a human"),
    "opp_monster": (False, "if the opponent's main unit is a monster"),
    "opp_token": (False, "if the opponent's main unit is the dice token"),
    "opp_magic": (False, "if the opponent has magic in their magic circle"),
    "my_human": (False, "if your main unit is a human"),
    "my_monster": (False, "if your main unit is a monster"),
    "behind": (False, "if you have fewer stars than the opponent"),
    "ahead": (False, "if you have more stars than the opponent"),
    "losing": (False, "if your main unit's level is lower than the opponent's"),
    "first": (False, "if you are the first player this round"),
    "second": (False, "if you are the second player this round"),
    "roll_le": (True, "if your die shows {n} or less"),
    "roll_ge": (True, "if your die shows {n} or more"),
    "monsters_ge": (True, "if your main zone holds {n} or more monsters"),
    "hand_le": (True, "if you hold {n} or fewer cards"),
}

# Operation word -> (takes a number, English text with {n}).
OPERATIONS: dict[str, tuple[bool, str]] = {
    "power": (True, "your main unit gets {n:+d} level"),
    "weaken": (True, "the opponent's main unit gets -{n} level"),
    "halve": (False, "the opponent's main unit's level is halved (rounded down)"),
    "swap": (False, "swap the levels of the two main units"),
    "draw": (True, "draw {n}"),
    "opp_draw": (True, "the opponent draws {n}"),
    "discard": (True, "the opponent discards {n} card(s) at random"),
    "mill": (True, "the top {n} card(s) of the opponent's deck go to their graveyard"),
    "salvage": (True, "return the {n} highest-level card(s) of your graveyard to your hand"),
    "star": (True, "gain {n} star(s)"),
    "steal": (True, "the opponent loses {n} star(s)"),
    "cancel": (False, "the opponent's effects that have not resolved yet this battle do not resolve"),
    "tie_win": (False, "if the battle is a tie, you win it"),
    "keep": (False, "this card returns to your hand after the battle instead of the graveyard"),
}

# Operations that make no sense on a grant (it is not in the battle's used cards).
NOT_ON_GRANTS = frozenset({"keep"})

CHOICE, FORCED, PERMANENT = "choice", "forced", "permanent"


class EffectSyntaxError(ValueError):
    """A condition or operation that the effect language does not know, or with a bad number."""


@dataclass(frozen=True, slots=True)
class Effect:
    """A compiled effect: its type, its condition and its operations."""

    type: str
    when: str
    when_n: int
    ops: tuple[tuple[str, int], ...]

    @property
    def text(self) -> str:
        cond = condition_text(self.when, self.when_n)
        body = "; ".join(operation_text(op, n) for op, n in self.ops)
        return f"{self.type}: {cond + ', ' if cond else ''}{body}"


def _split(text: str, table: dict[str, tuple[bool, str]], what: str) -> tuple[str, int]:
    words = text.split()
    if not words:
        raise EffectSyntaxError(f"empty {what}")
    word = words[0]
    if word not in table:
        raise EffectSyntaxError(f"unknown {what} {word!r}; known: {', '.join(table)}")
    takes_number = table[word][0]
    if takes_number:
        if len(words) != 2:
            raise EffectSyntaxError(f"{what} {word!r} takes one number, as in '{word} 2'")
        try:
            n = int(words[1])
        except ValueError:
            raise EffectSyntaxError(f"{what} {word!r} takes a whole number, not {words[1]!r}") from None
        if not -6 <= n <= 6 or n == 0:
            raise EffectSyntaxError(f"{what} {word!r}: the number must be between -6 and 6 and not 0")
        if n < 0 and word != "power":
            raise EffectSyntaxError(f"{what} {word!r}: only 'power' may take a negative number")
        return word, n
    if len(words) != 1:
        raise EffectSyntaxError(f"{what} {word!r} takes no number")
    return word, 0


def parse_condition(text: str) -> tuple[str, int]:
    """``"roll_le 2"`` -> ``("roll_le", 2)``; raises :class:`EffectSyntaxError`."""
    return _split(text, CONDITIONS, "condition")


def parse_operation(text: str) -> tuple[str, int]:
    """``"weaken 2"`` -> ``("weaken", 2)``; raises :class:`EffectSyntaxError`."""
    return _split(text, OPERATIONS, "operation")


def condition_text(word: str, n: int) -> str:
    return CONDITIONS[word][1].format(n=n)


def operation_text(word: str, n: int) -> str:
    return OPERATIONS[word][1].format(n=n)
