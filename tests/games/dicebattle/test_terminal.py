"""Whole games of Dice Battle Monsters played through `cardarena play` (the person types "1" at every prompt, the
opponent is the random agent), checked against the same game replayed from its record: the game ends, every
action of the other seat and every outcome narrate tells is printed in order, every kind of outcome shows up in
some game, and the output never names a card the seat has not seen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import cardarena
from cardarena.cli.main import cli
from cardarena.games.dicebattle.render import new_events

from .test_terminal_views import named_ids, visible_ids

# (seed, seat, deck-out pool): a few games for each seat; together they show every kind of outcome in OUTCOMES.
# The deck-out pool (tests/games/dicebattle/data/deckout_pool.toml) empties decks often: reshuffles and penalties.
GAMES = [(12, 1, False), (18, 0, False), (3, 0, False), (3, 1, False), (0, 0, True), (1, 1, True)]
# Every kind of event narrate tells that play reaches (both players at 3 stars at once and the round cap are
# narrated in tests/games/dicebattle/test_terminal_views.py).
OUTCOMES = {
    "round",
    "roll",
    "miracle",
    "redraw",
    "token",
    "reveal",
    "effect",
    "unmet",
    "cancel",
    "cancelled",
    "levels",
    "tie_win",
    "skip",
    "draw",
    "discard",
    "mill",
    "salvage",
    "keep",
    "battle",
    "stars",
    "revive",
    "reshuffle",
    "penalty",
    "win",
}
DECKOUT_IDS = ("d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "h1", "h2", "h3", "h4", "m1", "m2", "m3")


def play(seed: int, seat: int, record: Path, options: list[str]) -> str:
    args = ["play", "dicebattle", "--vs", "random", "--seed", str(seed), "--seat", str(seat), "--record", str(record)]
    for option in options:
        args += ["--option", option]
    result = CliRunner().invoke(cli, args, input="1\n" * 4000)
    assert result.exit_code == 0, result.output
    return result.output


def expected_lines(record: dict[str, Any], seat: int) -> list[tuple[list[str], set[str], set[str]]]:
    """For each action of the game: the lines the seat must be shown (the other seat's action as it sees it, then
    every outcome), the kinds of the events it caused, and the card ids the seat has seen up to then."""
    game = cardarena.load("dicebattle", **record["options"])
    state = game.new_initial_state(record["seed"])
    seen = visible_ids(game, state.observation(seat))
    out = []
    for text in record["actions"]:
        before = state.clone()
        action = state.apply_text(text)
        seen = seen | visible_ids(game, state.observation(seat))
        lines = game.narrate(before, action, state, seat)
        shown = lines if before.current_player != seat else lines[1:]  # one's own action is not repeated
        out.append((shown, {e[0] for e in new_events(before, state)}, seen))
    assert state.is_terminal()
    return out


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[int, int, str, dict[str, Any]]]:
    out = []
    folder = tmp_path_factory.mktemp("records")
    deck = folder / "deckout.toml"
    deck.write_text('name = "t"\n[cards]\n' + "".join(f"{k} = 2\n" for k in DECKOUT_IDS), encoding="utf-8")
    pool = Path(__file__).parent / "data" / "deckout_pool.toml"
    for seed, seat, deckout in GAMES:
        path = folder / f"{seed}-{seat}-{deckout}.json"
        options = [f"cards={pool}", f"deck0={deck}", f"deck1={deck}"] if deckout else []
        output = play(seed, seat, path, options)
        out.append((seed, seat, output, json.loads(path.read_text(encoding="utf-8"))))
    return out


def test_the_games_end(games: list[tuple[int, int, str, dict[str, Any]]]) -> None:
    for _, seat, output, record in games:
        assert record["result"] is not None
        assert "Game over" in output and "You left the game" not in output
        assert record["result"][seat] in (1.0, -1.0, 0.0)


def test_every_action_and_outcome_is_printed_in_order_and_every_kind_shows_up(
    games: list[tuple[int, int, str, dict[str, Any]]],
) -> None:
    kinds: set[str] = set()
    for seed, seat, output, record in games:
        pos = 0
        for lines, caused, _ in expected_lines(record, seat):
            for line in lines:
                found = output.find(line, pos)
                assert found >= 0, f"seed {seed} seat {seat}: {line!r} is not printed after position {pos}"
                pos = found + len(line)
            kinds |= caused
    assert kinds >= OUTCOMES, sorted(OUTCOMES - kinds)


def test_the_output_never_names_a_card_the_seat_has_not_seen(
    games: list[tuple[int, int, str, dict[str, Any]]],
) -> None:
    """The output is cut where each action's lines were printed; each piece may name only cards the seat's
    observations showed up to that action (its hand, revealed and public cards)."""
    for seed, seat, output, record in games:
        game = cardarena.load("dicebattle", **record["options"])
        pos = 0
        for lines, _, seen in expected_lines(record, seat):
            end = pos
            for line in lines:
                end = output.find(line, end) + len(line)
            named = named_ids(game, output[pos:end])
            assert named <= seen, f"seed {seed} seat {seat}: {sorted(named - seen)} named before it was seen"
            pos = end
        assert named_ids(game, output[pos:]) <= seen
