"""``cardarena play`` as a whole (issue 13 points 1-3): every game played to the end through the command line with
"1" answered at every prompt, no choice list over 20 lines, every other seat's action and every outcome reported,
nothing paged without a terminal; the board's changed lines; the pager in a terminal."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console

import cardarena
from cardarena.cli.main import cli
from cardarena.cli.menu import MAX_MENU_LINES, Menu
from cardarena.cli.play import help_lines, run_play
from cardarena.cli.screen import CHANGED, MORE, Screen, changed_lines, panel_title
from cardarena.engine import Panel, Rng, State

# every game, and Tash-Kalar's modes; seeds that give short games
SETUPS: list[tuple[str, dict[str, Any], int]] = [
    ("torabato", {}, 3),
    ("lyabi", {}, 3),
    ("dicebattle", {}, 3),
    ("laplaplace", {}, 3),
    ("tashkalar", {}, 3),
    ("tashkalar", {"mode": "highform"}, 1),
    ("tashkalar", {"mode": "melee", "players": 3}, 1),
    ("tashkalar", {"teams": True}, 1),
]
PROMPT = re.compile(r"seat \d+(?: [^\n>]*)?> ")
MENU_HEAD = re.compile(r"^(Your choices \(|\d+\. .*: choose one \()")


def screens(output: str) -> list[list[str]]:
    """The output cut at the prompts: what each prompt had above it, since the previous one."""
    return [chunk.split("\n") for chunk in PROMPT.split(output)]


def choice_list(screen: list[str]) -> list[str]:
    """The choice list of one prompt: from the last menu header to the prompt (empty when none was printed)."""
    heads = [k for k, line in enumerate(screen) if MENU_HEAD.match(line)]
    return [line for line in screen[heads[-1] :] if line] if heads else []


@pytest.mark.parametrize(
    ("game_id", "options", "seed"), SETUPS, ids=[f"{g}-{'-'.join(map(str, o.values()))}" for g, o, _ in SETUPS]
)
def test_a_whole_game_through_the_command_line(
    tmp_path: Path, game_id: str, options: dict[str, Any], seed: int
) -> None:
    """Issue 13's done test, generic part: "1" at every prompt plays the game to its end; no decision lists more
    than 20 lines of choices (the menu's header included; the board and the narration are not the choice list);
    the other seats' every action appears as ``seat K (random): <action_seen_by>``, and every outcome line the
    game narrates to seat 0 appears, in order; nothing is paged (the output is not a terminal)."""
    path = tmp_path / "game.json"
    args = ["play", game_id, "--vs", "random", "--seed", str(seed), "--record", str(path)]
    for k, v in options.items():
        args += ["--option", f"{k}={v}"]
    result = CliRunner().invoke(cli, args, input="1\n" * 4000)
    out = result.output
    assert result.exit_code == 0, out[-2000:]
    assert "Game over" in out and path.exists()
    assert MORE not in out
    lists = [choice_list(s) for s in screens(out)]
    assert max(len(c) for c in lists) <= MAX_MENU_LINES
    assert sum(1 for c in lists if c) >= 3
    # replay the record: every line seat 0 was told must be there, in order
    final = cardarena.replay(path)
    game = final.game
    state = game.new_initial_state(final.seed)
    at = 0
    seen = 0
    for action in final.history:
        mover = state.current_player
        before = state.clone()
        state.apply(action)
        lines = game.narrate(before, action, state, 0)
        expected = ([f"seat {mover} (random): {lines[0]}"] if lines and mover != 0 else []) + [
            f"  {line}" for line in lines[1:]
        ]
        if mover != 0:
            assert lines[:1] == [s for s in [game.action_seen_by(before, action, 0)] if s]
        for line in expected:
            found = out.find(line, at)
            assert found >= 0, f"missing after position {at}: {line!r}"
            at = found + len(line)
            seen += 1
    assert seen > 0


LEAK_SETUPS = [(g, {}) for g in cardarena.games()] + [("tashkalar", {"mode": "melee", "players": 3})]


@pytest.mark.parametrize(("game_id", "options"), LEAK_SETUPS, ids=[g + str(o) for g, o in LEAK_SETUPS])
def test_what_a_decision_shows_is_the_same_from_any_resample_for_that_seat(
    game_id: str, options: dict[str, Any]
) -> None:
    """Hidden information stays hidden: the board (``Game.board``, drawn by the shell), the menu (``choice_label``,
    ``describe_action``) and the full list a seat is shown at its decision are the same in the true state and in
    worlds resampled for that seat, so none of them shows a card the seat cannot see."""
    game = cardarena.load(game_id, **options)

    def shown(state: State, seat: int) -> list[str]:
        out: list[str] = []
        Screen(out.append).board(game.board(state, seat), seat, None)
        menu = Menu(game, state, state.legal_actions())
        return out + menu.lines(100) + menu.full_lines()

    checked = 0
    for seed in range(2):
        state = game.new_initial_state(seed)
        rng = Rng(seed)
        for step in range(160):
            if state.is_terminal():
                break
            seat = state.current_player
            assert seat is not None
            if step % 6 == 0:
                assert shown(state.resample(seat, Rng(step)), seat) == shown(state, seat)
                checked += 1
            choices = state.playout_actions()
            state.apply(choices[rng.randbelow(len(choices))])
    assert checked >= 2


def test_help_mentions_skip_only_where_the_game_has_passes() -> None:
    """Issue 13 point 3: the help mentioned `skip`/`pass` in Laplaplace, where no pass exists."""
    assert not cardarena.load("laplaplace").has_passes
    assert cardarena.load("torabato").has_passes
    assert not any(":skip" in line for line in help_lines(has_pass=False))
    assert any(":skip" in line for line in help_lines(has_pass=True))
    out = CliRunner().invoke(cli, ["play", "laplaplace", "--seed", "1"], input="?\n:quit\n").output
    assert ":hint" in out and ":odds" in out and ":back" in out and "All " in out
    assert "skip" not in out.lower() and "pass whenever" not in out
    out = CliRunner().invoke(cli, ["play", "torabato", "--seed", "1"], input="?\n:quit\n").output
    assert ":skip      pass whenever you may" in out


def test_an_empty_line_and_back_leave_a_sub_menu_and_eof_leaves_the_game() -> None:
    lines: list[str] = []
    answers = iter(["1", "", "1", ":back", "back"])

    def ask(prompt: str) -> str:
        lines.append(f"PROMPT {prompt}")
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    state = run_play(
        cardarena.load("torabato"),
        seat=0,
        opponent="random",
        seed=3,
        auto=True,
        record=None,
        ask=ask,
        echo=lines.append,
    )
    prompts = [line for line in lines if line.startswith("PROMPT")]
    assert prompts == [
        "PROMPT seat 0> ",
        "PROMPT seat 0 reveal> ",
        "PROMPT seat 0> ",
        "PROMPT seat 0 reveal> ",
        "PROMPT seat 0> ",
        "PROMPT seat 0> ",
    ]
    assert not state.history and lines[-1] == "You left the game."


def test_board_marks_the_lines_changed_since_the_seats_last_decision() -> None:
    old = {"hand": ("a", "b", "c"), "board": ("x",)}
    hand = Panel("your hand", ("a", "B", "c", "d"), seat=0, key="hand")
    assert panel_title(Panel("hand", (), seat=0), 0) == "hand (yours)"
    assert panel_title(Panel("Seat 1 (opponent)", (), seat=1), 0) == "Seat 1 (opponent)"
    assert panel_title(Panel("hand", (), seat=1), 0) == "hand (seat 1)"
    assert changed_lines(hand, old) == {1, 3}
    assert changed_lines(hand, None) == set()  # first drawing: nothing to compare with
    assert changed_lines(Panel("new zone", ("1", "2")), old) == {0, 1}
    out: list[str] = []
    Screen(out.append).board([hand, Panel("their hand", ("[?] [?]",), seat=1), Panel("supply", ("s",))], 0, old)
    assert out == [
        "── your hand ──",
        "  a",
        CHANGED + "B",
        "  c",
        CHANGED + "d",
        "── their hand (seat 1) ──",
        CHANGED + "[?] [?]",
        "── supply ──",
        CHANGED + "s",
    ]


def test_board_through_play_highlights_what_changed() -> None:
    out = CliRunner().invoke(cli, ["play", "torabato", "--seed", "3"], input="1\n1\n1\n:quit\n").output
    marked = [any(line.startswith(CHANGED) for line in screen) for screen in screens(out)]
    assert marked[0] is False  # the first board: nothing to compare with
    assert any(marked[1:])  # after the first-player reveal, what changed is marked


def _terminal(height: int, answers: list[str]) -> tuple[Screen, list[str], list[str]]:
    out: list[str] = []
    asked: list[str] = []
    it = iter(answers)

    def ask(prompt: str) -> str:
        asked.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    console = Console(file=io.StringIO(), width=80, height=height, force_terminal=True)
    return Screen(out.append, console=console, ask=ask, interactive=True), out, asked


def test_long_outputs_are_paged_in_a_terminal_only() -> None:
    lines = [f"line {k}" for k in range(25)]
    screen, out, asked = _terminal(10, ["", "q"])
    screen.page(lines)
    assert out == [f"line {k}" for k in range(16)] + ["(9 more line(s) skipped)"]
    assert asked == [MORE + " ", MORE + " "]
    screen, out, asked = _terminal(10, [])
    screen.page(lines)  # the end of the input stops paging
    assert len(out) == 9 and len(asked) == 1
    screen, out, asked = _terminal(40, [])
    screen.page(lines)  # fits: no prompt
    assert out == lines and not asked
    plain: list[str] = []
    Screen(plain.append, console=Console(file=io.StringIO(), height=10), ask=lambda _: "q").page(lines)
    assert plain == lines  # not interactive: printed whole, nothing asked


def test_the_narration_of_a_turn_is_paged_before_the_next_decision() -> None:
    """Narration is gathered and shown through the pager when the person's next decision comes."""
    screen, out, asked = _terminal(6, ["q"] * 100)
    run_play(
        cardarena.load("torabato"),
        seat=0,
        opponent="random",
        seed=3,
        auto=True,
        record=None,
        ask=lambda _: "1",
        echo=out.append,
        screen=screen,
    )
    assert asked and any("skipped" in line for line in out)


def test_play_refuses_an_unknown_agent_a_bad_hint_and_a_cheating_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardarena.agents import AGENTS, RandomAgent

    class PeekAgent(RandomAgent):
        name = "peek"
        cheats = True

    monkeypatch.setitem(AGENTS, "peek", PeekAgent)
    run = CliRunner().invoke
    result = run(cli, ["play", "torabato", "--vs", "genius", "--seed", "1"], input=":quit\n")
    assert result.exit_code == 2 and "valid agents:" in result.output and "--vs" in result.output
    result = run(cli, ["play", "torabato", "--hint", "ismcts:speed=3", "--seed", "1"], input=":quit\n")
    assert result.exit_code == 2 and "--hint" in result.output and "speed" in result.output
    result = run(cli, ["play", "torabato", "--vs", "peek", "--seed", "1"], input=":quit\n")
    assert result.exit_code == 2 and "cheats" in result.output and "--allow-cheating" in result.output
    result = run(cli, ["play", "torabato", "--vs", "peek", "--allow-cheating", "--seed", "1"], input="1\n" * 3000)
    assert result.exit_code == 0 and "seat 1 (peek): " in result.output and "Game over" in result.output
    result = run(cli, ["play", "dicebattle", "--vs", "ismcts:iterations=10", "--seed", "1"], input="1\n" * 3000)
    assert result.exit_code == 0 and "seat 1 (ismcts:iterations=10): " in result.output


def test_a_table_unchanged_since_the_last_decision_is_not_drawn_again() -> None:
    from cardarena.cli.play import UNCHANGED_TOLD, Shell

    out: list[str] = []
    game = cardarena.load("torabato")
    shell = Shell(
        game,
        seat=0,
        opponent="random",
        seed=1,
        auto=True,
        ask=lambda _: "1",
        screen=Screen(out.append),
        hint_spec="random",
    )
    state = game.new_initial_state(1)
    shell.draw(state, 0, fresh=True, again=False)
    drawn = len(out)
    assert drawn > 3
    shell.draw(state, 0, fresh=True, again=False)
    assert out[drawn:] == ["(the table has not changed since your last decision: ':board' draws it)"]
    shell.told = UNCHANGED_TOLD  # many lines of narration since: the table scrolled away, so it is drawn
    shell.draw(state, 0, fresh=True, again=False)
    assert len(out) == 2 * drawn + 1
    shell.draw(state, 0, fresh=False)  # ':board' always draws
    assert len(out) == 3 * drawn + 1


def test_panels_sit_side_by_side_as_far_as_the_terminal_is_wide() -> None:
    from cardarena.cli.screen import _rows

    screen, _, _ = _terminal(40, [])
    console = screen.console
    assert console is not None
    boxes = [
        screen._rich_panel(Panel(title, tuple(lines)), 0, set())
        for title, lines in (("a", ["x" * 30]), ("b", ["y" * 30]), ("c", ["z" * 70]), ("d", ["w"]), ("e", ["v"]))
    ]
    assert [len(row) for row in _rows(console, boxes)] == [2, 1, 2]  # 34 + 34 fit in 80; 74 alone; 5 + 5
    file = console.file
    screen.board([Panel("mine", ("a",), seat=0), Panel("theirs", ("[?]",), seat=1)], 0, None)
    drawn = file.getvalue()  # type: ignore[attr-defined]
    assert "mine (yours)" in drawn and "theirs (seat 1)" in drawn
    assert len([line for line in drawn.splitlines() if "mine" in line and "theirs" in line]) == 1


def test_players_sharing_the_terminal_see_each_others_actions() -> None:
    """With ``--vs human`` the other person's action is reported like an agent's (as the narrating seat sees it)."""
    out = CliRunner().invoke(cli, ["play", "torabato", "--vs", "human", "--seed", "3"], input="1\n" * 3000).output
    assert "players share this terminal" in out and "Game over" in out
    assert "seat 1: puts a card face down for the first-player reveal" in out
    assert "seat 1> " in out and "seat 0> " in out
