"""What each card says, in words, for the browser's card viewer (``Game.card_texts``, ``welcome.cards``).

Built from the card and task files in use (a designer's file shows its own texts): every being, legend and flare
with its rank, its effect (``Card.text``, the plain English of its compiled steps) and its pattern described square
by square from the summon square; every High Form task with its points and conditions. Keyed by the ids the
observation and the action texts name them by (``cinder-imp``, ``havoc``). Public rules data only.
"""

from __future__ import annotations

import re

from ....engine import CardText
from ..cards import CardSet, TaskSet
from ..cards.data import RANK_NAMES, Card

#: What each pattern symbol asks for, as the card viewer's notes explain it.
SYMBOLS = {
    "c": "c: one of your pieces, of any rank",
    "h": "h: one of your heroic or legendary pieces",
    "l": "l: one of your legendary pieces",
    "@": "@ (◎ on the card): the summon square, where the being's piece goes (a piece of lower or equal rank there "
    "is destroyed, a higher one forbids the summon)",
    "C": "C: the summon square, on one of your pieces (any rank)",
    "H": "H: the summon square, on one of your heroic or legendary pieces",
    "L": "L: the summon square, on one of your legendary pieces",
    "*": "✱ (* in the card file): a square the effect marks; it need not hold anything",
}
_WANTS = {"c": "your piece", "h": "your heroic or legendary piece", "l": "your legendary piece"}
_SUMMON_ON = {
    "@": "",
    "C": " (on your piece)",
    "H": " (on your heroic or legendary piece)",
    "L": " (on your legendary)",
}


def _offset_words(dx: int, dy: int) -> str:
    """Where a square lies from the summon square as printed (north up): "1 up", "2 left", "diagonally up-right"."""
    vertical = "up" if dy > 0 else "down"
    horizontal = "right" if dx > 0 else "left"
    if dx == 0:
        return f"{abs(dy)} {vertical}"
    if dy == 0:
        return f"{abs(dx)} {horizontal}"
    if abs(dx) == abs(dy):
        return "diagonally " + ("" if abs(dx) == 1 else f"{abs(dx)} ") + f"{vertical}-{horizontal}"
    return f"{abs(dy)} {vertical} and {abs(dx)} {horizontal}"


def pattern_words(rows: tuple[str, ...]) -> str:
    """A pattern in words, from the summon square: "Pattern: the summon square; your piece 1 up; your heroic or
    legendary piece diagonally up-left; a marked square 2 up. Turned or mirrored any way."."""
    grid = [row.split() for row in rows]
    sr, sc, summon = next((r, c, t) for r, row in enumerate(grid) for c, t in enumerate(row) if t in _SUMMON_ON)
    parts = [f"the summon square{_SUMMON_ON[summon]}"]
    for r, row in enumerate(grid):
        for c, tok in enumerate(row):
            if tok == "." or (r, c) == (sr, sc):
                continue
            where = _offset_words(c - sc, sr - r)
            if tok == "*":
                parts.append(f"a marked square {where}")
            elif tok.endswith("*"):
                parts.append(f"{_WANTS[tok[0]]}, marked, {where}")
            else:
                parts.append(f"{_WANTS[tok]} {where}")
    return "Pattern: " + "; ".join(parts) + ". It may be turned or mirrored any way."


def _symbols(rows: tuple[str, ...]) -> list[str]:
    """The notes explaining the symbols this pattern uses, in the order of :data:`SYMBOLS`."""
    used = {tok.rstrip("*") or "*" for row in rows for tok in row.split()} | (
        {"*"} if any("*" in row for row in rows) else set()
    )
    return [SYMBOLS[s] for s in SYMBOLS if s in used]


_LEGEND_SCORES = {
    "deathmatch": "A legend you summon scores 1 point.",
    "melee": "A legend you summon scores 1 point in an enemy colour you pick.",
    "highform": "Each legendary piece of yours on the board counts 1 point while it stays there.",
}


def being_text(card: Card, school: str, mode: str) -> CardText:
    rank = RANK_NAMES[card.rank]
    kind = f"legend · {rank} being (shared legend deck)" if card.kind == "legend" else f"{rank} being · {school}"
    notes = [
        f"Summoning it takes 1 action: your pieces must stand in its pattern; its {rank} piece goes on the summon "
        "square, its effect resolves at once, then the card is discarded.",
        "The pattern as the card draws it, north up: " + " / ".join(card.pattern),
        *_symbols(card.pattern),
    ]
    if card.kind == "legend":
        notes.append(_LEGEND_SCORES[mode])
    return CardText(
        name=card.name,
        text=(card.text or "No effect: it only puts its piece on the board.", pattern_words(card.pattern)),
        cost="1 action",
        kind=kind,
        notes=tuple(notes),
    )


def flare_text(card: Card, mode: str) -> CardText:
    scorer = {
        "deathmatch": "The opponent you invoke it against scores 1 point.",
        "melee": "The opponent you invoke it against scores 1 point in your colour.",
        "highform": "Nobody scores for a flare in High Form.",
    }[mode]
    return CardText(
        name=card.name,
        text=tuple(card.text.splitlines()),
        cost="no action",
        kind=f"flare · upper half {card.upper}, lower half {card.lower}",
        notes=(
            "A flare is invoked before or after your actions (not during an effect) and is not an action.",
            f"Upper half: usable when an opponent has at least {card.upper} more upgraded (heroic and legendary) "
            f"pieces than you. Lower half: when an opponent has at least {card.lower} more pieces than you. If "
            "both hold, the upper half resolves first.",
            scorer,
        ),
    )


def card_texts(cards: CardSet, tasks: TaskSet | None, mode: str) -> dict[str, CardText]:
    """Every being, legend and flare of ``cards`` and every task of ``tasks`` by id (a task whose id a card has
    already is keyed ``task:<id>``)."""
    out: dict[str, CardText] = {}
    schools = {c: s.name for s in cards.schools.values() for c in s.cards}
    for card in cards.cards:
        if card.kind == "flare":
            out[card.id] = flare_text(card, mode)
        else:
            out[card.id] = being_text(card, schools.get(card.index, "legend"), mode)
    for task in tasks.tasks if tasks is not None else ():
        key = f"task:{task.id}" if task.id in out else task.id
        advanced = "advanced " if task.advanced else ""
        words = re.sub(r"^\[[^\]]*\] ", "", task.text)  # the kind line says the type and points
        out[key] = CardText(
            name=task.name,
            text=(words[:1].upper() + words[1:] + ("" if words.endswith(".") else "."),),
            cost=None,
            kind=f"{advanced}High Form task · {task.points} point{'s' if task.points != 1 else ''} · {task.type}",
            notes=(
                "At the end of your turn, if a current task holds for you, you may claim one: it scores its points "
                "and the next task takes its place.",
            ),
        )
    return out
