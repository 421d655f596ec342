"""One scenario per rule sentence of the rulebook; each test names the section (見出し) it checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardarena.engine import IllegalActionError
from cardarena.games.dicebattle.constants import Phase
from cardarena.games.dicebattle.rules.levels import base_level, spent, unit_level
from cardarena.games.dicebattle.state import DiceBattleState

from .helpers import act, arrange, battle, cards, fired, last_battle, legal, names, new_state, set_roll

DECK_OF_SIX = ["titan"] * 20  # a deck nothing fits under a small die (test decks may break deck rules)


# ---------------------------------------------------------------- 勝利条件
def test_victory_first_to_three_stars_wins() -> None:
    """勝利条件: 先に勝ち星を3つ手に入れたプレイヤーが勝利します."""
    st = battle(new_state(), main=(["behemoth"], ["slime"]), stars=(2, 2))
    assert last_battle(st) == (5, 1, 0)
    assert st.is_terminal() and st.returns() == [1.0, -1.0]
    assert st.current_player is None and st.legal_actions() == []


def test_victory_checked_when_the_reward_phase_ends_not_at_the_moment(tmp_path: Path) -> None:
    """勝ち星が3つになった瞬間ではなく、リワードフェイズが終了した時点で3つ持っているプレイヤーが勝利します."""
    pool = Path(__file__).parent / "data" / "tiny_pool.toml"
    deck = tmp_path / "d.toml"
    deck.write_text('name = "t"\n[cards]\n' + "".join(f"c{k} = 2\n" for k in range(15)), encoding="utf-8")
    st = new_state(str(deck), str(deck), cards=str(pool))
    # Seat 1 gains its third star by a Lv5 effect, then loses it to seat 0's Lv1 effect; seat 0 wins the battle.
    battle(st, main=(["thief"], ["wisher"]), stars=(1, 2))
    assert (st.sides[0].stars, st.sides[1].stars) == (2, 2)
    assert [e[0] for e in st.events()].count("stars") == 3  # 3 (wish), 2 (theft), then seat 0's reward star
    assert not st.is_terminal()


def test_both_reaching_three_stars_at_once_go_back_to_two() -> None:
    """同時に3つになった場合は、お互いに勝ち星を2つにした状態でドローフェイズへ移行します."""
    st = battle(new_state(), main=(["behemoth"], ["apprentice_mage"]), circle=([], ["wish_star"]), stars=(2, 2))
    # Wish Upon a Star (Lv4) fires first: seat 1 is losing, gains its third star; seat 0 then wins the battle.
    assert st.sides[1].stars == 3 and not st.is_terminal()
    act(st, "skip apprentice_mage")
    assert st.phase == Phase.DICE and not st.is_terminal()
    assert [s.stars for s in st.sides] == [2, 2]
    assert "both_three" in [e[0] for e in st.events()]
    # Straight to the draw phase: no Revival phase for the battle's loser, who draws 3.
    assert st.sides[1].revival is True


# ---------------------------------------------------------------- ゲームの準備
def test_setup_action_cards_face_up_five_cards_drawn() -> None:
    """ゲームの準備: 「奇跡」「復活」を表側にして置き、デッキをシャッフルして5枚引きます."""
    st = new_state(seed=4)
    for side in st.sides:
        assert side.miracle and side.revival
        assert len(side.hand) == 5 and len(side.deck) == 25 and side.stars == 0
    orders = {tuple(new_state(seed=s).sides[0].deck) for s in range(5)}
    assert len(orders) == 5  # shuffled, differently per seed


def test_setup_first_player_by_seeded_coin() -> None:
    """ゲームの準備: 先攻、後攻を決めます (seeded coin)."""
    firsts = [new_state(seed=s).first for s in range(40)]
    assert set(firsts) == {0, 1}
    assert firsts == [new_state(seed=s).first for s in range(40)]
    st = new_state(seed=9)
    assert st.current_player == st.first and st.sides[st.first].roll in range(1, 7)
    assert st.sides[1 - st.first].roll == 0  # the second player rolls after the first has set


# ---------------------------------------------------------------- 1、ダイスフェイズ
def test_dice_phase_set_only_units_of_level_at_most_the_die() -> None:
    """ダイスフェイズ: サイコロの数字以下のレベルが書かれているカード(ユニット)をメインゾーンにセット."""
    st = arrange(new_state(), roll=3, hands=(["slime", "goblin", "harpy", "ogre", "spark"], []))
    assert sorted(legal(st)) == ["miracle", "set goblin", "set harpy", "set slime"]
    act(st, "set harpy")
    assert names(st, st.sides[0].main) == ["harpy"] and len(st.sides[0].hand) == 4


def test_dice_phase_a_player_who_can_set_a_unit_must() -> None:
    """ダイスフェイズ (RULINGS): a player who can set a unit must set at least one."""
    st = arrange(new_state(), roll=6, hands=(["slime"], []), miracle=(False, True))
    assert legal(st) == ["set slime"]
    with pytest.raises(IllegalActionError, match="set a unit"):
        st.apply_text("done")


def test_miracle_rerolls_before_setting_once_per_game() -> None:
    """ダイスフェイズ: 「奇跡」を裏側にすることで振り直し; 振り直しはカードをセットする前に行います."""
    st = arrange(new_state(seed=2), roll=1, hands=(["ogre", "slime"], []))
    act(st, "miracle")
    assert st.sides[0].miracle is False
    assert ("miracle", 0, st.sides[0].roll) in st.events()
    assert "miracle" not in legal(st)  # face down for good
    st2 = arrange(new_state(), roll=6, hands=(["slime", "goblin"], []))
    act(st2, "set slime")
    assert "miracle" not in legal(st2)  # not after a card is set
    with pytest.raises(IllegalActionError):
        st2.apply_text("miracle")


def test_nothing_to_set_shows_hand_shuffles_it_back_and_redraws_as_many() -> None:
    """ダイスフェイズ: セットできるカードが手札にない場合は、手札を相手へ公開した後にデッキへ戻して
    シャッフルを行い、戻した枚数だけ山札の上から引き直します."""
    st = arrange(
        new_state(),
        roll=1,
        hands=(["ogre", "titan", "spark"], []),
        decks=(["slime"] * 10, []),
        miracle=(False, True),
    )
    assert legal(st) == ["redraw"]
    act(st, "redraw")
    shown = [e for e in st.events() if e[0] == "redraw"]
    assert shown == [("redraw", 0, tuple(sorted(cards(st, ["ogre", "titan", "spark"]))))]
    assert len(st.sides[0].hand) == 3 and len(st.sides[0].deck) == 10
    assert st.sides[0].redraws == 1
    # The public observation of the opponent names the shown cards.
    assert any("Ogre" in line for line in st.observation(1)["events"])


def test_redraw_at_most_three_times_then_the_dice_token() -> None:
    """ダイスフェイズ: 引き直しは3回まで; それでもセットするカードがない場合は「サイコロトークン(Lv1 効果なし)」."""
    st = arrange(new_state(), roll=1, hands=(["titan"] * 3, []), decks=(DECK_OF_SIX, []), miracle=(False, True))
    act(st, "redraw", "redraw", "redraw")
    assert legal(st) == ["token"]
    act(st, "token")
    assert st.sides[0].token and base_level(st, 0) == 1
    assert st.phase == Phase.DICE and st.actor == 1  # the second player's turn to roll and set


def test_miracle_still_allowed_after_a_redraw() -> None:
    """ダイスフェイズ: 振り直しはセットする前 — a redraw sets nothing, so Miracle stays available."""
    st = arrange(new_state(), roll=1, hands=(["titan"], []), decks=(DECK_OF_SIX, []))
    assert legal(st) == ["miracle", "redraw"]
    act(st, "redraw")
    assert legal(st) == ["miracle", "redraw"]


def test_second_player_does_the_same_after_the_first_then_battle() -> None:
    """ダイスフェイズ: 先攻のプレイヤーがセットを終了後、後攻のプレイヤーも同様に; 両プレイヤーがセットを
    終了後、バトルフェイズへ移行します."""
    st = arrange(new_state(), first=1, roll=4, hands=(["behemoth", "slime"], ["court_sage", "slime"]))
    assert st.current_player == 1
    act(st, "set court_sage", "done")
    assert st.current_player == 0 and st.phase == Phase.DICE and 1 <= st.sides[0].roll <= 6
    set_roll(st, 0, 5)
    act(st, "set behemoth", "done")
    # Court Sage's choice effect (Lv3) waits on seat 1: the battle phase has begun.
    assert st.phase == Phase.CHOICE and st.current_player == 1


# ---------------------------------------------------------------- 2、バトルフェイズ
def test_battle_higher_main_unit_wins_and_used_cards_go_to_the_graveyard() -> None:
    """バトルフェイズ: カード効果を処理後に、メインユニットのレベルが高いプレイヤーが勝利; 使用したカードを墓地へ."""
    st = battle(new_state(), main=(["underdog_champion"], ["slime", "slime"]), revival=(False, False))
    assert last_battle(st) == (5, 2, 0)
    assert names(st, st.sides[0].grave) == ["underdog_champion"]
    assert names(st, st.sides[1].grave) == ["slime", "slime"]
    assert st.sides[0].main == [] and st.sides[1].main == []


def test_battle_equal_levels_are_a_tie() -> None:
    """バトルフェイズで引き分けだった場合はドローフェイズ (no star, no Revival)."""
    st = battle(new_state(), main=(["behemoth"], ["underdog_champion"]))
    assert last_battle(st) == (5, 5, -1)
    assert [s.stars for s in st.sides] == [0, 0]
    assert st.phase == Phase.DICE and st.round == 2  # no Revival phase after a tie


def test_a_level_lowered_below_zero_carries_no_hidden_debt() -> None:
    """バトルフェイズ: 「バトルではカード効果を処理後に、メインユニットのレベルが高いプレイヤーが勝利となります」.
    RULINGS (dicebattle): a unit's level never goes below 0; each change applies and is clamped at once, so a
    later +N starts from 0 (no hidden debt); every level a player sees is the one the battle uses."""
    st = battle(
        new_state(),
        main=(["slime"], ["apprentice_mage"]),
        circle=([], ["lightning"]),
        stock=(["war_drum"], []),
    )
    # Lightning (Lv4, weaken 3) takes Slime from 1 to 0, not to -2. Then War Drum's grant (Lv1, when losing:
    # power 2) lifts it from 0 to 2. Apprentice Mage's choice effect (Lv1, seat 1) now waits.
    assert fired(st) == [(1, "lightning"), (0, "war_drum")]
    assert st.phase == Phase.CHOICE and st.current_player == 1
    assert unit_level(st, 0) == 2
    for seat in (0, 1, None):
        assert st.observation(seat)["players"][0]["level"] == 2
        assert "battle level now: 2" in st.game.render(st, seat)
    act(st, "skip apprentice_mage")
    assert last_battle(st) == (2, 1, 0)  # the level shown is the level that battles: seat 0 wins


# ---------------------------------------------------------------- 3、リワードフェイズ / 5、ドローフェイズ
def test_reward_star_then_draws_three_for_the_loser_two_for_the_winner_and_swap() -> None:
    """リワードフェイズ: 勝利したプレイヤーは星を1つ; ドローフェイズ: 負けたプレイヤーは3枚、勝ったプレイヤーは
    2枚; 先攻と後攻を入れ替えて."""
    st = battle(new_state(), main=(["behemoth"], ["slime"]), hands=([], []), revival=(False, False))
    assert [s.stars for s in st.sides] == [1, 0]
    assert [len(s.hand) for s in st.sides] == [2, 3]
    assert st.first == 1 and st.round == 2 and st.current_player == 1


def test_draw_phase_tie_both_draw_two() -> None:
    """ドローフェイズ: 引き分けだった場合は、お互いに2枚デッキの上からカードを引きます."""
    st = battle(new_state(), main=(["behemoth"], ["underdog_champion"]), hands=([], []))
    assert [len(s.hand) for s in st.sides] == [2, 2]


# ---------------------------------------------------------------- 4、リボーンフェイズ
def test_revival_loser_takes_back_one_used_card_once_per_game() -> None:
    """リボーンフェイズ: 負けたプレイヤーは「復活」を裏側にすることで、このバトルフェイズで使用したカード
    (種類を問わない)を1枚手札に戻す."""
    st = battle(new_state(), main=(["behemoth"], ["apprentice_mage"]), circle=([], ["fireball"]), hands=([], []))
    act(st, "skip apprentice_mage")
    assert last_battle(st) == (3, 1, 0)
    assert st.phase == Phase.REVIVE and st.current_player == 1
    assert legal(st) == ["revive apprentice_mage", "revive fireball", "pass"]
    act(st, "revive fireball")
    assert st.sides[1].revival is False
    assert "fireball" in names(st, st.sides[1].hand) and "fireball" not in names(st, st.sides[1].grave)
    assert len(st.sides[1].hand) == 4  # the revived card and 3 drawn
    # Public: the opponent knows Fireball is in that hand.
    assert st.observation(0)["players"][1]["known_in_hand"] == ["fireball"]
    # Next loss: Revival is face down, no Revival phase.
    st2 = battle(st, main=(["behemoth"], ["slime"]), revival=(True, False))
    assert st2.phase == Phase.DICE


def test_revival_may_be_declined() -> None:
    """リボーンフェイズ: 戻すことができます (optional)."""
    st = battle(new_state(), main=(["behemoth"], ["slime"]))
    act(st, "pass")
    assert st.sides[1].revival is True and st.phase == Phase.DICE


# ---------------------------------------------------------------- デッキが無くなった場合の処理
def _deck_out_in_the_draw_phase() -> DiceBattleState:
    """Seat 1 (the loser) draws 3 from a 1-card deck: it empties after 1 and the graveyard (ogre, troll, and the
    slime used in the battle) becomes the deck; seat 0 (the winner, first) has drawn its 2 already."""
    return battle(
        new_state(),
        main=(["behemoth"], ["slime"]),
        hands=([], []),
        decks=(["goblin"] * 5, ["mimic"]),
        graves=([], ["ogre", "troll"]),
        revival=(False, False),
    )


def test_empty_deck_graveyard_becomes_deck_and_the_opponent_may_draw_one() -> None:
    """デッキが無くなった場合の処理: 「デッキが0枚になったプレイヤーは、墓地のカードを裏側にしてシャッフルを行い、
    それをデッキとして使用します。その後、ペナルティとして相手プレイヤーはデッキの上からカードを1枚引くことが
    できます」: the opponent decides (draw / decline) at once; then the interrupted draw goes on."""
    st = _deck_out_in_the_draw_phase()
    assert st.phase == Phase.PENALTY and st.current_player == 0
    assert legal(st) == ["draw", "decline"]
    assert [len(s.hand) for s in st.sides] == [2, 1]  # seat 1 has drawn 1 of its 3
    assert "reshuffle" in [e[0] for e in st.events()] and st.sides[1].grave == []
    for seat in (0, 1, None):
        obs = st.observation(seat)
        assert obs["phase"] == "penalty" and obs["waiting"] == {"kind": "penalty", "seat": 0, "deck_out": 1}
    assert "draw 1 card as the penalty ('draw') or not ('decline')" in st.game.render(st, 0)
    assert "the penalty for the opponent's empty deck" in st.game.describe_action(st, st.legal_actions()[0])
    act(st, "draw")
    assert [len(s.hand) for s in st.sides] == [3, 3]  # 2 drawn + 1 penalty; seat 1 drew its 2 more
    assert len(st.sides[1].deck) == 1 and st.sides[1].grave == []
    assert sorted(names(st, [*st.sides[1].hand, *st.sides[1].deck])) == ["mimic", "ogre", "slime", "troll"]
    assert st.phase == Phase.DICE and st.round == 2 and st.current_player == 1
    assert "seat 0 draws 1 card (the penalty for the opponent's empty deck)" in st.observation(1)["events"]


def test_the_penalty_draw_may_be_declined() -> None:
    """デッキが無くなった場合の処理: 「…相手プレイヤーはデッキの上からカードを1枚引くことができます」 (may)."""
    st = _deck_out_in_the_draw_phase()
    deck = list(st.sides[0].deck)
    act(st, "decline")
    assert [len(s.hand) for s in st.sides] == [2, 3]
    assert st.sides[0].deck == deck  # seat 0 drew nothing
    assert st.phase == Phase.DICE and st.round == 2
    assert "seat 0 declines the penalty draw" in st.observation(0)["events"]


def test_a_penalty_draw_that_empties_a_deck_gives_the_other_player_a_penalty_draw() -> None:
    """デッキが無くなった場合の処理 applies at any moment, the penalty draw included: the chain is decided one
    step at a time, then the interrupted draw phase goes on."""
    st = battle(
        new_state(),
        main=(["behemoth"], ["slime"]),
        hands=([], []),
        decks=(["goblin"] * 3, ["mimic"]),
        graves=([], ["ogre", "troll"]),
        revival=(False, False),
    )
    # Seat 0 drew 2 of its 3; seat 1's deck ran out after 1 card.
    assert st.phase == Phase.PENALTY and st.current_player == 0
    act(st, "draw")  # seat 0's last card: its graveyard (behemoth) becomes its deck; now seat 1 decides
    assert st.phase == Phase.PENALTY and st.current_player == 1 and st.observation(1)["waiting"]["deck_out"] == 0
    assert [len(s.hand) for s in st.sides] == [3, 1]
    act(st, "draw")
    assert [len(s.hand) for s in st.sides] == [3, 4]  # 1 + 1 penalty + the 2 it still had to draw
    assert names(st, st.sides[0].deck) == ["behemoth"]
    assert st.phase == Phase.DICE and st.round == 2


def test_empty_deck_refilled_when_a_draw_finds_it_empty() -> None:
    """デッキが0枚になったプレイヤーは (ruling 10): a deck emptied while the graveyard was empty is refilled as
    soon as the player must draw and the graveyard has cards; the opponent then may draw the penalty card."""
    st = battle(
        new_state(),
        main=(["behemoth"], ["slime"]),
        hands=([], []),
        decks=(["goblin"] * 5, []),
        revival=(False, False),
    )
    # Seat 1's deck is empty from the start; its graveyard receives the slime at the battle's end.
    assert st.phase == Phase.PENALTY and st.current_player == 0 and len(st.sides[1].hand) == 0
    act(st, "draw")
    assert len(st.sides[1].hand) == 1 and st.sides[1].deck == [] and st.sides[1].grave == []
    assert len(st.sides[0].hand) == 3  # 2 drawn + 1 penalty


def test_empty_deck_with_empty_graveyard_draws_nothing() -> None:
    """デッキが無くなった場合の処理 (ruling 10): nothing to reshuffle, no penalty."""
    st = battle(
        new_state(),
        main=(["behemoth"], []),
        token=(False, True),
        hands=([], []),
        decks=(["goblin"] * 5, []),
        revival=(False, False),
    )
    assert st.sides[1].hand == [] and st.sides[1].deck == [] and st.sides[1].grave == []
    assert len(st.sides[0].hand) == 2
    assert "penalty" not in [e[0] for e in st.events()] and st.phase == Phase.DICE


def test_penalty_decision_in_the_middle_of_a_redraw_keeps_the_first_players_set_hidden() -> None:
    """デッキが無くなった場合の処理 during ダイスフェイズ (引き直し): the redraw empties the second player's deck; the
    first player decides on the penalty draw while its own set stays face down to the other seat; then the
    second player's dice phase goes on."""
    st = arrange(
        new_state(),
        roll=2,
        hands=(["goblin", "ogre"], ["titan", "titan"]),
        decks=(["slime"] * 4, []),
        graves=([], ["hydra"]),
    )
    act(st, "set goblin", "done")
    set_roll(st, 1, 1)
    act(st, "redraw")  # the two Titans go into the empty deck and come back: the deck runs out again
    assert st.phase == Phase.PENALTY and st.current_player == 0
    assert names(st, st.sides[1].deck) == ["hydra"]
    theirs = st.observation(1)["players"][0]
    assert theirs["main"] == 1 and "goblin" not in json.dumps(st.observation(1))
    assert "1 face-down card(s)" in st.game.render(st, 1)
    for k in range(10):
        world = st.resample(1, k)
        assert world.observation(1) == st.observation(1)
    act(st, "decline")
    assert st.phase == Phase.DICE and st.current_player == 1 and st.sides[1].redraws == 1
    assert legal(st) == ["miracle", "redraw"]


