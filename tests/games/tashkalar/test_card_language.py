"""The card language (docs/games/tashkalar-cards.md): its defaults and every construct, each as an exact scenario.

Each test builds a position, summons a probe card written in the language, makes the choices and checks the exact
board (and counters) afterwards. The shipped card that uses each construct has its own row in
test_shipped_cards.py.
"""

from __future__ import annotations

from typing import Any

from .helpers import being, board, legal, make_game, play, position, set_item


def single(effect: list[dict[str, Any]], pattern: str = "c @", rank: str = "heroic", **options: Any):
    return make_game(being("probe", pattern, effect, rank), **options)


def test_defaults_are_the_rulebooks_any_owner_and_the_summon_square() -> None:
    """The rulebook's defaults (クリーチャーと焰カードの効果の解決, キーワード):
    「ユニット：特に明確にこれが記されていない限り、効果は自身のユニットと敵ユニットに影響を及ぼす」 and
    「隣接するスクエア：…あるスクエアがどれなのかという記述がない場合、新たに召喚されたスクエアのことを指す」.

    A step that names no owner hits your pieces and enemy pieces alike; "adjacent" with no square named is
    measured from the summon square, even after the being's piece moved away from it.
    """
    g = single([{"do": "move", "target": "self", "style": "standard"}, {"do": "destroy", "near": "adjacent"}])
    st = position(g, "d5:o f5:x e6:o h5:x", hand=("probe",))
    play(st, "summon probe at e5 r0", "move e5 e4")
    # adjacent to e5 (the summon square), whoever owns the piece: d5, e6 (yours), f5 (enemy), e4 (the being)
    assert sorted(legal(st)) == ["choose d5", "choose e4", "choose e6", "choose f5"]
    play(st, "choose d5")
    assert board(st) == "e4:O f5:x h5:x e6:o"
    assert st.destroyed == [0, 0, 0] and st.score == [0, 0]  # your own piece scores nothing


def test_defaults_can_be_overridden_as_before() -> None:
    """who = "enemy" and from = "self" give the readings the old defaults gave."""
    g = single(
        [
            {"do": "move", "target": "self", "style": "standard"},
            {"do": "destroy", "who": "enemy", "from": "self", "near": "adjacent"},
        ]
    )
    st = position(g, "d5:o f5:x e6:o h5:x", hand=("probe",))
    play(st, "summon probe at e5 r0", "move e5 e4")
    assert legal(st) == ["choose f5"]


# -- directions and rays ---------------------------------------------------------------------------------------


def test_ray_first_piece_in_each_direction() -> None:
    """ray + first: "the first piece in a direction" (any owner: the rulebook's default), nothing behind it."""
    g = single([{"do": "destroy", "ray": "orthogonal", "first": True}])
    st = position(g, "d5:o e7:x e8:X g5:X e3:o f6:x", hand=("probe",))
    play(st, "summon probe at e5 r0")
    assert sorted(legal(st)) == ["choose d5", "choose e3", "choose e7", "choose g5"]
    play(st, "choose e7")
    assert board(st) == "e3:o d5:o e5:O g5:X f6:x e8:X"
    assert st.destroyed == [1, 0, 0]


def test_move_in_one_direction() -> None:
    """to_ray on a move: the first move picks a direction, every further move of the piece keeps it."""
    g = single([{"do": "move", "target": "self", "style": "combat", "times": 3, "up_to": True, "to_ray": "any"}])
    st = position(g, "d5:o g7:x", hand=("probe",))
    play(st, "summon probe at e5 r0", "move e5 f6")
    assert legal(st) == ["move f6 g7", "skip"]
    play(st, "move f6 g7")
    assert legal(st) == ["move g7 h8", "skip"]
    play(st, "move g7 h8")
    assert board(st) == "d5:o h8:O" and st.destroyed == [1, 0, 0] and st.phase == 1


def test_move_as_far_as_it_can() -> None:
    """far: the piece goes on in the chosen direction until it cannot, or has destroyed a piece."""
    g = single([{"do": "move", "target": "self", "style": "standard", "to_ray": "orthogonal", "far": True}])
    st = position(g, "d5:o e8:x i5:X", hand=("probe",))
    play(st, "summon probe at e5 r0")
    assert sorted(legal(st)) == ["move e5 d5", "move e5 e4", "move e5 e6", "move e5 f5"]
    play(st, "move e5 f5")  # f5, g5, h5: the heroic on i5 stops a standard move
    assert board(st) == "d5:o h5:O i5:X e8:x"
    st = position(g, "d5:o e8:x i5:X", hand=("probe",))
    play(st, "summon probe at e5 r0", "move e5 e6")  # e6, e7, then e8 destroying the common: it stops there
    assert board(st) == "d5:o i5:X e8:O" and st.destroyed == [1, 0, 0]


