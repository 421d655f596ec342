"""Whole games of ToraBato through ``cardarena play`` (issue 13): the game ends; every action of the other seat and
every outcome is printed; no decision lists more than about 20 groups; and the output never names a card that the
seat has not been shown.

The game is replayed alongside from the record that ``play --record`` writes, so the checks hold whatever the
shell's agent seeding: every narrate line of every action (the other seat's action line included) must appear in
the output in order, and each line, and the board, may name only the cards seen in ``observation(seat)`` so far.
"""

from __future__ import annotations

import json
import re
import tempfile
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

import cardarena
from cardarena.cli.main import cli
from cardarena.engine import Action
from cardarena.games.torabato.cards import NAMES
from cardarena.games.torabato.state import ToraBatoState

GAME = cardarena.load("torabato")
GAMES = [(seed, seat) for seed in (3, 5, 8) for seat in (0, 1)]
CARD = re.compile(r"(?<![\w@])@?(" + "|".join(sorted(map(re.escape, NAMES), key=len, reverse=True)) + r")(?!\w)")
#: Every kind of outcome narrate tells, as the start or a piece of its line.
OUTCOMES = {
    "a resolution": "both passed: ",
    "combat": "combat: ",
    "unblocked damage": " is unblocked and deals ",
    "damage to a soldier": " damage (",
    "a death": " dies and goes to the discard pile",
    "a destruction": " is destroyed and goes to the discard pile",
    "cards milled": " milled from ",
    "the seat's own draw": "you draw ",
    "the opponent's draw": " draws 1 card",
    "a card back from the discard pile": " back from ",
    "a boost": " this turn (now ",
    "a 7": " deals 0 damage this turn",
    "a K made unblockable": " cannot be blocked this turn",
    "a mana card taken back": " mana cards back into their hand",
    "mana gained": " mana this turn",
    "a new turn": " turn begins",
    "a new step": "now: attack: ",
    "the reveal": "the first-player reveal: ",
    "the end": "game over: ",
}


def _cards_in(text: str) -> set[str]:
    return {m.group(1) for m in CARD.finditer(text)}


def _flat(text: str) -> str:
    """The text with every run of whitespace as one space (a face may wrap long lines)."""
    return " ".join(text.split())


@cache
def _play(seed: int, seat: int) -> tuple[str, dict[str, object]]:
    """The output of a whole game answered "1" at every prompt, and its record."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        args = ["play", "torabato", "--vs", "random", "--seed", str(seed), "--seat", str(seat), "--record", str(path)]
        result = CliRunner().invoke(cli, args, input="1\n" * 4000)
        assert result.exit_code == 0, result.output
        record = json.loads(path.read_text(encoding="utf-8"))
    return result.output, record


def _replay(record: dict[str, object], seat: int) -> list[tuple[ToraBatoState, Action, ToraBatoState]]:
    state = GAME.new_initial_state(int(str(record["seed"])))
    assert isinstance(state, ToraBatoState)
    steps = []
    actions = record["actions"]
    assert isinstance(actions, list)
    for text in actions:
        before = state.clone()
        action = state.apply_text(text)
        steps.append((before, action, state.clone()))
    assert state.is_terminal()
    return steps


@pytest.mark.parametrize(("seed", "seat"), GAMES)
def test_a_whole_game_ends_and_every_action_and_outcome_is_printed_in_order(seed: int, seat: int) -> None:
    output, record = _play(seed, seat)
    assert record["result"] is not None and "Game over" in output
    flat = _flat(output)
    at = 0
    others = 0
    for before, action, after in _replay(record, seat):
        lines = GAME.narrate(before, action, after, seat)
        if before.current_player != seat:
            others += 1
            assert lines[0] == GAME.action_seen_by(before, action, seat)
        else:
            lines = lines[1:]  # a person's own action is not repeated back to them
        for line in lines:
            found = flat.find(_flat(line), at)
            assert found >= 0, (
                f"not printed after position {at}: {line!r} (action {action} of seat {before.current_player})"
            )
            at = found + len(_flat(line))
    assert others > 20


def test_every_kind_of_outcome_is_printed_in_some_game() -> None:
    printed = " ".join(_flat(_play(seed, seat)[0]) for seed, seat in GAMES)
    missing = [kind for kind, words in OUTCOMES.items() if words not in printed]
    assert not missing


@pytest.mark.parametrize(("seed", "seat"), GAMES)
def test_no_card_the_seat_has_not_seen_is_named(seed: int, seat: int) -> None:
    """Per step: the narrate lines and the board name only cards shown to the seat so far; for the whole game:
    the output names no card that ``observation(seat)`` never showed."""
    output, record = _play(seed, seat)
    seen: set[str] = set()
    for before, action, after in _replay(record, seat):
        seen |= _cards_in(json.dumps(before.observation(seat)))
        seen |= _cards_in(json.dumps(after.observation(seat)))
        told = "\n".join(GAME.narrate(before, action, after, seat)) + "\n" + GAME.render(after, seat)
        assert _cards_in(told) <= seen, (str(action), _cards_in(told) - seen)
    unseen = set(NAMES) - seen
    assert unseen, "a whole game shows a seat every card: the check below would be empty"
    assert not _cards_in(output) & unseen


@pytest.mark.parametrize(("seed", "seat"), GAMES[:2])
def test_no_decision_lists_more_than_20_groups(seed: int, seat: int) -> None:
    _, record = _play(seed, seat)
    for before, _, _ in _replay(record, seat):
        legal = before.legal_actions()
        assert len({GAME.choice_label(before, a)[0] for a in legal}) <= 20
