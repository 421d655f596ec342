"""``hint`` and ``odds`` in ``cardarena play`` (issue 14 point 7), computed from the person's seat view only.

Both read the position only through a :class:`SeatView` (its observation, legal actions and ``resample``), so they
are functions of what the seat knows and of the seed they are given: the same from the true state as from any
resample of it for that seat (tests check it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ..agents import SeatView, make_agent
from ..engine import Action, Rng, State, derive_seed

DEFAULT_HINT = "ismcts:iterations=400"
ODDS_WORLDS = 300
TOP_HINTS = 3
MAX_VALUES = 5  # values shown per fact; the rest are summed as "other"


def hint_lines(
    state: State, seat: int, *, spec: str, seed: int, code_of: Callable[[Action], str] | None = None
) -> list[str]:
    """What the agent ``spec`` would play for ``seat``: its top actions with their share of the search's visits
    and the estimated win rate, when the agent reports its search (``stats()``), else its choice alone."""
    view = SeatView(state, seat)
    legal = view.legal_actions()
    if not legal:
        return ["hint: it is not your turn."]
    agent = make_agent(spec, seed)
    choice = agent.act(view)
    stats = getattr(agent, "stats", None)
    rows: list[tuple[Action, int, float]] = stats() if callable(stats) else []
    code = code_of or (lambda _a: "")
    if not rows:
        return [f"hint from {spec}: {_coded(choice, code)}"]
    total = sum(visits for _, visits, _ in rows) or 1
    two = state.game.num_players == 2
    what = "estimated win rate = (mean return + 1) / 2" if two else "mean return in [-1, 1]"
    out = [f"hint from {spec} (share of the search's visits; {what}):"]
    for k, (action, visits, mean) in enumerate(rows[:TOP_HINTS], 1):
        value = f"win rate {(mean + 1) / 2:.0%}" if two else f"mean return {mean:+.2f}"
        out.append(f"  {k}. {_coded(action, code)} — {visits / total:.0%} of visits, {value}")
    return out


def _coded(action: Action, code: Callable[[Action], str]) -> str:
    number = code(action)
    return f"{action} [{number}]" if number else str(action)


def odds_lines(state: State, seat: int, *, seed: int, worlds: int = ODDS_WORLDS) -> list[str]:
    """The game's hidden facts (``Game.hidden_facts``) tallied over ``worlds`` resamples for ``seat``: one line
    per fact, most likely values first."""
    view = SeatView(state, seat)
    game = state.game
    tally: dict[str, Counter[str]] = {}
    for i in range(worlds):
        world = view.resample(Rng(derive_seed(seed, i)))
        for fact, value in game.hidden_facts(world, seat).items():
            tally.setdefault(fact, Counter())[str(value)] += 1
    if not tally:
        return [f"odds: {game.name} declares no hidden facts to estimate (Game.hidden_facts) at this point."]
    out = [f"odds from {worlds} worlds consistent with what you know:"]
    for fact, counts in tally.items():
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        shown = [f"{value} {n / worlds:.0%}" for value, n in ranked[:MAX_VALUES]]
        rest = sum(n for _, n in ranked[MAX_VALUES:]) + worlds - sum(counts.values())
        if rest:
            shown.append(f"other or none {rest / worlds:.0%}")
        out.append(f"  {fact}: {', '.join(shown)}")
    return out
