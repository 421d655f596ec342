"""Tuning the expert's search settings for a game: Optuna's TPE over paired games against a fixed opponent.

``cardarena tune GAME`` (:func:`tune`) searches the settings of :class:`~cardarena.agents.expert.ExpertAgent` that
change how it spends its iterations, never how many it has: the exploration constant ``c``, the playout ``depth``
before the value network scores a position, the ``rollout`` policy of those playouts, the ``prior`` credited to the
game's heuristic choice and the root ``candidates``. ``iterations`` (and ``seconds``) stay what the agent spec
says, so the time per decision does not grow with the number of iterations; a deeper or heuristic playout does cost
more per iteration, so a trial whose time per decision is over ``max_slowdown`` times the untuned settings' is
*infeasible* (its objective is its score minus 1: never the best, and the sampler learns to avoid it).

**The objective** of a trial is the score of the expert with its settings against ``against`` over ``pairs``
rounds on paired seeds, every seat order (as :func:`cardarena.arena.strength.play_one` plays them: a win 1, a draw
1/2; in a game of ``n`` seats the expert plays ``n - 1`` copies of the opponent and a fair seat scores ``1 / n``).
Every trial plays **the same deals** with the same agent seeds (common random numbers, stream 0 of ``seed``): two
trials differ by their settings, not by their luck. Settings already measured (a repeated integer or choice) are
answered from memory. Times per decision are CPU seconds (:func:`play_timed`), steadier than wall time on a
machine shared with other work.

**The search** is Optuna's TPE sampler, seeded: before trial ``k`` the sampler is made again with the seed
``derive_seed(seed, 2, k)``, so a trial's proposal depends on the seed and the trials before it alone, and a run
stopped and resumed from its store (``store``: Optuna's SQLite storage) proposes what an uninterrupted run would
have. The untuned settings are the first trial (when the space holds them): the search starts from a sound point.

**The confirmation**: the best trial's settings and the untuned ones play ``confirm_pairs`` fresh rounds (stream 1,
never seen by the search: the search's own figure of its best trial is inflated by the selection) against the same
opponent on the same deals. Each score has a 95% interval over rounds (:func:`~.stats.paired_interval`), and the
**gain** (tuned minus untuned, per round) has one too.

**Writing** (:func:`write_settings`): the model's weights are kept; its metadata's ``search`` dict gets the tuned
settings (the model's ``iterations`` stay), and ``tuning`` a record of the run (the command's arguments, the space,
the scores, the gain).

Apart from the times per decision (and so which trials are infeasible, a trial near the limit), the result is a
function of the arguments: the games are keyed by index, so any number of jobs gives the same trials.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..agents import make_agent
from ..agents.expert import NET_SETTINGS, ExpertAgent, model_for, model_path
from ..agents.levels import model_key
from ..agents.registry import parse_spec
from ..agents.valuenet import ValueNet
from ..engine import Game, OptionError, derive_seed, load
from . import runner
from .stats import paired_interval
from .strength import Outcome, play_one, wilson

SEARCH, FRESH, SAMPLER = 0, 1, 2  # the seed streams: the search's deals, the confirmation's, the sampler's seeds
STARTUP_TRIALS = 8  # TPE's random trials before it models the good and the bad ones
FIXED = ("iterations", "seconds", "model")  # what tuning never changes: the budget of a decision, the network


@dataclass(frozen=True)
class Param:
    """One tuned setting: a number between ``low`` and ``high`` (``int`` or ``float``, ``log``: sampled on a log
    scale), or one of ``choices``."""

    name: str
    kind: str  # "int", "float" or "choice"
    low: float = 0.0
    high: float = 0.0
    log: bool = False
    choices: tuple[str, ...] = ()

    def distribution(self) -> Any:
        import optuna

        if self.kind == "choice":
            return optuna.distributions.CategoricalDistribution(self.choices)
        if self.kind == "int":
            return optuna.distributions.IntDistribution(int(self.low), int(self.high), log=self.log)
        return optuna.distributions.FloatDistribution(self.low, self.high, log=self.log)

    def value(self, raw: Any) -> Any:
        """A sampled value as the setting takes it (a float rounded to 3 decimals: readable specs)."""
        if self.kind == "choice":
            return str(raw)
        if self.kind == "int":
            return int(raw)
        return round(float(raw), 3)

    def holds(self, value: Any) -> bool:
        if self.kind == "choice":
            return value in self.choices
        return isinstance(value, int | float) and self.low <= value <= self.high

    def describe(self) -> str:
        if self.kind == "choice":
            return "|".join(self.choices)
        text = f"{_number(self.low)}:{_number(self.high)}"
        return text + " (log)" if self.log else text


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


#: The settings tuned, and their ranges, unless the command says otherwise (``--params``, ``--range``).
DEFAULT_SPACE: dict[str, Param] = {
    "c": Param("c", "float", 0.1, 3.0, log=True),
    "depth": Param("depth", "int", 0, 60),
    "rollout": Param("rollout", "choice", choices=("random", "heuristic")),
    "prior": Param("prior", "float", 0.0, 1.0),
    "candidates": Param("candidates", "int", 0, 12),
}
TUNABLE = tuple(DEFAULT_SPACE)


def _option(name: str) -> Any:
    return next(o for o in ExpertAgent.params if o.name == name)


def parse_range(text: str) -> Param:
    """``c=0.2:2`` (a float range), ``depth=0:10`` (an integer range), ``c=0.1:3:log`` (sampled on a log scale),
    ``rollout=random|heuristic`` (choices): one setting's range; ``OptionError`` saying what is wrong.

    >>> parse_range("c=0.2:2")
    Param(name='c', kind='float', low=0.2, high=2.0, log=False, choices=())
    >>> parse_range("rollout=heuristic").choices
    ('heuristic',)
    """
    name, sep, rest = text.partition("=")
    name = name.strip()
    if not sep or not rest.strip():
        raise OptionError(f"--range {text!r} must look like NAME=LOW:HIGH (or rollout=random|heuristic)")
    check_tunable(name)
    base = DEFAULT_SPACE[name]
    option = _option(name)
    if base.kind == "choice":
        choices = tuple(c.strip() for c in rest.split("|"))
        bad = [c for c in choices if c not in option.choices]
        if bad or not choices:
            raise OptionError(
                f"--range {text!r}: {name} is one of {', '.join(option.choices)}, not {', '.join(map(repr, bad))}"
            )
        return Param(name, "choice", choices=tuple(dict.fromkeys(choices)))
    parts = [p.strip() for p in rest.split(":")]
    log = len(parts) == 3 and parts[2] == "log"
    if len(parts) != 2 and not log:
        raise OptionError(f"--range {text!r} must look like {name}=LOW:HIGH or {name}=LOW:HIGH:log")
    kind = int if base.kind == "int" else float
    try:
        low, high = kind(parts[0]), kind(parts[1])
    except ValueError:
        what = "whole numbers" if kind is int else "numbers"
        raise OptionError(f"--range {text!r}: the bounds of {name} are {what}") from None
    if not (math.isfinite(low) and math.isfinite(high)) or low >= high:
        raise OptionError(f"--range {text!r}: LOW must be below HIGH")
    lowest, highest = option.minimum, option.maximum
    if (lowest is not None and low < lowest) or (highest is not None and high > highest):
        raise OptionError(
            f"--range {text!r}: {name} takes values from {_number(lowest or 0)} to {_number(highest or 0)}"
        )
    if log and low <= 0:
        raise OptionError(f"--range {text!r}: a log scale needs LOW above 0")
    return Param(name, base.kind, float(low), float(high), log=log)


def check_tunable(name: str) -> None:
    if name in FIXED:
        raise OptionError(
            f"{name} is not tuned: the tuning keeps the budget of a decision as the agent spec gives it "
            f"(--agent expert:iterations=400); the tuned settings are {', '.join(TUNABLE)}"
        )
    if name not in DEFAULT_SPACE:
        raise OptionError(f"cannot tune {name!r}; the tuned settings are {', '.join(TUNABLE)}")


def make_space(params: Sequence[str] | None, ranges: Sequence[str] = (), fixed: Sequence[str] = ()) -> list[Param]:
    """The search space: ``params`` (default: every tunable setting but those the agent spec fixes, ``fixed``),
    each with its default range or the one ``ranges`` gives it."""
    if params is None:
        names = [n for n in TUNABLE if n not in fixed]
    else:
        names = []
        for n in params:
            check_tunable(n)
            if n in fixed:
                raise OptionError(f"{n} is given in the agent spec, which fixes it: take it out of one or the other")
            if n not in names:
                names.append(n)
    space = {n: DEFAULT_SPACE[n] for n in names}
    for text in ranges:
        p = parse_range(text)
        if p.name not in space:
            why = "the agent spec fixes it" if p.name in fixed else "it is not among --params"
            raise OptionError(f"--range {text!r}: {p.name} is not tuned here ({why})")
        space[p.name] = p
    if not space:
        raise OptionError("nothing to tune: every setting is fixed by the agent spec")
    return list(space.values())


# -- measuring one setting -------------------------------------------------------------------------------------------


def _play(context: tuple[str, dict[str, Any], tuple[str, str], int], indices: list[int]) -> list[Outcome]:
    """The runner's work function: the games ``indices`` of a strength run (:func:`play_timed`)."""
    game_id, options, agents, seed = context
    game = runner.load_cached(game_id, options)
    return [play_timed(game, agents, i, seed) for i in indices]


