"""カードリスト: one scenario per card of the rulebook's card list, each with its abilities and recursion."""

from __future__ import annotations

import pytest

from cardarena.engine import IllegalActionError
from cardarena.games.torabato.constants import BLOCK, DECLARE, END, MAIN, Pending

from .helpers import cid, do, names, pass_until, position, texts

# The two readings of "this turn" (rules.md ruling 7): the game's default, and the literal one as an option.
READINGS = pytest.mark.parametrize("lasting_boosts", [None, False], ids=["default", "literal"])


def resolve(state, n: int = 1):  # type: ignore[no-untyped-def]
    """Both players pass n times in a row: the top n stack items resolve."""
    for _ in range(n):
        do(state, "pass", "pass")
    return state


def test_card_A_soldier_3_3_and_regrow_for_5() -> None:
    """A: 4 mana, 3/3 soldier; pay 5: return a card from your discard pile to your hand."""
    s = position(hands=(["AS"], []), mana=(["2S", "3S", "4S", "5S"], []))
    do(s, "play AS")
    assert names(s.field[0]) == ["AS"] and s.available_mana(0) == 0
    assert (s.game.spec[cid("AS")].attack, s.game.spec[cid("AS")].health) == (3, 3)
    s = position(field=(["AS"], []), mana=(["2S", "3S", "4S", "5S", "6S"], []), discard=(["KS", "9C"], []))
    do(s, "use AS")
    resolve(s)
    assert set(texts(s)) == {"choose KS", "choose 9C"}
    do(s, "choose KS")
    assert names(s.hand[0]) == ["KS"] and names(s.discard[0]) == ["9C"]
    assert s.observation(1)["players"][0]["known_in_hand_or_mana"] == ["KS"]


def test_card_A_regrow_with_a_single_card_takes_it() -> None:
    s = position(field=(["AS"], []), mana=(["2S", "3S", "4S", "5S", "6S"], []), discard=(["KS"], []))
    resolve(do(s, "use AS"))
    assert names(s.hand[0]) == ["KS"] and s.pending is None


def test_card_2_one_damage_to_opponent_or_soldier_and_recursion() -> None:
    """2: 1 mana, 1 damage to the opponent or one soldier; from the discard pile on your turn: pay 3 to hand."""
    s = position(hands=(["2S", "2C"], []), field=([], ["JH"]), mana=(["3S", "4S"], []))
    assert {"play 2S @opp", "play 2S @JH"} <= set(texts(s))
    deck_before = len(s.deck[1])
    resolve(do(s, "play 2S @opp"))
    assert len(s.deck[1]) == deck_before - 1 and len(s.discard[1]) == 1  # damage mills the deck
    resolve(do(s, "play 2C @JH"))
    assert s.field[1] == [] and names(s.discard[1])[-1] == "JH"
    s = position(discard=(["2S"], []), mana=(["3S", "4S", "5S"], []))
    resolve(do(s, "recur 2S"))
    assert names(s.hand[0]) == ["2S"] and s.available_mana(0) == 0


def test_card_3_three_damage_and_recursion_for_6() -> None:
    """3: 4 mana, 3 damage to the opponent or one soldier; recursion for 6 on your turn."""
    s = position(hands=(["3S"], []), field=([], ["KH"]), mana=(["4S", "5S", "6S", "7S"], []))
    resolve(do(s, "play 3S @KH"))
    assert s.field[1] == []
    s = position(discard=(["3S"], []), mana=(["4S", "5S", "6S", "7S", "8S"], []))
    assert "recur 3S" not in texts(s)  # 5 mana is not enough
    s.edit(mana=[[*s.mana[0], cid("9S")], s.mana[1]])
    resolve(do(s, "recur 3S"))
    assert names(s.hand[0]) == ["3S"]


def test_card_4_destroys_a_soldier_not_damage() -> None:
    """4: 3 mana, destroy one soldier; this is not damage (7 cannot stop it)."""
    s = position(hands=(["4S"], ["7H"]), field=([], ["AH"]), mana=(["2S", "3S", "5S"], ["9H"]))
    do(s, "play 4S @AH", "pass", "play 7H @AH", "pass", "pass")  # 7 resolves: AH deals 0, but 4 is no damage
    resolve(s)
    assert s.field[1] == [] and names(s.discard[1]) == ["7H", "AH"]


