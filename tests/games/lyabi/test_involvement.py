"""The balance report's hooks on Lyabi (involvement.py): what the data file declares, what each action and the
events it sets off involve, and how a game ended (issue 17). Rule tests name their rulebook section."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardarena
from cardarena.engine import Involvement, Rng, apply_involving
from cardarena.engine.harness import check_involvement
from cardarena.games.lyabi.cards import default_path
from cardarena.games.lyabi.constants import HERB
from cardarena.games.lyabi.game import LyabiGame
from cardarena.games.lyabi.state import LyabiState

from .support import GAME, battle, item_phase, main_phase, new_turn, position, set_supply


def step(st: LyabiState, text: str) -> list[Involvement]:
    """Apply ``text`` and return what the game says it involved."""
    return apply_involving(st, text)


def steps(st: LyabiState, *texts: str) -> list[Involvement]:
    return [inv for text in texts for inv in step(st, text)]


def rule(key: str) -> Involvement:
    return Involvement(None, "rule", key, "applied")


def acted(found: list[Involvement]) -> list[Involvement]:
    """What the action itself involved, without the market's offers (``offered``) of a main-phase decision."""
    return [i for i in found if i.verb != "offered"]


def rules(found: list[Involvement]) -> set[str]:
    return {i.name for i in found if i.kind == "rule"}


@pytest.mark.parametrize("circle_replace", [False, True])
def test_random_games_involve_only_declared_entries(circle_replace: bool) -> None:
    game = cardarena.load("lyabi", circle_replace=circle_replace)
    occurred = check_involvement(game, range(8))
    for entry in ("card:blue1", "circle:red0", "item:orb", "rule:triangle", "rule:dummy", "rule:reshuffle"):
        assert occurred[entry] > 0, entry


def test_the_catalogue_declares_every_ryabi_circle_item_and_rule() -> None:
    declared = {(d.kind, d.name): d.label for d in GAME.involvement_catalogue()}
    ryabi = {f"{c}{lv}" for c in ("blue", "green", "red") for lv in (1, 3, 5, 11)}
    circles = {f"{c}{lv}" for c in ("blue", "green", "red") for lv in (0, 5, 11)}
    assert {n for k, n in declared if k == "card"} == ryabi
    assert {n for k, n in declared if k == "circle"} == circles
    assert {n for k, n in declared if k == "item"} == {
        "crystal",
        "eye",
        "brush",
        "sword",
        "stone",
        "mirror",
        "orb",
        "herb",
    }
    assert {"triangle", "same-colour", "double-charge", "no-matching-circle", "battle-skipped"} <= {
        n for k, n in declared if k == "rule"
    }
    assert ("rule", "circle-replace") not in declared
    assert ("rule", "circle-replace") in {
        (d.kind, d.name) for d in cardarena.load("lyabi", circle_replace=True).involvement_catalogue()
    }
    assert declared[("card", "blue3")].startswith("blue3: blue Lv3 ryabi, cost")
    assert "ATK" in declared[("circle", "blue5")] and "Mysterious Crystal" in declared[("item", "crystal")]


def test_a_tests_only_data_file_with_an_extra_ryabi_declares_it(tmp_path: Path) -> None:
    """A designer's file adds a blue Lv7 ryabi: the catalogue lists it, and random games stay within it."""
    extra = '[[ryabi]]\ncolour = "blue"\nlevel = 7\ncount = 2\ncost = 9\ntimes = 1.75\n\n'
    text = default_path().read_text(encoding="utf-8")
    assert "[[circle]]" in text
    path = tmp_path / "cards.toml"
    path.write_text(text.replace("[[circle]]", extra + "[[circle]]", 1), encoding="utf-8")
    game = cardarena.load("lyabi", cards=str(path))
    declared = {(d.kind, d.name): d.label for d in game.involvement_catalogue()}
    assert declared[("card", "blue7")] == "blue7: blue Lv7 ryabi, cost 9, times ×1.75, 2 cards"
    check_involvement(game, range(2))