# ---------------------------------------------------------------- カードの種類
def test_human_alone_in_the_main_zone() -> None:
    """【ヒューマン】メインゾーンに1枚だけセットすることができます."""
    st = arrange(new_state(), roll=6, hands=(["apprentice_mage", "street_urchin", "slime"], []))
    act(st, "set apprentice_mage")
    assert not any(a.startswith("set ") for a in legal(st))


def test_monsters_combine_and_the_main_unit_level_is_the_sum() -> None:
    """【モンスター】レベルの合計がサイコロの数字以下であれば、何枚でも; 1番レベルの高いモンスターをメイン
    ユニットとして、そのレベルは自分ユニットのレベルの合計になります."""
    st = arrange(new_state(), roll=6, hands=(["slime", "slime", "harpy", "ogre", "apprentice_mage"], []))
    act(st, "set slime")
    assert "set apprentice_mage" not in legal(st)  # a human cannot join monsters
    act(st, "set harpy")
    assert "set ogre" not in legal(st)  # 1 + 3 + 4 > 6
    act(st, "set slime")
    assert base_level(st, 0) == 5
    assert "main: Slime + Harpy + Slime (main unit Harpy, Lv5)" in st.render(0)
    act(st, "done")
    assert st.current_player == 1


def test_magic_only_in_the_circle_with_a_human_and_not_added_to_the_unit() -> None:
    """【魔法】メインゾーンにセットできない; メインユニットがヒューマンの場合のみ; 魔法カードのみは不可;
    ヒューマンと魔法のレベルの合計がサイコロの数字以下; 魔法のレベルはメインユニットに加算されません."""
    st = arrange(new_state(), roll=5, hands=(["apprentice_mage", "blessing", "fireball", "lightning"], []))
    assert legal(st) == ["miracle", "set apprentice_mage"]  # no magic alone, none in the main zone
    act(st, "set apprentice_mage")
    assert sorted(legal(st)) == ["done", "magic blessing", "magic fireball", "magic lightning"]
    act(st, "magic fireball")
    assert sorted(legal(st)) == ["done", "magic blessing"]  # 1 + 2 + 4 > 5
    act(st, "magic blessing", "done")
    assert base_level(st, 0) == 1
    st2 = arrange(new_state(), roll=6, hands=(["slime", "blessing"], []))
    act(st2, "set slime")
    assert legal(st2) == ["done"]  # magic needs a human main unit


