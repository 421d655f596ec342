"""Depth and luck (``cardarena report GAME --depth N``): does skill keep paying, which card matters, how much is
chance. report.json's ``depth`` key.

Three kinds of *match* are played, each ``N`` games on the report's own deals (game ``i`` is seeded
``derive_seed(seed, i)`` in every match, its agent in seat ``k`` ``derive_seed(seed, i, k + 1)``), the agents
rotated game by game as the report seats them (:func:`~cardarena.arena.report.seat_agents`), so that the agent
measured sits in every seat equally often and every match plays the same deals (common random numbers):

- **The skill ladder.** An agent with a budget (``ismcts:iterations=25``; :data:`BUDGET_PARAMS` names each
  agent's budget) against the same agent with half its budget, over several doublings: 50 against 25, 100
  against 50, 200 against 100. Each rung is the doubled agent's score with its Wilson interval. A rung whose
  interval lies above the fair score is a doubling that still pays; where the rungs fall to fair, more thinking
  no longer wins games: the game's skill ceiling for this kind of player.
- **Restricted play** (Jaffe, Miller, Andersen, Liu, Karlin & Popović 2012, "Evaluating competitive game balance
  with restricted play"): the report's agent forbidden to use one catalogue entry (a card, an ability, a rule)
  against the unrestricted agent. The same agent unrestricted also plays the same games against itself (the
  *mirror*); the entry's *importance* is how much lower the restricted agent scores than the mirror on the same
  games, in percentage points of win rate: a card the game cannot be won without is worth many points, a card
  nobody needs 0 (exactly, where forbidding it changes no decision: the games are the same), and a card that is
  a trap (the agent does better without it) is negative. Pairing the games removes the luck of the deal from the
  difference, so a few hundred games separate cards a few points apart. The entries tried are those named
  (``entries``) and the ``top`` most used in the report's games (each costs ``N`` games).
- **Luck.** A random player against the report's agent: a random player's score over a fair score is the *luck
  index*: 1 when skill makes no difference (a random player does as well as anyone), 0 when the agent always
  beats a random player. Random against random would score exactly the fair share (the seats rotate), so the
  fair score is that baseline; it is not played.

The first-player advantage is already measured by the report's own games; it is restated here with a verdict.

**How a forbidden entry is recognised without peeking** (:class:`RestrictedAgent`). At each decision the agent
draws one world with ``view.resample`` (everything its seat cannot see redrawn: what any fair search agent sees)
and applies each legal action to a copy of that world with :func:`~cardarena.engine.involvement.apply_involving`,
the same hook the report counts uses with. An action is forbidden when the game says it *uses* the entry (a verb
of the ``used`` stage) for the acting seat, or as a rule that belongs to no seat. The action's own card (played,
bought, set) is known to the seat, so it is the same in every world; an ability a chance event might fire could
differ between worlds, and is judged by the one world drawn. This works in every game that declares its
involvement, whatever its actions look like, where reading a card's name off the action text would not. When
every legal action is forbidden, the agent plays as usual (the game must go on): ``used_anyway`` counts the games
in which it used the entry all the same.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..agents import Agent, SeatView, make_agent, parse_spec
from ..agents.registry import AGENTS
from ..engine import VERBS, Action, Declared, Game, OptionError, Rng, Stage, apply_involving, derive_seed, load
from . import runner
from .report import Plan, game_setup, play_one, seat_agents, share
from .strength import wilson

DEFAULT_LADDER = "ismcts:iterations=25"  # 25 -> 50 -> 100 -> 200 iterations with the default 3 doublings
DEFAULT_DOUBLINGS = 3
DEFAULT_TOP = 5
#: Each agent's budget parameter: the one the skill ladder doubles.
BUDGET_PARAMS = {"ismcts": "iterations", "mcts": "iterations", "flatmc": "worlds", "heuristic": "worlds"}
RANDOM = "random"

METHOD = (
    "Depth and luck play extra matches on the report's deals, with the options as given (the first variant): game i"
    " of every match has the report's seed and setup for game i, and each seat's agent the report's seed for that "
    "seat; the agents rotate seats game by game, so the agent measured sits in every seat equally. Skill ladder: an"
    " agent against the same agent with half its budget, one rung per doubling; a rung's score is the doubled "
    "agent's share of the results (win 1, draw 1/2) with Wilson's 95% interval; a doubling pays when its interval "
    "lies above the fair score (1/seats). Restricted play (Jaffe et al. 2012): the report's first agent forbidden "
    "one entry (at each decision the legal actions that use it are dropped, judged on one world resampled from what"
    " the seat knows, unless nothing else is legal) against the unrestricted agent; the same agent unrestricted "
    "plays the same games against itself (the mirror), and the entry's importance is the mirror's score minus the "
    "restricted agent's, game by game, in percentage points of win rate, with a Student t 95% interval over the "
    "games' differences (an entry that changes no decision changes no game: 0 exactly). The entries tried are those"
    " named and the most used in the report's games. Luck: a random player against the report's first agent; the "
    "luck index is the random player's score over the fair score (1: skill makes no difference; 0: the agent always"
    " beats a random player), its interval Wilson's scaled alike; random against random scores the fair score by "
    "symmetry: that is the baseline, not played. First player: the report's own first-player score, restated."
)


# -- the plan ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DepthPlan:
    """What ``--depth`` asks: ``games`` per match, the ladder's first agent (``None``: no ladder) and its number
    of doublings, how many of the most used entries restricted play tries (``top``), and the entries it tries
    whatever their use (``entries``: ``KIND:NAME``, or ``NAME`` where one kind has it), first."""

    games: int
    ladder: str | None = DEFAULT_LADDER
    doublings: int = DEFAULT_DOUBLINGS
    top: int = DEFAULT_TOP
    entries: tuple[str, ...] = ()


def check(depth: DepthPlan, game: Game | None = None) -> DepthPlan:
    """Refuse a bad depth plan (``OptionError``) before any game is played; with ``game``, also an entry it does
    not declare."""
    if depth.games < 1:
        raise OptionError(f"--depth must be at least 1 game per match, got {depth.games}")
    if depth.top < 0:
        raise OptionError(f"--depth-top must be at least 0, got {depth.top}")
    if depth.ladder is not None:
        if depth.doublings < 1:
            raise OptionError(f"--depth-doublings must be at least 1, got {depth.doublings}")
        ladder_specs(depth.ladder, depth.doublings)  # an agent without a budget fails here
    if game is not None:
        for text in depth.entries:
            find_entry(game.involvement_catalogue(), text)
    return depth


def find_entry(catalogue: Sequence[Declared], text: str) -> Declared:
    """The catalogue entry ``KIND:NAME`` names (or ``NAME``, where only one kind has that name).

    >>> find_entry([Declared("card", "J", "J"), Declared("rule", "pass", "pass")], "J").kind
    'card'
    """
    kind, sep, name = text.partition(":")
    found = [d for d in catalogue if (d.kind, d.name) == (kind, name)] if sep else []
    if not found:
        found = [d for d in catalogue if d.name == text]
    if len(found) == 1:
        return found[0]
    if found:
        kinds = ", ".join(f"{d.kind}:{d.name}" for d in found)
        raise OptionError(f"{text!r} names several entries ({kinds}); say which as KIND:NAME")
    raise OptionError(
        f"{text!r} is not an entry this game declares (its involvement_catalogue; e.g. "
        + ", ".join(f"{d.kind}:{d.name}" for d in list(catalogue)[:5])
        + ")"
    )


def budget_of(spec: str) -> tuple[str, int]:
    """The budget parameter of an agent spec and its value (given, or the agent's default).

    >>> budget_of("ismcts:iterations=25"), budget_of("flatmc")
    (('iterations', 25), ('worlds', 16))
    """
    name, params = parse_spec(spec)
    key = BUDGET_PARAMS.get(name)
    if key is None:
        raise OptionError(
            f"the skill ladder needs an agent with a budget to double ({', '.join(sorted(BUDGET_PARAMS))}); "
            f"{spec!r} has none"
        )
    make_agent(spec, 0)  # an unknown parameter or a bad value fails here, naming the valid ones
    if key in params:
        return key, int(params[key])
    default = next(o.default for o in AGENTS[name].params if o.name == key)
    return key, int(default)


def with_budget(spec: str, value: int) -> str:
    """``spec`` with its budget set to ``value``, its other parameters kept in order.

    >>> with_budget("ismcts:c=0.7,iterations=25", 50), with_budget("flatmc", 8)
    ('ismcts:c=0.7,iterations=50', 'flatmc:worlds=8')
    """
    name, params = parse_spec(spec)
    key, _ = budget_of(spec)
    params[key] = str(value)
    return f"{name}:" + ",".join(f"{k}={v}" for k, v in params.items())


def ladder_specs(spec: str, doublings: int) -> list[tuple[str, int]]:
    """The ladder's agents, budget doubling each time: ``doublings + 1`` (spec, budget) pairs."""
    _, start = budget_of(spec)
    if start < 1:
        raise OptionError(f"the ladder's agent needs a budget of at least 1, got {spec!r}")
    return [(with_budget(spec, start * 2**r), start * 2**r) for r in range(doublings + 1)]


# -- the restricted agent ----------------------------------------------------------------------------------------
class _AllowedView(SeatView):
    """A seat's view whose legal actions are only those allowed: what the inner agent is shown."""

    __slots__ = ("_allowed",)

    def __init__(self, view: SeatView, allowed: list[Action]) -> None:
        super().__init__(view._state, view.seat)
        self._allowed = allowed

    def legal_actions(self) -> list[Action]:
        return list(self._allowed)


class RestrictedAgent(Agent):
    """An agent that never uses one catalogue entry (``kind``, ``name``) while anything else is legal.

    See the module's text for how an action's use of the entry is judged (on a world resampled for the seat,
    never on the true state). A decision with one legal action is not judged (there is no choice to forbid);
    ``forced`` counts the decisions with several legal actions that all used the entry.
    """

    name = "restrict"

    def __init__(self, inner: Agent, kind: str, entry: str, seed: int = 0) -> None:
        self.inner = inner
        self.kind = kind
        self.entry = entry
        self.rng = Rng(derive_seed(seed, 0x5E57))
        self.forced = 0

    def uses(self, world: Any, action: Action, seat: int) -> bool:
        """Whether ``action`` in ``world`` (a resampled state, changed by the call) uses the entry for ``seat``."""
        try:
            involved = apply_involving(world, action)
        except Exception:  # an action the drawn world does not allow: it cannot be judged, so it is allowed
            return False
        return any(
            inv.kind == self.kind
            and inv.name == self.entry
            and VERBS.get(inv.verb) is Stage.USED
            and (inv.seat == seat or inv.seat is None)
            for inv in involved
        )

    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions()
        if len(legal) > 1:
            world = view.resample(self.rng.fork())
            allowed = [a for a in legal if not self.uses(world.clone(), a, view.seat)]
            if not allowed:
                self.forced += 1
            elif len(allowed) < len(legal):
                return self.inner.act(_AllowedView(view, allowed))
        return self.inner.act(view)


# -- playing -----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Match:
    """One match of ``N`` games: ``agents`` before rotation, the first the one measured; ``restrict`` the entry
    (kind, name) the first agent may not use, or ``None``."""

    what: str  # "ladder", "restricted", "luck"
    agents: tuple[str, ...]
    restrict: tuple[str, str] | None = None


@dataclass(frozen=True)
class DepthJob:
    """A worker's context: item ``m * games + i`` is game ``i`` of match ``m``."""

    game_id: str
    options: tuple[tuple[str, Any], ...]
    matches: tuple[Match, ...]
    seed: int
    games: int
    setups: bool = False  # game i brings the report's setup for game i (Game.report_setup), as the report's own


def restricted_label(spec: str, kind: str, name: str) -> str:
    """The restricted agent's spec as the page names it, also its marker among a match's specs."""
    return f"{spec} without {kind} {name}"


def play_depth_chunk(job: DepthJob, items: list[int]) -> list[tuple[int, dict[str, Any]]]:
    """The runner's work function: play these items, each keyed by its item (see :class:`DepthJob`). Game ``i``
    of every match has the report's deal, agent seeds and setup (decks, builds, schools) for its game ``i``."""
    out = []
    for item in items:
        m, index = divmod(item, job.games)
        match = job.matches[m]
        options = dict(job.options)
        game = runner.load_cached(job.game_id, options)
        setup = game_setup(game, job.seed, index) if job.setups else None
        if setup is not None:
            game = runner.load_cached(job.game_id, {**options, **dict(setup.options)})
        make: Callable[[str, int], Agent] = make_agent
        if match.restrict is not None:
            kind, name = match.restrict
            marker, inner = match.agents[0], match.agents[1]

            def make(
                spec: str, seed: int, marker: str = marker, inner: str = inner, kind: str = kind, name: str = name
            ) -> Agent:
                if spec == marker:
                    return RestrictedAgent(make_agent(inner, seed), kind, name, seed)
                return make_agent(spec, seed)

        row = play_one(game, index, job.seed, seat_agents(match.agents, index), setup, make=make)
        out.append((item, row))
    return out


# -- statistics --------------------------------------------------------------------------------------------------
def _r(x: float, digits: int = 4) -> float:
    return round(float(x), digits)


def measured_shares(rows: Sequence[dict[str, Any]], seats: int) -> dict[int, float]:
    """Game index -> the share of the result of the match's first agent (in seat ``-i mod seats`` of game ``i``,
    by the report's rotation), for the finished games."""
    return {r["index"]: share(r["returns"], (-r["index"]) % seats) for r in rows if r["error"] is None}


def score_of(shares: dict[int, float]) -> tuple[int, float | None, list[float] | None]:
    """Games, mean score and Wilson interval of a match's first agent."""
    if not shares:
        return 0, None, None
    n = len(shares)
    total = sum(shares.values())
    lo, hi = wilson(total / n, n)
    return n, _r(total / n), [_r(lo), _r(hi)]


def paired_drop(base: dict[int, float], other: dict[int, float]) -> tuple[float, list[float]] | None:
    """How much lower ``other``'s shares are than ``base``'s on the same games, in percentage points, with a 95%
    interval (Student's t over the per-game differences; the games both finished). ``None`` under 2 games.

    >>> paired_drop({0: 1.0, 1: 0.0, 2: 1.0}, {0: 1.0, 1: 0.0, 2: 1.0})
    (0.0, [0.0, 0.0])
    """
    from scipy import stats

    common = sorted(set(base) & set(other))
    if len(common) < 2:
        return None
    diffs = [base[i] - other[i] for i in common]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = float(stats.t.ppf(0.975, n - 1)) * sd / math.sqrt(n)
    return _r(100 * mean, 2), [_r(100 * (mean - half), 2), _r(100 * (mean + half), 2)]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _interval(ci: Sequence[float]) -> str:
    return f"[{100 * ci[0]:.1f}%, {100 * ci[1]:.1f}%]"


def ladder_verdict(rungs: Sequence[dict[str, Any]], fair: float) -> str:
    """A sentence on the ladder: does each doubling still pay?"""
    if not rungs or any(r["ci"] is None for r in rungs):
        return "The ladder has no finished games."
    pays = [r["ci"][0] > fair for r in rungs]
    first, last = rungs[0], rungs[-1]
    if all(pays):
        return (
            f"Skill pays at every doubling: even {last['agent']} beats {last['opponent']} "
            f"({_pct(last['score'])} {_interval(last['ci'])}, fair {_pct(fair)}): a deeper search keeps winning "
            "more games, so the game rewards thinking further ahead than these budgets."
        )
    if not any(pays):
        return (
            f"No doubling pays measurably: from budget {first['budget'] // 2} to {last['budget']} the doubled agent "
            f"never scores clearly above fair ({_pct(fair)}): more thinking does not win these games (a shallow "
            "game, much luck, or too few games to see a small edge)."
        )
    k = pays.index(False)
    if any(pays[k:]):
        paying = ", ".join(f"{r['budget'] // 2} to {r['budget']}" for r, p in zip(rungs, pays, strict=True) if p)
        unclear = ", ".join(
            f"{r['budget'] // 2} to {r['budget']} ({_pct(r['score'])} {_interval(r['ci'])})"
            for r, p in zip(rungs, pays, strict=True)
            if not p
        )
        return (
            f"Skill pays at some doublings only: doubling the budget from {paying} wins more games; from {unclear} "
            f"the games cannot tell the doubled agent from fair ({_pct(fair)}): more games would say whether it pays."
        )
    flat = rungs[k]
    return (
        f"Skill pays up to budget {flat['budget'] // 2} and flattens there: doubling it to {flat['budget']} scores "
        f"{_pct(flat['score'])} {_interval(flat['ci'])}, within chance of fair ({_pct(fair)})."
    )


#: An entry the restricted agent still used in more than this share of its games could not be forbidden.
LEAKY = 0.05


def importance_verdict(entry: dict[str, Any]) -> str:
    """A sentence on one restricted entry."""
    lo, hi = entry["importance_ci"]
    points = entry["importance"]
    if entry["games"] and entry["used_anyway"] > LEAKY * entry["games"]:
        return (
            f"Could not be kept out of play: the restricted agent still used it in {entry['used_anyway']} of "
            f"{entry['games']} games (it comes with a step that offers no other choice, e.g. a spell's effect "
            f"when it resolves), so its importance, {points:+.1f} points, is not the card's."
        )
    if lo > 0:
        return f"Forbidding it costs {points:+.1f} points of win rate: the agent needs it."
    if hi < 0:
        return f"The agent wins {-points:.1f} points more without it: a trap, or the agent misplays it."
    if lo == hi == 0:
        return "Forbidding it changed no game's result: the agent does as well without it."
    return "No measurable importance: the agent wins as often without it."


def luck_verdict(luck: dict[str, Any]) -> str:
    """A sentence on the luck index."""
    index, (lo, hi) = luck["index"], luck["index_ci"]
    wins = (
        f"A random player scores {_pct(luck['score'])} {_interval(luck['ci'])} against {luck['agent']} "
        f"(fair: {_pct(luck['fair'])})"
    )
    if lo <= 1 <= hi:
        return f"{wins}: the games cannot tell skill from chance: these results are decided by luck."
    if index > 1:
        return f"{wins}: it does better than the agent, which plays worse than random here."
    if luck["score"] == 0:
        return f"{wins}: skill decides, a random player never won."
    if index < 0.2:
        return f"{wins}: skill decides, a random player rarely wins."
    if index < 0.6:
        return f"{wins}: skill matters more than chance, but chance still wins a random player some games."
    return f"{wins}: chance weighs heavily, a random player wins nearly its share."


def first_player_verdict(first: dict[str, Any] | None, fair: float) -> dict[str, Any] | None:
    """The report's first-player score, restated with its advantage in points and a verdict."""
    if first is None or first.get("ci") is None:
        return None
    lo, hi = first["ci"]
    advantage = _r(100 * (first["score"] - fair), 2)
    said = f"The first player scores {_pct(first['score'])} {_interval(first['ci'])} where {_pct(fair)} is fair"
    if lo > fair:
        verdict = f"{said}: a real advantage of {advantage:+.1f} points."
    elif hi < fair:
        verdict = f"{said}: a real disadvantage of {advantage:+.1f} points."
    else:
        verdict = f"{said}: no measurable advantage either way."
    return {**first, "fair": _r(fair), "advantage": advantage, "verdict": verdict}


def top_entries(cards: Sequence[dict[str, Any]], top: int) -> list[tuple[str, str]]:
    """The ``top`` entries used by a seat in the most (game, seat) pairs (ties: more uses, then by name)."""
    owned = [c for c in cards if c["games_used"] and c.get("score_used") is not None]
    owned.sort(key=lambda c: (-c["games_used"], -c["used_count"], c["kind"], c["name"]))
    return [(c["kind"], c["name"]) for c in owned[:top]]


def matches_for(depth: DepthPlan, agent: str, entries: Sequence[tuple[str, str]], seats: int) -> list[Match]:
    """The matches of a depth plan: the ladder's rungs, one restricted match per entry, and the luck match."""
    out = []
    if depth.ladder is not None:
        specs = ladder_specs(depth.ladder, depth.doublings)
        for (weak, _), (strong, _) in itertools.pairwise(specs):
            out.append(Match("ladder", (strong, *[weak] * (seats - 1))))
    if entries:  # the unrestricted agent against itself on the same games: restricted play's reference
        out.append(Match("mirror", (agent,) * seats))
    for kind, name in entries:
        marker = restricted_label(agent, kind, name)
        out.append(Match("restricted", (marker, *[agent] * (seats - 1)), (kind, name)))
    if parse_spec(agent)[0] != RANDOM:
        out.append(Match("luck", (RANDOM, *[agent] * (seats - 1))))
    return out


def measure(
    game_id: str,
    options: dict[str, Any],
    agents: Sequence[str],
    seed: int,
    depth: DepthPlan,
    cards: Sequence[dict[str, Any]],
    first_player: dict[str, Any] | None,
    *,
    setups: bool = False,
    backend: runner.Backend | str = runner.Backend.PROCESS,
    jobs: int | None = 1,
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play the depth matches of ``depth`` with the report's game, options and seed, and return DEPTH.

    ``agents`` are the report's specs (the first is the one restricted and set against a random player);
    ``cards`` the report's first variant's card rows (the most used are restricted); ``first_player`` its
    first-player block; ``setups``: each game brings the report's setup for that game (``Plan.setups``)."""
    game: Game = load(game_id, **options)
    seats = game.num_players
    fair = 1.0 / seats
    agent = agents[0]
    catalogue: list[Declared] = list(game.involvement_catalogue())
    labels = {(d.kind, d.name): d.label for d in catalogue}
    named = [(d.kind, d.name) for d in (find_entry(catalogue, text) for text in depth.entries)]
    entries = list(dict.fromkeys([*named, *top_entries(cards, depth.top)]))
    matches = matches_for(depth, agent, entries, seats)
    job = DepthJob(game_id, tuple(sorted(options.items())), tuple(matches), seed, depth.games, setups)
    total = len(matches) * depth.games
    rows: dict[int, dict[str, Any]] = {}

    def on_results(results: list[tuple[int, dict[str, Any]]]) -> None:
        rows.update(results)
        if progress is not None:
            progress(len(rows), total)

    if progress is not None:
        progress(0, total)
    runner.run(play_depth_chunk, job, range(total), on_results, backend=backend, jobs=jobs, address=address)
    number = {(d.kind, d.name): i for i, d in enumerate(catalogue)}

    shares = [
        measured_shares([rows[m * depth.games + i] for i in range(depth.games)], seats) for m in range(len(matches))
    ]
    mirror_shares = next((sh for sh, match in zip(shares, matches) if match.what == "mirror"), {})
    ladder: list[dict[str, Any]] = []
    restricted: list[dict[str, Any]] = []
    luck: dict[str, Any] | None = None
    mirror: dict[str, Any] | None = None
    for m, match in enumerate(matches):
        games, score, ci = score_of(shares[m])
        if match.what == "ladder":
            _, budget = budget_of(match.agents[0])
            ladder.append(
                {
                    "agent": match.agents[0],
                    "budget": budget,
                    "opponent": match.agents[1],
                    "games": games,
                    "score": score,
                    "ci": ci,
                }
            )
        elif match.what == "mirror":
            mirror = {"agent": agent, "games": games, "score": score, "ci": ci}
        elif match.what == "restricted":
            assert match.restrict is not None
            kind, name = match.restrict
            code = number[(kind, name)]
            used_anyway = sum(
                1
                for i in range(depth.games)
                if (r := rows[m * depth.games + i])["error"] is None
                and any(e == code for e, _ in r["used"][(-r["index"]) % seats])
            )
            drop = paired_drop(mirror_shares, shares[m])
            row: dict[str, Any] = {
                "kind": kind,
                "name": name,
                "label": labels.get((kind, name), name),
                "agent": match.agents[0],
                "games": games,
                "score": score,
                "ci": ci,
                "importance": None if drop is None else drop[0],
                "importance_ci": None if drop is None else drop[1],
                "used_anyway": used_anyway,
            }
            row["verdict"] = "" if drop is None else importance_verdict(row)
            restricted.append(row)
        else:
            index = None if score is None else _r(score / fair, 3)
            luck = {
                "agent": agent,
                "opponent": RANDOM,
                "games": games,
                "score": score,
                "ci": ci,
                "fair": _r(fair),
                "index": index,
                "index_ci": None if ci is None else [_r(ci[0] / fair, 3), _r(ci[1] / fair, 3)],
            }
            luck["verdict"] = "" if ci is None else luck_verdict(luck)
    restricted.sort(key=lambda r: (r["importance"] is None, -(r["importance"] or 0.0), r["kind"], r["name"]))
    return {
        "games": depth.games,
        "fair": _r(fair),
        "ladder": ladder,
        "ladder_verdict": ladder_verdict(ladder, fair) if ladder else "",
        "restricted": restricted,
        "mirror": mirror,
        "luck": luck,
        "first_player": first_player_verdict(first_player, fair),
        "method": METHOD,
    }


def add_depth(
    data: dict[str, Any],
    the_plan: Plan,
    depth: DepthPlan,
    *,
    backend: runner.Backend | str = runner.Backend.PROCESS,
    jobs: int | None = 1,
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Measure depth and luck for a report already computed (``data``, report.json's object, from ``the_plan``):
    set its ``depth`` key and add the time taken to its ``elapsed_s``. Returns ``data``."""
    start = time.perf_counter()
    variant = data["variants"][0]
    data["depth"] = measure(
        the_plan.game_id,
        the_plan.options,
        the_plan.agents,
        the_plan.seed,
        depth,
        variant["cards"],
        variant["first_player"],
        setups=the_plan.setups,
        backend=backend,
        jobs=jobs,
        address=address,
        progress=progress,
    )
    data["elapsed_s"] = round(data.get("elapsed_s", 0.0) + time.perf_counter() - start, 1)
    return data
