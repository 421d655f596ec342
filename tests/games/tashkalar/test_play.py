"""Text rendering and terminal play: a person can play a whole game (``cardarena play tashkalar``)."""

from __future__ import annotations

import cardarena
from cardarena.cli.play import run_play
from cardarena.games.tashkalar.state import TashKalarState

from .helpers import being, make_game, play, position


def test_a_person_answering_1_plays_to_the_end() -> None:
    game = cardarena.load("tashkalar")
    lines: list[str] = []
    state = run_play(
        game, seat=0, opponent="random", seed=3, auto=False, record=None, ask=lambda _: "1", echo=lines.append
    )
    assert state.is_terminal()
    assert any(line.startswith("Game over") for line in lines)


def test_render_shows_board_scores_and_only_your_hand() -> None:
    game = cardarena.load("tashkalar")
    st = game.new_initial_state(5)
    assert isinstance(st, TashKalarState)
    mine = game.render(st, 0)
    theirs = game.render(st, None)
    own_card = game.cards.cards[st.hand_b[0][0]].id
    assert own_card in mine and own_card not in theirs
    assert "a  b  c  d  e  f  g  h  i" in theirs and "pts / 18" in theirs
    rows = [line for line in theirs.splitlines() if line.strip()[:1].isdigit()]
    assert len(rows) == 9


def test_render_marks_the_pattern_squares_of_a_resolving_effect() -> None:
    g = make_game(being("beam", ". *\nc @", [{"do": "destroy", "who": "enemy", "on": "marked"}]))
    st = position(g, "d5:o e6:x", hand=("beam",))
    play(st, "summon beam at e5 r0")
    text = g.render(st, 0)
    assert "[x]" in text and "resolving Beam" in text
    assert "destroying" not in g.describe_action(st, st.legal_actions()[0])
    assert "Destroy" in g.describe_action(st, st.legal_actions()[0])


def test_the_opponents_line_does_not_name_the_card_put_under_their_deck() -> None:
    """cli/play prints the opponent's actions through action_seen_by: a card put under the deck stays hidden."""
    game = cardarena.load("tashkalar")
    lines: list[str] = []
    run_play(game, seat=1, opponent="random", seed=0, auto=False, record=None, ask=lambda _: "1", echo=lines.append)
    under = [line for line in lines if line.startswith("seat 0 (random): put")]
    assert under and all(line.endswith("(which card is hidden)") for line in under)
    names = [c.name for c in game.cards.cards]
    assert not any("put under" in line and any(n in line for n in names) for line in lines if line.startswith("seat 0"))
