"""クリーチャーの召喚 (summoning a being): patterns, ranks, the summon square, out of units, effect, discard."""

import pytest

from cardarena.engine import IllegalActionError
from cardarena.games.tashkalar.cards import ORIENTATIONS, parse_pattern

from .helpers import being, board, legal, make_game, play, position

L_SHAPE = "c .\nc .\nc @"


def summons(st) -> list[str]:
    return [a for a in legal(st) if a.startswith("summon")]


def test_pattern_matches_in_every_rotation_and_reflection() -> None:
    """配列は向きが違っていても構わない。また、配列は線対称となっていたり点対称となっても構わない."""
    g = make_game(being("ell", L_SHAPE, [{"do": "gain_action"}]))
    _, orients = parse_pattern(L_SHAPE, file="t", card="ell")
    assert [o.name for o in orients] == list(ORIENTATIONS)  # an L has 8 distinct orientations
    # the L drawn in each orientation around e5 (the summon square) is found in exactly that orientation
    drawn = {
        "r0": "d5 d6 d7",
        "r90": "e6 f6 g6",
        "r180": "f5 f4 f3",
        "r270": "e4 d4 c4",
        "m0": "f5 f6 f7",
        "m90": "e4 f4 g4",
        "m180": "d5 d4 d3",
        "m270": "e6 d6 c6",
    }
    for name, squares in drawn.items():
        st = position(g, " ".join(f"{s}:o" for s in squares.split()), hand=("ell",))
        at_e5 = [a for a in summons(st) if " at e5 " in a]
        assert at_e5 == [f"summon ell at e5 {name}"], name


def test_symmetric_patterns_are_listed_once() -> None:
    """A symmetric pattern gives the same summon in several orientations: it is listed once (first name)."""
    _, line = parse_pattern("c @ c", file="t", card="x")
    assert [o.name for o in line] == ["r0", "r90"]
    _, cross = parse_pattern(". c .\nc @ c\n. c .", file="t", card="x")
    assert [o.name for o in cross] == ["r0"]
    g = make_game(being("bar", "c @ c", [{"do": "gain_action"}]))
    st = position(g, "d5:o f5:o", hand=("bar",))
    assert summons(st) == ["summon bar at e5 r0"]
    with pytest.raises(IllegalActionError, match="repeats another"):
        st.apply_text("summon bar at e5 r180")


def test_higher_ranks_satisfy_lower_requirements() -> None:
    """召喚使用するユニットは、カードの配列図にあるランクかより高いランクのものを使用できる."""
    g = make_game(being("duo", "h @ c", [{"do": "gain_action"}]))
    st = position(g, "d5:@ f5:O", hand=("duo",))
    assert "summon duo at e5 r0" in summons(st)
    st = position(g, "d5:o f5:O", hand=("duo",))  # a common is not enough for the heroic square
    assert "summon duo at e5 r0" not in summons(st)
    assert "summon duo at e5 r180" in summons(st)  # turned: the heroic f5 is on the h square


def test_enemy_pieces_and_extra_pieces_do_not_count() -> None:
    """Only your own pieces make a pattern; '.' squares do not matter (あいているスクエアは…関係はない)."""
    g = make_game(being("duo", "c . c\n. @ .", [{"do": "gain_action"}]))
    st = position(g, "d6:o f6:x", hand=("duo",))
    assert not [a for a in summons(st) if " at e5 " in a]
    st = position(g, "d6:o f6:o e6:x d5:X f4:o", hand=("duo",))
    assert "summon duo at e5 r0" in summons(st)


def test_summon_square_destroys_lower_or_equal_and_forbids_higher() -> None:
    """The summon square: a piece of lower or equal rank is destroyed; a higher rank forbids the summon."""
    g = make_game(
        being("hero", "c @", [{"do": "gain_action"}], rank="heroic"),
        being("pawn", "c @", [{"do": "gain_action"}], rank="common"),
    )
    st = position(g, "d5:o e5:X", hand=("hero", "pawn"))
    assert "summon hero at e5 r0" in summons(st)
    assert "summon pawn at e5 r0" not in summons(st)
    play(st, "summon hero at e5 r0")
    assert board(st) == "d5:o e5:O"
    assert st.destroyed == [0, 1, 0]
    st = position(g, "d5:o e5:#", hand=("hero",))
    assert "summon hero at e5 r0" not in summons(st)


def test_summon_square_that_needs_your_piece() -> None:
    """ユニットを配置するスクエアは、配列に自分のユニットが記されていない限り、空白のスクエアを選択できる."""
    g = make_game(being("grow", "c C", [{"do": "gain_action"}], rank="heroic"))
    st = position(g, "d5:o", hand=("grow",))
    assert not summons(st)
    st = position(g, "d5:o e5:o", hand=("grow",))
    assert "summon grow at e5 r0" in summons(st)
    play(st, "summon grow at e5 r0")
    assert board(st) == "d5:o e5:O" and st.destroyed == [0, 0, 0]  # your own piece: no point


