"""``resample(seat, rng)`` is a function of what the seat may know and of ``rng`` alone (issue 14, point 4).

Resampling a resampled world with the same rng must give the very same world, at many positions of random
playouts in every mode: school decks (the cards put under one's own deck stay in place), the shared legend and
flare decks, every hidden hand, cards recovered from a public discard pile, the High Form task deck.
"""

from __future__ import annotations

from typing import Any

import pytest

import cardarena
from cardarena.engine import Rng
from cardarena.engine.harness import check_resample_canonical

MODES: list[tuple[dict[str, Any], int]] = [
    ({}, 10),
    ({"mode": "highform"}, 10),
    ({"mode": "melee", "players": 3}, 6),
    ({"mode": "melee", "players": 4}, 6),
    ({"teams": True}, 6),
    ({"mode": "highform", "teams": True}, 6),
    ({"school0": "gale", "school1": "gale"}, 6),
    ({"mode": "melee", "players": 3, "school0": "gale", "school1": "gale", "school2": "gale"}, 4),
]


@pytest.mark.parametrize(
    "options, games",
    MODES,
    ids=["duel", "highform", "melee-3", "melee-4", "teams", "teams-highform", "gale-duel", "gale-melee-3"],
)
def test_resampling_a_resample_gives_the_same_world(options: dict[str, Any], games: int) -> None:
    game = cardarena.load("tashkalar", **options)
    rng = Rng(7)
    checked = 0
    seen = {"known_hand": 0, "known_bottom": 0, "t_bottom": 0}
    for seed in range(games):
        st = game.new_initial_state(seed)
        step = 0
        while not st.is_terminal():
            if step % 3 == 0:
                check_resample_canonical(st, rng_seed=seed * 1000 + step, seed=seed, step=step)
                checked += 1
                seen["known_hand"] += any(st.known_hand)
                seen["known_bottom"] += any(st.known_bottom)
                seen["t_bottom"] += st.t_bottom > 0
            acts = st.playout_actions()
            st.apply(acts[rng.randbelow(len(acts))])
            step += 1
    assert checked >= 100
    # the positions include cards put under a school deck, cards taken from a discard pile (known to all) and,
    # with tasks, tasks put under the task deck
    assert seen["known_bottom"] > 0 and seen["known_hand"] > 0
    if game.mode == "highform":
        assert seen["t_bottom"] > 0


def test_two_positions_a_seat_cannot_tell_apart_resample_to_the_same_world() -> None:
    """The opponent's hand and deck swapped around (and the seat's own deck reordered) change nothing."""
    game = cardarena.load("tashkalar")
    st = game.new_initial_state(3)
    for _ in range(40):
        acts = st.playout_actions()
        st.apply(acts[0])
    twin = st.clone()
    # the opponent's hidden cards in another place, the flare deck reversed, the seat's own deck reordered
    pool = twin.hand_b[1] + twin.deck_s[1]
    pool.reverse()
    twin.edit(
        hand_b=[twin.hand_b[0], pool[: len(twin.hand_b[1])]],
        deck_s=[twin.deck_s[0][::-1], pool[len(twin.hand_b[1]) :]],
        deck_f=twin.deck_f[::-1],
    )
    assert twin.observation(0) == st.observation(0)
    assert twin.snapshot() != st.snapshot()
    for k in range(5):
        assert twin.resample(0, Rng(k)).snapshot() == st.resample(0, Rng(k)).snapshot()
