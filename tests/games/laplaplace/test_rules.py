"""A scenario for every rule sentence of the battle (seeds/laplaplace.txt, バトル and 能力; RULINGS.md).

Each test's docstring quotes the section and sentence it checks.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardarena.engine import Rng
from cardarena.games.laplaplace.cards import CardDef, load_build, parse_cards
from cardarena.games.laplaplace.constants import JUDGE_TURN
from cardarena.games.laplaplace.rules import Battle, BattleOver, Outcome, compare_builds

from .helpers import TABLE, battle, card, force, ids, ready, ups

# -- ビルド / 構成の開示 ----------------------------------------------------------------------------------------


def test_base_hp_is_total_force_and_follows_removals() -> None:
    """ビルド: 基礎HPは構成に含まれるカードのフォースの合計値…カードが増減すれば同時に変動します。"""
    b = ready(["banish", "blank"], ["shed", "jab", "blank"])
    assert b.base == [force("banish", "blank"), force("shed", "jab", "blank")]
    b.action_phase(0)
    assert b.base == [force("blank"), force("jab", "blank")]


def test_initial_hp_is_base_hp() -> None:
    """ビルド: 初期HPに基礎HPを代入します。"""
    b = battle(["lance", "blank"], ["jab", "shield"])
    b.reveal()
    assert b.hp == b.base == [force("lance", "blank"), force("jab", "shield")]


def test_build_abilities_fire_top_first_until_none() -> None:
    """ビルド: ビルド時に発動する能力…上位のカードから優先して発動し、発動条件を満たすカードが無くなるまで処理。"""
    b = battle(["fortify", "blank", "fortify"], ["blank"])
    b.reveal()
    base = force("fortify", "blank", "fortify")
    assert b.hp[0] == base + 2 * (base // 2)
    lines = [line for line in b.log or [] if "(build)" in line]
    assert len(lines) == 2


def test_reveal_all_cards_up() -> None:
    """バトル/構成の開示: すべてのカードはアップ状態で配置します。"""
    b = battle(["volley", "shield"], ["jab", "blank"])
    b.reveal()
    assert ups(b, 0) == [True, True] and ups(b, 1) == [True, True]


def test_identical_builds_draw() -> None:
    """決着: 構成を開示したとき、各プレイヤーの構成が全く同一であった場合、引き分けとなります。"""
    out = battle(["lance", "jab"], ["lance", "jab"]).run()
    assert out.winner is None and "identical" in out.reason
    assert battle([], []).run().winner is None  # two empty builds are identical too
    out = battle(["lance", "jab"], ["jab", "lance"]).run()
    assert "identical" not in out.reason  # same cards in another order: a real battle


def test_identical_builds_coin_option() -> None:
    """決着: トーナメント戦などでどうしても勝敗を分けなければならない場合は…乱数で勝敗を決めます。"""
    winners = {battle(["jab"], ["jab"], seed=s, identical="coin").run().winner for s in range(20)}
    assert winners == {0, 1}


# -- 先攻後攻決定フェイズ ---------------------------------------------------------------------------------------


def test_first_player_higher_speed() -> None:
    """先攻後攻決定フェイズ: 基礎HPが素早さとなり、素早さの多い方が先攻となります。"""
    b = ready(["blank"], ["blank", "blank"], first=0)
    b.decide_first()
    assert b.first == 1


def test_first_player_tie_higher_hp() -> None:
    """先攻後攻決定フェイズ (RULINGS): speed tied, then higher HP."""
    b = ready(["blank"], ["blank", "fortify"], hp=(force("blank"), force("blank") + 1))
    b.decide_first()
    assert b.first == 1


def test_first_player_tie_more_cards() -> None:
    """先攻後攻決定フェイズ (RULINGS): speed and HP tied, then more cards in play."""
    b = ready(["blank"], ["blank", "jab"])
    b.decide_first()
    assert b.first == 1


def test_first_player_tie_second_last_turn() -> None:
    """先攻後攻決定フェイズ (RULINGS): then the player who was second last turn."""
    b = ready(["lance"], ["flurry"], first=1)
    b.decide_first()
    assert b.first == 0
    b.decide_first()
    assert b.first == 1


def test_first_player_tie_coin_in_turn_one() -> None:
    """先攻後攻決定フェイズ (RULINGS): then a seeded coin (possible only in turn 1)."""
    firsts = set()
    for seed in range(20):
        b = battle(["lance"], ["flurry"], seed=seed)
        b.reveal()
        b.decide_first()
        firsts.add(b.first)
        again = battle(["lance"], ["flurry"], seed=seed)
        again.reveal()
        again.decide_first()
        assert again.first == b.first  # the coin is seeded
    assert firsts == {0, 1}


def test_speed_events_in_first_player_phase() -> None:
    """先攻後攻決定フェイズ + Event: 素早さを15点増加する。このフェイズの終了時まで有効。"""
    b = ready(["haste", "rally"], ["shed"])
    b.decide_first()
    assert b.first == 0
    assert ups(b, 0) == [True, False]  # Rally upped Haste, which stays up for the action phase


# -- アクションフェイズ ------------------------------------------------------------------------------------------


def test_action_phase_topmost_card_that_can_fire_repeated() -> None:
    """先攻アクションフェイズ: アクション能力を、上から順に発動…発動できる能力がなくなったら、このフェイズは終了。"""
    b = ready(["blank", "jab", "strain", "jab"], ["blank"])
    b.action_phase(0)
    order = [line.strip() for line in b.log or [] if " fires" in line]
    assert order == [
        "P0 Jab fires and downs itself",
        "P0 Strain fires and downs itself",
        "P0 Jab fires and downs itself",
    ]
    assert ups(b, 0) == [True, False, False, False]


def test_second_player_phase_same() -> None:
    """後攻アクションフェイズ: 後攻側において、同じことをします。"""
    b = ready(["jab", "blank"], ["jab", "jab", "blank"], first=1)
    b.action_phase(1)
    b.action_phase(0)
    assert b.hp == [force("jab", "blank") - 4, force("jab", "jab", "blank") - 2]


def test_whole_turn_order() -> None:
    """ターン: 先攻後攻決定 → 先攻アクション → 後攻アクション → アップ."""
    b = battle(["jab", "blank"], ["shed", "jab"])
    b.reveal()
    b.turn = 1
    b.play_turn()
    text = [line.strip() for line in b.log or []]
    i_first = next(i for i, t in enumerate(text) if t.startswith("First player: P1"))
    i_p1 = text.index("P1 action phase")
    i_p0 = text.index("P0 action phase")
    i_up = next(i for i, t in enumerate(text) if "up phase" in t)
    assert i_first < i_p1 < i_p0 < i_up


# -- アップフェイズ --------------------------------------------------------------------------------------------------


def test_up_phase_ups_all_but_stay_down() -> None:
    """アップフェイズ: 両キャラクターのダウン状態にあるカードをすべてアップします (except <常態> cards)."""
    b = ready(["jab", "volley"], ["jab", "shield", "blank"])
    b.action_phase(0)
    b.action_phase(1)
    assert ups(b, 0) == [False, False] and ups(b, 1) == [False, False, True]
    b.up_phase()
    assert ups(b, 0) == [True, False] and ups(b, 1) == [True, False, True]


# -- 決着 -----------------------------------------------------------------------------------------------------------


def test_hp_zero_loses_at_once() -> None:
    """決着: いずれかのキャラクターのHPが0以下になればそのキャラクターは敗北 — mid-effect, at once."""
    b = ready(["flurry"], ["blank"], hp=(10, 2))
    with pytest.raises(BattleOver) as end:
        b.action_phase(0)
    assert end.value.winner == 0
    assert b.hp[1] == 0  # the third hit was never dealt


def test_self_damage_can_lose() -> None:
    """決着: HP 0 by one's own card also loses."""
    b = ready(["strain"], ["blank"], hp=(1, 5))
    with pytest.raises(BattleOver) as end:
        b.action_phase(0)
    assert end.value.winner == 1


