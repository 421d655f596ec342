"""The terminal's grouped menu (issue 13 point 1): groups from ``choice_label``, numbers and ``g.d`` codes, names and
prefixes (case-insensitive, ambiguity reported), sub-menus, the full list behind ``?``, and the 20-line bound."""

from __future__ import annotations

from typing import Any

import pytest

import cardarena
from cardarena.cli.menu import MAX_MENU_LINES, Ambiguous, Menu, Opened
from cardarena.cli.play import Refusal, interpret
from cardarena.engine import Action, Rng

from .menu_game import MenuGame


def _menu(**options: Any) -> tuple[Any, list[Action], Menu]:
    game = MenuGame(**options)
    state = game.new_initial_state(0)
    legal = state.legal_actions()
    return state, legal, Menu(game, state, legal)


def test_groups_follow_choice_label_in_the_order_of_the_legal_actions() -> None:
    _, legal, menu = _menu(squares=12)
    names = [g.name for g in menu.groups]
    assert names == ["summon Knight", "summon Kite", "place", "discard Knight", "pass"]
    assert [c.detail for c in menu.groups[0].choices] == ["a1", "b1", "c1"]
    assert [c.action for g in menu.groups for c in g.choices] == legal  # every action once, in order
    lines = menu.lines(100)
    assert lines[0].startswith("Your choices (19;")
    assert lines[1] == "  1. summon Knight (3): a1, b1, c1"
    assert lines[3] == "  3. place (12): a1, b1, c1, d1, e1, f1, …"
    assert lines[5] == "  5. pass — a pass"  # a group of one shows the action and its description


def test_a_number_opens_a_group_or_takes_its_only_action() -> None:
    state, legal, menu = _menu()
    opened = interpret(state, legal, "1", menu=menu)
    assert isinstance(opened, Opened) and opened.group.name == "summon Knight" and len(opened.choices) == 3
    assert interpret(state, legal, "2", menu=menu, opened=opened) == Action.of("summon", "Knight", "b1")
    assert interpret(state, legal, "5", menu=menu) == Action.of("pass")
    assert interpret(state, legal, "3.2", menu=menu) == Action.of("place", "b1")  # group 3, action 2
    assert interpret(state, legal, "3.2", menu=menu, opened=opened) == Action.of("place", "b1")  # anywhere
    for bad, words in (("9", "choose 1 to 5"), ("3.99", "'place' has 60 choice(s)"), ("0", "choose 1 to 5")):
        reply = interpret(state, legal, bad, menu=menu)
        assert isinstance(reply, Refusal) and words in reply, reply
    reply = interpret(state, legal, "7", menu=menu, opened=opened)
    assert isinstance(reply, Refusal) and "choose 1 to 3, or ':back'" in reply


def test_names_and_prefixes_are_case_insensitive_and_ambiguity_is_reported() -> None:
    state, legal, menu = _menu()
    knight = interpret(state, legal, "SUMMON KN", menu=menu)
    assert isinstance(knight, Opened) and knight.group.name == "summon Knight"
    reply = interpret(state, legal, "summon k", menu=menu)
    assert isinstance(reply, Refusal) and "1. summon Knight" in reply and "2. summon Kite" in reply
    assert "matches 2 choices" in reply
    place = interpret(state, legal, "pl", menu=menu)
    assert isinstance(place, Opened) and place.group.name == "place" and len(place.choices) == 60
    assert interpret(state, legal, "pa", menu=menu) == Action.of("pass")  # alone in its group: taken
    kite = interpret(state, legal, "kite", menu=menu)  # a word of a group's name: a card's name
    assert isinstance(kite, Opened) and kite.group.name == "summon Kite"
    reply = interpret(state, legal, "kn", menu=menu)  # "summon Knight" and "discard Knight"
    assert isinstance(reply, Refusal) and "summon Knight" in reply and "discard Knight" in reply


def test_a_prefix_of_an_action_text_opens_only_the_actions_it_matches_or_takes_the_one() -> None:
    state, legal, menu = _menu()
    part = interpret(state, legal, "place a", menu=menu)
    assert isinstance(part, Opened) and {c.text for c in part.choices} == {f"place a{r}" for r in range(1, 8)}
    assert interpret(state, legal, "place a7", menu=menu) == Action.of("place", "a7")  # the full text
    assert interpret(state, legal, "summon Kite b", menu=menu) == Action.of("summon", "Kite", "b1")
    state, legal, menu = _menu(squares=3, moves=True)
    across = interpret(state, legal, "move", menu=menu)  # texts of two groups: those actions, as a sub-menu
    assert isinstance(across, Opened) and across.number == 0
    assert [c.text for c in across.choices] == ["move a1 b1", "move a1 c1", "move b1 c1"]
    head = "actions beginning 'move': choose one (':back' or an empty line goes back):"
    assert menu.opened_lines(across, 100) == [head, "  1. move a1 b1", "  2. move a1 c1", "  3. move b1 c1"]
    assert interpret(state, legal, "3", menu=menu, opened=across) == Action.of("move", "b1", "c1")
    one = interpret(state, legal, "move a", menu=menu)  # in one group: that group's matching actions
    assert isinstance(one, Opened) and one.group.name == "piece on a1" and one.number == 4
    reply = interpret(state, legal, "summon", menu=menu)  # a prefix of two groups' names: they are named
    assert isinstance(reply, Refusal) and "1. summon Knight" in reply and "2. summon Kite" in reply


