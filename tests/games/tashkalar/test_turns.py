"""ゲームの手順 (the turn): actions, placing, out of units, the discard action, flares, refilling the hand."""

import random

import pytest

import cardarena
from cardarena.engine import Action, IllegalActionError, RulesError
from cardarena.games.tashkalar.constants import Phase
from cardarena.games.tashkalar.rules.flares import flare_halves

from .helpers import being, board, flare, legal, make_game, play, position, set_item


def test_setup_second_player_places_one_common_of_each_colour() -> None:
    """準備 (対戦): the second player places one common of each colour on the two setup squares."""
    g = cardarena.load("tashkalar")
    st = g.new_initial_state(4)
    assert st.phase == Phase.SETUP and st.current_player == 1
    assert legal(st) == ["choose c5", "choose g5", "resign"]  # 投了 is allowed at any time, setup too
    play(st, "choose g5")
    assert board(st) == "c5:o g5:x"
    assert st.supply_two == [15, 15] and st.supply_leg == [3, 3]
    assert st.current_player == 0


def test_initial_hands_are_three_beings_two_legends_one_flare() -> None:
    """準備: each player draws 3 beings from their deck, 2 legends and 1 flare from the common decks."""
    st = cardarena.load("tashkalar").new_initial_state(9)
    for p in (0, 1):
        assert (len(st.hand_b[p]), len(st.hand_l[p]), len(st.hand_f[p])) == (3, 2, 1)
        assert len(st.deck_s[p]) == 15
    assert len(st.deck_l) == 8 and len(st.deck_f) == 10
    assert st.school[0] != st.school[1]


def test_first_player_first_turn_has_one_action_then_two() -> None:
    """各ターンにプレイヤーは2アクションを得る。例外：先手プレイヤーの最初のターンは1アクション."""
    st = cardarena.load("tashkalar").new_initial_state(4)
    play(st, "choose c5")
    assert st.player == 0 and st.actions == 1
    play(st, "place e5")
    assert st.player == 1 and st.actions == 2  # no action and no flare left: the turn ended by itself
    play(st, "place e6", "place e4")
    assert st.player == 0 and st.actions == 2


def test_place_action_puts_a_common_on_an_empty_square() -> None:
    """自分の色の一般級ユニット1体を空いているスクエアに配置する."""
    g = make_game()
    st = position(g, "e5:x")
    assert "place e5" not in legal(st) and "place e6" in legal(st)
    play(st, "place e6")
    assert board(st) == "e5:x e6:o" and st.actions == 1
    with pytest.raises(IllegalActionError, match="not empty"):
        st.apply_text("place e5")


def test_out_of_units_place_takes_a_piece_back_first() -> None:
    """ユニットの不足: with no piece to place, take back a common or heroic of yours, then place it as a common."""
    g = make_game()
    st = position(g, "e5:O d4:o c3:@", supply_two=(0, 16))
    assert [a for a in legal(st) if a.split()[0] in ("place", "recall")] == ["recall d4", "recall e5"]
    play(st, "recall e5")
    assert "place e5" in legal(st) and all(a.startswith("place") for a in legal(st))
    play(st, "place a5")
    assert board(st) == "c3:@ d4:o a5:o" and st.actions == 1


def test_discard_action_once_per_turn_and_cards_under_the_deck() -> None:
    """捨て札アクション: discard a being; put any number of the others under your deck; once per turn."""
    g = make_game(being("a", "c @", []), being("b", "c @", []), being("c", "c @", []))
    st = position(g, "", hand=("a", "b", "c"), actions=2)
    assert [x for x in legal(st) if x.startswith("discard")] == ["discard a", "discard b", "discard c"]
    play(st, "discard b")
    assert st.phase == Phase.BOTTOM and legal(st) == ["bottom a", "bottom c", "skip"]
    play(st, "bottom c", "skip")
    assert st.phase == Phase.MAIN and st.actions == 1
    assert [g.cards.cards[c].id for c in st.disc_s[0]] == ["b"]
    assert g.cards.cards[st.deck_s[0][0]].id == "c"  # the bottom of the deck
    assert st.observation(0)["my_deck_bottom"] == ["c"]
    assert st.observation(1)["my_deck_bottom"] == [] and "c" not in str(st.observation(1)["hand"])
    assert not [x for x in legal(st) if x.startswith("discard")]
    with pytest.raises(IllegalActionError, match="once per turn"):
        st.apply_text("discard a")


