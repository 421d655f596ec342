"""Rulebook sections ゲームの準備 (setup), 先攻後攻 (first player) and ゲームの流れ (the four phases)."""

from __future__ import annotations

import cardarena
from cardarena.engine import Action, Rng
from cardarena.games.torabato.cards import OWNER_OF, RANK_OF
from cardarena.games.torabato.constants import DRAW, END, MAIN, OVER, RECOVERY, REVEAL

from .helpers import cid, do, ids, names, pass_until, position, texts


def new_state(seed: int = 0):  # type: ignore[no-untyped-def]
    return cardarena.load("torabato").new_initial_state(seed)


def test_setup_each_player_gets_two_suits_and_a_joker() -> None:
    """ゲームの準備: A takes spades, clubs and a joker; B hearts, diamonds and a joker: 27 cards each."""
    s = new_state(3)
    for seat in (0, 1):
        cards = s.deck[seat] + s.hand[seat]
        assert len(cards) == 27 and all(OWNER_OF[c] == seat for c in cards)
        assert sorted(RANK_OF[c] for c in cards).count(13) == 1  # one joker
    assert {n[-1] for n in names(s.deck[0] + s.hand[0]) if not n.startswith("JK")} == {"S", "C"}
    assert {n[-1] for n in names(s.deck[1] + s.hand[1]) if not n.startswith("JK")} == {"H", "D"}


def test_setup_five_card_hands_from_shuffled_decks() -> None:
    """ゲームの準備: each player draws 5 cards; decks are shuffled (seeded)."""
    a, b = new_state(1), new_state(2)
    assert [len(h) for h in a.hand] == [5, 5] and [len(d) for d in a.deck] == [22, 22]
    assert a.deck != b.deck
    assert new_state(1).deck == a.deck


def _reveal_start(h0: list[str], h1: list[str]):  # type: ignore[no-untyped-def]
    s = new_state(0)
    hands = [ids(h0), ids(h1)]
    # each card exactly once
    s.edit(deck=[[c for c in s.deck[seat] + s.hand[seat] if c not in hands[seat]] for seat in (0, 1)], hand=hands)
    return s


def test_first_player_lower_card_goes_first_ace_is_one_joker_zero() -> None:
    """先攻後攻: both show a card at once; the lower goes first; A = 1, Joker = 0."""
    s = _reveal_start(["AS", "2S", "3S", "4S", "5S"], ["JK1", "2H", "3H", "4H", "5H"])
    do(s, "reveal AS", "reveal JK1")
    assert s.first == 1 and s.active == 1 and s.phase == MAIN
    assert sorted(names(s.hand[1])) == sorted(["JK1", "2H", "3H", "4H", "5H"])  # shown cards return to hand


def test_first_player_tie_shows_another_card() -> None:
    """先攻後攻: equal values: each shows one more card."""
    s = _reveal_start(["7S", "KS", "3S", "4S", "5S"], ["7H", "2H", "3H", "4H", "5H"])
    do(s, "reveal 7S", "reveal 7H")
    assert s.phase == REVEAL
    assert "reveal 7S" not in texts(s)  # a shown card cannot be shown again
    do(s, "reveal KS", "reveal 2H")
    assert s.first == 1


def test_first_player_all_cards_tied_redeal() -> None:
    """先攻後攻: every card the same: the hands are dealt again."""
    same = ["AS", "2S", "3S", "4S", "5S"], ["AH", "2H", "3H", "4H", "5H"]
    s = _reveal_start(*same)
    for r0, r1 in zip(same[0], same[1]):
        do(s, f"reveal {r0}", f"reveal {r1}")
    assert s.phase == REVEAL and s.redeals == 1 and s.reveals == [[], []]
    assert [len(h) for h in s.hand] == [5, 5] and [len(d) for d in s.deck] == [22, 22]
    assert sorted(s.hand[0] + s.deck[0]) == list(range(27)) and s.known == [[], []]


