"""Post-game analysis: how much each decision of a seat cost, as the strongest agent estimates it from that seat's
information only.

For one decision (:func:`analyse_decision`) the analyst, a search agent (``expert`` by default; any ISMCTS agent
spec), searches the position from a :class:`~cardarena.agents.base.SeatView` of the deciding seat, exactly as it
would to play: every world it searches comes from ``view.resample``, so the true hidden cards (the opponents'
hands, the order of the decks) never enter it, and two games the seat could not tell apart get the same analysis.
A win probability is ``(mean return + 1) / 2`` of the seat at the root (returns are +1 a win, -1 a loss, 0 a draw).

* The move the search chooses is its *best* move; the move *played* is what the record says.
* When they are the same move, both probabilities are that root child's.
* When they differ, the played move may have had few visits in the search (UCB spends little on a move it thinks
  poor), so each of the two is estimated again by a search of its own with the whole budget and the root restricted
  to that one move (the replies below it searched as usual). The better estimate of the two is the best move: the
  search may find on a closer look that the move played was as good.
* The *swing* is ``p(best) - p(played)`` (never negative): what the decision cost in win probability. A decision
  with a swing of :data:`MISTAKE` or more is a mistake; the :data:`BIGGEST` largest swings of each seat (of a point
  at least) are its biggest mistakes.

A forced decision (one choice) is listed but not estimated. Same agent spec, seed and iteration budget give the
same analysis (a ``seconds`` budget does not).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..engine import Action, Game, State, derive_seed, playout_choices
from ..engine.errors import OptionError
from ..engine.options import resolve_options
from ..engine.records import replay
from .base import SeatView
from .ismcts import ISMCTSAgent
from .registry import AGENTS, make_agent, parse_spec

#: The analyst when none is named: the strongest agent (the search with the game's learned evaluation).
DEFAULT_AGENT = "expert"
#: A decision whose swing is at least this much win probability is a mistake.
MISTAKE = 0.10
#: How many of a seat's largest swings are flagged as its biggest mistakes.
BIGGEST = 3
#: The least swing counted among a seat's biggest mistakes (one point of win probability: less is noise).
NOTABLE = 0.01
#: Alternatives of each decision kept in the analysis (the search's root, most visited first).
ALTERNATIVES = 3


@dataclass(frozen=True)
class Alternative:
    """One move of the search's root: the action's text, as the seat reads it, visits and win probability."""

    action: str
    text: str
    visits: int
    p: float


@dataclass
class Decision:
    """One decision of a seat: the position is the state after ``ply`` actions of the record."""

    ply: int
    turn: int
    seat: int
    played: str  # the action's text in the record
    played_text: str  # the action as the seat reads it
    best: str
    best_text: str
    choices: int  # the legal moves the seat had
    p_played: float | None = None  # None: a forced move, not estimated
    p_best: float | None = None
    visits_played: int = 0
    visits_best: int = 0
    swing: float = 0.0
    mistake: bool = False
    biggest: bool = False
    alternatives: list[Alternative] = field(default_factory=list)

    @property
    def forced(self) -> bool:
        return self.p_played is None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["forced"] = self.forced
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Decision:
        fields = {k: v for k, v in data.items() if k not in ("forced", "alternatives")}
        return cls(**fields, alternatives=[Alternative(**a) for a in data.get("alternatives", [])])


def win_probability(mean_return: float) -> float:
    """``(mean return + 1) / 2``, within [0, 1]."""
    return min(1.0, max(0.0, (mean_return + 1.0) / 2.0))


def analyst(spec: str, seed: int = 0) -> ISMCTSAgent:
    """The agent of ``spec`` if it can analyse: a fair search agent whose root can be read (``ismcts``, ``expert``);
    ``OptionError`` otherwise (``mcts`` sees the hidden cards; ``random``, ``heuristic``, ``flatmc`` have no root
    to read)."""
    agent = make_agent(spec, seed)
    if agent.cheats:
        raise OptionError(f"agent {spec!r} reads the hidden cards: an analysis must use a seat's information only")
    if not isinstance(agent, ISMCTSAgent):
        raise OptionError(f"agent {spec!r} cannot analyse: use a search agent (expert or ismcts)")
    return agent


_FOCUSED: dict[type, type] = {}


def _focused(cls: type[ISMCTSAgent]) -> type[ISMCTSAgent]:
    """``cls`` whose root searches only the moves in its ``focus`` attribute (the replies below as usual)."""
    if cls not in _FOCUSED:

        def _root_candidates(self: Any, view: SeatView, legal: list[Action]) -> frozenset[Action] | None:
            return frozenset(self.focus)

        attrs = {"_root_candidates": _root_candidates, "__module__": __name__}
        _FOCUSED[cls] = type(f"Focused{cls.__name__}", (cls,), attrs)
    return _FOCUSED[cls]


def _root(agent: ISMCTSAgent) -> dict[Action, tuple[int, float]]:
    return {a: (visits, mean) for a, visits, mean in agent.stats()}


def estimate(spec: str, view: SeatView, action: Action, seed: int) -> tuple[float, int]:
    """The win probability of playing ``action`` from ``view`` and the iterations behind it: a search of ``spec``
    whose root has that move only (its whole budget goes to it; the replies below are searched as usual). A move
    playouts leave out (a resignation) is scored by the end it makes. ``view`` must offer two moves at least."""
    legal = playout_choices(view.game, view.legal_actions())
    if action not in legal:  # resigning: play it in a world the seat cannot tell from this one and read the end
        world = view.resample(derive_seed(seed, 1))
        world.apply(action)
        if world.is_terminal():
            return win_probability(world.returns()[view.seat]), 1
        raise ValueError(f"cannot estimate {action}: it is not a move a search plays")
    name, params = parse_spec(spec)
    cls = AGENTS[name]
    assert issubclass(cls, ISMCTSAgent)
    values = resolve_options(cls.params, params, game_id=f"agent {name!r}")
    agent: Any = _focused(cls)(seed, **values)
    agent.focus = (action,)
    agent.act(view)
    visits, mean = _root(agent).get(action, (0, 0.0))
    return win_probability(mean), visits


def analyse_decision(view: SeatView, played: Action, *, agent: str = DEFAULT_AGENT, seed: int = 0) -> Decision:
    """The analysis of the decision ``view``'s seat faces, where ``played`` was played. Only ``view`` is read:
    its observation, legal moves and resampled worlds (``ply`` and ``turn`` of the result are left 0 for the
    caller to fill in)."""
    game = view.game
    seat = view.seat
    legal = view.legal_actions()
    if played not in legal:
        raise ValueError(f"{played} is not a legal move of seat {seat} here")
    said = game.action_seen_by  # how the seat reads its own moves (what it may know)
    state_for_text = view.resample(derive_seed(seed, 2))  # texts of the seat's own moves, read in a world it knows
    text = said(state_for_text, played, seat)
    decision = Decision(0, 0, seat, str(played), text, str(played), text, len(legal))
    if len(playout_choices(game, legal)) == 1:
        return decision  # forced (resigning, where it is the only other move, is not weighed)
    main = analyst(agent, derive_seed(seed, 0))
    chosen = main.act(view)
    root = _root(main)
    decision.alternatives = [
        Alternative(str(a), said(state_for_text, a, seat), visits, win_probability(mean))
        for a, visits, mean in main.stats()[:ALTERNATIVES]
    ]
    if chosen == played and played in root:
        visits, mean = root[played]
        decision.p_played = decision.p_best = win_probability(mean)
        decision.visits_played = decision.visits_best = visits
        return decision
    p_played, n_played = _or_root(estimate(agent, view, played, derive_seed(seed, 3)), root, played)
    p_chosen, n_chosen = (
        _or_root(estimate(agent, view, chosen, derive_seed(seed, 4)), root, chosen)
        if chosen != played
        else (p_played, n_played)
    )
    if not n_chosen:  # nothing searched (a time limit imposed on the analysis passed): no swing to tell
        p_chosen = p_played
    if not n_played:
        p_played = p_chosen
    decision.p_played, decision.visits_played = p_played, n_played
    if p_chosen > p_played:
        decision.best, decision.best_text = str(chosen), said(state_for_text, chosen, seat)
        decision.p_best, decision.visits_best = p_chosen, n_chosen
        decision.swing = round(p_chosen - p_played, 6)
    else:
        decision.p_best, decision.visits_best = p_played, n_played
    return decision


def _or_root(found: tuple[float, int], root: dict[Action, tuple[int, float]], action: Action) -> tuple[float, int]:
    """An estimate, or where its search did not finish an iteration (a time limit imposed on the analysis, as the
    web server does, passed) the main search's root child, if it has one."""
    if found[1] or action not in root:
        return found
    visits, mean = root[action]
    return win_probability(mean), visits