def test_zero_hp_build_loses_before_turn_one() -> None:
    """決着: a build with 0 HP (only force-0 cards, or no cards) loses at the reveal."""
    assert force("pierce", "jab") == 0
    out = battle(["pierce", "jab"], ["blank"]).run()
    assert out.winner == 1 and out.turns == 1
    assert battle([], ["blank"]).run().winner == 1


def test_both_zero_hp_first_player_of_turn_one_wins() -> None:
    """決着: 両キャラクターのHPが同時に0以下…1ターン目の先攻後攻決定フェイズ終了後に先攻となったキャラクターが勝利。"""
    out = battle(["pierce", "jab"], ["reflector"]).run()
    assert out.winner == 0  # speeds and HP all 0: more cards in play goes first
    winners = {battle(["pierce"], ["jab"], seed=s).run().winner for s in range(20)}
    assert winners == {0, 1}  # everything tied in turn 1: the coin makes the first player, who wins


def test_turn_thirty_judgement_hp() -> None:
    """決着: バトルが30ターンを超えたら…判定 (RULINGS: higher HP first)."""
    b = battle(["blank"], ["blank", "shield"])
    out = b.run()
    assert out.turns == JUDGE_TURN and out.winner == 1 and "HP" in out.reason


def test_turn_thirty_judgement_tie_breaks() -> None:
    """決着 (RULINGS): after turn 30, HP tied → higher base HP; then more cards; then turn 1's first player; then
    the builds compared card by card."""
    b = battle(["blank"], ["blank", "jab"])
    b.reveal()
    b.turn = JUDGE_TURN
    b.hp = [10, 10]
    b.base = [18, 20]
    with pytest.raises(BattleOver) as end:
        b.judgement()
    assert end.value.winner == 1 and "base HP" in end.value.reason
    b.base = [18, 18]
    with pytest.raises(BattleOver) as end:
        b.judgement()
    assert end.value.winner == 1 and "cards" in end.value.reason
    b.cols[1].pop()
    b.first_of_turn1 = 0
    with pytest.raises(BattleOver) as end:
        b.judgement()
    assert end.value.winner == 0 and "first in turn 1" in end.value.reason
    b.first_of_turn1 = None  # the coin chose turn 1's first player: it decides nothing here
    with pytest.raises(BattleOver) as end:
        b.judgement()
    assert end.value.winner == 1 and "place 2: Jab beats no card" in end.value.reason