def test_first_player_reveal_is_hidden_until_both_have_shown() -> None:
    """Simultaneous reveal as sequential hidden decisions (DESIGN.md)."""
    s = _reveal_start(["9S", "KS", "3S", "4S", "5S"], ["7H", "2H", "3H", "4H", "5H"])
    seen = s.game.action_seen_by(s, s.game.parse_action(s, "reveal 9S"), 1)
    assert "9S" not in seen and "face down" in seen
    do(s, "reveal 9S")
    assert s.observation(1)["reveals"] == [[], []]
    assert s.observation(0)["reveals"] == [["9S"], []]
    do(s, "reveal 7H")
    assert s.observation(1)["reveals"] == [["9S"], ["7H"]]
    assert s.first == 1


def test_first_player_skips_the_draw_on_their_first_turn_only() -> None:
    """ドローフェイズ: the first player skips the draw phase on their very first turn."""
    s = _reveal_start(["AS", "2S", "3S", "4S", "5S"], ["KH", "2H", "3H", "4H", "5H"])
    do(s, "reveal AS", "reveal KH")
    assert s.turn_no == 1 and s.phase == MAIN and len(s.hand[0]) == 5
    pass_until(s, lambda st: st.active == 1)
    assert s.phase == DRAW and len(s.hand[1]) == 6  # the second player draws on their first turn
    pass_until(s, lambda st: st.active == 0)
    assert len(s.hand[0]) == 6


def test_recovery_untaps_own_mana_and_soldiers_and_heals_everyone() -> None:
    """リカバリーフェイズ: stand up all your mana and soldiers; every soldier of both players heals."""
    s = position(active=0, field=(["KS"], ["QH"]), mana=(["2S", "3S"], ["2H", "3H"]))
    tapped, damage = s.tapped.copy(), s.damage.copy()
    tapped[cid("KS")] = tapped[cid("QH")] = True
    damage[cid("KS")] = 2
    damage[cid("QH")] = 1
    s.edit(tapped_mana=[2, 2], tapped=tapped, damage=damage)
    pass_until(s, lambda st: st.active == 1)
    assert s.tapped_mana == [2, 0] and s.tapped[cid("KS")] and not s.tapped[cid("QH")]
    assert s.damage[cid("KS")] == 0 and s.damage[cid("QH")] == 0


def test_draw_phase_draws_one_and_an_empty_deck_draws_nothing() -> None:
    """ドローフェイズ: draw 1 card; (RULINGS) drawing from an empty deck draws nothing."""
    s = position(active=1, decks=(["2S"], ["2H", "3H"]))
    s.edit(hand=[[], s.hand[1]])
    pass_until(s, lambda st: st.active == 0)
    assert names(s.hand[0]) == ["2S"] and s.deck[0] == []


def test_main_phase_actions_in_any_order_attack_and_mana_once() -> None:
    """メインフェイズ: attack once, set mana once, spells and soldiers while mana lasts, in any order."""
    s = position(hands=(["JS", "2S", "10S"], []), field=(["KS"], []), mana=(["3C"], []))
    assert {"mana JS", "attack", "play JS", "play 10S"} <= set(texts(s))
    do(s, "mana 2S")
    assert not any(t.startswith("mana") for t in texts(s))
    do(s, "play JS")  # the mana just set is usable at once
    assert s.available_mana(0) == 1
    do(s, "attack", "pass", "pass", "attacker KS", "pass", "pass", "pass", "pass", "pass", "pass")
    assert s.phase == MAIN and len(s.deck[1]) == 27 - 2
    assert "attack" not in texts(s)


def test_end_phase_both_players_may_act() -> None:
    """エンドフェイズ: the opponent may use spells and abilities in the end phase, and answers are possible."""
    s = position(active=0, hands=(["7S"], ["2H"]), field=(["JS"], []), mana=(["9S"], ["9H"]))
    do(s, "pass", "pass")
    assert s.phase == END and s.priority == 0
    do(s, "pass")
    assert "play 2H @JS" in texts(s)
    do(s, "play 2H @JS", "pass")  # the caster keeps priority, then passes it
    do(s, "play 7S @2H", "pass", "pass")  # the answer resolves first
    assert s.flags[cid("2H")] and len(s.stack) == 1
    do(s, "pass", "pass")  # then 2H resolves, dealing 0
    assert names(s.field[0]) == ["JS"] and s.phase == END