def test_any_remaining_card_may_go_under_its_deck_after_the_discard_action() -> None:
    """ゲームの手順 (可能なアクション): 「自分の手札の流派のカードを1枚捨て札にする。捨て札アクションを実行した場合、
    残りのそのほかのカードを望む枚数だけ山札の底に戻すことができる」: any remaining card, legends and flares
    included, each under its own deck (a legend under the legend deck, a flare under the flare deck)."""
    g = make_game(
        being("a", "c @", []),
        being("b", "c @", []),
        legends=(being("lore", "h h @", [{"do": "gain_action"}], "legendary"),),
        flares=(flare("spark", 6, 6, [{"do": "gain_action"}], [{"do": "gain_action"}]),),
    )
    st = position(g, "", hand=("a", "b"), legends=("lore", "filler-legend"), flares=("spark",))
    play(st, "discard b")
    assert legal(st) == ["bottom a", "bottom lore", "bottom filler-legend", "bottom spark", "skip"]
    play(st, "bottom lore", "bottom spark")
    ids = g.cards.cards
    assert ids[st.deck_l[0]].id == "lore" and ids[st.deck_f[0]].id == "spark"  # index 0 is the bottom
    assert [ids[c].id for c in st.hand_l[0]] == ["filler-legend"] and st.hand_f[0] == []
    assert legal(st) == ["bottom a", "bottom filler-legend", "skip"]
    # what the opponent sees: the kind of card (hand sizes are public), never the card
    action = g.parse_action(st, "bottom filler-legend")
    assert g.action_seen_by(st, action, 1) == "put a legend under the legend deck (which card is hidden)"
    assert "Filler Legend" in g.action_seen_by(st, action, 0)
    # with every card under its deck, the choice ends by itself
    play(st, "bottom filler-legend", "bottom a")
    assert st.phase == Phase.MAIN and st.actions == 1
    assert st.observation(0)["my_deck_bottom"] == ["a"]
    assert st.observation(1)["hand_sizes"][0] == [0, 0, 0]


def test_a_flare_put_under_is_drawn_last() -> None:
    """山札の底に戻す: a flare put under the flare deck comes back only after every card above it."""
    effect = [{"do": "gain_action"}]
    g = make_game(being("a", "c @", []), flares=tuple(flare(f, 6, 6, effect, effect) for f in ("spark", "f2", "f3")))
    st = position(g, "", hand=("a", "filler-0"), flares=("spark",))
    idx = g.cards.by_id
    st.edit(deck_f=[idx["f2"].index, idx["f3"].index])  # top = end of the list
    play(st, "discard filler-0", "bottom spark", "skip", "end")
    assert [g.cards.cards[c].id for c in st.hand_f[0]] == ["f3"]
    assert [g.cards.cards[c].id for c in st.deck_f] == ["spark", "f2"]


def _flare_game():
    return make_game(flares=(flare("boost", 2, 3, [{"do": "gain_action"}], [{"do": "place", "rank": "heroic"}]),))


def test_flare_conditions_upper_and_lower() -> None:
    """焰カードの発動: upper if an opponent has N more upgraded pieces; lower if N more pieces; at least one."""
    g = _flare_game()
    st = position(g, "a5:X b5:X c5:x", flares=("boost",))
    assert "flare boost" in legal(st)
    assert flare_halves(st, 0, g.cards.by_id["boost"]) == (True, True)
    st = position(g, "a5:X b5:X c5:x d5:o", flares=("boost",))
    assert flare_halves(st, 0, g.cards.by_id["boost"]) == (True, False)
    st = position(g, "a5:X b5:x c5:x", flares=("boost",))
    assert flare_halves(st, 0, g.cards.by_id["boost"]) == (False, True)
    st = position(g, "a5:X b5:x d5:o", flares=("boost",))
    assert "flare boost" not in legal(st)
    with pytest.raises(IllegalActionError, match="neither condition"):
        st.apply_text("flare boost")


