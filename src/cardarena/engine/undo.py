"""Taking an action back: the kernel's one undo service, shared by the terminal, the browser and programs.

The policy (DESIGN.md, "Undo"; the one Board Game Arena uses): a seat may take back its own last action only
while no other seat has acted since, no randomness was consumed and nothing hidden was revealed to anyone by
it. The point is that an undo must never let a seat learn something and then choose differently; so the kernel
decides it from the state protocol alone, with no per-game bookkeeping:

1. **Whose action.** The last action of the history was taken by the seat asking (``current_player`` of the state
   before it). Any later action, by any seat, makes it the other seat's last action, so "no other seat has acted
   since" needs no separate check. A finished game is never taken back.
2. **Nothing unseen since.** The verdict may not tell a seat about actions it cannot see (Laplaplace's secret
   build: the other seat's ``add`` is not seen, not even in number). So a seat may take its action back only if
   the seat to act after it is itself, or a seat whose every action it would see happen: once another seat may act
   unseen, the seat could not tell whether it has, and the action stands. And when the last action is one the
   asking seat did not see happen (``action_seen_by`` empty, its observation unchanged), the seat gets the verdict
   of the position before that action, which it cannot tell from this one: the same words either way.
3. **No chance.** Every :class:`~cardarena.engine.Rng` among the state's declared ``FIELDS`` is where it was before
   the action (a shuffle, a die, a random pick all advance it).
4. **Nothing revealed.** For every seat ``t`` (the actor too: drawing a card shows it the card) the kernel draws
   worlds that ``t`` cannot tell from the state before the action (``resample(t, ...)``), takes in each world the
   action that looks to ``t`` as the true one did (``action_seen_by``: the true action itself for the actor), and
   requires that ``t`` then sees exactly what it sees in the true game: the same ``observation(t)`` and the same
   ``narrate`` lines. An action whose outcome depends on anything ``t`` could not see (a card drawn, a face-down
   card turned up, a battle resolved) differs in some world and is refused; so is an action that shows ``t`` a
   card of the actor (no world where the actor lacks the card has a matching action). The actor is checked in the
   true position; every other seat in a few worlds of the actor (``ACTOR_WORLDS``), never in the true position,
   since whether an action shows another seat something may hang on that seat's own hidden cards, and a verdict
   read from them would tell the actor about them through the Undo button itself: so the verdict is a function
   of what the actor knows (tests/engine/test_undo.py checks it from worlds resampled for the actor). Spectators
   are not checked: they never choose, so nothing they learn can change a choice.
5. **The game's own word.** :meth:`Game.undo_refusal` may refuse more (never fewer) takebacks; the default adds
   nothing.

The worlds are drawn from a seed made of public facts only (the ply and the seat), so the verdict is the same in
every face and every run. An undo restores the exact prior state: it is rebuilt from the record (seed and every
action but the last), so the record after an undo is the record of a game in which the action was never taken.

>>> from cardarena.engine import load
>>> state = load("torabato").new_initial_state(seed=1)
>>> undo_refusal(state, 0)
'there is no action to take back'
"""

from __future__ import annotations

from typing import Any

from .actions import Action
from .errors import RulesError
from .game import State
from .rng import Rng, derive_seed

#: Worlds drawn per seat to look for a reveal. Most reveals show in nearly every world (a drawn card, a turned
#: card); some only in the worlds where the actor could not have taken an action that looks the same (a card set
#: face down in a zone tells that the hand held a card for that zone): a reveal that shows in a share p of the
#: worlds is missed with probability (1 - p)^24. Measured: 0.5-40 ms a check (Tash-Kalar with 4 seats the most)
#: when every seat was checked in the true position; the other seats' part now runs in ``ACTOR_WORLDS`` worlds.
UNDO_WORLDS = 24
_TAG_UNDO = 0x756E646F  # "undo": the derive_seed path of the worlds
_TAG_ACTOR = 0x61637472  # "actr": the actor's worlds in which the other seats are checked
#: Worlds of the actor in which the other seats are checked for a reveal (see :func:`undo_refusal`).
ACTOR_WORLDS = 3


