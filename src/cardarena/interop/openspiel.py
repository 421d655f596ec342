"""Every cardarena game as an OpenSpiel Python game, so OpenSpiel's algorithms and tests run on it unchanged.

Importing this module registers one OpenSpiel game per cardarena game and per Tash-Kalar mode (see
:func:`variants`)::

    import pyspiel
    import cardarena.interop.openspiel  # registers cardarena_torabato, cardarena_tashkalar_highform, ...

    game = pyspiel.load_game("cardarena_tashkalar_melee3", {"seed": 7})
    state = game.new_initial_state()
    state.legal_actions()              # sorted action ids of the kernel's fixed encoding (game.action_index)
    state.information_state_string(1)  # seat 1's observation, never the true state

How the bridge maps the state protocol (docs/interop.md has the reasons at length):

- **Chance is sampled** (``GameType.ChanceMode.SAMPLED_STOCHASTIC``): cardarena's games draw shuffles, dice and
  circles inside ``apply`` from the state's own seeded ``Rng``, so there are no chance nodes. Each
  ``new_initial_state()`` takes the next seed of a stream seeded by the game parameter ``seed``, so a run of
  games is reproducible; ``clone()`` copies the ``Rng`` (a clone replays the same future), and
  ``resample_from_infostate`` reseeds it, so a search on resampled worlds cannot peek at the true future.
- **Actions** are the kernel's fixed integer encoding (``game.action_index``, ``num_distinct_actions``); legal
  actions are returned sorted, as OpenSpiel requires. A game's resignation (``Game.resign_action``) is left out
  unless the parameter ``allow_resign`` is true: random rollouts would otherwise resign at random.
- **Information state and observation strings** come from ``observation(seat)`` only: the information state is
  the seat's observation as canonical JSON, the observation string the seat's text picture (``render``), and a
  public observer (``private_info=NONE``) gets ``observation(None)``. No tensors are provided yet.
- **Returns** are the game's returns; two-player games are zero-sum, games of more seats are declared
  general-sum (a free-for-all pays -1 to every loser).
- **Serialization** is OpenSpiel's own for Python games (a pickle of the state); a cardarena state pickles its
  game by reference, so it is cheap.

The bridge is a face: it loads games with ``cardarena.engine.load`` and uses the state protocol and the per-game
hooks, never a game package.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..engine import Game, IllegalActionError, OptionError, State, games, load
from ..engine.game import read_action_index
from ..engine.registry import game_class

try:
    import pyspiel
    from open_spiel.python.algorithms import mcts
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "cardarena.interop.openspiel needs OpenSpiel: pip install -e '.[openspiel]' (the open_spiel wheel)"
    ) from e

__all__ = [
    "PREFIX",
    "CardArenaEvaluator",
    "CardArenaGame",
    "CardArenaState",
    "Variant",
    "register",
    "resampler",
    "variants",
]

#: Every short name the bridge registers starts with this.
PREFIX = "cardarena_"
#: A bound on the decisions one turn may take, for ``max_game_length`` (turn cap x this x seats). The rules give no
#: exact figure; the most seen in 200 random games of every game and mode is 42 (a ToraBato turn of plays and
#: priority passes), and the bound is generous because OpenSpiel treats ``max_game_length`` as a hard limit
#: (``random_sim_test`` checks it).
DECISIONS_PER_TURN_BOUND = 500
#: Bridge parameters that every registered game takes besides the game's own options.
BRIDGE_PARAMETERS: dict[str, Any] = {
    "seed": 0,  # the seed of the stream from which each new_initial_state() draws its own seed
    "allow_resign": False,  # offer the game's resignation action (random rollouts would resign at random)
}


@dataclass(frozen=True)
class Variant:
    """One registered OpenSpiel game: a cardarena game with some options fixed as its parameter defaults."""

    short_name: str
    long_name: str
    game_id: str
    options: Mapping[str, Any] = field(default_factory=dict)
    #: The seat counts this variant may have (OpenSpiel's min/max_num_players).
    players: tuple[int, ...] = ()

    def parameter_specification(self) -> dict[str, Any]:
        """OpenSpiel parameters with their defaults: the game's options (this variant's values as defaults; an
        option that may be left unset, such as a data-file path, as ``""``) and the bridge's own."""
        spec: dict[str, Any] = {}
        for option in game_class(self.game_id).option_spec:
            default = self.options.get(option.name, option.default)
            spec[option.name] = "" if default is None else default
        spec.update(BRIDGE_PARAMETERS)
        return spec


