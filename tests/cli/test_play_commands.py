"""``cardarena play``: the command line's own commands never shadow a game's action texts, and a record is written
only for a finished game (issue 11, points 6 and 17)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import cardarena
from cardarena.cli.main import cli
from cardarena.cli.play import COMMANDS, PREFIX, Refusal, command_words, interpret, run_play
from cardarena.engine import Rng

# every game with its default options, and the other modes of the games that have several
SETUPS: list[tuple[str, dict[str, Any]]] = [(g, {}) for g in cardarena.games()] + [
    ("tashkalar", {"mode": "highform"}),
    ("tashkalar", {"mode": "melee", "players": 3}),
    ("tashkalar", {"teams": True}),
]


def _answers(*lines: str) -> Any:
    it: Iterator[str] = iter(lines)

    def ask(_prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return ask


def _tashkalar_bottom_lines(seed: int) -> list[str]:
    """Seat 1's answers up to the choice after the discard action, where the game's own ``skip`` is legal."""
    first_being = cardarena.load("tashkalar").new_initial_state(seed).hand_b[1][0]
    card = cardarena.load("tashkalar").cards.cards[first_being].id
    return ["choose c5", f"discard {card}"]


def test_typing_skip_in_tashkalar_is_the_games_skip() -> None:
    """Issue 11 point 17: 「`cardarena play tashkalar`: typing `skip` (a real action of this game) is taken by the
    command line's own `skip`」. After the discard action Tash-Kalar's `skip` stops putting cards under the deck;
    typed at that moment it must be that action, not the command line's "pass until the next turn"."""
    game = cardarena.load("tashkalar")
    lines: list[str] = []
    answers = [*_tashkalar_bottom_lines(3), "skip", ":quit"]
    state = run_play(
        game, seat=1, opponent="random", seed=3, auto=False, record=None, ask=_answers(*answers), echo=lines.append
    )
    assert [str(a) for a in state.history[-2:]] == [answers[1], "skip"]
    assert "You left the game." in lines
    assert not any("needs a pass" in line or "passing whenever possible" in line for line in lines)


def test_typing_skip_through_the_command_line() -> None:
    """The same through ``cardarena play``: after ``skip`` seat 1 is back in its main phase with an action left."""
    answers = "\n".join([*_tashkalar_bottom_lines(3), "skip", ":quit"]) + "\n"
    result = CliRunner().invoke(cli, ["play", "tashkalar", "--seat", "1", "--seed", "3", "--no-auto"], input=answers)
    assert result.exit_code == 0, result.output
    after_skip = result.output.rsplit("seat 1> ", 2)  # seat 1 typed 'skip' at one prompt and ':quit' at the next
    assert len(after_skip) == 3 and "You left the game." in after_skip[2]
    assert "needs a pass" not in result.output and "passing whenever possible" not in result.output
    assert "not accepted" not in result.output


def test_a_game_action_that_is_also_a_command_word_is_refused_with_the_games_reason() -> None:
    """Typed where the game's `skip` is not legal, `skip` is still the game's: refused with the game's reason and
    a pointer to the command line's own ':skip'."""
    game = cardarena.load("tashkalar")
    state = game.new_initial_state(3)
    reply = interpret(state, state.legal_actions(), "skip")
    assert isinstance(reply, Refusal) and "':skip'" in reply and "illegal action 'skip'" in reply
    assert interpret(state, state.legal_actions(), ":skip") == "skip"  # the command, prefixed


@pytest.mark.parametrize(
    ("game_id", "options"), SETUPS, ids=[f"{g}-{'-'.join(map(str, o.values()))}" for g, o in SETUPS]
)
def test_no_command_word_is_a_legal_action_text_in_any_game(game_id: str, options: dict[str, Any]) -> None:
    """Issue 11 point 17 for every game: at sampled states of random games, no command of the command line (the
    ':'-words, the numbers) is the text of a legal action, and typing any legal action's text gives that action."""
    game = cardarena.load(game_id, **options)
    words = set(command_words())
    checked = 0
    seen: set[str] = set()
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = Rng(seed)
        step = 0
        while not state.is_terminal() and step < 400:
            legal = state.legal_actions()
            if step % 3 == 0:
                for action in legal:
                    text = str(action)
                    assert text not in words and not text.startswith(PREFIX) and not text.isdigit(), text
                    assert interpret(state, legal, text) == action, text
                    checked += 1
                    seen.add(text)
            choices = state.playout_actions()
            state.apply(choices[rng.randbelow(len(choices))])
            step += 1
    assert checked >= 5
    if game_id == "tashkalar":
        assert "skip" in seen  # the game's own text that is also a (bare) command word


def test_bare_command_words_still_work_where_the_game_has_no_such_action() -> None:
    """Without the ':' the commands work too where the game cannot read the text as an action (ToraBato)."""
    state = cardarena.load("torabato").new_initial_state(1)
    legal = state.legal_actions()
    for word, command in COMMANDS.items():
        assert interpret(state, legal, word) == command
        assert interpret(state, legal, PREFIX + word.upper()) == command
    assert isinstance(interpret(state, legal, ":fly"), Refusal)


def test_quit_with_record_writes_no_record_of_an_unfinished_game(tmp_path: Path) -> None:
    """Issue 11 point 6: 「A record of an unfinished game is a secret of the whole table」: it holds every seat's
    hidden actions (here the cards the players put under their decks). `play --record` writes a record only once
    the game is over, and says so when a game is left unfinished."""
    path = tmp_path / "game.json"
    answers = "\n".join([*_tashkalar_bottom_lines(3), "skip", "quit"]) + "\n"
    result = CliRunner().invoke(
        cli, ["play", "tashkalar", "--seat", "1", "--seed", "3", "--no-auto", "--record", str(path)], input=answers
    )
    assert result.exit_code == 0, result.output
    assert not path.exists()
    assert f"no record written to {path}: the game is unfinished" in result.output
    assert "records are written only for finished games" in result.output


def test_quit_by_end_of_input_writes_no_record_either(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    lines: list[str] = []
    state = run_play(
        cardarena.load("torabato"),
        seat=0,
        opponent="random",
        seed=2,
        auto=True,
        record=path,
        ask=_answers("1", "1"),
        echo=lines.append,
    )
    assert not state.is_terminal() and not path.exists()
    assert any(line.startswith("no record written") for line in lines)


def test_a_finished_game_is_recorded_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    state = run_play(
        cardarena.load("tashkalar", max_turns=6),
        seat=0,
        opponent="random",
        seed=4,
        auto=True,
        record=path,
        ask=lambda _: "1",
        echo=lambda _: None,
    )
    assert state.is_terminal() and path.exists()
    assert CliRunner().invoke(cli, ["replay", str(path), "--verify"]).exit_code == 0


def test_skip_asks_the_game_what_a_pass_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """':skip' takes the actions ``Game.is_pass`` names, never a text compared by the command line."""
    game = cardarena.load("torabato")
    out: list[str] = []
    run_play(
        game,
        seat=0,
        opponent="random",
        seed=4,
        auto=True,
        record=None,
        ask=_answers("1", "1", ":skip"),
        echo=out.append,
    )
    assert any("passing whenever possible" in line for line in out)
    monkeypatch.setattr(type(game), "is_pass", lambda self, action: False)
    out.clear()
    run_play(
        game,
        seat=0,
        opponent="random",
        seed=4,
        auto=True,
        record=None,
        ask=_answers("1", "1", ":skip"),
        echo=out.append,
    )
    assert any("needs a pass among your choices" in line for line in out)
