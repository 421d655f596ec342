"""State fields declared once: derived clone and snapshot, and the public position editor."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from cardarena.engine import Action, RecordError, Rng, State
from cardarena.engine.clones import write_clones
from cardarena.engine.fields import clone_source, copied, nested, shared, to_json

from .toy import ToyGame, ToyState


def test_toy_clone_and_snapshot_are_derived_from_fields() -> None:
    assert ToyState.clone.__doc__ == "An independent copy, derived from ToyState.FIELDS."
    state = ToyGame().new_initial_state(5)
    state.apply(state.legal_actions()[-1])
    twin = state.clone()
    assert type(twin) is ToyState and twin.snapshot() == state.snapshot()
    assert set(state.snapshot()) == {"rng", "deck", "cards", "step", "history"}
    assert state.snapshot()["rng"] == state.rng.state
    twin.apply(twin.legal_actions()[-1])
    twin.cards[0] = 99
    assert twin.snapshot() != state.snapshot() and state.cards[0] != 99
    assert twin.rng is not state.rng and twin.deck is not state.deck


class Seats(State):
    """A state with one field of each kind, as a game's would have."""

    FIELDS = (
        *shared("turn_no", "table"),
        *copied("rng", "pool"),
        *nested("hands", "marks"),
        *shared("cards", snapshot=False),
    )

    def __init__(self, game: Any, seed: int, seats: int) -> None:
        super().__init__(game, seed)
        self.turn_no = 1
        self.table = (1, 2)
        self.rng = Rng(seed)
        self.pool = {"a": 1}
        self.hands = [[i] for i in range(seats)]
        self.marks = [{i} for i in range(seats)]
        self.cards = object()

    current_player = 0  # type: ignore[assignment]
    turn = 1  # type: ignore[assignment]

    def is_terminal(self) -> bool:
        return False

    def returns(self) -> list[float]:
        return [0.0, 0.0]

    def observation(self, seat: int | None) -> dict[str, Any]:
        return {}

    def _resample(self, seat: int, rng: Any) -> State:
        return self.clone()

    def _legal_actions(self) -> list[Action]:
        return [Action.of("wait")]

    def _apply(self, action: Action) -> None:
        self.turn_no += 1


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_each_kind_of_field_is_copied_as_declared(seats: int) -> None:
    s = Seats(ToyGame(), 3, seats)
    c = s.clone()
    assert c.table is s.table and c.cards is s.cards  # shared
    assert c.pool == s.pool and c.pool is not s.pool  # copied once
    assert c.hands == s.hands and c.hands is not s.hands
    assert all(a is not b for a, b in zip(c.hands, s.hands, strict=True))  # each inner container copied
    c.hands[0].append(7)
    c.marks[-1].add(9)
    assert 7 not in s.hands[0] and 9 not in s.marks[-1]
    snap = s.snapshot()
    assert "cards" not in snap and snap["table"] == [1, 2] and snap["marks"] == [[i] for i in range(seats)]


def test_fields_are_inherited_and_checked() -> None:
    class More(Seats):
        FIELDS = copied("extra")

    assert [f.name for f in More.FIELDS][-1] == "extra" and len(More.FIELDS) == len(Seats.FIELDS) + 1
    with pytest.raises(TypeError, match="twice"):

        class Twice(Seats):
            FIELDS = shared("turn_no")

    with pytest.raises(TypeError, match="not a field name"):

        class Odd(Seats):
            FIELDS = shared("a b")


def test_edit_sets_declared_fields_clears_the_cache_and_drops_the_record() -> None:
    state = ToyGame().new_initial_state(2)
    assert state.legal_actions()
    state.edit(cards=[9, 1], deck=[])
    assert state._legal is None and state.legal_actions() == [Action.of("keep")]
    assert state.cards == [9, 1]
    with pytest.raises(RecordError, match="built by hand"):
        state.to_record()
    with pytest.raises(RecordError, match="built by hand"):
        state.clone().to_record()
    with pytest.raises(TypeError, match="no declared field 'phase'; fields: cards, deck, rng, step"):
        state.edit(phase=3)


def test_to_json_forms() -> None:
    assert to_json({1: (2, {3})}) == {"1": [2, [3]]}
    assert to_json(Rng(1)) == Rng(1).state
    with pytest.raises(TypeError, match="snapshot"):
        to_json(object())


def test_states_with_declared_fields_pickle() -> None:
    state = ToyGame().new_initial_state(4)
    state.apply(state.legal_actions()[0])
    again = pickle.loads(pickle.dumps(state))
    assert again.snapshot() == state.snapshot()


def test_a_field_may_say_how_it_is_written_in_the_snapshot() -> None:
    """A chain (newest, older) shared by clones is cheap to extend but would nest one level per item in JSON."""

    class Chained(Seats):
        FIELDS = shared("chain", snapshot=lambda chain: _flatten(chain))

    def _flatten(chain: tuple[object, ...]) -> list[object]:
        out = []
        while chain:
            out.append(chain[0])
            chain = chain[1]  # type: ignore[assignment]
        return out[::-1]

    s = Chained(ToyGame(), 1, 2)
    chain: tuple[object, ...] = ()
    for i in range(5000):  # deeper than the recursion limit: the writer is what keeps this flat
        chain = (i, chain)
    s.chain = chain  # type: ignore[attr-defined]
    assert s.snapshot()["chain"] == list(range(5000)) and s.clone().chain is chain  # type: ignore[attr-defined]


def test_every_games_clone_is_the_code_its_fields_give() -> None:
    """Compiled states cannot be given a method at class creation, so each game's ``clone`` is written out in its
    ``state.py`` (``make clones``); this fails when a field was declared, removed or changed without rewriting it."""
    assert write_clones(check=True) == [], "a game's written clone is stale: run `make clones`"


def test_the_written_clone_copies_each_kind_of_field_as_declared() -> None:
    source = clone_source(Seats)
    assert "c = Seats(self.game, self.seed)" in source
    assert "c.turn_no = self.turn_no" in source and "c.rng = self.rng.copy()" in source
    assert "c.hands = [x.copy() for x in self.hands]" in source