# -- a whole record ---------------------------------------------------------------------------------------------
def positions(record: dict[str, Any] | str | Path, seats: Iterable[int] | None = None) -> Iterator[tuple[int, State]]:
    """``(ply, state)`` for every decision of ``seats`` (all when ``None``) in ``record``: the state before the
    action at ``ply`` (a copy the caller may keep). The final state is replayed first, so a bad record raises
    ``RecordError`` before anything is analysed."""
    final = replay(record)
    wanted = None if seats is None else set(seats)
    state = final.game.new_initial_state(final.seed)
    for ply, action in enumerate(final.history):
        mover = state.current_player
        if mover is not None and (wanted is None or mover in wanted):
            yield ply, state.clone()
        state.apply(action)


@dataclass
class GameAnalysis:
    """The analysis of a record for some seats: every decision, and each seat's summary."""

    game: str
    agent: str
    model: str | None
    seed: int
    seats: list[int]
    decisions: list[Decision]
    result: list[float] | None = None

    def of(self, seat: int) -> list[Decision]:
        return [d for d in self.decisions if d.seat == seat]

    def summary(self, seat: int) -> dict[str, Any]:
        """A seat's decisions, forced ones, mistakes, the mean swing and the biggest mistakes (plies)."""
        mine = self.of(seat)
        estimated = [d for d in mine if not d.forced]
        mean = sum(d.swing for d in estimated) / len(estimated) if estimated else 0.0
        return {
            "decisions": len(mine),
            "forced": len(mine) - len(estimated),
            "mistakes": sum(d.mistake for d in mine),
            "mean_swing": round(mean, 4),
            "total_swing": round(sum(d.swing for d in estimated), 4),
            "biggest": [d.ply for d in sorted(mine, key=lambda d: -d.swing) if d.biggest],
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "agent": self.agent,
            "model": self.model,
            "seed": self.seed,
            "mistake": MISTAKE,
            "result": self.result,
            "seats": self.seats,
            "summary": {str(s): self.summary(s) for s in self.seats},
            "decisions": [d.to_json() for d in self.decisions],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameAnalysis:
        return cls(
            data["game"],
            data["agent"],
            data.get("model"),
            data["seed"],
            list(data["seats"]),
            [Decision.from_json(d) for d in data["decisions"]],
            data.get("result"),
        )


def flag(decisions: list[Decision]) -> None:
    """Mark mistakes (swing >= :data:`MISTAKE`) and each seat's :data:`BIGGEST` largest swings (of
    :data:`NOTABLE` or more)."""
    for d in decisions:
        d.mistake = d.swing >= MISTAKE
        d.biggest = False
    for seat in {d.seat for d in decisions}:
        ranked = sorted(
            (d for d in decisions if d.seat == seat and d.swing >= NOTABLE), key=lambda d: (-d.swing, d.ply)
        )
        for d in ranked[:BIGGEST]:
            d.biggest = True


def analyse_position(state: State, ply: int, action: Action, *, agent: str, seed: int) -> Decision:
    """One decision of a record: the state before it (only its seat's view is handed on), the ply and the move."""
    seat = state.current_player
    assert seat is not None
    decision = analyse_decision(SeatView(state, seat), action, agent=agent, seed=derive_seed(seed, ply))
    decision.ply, decision.turn = ply, state.turn
    return decision


def analyse_record(
    record: dict[str, Any] | str | Path,
    *,
    seats: Iterable[int] | None = None,
    agent: str = DEFAULT_AGENT,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> GameAnalysis:
    """Every decision of ``seats`` (all when ``None``) in ``record``, analysed by ``agent``; ``progress(done,
    total)`` after each."""
    analyst(agent)  # a bad spec fails before the replay
    final = replay(record)
    todo = list(positions(record, seats))
    decisions: list[Decision] = []
    for done, (ply, state) in enumerate(todo, 1):
        decisions.append(analyse_position(state, ply, final.history[ply], agent=agent, seed=seed))
        if progress is not None:
            progress(done, len(todo))
    flag(decisions)
    model = model_name(agent, final.game)
    chosen = sorted(range(final.game.num_players) if seats is None else set(seats))
    result = final.returns() if final.is_terminal() else None
    return GameAnalysis(final.game.id, agent, model, seed, chosen, decisions, result)


def model_name(spec: str, game: Game) -> str | None:
    """The learned model the analyst uses for ``game`` (``None``: the game's hand-written evaluation)."""
    agent = analyst(spec)
    settings = getattr(agent, "settings", None)
    if settings is None:
        return None
    from .expert import model_for  # the expert's models (only for an expert analyst)

    net = model_for(game, getattr(agent, "model_file", None))
    return None if net is None else str(net.meta.get("key", "model"))