def test_leap_along_a_line_onto_the_first_piece() -> None:
    """to_ray + to_first on a leap: onto the first piece of a straight line (pieces in between: none by definition)."""
    g = single([{"do": "leap", "target": "self", "style": "combat", "to_ray": "diagonal", "to_first": True}])
    st = position(g, "d5:o g7:x h8:x c3:X b8:#", hand=("probe",))
    play(st, "summon probe at e5 r0")
    # north-east: g7 (first; h8 behind it); south-west: c3; north-west: b8 is legendary (too high); south-east: none
    assert sorted(legal(st)) == ["move e5 c3", "move e5 g7"]
    play(st, "move e5 c3")
    assert board(st) == "c3:O d5:o g7:x b8:# h8:x" and st.destroyed == [0, 1, 0]


# -- destination and target filters ----------------------------------------------------------------------------


def test_destination_must_be_empty() -> None:
    """to_empty: only empty squares, although a standard leap could take the common there."""
    g = single([{"do": "leap", "target": "self", "style": "standard", "to_max_distance": 1, "to_empty": True}])
    st = position(g, "d5:o f5:x e6:X", hand=("probe",))
    play(st, "summon probe at e5 r0")
    assert sorted(legal(st)) == ["move e5 d4", "move e5 d6", "move e5 e4", "move e5 f4", "move e5 f6"]


def test_destination_holds_a_piece_of_a_given_rank() -> None:
    """to_who + to_rank: onto a square with an enemy heroic piece (a common or your own heroic will not do)."""
    g = single([{"do": "leap", "target": "self", "style": "combat", "to_who": "enemy", "to_rank": "heroic"}])
    st = position(g, "d5:o g7:X c7:x f3:O b5:#", hand=("probe",))
    play(st, "summon probe at e5 r0")
    assert legal(st) == ["move e5 g7"]
    play(st, "move e5 g7")
    assert board(st) == "f3:O b5:# d5:o c7:x g7:O" and st.destroyed == [0, 1, 0]


def test_destination_and_target_adjacent_to_any_of_your_pieces() -> None:
    """to_next_to / next_to: squares adjacent to any of your pieces (the moving piece itself does not count)."""
    g = single([{"do": "leap", "target": "self", "style": "standard", "to_next_to": "own"}])
    st = position(g, "d5:o i5:o h4:x", hand=("probe",))
    play(st, "summon probe at e5 r0")
    want = ["c4", "d4", "e4", "c5", "c6", "d6", "e6", "h4", "i4", "h5", "h6", "i6"]
    assert sorted(legal(st)) == sorted(f"move e5 {s}" for s in want)
    g = single([{"do": "destroy", "who": "enemy", "next_to": "own"}])
    st = position(g, "d5:o i5:o h4:x a4:x g7:X", hand=("probe",))
    play(st, "summon probe at e5 r0")
    assert legal(st) == ["choose h4"]


def test_onto_a_given_square() -> None:
    """to_from + to_distance = 0: onto a named square (here the summon square the being has left)."""
    g = single(
        [
            {"do": "move", "target": "self", "style": "standard"},
            {"do": "leap", "who": "own", "rank": "common", "style": "standard", "to_from": "summon", "to_distance": 0},
        ]
    )
    st = position(g, "d5:o h8:o c2:x", hand=("probe",))
    play(st, "summon probe at e5 r0", "move e5 e6")
    assert sorted(legal(st)) == ["move d5 e5", "move h8 e5"]
    play(st, "move h8 e5")
    assert board(st) == "c2:x d5:o e5:o e6:O"


# -- marked pattern pieces ---------------------------------------------------------------------------------------