def test_card_5_gives_four_mana_at_once_off_the_stack() -> None:
    """5: 2 mana, gain 4 mana; only this card takes effect the moment it is played."""
    s = position(hands=(["5S", "AS"], []), mana=(["2S", "3S"], []))
    do(s, "play 5S")
    assert s.stack == [] and s.pool[0] == 4 and s.available_mana(0) == 4
    do(s, "play AS")  # the 4 gained mana pay for A
    assert s.pool[0] == 0 and s.tapped_mana[0] == 2
    # The gained mana lasts until the end of the turn.
    s = position(hands=(["5S"], []), mana=(["2S", "3S"], []))
    do(s, "play 5S", "pass", "pass", "pass", "pass")
    assert s.active == 1 and s.pool == [0, 0]


def test_card_6_draws_two_only_on_your_own_turn() -> None:
    """6: 3 mana, draw 2 cards; not usable on the opponent's turn (相手ターンで使用不可)."""
    s = position(hands=(["6S"], []), mana=(["2S", "3S", "4S"], []))
    resolve(do(s, "play 6S"))
    assert len(s.hand[0]) == 2
    s = position(active=1, hands=(["6S"], []), mana=(["2S", "3S", "4S"], []))
    do(s, "pass")
    assert s.priority == 0 and "play 6S" not in texts(s)


def test_card_7_prevents_damage_from_a_soldier_in_combat() -> None:
    """7: 1 mana, damage from one soldier or spell becomes 0 (here: an attacking soldier)."""
    s = position(active=1, field=(["JS"], ["AH"]), hands=(["7S"], []), mana=(["2S"], []))
    do(s, "attack", "pass", "pass", "attacker AH", "pass", "pass", "block JS AH")
    do(s, "pass", "play 7S @AH", "pass", "pass")  # defence step: seat 0 answers
    do(s, "pass", "pass", "pass", "pass")  # defence and damage steps end
    assert names(s.field[0]) == ["JS"]  # AH dealt 0
    assert names(s.field[1]) == ["AH"] and s.damage[cid("AH")] == 1  # JS still dealt its 1


def test_card_7_prevents_damage_from_a_spell_on_the_stack() -> None:
    """7 names a damage spell on the stack: that spell deals 0 (rulebook example: answer 1 damage with 7)."""
    s = position(active=0, field=(["JS"], []), hands=(["7S"], ["2H"]), mana=(["3S"], ["9H"]))
    do(s, "attack", "pass")
    do(s, "play 2H @JS", "pass", "play 7S @2H", "pass", "pass", "pass", "pass")
    assert names(s.field[0]) == ["JS"] and s.damage[cid("JS")] == 0  # "the soldier is unharmed"
    assert s.phase == DECLARE  # and the attack goes on (still the declaration step)
    do(s, "pass", "pass")
    assert "attacker JS" in texts(s)


def test_card_8_plus_two_plus_two_this_turn() -> None:
    """8: 1 mana, one soldier gets +2/+2 this turn."""
    s = position(hands=(["8S"], []), field=(["JS"], []), mana=(["2S"], []))
    resolve(do(s, "play 8S @JS"))
    assert (s.attack_of(cid("JS")), s.health_of(cid("JS"))) == (3, 3)
    do(s, "pass", "pass", "pass", "pass")  # main and end phases end
    assert (s.attack_of(cid("JS")), s.health_of(cid("JS"))) == (1, 1)


def test_card_8_saved_soldier_survives_the_end_of_its_boost_by_default() -> None:
    """8: 「兵士1体がこのターン+2/+2」 and 体力は「リカバリーフェイズ」で全快します: by default (option
    lasting_boosts) the boost ends in the next recovery phase together with the healing, so a 1/1 that took 1
    damage while boosted lives on, healed."""
    s = position(hands=(["8S", "2C"], []), field=(["JS"], []), mana=(["2S", "3S"], []))
    resolve(do(s, "play 8S @JS"))
    resolve(do(s, "play 2C @JS"))
    assert s.damage[cid("JS")] == 1 and s.health_of(cid("JS")) == 3
    do(s, "pass", "pass")
    assert s.phase == END and s.health_of(cid("JS")) == 3  # the end phase is still this turn
    do(s, "pass", "pass")
    assert s.active == 1 and names(s.field[0]) == ["JS"] and s.damage[cid("JS")] == 0
    assert (s.attack_of(cid("JS")), s.health_of(cid("JS"))) == (1, 1)