# The Tash-Kalar modes beyond the default duel (deathmatch for two): each is its own OpenSpiel game so that
# `load_game("cardarena_tashkalar_melee3")` needs no parameters. Option values are checked when loaded.
_TASHKALAR_MODES: tuple[tuple[str, str, dict[str, Any], int], ...] = (
    ("highform", "High Form (tasks)", {"mode": "highform"}, 2),
    ("melee3", "melee, 3 players", {"mode": "melee", "players": 3}, 3),
    ("melee4", "melee, 4 players", {"mode": "melee", "players": 4}, 4),
    ("teams", "deathmatch, two teams of two", {"mode": "deathmatch", "players": 4, "teams": True}, 4),
    ("highform_teams", "High Form, two teams of two", {"mode": "highform", "players": 4, "teams": True}, 4),
)


def variants() -> list[Variant]:
    """The OpenSpiel games this bridge registers: one per cardarena game with its default options (all options
    are parameters), then one per Tash-Kalar mode."""
    out: list[Variant] = []
    for game_id in games():
        cls = game_class(game_id)
        out.append(Variant(PREFIX + game_id, f"cardarena {cls.name}", game_id, {}, tuple(cls.player_counts)))
    if "tashkalar" in games():
        name = game_class("tashkalar").name
        for suffix, label, options, seats in _TASHKALAR_MODES:
            out.append(
                Variant(f"{PREFIX}tashkalar_{suffix}", f"cardarena {name}: {label}", "tashkalar", options, (seats,))
            )
    return out


def _game_type(variant: Variant, num_players: int | None = None) -> pyspiel.GameType:
    players = variant.players
    seats = num_players if num_players is not None else max(players)
    return pyspiel.GameType(
        short_name=variant.short_name,
        long_name=variant.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if seats == 2 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players),
        min_num_players=min(players),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=variant.parameter_specification(),
    )


class _SeedStream:
    """The seeds of the successive games of one loaded game: a stream seeded once, so a run is reproducible."""

    __slots__ = ("_rng",)

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def next(self) -> int:
        return self._rng.randrange(2**63)


class _Held:
    """The cardarena state inside an OpenSpiel state, created on first use.

    OpenSpiel clones a Python state by building a new initial state and deep-copying the old one's attributes
    into it, and deserializes the same way. Creating the cardarena state lazily keeps those throwaway initial
    states free (no seed is drawn, nothing is dealt); deep-copying one is ``State.clone()`` (cheap: no deepcopy of
    the position), and pickling one pickles the position alone.
    """

    __slots__ = ("_game", "_seeds", "_state")

    def __init__(self, game: Game | None, seeds: _SeedStream | None, state: State | None = None) -> None:
        self._game = game
        self._seeds = seeds
        self._state = state

    @property
    def state(self) -> State:
        if self._state is None:
            assert self._game is not None and self._seeds is not None
            self._state = self._game.new_initial_state(self._seeds.next())
        return self._state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(None, None, self.state.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Held, (None, None, self.state))


