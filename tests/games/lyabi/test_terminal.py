"""Whole games of Lyabi through `cardarena play` (scripted "1" answers, as a person who always takes the first
choice): the game ends; every action of the other seat is reported as that seat sees it; every outcome line the
game narrates reaches the terminal, and together the games show every kind of outcome; and the output never
names a ryabi the seat has not been shown up to that point (by its observation, or as a payment or a gain, which
are face up)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import cardarena
from cardarena.cli.main import cli
from cardarena.engine import Rng
from cardarena.games.lyabi.game import LyabiGame
from cardarena.games.lyabi.state import LyabiState

GAME = cardarena.load("lyabi")
assert isinstance(GAME, LyabiGame)
NAMES = GAME.cards.r_names
NAME = re.compile(r"\b(?:" + "|".join(sorted(NAMES, key=len, reverse=True)) + r")\b")
# Public counts by name (the supply and the removed ryabi: `blue3×7`) and circles (`blue5 circle`) are no
# ryabi shown; a circle placed face up is public.
PUBLIC = re.compile(r"\b\w+×\d+|\b\w+ circle")
SEEDS = (3, 8, 11)
PUBLIC_KINDS = ("buy", "split", "place", "item")

#: Every kind of outcome line narrate writes, by a piece of its text.
OUTCOMES = {
    "gain": " (to the discard pile; ",
    "circle placed": " circle (ATK ",
    "item taken": "you take the ",
    "item resolves": "it resolves at once",
    "reveal": "the battle sets are revealed: ",
    "triangle": " beats ",
    "no winner": "no winner, no damage",
    "damage": " damage to seat ",
    "HP": " HP ",
    "battle ryabi removed": "battle ryabi removed from the game: ",
    "end phase": "end of turn ",
    "new turn": " begins",
    "draw": " draw",
    "reshuffle": "the discard pile is shuffled into a new deck",
    "game over": "Game over: ",
}


def _names_in(obs: Any) -> set[str]:
    """The ryabi names in an observation, leaving out the supply (it names every kind, seen or not)."""
    found: set[str] = set()

    def walk(x: Any, key: str = "") -> None:
        if key in ("supply", "removed"):
            return
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        elif isinstance(x, str) and x in NAMES:
            found.add(x)

    walk(obs)
    return found


def _play(seed: int, seat: int, tmp_path: Path) -> tuple[str, LyabiState, list[str]]:
    record = tmp_path / f"lyabi-{seed}-{seat}.json"
    result = CliRunner().invoke(
        cli,
        ["play", "lyabi", "--vs", "random", "--seed", str(seed), "--seat", str(seat), "--record", str(record)],
        input="1\n" * 4000,
    )
    assert result.exit_code == 0, result.output
    actions = json.loads(record.read_text(encoding="utf-8"))["actions"]
    return result.output, GAME.new_initial_state(seed), actions


def _check_unseen_parts_do_not_matter(
    before: LyabiState, action: Any, after: LyabiState, seat: int, lines: list[str], rng_seed: int
) -> None:
    """What the seat is told depends only on what it may see: in worlds it cannot tell from ``before`` (resamples)
    where the same action leaves it seeing the same, narrate and the board say the same; and another seat's hidden
    choice (a set, an order) is narrated alike whichever of its choices was made, until the reveal."""
    for k in range(2):
        world = before.resample(seat, Rng(rng_seed * 2 + k))
        if action not in world.legal_actions():
            continue
        world_after = world.clone()
        world_after.apply(action)
        if world_after.observation(seat) == after.observation(seat):
            assert GAME.narrate(world, action, world_after, seat) == lines
            assert GAME.board(world_after, seat) == GAME.board(after, seat)
    if before.current_player != seat and action[0] in ("set", "order"):
        for other in before.legal_actions():
            twin = before.clone()
            twin.apply(other)
            if twin.observation(seat) == after.observation(seat):  # not revealed yet
                assert GAME.narrate(before, other, twin, seat) == lines


def _check_game(seed: int, seat: int, tmp_path: Path) -> set[str]:
    """Play one game; check what it printed; return the kinds of outcome it showed."""
    out, state, actions = _play(seed, seat, tmp_path)
    allowed = _names_in(state.observation(seat))
    cursor = 0
    kinds: set[str] = set()
    for text in actions:
        action = GAME.parse_action(state, text)
        before = state.clone()
        mover = state.current_player
        shown: list[str] = []
        if mover == seat:  # the seat's own menu: its hand and the supply, named in its own choices
            for a in before.legal_actions():
                shown += [str(a), GAME.describe_action(before, a), *GAME.choice_label(before, a)]
        state.apply(action)
        lines = GAME.narrate(before, action, state, seat)
        if mover != seat:
            assert lines and lines[0] == GAME.action_seen_by(before, action, seat)
        expected = lines if mover != seat else lines[1:]
        start = cursor
        for line in expected:
            at = out.find(line, cursor)
            assert at >= 0, f"seed {seed} seat {seat}: {line!r} (after {text!r}) is not in the output"
            cursor = at + len(line)
            for kind, piece in OUTCOMES.items():
                if piece in line:
                    kinds.add(kind)
        # What the seat was shown: its observation, and the cards of a payment and a gain (face up by the rules,
        # even when a reshuffle puts them out of sight at once). Hidden choices (sets, orders) are not shown.
        _check_unseen_parts_do_not_matter(before, action, state, seat, lines, seed * 10_000 + len(state.history))
        allowed |= _names_in(state.observation(seat))
        if action[0] in PUBLIC_KINDS:
            allowed |= set(NAME.findall(text))
        segment = out[start:cursor]
        for piece in sorted(shown, key=len, reverse=True):
            segment = segment.replace(piece, "")
        leaked = set(NAME.findall(PUBLIC.sub("", segment))) - allowed
        assert not leaked, (
            f"seed {seed} seat {seat}: {sorted(leaked)} named before seat {seat} was shown them: {segment}"
        )
    assert state.is_terminal(), "the scripted game did not end"
    assert "Game over" in out[cursor:] or "Game over" in out
    return kinds


@pytest.mark.parametrize("seat", [0, 1])
def test_whole_games_report_every_action_and_outcome_and_leak_nothing(seat: int, tmp_path: Path) -> None:
    kinds: set[str] = set()
    for seed in SEEDS:
        kinds |= _check_game(seed, seat, tmp_path)
    assert kinds == set(OUTCOMES), f"outcomes never shown: {sorted(set(OUTCOMES) - kinds)}"
