"""The conformance harness over many seeded random playouts, for every mode and player count."""

from typing import Any

import pytest

import cardarena
from cardarena.engine.harness import check_game
from cardarena.games.tashkalar.rules.pieces import aside


def test_conformance_150_seeds() -> None:
    report = check_game(cardarena.load("tashkalar"), range(150), deep_every=4)
    assert report.games == 150
    assert sum(report.results.values()) == 150


def test_conformance_of_the_gale_school() -> None:
    """The school whose cards use the card language's later constructs, on both sides, in a duel and in melee."""
    report = check_game(cardarena.load("tashkalar", school0="gale", school1="gale"), range(3000, 3024), deep_every=3)
    assert report.games == 24
    melee = cardarena.load("tashkalar", mode="melee", players=3, school0="gale", school1="gale", school2="gale")
    assert check_game(melee, range(3100, 3106), deep_every=3).games == 6


def test_conformance_with_resign_option() -> None:
    report = check_game(cardarena.load("tashkalar", resign=True), range(1000, 1010), deep_every=4)
    assert report.games == 10


@pytest.mark.parametrize(
    "options, seeds",
    [
        ({"mode": "highform"}, 100),
        ({"mode": "melee", "players": 3}, 60),
        ({"mode": "melee", "players": 4}, 50),
        ({"teams": True}, 60),
        ({"mode": "highform", "teams": True}, 60),
        ({"mode": "highform", "resign": True}, 10),
        ({"teams": True, "resign": True}, 10),
    ],
    ids=["highform", "melee-3", "melee-4", "teams-deathmatch", "teams-highform", "highform-resign", "teams-resign"],
)
def test_conformance_of_each_mode(options: dict[str, Any], seeds: int) -> None:
    game = cardarena.load("tashkalar", **options)
    report = check_game(game, range(2000, 2000 + seeds), deep_every=5)
    assert report.games == seeds
    # every result has one value per seat, and the games do not all end the same way
    assert all(len(k.split(",")) == game.num_players for k in report.results)
    if seeds >= 40:
        assert len(report.results) >= 2


@pytest.mark.parametrize(
    "options",
    [{"mode": "highform"}, {"mode": "melee", "players": 3}, {"mode": "melee", "players": 4}, {"teams": True}],
    ids=["highform", "melee-3", "melee-4", "teams"],
)
def test_pieces_are_conserved_in_every_mode(options: dict[str, Any]) -> None:
    """Every piece is on the board, set aside for scoring this turn, or in its owner's supply."""
    from cardarena.engine import Rng

    game = cardarena.load("tashkalar", **options)
    rng = Rng(11)
    for seed in range(3):
        st = game.new_initial_state(seed)
        two0, leg0 = list(st.supply_two), list(st.supply_leg)
        while not st.is_terminal():
            away = aside(st)
            for c in range(game.n_col):
                base = c << 2
                on_two = (st.bb[base | 1] | st.bb[base | 2]).bit_count()
                on_leg = st.bb[base | 3].bit_count()
                assert st.supply_two[c] + away[2 * c] + on_two == two0[c]
                assert st.supply_leg[c] + away[2 * c + 1] + on_leg == leg0[c]
                assert st.supply_two[c] >= 0 and st.supply_leg[c] >= 0
            acts = st.playout_actions()
            st.apply(acts[rng.randbelow(len(acts))])
