"""Text pictures of the board and plain descriptions of actions, for people at a terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....engine import Action
from ..board import NAME_SQ, SQ_NAME
from ..cards.data import RANK_NAMES, Card, CardSet
from ..cards.tasks import TaskSet
from ..constants import CLAIM, EFFECT, SETUP, Kind
from ..rules.effects import current_step
from ..rules.flares import flare_halves
from .menu import summon_detail
from .panels import board_lines, panels, panels_text

if TYPE_CHECKING:
    from ..state import TashKalarState


def render(st: TashKalarState, seat: int | None) -> str:
    """The plain-text picture: the panels of :func:`board` joined (``Game.render``)."""
    return panels_text(panels(st, seat))


UNDER = {"being": "your deck", "legend": "the legend deck", "flare": "the flare deck"}


def describe_action(st: TashKalarState, action: Action) -> str:

    cs = st.game.cards
    kind = action[0]
    if kind == Kind.SUMMON:
        card = cs.by_id[action[1]]
        return f"summon {card.name} ({RANK_NAMES[card.rank]}) {summon_detail(st, action)}"
    if kind == Kind.FLARE:
        card = cs.by_id[action[1]]
        against = action[2] if len(action) == 3 else -1
        up, low = flare_halves(st, st.player, card, against)
        halves = " and ".join(h for h, ok in (("upper", up), ("lower", low)) if ok)
        who = {
            "deathmatch": "the opponent scores 1",
            "highform": "no one scores",
            "melee": f"seat {against} scores 1 in your colour",
        }[st.game.mode]
        return f"invoke the flare {card.name} ({halves} half; {who})"
    if kind == Kind.HANDOVER:
        return "hand the turn over to your teammate (with your legends)"
    if kind == Kind.CLAIM:
        assert st.game.tasks is not None
        task = st.game.tasks.by_id[action[1]]
        return f"claim the task {task.name} ({task.points} pt)"
    if kind == Kind.SCORE:
        return f"score 1 point in the colour of seat {action[1]}"
    if kind == Kind.SETUP:
        return f"setup: a common of seat {action[2]} on {SQ_NAME[action[1]]}"
    if kind == Kind.DISCARD:
        return f"discard {cs.by_id[action[1]].name}"
    if kind == Kind.BOTTOM:
        card = cs.by_id[action[1]]
        return f"put under {UNDER[card.kind]} {card.name}"
    if st.phase == SETUP and kind == Kind.CHOOSE:
        return f"seat {st.player}'s common on {SQ_NAME[action[1]]}, the first player's on the other setup square"
    if st.phase == EFFECT and st.frames:
        step = current_step(st)
        if kind == Kind.OPTION:
            return f"option {action[1]}: " + " ".join(s.text for s in step.options[action[1] - 1])
        if kind == Kind.MOVE:
            victim = st.board[action[2]]
            extra = f", destroying the {RANK_NAMES[victim & 3]} of seat {victim >> 2}" if victim else ""
            return f"{action[0]} {SQ_NAME[action[1]]} to {SQ_NAME[action[2]]}{extra} ({step.text})"
        if kind == Kind.SKIP:
            return f"skip: stop here ({step.text})"
        if kind == Kind.TAKE:
            return f"take {cs.by_id[action[1]].name} into your hand ({step.text})"
        return f"{action} ({step.text})"
    if kind == Kind.PLACE:
        return str(action)
    if kind == Kind.RECALL:
        return f"out of units: take back your piece on {SQ_NAME[action[1]]}"
    if kind == Kind.END:
        return "end the turn"
    if kind == Kind.SKIP:
        return "skip: claim no task" if st.phase == CLAIM else "skip: put no more cards under a deck"
    if kind == Kind.RESIGN:
        return "resign: your team loses the game" if st.game.teams else "resign: you lose the game"
    return str(action)


def seen_by_others(st: TashKalarState, action: Action) -> str:
    """``action`` as a seat other than the one taking it sees it: no hidden card is named."""
    if action[0] == Kind.BOTTOM:
        # the kind of card is public (hand sizes are), the card is not
        kind = st.game.cards.by_id[action[1]].kind
        what = {"being": "a card under their school deck", "legend": "a legend under the legend deck"}
        return f"put {what.get(kind, 'a flare under the flare deck')} (which card is hidden)"
    return describe_action(st, action)


def card_list(cards: CardSet) -> str:
    """Every card of the file with its pattern, for ``cardarena rules tashkalar``."""
    lines = ["## Cards of this card file", ""]
    for school in cards.schools.values():
        lines.append(f"### School {school.name} ({school.id})\n")
        for c in school.cards:
            lines.extend(_card_block(cards.cards[c]))
    lines.append("### Legends\n")
    for c in cards.legends:
        lines.extend(_card_block(cards.cards[c]))
    lines.append("### Flares\n")
    for c in cards.flares:
        card = cards.cards[c]
        lines.append(f"- `{card.id}` {card.name}")
        lines.extend(f"  - {t}" for t in card.text.splitlines())
    return "\n".join(lines) + "\n"


def task_list(tasks: TaskSet) -> str:
    """Every High Form task of the task file."""
    lines = ["## High Form tasks of this task file", ""]
    for t in tasks.tasks:
        lines.append(f"- `{t.id}` {t.name}: {t.text}")
    return "\n".join(lines) + "\n"


def _card_block(card: Card) -> list[str]:
    return [
        f"- `{card.id}` {card.name} ({RANK_NAMES[card.rank]}): {card.text}",
        "",
        "  ```",
        *(f"  {r}" for r in card.pattern),
        "  ```",
        "",
    ]


__all__ = ["NAME_SQ", "board_lines", "card_list", "describe_action", "render", "seen_by_others", "task_list"]