def test_marked_pattern_piece() -> None:
    """c*: a marked square that needs your piece (マークされたスクエア); the effect moves the marked piece."""
    g = single([{"do": "move", "who": "own", "on": "marked", "style": "combat"}], pattern="c* @")
    st = position(g, "d5:o c5:x h5:o", hand=("probe",))
    play(st, "summon probe at e5 r0")
    want = ["c4", "c5", "c6", "d4", "d6", "e4", "e6"]
    assert sorted(legal(st)) == [f"move d5 {s}" for s in want]
    play(st, "move d5 c5")
    assert board(st) == "c5:o e5:O h5:o" and st.destroyed == [1, 0, 0]
    st = position(g, "c5:x h5:o", hand=("probe",))
    assert "summon probe at e5 r0" not in legal(st)  # the marked square needs your piece


# -- conditions --------------------------------------------------------------------------------------------------


def test_condition_on_a_count_of_pieces() -> None:
    """if = { pieces = {...}, at_least = N }: the step runs only if the board holds that many such pieces."""
    g = single([{"do": "gain_action", "if": {"pieces": {"who": "enemy", "near": "adjacent"}, "at_least": 2}}])
    st = position(g, "d5:o f5:x e6:X h5:x", hand=("probe",), actions=1)
    play(st, "summon probe at e5 r0")
    assert st.actions == 1 and st.player == 0
    st = position(g, "d5:o f5:x h5:x", hand=("probe",), actions=1)
    play(st, "summon probe at e5 r0")
    assert st.player == 1  # no action gained: the turn ended


def test_condition_if_you_destroyed_a_piece_this_way() -> None:
    """if = { destroyed = 1 }: the previous step destroyed a piece (a move to an empty square does not count)."""
    g = single(
        [
            {"do": "move", "target": "self", "style": "combat"},
            {"do": "draw_extra", "deck": "school", "if": {"destroyed": 1}},
        ]
    )
    st = position(g, "d5:o f5:x", hand=("probe",))
    play(st, "summon probe at e5 r0", "move e5 f5")
    assert st.extra == [1, 0, 0] and board(st) == "d5:o f5:O"
    st = position(g, "d5:o f5:x", hand=("probe",))
    play(st, "summon probe at e5 r0", "move e5 e6")
    assert st.extra == [0, 0, 0] and board(st) == "d5:o f5:x e6:O"


# -- the same piece again ------------------------------------------------------------------------------------------


def test_repeat_while_it_destroys() -> None:
    """repeat + repeat_while = "destroyed": the piece may move again as long as each move destroyed a piece."""
    g = single(
        [{"do": "move", "target": "self", "style": "combat", "may": True, "repeat": 3, "repeat_while": "destroyed"}]
    )
    st = position(g, "d5:o f5:x g5:x", hand=("probe",))
    play(st, "summon probe at e5 r0", "move e5 f5")
    assert "skip" in legal(st) and all(a.startswith(("move f5", "skip")) for a in legal(st))
    play(st, "move f5 g5", "move g5 g6")
    assert board(st) == "d5:o g6:O" and st.destroyed == [2, 0, 0] and st.phase == 1


def test_target_last_is_the_same_piece() -> None:
    """target = "last": the piece the previous step affected (upgraded here) makes the move."""
    g = single(
        [
            {"do": "upgrade", "who": "own", "rank": "common", "near": "adjacent"},
            {"do": "move", "target": "last", "style": "combat"},
        ]
    )
    st = position(g, "d5:o f6:o c5:X", hand=("probe",))
    play(st, "summon probe at e5 r0", "choose d5")
    assert all(a.startswith("move d5") for a in legal(st))
    play(st, "move d5 c5")
    assert board(st) == "c5:O e5:O f6:o" and st.destroyed == [0, 1, 0]


# -- turns, actions, cards ---------------------------------------------------------------------------------------


def test_extra_turn() -> None:
    """extra_turn: after this turn the same player takes another (2 actions), then play goes on."""
    g = single([{"do": "extra_turn"}])
    st = position(g, "d5:o", hand=("probe",), actions=1, turn=5)
    play(st, "summon probe at e5 r0")
    assert st.player == 0 and st.turn_no == 6 and st.actions == 2 and st.in_extra
    play(st, "end")
    assert st.player == 1 and st.turn_no == 7 and not st.in_extra


