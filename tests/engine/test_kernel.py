"""The kernel on its own, through a toy game: protocol, errors, options, records, harness."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardarena
from cardarena.engine import (
    IllegalActionError,
    InvalidActionError,
    OptionError,
    RecordError,
    Rng,
    UnknownGameError,
    derive_seed,
    load,
    replay,
)
from cardarena.engine.harness import (
    ConformanceError,
    check_game,
    check_resample_canonical,
    check_resample_redraws,
)

from .toy import SWAP, BidGame, BidState, ToyGame, ToyState


def test_registry_lists_real_games_and_rejects_unknown_ones() -> None:
    assert "toy" in cardarena.games()
    with pytest.raises(UnknownGameError, match=r"valid games: .*toy"):
        load("no-such-game")


def test_options_are_converted_from_text_and_checked() -> None:
    assert load("toy", rounds="4").options["rounds"] == 4
    with pytest.raises(OptionError, match="valid options: max_turns, rounds"):
        load("toy", colour="red")
    with pytest.raises(OptionError, match="whole number"):
        load("toy", rounds="four")
    with pytest.raises(OptionError, match="above the maximum"):
        load("toy", rounds=10)


def test_illegal_action_is_typed_and_leaves_the_state_unchanged() -> None:
    game = ToyGame()
    state = game.new_initial_state(3)
    state.deck.clear()  # now only 'keep' is legal
    state._legal = None
    before = state.snapshot()
    with pytest.raises(IllegalActionError) as info:
        state.apply(SWAP)
    assert info.value.action == SWAP and info.value.state is state
    assert isinstance(info.value, ValueError)
    assert state.snapshot() == before
    with pytest.raises(InvalidActionError):
        state.apply_text("jump")


def test_same_seed_same_game_and_records_replay() -> None:
    game = ToyGame()
    a, b = game.new_initial_state(11), game.new_initial_state(11)
    while not a.is_terminal():
        action = a.legal_actions()[-1]
        a.apply(action)
        b.apply(action)
    assert a.snapshot() == b.snapshot()
    record = json.loads(json.dumps(a.to_record()))
    assert replay(record, verify=True).snapshot() == a.snapshot()
    record["result"] = [5.0, 5.0]
    with pytest.raises(RecordError, match="differs"):
        replay(record, verify=True)
    with pytest.raises(RecordError, match="lacks"):
        replay({"game": "toy"})
    with pytest.raises(RecordError, match="does not replay"):
        replay({"game": "toy", "version": "1", "seed": 1, "actions": ["fly"]})


def test_harness_passes_a_correct_game() -> None:
    report = check_game(ToyGame(), range(30), deep_every=1)
    assert report.games == 30 and report.decisions == 30 * 6


class LeakyState(ToyState):
    def observation(self, seat: int | None) -> dict:  # type: ignore[type-arg]
        obs = super().observation(seat)
        obs["deck_top"] = self.deck[-1] if self.deck else None  # a hidden card shown to everyone
        return obs

    def clone(self) -> LeakyState:
        c = super().clone()
        c.__class__ = LeakyState  # the same fields: only the class differs
        return c  # type: ignore[return-value]


class LeakyGame(ToyGame):
    def new_initial_state(self, seed: int = 0) -> LeakyState:
        s = ToyState(self, seed)
        s.__class__ = LeakyState
        return s  # type: ignore[return-value]


def test_harness_catches_a_leak() -> None:
    with pytest.raises(ConformanceError, match="leaks"):
        check_game(LeakyGame(), range(5), deep_every=1)


def test_harness_passes_a_game_with_simultaneous_choices() -> None:
    """A sealed bid stays hidden until both have bid; the reveal that follows shows it (that is no leak)."""
    report = check_game(BidGame(), range(30), deep_every=1)
    assert report.games == 30 and report.decisions == 30 * 6
    report = check_game(BidGame(seal=True), range(30), deep_every=1)
    assert report.games == 30 and report.decisions == 30 * 12


class LeakyBidState(BidState):
    """Shows everyone whether a sealed bid is the top bid before the other seat bids (and resamples consistently
    with that, so the resample test alone cannot see the leak)."""

    def observation(self, seat: int | None) -> dict:  # type: ignore[type-arg]
        obs = super().observation(seat)
        obs["sealed_top_bid"] = [b == 3 for b in self.bids]
        return obs

    def _resample(self, seat: int, rng: Rng | random.Random | int) -> LeakyBidState:
        c = self.clone()
        other = 1 - seat
        if c.bids[other] not in (None, 3):
            c.bids[other] = 1 + Rng.coerce(rng).randbelow(2)
        return c

    def clone(self) -> LeakyBidState:
        c = super().clone()
        c.__class__ = LeakyBidState  # the same fields: only the class differs
        return c  # type: ignore[return-value]


class LeakyBidGame(BidGame):
    def new_initial_state(self, seed: int = 0) -> LeakyBidState:
        s = BidState(self, seed)
        s.__class__ = LeakyBidState
        return s  # type: ignore[return-value]


def test_harness_catches_a_pending_commitment_leak() -> None:
    """No seat's observation may change because of another seat's pending hidden commitment."""
    with pytest.raises(ConformanceError, match=r"'bid 1' and 'bid 3' both as 'bids face down'.*pending hidden"):
        check_game(LeakyBidGame(), range(5), deep_every=1)
    # The bidder goes on with a public action before the other seat bids: the branches are followed to it.
    with pytest.raises(ConformanceError, match=r"'bid 1' and 'bid 3' both as 'bids face down'.* then seal"):
        check_game(LeakyBidGame(seal=True), range(5), deep_every=1)


def test_rng_is_deterministic_and_accepts_other_sources() -> None:
    r = Rng(5)
    draws = [r.randbelow(10) for _ in range(1000)]
    assert draws == [Rng(5).randbelow(10) for _ in range(1)] + draws[1:]
    assert set(draws) == set(range(10))
    assert Rng.coerce(random.Random(1)).state == Rng.coerce(random.Random(1)).state
    assert derive_seed(1, 2, 3) != derive_seed(1, 3, 2)


@given(st.integers(min_value=1, max_value=10_000), st.integers(min_value=0, max_value=2**64))
def test_randbelow_stays_in_range(n: int, seed: int) -> None:
    assert 0 <= Rng(seed).randbelow(n) < n


@given(st.text(max_size=30))
def test_parse_action_never_crashes_on_junk(text: str) -> None:
    game = ToyGame()
    state = game.new_initial_state(0)
    try:
        action = game.parse_action(state, text)
    except InvalidActionError:
        return
    assert str(action) == text.strip()


def test_cardarena_games_stays_callable_after_game_packages_are_imported() -> None:
    import cardarena.games.torabato  # binds the package as the attribute cardarena.games

    assert callable(cardarena.games)
    assert "torabato" in cardarena.games()


def test_resampled_states_forget_the_history_and_have_no_record() -> None:
    state = ToyGame().new_initial_state(2)
    state.apply(SWAP)
    world = state.resample(0, 5)
    assert world.history == [] and state.history == [SWAP]
    with pytest.raises(RecordError, match="hypothetical"):
        world.to_record()


def test_data_files_errors_name_the_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from cardarena.engine import CardDataError
    from cardarena.engine.datafiles import read_toml

    with pytest.raises(CardDataError, match=r"nope\.toml: file not found"):
        read_toml(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("x = [", encoding="utf-8")
    with pytest.raises(CardDataError, match=r"bad\.toml: not valid TOML"):
        read_toml(bad)
    bad.write_bytes(b"\xff\xfe")
    with pytest.raises(CardDataError, match="cannot read the file"):
        read_toml(bad)
    (tmp_path / "ok.toml").write_text("a = 1\n", encoding="utf-8")
    assert read_toml(tmp_path / "ok.toml") == {"a": 1}


def test_zones_draw_mill_and_shuffle_into() -> None:
    from cardarena.engine import zones

    deck, hand, pile = [1, 2, 3], [], []
    assert zones.draw(deck, hand, 2) == 2 and hand == [3, 2] and deck == [1]
    assert zones.mill(deck, pile, 5) == 1 and pile == [1] and deck == []
    assert zones.draw(deck, hand, 1) == 0  # an empty deck draws nothing
    zones.shuffle_into(hand, deck, Rng(1))
    assert hand == [] and sorted(deck) == [2, 3]


def test_is_legal_asks_without_acting() -> None:
    state = ToyGame().new_initial_state(4)
    before = state.snapshot()
    assert state.is_legal(SWAP) and state.snapshot() == before
    state.deck.clear()
    state._legal = None
    assert not state.is_legal(SWAP)


def test_apply_legal_is_apply_without_the_check() -> None:
    """The named fast path for search playouts does what apply does with a listed action."""
    game = ToyGame()
    a, b = game.new_initial_state(4), game.new_initial_state(4)
    while not a.is_terminal():
        action = a.legal_actions()[0]
        a.apply(action)
        b.apply_legal(b.legal_actions()[0])
        assert a.snapshot() == b.snapshot() and b._legal is None


class TrueOrderToyState(ToyState):
    """Resamples from the true deck order: a search agent could tell apart positions its seat cannot."""

    def _resample(self, seat: int, rng: Rng | random.Random | int) -> ToyState:
        r = Rng.coerce(rng)
        c = self.clone()
        other = 1 - seat
        pool = [*c.deck, c.cards[other]]
        r.shuffle(pool)
        c.cards[other] = pool.pop()
        c.deck = pool
        c.rng = r.fork()
        return c


def test_resample_canonical_check_catches_a_draw_from_the_true_order() -> None:
    state = ToyGame().new_initial_state(3)
    check_resample_canonical(state, 11)  # the toy draws from a sorted pool
    leaky = state.clone()
    leaky.__class__ = TrueOrderToyState
    with pytest.raises(ConformanceError, match="order that comes from the true state"):
        check_resample_canonical(leaky, 11)


class KeepsTheOpponentsCard(ToyState):
    """A planted bug: the deck is redrawn, the opponent's true card is left in place."""

    def _resample(self, seat: int, rng: Rng | random.Random | int) -> ToyState:
        c = self.clone()
        r = Rng.coerce(rng)
        pool = sorted(c.deck)
        r.shuffle(pool)
        c.deck = pool
        return c


def test_resample_redraws_check_catches_a_hidden_card_left_in_place() -> None:
    state = ToyGame().new_initial_state(3)
    check_resample_redraws(state, 11)
    leaky = state.clone()
    leaky.__class__ = KeepsTheOpponentsCard
    with pytest.raises(ConformanceError, match=r"opponent's card .* in place in all 16 worlds"):
        check_resample_redraws(leaky, 11)


def test_apply_takes_an_actions_text_as_parse_action_reads_it() -> None:
    state = ToyGame().new_initial_state(3)
    state.apply("swap")
    assert state.history == [SWAP]
    before = state.snapshot()
    with pytest.raises(InvalidActionError, match="expected 'keep' or 'swap'"):
        state.apply("jump")
    assert state.snapshot() == before
