"""``hint`` and ``odds`` in ``cardarena play`` (issue 14 point 7), computed from the person's seat view only.

Both read the position only through a :class:`SeatView` (its observation, legal actions and ``resample``), so they
are functions of what the seat knows and of the seed they are given: the same from the true state as from any
resample of it for that seat (tests check it).
"""

from __future__ import annotations

from collections.abc import Callable

from ..agents import advice
from ..agents.advice import DEFAULT_HINT, ODDS_WORLDS
from ..engine import Action, State

__all__ = ["DEFAULT_HINT", "ODDS_WORLDS", "hint_lines", "odds_lines"]


def hint_lines(
    state: State, seat: int, *, spec: str, seed: int, code_of: Callable[[Action], str] | None = None
) -> list[str]:
    """What the agent ``spec`` would play for ``seat``: its top actions with their share of the search's visits
    and the estimated win rate, when the agent reports its search (``stats()``), else its choice alone."""
    found = advice.hint(state, seat, spec=spec, seed=seed)
    if found is None:
        return ["hint: it is not your turn."]
    code = code_of or (lambda _a: "")
    if not found.rows:
        return [f"hint from {spec}: {_coded(found.choice, code)}"]
    two = state.game.num_players == 2
    what = "estimated win rate = (mean return + 1) / 2" if two else "mean return in [-1, 1]"
    out = [f"hint from {spec} (share of the search's visits; {what}):"]
    for k, (action, visits, mean) in enumerate(found.top, 1):
        value = f"win rate {(mean + 1) / 2:.0%}" if two else f"mean return {mean:+.2f}"
        out.append(f"  {k}. {_coded(action, code)} — {visits / found.visits:.0%} of visits, {value}")
    return out


def _coded(action: Action, code: Callable[[Action], str]) -> str:
    number = code(action)
    return f"{action} [{number}]" if number else str(action)


def odds_lines(state: State, seat: int, *, seed: int, worlds: int = ODDS_WORLDS) -> list[str]:
    """The game's hidden facts (``Game.hidden_facts``) tallied over ``worlds`` resamples for ``seat``: one line
    per fact, most likely values first."""
    found = advice.odds(state, seat, seed=seed, worlds=worlds)
    if not found.tally:
        return [f"odds: {state.game.name} declares no hidden facts to estimate (Game.hidden_facts) at this point."]
    out = [f"odds from {worlds} worlds consistent with what you know:"]
    for fact in found.tally:
        ranked, rest = found.ranked(fact)
        shown = [f"{value} {n / worlds:.0%}" for value, n in ranked]
        if rest:
            shown.append(f"other or none {rest / worlds:.0%}")
        out.append(f"  {fact}: {', '.join(shown)}")
    return out