def play_timed(game: Game, agents: tuple[str, str], index: int, seed: int) -> Outcome:
    """Game ``index`` of a strength run, exactly as :func:`~cardarena.arena.strength.play_one` plays it (the same
    seeds, the same result), with A's time measured in **CPU seconds** of this process (``a_seconds``): on a machine
    shared with other work, wall time per decision follows the load, and a trial measured while the machine was
    busy would look slower than the untuned settings measured while it was quiet."""
    return play_one(game, agents, index, seed, clock=time.process_time)


@dataclass
class Measured:
    """A spec's games against the opponent: each round's score (the mean of its seat orders; ``None`` when every
    game of it raised), and its time per decision."""

    spec: str
    rounds: list[float | None]
    games: int
    errors: int
    seconds_per_decision: float
    error_samples: list[str] = field(default_factory=list)
    stopped: bool = False  # stopped early: over the time limit (its rounds are those played)

    @property
    def scored(self) -> list[float]:
        return [r for r in self.rounds if r is not None]

    @property
    def score(self) -> float:
        s = self.scored
        return sum(s) / len(s) if s else 0.0

    def figures(self) -> dict[str, Any]:
        lo, hi = paired_interval(self.scored)
        n_games = self.games - self.errors
        wlo, whi = wilson(self.score, n_games)
        return {
            "spec": self.spec,
            "score": round(self.score, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "ci95_wilson": [round(wlo, 4), round(whi, 4)],
            "games": self.games,
            "errors": self.errors,
            "seconds_per_decision": round(self.seconds_per_decision, 5),
        }


def measure(
    game: Game,
    options: dict[str, Any],
    spec: str,
    against: str,
    *,
    pairs: int,
    seed: int,
    jobs: int,
    progress: Callable[[int], None] | None = None,
    limit: float | None = None,
) -> Measured:
    """``spec`` against ``against`` over ``pairs`` rounds of seed ``seed``, every seat order.

    With ``limit`` (seconds per decision), the games stop once a quarter of them (at least a round) shows the
    agent slower than that: the measurement is ``stopped``, its rounds those played (a trial that is too slow need
    not be measured to the end to be ruled out)."""
    seats = game.num_players
    total = pairs * seats
    check = max(seats, total // 4)
    outcomes: list[Outcome] = []

    def on_results(chunk: list[Outcome]) -> None:
        outcomes.extend(chunk)
        if progress is not None:
            progress(len(chunk))
        if limit is not None and check <= len(outcomes) < total:
            decisions = sum(o.a_decisions for o in outcomes)
            if decisions and sum(o.a_seconds for o in outcomes) / decisions > limit:
                raise _TooSlow

    stopped = False
    try:
        runner.run(_play, (game.id, options, (spec, against), seed), range(total), on_results, jobs=jobs)
    except _TooSlow:
        stopped = True
    outcomes.sort(key=lambda o: o.index)
    by_round: dict[int, list[Outcome]] = {}
    for o in outcomes:
        by_round.setdefault(o.pair, []).append(o)
    rounds: list[float | None] = []
    for k in range(pairs):
        mine = [o for o in by_round.get(k, []) if o.result != "error"]
        points = [1.0 if o.result == "win" else 0.5 if o.result == "draw" else 0.0 for o in mine]
        rounds.append(sum(points) / len(points) if points else None)
    decisions = sum(o.a_decisions for o in outcomes)
    errors = [o for o in outcomes if o.result == "error"]
    return Measured(
        spec=spec,
        rounds=rounds,
        games=len(outcomes),
        errors=len(errors),
        seconds_per_decision=sum(o.a_seconds for o in outcomes) / decisions if decisions else 0.0,
        error_samples=[f"game {o.index} (seed {o.seed}): {o.error}" for o in errors[:3]],
        stopped=stopped,
    )


class _TooSlow(Exception):
    """Raised among a measurement's results to stop its games: the agent is over the time limit."""


# -- the run ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TuneConfig:
    """The arguments of one tuning run (see the module's docstring)."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    agent: str = "expert"
    against: str = "heuristic"
    trials: int = 30
    pairs: int = 20
    confirm_pairs: int = 50
    seed: int = 0
    params: tuple[str, ...] | None = None  # None: every tunable setting the agent spec does not fix
    ranges: tuple[str, ...] = ()
    max_slowdown: float | None = 1.5  # None: no limit on the time per decision


@dataclass
class Trial:
    number: int
    settings: dict[str, Any]
    spec: str
    score: float
    seconds_per_decision: float
    feasible: bool
    objective: float
    errors: int
    repeated: bool = False  # answered from an earlier trial's games (the same settings)
    stopped: bool = False  # its games stopped early: too slow


@dataclass
class TuneResult:
    config: TuneConfig
    key: str
    model: str | None  # the model file the expert uses (None: the game's evaluate)
    space: list[Param]
    fixed: dict[str, Any]  # the agent spec's own settings
    untuned_settings: dict[str, Any]
    untuned_search: Measured
    trials: list[Trial]
    best: Trial
    untuned: Measured  # the confirmation's two measurements, on fresh deals
    tuned: Measured
    seconds: float = 0.0
    games: int = 0
    written: str | None = None

    @property
    def gain_rounds(self) -> list[float]:
        return [t - u for t, u in zip(self.tuned.rounds, self.untuned.rounds) if t is not None and u is not None]

    def gain(self) -> tuple[float, float, float]:
        """The mean gain per round (tuned minus untuned) and its 95% interval: :func:`paired_interval` on the
        gains mapped into [0, 1] (``(d + 1) / 2``), mapped back."""
        d = self.gain_rounds
        if not d:
            return 0.0, -1.0, 1.0
        lo, hi = paired_interval([(x + 1) / 2 for x in d])
        return sum(d) / len(d), 2 * lo - 1, 2 * hi - 1

    def to_json(self) -> dict[str, Any]:
        gain, lo, hi = self.gain()
        c = self.config
        return {
            "game": c.game,
            "key": self.key,
            "options": c.options,
            "agent": c.agent,
            "against": c.against,
            "seed": c.seed,
            "pairs": c.pairs,
            "confirm_pairs": c.confirm_pairs,
            "max_slowdown": c.max_slowdown,
            "model": self.model,
            "space": {p.name: p.describe() for p in self.space},
            "fixed": self.fixed,
            "untuned": {"settings": self.untuned_settings, "search": self.untuned_search.figures()},
            "trials": [asdict(t) for t in self.trials],
            "distinct_settings": len({t.spec for t in self.trials}),
            "best": asdict(self.best),
            "confirmation": {
                "pairs": c.confirm_pairs,
                "untuned": self.untuned.figures(),
                "tuned": self.tuned.figures(),
                "gain": round(gain, 4),
                "gain_ci95": [round(lo, 4), round(hi, 4)],
            },
            "games": self.games,
            "seconds": round(self.seconds, 1),
            "written": self.written,
        }


def spec_of(name: str, base: dict[str, str], settings: dict[str, Any]) -> str:
    """The agent spec ``name:k=v,...`` of the agent spec's own parameters ``base`` with ``settings`` on top."""
    items = {**base, **{k: str(v) for k, v in settings.items()}}
    return name + (":" + ",".join(f"{k}={v}" for k, v in items.items()) if items else "")


@dataclass
class Prepared:
    game: Game
    options: dict[str, Any]
    name: str
    base: dict[str, str]
    untuned_settings: dict[str, Any]
    space: list[Param]
    model: str | None


def prepare(config: TuneConfig, *, require_model: bool = False) -> Prepared:
    """Check everything before a game is played: the game, the agents, the space (and with ``require_model``, that
    the expert has a model to write the settings into); ``OptionError`` if something is wrong."""
    options = dict(config.options)
    game = load(config.game, **options)
    if config.trials < 1:
        raise OptionError(f"--trials must be at least 1, got {config.trials}")
    if config.pairs < 1 or config.confirm_pairs < 2:
        raise OptionError("--pairs must be at least 1 and --confirm-pairs at least 2 (an interval needs two rounds)")
    if config.max_slowdown is not None and config.max_slowdown < 1:
        raise OptionError(f"--max-slowdown must be at least 1 (or 0: no limit), got {config.max_slowdown}")
    name, base = parse_spec(config.agent)
    if name != ExpertAgent.name:
        raise OptionError(
            f"cardarena tune tunes the expert's search settings (--agent expert[:iterations=N,...]), not {name!r}"
        )
    agent = make_agent(config.agent, 0)  # a bad parameter fails here, naming the valid ones
    make_agent(config.against, 0)
    assert isinstance(agent, ExpertAgent)
    fixed = [k for k in base if k not in FIXED]
    space = make_space(config.params, config.ranges, fixed)
    try:
        net = model_for(game, agent.model_file)
    except ValueError as e:
        raise OptionError(str(e)) from None
    model = None
    if net is not None:
        model = str(Path(agent.model_file).resolve()) if agent.model_file else str(model_path(game))
    elif require_model:
        raise OptionError(no_model(config.game, agent.model_file))
    return Prepared(game, options, name, base, agent.settings(game), space, model)


Progress = Callable[[int, int], None]
TrialCallback = Callable[[Trial, Trial], None]  # (the trial, the best so far)


def _study_name(config: TuneConfig, prepared: Prepared) -> str:
    """The study of a configuration in a store: one per game, agents, seed, pairs and space (``trials`` grows)."""
    identity = {
        "game": config.game,
        "options": prepared.game.record_options(),
        "agent": config.agent,
        "against": config.against,
        "seed": config.seed,
        "pairs": config.pairs,
        "space": {p.name: p.describe() for p in prepared.space},
        "max_slowdown": config.max_slowdown,
    }
    digest = hashlib.sha256(json.dumps(identity, sort_keys=True, default=str).encode()).hexdigest()[:16]
    return f"cardarena-tune-{model_key(prepared.game)}-{digest}"


def _sampler(seed: int, number: int) -> Any:
    import optuna

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        return optuna.samplers.TPESampler(
            seed=derive_seed(seed, SAMPLER, number) % 2**32, n_startup_trials=STARTUP_TRIALS, multivariate=True
        )


def _measured_attrs(m: Measured) -> dict[str, Any]:
    return asdict(m)


def _measured_from(attrs: dict[str, Any]) -> Measured:
    return Measured(**attrs)


def tune(
    config: TuneConfig,
    *,
    jobs: int = 1,
    store: str | Path | None = None,
    progress: Progress | None = None,
    on_trial: TrialCallback | None = None,
    require_model: bool = False,
) -> TuneResult:
    """Run the search and the confirmation (see the module's docstring). With ``store`` (a SQLite file) every
    finished trial is kept as it ends, and the same call again goes on from them (with more ``trials``: only the
    new ones are played)."""
    import optuna

    started = time.perf_counter()
    p = prepare(config, require_model=require_model)
    seats = p.game.num_players
    per_trial = config.pairs * seats
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = f"sqlite:///{Path(store).resolve()}" if store is not None else None
    study = optuna.create_study(
        study_name=_study_name(config, p),
        storage=storage,
        direction="maximize",
        sampler=_sampler(config.seed, 0),
        load_if_exists=True,
    )
    distributions = {q.name: q.distribution() for q in p.space}
    done_trials = [t for t in study.get_trials(deepcopy=False) if t.state == optuna.trial.TrialState.COMPLETE]
    untuned_point = {q.name: p.untuned_settings[q.name] for q in p.space}
    untuned_spec = config.agent
    search_seed = derive_seed(config.seed, SEARCH)
    total = (config.trials - min(config.trials, len(done_trials))) * per_trial + 2 * config.confirm_pairs * seats
    done = played = 0

    def advance(n: int, *, real: bool = True) -> None:
        nonlocal done, played
        done += n
        played += n if real else 0
        if progress is not None:
            progress(done, total)

    reference_attrs = study.user_attrs.get("untuned")
    if reference_attrs is None:
        total += per_trial
        if progress is not None:
            progress(0, total)
        reference = measure(
            p.game,
            p.options,
            untuned_spec,
            config.against,
            pairs=config.pairs,
            seed=search_seed,
            jobs=jobs,
            progress=advance,
        )
        study.set_user_attr("untuned", _measured_attrs(reference))
        if all(q.holds(untuned_point[q.name]) for q in p.space):
            study.enqueue_trial(untuned_point)  # the first trial: answered from this measurement
    else:
        reference = _measured_from(reference_attrs)
        if progress is not None:
            progress(0, total)
    limit = None  # seconds per decision; none when the untuned settings made no decision to time
    if config.max_slowdown is not None and reference.seconds_per_decision > 0:
        limit = config.max_slowdown * reference.seconds_per_decision
    known: dict[str, Measured] = {}
    for t in done_trials:
        known[t.user_attrs["spec"]] = _measured_from(t.user_attrs["measured"])

    def record(t: Any, number: int) -> Trial:
        a = t.user_attrs
        return Trial(
            number=number,
            settings={q.name: q.value(t.params[q.name]) for q in p.space},
            spec=a["spec"],
            score=round(_measured_from(a["measured"]).score, 4),
            seconds_per_decision=round(a["measured"]["seconds_per_decision"], 5),
            feasible=a["feasible"],
            objective=round(float(t.value), 4),
            errors=a["measured"]["errors"],
            repeated=a.get("repeated", False),
            stopped=a["measured"].get("stopped", False),
        )

    trials = [record(t, k) for k, t in enumerate(done_trials)]  # numbered without the interrupted ones
    while len(trials) < config.trials:
        study.sampler = _sampler(config.seed, len(trials))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            trial = study.ask(distributions)
        try:
            settings = {q.name: q.value(trial.params[q.name]) for q in p.space}
            spec = spec_of(p.name, p.base, settings)
            repeated = spec in known or settings == untuned_point
            if spec in known:
                m = known[spec]
            elif settings == untuned_point:
                m = Measured(**{**_measured_attrs(reference), "spec": spec})
            else:
                m = measure(
                    p.game,
                    p.options,
                    spec,
                    config.against,
                    pairs=config.pairs,
                    seed=search_seed,
                    jobs=jobs,
                    progress=advance,
                    limit=limit,
                )
                advance(per_trial - m.games, real=False)  # the games of a trial stopped as too slow
            if repeated:
                advance(per_trial, real=False)
            known[spec] = m
            feasible = limit is None or m.seconds_per_decision <= limit
            objective = m.score if feasible else m.score - 1.0
            trial.set_user_attr("spec", spec)
            trial.set_user_attr("measured", _measured_attrs(m))
            trial.set_user_attr("feasible", feasible)
            trial.set_user_attr("repeated", repeated)
        except BaseException:
            study.tell(trial, state=optuna.trial.TrialState.FAIL)  # an interrupted trial is not kept
            raise
        study.tell(trial, objective)
        trials.append(record(study.get_trials(deepcopy=False)[trial.number], len(trials)))
        if on_trial is not None:
            on_trial(trials[-1], _best(trials))
    best = _best(trials)
    fresh_seed = derive_seed(config.seed, FRESH)
    untuned = measure(
        p.game,
        p.options,
        untuned_spec,
        config.against,
        pairs=config.confirm_pairs,
        seed=fresh_seed,
        jobs=jobs,
        progress=advance,
    )
    if best.settings == untuned_point:
        tuned = Measured(**{**_measured_attrs(untuned), "spec": best.spec})
        advance(config.confirm_pairs * seats, real=False)
    else:
        tuned = measure(
            p.game,
            p.options,
            best.spec,
            config.against,
            pairs=config.confirm_pairs,
            seed=fresh_seed,
            jobs=jobs,
            progress=advance,
        )
    if progress is not None:
        progress(total, total)
    fixed = {k: v for k, v in p.base.items()}
    return TuneResult(
        config=config,
        key=model_key(p.game),
        model=p.model,
        space=p.space,
        fixed=fixed,
        untuned_settings=p.untuned_settings,
        untuned_search=reference,
        trials=trials,
        best=best,
        untuned=untuned,
        tuned=tuned,
        seconds=time.perf_counter() - started,
        games=played,
    )


def _best(trials: Sequence[Trial]) -> Trial:
    return max(trials, key=lambda t: (t.objective, -t.number))


# -- writing ---------------------------------------------------------------------------------------------------------


def write_settings(result: TuneResult, path: str | Path | None = None, *, command: str = "") -> Path:
    """Store the best settings in the model's metadata (``search``), with a record of the run (``tuning``); the
    weights are kept. ``path``: the model the tuning used (the default). The file is replaced at once."""
    where = path if path is not None else result.model
    if where is None:
        raise OptionError(no_model(result.config.game, None))
    target = Path(where)
    try:
        net = ValueNet.load(target)
    except ValueError as e:
        raise OptionError(str(e)) from None
    old = dict(net.meta.get("search", {}))
    fixed = {k: _typed(k, v) for k, v in result.fixed.items() if k not in FIXED}
    search = {**{k: v for k, v in old.items() if k in NET_SETTINGS}, **fixed, **result.best.settings}
    gain, lo, hi = result.gain()
    net.meta["search"] = search
    record = {k: v for k, v in result.to_json().items() if k not in ("trials", "written", "model")}
    net.meta["tuning"] = {
        "command": command,
        "previous_search": old,
        **record,
        "iterations": result.untuned_settings.get("iterations"),  # the budget the settings were tuned at
        "trials": len(result.trials),
        "gain": round(gain, 4),
        "gain_ci95": [round(lo, 4), round(hi, 4)],
    }
    tmp = target.with_name(f".{target.name}.tuning.npz")
    net.save(tmp)
    tmp.replace(target)
    result.written = str(target)
    return target


def no_model(game_id: str, model: str | None) -> str:
    if model:
        return f"{game_id}: the model {model} does not fit this configuration's encoding: nowhere to write the settings"
    return (
        f"{game_id}: this configuration has no trained model (the expert plays with the game's own evaluation), so "
        "there is nowhere to write the settings: train one (cardarena train) or name one (--agent expert:model=PATH)"
    )


def _typed(name: str, text: str) -> Any:
    """A setting the agent spec gave as text, in the type the model's metadata keeps it."""
    kind = _option(name).type
    return kind(text) if kind is not str else text


__all__ = [
    "DEFAULT_SPACE",
    "TUNABLE",
    "Measured",
    "Param",
    "Trial",
    "TuneConfig",
    "TuneResult",
    "make_space",
    "parse_range",
    "tune",
    "write_settings",
]
