"""Hidden information: hands, deck order and face-down set cards stay hidden until revealed; resample is sound."""

from __future__ import annotations

import json

import pytest

from cardarena.engine import Rng
from cardarena.games.dicebattle import views as hidden
from cardarena.games.dicebattle.state import DiceBattleState, Side
from cardarena.games.dicebattle.views import search_set, set_is_valid

from .helpers import act, arrange, battle, edit_side, new_state, set_roll


def _setting_position() -> DiceBattleState:
    st = arrange(
        new_state(seed=5),
        roll=6,
        hands=(["apprentice_mage", "spark", "blessing", "ember_imp", "ogre"], ["slime", "harpy", "titan"]),
    )
    act(st, "set apprentice_mage", "magic spark", "grant ember_imp")
    return st


def test_opponent_sees_counts_of_face_down_cards_not_names() -> None:
    """ゲームの進行 (RULINGS): the second player sees how many face-down cards the first player set."""
    st = _setting_position()
    act(st, "done")
    theirs = st.observation(1)["players"][0]
    assert theirs["main"] == 1 and theirs["circle"] == 1 and theirs["grant"] == 1
    assert "hand" not in theirs and theirs["hand_count"] == 2
    mine = st.observation(0)["players"][0]
    assert mine["main"] == ["apprentice_mage"] and mine["circle"] == ["spark"] and mine["grant"] == "ember_imp"
    assert mine["hand"] == ["blessing", "ogre"]
    text = json.dumps(st.observation(1))
    for secret in ("apprentice_mage", "spark", "ember_imp", "blessing", "ogre"):
        assert secret not in text
    assert "deck" not in json.dumps(st.observation(None)).replace("deck_count", "")


def test_set_cards_revealed_in_the_battle_phase() -> None:
    """バトルフェイズ: お互いにセットしたカードを表側にして."""
    st = _setting_position()
    act(st, "done")
    set_roll(st, 1, 1)
    act(st, "set slime", "done")
    events = " ".join(st.observation(1)["events"])
    assert "seat 0 reveals Apprentice Mage (Lv1); magic: Spark; grant: Ember Imp" in events


def test_render_hides_the_opponents_hand_and_set_cards() -> None:
    st = _setting_position()
    act(st, "done")
    text = st.render(1)
    assert "1 face-down card(s)" in text and "Apprentice" not in text and "Blessing" not in text
    assert "Harpy" in text  # seat 1's own hand
    assert "Waiting on you: set cards for die" in text


def test_action_seen_by_censors_face_down_sets() -> None:
    st = arrange(new_state(), roll=6, hands=(["apprentice_mage"], []))
    action = st.game.parse_action(st, "set apprentice_mage")
    assert st.game.action_seen_by(st, action, 1) == "sets a card face down in the main zone"
    assert "Apprentice Mage" in st.game.action_seen_by(st, action, 0)


def test_resample_redraws_hidden_cards_consistently() -> None:
    """resample(seat): same observation; the opponent's hand and face-down set redrawn into a legal set."""
    st = _setting_position()
    act(st, "done")
    obs = st.observation(1)
    seen_sets = set()
    for k in range(30):
        other = st.resample(1, Rng(k))
        assert other.observation(1) == obs
        side = other.sides[0]
        assert set_is_valid(other.game.tables, side.main, side.circle, side.grant, side.roll)
        seen_sets.add((tuple(side.main), tuple(side.circle), side.grant))
        everything = sorted([*side.hand, *side.deck, *side.main, *side.circle, side.grant])
        truth = st.sides[0]
        assert everything == sorted([*truth.hand, *truth.deck, *truth.main, *truth.circle, truth.grant])
        assert other.sides[1].hand == st.sides[1].hand  # own hand untouched
    assert len(seen_sets) > 1  # really redrawn


def test_resample_keeps_publicly_known_cards_in_hand() -> None:
    """Revived cards are public knowledge: every resample keeps them in that hand."""
    st = battle(new_state(), main=(["behemoth"], ["apprentice_mage"]), circle=([], ["fireball"]))
    act(st, "skip apprentice_mage", "revive fireball")
    fireball = st.game.tables.by_id["fireball"]
    for k in range(20):
        other = st.resample(0, Rng(k))
        assert fireball in other.sides[1].hand
        assert other.observation(0) == st.observation(0)


