"""The one ``pass`` says what it does in this step (issue 28, point 3): "End main phase", "Let it resolve", "No
blocks"... as its ``choice_label`` detail (the browser's button) and in its description (the terminal's menu)."""

from __future__ import annotations

import cardarena
from cardarena.cli.menu import Menu
from cardarena.games.torabato.actions import parse
from cardarena.web.views import legal_view, state_view

from .helpers import do, position


def label(state: object, text: str) -> tuple[str, str]:
    assert text in [str(a) for a in state.legal_actions()]  # type: ignore[attr-defined]
    return state.game.choice_label(state, parse(text))  # type: ignore[attr-defined]


def test_pass_and_done_name_the_step() -> None:
    s = position(
        active=0,
        field=(["KS"], ["QH"]),
        hands=(["8S"], ["2H"]),
        mana=(["AS", "AC", "3S"], ["3H", "4H", "5H"]),
    )
    assert label(s, "pass") == ("pass", "End main phase")
    assert s.game.describe_action(s, parse("pass")) == "pass"  # the log and the story keep the bare action
    do(s, "attack")
    assert label(s, "pass") == ("pass", "Go on to choosing attackers")
    do(s, "pass", "pass", "attacker KS")
    assert label(s, "pass") == ("pass", "Go on to blocks")
    do(s, "pass", "pass")
    assert s.current_player == 1 and label(s, "done") == ("done", "No blocks")
    do(s, "block QH KS")
    assert label(s, "pass") == ("pass", "Go on to combat damage")
    do(s, "play 8S @KS")  # a spell on the stack: passing lets it resolve
    assert label(s, "pass") == ("pass", "Let it resolve")
    do(s, "pass", "pass", "pass", "pass")
    assert label(s, "pass") == ("pass", "Deal combat damage")
    do(s, "pass", "pass")
    assert label(s, "pass") == ("pass", "End main phase")
    do(s, "pass", "pass")
    assert label(s, "pass") == ("pass", "End the turn")


def test_the_wire_marks_passes_and_resigning_and_gives_the_turn() -> None:
    """``legal`` carries ``pass: true`` (ToraBato's pass) and ``resign: true`` (Tash-Kalar's resign), which the
    table's auto-pass reads; the state message has the public turn number."""
    s = position(active=0, field=(["KS"], []))
    legal = legal_view(s, 0)
    passes = [a for a in legal if a.get("pass")]
    assert [a["text"] for a in passes] == ["pass"] and passes[0]["detail"] == "End main phase"
    assert not any(a.get("resign") for a in legal)
    assert state_view(s, 0)["turn"] == s.turn == state_view(s, None)["turn"]
    tk = cardarena.load("tashkalar").new_initial_state(1)
    while tk.current_player is None:
        tk.apply(tk.legal_actions()[0])
    resigns = [a["text"] for a in legal_view(tk, tk.current_player) if a.get("resign")]
    assert resigns == ["resign"]


def test_the_terminal_menu_says_what_the_pass_does() -> None:
    s = position(active=0, field=(["KS"], []), hands=(["8S"], []), mana=(["AS", "AC"], []))
    lines = Menu(s.game, s, list(s.legal_actions())).lines(100, cut=True)
    assert any(line.strip().endswith("pass — End main phase") for line in lines), lines
