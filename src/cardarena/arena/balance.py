"""Balance statistics from random play, for any game (how Laplaplace's card forces were tuned).

``action_win_rates`` plays seeded random games and credits each action a seat took with that seat's score (win 1,
draw 1/2, loss 0): an action far above 50 % is too strong (for Laplaplace with full builds: a card far above 50 %
is too strong for its force). ``line_matrix`` plays fixed lines of play (each seat's action texts) against each
other in both seat orders. Both reach the game only through its public API and the state protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine import Action, Game, Rng, State, derive_seed

#: chooses one of ``legal`` in ``state`` (default: uniformly among the playout actions)
Policy = Callable[[State, Sequence[Action], Rng], Action]


@dataclass(frozen=True)
class ActionRate:
    action: str  # the action's text
    games: int  # seats that took it (each seat counts once per game)
    score: float


def _score(state: State, seat: int) -> float:
    r = state.returns()
    return 0.5 if r[0] == r[1] else (1.0 if r[seat] > r[1 - seat] else 0.0)


def random_policy(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    return legal[rng.randbelow(len(legal))]


def action_win_rates(
    game: Game, *, games: int = 4000, seed: int = 0, policy: Policy = random_policy
) -> list[ActionRate]:
    """Per-action score of two-seat games played by ``policy`` (seeded), best first."""
    rng = Rng(derive_seed(seed, 0xBA1))
    points: dict[str, float] = {}
    seen: dict[str, int] = {}
    for k in range(games):
        state = game.new_initial_state(derive_seed(seed, k))
        taken: list[set[str]] = [set(), set()]
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            action = policy(state, state.playout_actions(), rng)
            taken[seat].add(str(action))
            state.apply(action)
        for s in (0, 1):
            score = _score(state, s)
            for text in taken[s]:
                points[text] = points.get(text, 0.0) + score
                seen[text] = seen.get(text, 0) + 1
    rates = [ActionRate(a, seen[a], points[a] / seen[a]) for a in sorted(seen)]
    return sorted(rates, key=lambda r: -r.score)


def play_lines(game: Game, lines: Sequence[Sequence[str]], seed: int = 0) -> State:
    """The state after each seat plays its line of action texts, in the order the game asks."""
    state = game.new_initial_state(seed)
    queues = [list(lines[0]), list(lines[1])]
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply_text(queues[seat].pop(0))
    return state


def line_matrix(game: Game, lines: dict[str, Sequence[str]], *, seed: int = 0) -> dict[str, float]:
    """Each named line of play against every other one, in both seat orders: its share of points (1, 1/2, 0)."""
    out: dict[str, float] = {}
    for a, line_a in lines.items():
        pts = 0.0
        for b, line_b in lines.items():
            if a == b:
                continue
            pts += _score(play_lines(game, (line_a, line_b), seed), 0)
            pts += _score(play_lines(game, (line_b, line_a), seed), 1)
        out[a] = pts / (2 * (len(lines) - 1))
    return out