def test_card_8_literal_reading_boost_ends_with_the_turn_and_damage_stays() -> None:
    """Option lasting_boosts=false (rules.md 7): 「このターン+2/+2」 ends with the turn while damage stays until the
    recovery phase, and a soldier is out the moment its health reaches 0 (0になった時点で戦闘不能): it dies."""
    s = position(hands=(["8S", "2C"], []), field=(["JS"], []), mana=(["2S", "3S"], []), lasting_boosts=False)
    resolve(do(s, "play 8S @JS"))
    resolve(do(s, "play 2C @JS"))
    assert s.damage[cid("JS")] == 1 and names(s.field[0]) == ["JS"]
    do(s, "pass", "pass", "pass", "pass")
    assert s.active == 1 and s.field[0] == [] and names(s.discard[0])[-1] == "JS"


@READINGS
def test_rulebook_example_plus_two_when_blockers_are_assigned(lasting_boosts: bool | None) -> None:
    """メインフェイズの解説 1 重要！: 「③の防御兵士が割り当てられた瞬間に兵士が+2/+2になる魔法をかけて逆転を狙っても
    良いでしょう」. A 1/1 attacker blocked by a 2/2 would die alone; with 8 cast in the defence step it kills the
    blocker and survives the fight. By default it stays alive (the turnaround holds); read literally
    (lasting_boosts=false) it dies when the boost ends, so the block becomes a trade."""
    s = position(hands=(["8S"], []), field=(["JS"], ["QH"]), mana=(["2S"], []), lasting_boosts=lasting_boosts)
    do(s, "attack", "pass", "pass", "attacker JS", "pass", "pass", "block QH JS")
    assert s.phase == BLOCK and s.priority == 0
    resolve(do(s, "play 8S @JS"))  # the moment the blocker is assigned
    do(s, "pass", "pass", "pass", "pass")  # defence and damage steps: JS 3/3 deals 3, takes 2
    assert s.field[1] == [] and names(s.field[0]) == ["JS"] and s.damage[cid("JS")] == 2
    pass_until(s, lambda st: st.active == 1)
    if lasting_boosts is None:
        assert names(s.field[0]) == ["JS"] and s.damage[cid("JS")] == 0  # 逆転: the attacker won the fight
    else:
        assert s.field[0] == [] and names(s.discard[0]) == ["8S", "JS"]  # both soldiers are gone


@READINGS
def test_rulebook_example_10_as_an_easy_defender(lasting_boosts: bool | None) -> None:
    """プレイの基礎知識: 「10は0/2。…2魔力支払う毎に1ターンだけ体力を+1することができます。お手軽な防御役として活躍
    できる」. 10 blocks a 2/2 and pays 2 for +0/+1: it survives the fight. By default it is still there on its
    controller's next turn; read literally (lasting_boosts=false) it dies when the +0/+1 ends with the turn."""
    s = position(active=1, field=(["10S"], ["QH"]), mana=(["2S", "3S"], []), lasting_boosts=lasting_boosts)
    do(s, "attack", "pass", "pass", "attacker QH", "pass", "pass", "block 10S QH")
    do(s, "pass", "use 10S", "pass", "pass")  # defence step: seat 0 fortifies its blocker
    assert s.health_of(cid("10S")) == 3
    do(s, "pass", "pass", "pass", "pass")  # defence and damage steps: QH deals 2
    assert names(s.field[0]) == ["10S"] and s.damage[cid("10S")] == 2
    pass_until(s, lambda st: st.active == 0)
    if lasting_boosts is None:
        assert names(s.field[0]) == ["10S"] and s.damage[cid("10S")] == 0 and s.health_of(cid("10S")) == 2
    else:
        assert s.field[0] == [] and names(s.discard[0]) == ["10S"]


def test_card_9_returns_a_mana_card_tapped_or_not_and_recursion() -> None:
    """9: 2 mana, return one of your mana cards (used or not) to your hand; recursion for 2 on your turn."""
    s = position(hands=(["9S"], []), mana=(["AS", "KS", "QS"], []))
    do(s, "play 9S", "pass", "pass")
    assert s.pending == (Pending.RETURN_MANA, 0) and set(texts(s)) == {"choose AS", "choose KS", "choose QS"}
    with pytest.raises(IllegalActionError, match="2S is not among your mana cards"):
        s.apply_text("choose 2S")
    with pytest.raises(IllegalActionError, match="must first choose"):
        s.apply_text("pass")
    do(s, "choose KS")
    assert names(s.hand[0]) == ["KS"] and len(s.mana[0]) == 2
    assert s.tapped_mana[0] == 1 and s.available_mana(0) == 1  # a tapped card came back
    s = position(discard=(["9S"], []), mana=(["AS", "KS"], []))
    resolve(do(s, "recur 9S"))
    assert names(s.hand[0]) == ["9S"]