class UndoRefused(RulesError):
    """An undo that the policy does not allow; ``reason`` says why in plain words. Nothing is changed."""

    def __init__(self, seat: int | None, reason: str) -> None:
        self.seat = seat
        self.reason = reason
        super().__init__(f"seat {seat} cannot take its last action back: {reason}")


def prior_state(state: State) -> State:
    """The state before ``state``'s last action, rebuilt from its record (seed and every action but the last):
    the exact position, chance included. ``UndoRefused`` when there is no action or no record."""
    if state._no_record is not None:
        raise UndoRefused(state.current_player, f"this position has no record ({state._no_record})")
    if not state.history:
        raise UndoRefused(state.current_player, "there is no action to take back")
    before = state.game.new_initial_state(state.seed)
    for action in state.history[:-1]:
        before.apply_legal(action)  # these actions were checked when they were taken
    return before


def undo_refusal(state: State, seat: int, *, before: State | None = None, worlds: int = UNDO_WORLDS) -> str | None:
    """Why ``seat`` may not take back the last action of ``state`` (plain words), or ``None`` when it may.

    ``before``: the state before that action, when the caller kept it (a server keeps it); otherwise it is rebuilt
    from the record. Neither state is changed.
    """
    reason = _plain_refusal(state)
    if reason is not None:
        return reason
    if before is None:
        before = prior_state(state)
    elif before.history != state.history[:-1]:
        raise ValueError("undo_refusal: 'before' is not the state before the last action of 'state'")
    actor = before.current_player
    action = state.history[-1]
    if actor != seat:
        if actor is not None and _unseen(before, action, state, seat):
            # ``seat`` did not see this action happen: it cannot tell this position from the one before it, so its
            # verdict is the one it had there (the rule below makes that a refusal when it was its own action)
            return undo_refusal(before, seat)
        who = "another seat" if actor is None else f"seat {actor}"
        return f"the last action was taken by {who}: only your own last action can be taken back, before anyone acts"
    hidden_from = _may_act_unseen(state, actor)
    if hidden_from is not None:
        return (
            f"after {action} seat {hidden_from} acts, and you would not see everything it may do: you could not tell "
            "whether it has acted, so your action cannot be taken back"
        )
    if _chance_used(before, state):
        return f"{action} drew on chance (a shuffle, a die or a random pick): its outcome is known now"
    own = state.game.undo_refusal(before, action, state)
    if own is not None:
        return own
    ply = len(before.history)
    revealed = _reveals_to(before, action, state, actor, worlds, ply)
    if revealed is not None:
        return revealed
    # The other seats are checked in worlds of the actor, not in the true position: whether an action shows
    # another seat something can hang on that seat's own hidden cards, and a verdict read from them would tell the
    # actor about them through the Undo button itself. In a world the actor cannot tell from the truth, its action
    # is legal (it chose it on what it sees); the verdict is then a function of what the actor knows alone.
    rng = Rng(derive_seed(_TAG_UNDO, ply, actor, _TAG_ACTOR))
    for _ in range(ACTOR_WORLDS):
        world = before.resample(actor, rng.fork())
        if action not in world.legal_actions():
            return f"{action} hangs on something you could not see"
        outcome = world.clone()
        outcome.apply_legal(action)
        for t in range(state.game.num_players):
            if t != actor:
                revealed = _reveals_to(world, action, outcome, t, worlds, ply)
                if revealed is not None:
                    return revealed
    return None


def _plain_refusal(state: State) -> str | None:
    """The refusals that need no look at the action: no record, no action, the game over."""
    if state._no_record is not None:
        return f"this position has no record ({state._no_record})"
    if not state.history:
        return "there is no action to take back"
    if state.is_terminal():
        return "the game is over"
    return None


def can_undo(state: State, seat: int, *, before: State | None = None) -> bool:
    """Whether ``seat`` may take back the last action of ``state`` (see :func:`undo_refusal`)."""
    return undo_refusal(state, seat, before=before) is None