def test_flare_both_halves_upper_first_and_opponent_scores() -> None:
    """両段とも条件が適合している場合、先に上段…次に下段; デスマッチ対戦で焰カードを発動するとき対戦者は1点."""
    g = _flare_game()
    st = position(g, "a5:X b5:X c5:x", flares=("boost",), actions=0)
    play(st, "flare boost")
    assert st.actions == 1  # the upper half resolved first
    assert st.score == [0, 1]
    play(st, "place e5")  # the lower half: a heroic
    assert "e5:O" in board(st)
    assert [g.cards.cards[c].id for c in st.disc_f] == ["boost"]


def test_flare_is_not_an_action_and_can_follow_the_last_action() -> None:
    """焰カードの発動はアクションではない; flares may be invoked before or after actions."""
    g = _flare_game()
    st = position(g, "a5:X b5:X c5:x", flares=("boost",), actions=1)
    play(st, "place e5")
    assert st.player == 0 and st.actions == 0  # the turn waits: a flare may still be invoked
    assert legal(st) == ["flare boost", "end"]
    play(st, "flare boost")
    assert st.actions == 1


def test_no_flare_or_action_during_an_effect() -> None:
    """カードの効果の解決中には、ほかのアクションの使用や焰カードの発動はできない."""
    g = make_game(
        being("zap", "c @", [{"do": "destroy", "who": "enemy", "near": "adjacent"}]),
        flares=(flare("boost", 1, 1, [{"do": "gain_action"}], [{"do": "gain_action"}]),),
    )
    st = position(g, "d5:o f5:x a5:X b5:X", hand=("zap",), flares=("boost",))
    play(st, "summon zap at e5 r0")
    assert legal(st) == ["choose f5"]
    with pytest.raises(IllegalActionError, match="waits for a choice"):
        st.apply_text("flare boost")


def test_hand_refill_and_reshuffles() -> None:
    """ターン終了時: refill to 3 beings, 2 legends, 1 flare; flare and legend decks reshuffle, the school deck not."""
    g = make_game()
    st = position(g, "", hand=(), actions=0)
    st.edit(deck_l=[], disc_l=list(g.cards.legends), deck_f=[], disc_f=list(g.cards.flares))
    st.hand_l[0], st.hand_f[0] = [], []
    set_item(st, "deck_s", 0, st.deck_s[0][:2])
    play(st, "end")
    assert len(st.hand_b[0]) == 2 and st.deck_s[0] == []  # no reshuffle of the school discard pile
    assert st.deck_out[0]
    assert len(st.hand_l[0]) == 1 and len(st.hand_f[0]) == 1  # only one legend exists in this test set
    assert st.disc_l == [] and st.disc_f == []


def test_end_is_always_possible_and_turns_alternate() -> None:
    """Actions may be left unused; the next player (clockwise) then takes a turn."""
    g = make_game()
    st = position(g, "", actions=2)
    play(st, "end")
    assert st.player == 1 and st.actions == 2 and st.turn_no == 6


def test_actions_in_any_order_and_several_summons_a_turn() -> None:
    """アクションはどのような順番でも実行できる; 配置と召喚は1ターンに複数回実行できる."""
    g = make_game(
        being("one", "c @", [{"do": "gain_action"}], rank="common"),
        being("two", "c @", [{"do": "gain_action"}], rank="common"),
    )
    st = position(g, "d5:o", hand=("one", "two"), actions=2)
    play(st, "summon one at e5 r0", "summon two at f5 r0", "place a5", "end")
    assert board(st) == "a5:o d5:o e5:o f5:o"
    assert st.player == 1


def test_extra_legend_and_flare_draws() -> None:
    """ターン終了時に追加のカードを1枚引く, for the legend and flare decks too."""
    g = make_game(
        being("seer", "c @", [{"do": "draw_extra", "deck": "legend"}, {"do": "draw_extra", "deck": "flare"}]),
        legends=(
            being("l1", "h @", [], rank="legendary"),
            being("l2", "h @", [], rank="legendary"),
            being("l3", "h @", [], rank="legendary"),
        ),
        flares=(flare("f1", 2, 2, [{"do": "gain_action"}], [{"do": "gain_action"}]),),
    )
    st = position(g, "d5:o", hand=("seer",), legends=("l1", "l2"), flares=("f1",), actions=1)
    st.edit(deck_l=[g.cards.by_id["l3"].index, g.cards.by_id["filler-legend"].index])
    st.edit(deck_f=[g.cards.by_id["filler-flare"].index])
    play(st, "summon seer at e5 r0")
    assert len(st.hand_l[0]) == 3 and len(st.hand_f[0]) == 2