def test_no_undecided_battle_between_different_builds() -> None:
    """決着: 以下の条件によっても決着がつかないバトルはありません。あったらそれはバグです。 — and 構成が全く同一で
    あった場合、引き分け: only identical builds draw. Two builds that tie on everything at turn 30 are decided by
    turn 1's first player when the rules chose it, else by comparing the builds; never by a draw or a coin."""
    # Nothing ever happens; same HP, base HP and cards; turn 1's first player came from the coin.
    assert force("blank", "shield") == force("shield", "blank")
    for seed in range(20):
        out = battle(["blank", "shield"], ["shield", "blank"], seed=seed).run()
        assert out.turns == JUDGE_TURN and out.winner == 0  # place 1: Blank (force 18) beats Shield (17)
        assert "place 1: Blank beats Shield" in out.reason
        swapped = battle(["shield", "blank"], ["blank", "shield"], seed=seed).run()
        assert swapped.winner == 1  # a function of the builds, not of the seats
    # Same forces card by card (Haste and Shield are both 17): the card listed earlier (Shield) wins ...
    assert card("haste").force == card("shield").force and card("shield").index < card("haste").index
    b = battle(["blank", "shield"], ["blank", "haste"])
    b.reveal()
    b.turn, b.hp = JUDGE_TURN, [5, 5]
    with pytest.raises(BattleOver) as end:
        b.judgement()
    assert end.value.winner == 0 and "place 2: Shield beats Haste" in end.value.reason
    # ... but in a real battle Haste makes its side first in turn 1 by the rules, and that comes first.
    for seed in range(5):
        out = battle(["blank", "shield"], ["blank", "haste"], seed=seed).run()
        assert out.winner == 1 and "first in turn 1" in out.reason


def _random_build(rng: Rng, cards: list[CardDef], *, size: int | None = None) -> list[CardDef]:
    n = rng.randbelow(9) if size is None else size
    return [cards[rng.randbelow(len(cards))] for _ in range(n)]


