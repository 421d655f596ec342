"""``hint`` and ``odds`` at the browser's table (issue 28, point 9): the terminal's ``:hint`` and ``:odds``
(both computed by :mod:`cardarena.agents.advice`) as data for the page, from the seat's own view only.

Both read the position only through a :class:`SeatView` (its legal actions and ``resample``), so what they answer is
a function of what the seat knows and of the seed they are given: the same from the true state as from any world
resampled for the seat (tests/web/test_server_advice.py checks it at the wire). They run in the AI worker pool
(:func:`cardarena.web.ai.think` with a job whose ``purpose`` is ``hint`` or ``odds``), never on the event loop, under
the same budget per decision as an AI seat's move.
"""

from __future__ import annotations

from typing import Any

from ..agents import advice
from ..agents.advice import DEFAULT_HINT, ODDS_WORLDS
from ..engine import Action, Game, State, derive_seed

#: The search a hint asks: the terminal's ``:hint`` default (``cardarena play --hint``), about half a second.
HINT_SPEC = DEFAULT_HINT
#: derive_seed paths of a hint's and the odds' seeds ("hint", "odds", as the terminal's)
TAG_HINT = 0x68696E74
TAG_ODDS = 0x6F646473


def advice_seed(game_seed: int, tag: int, seat: int, ply: int) -> int:
    """The seed of a hint or the odds for ``seat`` at its ``ply`` (the length of its own log, which it knows; never
    the total number of actions, which may count actions hidden from it). The same question at the same point
    gets the same answer, so asking again gains nothing."""
    return derive_seed(game_seed, tag, seat, ply)


def has_odds(game: Game) -> bool:
    """Whether ``game`` declares hidden facts to give odds on (it overrides ``Game.hidden_facts``)."""
    return type(game).hidden_facts is not Game.hidden_facts


def label(state: State, action: Action) -> str:
    """The action in the words of the table's list of choices (``choice_label``: its group and detail)."""
    group, detail = state.game.choice_label(state, action)
    return f"{group}: {detail}" if detail else group


def hint(state: State, seat: int, *, spec: str = HINT_SPEC, seed: int) -> dict[str, Any]:
    """What the search ``spec`` would play for ``seat`` (to act in ``state``): its top actions with their share of
    the search's visits and the estimated result, as ``{"rows": [...], "players": n}``. A row is ``{"action",
    "label", "share", "win", "mean"}``: ``win`` is the estimated chance to win ((mean return + 1) / 2) in a
    two-player game, ``None`` otherwise; ``mean`` the mean return in [-1, 1]. An agent without search statistics
    gives its choice alone (share 1, no estimate)."""
    found = advice.hint(state, seat, spec=spec, seed=seed)
    if found is None:
        raise ValueError(f"seat {seat} is not to act")
    rows: list[tuple[Action, int, float | None]] = list(found.top) or [(found.choice, 1, None)]
    total = found.visits if found.rows else 1
    two = state.game.num_players == 2
    out = []
    for action, visits, mean in rows:
        out.append(
            {
                "action": str(action),
                "label": label(state, action),
                "share": round(visits / total, 3),
                "win": None if mean is None or not two else round((mean + 1) / 2, 3),
                "mean": None if mean is None else round(mean, 3),
            }
        )
    return {"rows": out, "players": state.game.num_players}


def odds(
    state: State, seat: int, *, seed: int, worlds: int = ODDS_WORLDS, budget: float | None = None
) -> dict[str, Any]:
    """The game's hidden facts (``Game.hidden_facts``) tallied over ``worlds`` resamples for ``seat``: ``{"worlds":
    drawn, "facts": [{"fact", "values": [{"value", "share"}], "other"}]}``, most likely values first, at most
    :data:`~cardarena.agents.advice.MAX_VALUES` each (``other``: the share of the rest and of the worlds where the
    fact was not declared). With a ``budget`` (seconds) it stops drawing by then and tallies the worlds drawn so
    far."""
    found = advice.odds(state, seat, seed=seed, worlds=worlds, budget=budget)
    facts = []
    for fact in found.tally:
        ranked, rest = found.ranked(fact)
        values = [{"value": value, "share": round(n / found.worlds, 3)} for value, n in ranked]
        facts.append({"fact": fact, "values": values, "other": round(rest / found.worlds, 3)})
    return {"worlds": found.worlds, "facts": facts}