def test_in_a_sub_menu_its_details_come_first_then_the_whole_menu() -> None:
    state, legal, menu = _menu()
    opened = menu.by_code("3")
    assert isinstance(opened, Opened)
    assert interpret(state, legal, "E2", menu=menu, opened=opened) == Action.of("place", "e2")
    reply = interpret(state, legal, "e", menu=menu, opened=opened)
    assert isinstance(reply, Refusal) and "matches 7 choices" in reply
    assert interpret(state, legal, "discard", menu=menu, opened=opened) == Action.of("discard", "Knight")
    assert interpret(state, legal, ":back", menu=menu, opened=opened) == "back"


@pytest.mark.parametrize("count", [1, 5, 17, 18, 19, 40, 120, 300])
def test_no_menu_prints_more_than_20_lines_or_a_line_wider_than_the_screen(count: int) -> None:
    for options in ({"squares": count}, {"squares": 3, "extra": count}):
        _, _, menu = _menu(**options)
        for width in (40, 80, 160):
            screens = [menu.lines(width)]
            screens += [
                menu.opened_lines(g, width)
                for g in (menu.by_code(str(k)) for k in range(1, 6))
                if isinstance(g, Opened)
            ]
            for lines in screens:
                assert len(lines) <= MAX_MENU_LINES, lines
                assert all(len(line) <= width for line in lines[1:]), lines
        # every group stays reachable by its number, even when the main menu is packed into columns
        assert isinstance(menu.by_code(str(len(menu.groups))), Action | Opened)


def test_the_full_list_numbers_every_action_with_a_code_that_picks_it() -> None:
    state, legal, menu = _menu(squares=20, extra=3)
    full = menu.full_lines()
    assert len(full) == 1 + len(legal)
    for line, action in zip(full[1:], legal, strict=True):
        code, text = line.split(maxsplit=1)
        assert text.startswith(str(action))
        assert interpret(state, legal, code, menu=menu) == action
        assert menu.code_of(action) == code


def test_ambiguous_is_a_message_naming_at_most_eight() -> None:
    _, _, menu = _menu(squares=3, extra=20)
    reply = menu.by_name("use")
    assert isinstance(reply, Ambiguous) and "matches 20 choices" in reply and "and 12 more" in reply


SETUPS = [(g, {}) for g in cardarena.games()] + [("tashkalar", {"mode": "highform"})]


@pytest.mark.parametrize(("game_id", "options"), SETUPS, ids=[g + str(o) for g, o in SETUPS])
def test_answering_1_then_1_is_the_first_legal_action_in_every_game(game_id: str, options: dict[str, Any]) -> None:
    """The scripted contract: "1" at the main menu and "1" in the sub-menu it may open take ``legal[0]``; and every
    action's number and full text give that action, whatever labels the game uses."""
    game = cardarena.load(game_id, **options)
    for seed in range(2):
        state = game.new_initial_state(seed)
        rng = Rng(seed)
        for step in range(150):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            if step % 5 == 0:
                menu = Menu(game, state, legal)
                first = interpret(state, legal, "1", menu=menu)
                if isinstance(first, Opened):
                    first = interpret(state, legal, "1", menu=menu, opened=first)
                assert first == legal[0]
                for action in legal:
                    assert interpret(state, legal, menu.code_of(action), menu=menu) == action
                assert all(len(line) <= 100 for line in menu.lines(100)[1:])
                assert len(menu.lines(100)) <= MAX_MENU_LINES
            choices = state.playout_actions()
            state.apply(choices[rng.randbelow(len(choices))])


def test_help_inside_a_sub_menu_lists_that_groups_actions_in_full() -> None:
    state, legal, menu = _menu(squares=40)
    opened = menu.by_code("3")
    assert isinstance(opened, Opened)
    lines = menu.opened_full_lines(opened)
    assert lines[0] == "All 40 choices of 'place' (type the number, or the text):"
    assert lines[1] == "    1. a1  (place a1)" and len(lines) == 41
    assert interpret(state, legal, "40", menu=menu, opened=opened) == Action.of("place", "d5")


def test_menu_lines_are_made_of_whole_texts_and_cut_only_in_a_terminal() -> None:
    """Plain output (pipes, tests) keeps every text it shows whole, so a program can find a detail or a card's name
    in it; a terminal cuts what does not fit its width. A group's summary names only the details that fit."""
    _, _, menu = _menu(long=True, squares=4)
    knight = menu.groups[0]
    details = [c.detail for c in knight.choices]
    assert len(details[0]) > 100
    plain = menu.lines(100, cut=False)
    assert plain[1] == f"  1. summon Knight (3): {details[0]}, …"  # the first detail whole, however long
    assert plain[3] == "  3. place (4): a1, b1, c1, d1"
    tty = menu.lines(100, cut=True)
    assert tty[1].startswith(f"  1. summon Knight (3): {details[0][:60]}") and tty[1].endswith("…")
    assert all(len(line) <= 100 for line in tty[1:])
    opened = menu.by_code("1")
    assert isinstance(opened, Opened)
    assert menu.opened_lines(opened, 100, cut=False)[1] == f"  1. {details[0]}"
    cut = menu.opened_lines(opened, 100, cut=True)[1]
    assert len(cut) <= 100 and cut.endswith("…") and details[0].startswith(cut[5:-1])
    wide = menu.lines(200, cut=True)
    assert wide[1] == f"  1. summon Knight (3): {details[0]}, …"
