"""ToraBato's AI hooks (issue 14): hidden_cards (resample redraws them), evaluate, heuristic_action, hidden_facts."""

from __future__ import annotations

from typing import Any, cast

import pytest

import cardarena
from cardarena.agents import SeatView, make_agent
from cardarena.engine import Rng, State, derive_seed
from cardarena.engine.harness import ConformanceError, check_resample_redraws
from cardarena.games.torabato.constants import SELECT_BLOCKERS
from cardarena.games.torabato.state import ToraBatoState

from .helpers import do, position

GAME = cardarena.load("torabato")


def _positions(seeds: range, every: int = 7) -> list[ToraBatoState]:
    out = []
    for seed in seeds:
        s = GAME.new_initial_state(seed)
        assert isinstance(s, ToraBatoState)
        rng = Rng(seed)
        while not s.is_terminal():
            if len(s.history) % every == 0:
                out.append(s.clone())
            legal = s.playout_actions()
            s.apply(legal[rng.randbelow(len(legal))])
    return out


# -- hidden_cards --------------------------------------------------------------------------------------------------
def test_hidden_cards_pool_the_opponents_unseen_cards_and_your_deck_order() -> None:
    s = position(hands=(["2S"], ["3H", "4H"]), mana=([], ["5H"]), decks=(["6S", "7S"], ["8H", "9H"]))
    assert GAME.hidden_cards(s, 0) == {
        "your deck": {"deck 0": "6S", "deck 1": "7S"},
        "opponent's hand, mana and deck": {
            "hand 0": "3H",
            "hand 1": "4H",
            "mana 0": "5H",
            "deck 0": "8H",
            "deck 1": "9H",
        },
    }


class _KeepsHand:
    """A position whose ``resample`` has a planted bug (the opponent's true hand kept in every world), seen through
    what ``check_resample_redraws`` reads: ``game`` (``num_players``, ``hidden_cards``) and ``resample``. A wrapper,
    not a patch of ``views.resample``: the compiled state calls its rules directly and would never see a patch."""

    def __init__(self, st: ToraBatoState) -> None:
        self.st = st
        self.game = self
        self.num_players = st.game.num_players

    def hidden_cards(self, state: object, seat: int) -> dict[str, dict[str, Any]] | None:
        return self.st.game.hidden_cards(self.st if state is self else state, seat)  # type: ignore[arg-type]

    def resample(self, seat: int, rng: Rng) -> ToraBatoState:
        st = self.st
        world = st.resample(seat, rng)
        o = 1 - seat
        pool = world.hand[o] + world.mana[o] + world.deck[o]
        world.hand[o] = list(st.hand[o])
        rest = [c for c in pool if c not in st.hand[o]]
        world.mana[o], world.deck[o] = rest[: len(st.mana[o])], rest[len(st.mana[o]) :]
        return world


def test_a_resample_that_leaves_the_opponents_hand_in_place_is_caught() -> None:
    """The twin of the leak test: a planted bug (the opponent's true hand kept in every world) fails the check."""
    s = _positions(range(1), every=40)[2]
    check_resample_redraws(s, 1)  # the real resample passes
    with pytest.raises(ConformanceError, match="left opponent's hand, mana and deck hand 0"):
        check_resample_redraws(cast(State, _KeepsHand(s)), 1)


# -- heuristic_action and evaluate ---------------------------------------------------------------------------------
def test_heuristic_action_is_always_legal_and_evaluate_is_in_range() -> None:
    kinds = set()
    for k, s in enumerate(_positions(range(8), every=3)):
        seat = s.current_player
        assert seat is not None
        legal = s.legal_actions()
        action = GAME.heuristic_action(s.observation(seat), legal, seat, Rng(k))
        assert action in legal
        kinds.add(legal[0][0])
        for viewer in (0, 1):
            value = GAME.evaluate(s.observation(viewer), viewer)
            assert value is not None and -1.0 <= value <= 1.0
    assert kinds >= {"pass", "reveal", "attacker", "block", "choose"}


def test_evaluate_reads_the_race_and_the_result() -> None:
    ahead = position(decks=([f"{r}S" for r in ("2", "3", "4", "5", "6", "7")], ["2H"]))
    assert GAME.evaluate(ahead.observation(0), 0) > 0.5 > -0.5 > GAME.evaluate(ahead.observation(1), 1)
    ahead.edit(deck=[ahead.deck[0], []])
    do(ahead, "pass", "pass", "pass", "pass")
    assert ahead.is_terminal() and GAME.evaluate(ahead.observation(0), 0) == 1.0


def test_heuristic_answers_a_lethal_damage_spell_with_a_7() -> None:
    s = position(active=1, hands=(["7S"], ["3H"]), field=(["KS"], []), mana=(["AS"], ["AH", "2H", "4H", "5H"]))
    do(s, "play 3H @KS", "pass")
    action = GAME.heuristic_action(s.observation(0), s.legal_actions(), 0, Rng(0))
    assert str(action) == "play 7S @3H"


def test_heuristic_attacks_when_no_blocker_can_punish_and_blocks_to_kill() -> None:
    s = position(field=(["KS"], ["JH"]))
    assert str(GAME.heuristic_action(s.observation(0), s.legal_actions(), 0, Rng(0))) == "attack"
    s = position(field=(["JS"], ["KH"]))
    assert str(GAME.heuristic_action(s.observation(0), s.legal_actions(), 0, Rng(0))) != "attack"
    s = position(active=1, field=(["KS", "10S"], ["JH"]))
    do(s, "attack", "pass", "pass", "attacker JH", "pass", "pass")
    assert s.phase == SELECT_BLOCKERS
    assert str(GAME.heuristic_action(s.observation(0), s.legal_actions(), 0, Rng(0))) == "block KS JH"


def test_heuristic_beats_random_by_a_wide_margin() -> None:
    """A smoke test, deterministic (fixed seeds): 10 pairs of games, both seat orders. The measured rate is 400 of
    400 (cardarena strength torabato --agents heuristic random -n 200); 14 of 20 leaves a margin no honest
    heuristic misses."""
    wins = 0
    for seed in range(10):
        for hero in (0, 1):
            s = GAME.new_initial_state(seed)
            rng = Rng(seed)
            other = make_agent("random", derive_seed(seed, hero))
            while not s.is_terminal():
                seat = s.current_player
                assert seat is not None
                if seat == hero:
                    action = GAME.heuristic_action(s.observation(seat), s.legal_actions(), seat, rng)
                    assert action is not None
                else:
                    action = other.act(SeatView(s, seat))
                s.apply(action)
            wins += s.returns()[hero] > 0
    assert wins >= 14


# -- hidden_facts --------------------------------------------------------------------------------------------------
def test_hidden_facts_follow_what_the_seat_knows() -> None:
    """Facts are read from resampled worlds: a known ace in the opponent's hand is there in every world; an unseen
    hand gives both answers over many worlds."""
    s = position(hands=(["2S"], ["AH", "3H", "4H"]), mana=([], ["5H"]))
    s.edit(known=[[], [GAME.parse_action(s, "reveal AH")[1]]])
    answers = {GAME.hidden_facts(s.resample(0, Rng(k)), 0)["opponent holds an ace"] for k in range(30)}
    assert answers == {"yes"}
    s.edit(known=[[], []])
    facts = [GAME.hidden_facts(s.resample(0, Rng(k)), 0) for k in range(60)]
    assert {f["opponent holds an ace"] for f in facts} == {"yes", "no"}
    assert all(isinstance(v, str) for f in facts for v in f.values())
    assert {f["opponent's hand: soldiers / spells"].count("/") for f in facts} == {1}