def test_card_level_is_the_die_needed() -> None:
    """④カードのレベル: このカードをセットするのに必要なサイコロの数字."""
    for roll in range(1, 7):
        st = arrange(new_state(), roll=roll, hands=(["slime", "dire_wolf", "harpy", "ogre", "hydra", "titan"], []))
        assert len([a for a in legal(st) if a.startswith("set")]) == roll


# ---------------------------------------------------------------- カードの効果
def test_choice_effect_owner_decides() -> None:
    """【選択】そのカードのプレイヤーが効果を発動するかを選ぶことができます."""
    for answer, drawn in (("use", 1), ("skip", 0)):
        st = battle(new_state(), main=(["slime"], ["apprentice_mage"]), hands=([], []), revival=(False, False))
        assert st.phase == Phase.CHOICE and legal(st) == ["use apprentice_mage", "skip apprentice_mage"]
        act(st, f"{answer} apprentice_mage")
        assert len(st.sides[1].hand) == drawn + 2  # tie (1 vs 1): both draw 2


def test_forced_effect_fires_when_its_condition_holds() -> None:
    """【強制】効果の発動条件を満たしている場合、強制的に効果が発動します."""
    st = battle(new_state(), main=(["knight_errant"], ["slime"]))
    assert last_battle(st)[0] == 5 and fired(st) == [(0, "knight_errant")]
    st = battle(new_state(), main=(["knight_errant"], ["apprentice_mage"]))
    assert fired(st) == []  # condition (opponent's monster) not met