def test_only_identical_builds_draw_over_many_pairs() -> None:
    """決着: 以下の条件によっても決着がつかないバトルはありません — over every pair of shipped builds (both seat
    orders, and each against itself) and thousands of random pairs, a battle is a draw exactly when the builds
    are identical; the last tie-break orders builds, whatever the seats and the seed."""
    folder = Path(__file__).parents[3] / "src" / "cardarena" / "games" / "laplaplace" / "data" / "builds"
    shipped = [list(load_build(str(f), TABLE).cards) for f in sorted(folder.glob("*.toml"))]
    assert len(shipped) >= 10
    pairs = [(a, b) for a in shipped for b in shipped]
    rng = Rng(2026)
    cards = list(TABLE.cards)
    quiet = [card(c) for c in ("blank", "shield", "plating", "haste", "lift", "rally", "fortify", "scope", "sight")]
    for _ in range(1500):  # any cards, any sizes
        pairs.append((_random_build(rng, cards), _random_build(rng, cards)))
    for _ in range(500):  # the same cards in another order: ties on base HP and cards are common
        a = _random_build(rng, cards, size=1 + rng.randbelow(8))
        b = list(a)
        rng.shuffle(b)
        pairs.append((a, b))
    for _ in range(500):  # cards that deal no damage: most of these battles go to the judgement
        pairs.append((_random_build(rng, quiet), _random_build(rng, quiet)))
    seventeen = [card(c) for c in ("haste", "shield", "lift")]  # one force, so Haste alone decides turn 1
    assert len({c.force for c in seventeen}) == 1
    for _ in range(300):
        a = [*_random_build(rng, quiet, size=rng.randbelow(8)), seventeen[rng.randbelow(3)]]
        b = [seventeen[rng.randbelow(3)] if c in seventeen else c for c in a]
        rng.shuffle(b)
        pairs.append((a, b))
    by_rules = by_builds = 0
    for k, (a, b) in enumerate(pairs):
        out = Battle([a, b], Rng(k)).run()
        identical = [c.id for c in a] == [c.id for c in b]
        assert (out.winner is None) == identical, (a, b, out)
        if "judgement" in out.reason:
            assert out.turns == JUDGE_TURN
            by_rules += "first in turn 1" in out.reason
            by_builds += "builds first differ" in out.reason
        order, reverse = compare_builds(a, b), compare_builds(b, a)
        if identical:
            assert order is None and reverse is None
        else:  # a fixed order of builds: no chance and no seat in it
            assert order is not None and reverse is not None and order[0] == 1 - reverse[0]
            if "builds first differ" in out.reason:
                assert out.winner == order[0]
    assert by_rules > 10 and by_builds > 10  # the new tie-breaks were really reached


def test_battle_always_ends() -> None:
    """決着: 以下の条件によっても決着がつかないバトルはありません — random battles end by turn 30."""
    rng = Rng(5)
    cards = [card(c) for c in ("lance", "jab", "rally", "mimic", "nullify", "decoy", "reflector", "shield", "haste")]
    for k in range(300):
        builds = [[cards[rng.randbelow(len(cards))] for _ in range(8)] for _ in (0, 1)]
        out = Battle(builds, Rng(k)).run()
        assert out.turns <= JUDGE_TURN and out.safety_stops == 0


def test_standstill_goes_straight_to_judgement() -> None:
    """Ruling 13: a turn that ends where the last one ended repeats until turn 30: judge at once."""
    b = battle(["blank"], ["blank", "blank"])
    out = b.run()
    assert out.turns == JUDGE_TURN
    assert any("nothing changes (a loop until the judgement)" in line for line in b.log or [])


def played_through(builds: list[list[CardDef]], seed: int, *, loops: bool = True, races: bool = True) -> Outcome:
    """The unlogged battle of ``builds``, with the loop and race skips as asked (off: every turn is played)."""
    b = Battle(builds, Rng(seed))
    b.skip_loops, b.skip_races = loops, races
    return b.run()


def test_loop_skipping_changes_no_result() -> None:
    """Ruling 13: skipping repeated turns gives exactly the battle played turn by turn."""
    rng = Rng(11)
    cards = TABLE.cards
    pairs = [[[cards[rng.randbelow(len(cards))] for _ in range(8)] for _ in (0, 1)] for _ in range(400)]
    fast = [Battle(p, Rng(k)).run() for k, p in enumerate(pairs)]
    slow = [played_through(p, k, loops=False) for k, p in enumerate(pairs)]
    assert fast == slow
    b = battle(["stun", "blank"], ["stun", "mimic"])
    assert force("blank") == force("mimic")  # all ties: the first player alternates, a loop of two turns
    assert b.run().turns == JUDGE_TURN
    assert any("the last two turns repeat" in line for line in b.log or [])


# -- 能力: Action / Event / ビルド / 常態 -----------------------------------------------------------------------------


def test_action_downs_before_effect() -> None:
    """Action: Actionが発動したら…効果を処理する前にそのカードをダウンする (so Rally ups it before the damage)."""
    b = ready(["jab", "rally"], ["blank"])
    b.action_phase(0)
    text = [line.strip() for line in b.log or []]
    assert text.index("P0 Jab fires and downs itself") < text.index("P0 Rally fires (event) and downs itself")
    assert text.index("P0 Rally fires (event) and downs itself") < next(i for i, t in enumerate(text) if "hits P1" in t)


