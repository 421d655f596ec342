"""``cardarena replay FILE --step``: a record's positions one by one, as one seat (or a spectator) saw them."""

from __future__ import annotations

import click

from ..engine import State
from .screen import Prompt, Screen, board_lines

NEXT = "-- Enter: next action, q: stop --"


def step_through(final: State, seat: int | None, screen: Screen, *, ask: Prompt | None) -> int:
    """Show every position of the game that led to ``final`` (a replayed record) as ``seat`` saw it (``None``:
    a spectator): the board, then for each action it saw, the action and its outcomes (``Game.narrate``) and the
    board after it, lines changed highlighted. Actions the seat did not see are not shown (not even counted).
    With ``ask`` (a terminal) it waits for Enter after each position; ``q`` or the end of input stops. Returns
    the number of actions shown."""
    game = final.game
    state = game.new_initial_state(final.seed)
    who = "a spectator" if seat is None else f"seat {seat}"
    screen.echo(f"{game.name}, seed {final.seed}: the game as {who} saw it")
    panels = game.board(state, seat)
    screen.board(panels, seat, None)
    before_lines = board_lines(panels)
    shown = 0
    for action in final.history:
        mover = state.current_player
        before = state.clone()
        state.apply(action)
        lines = game.narrate(before, action, state, seat)
        if not lines:
            continue
        shown += 1
        if ask is not None:
            try:
                if ask(NEXT + " ").strip().lower().startswith("q"):
                    break
            except (EOFError, click.Abort):
                break
        screen.page(["", f"#{shown} seat {mover}: {lines[0]}", *(f"  {line}" for line in lines[1:])])
        panels = game.board(state, seat)
        screen.board(panels, seat, before_lines)
        before_lines = board_lines(panels)
    return shown