def test_effect_order_highest_level_first_over_both_fields() -> None:
    """効果の発動順番は、すべてのフィールド(相手も含む)で1番レベルの高いカードから行われます."""
    st = battle(new_state(), first=0, main=(["goblin"], ["ancient_dragon"]), circle=([], []))
    # Ancient Dragon (Lv6, seat 1) cancels seat 0's Goblin before it could resolve.
    assert fired(st) == [(1, "ancient_dragon")]
    st = battle(new_state(), main=(["paladin"], ["slime", "ember_imp"]))
    assert fired(st) == [(0, "paladin"), (1, "ember_imp")]


def test_effect_order_equal_level_first_player_first() -> None:
    """同じレベルの場合は先攻プレイヤーから優先して行います."""
    for first in (0, 1):
        st = battle(new_state(), first=first, main=(["archmage"], ["archmage"]))
        assert fired(st) == [(first, "archmage")]  # the first player's cancels the other's


def test_effect_order_same_owner_chooses() -> None:
    """同じレベルのカード所有者が同じプレイヤーの場合、そのプレイヤーが発動順番を選ぶことができます."""
    st = battle(new_state(), main=(["shield_maiden"], ["slime"]), circle=(["spark", "blessing"], []))
    assert st.phase == Phase.ORDER and st.current_player == 0
    assert legal(st) == ["first spark", "first blessing"]
    act(st, "first blessing")
    assert fired(st) == [(0, "shield_maiden"), (0, "blessing"), (0, "spark")]
    assert last_battle(st) == (3, 0, 0) and st.phase == Phase.REVIVE