def test_initial_involvement_is_the_initial_deck_the_supply_the_setup_circle_and_the_hand() -> None:
    """ゲームの準備 7: the initial deck and hand printed on the setup circle; 準備 2: the face-up ryabi supply,
    the market both seats buy from (a kind sold out at the start is not in it)."""
    st = GAME.new_initial_state(4)
    found = GAME.initial_involvement(st)
    names = GAME.cards.r_names
    for t in (0, 1):
        assert {i.name for i in found if i.seat == t and i.verb == "in_deck"} == {
            names[k] for k in st.deck[t] + st.hand[t]
        }
        assert [i.name for i in found if i.seat == t and i.verb == "in_build"] == [GAME.cards.c_names[st.field[t][0]]]
        assert sorted(i.name for i in found if i.seat == t and i.verb == "drawn") == sorted(
            names[k] for k in st.hand[t]
        )
        assert {i.name for i in found if i.seat == t and i.verb == "in_supply"} == {
            names[k] for k, n in enumerate(st.supply) if n > 0
        }
    # the starting decks took some Lv1 ryabi out of the supply; every higher kind is in the market
    assert {i.name for i in found if i.verb == "in_supply"} >= {
        n for k, n in enumerate(names) if GAME.cards.r_level[k] > 1
    }


def test_a_buy_spends_the_paid_ryabi_and_buys_the_gained_one() -> None:
    """メインフェイズ_2: pay one or more ryabi, gain one of cost at most the total. Paying is spending (affected),
    not a use of the card: its times and colour do nothing there."""
    st = position(hands=[["blue3", "green3", "red3"], ["red1"]])
    set_supply(st, default=2)
    main_phase(st, 0)
    found = acted(step(st, "buy blue1 pay blue3"))
    assert found == [Involvement(0, "card", "blue3", "spent"), Involvement(0, "card", "blue1", "bought")]


def test_the_market_offers_every_ryabi_the_hand_can_pay_for() -> None:
    """メインフェイズ ①: a ryabi of cost at most the total cost of the ryabi paid can be gained; at each main-phase
    decision every ryabi of the supply the hand could pay for is offered to the seat (a kind sold out is not)."""
    st = position(hands=[["blue3", "green3", "red3"], ["red1"]])
    set_supply(st, {"green5": 0}, default=2)
    main_phase(st, 0)
    found = step(st, "pass")
    offered = sorted(i.name for i in found if i.verb == "offered")
    affordable = {f"{colour}{level}" for colour in ("blue", "green", "red") for level in (1, 3, 5)}  # cost ≤ 9
    assert offered == sorted(affordable - {"green5"})
    assert {i.seat for i in found if i.verb == "offered"} == {0}


def test_a_split_gains_two_and_is_a_rule() -> None:
    """メインフェイズ_2, the second way: one ryabi for up to two of strictly lower cost."""
    st = position(hands=[["blue5", "green3"], ["red1"]])
    set_supply(st, default=2)
    main_phase(st, 0)
    found = step(st, "split blue5 into blue1 green3")
    assert Involvement(0, "card", "blue5", "spent") in found and rule("split") in found
    assert Involvement(0, "card", "blue1", "bought") in found and Involvement(0, "card", "green3", "bought") in found


def test_placing_a_circle_and_replacing_one() -> None:
    """魔法陣を配置する, and the option circle_replace: the replaced circle is removed from the game."""
    game = cardarena.load("lyabi", circle_replace=True)
    assert isinstance(game, LyabiGame)
    st = position(game=game, hands=[["blue11", "green5", "red1"], []], fields=[["blue0", "red5"], ["red0"]])
    st.edit(piles=[st.piles[0], [game.codec.circle_of["blue5"]], st.piles[2]])
    main_phase(st, 0)
    found = acted(step(st, "place 5 pay green5 replace red5"))
    assert found == [
        Involvement(0, "card", "green5", "spent"),
        Involvement(0, "circle", "blue5", "placed"),
        Involvement(0, "circle", "red5", "removed"),
        rule("circle-replace"),
    ]


def test_taking_items_the_herb_fires_and_removes_the_opponents_item() -> None:
    """アイテム取得時のルール (a held item is removed for the new one) and 幻覚の毒草 (取得時自動発動: the
    opponent's item is removed from the game)."""
    st = position(hands=[["blue3"], ["red1"]], items=["stone", "mirror"])
    st.edit(item_pile=[HERB])
    item_phase(st, 0)
    found = step(st, "item pay blue3")
    assert found == [
        Involvement(0, "card", "blue3", "spent"),
        Involvement(0, "item", "herb", "bought"),
        Involvement(0, "item", "herb", "fired"),
        Involvement(0, "item", "stone", "discarded"),
        rule("item-replace"),
        Involvement(1, "item", "mirror", "removed"),
    ]


def test_an_item_used_is_activated() -> None:
    """時空石 (your main phase): a second main-phase action."""
    st = position(hands=[["blue3", "green3", "red3"], ["red1"]], items=["stone", None])
    set_supply(st, default=2)
    main_phase(st, 0)
    assert acted(step(st, "use stone")) == [Involvement(0, "item", "stone", "activated")]


