"""Drawing and milling, and a deck that runs out (デッキが無くなった場合の処理): the graveyard becomes the deck and
the opponent decides at once whether to draw 1 as a penalty; the work still to do waits as frames."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardarena.engine import zones

from ..constants import PENALTY, STEP_DRAW, STEP_MILL, Frame, Step
from .log import event

if TYPE_CHECKING:
    from ..state import DiceBattleState


def draw(st: DiceBattleState, seat: int, n: int) -> None:
    """Draw ``n`` cards; an emptied deck is refilled from the graveyard at once (see :func:`deck_out`)."""
    take_top(st, STEP_DRAW, seat, n)


def take_top(st: DiceBattleState, kind: Step, seat: int, n: int) -> None:
    """Move the top ``n`` cards of ``seat``'s deck to its hand (``DRAW``) or graveyard (``MILL``).

    A deck that runs out is refilled from the graveyard at once; if that puts the opponent's penalty
    decision up, the cards still to move wait as a frame and the caller must stop (``phase == PENALTY``).
    """
    side = st.sides[seat]
    mill = kind == STEP_MILL
    to = side.grave if mill else side.hand
    drawn = 0  # cards drawn not yet in the log (a draw is logged as one event per run of cards)
    for k in range(n):
        if not side.deck:
            if drawn:
                event(st, "draw", seat, drawn)
                drawn = 0
            deck_out(st, seat)  # emptied earlier while the graveyard was empty
            if st.phase == PENALTY:
                defer(st, (kind, seat, n - k))
                return
            if not side.deck:
                return  # deck and graveyard both empty: nothing to take
        c = side.deck.pop()
        to.append(c)
        if mill:
            event(st, "mill", seat, c)
        else:
            drawn += 1
        if not side.deck:
            if drawn:
                event(st, "draw", seat, drawn)
                drawn = 0
            deck_out(st, seat)
            if st.phase == PENALTY:
                if k + 1 < n:
                    defer(st, (kind, seat, n - k - 1))
                return
    if drawn:
        event(st, "draw", seat, drawn)


def deck_out(st: DiceBattleState, seat: int) -> None:
    """デッキが無くなった場合: shuffle the graveyard face down as the new deck; then the opponent decides
    whether to draw 1 as a penalty (「引くことができます」), at once: a ``penalty`` decision."""
    side = st.sides[seat]
    if side.deck or not side.grave:
        return
    zones.shuffle_into(side.grave, side.deck, st.rng)
    event(st, "reshuffle", seat, len(side.deck))
    opp = st.sides[1 - seat]
    if opp.deck or opp.grave:  # an opponent with no card anywhere to draw has nothing to decide
        st.phase = PENALTY
        st.actor = 1 - seat


def defer(st: DiceBattleState, frame: Frame) -> None:
    """Keep work interrupted by a penalty decision (called innermost first, as the rules unwind)."""
    st.after = (*st.after, frame)