# ---------------------------------------------------------------- 異例
def test_special_rule_slime_joins_monsters_without_counting_toward_the_die() -> None:
    """異例: それは効果ではなく、そのカードをプレイする上での特別なルール (Slime: it may join monsters already in the
    main zone without counting toward the die, even when the die is used up; set first, it uses its level)."""
    st = arrange(new_state(), roll=4, hands=(["ogre", "slime", "slime", "goblin"], ["hydra"]), revival=(False, False))
    act(st, "set ogre")  # the die is used up: Goblin (Lv1) cannot join, the Slimes can
    assert sorted(legal(st)) == ["done", "set slime"]
    act(st, "set slime", "set slime")
    assert base_level(st, 0) == 6 and spent(st.game.tables, st.sides[0]) == 4
    act(st, "done")
    set_roll(st, 1, 5)
    act(st, "set hydra", "done")
    assert last_battle(st) == (6, 5, 0)  # Ogre + two Slimes on a 4 beat Hydra on a 5
    # Set first, it uses its level: on a 4, Ogre can no longer join it; the second Slime still can.
    st = arrange(new_state(), roll=4, hands=(["slime", "slime", "ogre", "harpy"], []))
    act(st, "set slime")
    assert sorted(legal(st)) == ["done", "set harpy", "set slime"]
    act(st, "set slime", "set harpy")
    assert base_level(st, 0) == 5 and legal(st) == ["done"]
    # What it leaves of the die is free for a grant; it never joins a human.
    st = arrange(new_state(), roll=5, hands=(["ogre", "slime", "ember_imp"], []))
    act(st, "set ogre", "set slime")
    assert sorted(legal(st)) == ["done", "grant ember_imp"]
    st = arrange(new_state(), roll=6, hands=(["apprentice_mage", "slime"], []))
    act(st, "set apprentice_mage")
    assert legal(st) == ["done"]


