"""メインフェイズの解説 1 (攻撃: the four attack steps) and the timing rules (重要！, the stack)."""

from __future__ import annotations

import pytest

from cardarena.engine import IllegalActionError
from cardarena.games.torabato.constants import (
    ASSIGN,
    BLOCK,
    DAMAGE,
    DECLARE,
    DRAW,
    END,
    EXECUTE,
    MAIN,
    SELECT_ATTACKERS,
    SELECT_BLOCKERS,
)

from .helpers import cid, do, names, position, texts


def test_attack_once_per_turn() -> None:
    """攻撃（1ターン1回だけ）."""
    s = position(field=(["KS", "QS"], []))
    do(s, "attack", "pass", "pass", "attacker KS", "done", "pass", "pass", "pass", "pass", "pass", "pass")
    assert s.phase == MAIN and s.attacked and "attack" not in texts(s)
    with pytest.raises(IllegalActionError, match="already attacked"):
        s.apply_text("attack")


def test_soldiers_that_entered_this_turn_cannot_attack_or_use_abilities() -> None:
    """そのターンに出した兵士は攻撃や特殊能力を使うことができません."""
    s = position(hands=(["KS"], []), field=(["JS"], []), mana=(["2S", "3S", "4S", "5S", "6S", "7S", "8S"], []))
    do(s, "play KS")
    assert "use KS" not in texts(s)
    do(s, "attack", "pass", "pass")
    assert s.phase == SELECT_ATTACKERS and texts(s) == ["attacker JS"]
    s = position(field=(["JS"], []), new=["JS"])
    assert "attack" not in texts(s)


def test_four_steps_each_with_priority_for_both() -> None:
    """攻撃宣言 → 攻撃実行 → 防御 → ダメージ割り当て, both players may act in each step."""
    s = position(
        active=0,
        field=(["KS"], ["QH"]),
        hands=(["8S", "8C", "8D"], ["2H", "2D", "7H"]),
        mana=(["AS", "AC", "3S"], ["3H", "4H", "5H"]),
    )
    do(s, "attack")
    assert s.phase == DECLARE and s.priority == 0
    do(s, "pass")
    assert s.priority == 1 and "play 2H @KS" in texts(s)  # the defender may act in the declaration step
    do(s, "pass")
    assert s.phase == SELECT_ATTACKERS
    do(s, "attacker KS")
    assert s.phase == EXECUTE and s.tapped[cid("KS")]  # attackers tap in the execution step
    do(s, "pass")
    assert "play 2H @KS" in texts(s)
    do(s, "pass")
    assert s.phase == SELECT_BLOCKERS and s.current_player == 1
    do(s, "block QH KS")
    assert s.phase == BLOCK and s.priority == 0
    do(s, "play 8S @KS", "pass", "pass")  # +2/+2 right after blocks are set (the rulebook's example)
    assert s.attack_of(cid("KS")) == 4
    do(s, "pass", "pass")
    assert s.phase == DAMAGE
    do(s, "pass", "pass")
    assert s.phase == MAIN and names(s.field[1]) == [] and s.damage[cid("KS")] == 2


def test_untapped_defenders_block_and_several_may_block_one_attacker() -> None:
    """防御: untapped soldiers only; 2 or more may block one attacker."""
    s = position(active=0, field=(["AS"], ["JH", "QH", "10H", "KH"]))
    s.edit(tapped=[c == cid("KH") for c in range(len(s.tapped))])
    do(s, "attack", "pass", "pass", "attacker AS", "pass", "pass")
    assert not any("KH" in t for t in texts(s))
    do(s, "block JH AS", "block QH AS")
    assert "block JH AS" not in texts(s)  # one attacker per blocker
    do(s, "done")
    assert s.blocks == [(cid("JH"), cid("AS")), (cid("QH"), cid("AS"))]


