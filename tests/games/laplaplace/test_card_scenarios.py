"""One scenario per card: build a position, play a step, check the exact result.

Each test quotes the card's ability line from the rulebook (seeds/laplaplace.txt, カード一覧).
"""

from __future__ import annotations

import pytest

from cardarena.games.laplaplace.rules import BattleOver

from .helpers import TABLE, battle, force, ids, ready, ups


def test_every_card_has_a_scenario() -> None:
    names = {name[len("test_") :] for name in globals() if name.startswith("test_")}
    missing = [c.id for c in TABLE.cards if c.id.replace("-", "_") not in names]
    assert missing == []


def test_blank() -> None:
    """(能力なし): only force."""
    b = ready(["blank"], ["blank", "blank"])
    b.action_phase(0)
    assert b.firings == 0
    assert b.base == [force("blank"), 2 * force("blank")]


def test_strain() -> None:
    """<A> 自分に1点のダメージを与える。"""
    b = ready(["strain"], ["blank"])
    b.action_phase(0)
    assert b.hp[0] == force("strain") - 1
    assert ups(b, 0) == [False]
    assert b.hp[1] == force("blank")


def test_shed() -> None:
    """<A> このカードを除去する。 — base HP drops, HP stays, the card below becomes the top."""
    b = ready(["shed", "lance"], ["blank"])
    b.action_phase(0)
    assert ids(b, 0) == ["lance"]
    assert b.base[0] == force("lance")
    assert b.hp[0] == force("shed", "lance")
    assert b.hp[1] == force("blank") - 4  # Lance became the top card and fired in the same phase