def test_special_rule_magic_with_a_monster() -> None:
    """異例 (Beast Call): this magic may be set in the magic circle when the main unit is a monster."""
    st = arrange(new_state(), roll=4, hands=(["slime", "beast_call", "blessing"], []))
    act(st, "set slime")
    assert sorted(legal(st)) == ["done", "magic beast_call"]  # Blessing still needs a human
    act(st, "magic beast_call", "done")
    assert names(st, st.sides[0].circle) == ["beast_call"]


def test_special_rule_set_on_one() -> None:
    """異例 (Underdog Champion): may be set when the die shows 1."""
    st = arrange(new_state(), roll=1, hands=(["underdog_champion", "blessing"], []))
    assert legal(st) == ["miracle", "set underdog_champion"]
    act(st, "set underdog_champion")
    assert legal(st) == ["done"]  # it used the whole die
    st = arrange(new_state(), roll=3, hands=(["underdog_champion"], []), miracle=(False, True))
    assert legal(st) == ["redraw"]


# ---------------------------------------------------------------- 付与
def test_grant_set_in_stock_only_with_a_unit_within_the_die_once_per_battle() -> None:
    """付与: ストックゾーンにセット; 単体でセットすることはできず; ヒューマン、モンスターどちらでも;
    レベルの合計がサイコロの数字以下; 1度のバトルフェイズに1枚まで."""
    st = arrange(new_state(), roll=4, hands=(["slime", "ember_imp", "mimic", "herbalist"], []))
    assert not any(a.startswith("grant") for a in legal(st))
    act(st, "set slime")
    assert "grant ember_imp" in legal(st) and "grant mimic" in legal(st)
    act(st, "grant ember_imp")
    assert not any(a.startswith("grant") for a in legal(st))  # one grant per battle phase
    assert spent(st.game.tables, st.sides[0]) == 2 and base_level(st, 0) == 1  # grant level not added to the unit
    st2 = arrange(new_state(), roll=3, hands=(["herbalist", "spark", "stone_golem"], []))
    act(st2, "set herbalist")
    assert "grant spark" not in legal(st2)  # 2 + 2 > 3
    assert "grant herbalist" not in legal(st2)  # not in hand any more
    act(st2, "magic spark")
    assert legal(st2) == ["done"]