def test_deck_out_at_end_phase_loses_both_is_a_draw() -> None:
    """A player with 0 cards in deck at each end phase loses; both at once: draw."""
    s = position(active=0, decks=([], ["2H"]))
    pass_until(s, lambda st: st.phase == OVER)
    assert s.returns() == [-1.0, 1.0]
    s = position(active=1, decks=([], []))
    pass_until(s, lambda st: st.phase == OVER)
    assert s.returns() == [0.0, 0.0]


def test_deck_out_is_checked_at_the_opponents_end_phase_too() -> None:
    """Each end phase, either player's: milled to 0 on your own turn, you lose at that turn's end."""
    s = position(active=0, hands=(["2S"], []), mana=(["9S"], []), decks=(["3S"], ["5H"]))
    do(s, "play 2S @opp", "pass", "pass")
    assert s.deck[1] == []
    pass_until(s, lambda st: st.phase == OVER)
    assert s.returns() == [1.0, -1.0] and s.turn_no == 5


def test_turn_cap_is_a_draw() -> None:
    """RULINGS: max_turns (default 200); reaching it is a draw."""
    s = position(max_turns=5, turn_no=5)
    pass_until(s, lambda st: st.phase == OVER)
    assert s.returns() == [0.0, 0.0] and "cap" in s.end_reason


def test_mana_may_be_set_again_on_the_next_own_turn() -> None:
    """魔力設置（1ターン1回だけ）: once per turn, so again on your next turn."""
    s = position(active=0, hands=(["2S", "3S"], ["2H"]))
    do(s, "mana 2S")
    assert not any(t.startswith("mana") for t in texts(s))
    pass_until(s, lambda st: st.active == 1 and st.phase == MAIN)
    assert "mana 2H" in texts(s)
    pass_until(s, lambda st: st.active == 0 and st.phase == MAIN)
    assert "mana 3S" in texts(s)


def test_first_player_safety_net_after_ten_redeals() -> None:
    """rules.md ruling 13: after 10 complete redeals a seeded coin decides the first player."""
    same = ["AS", "2S", "3S", "4S", "5S"], ["AH", "2H", "3H", "4H", "5H"]
    s = _reveal_start(*same)
    s.edit(redeals=9)
    for r0, r1 in zip(same[0], same[1], strict=True):
        do(s, f"reveal {r0}", f"reveal {r1}")
    assert s.redeals == 10 and s.first in (0, 1) and s.turn_no == 1 and s.phase == MAIN


def test_recovery_priority_option_gives_priority_after_untap_and_heal() -> None:
    """重要！ 「相手のターン、全フェイズで使用可能」 read literally (option recovery_priority): the recovery phase
    gives both players priority after untapping and healing, before the draw."""
    s = position(active=1, field=(["JS"], ["KH"]), hands=(["2S"], []), mana=(["3S"], []), recovery_priority=True)
    s.edit(damage=[int(c == cid("KH")) for c in range(len(s.damage))])
    hand_before = len(s.hand[0])
    pass_until(s, lambda st: st.active == 0)
    assert s.phase == RECOVERY and s.priority == 0 and s.damage[cid("KH")] == 0
    assert len(s.hand[0]) == hand_before  # the draw comes after the recovery phase
    do(s, "pass")
    assert s.priority == 1
    do(s, "pass")
    assert s.phase == DRAW and len(s.hand[0]) == hand_before + 1


def test_without_the_option_the_first_priority_is_after_the_draw() -> None:
    """rules.md ruling 2 (default): no priority in the recovery phase."""
    s = position(active=1)
    hand_before = len(s.hand[0])
    pass_until(s, lambda st: st.active == 0)
    assert s.phase == DRAW and len(s.hand[0]) == hand_before + 1


def test_is_pass_is_exactly_the_pass_action() -> None:
    """Game.is_pass (issue 12 point 3): faces recognise a pass without comparing texts; 'done' ends a choice and
    is not a pass."""
    game = cardarena.load("torabato")
    assert game.is_pass(game.parse_action(game.new_initial_state(0), "pass"))
    rng = Rng(3)
    for seed in range(5):
        s = game.new_initial_state(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            for a in legal:
                assert game.is_pass(a) == (str(a) == "pass")
            s.apply(legal[rng.randbelow(len(legal))])
    assert not game.is_pass(Action(("pass",)))  # a bare kernel action is not ToraBato's own