def test_attacker_divides_damage_among_blockers_freely() -> None:
    """ダメージ割り当て: several blockers on one attacker: the attacking side divides the damage as it likes."""
    s = position(active=0, field=(["AS"], ["JH", "QH"]))
    do(s, "attack", "pass", "pass", "attacker AS", "pass", "pass", "block JH AS", "block QH AS")
    do(s, "pass", "pass", "pass", "pass")
    assert s.phase == ASSIGN and set(texts(s)) == {"assign AS JH", "assign AS QH"}
    do(s, "assign AS QH", "assign AS QH")
    assert s.phase == ASSIGN
    do(s, "assign AS QH")  # all 3 points to QH: JH survives, QH dies
    assert s.phase == MAIN
    assert names(s.field[1]) == ["JH"] and names(s.discard[1]) == ["QH"]
    assert s.field[0] == [] and names(s.discard[0]) == ["AS"]  # 1 + 2 damage back kills the 3/3


def test_blocked_attacker_and_blockers_deal_damage_at_once() -> None:
    """Combat damage is simultaneous: a blocker that dies still deals its damage."""
    s = position(active=0, field=(["QS"], ["QH"]))
    do(s, "attack", "pass", "pass", "attacker QS", "pass", "pass", "block QH QS")
    do(s, "pass", "pass", "pass", "pass")
    assert s.field == [[], []] and names(s.discard[0]) == ["QS"] and names(s.discard[1]) == ["QH"]


def test_unblocked_damage_mills_the_defenders_deck() -> None:
    """防御されなかった攻撃兵士は相手魔法使いにダメージ: that many cards from the deck to the discard pile."""
    s = position(active=0, field=(["AS", "KS"], []))
    do(
        s,
        "attack",
        "pass",
        "pass",
        "attacker AS",
        "attacker KS",
        "pass",
        "pass",
        "pass",
        "pass",
        "pass",
        "pass",
    )
    assert len(s.deck[1]) == 27 - 5 and len(s.discard[1]) == 5


def test_blocked_attacker_whose_blockers_left_deals_no_damage() -> None:
    """rules.md ruling 10: a blocked attacker stays blocked even if its blockers are gone."""
    s = position(active=0, field=(["AS"], ["JH"]), hands=(["2S"], []), mana=(["3S"], []))
    deck = len(s.deck[1])
    do(s, "attack", "pass", "pass", "attacker AS", "pass", "pass", "block JH AS")
    do(s, "play 2S @JH", "pass", "pass")  # the attacker kills its blocker
    do(s, "pass", "pass", "pass", "pass")
    assert len(s.deck[1]) == deck and s.phase == MAIN and s.damage[cid("AS")] == 0


def test_q_after_blocks_does_not_remove_the_blocker() -> None:
    """防御が割り当てられた後にQの特殊能力を使っても無意味: tapping a blocker does not undo its block."""
    s = position(active=0, field=(["AS", "QS"], ["KH"]), mana=(["2S", "3S"], []))
    deck = len(s.deck[1])
    do(s, "attack", "pass", "pass", "attacker AS", "done", "pass", "pass", "block KH AS")
    do(s, "use QS @KH", "pass", "pass")
    assert s.tapped[cid("KH")]
    do(s, "pass", "pass", "pass", "pass")
    assert names(s.discard[1]) == ["KH"] and s.damage[cid("AS")] == 2  # KH still blocked and fought
    assert len(s.deck[1]) == deck  # nothing got through


def test_attack_ends_when_all_attackers_leave() -> None:
    s = position(active=0, field=(["JS"], []), hands=([], ["2H"]), mana=([], ["3H"]))
    do(s, "attack", "pass", "pass", "attacker JS", "pass", "play 2H @JS", "pass", "pass")
    assert s.field[0] == [] and s.phase == EXECUTE
    do(s, "pass", "pass")
    assert s.phase == MAIN and s.attackers == []


def test_stack_resolves_last_in_first_out() -> None:
    """相手の呪文に対応して呪文を唱える場合、後に出した呪文の効果から先に解決します."""
    s = position(active=0, field=(["JS"], ["JH"]), hands=(["8S"], ["2H"]), mana=(["3S"], ["4H"]))
    do(s, "pass", "play 2H @JS", "pass", "play 8S @JS", "pass", "pass")
    assert s.health_of(cid("JS")) == 3 and [names([i[1]]) for i in s.stack] == [["2H"]]
    do(s, "pass", "pass")
    assert names(s.field[0]) == ["JS"] and s.damage[cid("JS")] == 1