def test_grant_stays_in_stock_until_it_fires() -> None:
    """付与は効果を発動するまで、ストックゾーンに残り続けます (forced grant waits for its condition)."""
    st = battle(new_state(), main=(["slime"], ["slime"]), grant=("ember_imp", None))
    assert names(st, st.sides[0].stock) == ["ember_imp"]  # opponent's unit is a monster: no effect yet
    assert last_battle(st)[2] == -1
    st = battle(st, main=(["slime"], ["apprentice_mage"]), stock=(["ember_imp"], []))
    act(st, "skip apprentice_mage")
    assert (0, "ember_imp") in fired(st)
    assert "ember_imp" in names(st, st.sides[0].grave) and st.sides[0].stock == []


def test_grant_choice_fires_when_the_player_chooses() -> None:
    """【選択】(付与) プレイヤーが効果を発動するタイミングを選択; 効果を発動後、墓地へ送られます."""
    st = battle(new_state(), main=(["slime"], ["slime"]), grant=("fox_spirit", None))
    act(st, "skip fox_spirit")
    assert names(st, st.sides[0].stock) == ["fox_spirit"] and last_battle(st)[2] == -1
    st = battle(st, main=(["slime"], ["slime"]), stock=(["fox_spirit"], []))
    act(st, "use fox_spirit")
    assert last_battle(st) == (1, 1, 0)  # tie_win
    assert st.sides[0].stock == [] and "fox_spirit" in names(st, st.sides[0].grave)