class CardArenaGame(pyspiel.Game):
    """An OpenSpiel game made from a cardarena game: parameters are the game's options plus :data:`BRIDGE_PARAMETERS`.

    A parameter may be given as its value or as text (``"4"``, ``"true"``); an option left ``""`` is unset. Bad
    options raise :class:`cardarena.engine.OptionError` naming the option.
    """

    #: The variant this class plays (set on the registered subclasses, see :func:`register`).
    VARIANT: Variant

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        variant = self.VARIANT
        params = dict(params or {})
        spec = variant.parameter_specification()
        unknown = sorted(set(params) - set(spec))
        if unknown:
            raise OptionError(f"{variant.short_name}: unknown parameter {unknown[0]!r}; parameters: {', '.join(spec)}")
        values = spec | params
        seed = values.pop("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError(f"{variant.short_name}: parameter 'seed' takes a whole number, not {seed!r}")
        allow_resign = values.pop("allow_resign")
        if not isinstance(allow_resign, bool):
            raise OptionError(
                f"{variant.short_name}: parameter 'allow_resign' takes true or false, not {allow_resign!r}"
            )
        options = {name: value for name, value in values.items() if value != ""}
        self.variant = variant
        self.cardarena_game: Game = load(variant.game_id, **options)
        self.allow_resign = allow_resign
        self._seeds = _SeedStream(seed)
        game = self.cardarena_game
        if game.num_players not in variant.players:
            raise OptionError(f"{variant.short_name} is for {variant.players} players, not {game.num_players}")
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_distinct_actions,
            max_chance_outcomes=0,
            num_players=game.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if game.num_players == 2 else None,
            max_game_length=max_game_length(game),
        )
        super().__init__(_game_type(variant, game.num_players), info, {**spec, **params})

    def new_initial_state(self) -> CardArenaState:
        """A new game, dealt from the next seed of this game's seed stream (when first used)."""
        return CardArenaState(self)

    def new_initial_state_from_seed(self, seed: int) -> CardArenaState:
        """The game ``cardarena.load(...).new_initial_state(seed)`` would start: for paired-seed comparisons."""
        state = CardArenaState(self)
        state._held = _Held(None, None, self.cardarena_game.new_initial_state(seed))
        return state

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> _Observer:
        """Strings from ``observation(seat)`` (see :class:`_Observer`); observer parameters are not supported."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {dict(params)}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return _Observer("information_state")
        if iig_obs_type is not None and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE:
            return _Observer("public")
        return _Observer("observation")


def max_game_length(game: Game) -> int:
    """An upper bound on the decisions of one game: the turn cap times :data:`DECISIONS_PER_TURN_BOUND` per seat."""
    return (int(game.options["max_turns"]) + 1) * game.num_players * DECISIONS_PER_TURN_BOUND


class CardArenaState(pyspiel.State):
    """An OpenSpiel state around a cardarena :class:`State` (the true state: hidden cards and future included).

    Everything a seat gets through OpenSpiel's strings comes from ``observation(seat)``; :attr:`inner` is there
    for analysis and for agents that say they cheat, like OpenSpiel's perfect-information ``MCTSBot``.
    """

    def __init__(self, game: CardArenaGame) -> None:
        super().__init__(game)
        self._held = _Held(game.cardarena_game, game._seeds)

    @property
    def inner(self) -> State:
        """The cardarena state (the TRUE state). Do not mutate it: apply actions through OpenSpiel."""
        return self._held.state

    def _cardarena_game(self) -> Game:
        return self._held.state.game

    def _choices(self) -> list[Any]:
        inner = self._held.state
        game: CardArenaGame = self.get_game()
        return inner.legal_actions() if game.allow_resign else inner.playout_actions()

    # -- the OpenSpiel state API ------------------------------------------------------------------------------
    def current_player(self) -> int:
        seat = self._held.state.current_player
        return pyspiel.PlayerId.TERMINAL if seat is None else int(seat)

    def _legal_actions(self, player: int) -> list[int]:
        inner = self._held.state
        if inner.current_player != player:
            return []
        index = inner.game.action_index
        return sorted(index(a) for a in self._choices())

    def _apply_action(self, action: int) -> None:
        """Apply the action with id ``action``; an id out of range or an illegal action raises (a typed
        ``RulesError``) and leaves the state unchanged."""
        inner = self._held.state
        chosen = read_action_index(inner.game, int(action))
        game: CardArenaGame = self.get_game()
        if not game.allow_resign and chosen == inner.game.resign_action:
            raise IllegalActionError(inner, chosen, "resignation is off here (load the game with allow_resign=true)")
        inner.apply(chosen)

    def _action_to_string(self, player: int, action: int) -> str:
        return str(read_action_index(self._cardarena_game(), int(action)))

    def is_terminal(self) -> bool:
        return self._held.state.is_terminal()

    def returns(self) -> list[float]:
        return [float(r) for r in self._held.state.returns()]

    def rewards(self) -> list[float]:
        """Terminal rewards: the returns at the end, zeros before."""
        inner = self._held.state
        return self.returns() if inner.is_terminal() else [0.0] * inner.game.num_players

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> CardArenaState:
        """A world ``player_id`` cannot tell from this one (``State.resample``): hidden cards redrawn and future
        chance reseeded from two draws of ``probability_sampler`` (a uniform sampler on [0, 1), as OpenSpiel's
        ISMCTS passes). Its information state for ``player_id`` is this state's."""
        seed = int(probability_sampler() * 2**31) << 31 | int(probability_sampler() * 2**31)
        return self.resample_seeded(player_id, seed)

    def resample_seeded(self, player_id: int, seed: int) -> CardArenaState:
        """:meth:`resample_from_infostate` with the world's seed given: reproducible searches (:func:`resampler`)."""
        world = CardArenaState(self.get_game())
        world._held = _Held(None, None, self._held.state.resample(int(player_id), seed))
        return world

    def __str__(self) -> str:
        """The whole state, hidden parts included (``snapshot()`` as JSON): for debugging and OpenSpiel's tests."""
        return _canonical_json(self._held.state.snapshot())