def test_hidden_information() -> None:
    """Hands and deck orders are hidden: the opponent sees only counts; resample redraws what a seat cannot see."""
    g = cardarena.load("tashkalar")
    st = g.new_initial_state(11)
    play(st, "choose c5")
    mine = {g.cards.cards[c].id for c in st.hand_b[0] + st.hand_l[0] + st.hand_f[0]}
    text = str(st.observation(1))
    assert not any(f"'{cid}'" in text for cid in mine)
    assert st.observation(1)["hand_sizes"][0] == [3, 2, 1]
    other = st.resample(1, 5)
    assert other.observation(1) == st.observation(1)
    assert other.hand_b[1] == st.hand_b[1]
    changed = any(st.resample(1, k).hand_b[0] != st.hand_b[0] for k in range(10))
    assert changed


def _bottom_position():  # type: ignore[no-untyped-def]
    g = make_game(being("secret-card", "c @", [{"do": "gain_action"}], "common"), teams=False)
    st = position(g, "", hand=("filler-0", "secret-card", "filler-1"))
    play(st, "discard filler-0")
    return g, st


def test_cards_put_under_the_deck_are_named_only_to_their_owner() -> None:
    """Ruling 7: 残りのそのほかのカードを…山札の底に戻す; the opponent learns only that a card went under."""
    g, st = _bottom_position()
    action = g.parse_action(st, "bottom secret-card")
    assert "Secret Card" in g.action_seen_by(st, action, 0)
    for seat in (1, None):
        seen = g.action_seen_by(st, action, seat)
        assert seen == "put a card under their school deck (which card is hidden)"


def test_what_other_seats_see_of_an_action_names_only_cards_they_can_see() -> None:
    """Every action kind, in random games of every mode: a card named to another seat is in that seat's view after."""
    for options in ({}, {"teams": True}, {"mode": "melee", "players": 3}, {"mode": "highform"}):
        g = cardarena.load("tashkalar", **options)
        names = [(c.name, c.id) for c in g.cards.cards]
        for seed in range(3):
            st = g.new_initial_state(seed)
            rng = random.Random(seed)
            for _ in range(400):
                if st.is_terminal():
                    break
                action = rng.choice(st.playout_actions())
                actor = st.player
                seen = {s: g.action_seen_by(st, action, s) for s in range(g.num_players) if s != actor}
                st.apply(action)
                for s, text in seen.items():
                    view = str(st.observation(s))
                    for name, cid in names:
                        if name in text:
                            assert f"'{cid}'" in view, (options, action, s, text)


def test_why_illegal_explains() -> None:
    g = make_game(being("zap", "c @", [{"do": "destroy", "who": "enemy", "near": "adjacent"}]))
    st = position(g, "d5:o f5:x", hand=("zap",), actions=0)
    with pytest.raises(IllegalActionError, match="no action is left"):
        st.apply_text("place e5")
    st = position(g, "d5:o", hand=("zap",))
    with pytest.raises(IllegalActionError, match=r"needs your common \(or better\) on d7"):
        st.apply_text("summon zap at e7 r0")
    with pytest.raises(IllegalActionError, match="not a being or legend in your hand"):
        st.apply_text("summon filler-1 at e5 r0")
    with pytest.raises(IllegalActionError, match="only for a pending choice"):
        st.apply_text("skip")


def test_skip_and_end_are_the_passes() -> None:
    """``skip`` and ``end`` decline to act (the faces' pass); nothing else is one."""
    g = cardarena.load("tashkalar", mode="melee", players=4)
    passes = {str(g.action_from_index(i)) for i in range(g.num_distinct_actions) if g.is_pass(g.action_from_index(i))}
    assert passes == {"skip", "end"}


def test_only_tash_kalar_actions_are_accepted() -> None:
    """An equal tuple of another type (a bare ``Action``) is refused: every accepted action replays."""
    st = cardarena.load("tashkalar").new_initial_state(0)
    st.apply_text("choose c5")
    end = st.game.parse_action(st, "end")
    assert end in st.legal_actions()
    with pytest.raises(RulesError):
        st.apply(Action(tuple(end)))
    st.apply(end)
