"""Whole games through ``cardarena play tashkalar`` (scripted "1" answers against the random agent), every mode.

Each game is replayed alongside from its record, so the test knows every action and what the seat saw:

- the game ends (the record is written only for a finished game);
- every action of another seat appears as its ``action_seen_by`` line, and every narrated outcome line appears,
  in order (whitespace collapsed, so a face that wraps long lines still passes);
- the output never names a card before it appeared in ``observation(seat)`` (by name or by id);
- over all the games, every common kind of outcome was narrated at least once.
"""

from __future__ import annotations

import functools
import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import cardarena
from cardarena.cli.main import cli
from cardarena.engine import State
from cardarena.games.tashkalar.game import TashKalarGame

ENTRY = cli  # the `cardarena` command

GAMES = [
    ((), 3, 0),
    ((), 5, 1),
    (("mode=highform",), 2, 0),
    (("mode=highform",), 4, 1),
    (("mode=melee", "players=3"), 1, 2),
    (("mode=melee", "players=4"), 2, 0),
    (("teams=true",), 3, 1),
    (("teams=true", "mode=highform"), 1, 2),
]

#: a kind of outcome and how its narrate line reads
KINDS = {
    "placed": r"is placed on [a-i]\d",
    "summoned": r" is summoned on [a-i]\d",
    "summon destroys": r"is destroyed by the summon",
    "destroyed": r"on [a-i]\d is destroyed$",
    "moved": r" moves [a-i]\d -> [a-i]\d",
    "upgraded": r"is upgraded to",
    "taken back": r"is taken back to the supply",
    "points": r"point\(s\)",
    "drawn": r" draws? \d",
    "discard pile": r"goes to .*discard pile",
    "effect step": r"'s effect, next: ",
    "turn": r"^turn \d+: seat \d's turn",
    "end triggered": r"the final round begins",
    "game over": r"^the game is over: ",
    "result": r"^result: ",
    "task claimed": r"claims the task",
    "colour point": r"scores \d point\(s\) in colour",
}


def _squash(text: str) -> str:
    return " ".join(text.split())


def _card_words(game: TashKalarGame) -> dict[str, tuple[str, ...]]:
    """Each card id with the words that name it in text: its name, and its id where the id has a hyphen (a bare
    one-word id may be an everyday word or a school's name)."""
    return {c.id: (c.name, c.id) if "-" in c.id else (c.name,) for c in game.cards.cards}


def _seen_ids(obs: dict[str, Any], ids: set[str]) -> set[str]:
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            if x in ids:
                found.add(x)
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)

    walk(obs)
    return found


@functools.cache
def play_through_cli(options: tuple[str, ...], seed: int, seat: int) -> tuple[str, dict[str, Any]]:
    """The output of ``cardarena play`` and the game's record (once per worker: two tests read it)."""
    record = Path(tempfile.mkdtemp()) / f"game-{seed}-{seat}.json"
    args = ["play", "tashkalar", "--vs", "random", "--seed", str(seed), "--seat", str(seat), "--record", str(record)]
    for o in options:
        args += ["-o", o]
    result = CliRunner().invoke(ENTRY, args, input="1\n" * 4000)
    assert result.exception is None, result.output[-2000:]
    assert record.exists(), "the game did not end: " + result.output[-1500:]
    return result.output, json.loads(record.read_text(encoding="utf-8"))


def replay_lines(state: State, actions: list[str], seat: int) -> list[tuple[int, list[str], State]]:
    """For each action: the seat that took it, the narrate lines ``seat`` got, and the state after it."""
    out = []
    game = state.game
    for text in actions:
        actor = state.current_player
        assert actor is not None
        before = state.clone()
        action = game.parse_action(state, text)
        state.apply(action)
        out.append((actor, game.narrate(before, action, state, seat), state.clone()))
    return out


def _kinds(lines: list[str]) -> set[str]:
    return {kind for kind, pattern in KINDS.items() for line in lines if re.search(pattern, line)}


@pytest.mark.parametrize(("options", "seed", "seat"), GAMES)
def test_a_whole_game_through_play_reports_everything_and_leaks_nothing(
    options: tuple[str, ...], seed: int, seat: int
) -> None:
    output, record = play_through_cli(options, seed, seat)
    game = cardarena.load("tashkalar", **dict(o.split("=") for o in options))
    assert isinstance(game, TashKalarGame)
    state = game.new_initial_state(seed)
    text = _squash(output)
    words = _card_words(game)
    ids = set(words)
    seen = _seen_ids(state.observation(seat), ids)
    pos = 0
    checked_to = 0
    for actor, lines, after in replay_lines(state, record["actions"], seat):
        # what the seat is shown of this action: the action line (another seat's action) and every outcome
        expected = lines if actor != seat else lines[1:]
        for line in expected:
            at = text.find(_squash(line), pos)
            assert at >= 0, f"not printed (after position {pos}): {line!r}"
            pos = at + len(_squash(line))
        # every card named in the output so far must have been in the seat's observation by now
        seen |= _seen_ids(after.observation(seat), ids)
        chunk = text[checked_to:pos]
        for cid, names in words.items():
            if cid not in seen:
                assert not any(n in chunk for n in names), f"{names[0]} printed before seat {seat} could see it"
        checked_to = pos
    chunk = text[checked_to:]
    for cid, names in words.items():
        if cid not in seen:
            assert not any(n in chunk for n in names), f"{names[0]} printed though seat {seat} never saw it"


def test_every_kind_of_outcome_is_narrated_in_one_of_the_games() -> None:
    """Over the games above, each kind of outcome was narrated (and so printed: the test above checks that)."""
    kinds: set[str] = set()
    for options, seed, seat in GAMES:
        _, record = play_through_cli(options, seed, seat)
        game = cardarena.load("tashkalar", **dict(o.split("=") for o in options))
        for _, lines, _ in replay_lines(game.new_initial_state(seed), record["actions"], seat):
            kinds |= _kinds(lines)
    assert set(KINDS) - kinds == set()
