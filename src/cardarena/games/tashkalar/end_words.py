"""What ended a game of Tash-Kalar and the final points, in a player's words (``Game.end_reason``). Seats are named
"seat N": the server puts the players' names in, as it does for the log."""

from __future__ import annotations

import re

from .rules import modes
from .state import TashKalarState

_TRIGGER = re.compile(r"^end triggered on turn (\d+) by seat (\d+): (.*)$")


def end_reason(st: TashKalarState) -> str:
    """ "seat 0 resigned", "the safety cap of 300 turns was reached", or what triggered the final round and the
    points each side ended with ("on turn 21, 9 points reached; after the final round, points: seat 0 10, seat 1
    7")."""
    if st.resigned >= 0 or st.capped:
        return st.trigger.removesuffix(" (a draw)")
    match = _TRIGGER.match(st.trigger)
    if match is None:  # an edited or hand-built terminal state has no trigger text
        return f"the game is over; {_points(st)}"
    turn, _, reasons = match.groups()
    parts = [r if r.startswith("seat ") else f"{r} reached" for r in reasons.split(" and ")]
    return f"on turn {turn}, {' and '.join(parts)}; after the final round, {_points(st)}"


def _points(st: TashKalarState) -> str:
    """Each side's final points (melee: a player's lowest colour), team-mates together."""
    g = st.game
    sides: dict[int, list[int]] = {}
    for seat in range(g.num_players):
        sides.setdefault(g.colour_of[seat], []).append(seat)
    shown = []
    for colour, seats in sides.items():
        score = modes.melee_score(st, seats[0]) if g.mode == "melee" else modes.points(st, colour)
        shown.append(f"{' and '.join(f'seat {s}' for s in seats)} {score}")
    text = "points: " + ", ".join(shown)
    returns = st.returns()
    if max(returns) != min(returns) and len({modes.ranking_key(st, s) for s in range(g.num_players)}) > 1:
        best = max(modes.ranking_key(st, s) for s in range(g.num_players))
        tied = [s for s in range(g.num_players) if modes.ranking_key(st, s)[:-2] == best[:-2]]
        if len({g.colour_of[s] for s in tied}) > 1:
            text += " (tied on points: more upgraded pieces, then more pieces on the board decided)"
    return text