def test_the_draw_phase_draws_and_reshuffles() -> None:
    """ドローフェイズ: each draws up to 3; 星見の天球 draws up to 5; a short deck takes in the discard pile."""
    st = position(
        hands=[[], []],
        decks=[["blue1", "blue3", "blue5", "green1", "green3", "green5"], ["red1", "red3"]],
        discards=[[], ["red5", "red5"]],
        items=["orb", None],
    )
    new_turn(st)
    found = step(st, "use orb")
    assert found[0] == Involvement(0, "item", "orb", "activated")
    assert sorted(i.name for i in found if i.seat == 0 and i.verb == "drawn") == [
        "blue3",
        "blue5",
        "green1",
        "green3",
        "green5",
    ]
    assert sorted(i.name for i in found if i.seat == 1 and i.verb == "drawn") == ["red1", "red3", "red5"]
    assert rules(found) == {"reshuffle"}


@pytest.mark.parametrize(
    ("sets", "fields", "expected", "fired"),
    [
        (("set blue3", "set red3"), (["blue0", "blue5"], ["red0"]), {"triangle"}, ["blue0", "blue5"]),
        (("set blue3", "set blue3"), (["blue0"], ["blue0"]), {"same-colour"}, []),
        (("set blue3", "set dummy"), (["blue0"], ["red0"]), {"uncontested", "dummy"}, ["blue0"]),
        (("set dummy", "set dummy"), (["blue0"], ["red0"]), {"no-battle", "dummy"}, []),
        (("set blue3", "set red3"), (["green0", "red5"], ["red0"]), {"triangle", "no-matching-circle"}, []),
    ],
    ids=["triangle", "same-colour", "uncontested", "no-battle", "no-matching-circle"],
)
def test_the_battle_is_told_by_its_rule_and_the_winners_circles(
    sets: tuple[str, str], fields: tuple[list[str], list[str]], expected: set[str], fired: list[str]
) -> None:
    """解決ステップ 3_1 (リャビの勝敗図: blue beats red; the same attribute: no winner; a ryabi against the dummy
    wins), 準備ステップ 1_2 ※ (the dummy), ダメージ計算のルール 1_2 ※ (no circle of the attribute: no damage)."""
    st = position(hands=[["blue3"], [sets[1].split()[1] if "dummy" not in sets[1] else "red3"]], fields=fields)
    battle(st)
    first = step(st, sets[0])
    found = step(st, sets[1])
    if "set dummy" in sets[0]:
        assert first == [rule("dummy")]
    else:
        assert first == [Involvement(0, "card", "blue3", "set")]
    assert rules(first + found) == expected
    assert sorted(i.name for i in found if i.kind == "circle" and i.verb == "fired") == fired


def test_a_double_charge_is_a_rule() -> None:
    """ダブルチャージ: two ryabi of one attribute, times × times."""
    st = position(hands=[["blue5", "blue5"], ["red1"]], fields=[["blue11", "blue0"], ["red0"]])
    battle(st)
    assert step(st, "set blue5 blue5") == [
        Involvement(0, "card", "blue5", "set"),
        Involvement(0, "card", "blue5", "set"),
        rule("double-charge"),
    ]


def test_a_skipped_battle_phase() -> None:
    """バトルフェイズ ※: if no player meets the conditions the phase is skipped (the next turn draws)."""
    st = position(hands=[[], ["red1"]], fields=[["blue0"], []], decks=[["blue1"] * 5, ["red1"] * 5])
    main_phase(st, 1)
    found = steps(st, "pass", "pass")
    assert rule("battle-skipped") in found and Involvement(0, "card", "blue1", "drawn") in found


def test_each_end_condition_is_recognised() -> None:
    """終了・勝利条件: HP 0 and a deck run out; both at once a draw (RULINGS); the max_turns cap."""
    assert {d.name for d in GAME.end_conditions()} == {
        "hp-zero",
        "deck-out",
        "both-hp-zero",
        "both-decks-out",
        "turn-cap",
    }
    st = position(hands=[["blue11"], ["red3"]], fields=[["blue11"], ["red0"]], hp=[20, 3])
    battle(st)
    steps(st, "set blue11", "set red3")
    assert st.is_terminal() and GAME.end_condition(st) == "hp-zero"
    st = position(hands=[[], []], decks=[["blue1", "blue3", "blue5"], ["green1"]], discards=[[], ["red1"]])
    new_turn(st)
    assert st.is_terminal() and GAME.end_condition(st) == "deck-out"
    st = position(hands=[[], []], decks=[["blue1"], ["green1"]], discards=[[], []])
    new_turn(st)
    assert st.is_terminal() and GAME.end_condition(st) == "both-decks-out"
    st = position(hands=[["blue11"], ["red3"]], fields=[["blue11"], ["red0"]], hp=[4, 20], items=[None, "mirror"])
    st.edit(hp=[0, 0], result=[0.0, 0.0])
    assert GAME.end_condition(st) == "both-hp-zero"
    capped = cardarena.load("lyabi", max_turns=2)
    st = capped.new_initial_state(0)
    rng = Rng(0)
    while not st.is_terminal():
        legal = st.legal_actions()
        st.apply(legal[rng.randbelow(len(legal))])
    assert capped.end_condition(st) == "turn-cap"