def test_caster_keeps_priority_and_two_passes_resolve() -> None:
    """RULINGS: a player who acts keeps priority; both passing in succession resolves the top of the stack."""
    s = position(active=0, hands=(["2S", "2C"], []), mana=(["3S", "4S"], []))
    do(s, "play 2S @opp")
    assert s.priority == 0 and "play 2C @opp" in texts(s)
    do(s, "play 2C @opp", "pass")
    assert s.priority == 1 and len(s.stack) == 2
    do(s, "pass")
    assert len(s.stack) == 1 and s.priority == 0  # the active player gets priority after a resolution


def test_own_turn_only_cards_and_summons() -> None:
    """「相手ターンで使用不可」と書かれた魔法と兵士召喚は自分のターンでのみ使用可能."""
    s = position(active=1, hands=(["JS", "6S", "JK0", "2S"], []), mana=(["3S", "4S", "5S", "7S", "8S"], []))
    do(s, "pass")
    assert s.priority == 0
    playable = texts(s)
    assert "play JS" not in playable and "play 6S" not in playable and "play JK0" not in playable
    assert "play 2S @opp" in playable  # other spells work on the opponent's turn, in every phase
    assert not any(t.startswith("mana") for t in playable)
    with pytest.raises(IllegalActionError, match="only in your own main phase"):
        s.apply_text("play JS")


def test_summons_and_mana_not_during_an_attack_or_with_a_stack() -> None:
    """Summoning and setting mana are main-phase actions (メインフェイズ: 魔力設置, 兵士召喚), outside an attack."""
    s = position(active=0, hands=(["JS", "2S"], []), field=(["KS"], []), mana=(["3S", "4S"], []))
    do(s, "attack")
    assert "play JS" not in texts(s)
    with pytest.raises(IllegalActionError, match="soldiers are summoned only in your own main phase"):
        s.apply_text("play JS")
    s = position(active=0, hands=(["JS", "2S"], []), mana=(["3S", "4S"], []))
    do(s, "play 2S @opp")
    assert "play JS" not in texts(s) and not any(t.startswith("mana") for t in texts(s))


OWN_TURN_MANA = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]


def test_own_turn_spells_whenever_you_have_priority_on_your_own_turn() -> None:
    """ゲームの流れ ④ 重要！: 「『相手ターンで使用不可』と書かれた魔法と兵士召喚は、自分のターンでのみ使用可能です」;
    メインフェイズの解説 2: 「各プレイヤーは任意のタイミングで魔法を使うことができます」; 解説 1 (攻撃):
    「各フェイズで全プレイヤーは魔法や兵士の特殊能力を使うことができます」.

    6 and Joker are refused only on the opponent's turn: on your own turn they may be cast in the draw phase, in
    every step of your attack, in the end phase and in response on the stack. Summoning stays in the main phase.
    """
    s = position(phase=DRAW, hands=(["6S", "JS"], []), mana=(OWN_TURN_MANA, []))
    assert "play 6S" in texts(s) and "play JS" not in texts(s)  # own draw phase
    hand_before = len(s.hand[0])
    do(s, "play 6S", "pass", "pass")
    assert len(s.hand[0]) == hand_before - 1 + 2 and s.phase == DRAW

    s = position(hands=(["6S", "JK0", "JC"], ["2H"]), field=(["KS"], ["QH"]), mana=(OWN_TURN_MANA, ["3H"]))
    do(s, "attack")
    seen_in = []
    while s.phase != MAIN:
        if s.current_player == 0 and s.priority == 0 and s.phase in (DECLARE, EXECUTE, BLOCK, DAMAGE):
            actions = texts(s)
            assert "play JC" not in actions  # no summoning during an attack
            if "play 6S" in actions and "play JK0" in actions:
                seen_in.append(s.phase)
        s.apply(s.legal_actions()[0])  # pass; attacker KS; block QH KS
    assert seen_in == [DECLARE, EXECUTE, BLOCK, DAMAGE]  # every step of the own attack

    s = position(hands=(["6S"], ["2H"]), mana=(OWN_TURN_MANA, ["3H"]))
    do(s, "pass", "play 2H @opp", "pass")  # seat 1 casts in seat 0's main phase, then passes
    assert s.priority == 0 and len(s.stack) == 1 and "play 6S" in texts(s)  # in response, on the own turn
    do(s, "play 6S", "pass", "pass")
    assert [names([item[1]]) for item in s.stack] == [["2H"]] and len(s.hand[0]) == 2  # 6 resolved first

    s = position(phase=END, hands=(["JK0"], []), field=(["KS"], ["QH"]), mana=(OWN_TURN_MANA, []))
    do(s, "play JK0", "pass", "pass")  # own end phase
    assert s.field == [[], []] and s.phase == END