def test_effect_then_discard() -> None:
    """新たなユニットを配置したら、カードの記されている効果を解決する。効果の解決後、カードは捨て札となる."""
    g = make_game(being("zap", "c @", [{"do": "destroy", "who": "enemy", "near": "adjacent"}]))
    st = position(g, "d5:o f5:x", hand=("zap",))
    play(st, "summon zap at e5 r0")
    assert st.resolving >= 0 and st.disc_s[0] == []
    play(st, "choose f5")
    assert [g.cards.cards[c].id for c in st.disc_s[0]] == ["zap"]
    assert st.resolving == -1


def test_legend_summon_scores_and_goes_to_the_legend_discard() -> None:
    """伝説級ユニットを1体召喚するたびに1点 (an upgrade to legendary is not a summon)."""
    g = make_game(
        being("rise", "c @", [{"do": "upgrade", "who": "own", "near": "adjacent", "rank": "heroic"}]),
        legends=(being("titan", "h @", [{"do": "gain_action"}], rank="legendary"),),
    )
    st = position(g, "d5:O", legends=("titan",), hand=("rise",))
    play(st, "summon titan at e5 r0")
    assert st.score[0] == 1 and "e5:@" in board(st)
    assert [g.cards.cards[c].id for c in st.disc_l] == ["titan"]
    st = position(g, "d5:o f5:O", hand=("rise",))
    play(st, "summon rise at e5 r0", "choose f5")
    assert "f5:@" in board(st) and st.score[0] == 0


def test_out_of_units_reuses_the_piece_destroyed_on_the_summon_square() -> None:
    """ユニットの不足: a summon that destroys your own piece may use that piece for the being."""
    g = make_game(being("hero", "c @", [{"do": "gain_action"}]))
    st = position(g, "d5:o e5:o", hand=("hero",), supply_two=(0, 16))
    assert "summon hero at e5 r0" in summons(st)
    play(st, "summon hero at e5 r0")
    assert board(st) == "d5:o e5:O" and st.supply_two[0] == 0


def test_out_of_units_takes_a_piece_outside_the_pattern() -> None:
    """ユニットの不足: otherwise a piece of yours not in the pattern is taken off the board and used."""
    g = make_game(being("hero", "c @", [{"do": "gain_action"}]))
    st = position(g, "d5:o a5:o i5:O", hand=("hero",), supply_two=(0, 16))
    assert "summon hero at e5 r0" in summons(st)
    play(st, "summon hero at e5 r0")
    assert legal(st) == ["recall a5", "recall i5"]  # d5 is in the pattern
    play(st, "recall i5")
    assert board(st) == "a5:o d5:o e5:O"


def test_out_of_units_without_a_spare_piece_cannot_summon() -> None:
    """ユニットの不足: どちらの方法もとれないときは、クリーチャーの召喚はできない."""
    g = make_game(
        being("hero", "c @", [{"do": "gain_action"}]),
        legends=(being("titan", "c @", [{"do": "gain_action"}], rank="legendary"),),
    )
    st = position(g, "d5:o", hand=("hero",), supply_two=(0, 16))
    assert not summons(st)
    # a legendary needs a legendary piece: commons outside the pattern do not help
    st = position(g, "d5:o a5:o e1:@ e9:@ a3:@", legends=("titan",), supply_leg=(0, 3))
    assert [a for a in summons(st) if " at e5 " in a] == ["summon titan at e5 r0"]
    play(st, "summon titan at e5 r0")
    assert legal(st) == ["recall e1", "recall a3", "recall e9"]


def test_summoning_costs_an_action() -> None:
    """クリーチャーの召喚には、1アクションを費やす."""
    g = make_game(being("hero", "c @", [{"do": "destroy", "who": "enemy", "near": "adjacent", "may": True}]))
    st = position(g, "d5:o", hand=("hero",), actions=2)
    play(st, "summon hero at e5 r0")
    assert st.actions == 1
    st = position(g, "d5:o", hand=("hero",), actions=0)
    assert not summons(st)


def test_the_pattern_needs_cache_never_answers_for_another_card() -> None:
    """legal_summons caches what each pattern needs by the card's id; a card set freed and replaced may hand an id
    to a new card, so an entry counts only for the very card it was made for."""
    from cardarena.games.tashkalar.rules import summoning

    small = make_game(being("small", "c @", [{"do": "gain_action"}])).cards.by_id["small"]
    big = make_game(being("big", "c c c\nc @ c", [{"do": "gain_action"}])).cards.by_id["big"]
    assert summoning.needs(small) == (1, 0, 0)
    summoning._NEEDS[id(big)] = (small, (1, 0, 0))  # as if big had taken a freed card's id
    assert summoning.needs(big) == (5, 0, 0)