def test_card_9_choice_is_hidden_from_the_opponent() -> None:
    s = position(hands=(["9S"], []), mana=(["AS", "KS"], []))
    do(s, "play 9S", "pass", "pass")
    action = s.game.parse_action(s, "choose KS")
    assert "KS" not in s.game.action_seen_by(s, action, 1)
    assert "KS" in s.game.action_seen_by(s, action, 0)


def test_card_10_zero_two_and_fortify_any_number_of_times() -> None:
    """10: 1 mana, 0/2 soldier; for each 2 mana paid: +0/+1 this turn."""
    s = position(hands=(["10S"], []), field=(["10C"], []), mana=(["2S", "3S", "4S", "5S", "6S"], []))
    do(s, "play 10S")
    assert "use 10S" not in texts(s)  # summoning sickness: no ability this turn
    resolve(do(s, "use 10C"))
    resolve(do(s, "use 10C"))
    assert s.health_of(cid("10C")) == 4 and s.attack_of(cid("10C")) == 0
    assert "use 10C" not in texts(s)  # no mana left


def test_card_J_one_one_and_recursion_for_3() -> None:
    """J: 1 mana, 1/1 soldier; from the discard pile on your turn: pay 3 to return it to hand."""
    s = position(hands=(["JS"], []), discard=(["JC"], []), mana=(["2S", "3S", "4S", "5S"], []))
    do(s, "play JS")
    assert (s.attack_of(cid("JS")), s.health_of(cid("JS"))) == (1, 1)
    resolve(do(s, "recur JC"))
    assert names(s.hand[0]) == ["JC"]


def test_recursion_only_on_your_own_turn() -> None:
    """2, 3, 9, J: 自分のターンで — not on the opponent's turn."""
    s = position(active=1, discard=(["JS", "2S", "9S", "3S"], []), mana=(["KS", "QS", "4S", "5S", "6S", "7S"], []))
    do(s, "pass")
    assert s.priority == 0 and not any(t.startswith("recur") for t in texts(s))


def test_card_Q_taps_a_soldier_this_turn() -> None:
    """Q: 2 mana, 2/2; pay 2 and tap Q: tap one soldier this turn (it cannot block)."""
    s = position(active=0, field=(["QS", "KS"], ["JH"]), mana=(["2S", "3S"], []))
    resolve(do(s, "use QS @JH"))
    assert s.tapped[cid("QS")] and s.tapped[cid("JH")]
    do(s, "attack", "pass", "pass", "attacker KS", "pass", "pass")
    assert s.phase == BLOCK  # no block possible: straight to the defence step's priority
    do(s, "pass", "pass", "pass", "pass")
    assert len(s.deck[1]) == 27 - 1 - 2  # JH on the field, 2 milled by KS
    do(s, "pass", "pass", "pass", "pass")
    assert s.active == 1 and not s.tapped[cid("JH")]


@READINGS
def test_card_Q_tap_used_on_the_opponents_turn_ends_with_that_turn(lasting_boosts: bool | None) -> None:
    """カードリスト Q: 「2魔力コスト支払い自身を使用済み状態にすると、このターン兵士1体を使用済みにする」.

    Used on the opponent's turn, Q keeps their soldier from attacking; the soldier untaps when that turn ends
    (under both readings of "this turn", option lasting_boosts), so it can block on Q's controller's next turn.
    """
    s = position(active=1, field=(["QS", "JS"], ["KH"]), mana=(["2S", "3S"], []), lasting_boosts=lasting_boosts)
    do(s, "pass", "use QS @KH", "pass", "pass")  # seat 0 answers in seat 1's main phase; Q's ability resolves
    assert s.tapped[cid("KH")] and s.observation(0)["players"][1]["soldiers"][0]["tapped_this_turn"]
    assert "KH 2/3, tapped this turn" in s.render(1)
    assert "attack" not in texts(s)  # KH cannot attack this turn
    do(s, "pass", "pass")
    assert s.phase == END and s.tapped[cid("KH")]  # still "this turn" in the end phase
    do(s, "pass", "pass")  # seat 1's turn ends
    assert s.active == 0 and not s.tapped[cid("KH")]
    do(s, "pass", "pass", "attack", "pass", "pass", "attacker JS", "done", "pass", "pass")
    assert s.current_player == 1 and "block KH JS" in texts(s)  # KH blocks on seat 0's turn


