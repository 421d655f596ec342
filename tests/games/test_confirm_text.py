"""``Game.confirm_text`` (issue 28, point 6): the question a table asks before an action that ends the seat's build,
turn or game early, or that cannot be taken back; ``None`` for the actions sent at once. The server sends it as
the legal action's ``confirm`` (``legal_view``); tests/web/ui/test_confirm.py checks the page asks it."""

from __future__ import annotations

import random
from collections.abc import Callable

from cardarena.engine import Action, State, load
from cardarena.games.lyabi.constants import P_ITEM, P_MAIN
from cardarena.games.torabato.cards import BY_NAME
from cardarena.games.torabato.game import card_words
from cardarena.web.views import legal_view
from tests.engine.toy import KEEP, SWAP, ToyGame


def reach(state: State, found: Callable[[State], Action | None], seed: int = 1, plies: int = 2000) -> Action:
    """Play random legal actions (never resigning) until ``found(state)`` names an action; that action."""
    rng = random.Random(seed)
    for _ in range(plies):
        assert not state.is_terminal(), "the position was not reached"
        action = found(state)
        if action is not None:
            return action
        state.apply(rng.choice(state.playout_actions()))
    raise AssertionError("the position was not reached")


def legal(state: State, text: str) -> Action | None:
    return next((a for a in state.legal_actions() if str(a) == text), None)


def test_the_default_asks_only_before_resigning() -> None:
    game = ToyGame()
    state = game.new_initial_state(0)
    assert [game.confirm_text(state, a) for a in (KEEP, SWAP)] == [None, None]
    game.resign_action = SWAP  # a game that offers resigning
    assert game.confirm_text(state, SWAP) == "Resign: you lose the game?"
    assert game.confirm_text(state, KEEP) is None


def test_torabato_asks_before_a_card_is_set_as_mana() -> None:
    game = load("torabato")
    state = game.new_initial_state(3)
    mana = reach(state, lambda s: next((a for a in s.legal_actions() if str(a).startswith("mana ")), None))
    card = str(mana).split(" ")[1]
    assert game.confirm_text(state, mana) == (
        f"Set the {card_words(BY_NAME[card])} as mana? A card used as mana is no longer its printed card."
    )
    assert all(game.confirm_text(state, a) is None for a in state.legal_actions() if not str(a).startswith("mana "))
    assert [card_words(BY_NAME[n]) for n in ("8C", "AS", "KD", "10H", "JK0")] == [
        "8 of clubs",
        "ace of spades",
        "king of diamonds",
        "10 of hearts",
        "joker",
    ]


def test_laplaplace_asks_before_a_build_is_finished() -> None:
    game = load("laplaplace")
    state = game.new_initial_state(0)
    done = reach(state, lambda s: legal(s, "done"))
    assert (
        game.confirm_text(state, done)
        == "Finish your build with no cards (of 8)? An empty build cannot win the battle."
    )
    adds = [a for a in state.legal_actions() if str(a) != "done"]
    for a in adds[:3]:
        state.apply(a)
    assert game.confirm_text(state, done) == "Finish your build with 3 of 8 cards?"
    assert all(game.confirm_text(state, a) is None for a in state.legal_actions() if a != done)


def test_tashkalar_asks_before_resigning_and_before_an_end_that_gives_actions_up() -> None:
    game = load("tashkalar")
    state = game.new_initial_state(2)
    end = reach(state, lambda s: legal(s, "end") if getattr(s, "actions", 0) == 2 else None)
    assert game.confirm_text(state, end) == "End your turn with 2 actions left?"
    assert game.confirm_text(state, legal(state, "resign")) == "Resign: you lose the game?"  # type: ignore[arg-type]
    assert load("tashkalar", teams=True, players=4).confirm_text(state, legal(state, "resign")) == (  # type: ignore[arg-type]
        "Resign: your team loses the game?"
    )
    # an end with no action left gives nothing up: sent at once
    state = game.new_initial_state(2)
    end = reach(state, lambda s: legal(s, "end") if getattr(s, "actions", 1) == 0 else None)
    assert game.confirm_text(state, end) is None


def test_lyabi_asks_before_a_main_phase_pass_only() -> None:
    game = load("lyabi")
    state = game.new_initial_state(4)
    phase = lambda s: getattr(s, "phase", None)  # noqa: E731
    passing = reach(state, lambda s: legal(s, "pass") if phase(s) == P_MAIN and len(s.legal_actions()) > 1 else None)
    assert game.confirm_text(state, passing) == "End your main phase without an action?"
    state = game.new_initial_state(4)
    passing = reach(state, lambda s: legal(s, "pass") if phase(s) == P_ITEM else None)
    assert game.confirm_text(state, passing) is None


def test_dicebattle_asks_before_setting_ends_with_the_die_unused() -> None:
    game = load("dicebattle")
    state = game.new_initial_state(3)
    done = reach(state, lambda s: legal(s, "done") if len(s.legal_actions()) > 1 else None)
    text = game.confirm_text(state, done)
    assert text is not None and text.startswith("Finish setting with ") and text.endswith(" unused?")
    assert all(game.confirm_text(state, a) is None for a in state.legal_actions() if a != done)


def test_legal_view_sends_the_question_with_the_action_to_the_seat_to_act_only() -> None:
    state = load("laplaplace").new_initial_state(0)
    reach(state, lambda s: legal(s, "done"))
    seat = state.current_player
    assert seat is not None
    view = {a["text"]: a for a in legal_view(state, seat)}
    assert view["done"]["confirm"].startswith("Finish your build with ")
    assert all("confirm" not in a for t, a in view.items() if t != "done")
    assert legal_view(state, 1 - seat) == [] and legal_view(state, None) == []