def test_resample_reseeds_the_future() -> None:
    st = new_state(seed=3)
    rolls = set()
    for k in range(20):
        other = st.resample(st.current_player or 0, Rng(k))
        while other.current_player == st.current_player and not other.is_terminal():
            other.apply(other.legal_actions()[0])
        rolls.add(tuple(s.roll for s in other.sides))
    assert len(rolls) > 1


def test_render_does_not_tell_the_other_seats_what_is_left_of_the_die() -> None:
    """Face-down cards: what is left of the setter's die would give away the levels of the cards set."""
    st = arrange(new_state(seed=5), roll=6, hands=(["apprentice_mage", "spark", "blessing"], ["slime"]))
    act(st, "set apprentice_mage", "magic spark")
    assert st.render(0).splitlines()[-1] == "Waiting on you: set cards for die 6 (4 left to use)."
    for seat in (1, None):
        text = st.render(seat)
        assert text.splitlines()[-1] == "Waiting on seat 0: set cards for die 6."
        assert "left to use" not in text


def test_resample_for_a_seat_not_to_act_drops_the_true_legal_actions() -> None:
    """The opponent's legal actions name the cards of its hand: a resample must not keep the true ones."""
    st = arrange(
        new_state(seed=5),
        roll=6,
        hands=(["apprentice_mage", "spark", "blessing", "ember_imp", "ogre"], ["slime"]),
    )
    true_legal = st.legal_actions()  # cached on the true state
    assert "set ogre" in [str(a) for a in true_legal]
    for k in range(20):
        other = st.resample(1, Rng(k))
        hand = other.sides[0].hand
        for action in other.legal_actions():
            if action[0] == "set":
                assert other.game.tables.by_id[action[1]] in hand
        other.apply(other.legal_actions()[-1])  # every listed action applies


def _hard_set_position() -> DiceBattleState:
    """Seat 0 has set a Lv2 human with four Lv1 magic on a 6: few draws of the hidden cards fit."""
    st = arrange(
        new_state(deck0="arcana", deck1="horde", seed=11),
        roll=6,
        hands=(["herbalist", "blessing", "spark", "insight", "insight", "lightning"], ["slime"]),
    )
    act(st, "set herbalist", "magic blessing", "magic spark", "magic insight", "magic insight", "done")
    return st


def test_resample_constructs_a_consistent_set_when_random_draws_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """Face-down cards are redrawn even when every random draw fails: never the true set kept by default."""
    st = _hard_set_position()
    obs = st.observation(1)
    monkeypatch.setattr(hidden, "ATTEMPTS", 0)  # only the exhaustive search is left
    seen = set()
    for k in range(40):
        other = st.resample(1, Rng(k))
        side = other.sides[0]
        assert other.observation(1) == obs
        assert set_is_valid(other.game.tables, side.main, side.circle, side.grant, side.roll)
        assert len(side.main) == 1 and len(side.circle) == 4 and side.grant < 0
        truth = st.sides[0]
        assert sorted([*side.hand, *side.deck, *side.main, *side.circle]) == sorted(
            [*truth.hand, *truth.deck, *truth.main, *truth.circle]
        )
        seen.add((tuple(side.main), tuple(sorted(side.circle))))
    assert len(seen) > 3


def test_search_set_finds_the_only_set_and_keeps_known_cards_in_hand() -> None:
    """The exhaustive search obeys the setting rules and the known cards (which must stay in the hand)."""
    st = new_state(deck0="arcana", deck1="horde")
    t = st.game.tables
    mage, spark, titan, ogre = (t.by_id[n] for n in ("apprentice_mage", "spark", "titan", "ogre"))
    # One unit and one magic on a 2: only Apprentice Mage + Spark fit.
    for k in range(10):
        found = search_set(t, [titan, spark, ogre, mage], 1, 1, False, 2, Rng(k), known=[], hand_n=2)
        assert found == ([mage], [spark], -1)
    assert search_set(t, [titan, spark, ogre], 1, 1, False, 2, Rng(0), known=[], hand_n=2) is None
    # A known card that the hand (of 0 cards) cannot hold must be among the set cards.
    found = search_set(t, [mage, mage, spark, titan], 1, 0, False, 6, Rng(3), known=[titan], hand_n=0)
    assert found == ([titan], [], -1)