def undo(state: State, seat: int, *, before: State | None = None) -> State:
    """The state before the last action of ``state``, when ``seat`` may take that action back; otherwise
    :class:`UndoRefused` with the reason. ``state`` itself is left as it is (callers swap in the result)."""
    reason = _plain_refusal(state)
    if reason is None:
        before = prior_state(state) if before is None else before
        reason = undo_refusal(state, seat, before=before)
    if reason is not None:
        raise UndoRefused(seat, reason)
    assert before is not None
    return before.clone()


# -- the checks -----------------------------------------------------------------------------------------------
def _rngs(state: State) -> list[int]:
    """The position of every random generator among the state's declared fields."""
    out = []
    for f in type(state).FIELDS:
        value = getattr(state, f.name, None)
        if isinstance(value, Rng):
            out.append(value.state)
    return out


def _chance_used(before: State, after: State) -> bool:
    return _rngs(before) != _rngs(after)


def _seen(state: State, seat: int, narration: list[str]) -> tuple[Any, ...]:
    return (state.observation(seat), narration)


def _unseen(before: State, action: Action, after: State, seat: int) -> bool:
    """Whether ``seat``, not the actor, does not see ``action`` (taken in ``before``, giving ``after``) happen at
    all: no line of it (``action_seen_by`` empty), nothing narrated, its observation unchanged."""
    game = before.game
    if game.action_seen_by(before, action, seat):
        return False
    return _seen(after, seat, game.narrate(before, action, after, seat)) == _seen(before, seat, [])


def _may_act_unseen(state: State, seat: int) -> int | None:
    """The seat to act in ``state`` when it is not ``seat`` and has a legal action that ``seat`` would not see
    happen (:func:`_unseen`); else ``None``. The actions that show ``seat`` a line are not tried."""
    to_act = state.current_player
    if to_act is None or to_act == seat:
        return None
    game = state.game
    for action in state.legal_actions():
        if not game.action_seen_by(state, action, seat):
            after = state.clone()
            after.apply_legal(action)
            if _unseen(state, action, after, seat):
                return to_act
    return None


def _reveals_to(before: State, action: Action, after: State, seat: int, worlds: int, ply: int) -> str | None:
    """Why ``action`` (taken in ``before``, giving ``after``, the game's action number ``ply``) shows ``seat``
    something it could not see, or ``None``."""
    game = before.game
    actor = before.current_player
    truth = _seen(after, seat, game.narrate(before, action, after, seat))
    looks = None if seat == actor else game.action_seen_by(before, action, seat)
    if looks == "" and truth == _seen(before, seat, []):
        return None  # the seat did not see the action happen at all: it learnt nothing from it
    rng = Rng(derive_seed(_TAG_UNDO, ply, seat))
    whom = "you" if seat == actor else f"seat {seat}"
    for _ in range(worlds):
        world = before.resample(seat, rng.fork())
        taken = _matching(world, action, seat, looks)
        if taken is None:
            return f"{action} showed {whom} something that was hidden before it"
        outcome = world.clone()
        outcome.apply_legal(taken)
        if _seen(outcome, seat, game.narrate(world, taken, outcome, seat)) != truth:
            return f"{action} showed {whom} something that was hidden before it"
    return None


def _matching(world: State, action: Action, seat: int, looks: str | None) -> Action | None:
    """The action of ``world`` that looks to ``seat`` as the true action did: the action itself for the actor
    (``looks`` is ``None``), else the action itself when it is legal and looks alike, else the first legal action
    that looks alike; ``None`` when there is none (the action's look told ``seat`` something)."""
    legal = world.legal_actions()
    if looks is None:
        return action if action in legal else None
    game = world.game
    if action in legal and game.action_seen_by(world, action, seat) == looks:
        return legal[legal.index(action)]
    for other in legal:
        if game.action_seen_by(world, other, seat) == looks:
            return other
    return None