def test_card_Q_own_tap_is_a_cost_and_lasts_until_its_controllers_recovery() -> None:
    """Q taps itself as its cost (自身を使用済み状態にする): that tap is not "this turn"; Q untaps in its controller's
    recovery phase. A target that is already tapped when the ability resolves is left as it is."""
    s = position(active=0, field=(["QS"], ["QH", "KH"]), mana=(["2S", "3S"], ["2H", "3H"]))
    do(s, "pass", "use QH @QS", "pass", "use QS @KH")  # seat 0 answers: QS taps itself to tap KH first
    resolve(s, 2)
    assert s.tapped[cid("QS")] and s.tapped[cid("KH")] and s.tapped[cid("QH")]
    pass_until(s, lambda st: st.active == 1)
    assert s.tapped[cid("QS")]  # QS tapped for its own cost before QH's tap resolved: it stays tapped
    assert not s.tapped[cid("KH")] and not s.tapped[cid("QH")]


def test_card_Q_needs_to_be_untapped_and_not_new() -> None:
    s = position(field=(["QS"], ["JH"]), mana=(["2S", "3S", "4S", "5S"], []), new=["QS"])
    assert not any(t.startswith("use QS") for t in texts(s))
    with pytest.raises(IllegalActionError, match="entered this turn"):
        s.apply_text("use QS @JH")


def test_card_K_unblockable_for_4() -> None:
    """K: 3 mana, 2/3; pay 4: this turn K cannot be blocked by the opponent's soldiers."""
    s = position(field=(["KS"], ["AH"]), mana=(["2S", "3S", "4S", "5S"], []))
    resolve(do(s, "use KS"))
    do(s, "attack", "pass", "pass", "attacker KS", "pass", "pass")
    assert s.phase == BLOCK and s.blocks == []  # AH could not block
    do(s, "pass", "pass", "pass", "pass")
    assert len(s.deck[1]) == 27 - 1 - 2


def test_card_joker_destroys_every_soldier_own_turn_only() -> None:
    """Joker: 5 mana, destroy every soldier of both players; not damage; not on the opponent's turn."""
    s = position(hands=(["JK0"], []), field=(["AS", "KS"], ["QH"]), mana=(["2S", "3S", "4S", "5S", "6S"], []))
    resolve(do(s, "play JK0"))
    assert s.field == [[], []] and set(names(s.discard[0])) == {"AS", "KS", "JK0"}
    s = position(active=1, hands=(["JK0"], []), mana=(["2S", "3S", "4S", "5S", "6S"], []))
    do(s, "pass")
    assert "play JK0" not in texts(s)


def test_spell_costs_are_paid_by_tapping_mana() -> None:
    """Mana: tap as many mana cards as the cost; any combination of costs in one turn."""
    s = position(hands=(["2S", "2C", "7S"], []), mana=(["AS", "KS", "QS"], []))
    resolve(do(s, "play 2S @opp"))
    resolve(do(s, "play 2C @opp"))
    assert s.tapped_mana[0] == 2
    assert "play 7S @2S" not in texts(s) and s.phase == MAIN
    s.edit(hand=[[*s.hand[0], cid("3S")], s.hand[1]])
    assert not any(t.startswith("play 3S") for t in texts(s))  # 4 mana needed, 1 left
    assert s.phase != END


def test_spells_go_to_the_discard_pile_soldiers_stay() -> None:
    """魔法カードは1回使ったら捨て札エリアに置かなければいけません、兵士カードは場に留まります."""
    s = position(hands=(["8S", "KS"], []), mana=(["2S", "3S", "4S", "5S"], []))
    do(s, "play KS")
    resolve(do(s, "play 8S @KS"))
    assert names(s.discard[0]) == ["8S"] and names(s.field[0]) == ["KS"]


def test_a_spell_needs_a_target_to_be_cast() -> None:
    """rules.md ruling 5: 4 and 8 with no soldier on the field cannot be cast; 9 needs a mana card."""
    s = position(hands=(["4S", "8S", "9S"], []))
    s.edit(pool=[5, 0])
    assert not any(t.startswith("play 4S") or t.startswith("play 8S") or t.startswith("play 9S") for t in texts(s))


def test_a_target_that_left_makes_the_spell_do_nothing() -> None:
    """rules.md ruling 5: targets are checked again on resolution."""
    s = position(hands=(["8S", "4C"], []), field=(["JS"], []), mana=(["2S", "3S", "5S", "6S"], []))
    do(s, "play 8S @JS", "play 4C @JS", "pass", "pass")  # 4 resolves first and destroys JS
    assert s.field[0] == []
    resolve(s)
    assert s.atk_boost[cid("JS")] == 0 and names(s.discard[0]) == ["JS", "4C", "8S"]