def test_extra_turn_is_not_a_turn_of_the_final_round() -> None:
    """The final round (「各プレイヤーは最後の1ターンを実行し」) still gives every player their last turn."""
    g = single([{"do": "extra_turn"}])
    st = position(g, "d5:o", hand=("probe",), actions=1)
    st.edit(final_left=2)  # seat 0's and seat 1's last turns
    play(st, "summon probe at e5 r0")
    assert st.player == 0 and st.final_left == 1  # the extra turn
    play(st, "end")
    assert st.player == 1 and st.final_left == 1  # seat 1's last turn is still played
    play(st, "end")
    assert st.is_terminal()


def test_recover_a_card_from_the_discard_pile() -> None:
    """recover: take a card of your school's discard pile into your hand (a choice: take <card>)."""
    g = single([{"do": "recover", "deck": "school", "may": True}])
    st = position(g, "d5:o", hand=("probe",))
    idx = g.cards.by_id
    set_item(st, "disc_s", 0, [idx["filler-0"].index, idx["filler-1"].index])
    play(st, "summon probe at e5 r0")
    assert legal(st) == ["take filler-0", "take filler-1", "skip"]
    act = st.legal_actions()[1]
    assert g.action_from_index(g.action_index(act)) == act and g.parse_action(st, "take filler-1") == act
    play(st, "take filler-1")
    assert [g.cards.cards[c].id for c in st.hand_b[0]] == ["filler-1"]
    assert [g.cards.cards[c].id for c in st.disc_s[0]] == ["filler-0", "probe"]


def test_connected_group() -> None:
    """connected: the enemy pieces joined to the summon square through adjacent enemy pieces, all of them."""
    g = single([{"do": "destroy", "who": "enemy", "count": "all", "connected": True}])
    st = position(g, "d5:o f5:x g5:x h6:X c8:x c4:x", hand=("probe",))
    play(st, "summon probe at e5 r0")
    assert board(st) == "c4:x d5:o e5:O c8:x" and st.destroyed == [2, 1, 0]


def test_for_each_square_with_per_square_conditions() -> None:
    """for_each: the steps run for each marked square; an empty one gets your common, an enemy piece is destroyed."""
    g = single(
        [
            {
                "do": "for_each",
                "on": "marked",
                "steps": [
                    {"do": "place", "from": "each", "distance": 0},
                    {
                        "do": "destroy",
                        "target": "each",
                        "if": {"pieces": {"who": "enemy", "from": "each", "distance": 0}},
                    },
                ],
            }
        ],
        pattern="* * *\n. @ .\n. c .",
    )
    st = position(g, "e4:o e6:x f6:o", hand=("probe",))
    play(st, "summon probe at e5 r0")
    assert legal(st) == ["place d6"]  # d6 is empty: only the place runs
    play(st, "place d6")
    assert legal(st) == ["choose e6"]  # e6 holds an enemy piece: only the destroy runs; f6 (yours): nothing
    play(st, "choose e6")
    assert board(st) == "e4:o e5:O d6:o f6:o" and st.destroyed == [1, 0, 0]


def test_destruction_that_does_not_score() -> None:
    """scores = false: the piece is destroyed (it counts for "if you destroyed") but goes straight back, unscored."""
    g = single(
        [
            {"do": "destroy", "who": "enemy", "near": "adjacent", "scores": False},
            {"do": "gain_action", "if": {"destroyed": 1}},
        ]
    )
    st = position(g, "d5:o f5:X", hand=("probe",), actions=1, supply_two=(14, 10))
    play(st, "summon probe at e5 r0", "choose f5")
    assert board(st) == "d5:o e5:O" and st.destroyed == [0, 0, 0] and st.supply_two == [13, 11]
    assert st.actions == 1
    play(st, "end")
    assert st.score == [0, 0]


def test_a_recovered_card_is_known_to_every_seat_while_it_stays_in_the_hand() -> None:
    """The discard pile is public: the card taken is named to all, kept by resample, forgotten once it leaves."""
    g = single([{"do": "recover", "deck": "school"}])
    st = position(g, "d5:o", hand=("probe", "filler-2"), actions=2)
    idx = g.cards.by_id
    set_item(st, "disc_s", 0, [idx["filler-0"].index])
    play(st, "summon probe at e5 r0", "take filler-0")
    assert st.observation(1)["known_hand_cards"] == [["filler-0"], []]
    for k in range(8):
        other = st.resample(1, k)
        assert idx["filler-0"].index in other.hand_b[0] and other.observation(1) == st.observation(1)
    play(st, "summon filler-0 at f5 r0", "end")
    assert st.observation(1)["known_hand_cards"] == [[], []]
