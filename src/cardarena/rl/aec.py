"""The PettingZoo AEC environment of every game (and every Tash-Kalar mode): ``aec_env(game_id, **options)``."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..agents import Agent, SeatView
from ..engine import Action, Game, InvalidActionError, load
from .core import Decisions, agent_name


class CardArenaAEC(AECEnv[str, dict[str, np.ndarray], int]):
    """Every seat an agent (``player_0``...), acting in turn; a decision may take several steps of one agent.

    Observation: ``{"observation": Box(float32), "action_mask": Box(int8, 0/1)}`` (the mask is all zeros for an
    agent that is not to act). Action: ``Discrete(width)``, one sub-decision (docs/rl.md). Rewards are the game's
    returns, given when the game ends; ``reset(seed=S)`` replays the same game for the same actions. ``infos``
    hold the text picture and the legal action texts of the agent to act (``text_info=False`` leaves them out,
    for speed).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "is_parallelizable": False}  # noqa: RUF012 - the libraries' attribute

    def __init__(
        self, game: Game | str, *, render_mode: str | None = None, text_info: bool = True, **options: Any
    ) -> None:
        super().__init__()
        self.game = load(game, **options) if isinstance(game, str) else game
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"cardarena_{self.game.id}_v0"}
        self.driver = Decisions(self.game, text_info=text_info)
        self.possible_agents = [agent_name(s) for s in range(self.game.num_players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        d = self.driver
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(d.low, d.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (d.width,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(d.width) for a in self.possible_agents}
        self._seed_rng = np.random.default_rng()
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: seeded by ``seed``, or by a number drawn from the generator the last seed started."""
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seed_rng.integers(2**62))
        self.driver.reset(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_move()

    def _after_move(self) -> None:
        """Select the agent to act, or hand out the returns once the game is over."""
        state = self.driver.state
        if state.is_terminal():
            for a, r in zip(self.possible_agents, state.returns()):
                if a in self.agents:
                    self.rewards[a] = float(r)
                    self.terminations[a] = True
            self.infos = {a: self.driver.info(self._seat[a]) for a in self.agents}
            return
        seat = state.current_player
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]
        if self.driver.text_info:  # without texts every info stays the empty dict it was made
            self.infos = {a: {} for a in self.agents}
            self.infos[self.agent_selection] = self.driver.info(seat)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.driver.observe(self._seat[agent])

    def action_mask(self, agent: str) -> np.ndarray:
        return self.driver.observe(self._seat[agent])["action_mask"]

    def legal_tokens(self, agent: str) -> list[int]:
        """The actions ``agent`` may take now as a list: the mask's non-zero positions, without scanning it."""
        return self.driver.tokens(self._seat[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for agents whose game is over")
        self._cumulative_rewards[agent] = 0.0
        self.driver.choose(int(action))
        if self.driver.state.is_terminal():
            self._clear_rewards()
            self._after_move()
            self._accumulate_rewards()
        else:  # rewards come at the end only: nothing to clear or add up before it
            self._after_move()
        if self.render_mode == "human":
            self.render()

    def tokens_of(self, action: Action) -> tuple[int, ...]:
        """The sub-decisions (steps) that take ``action``, a legal action of the agent to act."""
        return self.driver.factoring.factors(action)

    def play_agent(self, agent: Agent) -> Action:
        """Let a cardarena agent take the current decision (a league: some seats learn, agents play the others).

        The agent acts on the acting seat's ``SeatView`` (never the true state); its action is then stepped token
        by token, so rewards, terminations and infos follow as for any other step. Returns the action.
        """
        seat = self._seat[self.agent_selection]
        if self.driver.prefix:
            raise InvalidActionError("agent", "a decision is half taken: finish its sub-decisions first")
        action = agent.act(SeatView(self.driver.state, seat))
        for token in self.tokens_of(action):
            self.step(token)
        return action

    def render(self) -> str | None:
        """``ansi``: the public text picture (what a spectator sees); ``human``: printed; no render mode: nothing."""
        if self.render_mode is None:
            return None
        text = self.game.render(self.driver.state, None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game lives in this process."""


def aec_env(game_id: str, *, render_mode: str | None = None, text_info: bool = True, **options: Any) -> CardArenaAEC:
    """The PettingZoo AEC environment of ``game_id`` with game ``options`` (``mode="melee", players=3``...)."""
    return CardArenaAEC(game_id, render_mode=render_mode, text_info=text_info, **options)
