"""``hint`` and ``odds`` in play (issue 14 point 7): what they show, and that they reveal nothing the seat's own
knowledge does not imply: their output is the same from the true state and from any resample of it for that seat."""

from __future__ import annotations

import zlib
from typing import Any

import pytest
from click.testing import CliRunner

import cardarena
from cardarena.cli.advice import hint_lines, odds_lines
from cardarena.cli.main import cli
from cardarena.engine import Game, Rng, State

SETUPS: list[tuple[str, dict[str, Any]]] = [(g, {}) for g in cardarena.games()] + [
    ("tashkalar", {"mode": "melee", "players": 3})
]


def _positions(game: Game, seed: int, every: int, limit: int) -> list[State]:
    """Positions of a random game where a seat with more than one choice is to act."""
    state = game.new_initial_state(seed)
    rng = Rng(seed)
    out = []
    step = 0
    while not state.is_terminal() and len(out) < limit:
        if step % every == 0 and len(state.legal_actions()) > 1:
            out.append(state.clone())
        choices = state.playout_actions()
        state.apply(choices[rng.randbelow(len(choices))])
        step += 1
    return out


def _world_digest(world: State, seat: int) -> dict[str, str]:
    """A 'fact' that reads the whole resampled world, hidden cards included: if anything true but unknown to the
    seat reached the worlds, the tally would tell the true state from a resample."""
    return {"world": str(zlib.crc32(repr(sorted(world.snapshot().items(), key=str)).encode()) % 1_000_000)}


@pytest.mark.parametrize(("game_id", "options"), SETUPS, ids=[g + str(o) for g, o in SETUPS])
def test_hint_and_odds_are_the_same_from_the_state_and_from_a_resample(
    game_id: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = cardarena.load(game_id, **options)
    positions = _positions(game, 2, every=7, limit=2)
    assert positions
    for state in positions:
        seat = state.current_player
        assert seat is not None
        hint = hint_lines(state, seat, spec="ismcts:iterations=40", seed=11)
        odds = odds_lines(state, seat, seed=11, worlds=40)
        for k in range(2):
            world = state.resample(seat, Rng(100 + k))
            assert hint_lines(world, seat, spec="ismcts:iterations=40", seed=11) == hint
            assert odds_lines(world, seat, seed=11, worlds=40) == odds
    # the same with a fact that reads everything in each world
    monkeypatch.setattr(type(game), "hidden_facts", lambda self, world, seat: _world_digest(world, seat))
    for state in positions:
        seat = state.current_player
        assert seat is not None
        odds = odds_lines(state, seat, seed=5, worlds=30)
        assert odds[1].startswith("  world: ")
        assert odds_lines(state.resample(seat, Rng(7)), seat, seed=5, worlds=30) == odds


def test_the_same_check_catches_a_resample_that_keeps_the_true_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: with a planted leak (resample returns the true state), the odds drawn from the
    true state differ from those drawn from a resample of it."""
    game = cardarena.load("lyabi")
    state = _positions(game, 2, every=7, limit=1)[0]
    seat = state.current_player
    assert seat is not None
    world = state.resample(seat, Rng(7))
    monkeypatch.setattr(type(game), "hidden_facts", lambda self, w, s: _world_digest(w, s))
    assert odds_lines(state, seat, seed=5, worlds=30) == odds_lines(world, seat, seed=5, worlds=30)
    monkeypatch.setattr(type(state), "resample", lambda self, s, rng: self.clone())
    assert odds_lines(state, seat, seed=5, worlds=30) != odds_lines(world, seat, seed=5, worlds=30)


def test_hint_shows_the_top_three_with_visit_share_and_win_rate() -> None:
    game = cardarena.load("torabato")
    state = next(s for s in _positions(game, 3, every=1, limit=40) if len(s.legal_actions()) >= 3)
    seat = state.current_player
    assert seat is not None
    # prior=0: the rows in order of visits alone (with a prior, the game's heuristic choice is credited first)
    lines = hint_lines(state, seat, spec="ismcts:iterations=60,prior=0", seed=1, code_of=lambda a: "9.9")
    assert (
        lines[0].startswith("hint from ismcts:iterations=60,prior=0 (")
        and "win rate = (mean return + 1) / 2" in lines[0]
    )
    assert len(lines) == 4
    shares = []
    for line in lines[1:]:
        assert "[9.9]" in line and "% of visits, win rate " in line
        shares.append(int(line.split(" — ")[1].split("%")[0]))
    assert shares == sorted(shares, reverse=True) and sum(shares) <= 101
    legal = {str(a) for a in state.legal_actions()}
    assert all(line.split(". ", 1)[1].split(" [")[0] in legal for line in lines[1:])
    # an agent without search statistics: its choice alone
    assert hint_lines(state, seat, spec="random", seed=1)[0].startswith("hint from random: ")
    other = 1 - seat
    assert hint_lines(state, other, spec="random", seed=1) == ["hint: it is not your turn."]


def test_odds_tally_the_games_facts_most_likely_first(monkeypatch: pytest.MonkeyPatch) -> None:
    game = cardarena.load("lyabi")
    state = game.new_initial_state(4)
    seat = state.current_player
    assert seat is not None
    monkeypatch.setattr(type(game), "hidden_facts", lambda self, world, seat: {})
    assert odds_lines(state, seat, seed=1, worlds=10) == [
        f"odds: {game.name} declares no hidden facts to estimate (Game.hidden_facts) at this point."
    ]
    facts = iter(["a", "b", "a", "c", "a", "b"] * 10)
    monkeypatch.setattr(type(game), "hidden_facts", lambda self, world, seat: {"letter": next(facts)})
    lines = odds_lines(state, seat, seed=1, worlds=60)
    assert lines == ["odds from 60 worlds consistent with what you know:", "  letter: a 50%, b 33%, c 17%"]
    facts = iter([{"big": "yes"}, {}, {}] * 10)  # a fact declared in some worlds only
    monkeypatch.setattr(type(game), "hidden_facts", lambda self, world, seat: next(facts))
    assert odds_lines(state, seat, seed=1, worlds=30)[1] == "  big: yes 33%, other or none 67%"


def test_hint_and_odds_as_commands_in_play() -> None:
    answers = "1\n1\n:hint\nodds\n:quit\n"
    out = CliRunner().invoke(cli, ["play", "torabato", "--seed", "3", "--hint", "ismcts:iterations=30"], input=answers)
    assert out.exit_code == 0, out.output
    assert "hint from ismcts:iterations=30 (" in out.output and "% of visits" in out.output
    assert "odds" in out.output