def test_the_hooks_work_on_resampled_worlds() -> None:
    """The report may ask about a hypothetical world: the hooks read only the two states they are given."""
    st = GAME.new_initial_state(6)
    rng = Rng(1)
    for _ in range(40):
        legal = st.legal_actions()
        st.apply(legal[rng.randbelow(len(legal))])
    world = st.resample(st.current_player or 0, Rng(2))
    catalogue = {(d.kind, d.name) for d in GAME.involvement_catalogue()}
    for _ in range(40):
        if world.is_terminal():
            break
        before = world.clone()
        action = world.legal_actions()[-1]
        world.apply(action)
        assert all((i.kind, i.name) in catalogue for i in GAME.involvement(before, action, world))


def changed_entries(a: dict[tuple[str, str], str], b: dict[tuple[str, str], str]) -> set[tuple[str, str]]:
    return {key for key in a.keys() | b.keys() if a.get(key) != b.get(key)}


@pytest.mark.parametrize(
    ("old", "new", "entry", "shown"),
    [
        (
            "level = 3\ncount = 7\ncost = 3\ntimes = 1\n",
            "level = 3\ncount = 7\ncost = 3\ntimes = 4\n",
            ("card", "blue3"),
            "times=4",
        ),
        (
            "level = 11\ncount = 2\ncost = 11\natk = 4\n",
            "level = 11\ncount = 2\ncost = 11\natk = 5\n",
            ("circle", "blue11"),
            "atk=5",
        ),
        ("damage = 3\n", "damage = 4\n", ("item", "sword"), "damage=4"),
    ],
    ids=["ryabi-times", "circle-atk", "item-number"],
)
def test_editing_one_number_of_the_data_file_changes_exactly_that_entrys_data(
    tmp_path: Path, old: str, new: str, entry: tuple[str, str], shown: str
) -> None:
    """entry_data (issue 29, "what changed"): one number edited in a copy of the shipped file (its first
    occurrence: blue3's times, blue11 circle's ATK, the sword's damage) changes that entry's text and no other."""
    text = default_path().read_text(encoding="utf-8")
    edited = tmp_path / "cards.toml"
    edited.write_text(text.replace(old, new, 1), encoding="utf-8")
    shipped = cardarena.load("lyabi").entry_data()
    theirs = cardarena.load("lyabi", cards=str(edited)).entry_data()
    assert changed_entries(shipped, theirs) == {entry}
    assert shown in theirs[entry] and shown not in shipped[entry]
    catalogue = {(d.kind, d.name) for d in cardarena.load("lyabi").involvement_catalogue()}
    assert set(shipped) == {key for key in catalogue if key[0] != "rule"}


def test_lyabis_players_bring_nothing_of_their_own() -> None:
    """report_setup: both seats buy from one shared market and start from the Lv0 circle the rules draw
    (ゲームの準備); no deck or build of their own to vary."""
    assert cardarena.load("lyabi").report_setup(7) is None


def test_a_circle_that_deals_no_damage_does_not_fire(tmp_path: Path) -> None:
    """ダメージ計算のルール: floor(ATK × times) per circle; a circle of the battle attribute that deals 0 (here a
    tests-only blue0 of ATK 0) did nothing, so it is not reported as fired (a balance report lists it as never
    used); the other circle of the attribute fires."""
    text = default_path().read_text(encoding="utf-8")
    old = 'colour = "blue"\nlevel = 0\ncount = 2\ncost = 0\natk = 1\n'
    assert text.count(old) == 1
    cards = tmp_path / "cards.toml"
    cards.write_text(text.replace(old, old.replace("atk = 1", "atk = 0")), encoding="utf-8")
    game = cardarena.load("lyabi", cards=str(cards))
    assert isinstance(game, LyabiGame)
    st = position(game=game, hands=[["blue3"], ["red3"]], fields=[["blue0", "blue5"], ["red0"]])
    battle(st)
    step(st, "set blue3")
    found = step(st, "set red3")
    assert [i.name for i in found if i.kind == "circle" and i.verb == "fired"] == ["blue5"]