def test_second_wind() -> None:
    """<A><L:HPが基礎HPの半分以下> [除去] HPを基礎HPまで回復する。"""
    cols = ["second-wind", "blank"]
    base = force(*cols)
    b = ready(cols, ["blank"], hp=(base // 2 + 1, 5))
    b.action_phase(0)
    assert b.firings == 0  # HP above half: the limit fails
    b.hp[0] = base // 2
    b.action_phase(0)
    assert ids(b, 0) == ["blank"]  # removed instead of downed
    assert b.hp[0] == force("blank")  # healed to the base HP, which no longer counts Second Wind


def test_fortify() -> None:
    """<ビルド> 初期HPを、基礎HPの半分プラスする。 — each Fortify adds half the base HP (rounded down)."""
    cols = ["fortify", "blank", "fortify", "jostle"]
    b = battle(cols, ["blank"])
    b.reveal()
    base = force(*cols)
    assert b.hp[0] == base + 2 * (base // 2)
    assert all(ups(b, 0))  # build abilities do not down their card


def test_lance() -> None:
    """<A><トップ> 敵に4点のダメージを与える。 — only the topmost card of the column may fire it."""
    b = ready(["lance", "lance"], ["blank"])
    b.action_phase(0)
    assert b.hp[1] == force("blank") - 4
    assert ups(b, 0) == [False, True]
    b = ready(["blank", "lance"], ["blank"])
    b.action_phase(0)
    assert b.firings == 0


def test_jab() -> None:
    """<A> 敵に2点のダメージを与える。 — from any place."""
    b = ready(["blank", "jab", "jab"], ["blank"])
    b.action_phase(0)
    assert b.hp[1] == force("blank") - 4


def test_flurry() -> None:
    """<A><トップ> 敵に1点のダメージを3回与える。 — three separate hits (each gets Edge's +1)."""
    b = ready(["flurry", "edge"], ["blank"])
    b.action_phase(0)
    assert b.hp[1] == force("blank") - 6
    assert sum("hits P1" in line for line in b.log or []) == 3


def test_volley() -> None:
    """<A> 敵に1点のダメージを2回与える。 <常態> このカードはアップフェイズにアップされない。"""
    b = ready(["volley"], ["blank"])
    b.action_phase(0)
    assert b.hp[1] == force("blank") - 2
    b.up_phase()
    assert ups(b, 0) == [False]
    b.action_phase(0)
    assert b.hp[1] == force("blank") - 2


def test_pierce() -> None:
    """<A> [迎撃不可] 敵に3点のダメージを与える。 — no enemy event answers it; own Edge still adds."""
    enemy = ["shield", "plating", "reflector", "vengeance", "blank"]
    b = ready(["pierce", "blank"], enemy)
    b.action_phase(0)
    assert b.hp[1] == force(*enemy) - 3
    assert all(ups(b, 1))
    assert ids(b, 0) == ["pierce", "blank"]
    b = ready(["pierce", "edge"], enemy)
    b.action_phase(0)
    assert b.hp[1] == force(*enemy) - 4


def test_judgement() -> None:
    """<A> HPが基礎HPを上回っているキャラクターに、10点のダメージ。後攻側のキャラクターから順に処理する。"""
    b = ready(["judgement"], ["blank"], first=0, hp=(force("judgement") + 5, force("blank") + 3))
    b.action_phase(0)
    assert b.hp == [force("judgement") - 5, force("blank") - 7]
    log = [line.strip() for line in b.log or [] if "hits" in line]
    assert log[0].startswith("P0 Judgement hits P1")  # the second player first
    assert "its own side" in log[1]
    # HP not above base: no damage
    b = ready(["judgement"], ["blank"], hp=(force("judgement"), force("blank")))
    b.action_phase(0)
    assert b.hp == [force("judgement"), force("blank")]


def test_judgement_stops_when_the_second_player_falls() -> None:
    """The second player is hit first; if it falls, the battle ends before the first player is hit."""
    b = ready(["judgement"], ["blank"], first=0, hp=(force("judgement") + 5, force("blank") + 3))
    b.hp[1] = 10
    b.base[1] = 5
    with pytest.raises(BattleOver) as end:
        b.action_phase(0)
    assert end.value.winner == 0
    assert b.hp[0] == force("judgement") + 5


def test_rally() -> None:
    """<E:一つ上のカードがダウンされる> そのカードをターゲットとする。ターゲットをアップする。"""
    b = ready(["lance", "rally"], ["blank"])
    b.action_phase(0)
    assert b.hp[1] == force("blank") - 8  # Lance fired, Rally upped it, Lance fired again
    assert ups(b, 0) == [False, False]


def test_lift() -> None:
    """<常態> このカードの一つ上のカードは、その能力の発動条件で「<トップ>」を無視する。"""
    b = ready(["blank", "lance", "lift"], ["blank"])
    b.action_phase(0)
    assert b.hp[1] == force("blank") - 4
    b = ready(["blank", "lift", "lance"], ["blank"])
    b.action_phase(0)
    assert b.firings == 0  # Lift helps only the card right above it


def test_decoy() -> None:
    """<E:このカードが敵の能力の効果のターゲットになる> その効果の適用を無視する。敵に2点のダメージ。"""
    b = ready(["banish"], ["decoy", "blank"])
    b.action_phase(0)
    assert ids(b, 1) == ["decoy", "blank"]  # not removed
    assert ups(b, 1) == [False, True]  # Decoy downed as it fired
    assert b.hp[0] == force("banish") - 2
    assert ids(b, 0) == []  # Banish removed itself
    b = ready(["jostle"], ["decoy", "blank"])
    b.action_phase(0)
    assert ids(b, 1) == ["decoy", "blank"]  # not swapped


def test_decoy_log_names_the_target_before_its_answer() -> None:
    """Issue 13: the log says Decoy is targeted, then Decoy's answer (it fires, downs itself, hits), then that it
    ignored the effect (the line used to come after the answer, as if the targeting followed it)."""
    b = ready(["stun"], ["decoy", "blank"])
    start = len(b.log or [])
    b.action_phase(0)
    text = [line.strip() for line in (b.log or [])[start:]]
    assert text == [
        "P0 action phase",
        "P0 Stun fires and downs itself",
        "target: P1 Decoy",
        "P1 Decoy fires (event) and downs itself",
        f"P1 Decoy hits P0 for 2: HP {force('stun')} -> {force('stun') - 2}",
        "P1 Decoy ignores the effect",
    ]


def test_stun() -> None:
    """<A> 敵のカードでアップ状態のカードをターゲットリスト…最上位のカードをターゲット…ダウンする。"""
    b = ready(["stun"], ["blank", "jab", "blank"])
    b.cols[1][0].up = False
    b.action_phase(0)
    assert ups(b, 1) == [False, False, True]  # the topmost *up* card


def test_banish() -> None:
    """<A> [除去] 敵のカードをターゲットリスト…最上位のカード…除去する。 — base HP follows."""
    b = ready(["banish", "blank"], ["shed", "blank"])
    hp1 = b.hp[1]
    b.action_phase(0)
    assert ids(b, 0) == ["blank"]
    assert ids(b, 1) == ["blank"]
    assert b.base == [force("blank"), force("blank")]
    assert b.hp[1] == hp1  # removal changes base HP, not HP


def test_jostle() -> None:
    """<A> 敵の最下位以外のカードをターゲットリスト…最上位…ひとつ下位のものと入れ替える。"""
    b = ready(["jostle"], ["lance", "blank", "jab"])
    b.action_phase(0)
    assert ids(b, 1) == ["blank", "lance", "jab"]
    b = ready(["jostle"], ["lance"])
    b.action_phase(0)
    assert ids(b, 1) == ["lance"]  # the bottom card is never in the list


def test_mimic() -> None:
    """<A><L:敵と自分にアップ状態の同カードがある> [ダウンレス] 自分の最上位…ダウン…ターゲット2をダウンする。"""
    b = ready(["mimic", "blank", "jab"], ["lance", "jab", "blank"])
    b.action_phase(0)
    # Mimic is not downed, so it fires twice: own Blank + enemy Blank, then own Jab + enemy Jab.
    assert ups(b, 0) == [True, False, False]
    assert ups(b, 1) == [True, False, False]
    assert b.firings == 2
    b = ready(["mimic"], ["lance"])
    b.action_phase(0)
    assert b.firings == 0  # no shared up card: the limit fails


def test_vengeance() -> None:
    """<E:敵の能力による自分へのダメージ><L:発生源が場に存在> [除去] 発生源となったカードを除去する。"""
    b = ready(["jab", "blank"], ["vengeance", "blank"])
    b.action_phase(0)
    assert b.hp[1] == force("vengeance", "blank") - 2  # the damage is dealt
    assert ids(b, 0) == ["blank"]
    assert ids(b, 1) == ["blank"]  # Vengeance removed itself


def test_edge() -> None:
    """<E:自分の能力による敵へのダメージ> [ダウンレス] そのダメージを1点増加する。"""
    b = ready(["jab", "edge", "edge"], ["blank"])
    b.action_phase(0)
    assert b.hp[1] == force("blank") - 4
    assert ups(b, 0) == [False, True, True]


def test_plating() -> None:
    """<E:敵の能力による自分へのダメージ> [ダウンレス] そのダメージを1点減少する。"""
    b = ready(["flurry"], ["plating", "blank"])
    b.action_phase(0)
    assert b.hp[1] == force("plating", "blank")  # three hits of 1, each reduced to 0
    assert ups(b, 1) == [True, True]


def test_shield() -> None:
    """<E:敵の能力による自分へのダメージ> 3点減少。<常態> アップフェイズにアップされない。"""
    b = ready(["lance", "rally"], ["shield"])
    b.action_phase(0)
    assert b.hp[1] == force("shield") - 1 - 4  # the first hit 4-3, the second (Shield down) 4
    b.up_phase()
    assert ups(b, 1) == [False]


def test_reflector() -> None:
    """<E:敵の能力による自分への2点以上のダメージ> 無効化し、同じ分だけのダメージを敵に与える。"""
    b = ready(["jab", "blank"], ["reflector", "blank"])
    b.action_phase(0)
    assert b.hp[1] == force("reflector", "blank")
    assert b.hp[0] == force("jab", "blank") - 2
    b = ready(["flurry", "blank"], ["reflector", "blank"])
    b.action_phase(0)
    assert b.hp[1] == force("reflector", "blank") - 3  # hits of 1 are below 2: not reflected
    assert ups(b, 1) == [True, True]


def test_scope() -> None:
    """<E:自分の能力でターゲットリストが発生> [ダウンレス] 一つ上のカードの系統を優先系統とする。"""
    b = ready(["stun", "blank", "scope"], ["jab", "shield", "strain"])
    b.action_phase(0)
    assert ups(b, 1) == [True, True, False]  # Blank is core: Strain (core) is preferred
    b = ready(["stun", "blank", "scope"], ["jab", "shield"])
    b.action_phase(0)
    assert ups(b, 1) == [False, True]  # no core card: the list is unchanged


def test_sight() -> None:
    """<E:自分の能力でターゲットリストが発生> [ダウンレス] 一つ上のカードのナンバーを優先ナンバーとする。"""
    assert TABLE.find("blank").number == TABLE.find("nullify").number  # type: ignore[union-attr]
    b = ready(["stun", "blank", "sight"], ["jab", "lance", "nullify"])
    b.action_phase(0)
    assert ups(b, 1) == [True, True, False]


def test_haste() -> None:
    """<E:先攻後攻決定フェイズ> 素早さを15点増加する。このフェイズの終了時まで有効。"""
    slow, fast = ["haste"], ["shed"]
    assert force(*slow) < force(*fast) < force(*slow) + 15
    b = ready(slow, fast)
    b.decide_first()
    assert b.first == 0
    assert b.bonus == [0, 0]  # the bonus ends with the phase
    assert ups(b, 0) == [False]  # an event downs its card


def test_nullify() -> None:
    """<E:自分のカードの能力をトリガーとして敵のEventが発動> そのEventの効果を無効化する。"""
    b = ready(["stun", "nullify"], ["decoy", "blank"])
    b.action_phase(0)
    assert b.hp[0] == force("stun", "nullify")  # Decoy's 2 damage negated
    assert ups(b, 0) == [False, False]
    # the enemy's own Nullify negates ours, so Decoy's effect stands
    b = ready(["stun", "nullify"], ["decoy", "nullify"])
    b.action_phase(0)
    assert b.hp[0] == force("stun", "nullify") - 2
    assert ups(b, 1) == [False, False]


def test_second_wind_half_is_exact_with_an_odd_base() -> None:
    """<L:HPが基礎HPの半分以下> (ruling 15): no rounding — 2 × HP ≤ base HP."""
    cols = ["second-wind", "jostle"]
    base = force(*cols)
    assert base % 2 == 1
    b = ready(cols, ["blank"], hp=(base // 2 + 1, 5))
    b.action_phase(0)
    assert ids(b, 0) == cols  # HP above half of an odd base: Second Wind stays
    b = ready(cols, ["blank"], hp=(base // 2, 5))
    b.action_phase(0)
    assert ids(b, 0) == ["jostle"] and b.hp[0] == force("jostle")