def test_resample_and_search_know_that_a_slime_joins_for_free(monkeypatch: pytest.MonkeyPatch) -> None:
    """異例 (Slime) in the opponent's view: Ogre + Slime face down on a 4 is a legal set, and resamples of it are."""
    t = new_state().game.tables
    slime, ogre, titan, goblin = (t.by_id[n] for n in ("slime", "ogre", "titan", "goblin"))
    assert set_is_valid(t, [ogre, slime, slime], [], -1, 4)
    assert not set_is_valid(t, [slime, ogre], [], -1, 4) and not set_is_valid(t, [ogre, goblin], [], -1, 4)
    for k in range(10):  # the only pair that fits: Ogre set first, the Slime joining it
        found = search_set(t, [slime, titan, ogre, titan], 2, 0, False, 4, Rng(k), known=[], hand_n=2)
        assert found == ([ogre, slime], [], -1)
    st = arrange(new_state(seed=2), roll=4, hands=(["ogre", "slime", "slime", "titan"], ["hydra"]))
    act(st, "set ogre", "set slime", "set slime", "done")
    for attempts in (hidden.ATTEMPTS, 0):  # random draws, then the exhaustive search alone
        monkeypatch.setattr(hidden, "ATTEMPTS", attempts)
        for k in range(20):
            side = st.resample(1, Rng(k)).sides[0]
            assert len(side.main) == 3 and set_is_valid(t, side.main, side.circle, side.grant, side.roll)


def test_resample_after_the_dice_token_keeps_a_hand_that_could_set_nothing() -> None:
    """ダイスフェイズ: the dice token after three redraws tells the opponent that no unit of the hand fits the die;
    every resample until that player's next dice phase keeps such a hand."""
    st = arrange(
        new_state(seed=4),
        roll=1,
        hands=(["titan", "ogre", "spark"], ["slime", "goblin"]),
        decks=(["slime", "titan"] * 6, ["slime"] * 10),
        miracle=(False, True),
    )
    edit_side(st, 0, redraws=3)
    act(st, "token")
    assert (st.sides[0].stuck, st.sides[0].stuck_roll) == (3, 1)
    t = st.game.tables
    for k in range(30):
        other = st.resample(1, Rng(k))
        assert not any(t.fits(c, 1) for c in other.sides[0].hand)
        assert other.observation(1) == st.observation(1)
    # Through the battle into the next round the constraint holds for the cards still in the hand.
    set_roll(st, 1, 1)
    act(st, "set slime", "done")
    assert st.round == 2 and st.actor == 1 and st.sides[0].stuck == 3
    hands = {tuple(sorted(st.resample(1, Rng(k)).sides[0].hand)) for k in range(30)}
    assert all(sum(not t.fits(c, 1) for c in hand) >= 3 for hand in hands)
    assert any(any(t.fits(c, 1) for c in hand) for hand in hands)  # the new draws are free
    # Seat 0's next dice phase ends it.
    set_roll(st, 1, 6)
    act(st, "set goblin", "done")
    assert st.actor == 0 and st.sides[0].stuck == 0


def test_a_random_discard_of_a_card_that_does_not_fit_lowers_the_bound() -> None:
    """A discarded card that does not fit may have been one of the token hand's: one fewer is certain."""
    st = battle(new_state(), main=([], ["street_urchin"]), token=(True, False), hands=(["titan", "ogre"], []))
    edit_side(st, 0, stuck=2, stuck_roll=1)
    act(st, "use street_urchin")
    assert st.sides[0].stuck == 1


def _all_cards(side: Side) -> list[int]:
    grant = [side.grant] if side.grant >= 0 else []
    return sorted([*side.hand, *side.deck, *side.grave, *side.main, *side.circle, *side.stock, *grant])


@pytest.mark.parametrize("decks", [("horde", "arcana"), ("vanguard", "horde"), ("arcana", "vanguard")])
def test_every_resample_of_random_play_is_sound_and_plays_on(decks: tuple[str, str]) -> None:
    """Along random games: resampled sides hold the same cards, face-down sets obey the rules, play goes on."""
    for seed in range(12):
        st = new_state(*decks, seed=seed)
        rng = Rng(seed)
        while not st.is_terminal():
            for seat in (0, 1):
                other = st.resample(seat, rng.fork())
                for true_side, side in zip(st.sides, other.sides, strict=True):
                    assert _all_cards(side) == _all_cards(true_side)
                    assert len(side.hand) == len(true_side.hand) and len(side.deck) == len(true_side.deck)
                    if side.main:
                        assert set_is_valid(other.game.tables, side.main, side.circle, side.grant, side.roll)
                for _ in range(10):
                    if other.is_terminal():
                        break
                    legal = other.legal_actions()
                    other.apply(legal[rng.randbelow(len(legal))])
            legal = st.legal_actions()
            st.apply(legal[rng.randbelow(len(legal))])
