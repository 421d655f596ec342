"""What is where, and the small moves every rule uses: mana, a soldier's numbers, cards between zones.

The rule modules are functions on a :class:`~cardarena.games.torabato.state.ToraBatoState` (``st``); the card
table and the options they read live on the game (``st.game.table``, ``st.game.lasting_boosts``...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ....engine import zones
from ..cards import OWNER_OF
from ..constants import OVER, Phase

if TYPE_CHECKING:
    from ..state import ToraBatoState

#: Why an action is refused, as the checks return it: plain words, or ``(format, *values)`` put into words only
#: when a reason is asked for (listing the legal actions tries many candidates: it builds no sentence for each).
Reason = str | tuple[Any, ...]


def in_words(reason: Reason) -> str:
    return reason if isinstance(reason, str) else reason[0].format(*reason[1:])


def available_mana(st: ToraBatoState, seat: int) -> int:
    """Mana gained this turn plus untapped mana cards."""
    return st.pool[seat] + len(st.mana[seat]) - st.tapped_mana[seat]


def attack_of(st: ToraBatoState, card: int) -> int:
    return st.game.table.attack[card] + st.atk_boost[card]


def health_of(st: ToraBatoState, card: int) -> int:
    return st.game.table.health[card] + st.hp_boost[card]


def on_field(st: ToraBatoState, card: int) -> bool:
    return card in st.field[OWNER_OF[card]]


def is_sick(st: ToraBatoState, card: int) -> bool:
    """Summoning sickness: a soldier that entered this turn cannot attack or use abilities."""
    return st.entered[card] == st.turn_no


def soldiers(st: ToraBatoState) -> list[int]:
    """Every soldier on the field, seat 0's first."""
    return st.field[0] + st.field[1]


def draw(st: ToraBatoState, seat: int, n: int) -> None:
    """Draw up to ``n`` cards; drawing from an empty deck draws nothing."""
    zones.draw(st.deck[seat], st.hand[seat], n)


def mill(st: ToraBatoState, seat: int, n: int) -> None:
    """Damage to a player: that many top cards of their deck go to their discard pile."""
    zones.mill(st.deck[seat], st.discard[seat], n)


def pay(st: ToraBatoState, seat: int, cost: int) -> None:
    """Pay from the mana gained this turn first, then tap untapped mana cards."""
    from_pool = min(st.pool[seat], cost)
    st.pool[seat] -= from_pool
    st.tapped_mana[seat] += cost - from_pool


def open_priority(st: ToraBatoState, phase: Phase) -> None:
    """A priority step begins: the active player has priority and nobody has passed."""
    st.phase = phase
    st.priority = st.active
    st.passes = 0


def leave_field(st: ToraBatoState, card: int) -> None:
    """A soldier goes from the field to its owner's discard pile, losing damage, boosts and tapping."""
    owner = OWNER_OF[card]
    st.field[owner].remove(card)
    st.discard[owner].append(card)
    st.tapped[card] = False
    st.damage[card] = st.atk_boost[card] = st.hp_boost[card] = st.flags[card] = 0


def check_deaths(st: ToraBatoState) -> None:
    """Soldiers whose health has reached 0 are put into the discard pile."""
    for seat in (0, 1):
        for card in [c for c in st.field[seat] if st.damage[c] >= health_of(st, c)]:
            leave_field(st, card)


def make_known(st: ToraBatoState, seat: int, card: int) -> None:
    """``card`` is now in ``seat``'s hand and every player knows it (no placement has it among the mana)."""
    st.known[seat].append(card)


def finish(st: ToraBatoState, result: list[float], reason: str) -> None:
    st.result = result
    st.end_reason = reason
    st.phase = OVER
    st.pending = None