def test_grant_permanent_always_active_and_stays() -> None:
    """【永続】常に効果が発動している状態; フィールドに残り続けます."""
    st = battle(new_state(), main=(["slime"], ["slime"]), grant=("stone_golem", None), revival=(False, False))
    assert last_battle(st) == (2, 1, 0)
    st = battle(st, main=(["slime"], ["slime"]), stock=(["stone_golem"], []), revival=(False, False))
    assert last_battle(st) == (2, 1, 0) and names(st, st.sides[0].stock) == ["stone_golem"]


# ---------------------------------------------------------------- max_turns
def test_max_turns_cap_is_a_draw() -> None:
    """RULINGS: a max_turns option (rounds); reaching it is a draw."""
    st = new_state(max_turns=1)
    st = battle(st, main=(["behemoth"], ["slime"]), revival=(False, False))
    assert st.phase == Phase.OVER and st.returns() == [0.0, 0.0]
    assert "cap" in [e[0] for e in st.events()]


def test_first_and_second_swap_every_round() -> None:
    """ドローフェイズ: カードを引き終えた後、先攻と後攻を入れ替えてダイスフェイズへ移行します。これを片方の
    プレイヤーの勝ち星が3つになるまで繰り返します."""
    st = new_state(seed=11)
    seen: dict[int, int] = {}
    while not st.is_terminal():
        seen.setdefault(st.round, st.first)
        st.apply(st.legal_actions()[0])
    assert len(seen) >= 3
    for r in range(2, max(seen) + 1):
        assert seen[r] == 1 - seen[r - 1]
    assert max(s.stars for s in st.sides) >= 3


def test_grant_beside_a_human_unit() -> None:
    """付与: メインユニットがヒューマン、モンスターどちらでもセットすることができます."""
    st = arrange(new_state(), roll=4, hands=(["herbalist", "spark"], []))
    act(st, "set herbalist")
    assert sorted(legal(st)) == ["done", "grant spark", "magic spark"]
    act(st, "grant spark")
    assert legal(st) == ["done"] and spent(st.game.tables, st.sides[0]) == 4


def test_milling_an_emptied_deck_reshuffles_and_the_miller_may_draw_the_penalty() -> None:
    """デッキが無くなった場合の処理 at any moment: a mill that empties the deck refills it at once; the miller
    decides on the penalty draw in the middle of the effect, then the mill goes on."""
    st = battle(
        new_state(),
        main=(["kraken"], ["slime"]),
        hands=([], []),
        decks=(["goblin"] * 6, ["ogre", "troll"]),
        graves=([], ["lich", "titan", "hydra", "behemoth"]),
        revival=(False, False),
    )
    act(st, "use kraken")
    kinds = [e[0] for e in st.events()]
    assert kinds.count("mill") == 2 and kinds.count("reshuffle") == 1 and "penalty" not in kinds
    assert st.phase == Phase.PENALTY and st.current_player == 0
    obs = st.observation(1)
    assert [p["level"] for p in obs["players"]] == [5, 1]  # still in the battle: the levels are shown
    assert "battle level now: 5" in st.game.render(st, 1)
    act(st, "draw")
    kinds = [e[0] for e in st.events()]
    assert kinds.count("mill") == 3 and kinds.count("penalty") == 1
    assert len(st.sides[1].deck) == 6 - 1 - 3  # 6 reshuffled, 1 more milled, 3 drawn by the loser
    # The penalty card (1) plus the 2 drawn by the battle's winner.
    assert len(st.sides[0].hand) == 3
