"""The Gymnasium single-agent environment: one seat learns, the other seats are played by cardarena agents.

``gym_env("torabato", seat=0, opponents="heuristic")`` or ``gymnasium.make("cardarena/torabato-v0", ...)`` (after
``import cardarena.rl``). The opponents are agent specs (``random``, ``heuristic``, ``ismcts:iterations=200``...),
one for every other seat or one spec for all of them; each acts on a ``SeatView`` (its own observation, its legal
actions and resampled worlds), never on the true state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..agents import Agent, SeatView, make_agent
from ..engine import Game, IllegalActionError, OptionError, derive_seed, load
from .core import Decisions


class CardArenaEnv(gymnasium.Env[Any, Any]):
    """One seat of a game against agents.

    Observation: ``{"observation": Box(float32), "action_mask": Box(int8, 0/1)}``; action: ``Discrete(width)``,
    one sub-decision (docs/rl.md; for ToraBato, Dice Battle and Laplaplace one whole action). The reward is the
    seat's return when the game ends (0 before); ``terminated`` then. ``reset(seed=S)`` gives the same game, the
    opponents' choices included, for the same actions. ``action_masks()`` is the mask, for sb3-contrib's
    MaskablePPO. ``info`` holds the text picture and the legal action texts (``text_info=False`` leaves them out).

    A masked-out action: with ``illegal="lose"`` (the default, so that every element of the action space is a
    valid input, as Gymnasium expects) the episode ends with reward -1 and ``info["illegal"]`` saying why, the
    game unchanged; with ``illegal="raise"`` it raises ``IllegalActionError``.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 - the libraries' attribute

    def __init__(
        self,
        game: Game | str,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "heuristic",
        render_mode: str | None = None,
        text_info: bool = True,
        illegal: str = "lose",
        **options: Any,
    ) -> None:
        if illegal not in ("lose", "raise"):
            raise OptionError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        self.illegal = illegal
        self.game = load(game, **options) if isinstance(game, str) else game
        n = self.game.num_players
        if not 0 <= seat < n:
            raise OptionError(f"seat must be in 0..{n - 1} for {self.game.id} with these options")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self.seat = seat
        self.specs: dict[int, str] = {}
        self.set_opponents(opponents)
        self.driver = Decisions(self.game, text_info=text_info)
        d = self.driver
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(d.low, d.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (d.width,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(d.width)
        self.agents: dict[int, Agent] = {}
        self.game_seed = 0
        self._lost_by: str | None = None

    def set_opponents(self, opponents: str | Sequence[str]) -> None:
        """Change the opponents from the next ``reset`` on (a league: draw them per episode). One spec for every
        other seat, or one per other seat in seat order; an unknown agent or parameter raises ``OptionError``."""
        others = [s for s in range(self.game.num_players) if s != self.seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise OptionError(f"give one opponent spec, or one for each of the {len(others)} other seats")
        for spec in specs:
            make_agent(spec, 0)  # an unknown agent or parameter raises OptionError now, not at reset
        self.specs = dict(zip(others, specs))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game. With ``seed``: that game seed, and opponents seeded from it; without: a seed drawn from
        the environment's generator (seeded by the last ``seed`` given), so a seeded sequence of episodes repeats."""
        super().reset(seed=seed)
        self._lost_by = None
        self.game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**62))
        self.driver.reset(self.game_seed)
        self.agents = {s: make_agent(spec, derive_seed(self.game_seed, s)) for s, spec in self.specs.items()}
        self._play_others()
        return self._observation(), self.driver.info(self.seat)

    def _play_others(self) -> None:
        """Let the agents act until it is the learner's turn or the game is over."""
        state = self.driver.state
        while not state.is_terminal() and state.current_player != self.seat:
            s = state.current_player
            assert s is not None
            self.driver.apply(self.agents[s].act(SeatView(state, s)))

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.driver.state.is_terminal() or self._lost_by is not None:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        try:
            taken = self.driver.choose(int(action))
        except IllegalActionError as e:
            if self.illegal == "raise":
                raise
            self._lost_by = str(e)
            info = {**self.driver.info(self.seat), "illegal": self._lost_by}
            return self._observation(), -1.0, True, False, info
        if taken is not None:
            self._play_others()
        state = self.driver.state
        done = state.is_terminal()
        reward = float(state.returns()[self.seat]) if done else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, done, False, self.driver.info(self.seat)

    def _observation(self) -> dict[str, np.ndarray]:
        """Fresh arrays on every call (a caller may keep or change what it was given)."""
        got = self.driver.observe(self.seat)
        return {"observation": got["observation"].copy(), "action_mask": got["action_mask"].copy()}

    def legal_tokens(self) -> list[int]:
        """The actions allowed now as a list: the mask's non-zero positions, without scanning it."""
        return self.driver.tokens(self.seat)

    def action_masks(self) -> np.ndarray:
        """The current mask as booleans (the method MaskablePPO calls)."""
        return self.driver.observe(self.seat)["action_mask"].astype(bool)

    def render(self) -> str | None:
        """``ansi``: the learner's text picture; ``human``: printed; no render mode: nothing."""
        if self.render_mode is None:
            return None
        text = self.game.render(self.driver.state, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def gym_env(
    game_id: str,
    *,
    seat: int = 0,
    opponents: str | Sequence[str] = "heuristic",
    render_mode: str | None = None,
    text_info: bool = True,
    illegal: str = "lose",
    **options: Any,
) -> CardArenaEnv:
    """The Gymnasium environment of ``seat`` in ``game_id`` against ``opponents`` (agent specs)."""
    return CardArenaEnv(
        game_id,
        seat=seat,
        opponents=opponents,
        render_mode=render_mode,
        text_info=text_info,
        illegal=illegal,
        **options,
    )