def test_own_turn_spells_still_refused_on_the_opponents_turn_even_in_response() -> None:
    """「相手ターンで使用不可」: never on the opponent's turn, in any phase, nor in response to their spell."""
    s = position(active=1, hands=(["6S", "JK0"], ["2H"]), mana=(OWN_TURN_MANA, ["3H"]))
    do(s, "play 2H @opp", "pass")
    assert s.priority == 0 and len(s.stack) == 1
    assert "play 6S" not in texts(s) and "play JK0" not in texts(s)
    before = s.snapshot()
    with pytest.raises(IllegalActionError, match="cannot be cast on the opponent's turn"):
        s.apply_text("play 6S")
    assert s.snapshot() == before
    do(s, "pass", "pass", "pass", "pass")  # 2H resolves; seat 1's main phase ends; seat 1 passes in its end phase
    assert s.phase == END and s.priority == 0 and "play JK0" not in texts(s)


def test_mana_can_be_any_hand_card_face_down_and_hidden() -> None:
    """魔力設置: any hand card, face down; the opponent does not see which."""
    s = position(hands=(["AS", "JK0"], []))
    do(s, "mana JK0")
    assert names(s.mana[0]) == ["JK0"]
    assert "mana" not in s.observation(1)["players"][0] and s.observation(1)["players"][0]["mana_count"] == 1
    assert s.observation(0)["players"][0]["mana"] == ["JK0"]
    seen = s.game.action_seen_by(s, s.game.parse_action(s, "mana AS"), 1)
    assert "AS" not in seen


def test_soldier_at_zero_health_goes_to_the_discard_pile() -> None:
    """体力が0になった時点で戦闘不能となり、捨て札の山に置かなければいけません."""
    s = position(hands=(["3S"], []), field=([], ["KH"]), mana=(["2S", "4S", "5S", "6S"], []))
    do(s, "play 3S @KH", "pass", "pass")
    assert s.field[1] == [] and names(s.discard[1]) == ["KH"]


def test_illegal_actions_leave_the_state_unchanged() -> None:
    s = position(hands=(["AS"], []), mana=(["2S"], []))
    before = s.snapshot()
    for text, reason in [
        ("play AS", "costs 4"),
        ("use AS", "not one of your soldiers"),
        ("block AS AH", "nothing"),
    ]:
        with pytest.raises(IllegalActionError, match=reason):
            s.apply_text(text)
        assert s.snapshot() == before


def test_attack_whose_only_soldier_dies_in_the_declaration_step_ends_and_counts() -> None:
    """攻撃宣言フェイズ: the defender may kill the would-be attacker; the turn's one attack is spent."""
    s = position(active=0, field=(["JS"], []), hands=([], ["2H"]), mana=([], ["3H"]))
    do(s, "attack", "pass", "play 2H @JS", "pass", "pass")
    assert s.field[0] == [] and s.phase == DECLARE
    do(s, "pass", "pass")
    assert s.phase == MAIN and s.attacked and s.attackers == []
