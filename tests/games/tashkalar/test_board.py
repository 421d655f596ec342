"""Board facts (RULINGS.md tashkalar) and the rulebook's 距離 (distance) and 隣接するスクエア (adjacent squares)."""

from cardarena.games.tashkalar.board import (
    ADJ,
    CENTRAL,
    DIST,
    DUEL_SETUP,
    GREEN,
    NAME_SQ,
    RED,
    SQ_NAME,
    SQUARES,
    bits,
    distance_mask,
    on_board,
    popcount,
)


def names(mask: int) -> list[str]:
    return [SQ_NAME[s] for s in bits(mask)]


def test_board_has_69_squares_without_corner_triangles() -> None:
    """Board facts: a 9×9 grid with a 3-square triangle cut from each corner: 69 squares."""
    assert len(SQUARES) == 69
    for x, y in [(0, 0), (1, 0), (0, 1), (8, 0), (7, 0), (8, 1), (0, 8), (0, 7), (1, 8), (8, 8), (7, 8), (8, 7)]:
        assert not on_board(x, y)
    for name in ["c1", "a3", "g1", "i3", "a7", "c9", "i7", "g9", "e5"]:
        assert name in NAME_SQ
    for name in ["a1", "b1", "a2", "i9", "h9", "i8"]:
        assert name not in NAME_SQ


def test_central_red_green_and_setup_squares() -> None:
    """Board facts: central 3×3 marked squares; red (3,8) (4,2) (5,5) (8,6); green (1,5) (3,3) (6,8) (7,3) (9,4)."""
    assert names(CENTRAL) == ["d4", "e4", "f4", "d5", "e5", "f5", "d6", "e6", "f6"]
    assert sorted(names(RED)) == sorted(["c8", "d2", "e5", "h6"])
    assert sorted(names(GREEN)) == sorted(["a5", "c3", "f8", "g3", "i4"])
    assert [SQ_NAME[s] for s in DUEL_SETUP] == ["c5", "g5"]


def test_adjacent_squares_share_a_side_or_corner() -> None:
    """隣接するスクエア: the 8 squares sharing a side or a corner (fewer at the edge)."""
    assert sorted(names(ADJ[NAME_SQ["e5"]])) == sorted(["d4", "e4", "f4", "d5", "f5", "d6", "e6", "f6"])
    assert sorted(names(ADJ[NAME_SQ["c1"]])) == sorted(["d1", "b2", "c2", "d2"])
    assert sorted(names(ADJ[NAME_SQ["a3"]])) == ["a4", "b2", "b3", "b4"]


def test_distance_is_the_fewest_moves() -> None:
    """距離: the fewest moves from one square to the other; an adjacent square is at distance 1."""
    e5 = NAME_SQ["e5"]
    assert DIST[e5][NAME_SQ["f6"]] == 1
    assert DIST[e5][NAME_SQ["g7"]] == 2
    assert DIST[e5][NAME_SQ["e9"]] == 4
    assert DIST[NAME_SQ["a4"]][NAME_SQ["i6"]] == 8
    # around a cut corner the path is longer than the king distance of the full grid would be
    assert DIST[NAME_SQ["a3"]][NAME_SQ["c1"]] == 2
    assert DIST[NAME_SQ["b2"]][NAME_SQ["a3"]] == 1
    ring2 = distance_mask(e5, 2, 2)
    assert popcount(ring2) == 16
    assert popcount(distance_mask(e5, 0, 1)) == 9