def test_action_needs_up_card() -> None:
    """Action (RULINGS): fires only when the card is up."""
    b = ready(["jab", "blank"], ["blank"])
    b.cols[0][0].up = False
    b.action_phase(0)
    assert b.firings == 0


def test_event_in_either_phase_and_downs() -> None:
    """Event: Eventが発動したら…効果を処理する前にそのカードをダウンする — also in the enemy's phase."""
    b = ready(["jab", "blank"], ["shield", "blank"], first=0)
    b.action_phase(0)  # P0's phase: P1's Shield answers
    assert ups(b, 1) == [False, True]
    assert b.hp[1] == force("shield", "blank")


def test_event_needs_up_card() -> None:
    """Event (RULINGS): a down card's event does not fire."""
    b = ready(["jab", "blank"], ["shield", "blank"])
    b.cols[1][0].up = False
    b.action_phase(0)
    assert b.hp[1] == force("shield", "blank") - 2


def test_build_ability_does_not_down() -> None:
    """ビルド能力: ビルド能力が発動しても、効果処理前のダウンは行われない。"""
    b = battle(["fortify", "blank"], ["blank"])
    b.reveal()
    assert ups(b, 0) == [True, True]


def test_always_on_never_downs() -> None:
    """常態: 発動条件が無く、常に効果を発揮し続けている。効果処理前のダウンは行われない。"""
    b = ready(["blank", "lance", "lift"], ["blank"])
    b.action_phase(0)
    assert ups(b, 0) == [True, False, True]


# -- keywords -------------------------------------------------------------------------------------------------------


def test_remove_tag_replaces_down() -> None:
    """[除去] (RULINGS): the firing card is removed from the game instead of downed."""
    b = ready(["banish", "rally"], ["blank", "blank"])
    b.action_phase(0)
    assert ids(b, 0) == ["rally"] and ups(b, 0) == [True]  # no down, so Rally did not answer


def test_downless_tag() -> None:
    """[ダウンレス] (RULINGS): the card is not downed."""
    b = ready(["jab", "edge"], ["blank"])
    b.action_phase(0)
    assert ups(b, 0) == [False, True]


def test_unblockable_tag_only_stops_enemy_events() -> None:
    """[迎撃不可] (RULINGS): no enemy event can trigger on or change this damage."""
    b = ready(["pierce", "edge", "blank"], ["plating", "vengeance", "reflector", "blank"])
    b.action_phase(0)
    assert b.hp[1] == force("plating", "vengeance", "reflector", "blank") - 4
    assert ids(b, 0) == ["pierce", "edge", "blank"]


def test_damage_n_times_m_is_separate_hits() -> None:
    """RULINGS: "N点のダメージをM回" is M separate hits of N (each meets Plating)."""
    b = ready(["volley", "blank"], ["plating", "blank"])
    b.action_phase(0)
    assert b.hp[1] == force("plating", "blank")


def test_damage_order_increase_reduction_reflection() -> None:
    """RULINGS: a hit is modified by increases first, then reductions, then reflection; below 0 is 0."""
    b = ready(["jab", "edge", "blank"], ["plating", "reflector", "blank"])
    b.action_phase(0)
    # 2 +1 (Edge) -1 (Plating) = 2, reflected back as a P1 hit of 2
    assert b.hp[1] == force("plating", "reflector", "blank")
    assert b.hp[0] == force("jab", "edge", "blank") - 2
    b = ready(["jab", "blank"], ["plating", "reflector", "blank"])
    b.action_phase(0)
    # 2 -1 = 1: below Reflector's 2, so it is dealt
    assert b.hp[1] == force("plating", "reflector", "blank") - 1
    b = ready(["jab", "blank"], ["shield", "blank"])
    b.action_phase(0)
    assert b.hp[1] == force("shield", "blank")  # 2 - 3 is 0, not -1


def test_event_order_acting_side_first() -> None:
    """RULINGS: on one occasion, the acting side's events top to bottom, then the other side's."""
    b = ready(["jab", "edge", "blank"], ["plating", "blank"])
    b.action_phase(0)
    text = [line.strip() for line in b.log or [] if "fires (event)" in line]
    assert text == ["P0 Edge fires (event)", "P1 Plating fires (event)"]


def test_top_limit_only_topmost() -> None:
    """Action <トップ> (RULINGS): the card must be the topmost card of its column (down cards count)."""
    b = ready(["jab", "lance"], ["blank"])
    b.action_phase(0)
    assert b.hp[1] == force("blank") - 2


# -- safety nets (card files whose abilities never stop) --------------------------------------------------------