def information_state_string(state: State, seat: int) -> str:
    """What ``seat`` knows of ``state``: its observation as canonical JSON (sorted keys), prefixed by the seat."""
    return f"seat {seat}: " + _canonical_json(state.observation(seat))


def _canonical_json(value: Any) -> str:
    """``value`` as JSON with sorted keys and no spaces: equal values give equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class _Observer:
    """OpenSpiel's Python observer interface (``set_from``, ``string_from``, ``tensor``, ``dict``), strings only.

    ``kind`` is ``information_state`` (the seat's observation as JSON: cardarena observations carry what a seat
    knows), ``observation`` (the seat's text picture, ``render(state, seat)``) or ``public`` (``observation(None)``,
    what a spectator sees).
    """

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.tensor = None
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: CardArenaState, player: int) -> None:
        """No tensor yet: nothing to set."""

    def string_from(self, state: CardArenaState, player: int) -> str:
        inner = state.inner
        if self.kind == "information_state":
            return information_state_string(inner, player)
        if self.kind == "public":
            return _canonical_json(inner.observation(None))
        return f"seat {player}:\n" + inner.render(player)


class CardArenaEvaluator(mcts.Evaluator):
    """An OpenSpiel MCTS/ISMCTS evaluator from the games' own knowledge: each seat's value is the game's
    ``evaluate(observation(seat), seat)`` hook (what that seat may see), and where a game has none, the returns of
    one random playout of a clone. The prior is uniform over the legal actions.
    """

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def evaluate(self, state: CardArenaState) -> np.ndarray:
        inner = state.inner
        game = inner.game
        if inner.is_terminal():
            return np.array(inner.returns(), dtype=float)
        values = [game.evaluate(inner.observation(seat), seat) for seat in range(game.num_players)]
        if all(v is not None for v in values):
            return np.array(values, dtype=float)
        world = inner.clone()
        while not world.is_terminal():
            world.apply_legal(self._rng.choice(world.playout_actions()))
        return np.array(world.returns(), dtype=float)

    def prior(self, state: CardArenaState) -> list[tuple[int, float]]:
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


def resampler(seed: int) -> Callable[[CardArenaState, int], CardArenaState]:
    """A world sampler for ``ISMCTSBot.set_resampler``: worlds drawn from a stream seeded by ``seed``, so that a
    search is reproducible (OpenSpiel's default sampler draws from the system's entropy)."""
    rng = random.Random(seed)

    def sample(state: CardArenaState, player: int) -> CardArenaState:
        return state.resample_seeded(player, rng.randrange(2**62))

    return sample


def register() -> list[str]:
    """Register every :func:`variants` game with OpenSpiel (once; importing this module does it). Returns the
    short names."""
    known = set(pyspiel.registered_names())
    names = []
    for variant in variants():
        if variant.short_name not in known:
            pyspiel.register_game(_game_type(variant), _game_class(variant))
        names.append(variant.short_name)
    return names


def _game_class(variant: Variant) -> type[CardArenaGame]:
    """A subclass of :class:`CardArenaGame` for ``variant``, to register: OpenSpiel calls it with the parameters.

    A class rather than a closure, as OpenSpiel registers its own Python games: the registry keeps the creator
    until the process ends, and a class outlives the interpreter's shutdown where a closure would be freed
    after it (a crash at exit).
    """
    name = "CardArenaGame_" + variant.short_name.removeprefix(PREFIX)
    return type(name, (CardArenaGame,), {"VARIANT": variant, "__module__": __name__})


REGISTERED: list[str] = register()
