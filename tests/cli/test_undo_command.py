"""``:undo`` in ``cardarena play``: the kernel's undo policy at the terminal, with the refusal explained."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import cardarena
from cardarena.cli.play import help_lines, run_play
from cardarena.engine import can_undo


def _answers(*lines: str) -> Any:
    it: Iterator[str] = iter(lines)

    def ask(_prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return ask


def _to_undoable_mana(seed: int) -> list[str]:
    """The actions (each seat taking its first choice, or a face-down mana card when it has one) up to and
    including the first mana card that its seat may take back."""
    state = cardarena.load("torabato").new_initial_state(seed)
    texts: list[str] = []
    while not state.is_terminal():
        legal = state.legal_actions()
        mana = [a for a in legal if str(a).startswith("mana ")]
        action = mana[0] if mana else legal[0]
        seat = state.current_player
        state.apply(action)
        texts.append(str(action))
        if mana and seat is not None and can_undo(state, seat):
            return texts
    raise AssertionError("no undoable mana card")


def test_undo_takes_the_last_own_action_back_at_the_terminal() -> None:
    game = cardarena.load("torabato")
    texts = _to_undoable_mana(4)
    lines: list[str] = []
    state = run_play(
        game,
        seat=0,
        opponent="human",
        seed=4,
        auto=False,
        record=None,
        ask=_answers(*texts, ":undo", ":quit"),
        echo=lines.append,
    )
    assert [str(a) for a in state.history] == texts[:-1]
    assert any("took back " + texts[-1] in line for line in lines)


def test_undo_is_refused_with_the_reason_once_another_seat_acted() -> None:
    game = cardarena.load("torabato")
    first = str(game.new_initial_state(4).legal_actions()[0])
    lines: list[str] = []
    state = run_play(
        game, seat=0, opponent="human", seed=4, auto=False, record=None, ask=_answers(first, "undo"), echo=lines.append
    )
    assert [str(a) for a in state.history] == [first]  # seat 1 asked: seat 0's action stays
    assert any("cannot undo: the last action was taken by seat 0" in line for line in lines)


def test_undo_after_the_ai_answered_is_refused() -> None:
    game = cardarena.load("torabato")
    first = str(game.new_initial_state(4).legal_actions()[0])
    lines: list[str] = []
    state = run_play(
        game,
        seat=0,
        opponent="random",
        seed=4,
        auto=False,
        record=None,
        ask=_answers(first, ":undo"),
        echo=lines.append,
    )
    assert str(state.history[0]) == first and len(state.history) >= 2
    assert any("cannot undo:" in line for line in lines)


def test_help_names_undo() -> None:
    assert any(":undo" in line for line in help_lines(has_pass=False))
