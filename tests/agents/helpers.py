"""Shared by the agent tests: a view that refuses the cheating door, game configurations, whole games."""

from __future__ import annotations

from typing import Any

import cardarena
from cardarena.agents import Agent, SeatView, make_agent
from cardarena.engine import Game, Rng, State, derive_seed


class FairView(SeatView):
    """A ``SeatView`` whose cheating door raises: every fair agent is tested through it."""

    __slots__ = ()

    def true_state_for_analysis(self) -> State:
        raise AssertionError("a fair agent asked for the true state")


def attributes(obj: object) -> dict[str, Any]:
    """Every attribute an object holds, in both builds: a compiled (native) class keeps its attributes in slots
    named by ``__mypyc_attrs__`` rather than in ``__dict__``, which it has only for interpreted extras."""
    names = [n for n in getattr(type(obj), "__mypyc_attrs__", ()) if n != "__dict__"]
    held = {n: getattr(obj, n) for n in names if hasattr(obj, n)}
    held.update(getattr(obj, "__dict__", {}))
    return held


def view_for(agent: Agent, state: State, seat: int) -> SeatView:
    """The fair view for a fair agent; only a declared cheat gets a view that opens."""
    return SeatView(state, seat) if agent.cheats else FairView(state, seat)


# Every game and every Tash-Kalar mode, with caps on the length of a game (``max_turns``: the game ends in a
# draw there) so the suite stays fast: the first for whole games played by agents, the second for the games
# from which positions are taken (the searches' playouts stop there too). Random games of ToraBato last about
# 30 turns, Lyabi 45, Tash-Kalar 60-90; Dice Battle and Laplaplace are short.
CONFIGS: dict[str, tuple[str, dict[str, Any], int | None, int | None]] = {
    "torabato": ("torabato", {}, 10, None),
    "lyabi": ("lyabi", {}, 12, None),
    "dicebattle": ("dicebattle", {}, None, None),
    "laplaplace": ("laplaplace", {}, None, None),
    "tashkalar-duel": ("tashkalar", {}, 8, 24),
    "tashkalar-highform": ("tashkalar", {"mode": "highform"}, 8, 24),
    "tashkalar-melee3": ("tashkalar", {"mode": "melee", "players": 3}, 8, 24),
    "tashkalar-melee4": ("tashkalar", {"mode": "melee", "players": 4}, 8, 24),
}


def load(config: str, *, for_positions: bool = False) -> Game:
    game_id, options, play_cap, position_cap = CONFIGS[config]
    cap = position_cap if for_positions else play_cap
    return cardarena.load(game_id, **options, **({"max_turns": cap} if cap else {}))


def play_game(game: Game, specs: list[str], seed: int) -> State:
    """A whole game, seat ``s`` played by ``specs[s]`` seeded from ``seed`` and ``s``."""
    state = game.new_initial_state(seed)
    agents = [make_agent(specs[s], derive_seed(seed, s)) for s in range(game.num_players)]
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat].act(view_for(agents[seat], state, seat)))
    return state


def positions(game: Game, seed: int, count: int) -> list[State]:
    """``count`` positions with a real choice, spread over a random game (another game if one runs short)."""
    rng = Rng(seed)
    out: list[State] = []
    k = 0
    while len(out) < count and k < 20:
        state = game.new_initial_state(derive_seed(seed, k))
        k += 1
        choices: list[State] = []
        while not state.is_terminal():
            legal = state.playout_actions()
            if len(legal) > 1:
                choices.append(state.clone())
            state.apply(legal[rng.randbelow(len(legal))])
        step = max(1, len(choices) // count)
        out.extend(choices[step // 2 :: step][: count - len(out)])
    return out