_ENDLESS = """
[[card]]
id = "spin"
name = "Spin"
number = "A"
force = 5
category = "core"
abilities = ["<A> [ダウンレス] list enemy up"]

[[card]]
id = "echo"
name = "Echo"
number = "2"
force = 5
category = "support"
abilities = ["<E:my_target_list> [ダウンレス] list enemy up"]

[[card]]
id = "veto"
name = "Veto"
number = "3"
force = 5
category = "support"
abilities = ["<E:enemy_event> [ダウンレス] negate_event"]

[[card]]
id = "poke"
name = "Poke"
number = "4"
force = 5
category = "damage"
abilities = ["<A> damage enemy 1"]

[[card]]
id = "guard"
name = "Guard"
number = "5"
force = 30
category = "defence"
abilities = ["<E:enemy_damage> [ダウンレス] modify -1"]
"""


def _endless(name: str) -> CardDef:
    found = parse_cards(_ENDLESS).find(name)
    assert found is not None
    return found


def test_race_skipping_changes_no_result() -> None:
    """The race skip (an unlogged battle jumps over turns that repeat, HP falling alike each repeat) gives exactly
    the battle played turn by turn: random columns of every card, and of the cards that read HP (Second Wind,
    Judgement beside Fortify and Shed) with the damage and swaps that make repeats."""
    rng = Rng(13)
    cards = TABLE.cards
    hp_cards = [card(c) for c in ("second-wind", "judgement", "fortify", "shed", "jab", "pierce", "jostle", "strain")]
    pairs = [
        [[pool[rng.randbelow(len(pool))] for _ in range(8)] for _ in (0, 1)]
        for pool in (cards, hp_cards)
        for _ in range(1500)
    ]
    fast = [Battle(p, Rng(k)).run() for k, p in enumerate(pairs)]
    slow = [played_through(p, k, races=False) for k, p in enumerate(pairs)]
    assert fast == slow


def test_race_skipping_jumps_a_steady_race_to_its_end() -> None:
    """Jab (and two Blanks, so the speeds differ) against Blank: 2 damage a turn, every turn alike; the unlogged
    battle plays 2 turns, jumps, and ends in turn 9 (18 HP), as the logged battle, every turn played, does."""
    b = Battle([[card("jab"), card("blank"), card("blank")], [card("blank")]], Rng(0))
    fast = b.run()
    # ``stops_seen`` has one entry per turn played to its end (the turn that ends the battle has none)
    assert fast.winner == 0 and fast.turns == 9 and len(b.stops_seen) < 4
    assert battle(["jab", "blank", "blank"], ["blank"]).run() == fast


def test_loop_skipping_counts_the_safety_stops_of_the_skipped_turns() -> None:
    """Ruling 13: the jump over a loop is the same battle as playing it, safety stops included."""
    spin, guard = _endless("spin"), _endless("guard")
    fast = Battle([[spin], [guard]], Rng(0)).run()
    slow = played_through([[spin], [guard]], 0, loops=False)
    assert slow.safety_stops == JUDGE_TURN  # Spin never downs: the firing cap stops its phase every turn
    assert fast == slow


def test_events_that_trigger_themselves_stop() -> None:
    """Ruling 14: an event that triggers itself without end is stopped by the safety net, not a crash."""
    spin, echo, veto, poke, guard = (_endless(i) for i in ("spin", "echo", "veto", "poke", "guard"))
    b = Battle([[spin, echo], [guard]], Rng(0), log=[])
    b.reveal()
    b.turn = b.first = b.last_first = 1
    b.action_phase(0)  # Echo makes a target list, which fires Echo again, ...
    assert b.safety_stops > 0 and b.nest == 0
    assert any("safety stop" in line and "inside one another" in line for line in b.log or [])
    # two [ダウンレス] negaters answer each other without end
    out = Battle([[poke, veto, guard], [guard, veto]], Rng(0)).run()
    assert out.safety_stops > 0 and out.turns == JUDGE_TURN


def test_an_effect_resolves_in_full_after_its_card_is_removed() -> None:
    """Ruling 16: Vengeance removes Flurry after its first hit; Flurry's other two hits are still dealt."""
    b = ready(["flurry", "blank"], ["vengeance", "blank"])
    b.action_phase(0)
    assert ids(b, 0) == ["blank"] and ids(b, 1) == ["blank"]
    assert b.hp[1] == force("vengeance", "blank") - 3
    assert sum("hits P1" in line for line in b.log or []) == 3
