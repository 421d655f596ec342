"""Every card of the pool in a battle: a data-driven table of positions, decisions and exact results.

Section: カードについての説明 ⑤カードの効果 / 付与についての説明 — each effect and each grant resolves as its data says.
Unless a case says otherwise, hands start empty, Revival is face down (so the battle runs straight to the draw
phase) and seat 0 is the first player. Levels checked are those of the battle event: (seat 0, seat 1, winner).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

import cardarena
from cardarena.games.dicebattle.constants import Zone

from .helpers import act, arrange, battle, cards, edit_side, fired, last_battle, names, new_state, set_roll

HUMAN5 = "underdog_champion"  # a Lv5 human without an effect, to carry magic


@dataclass
class Case:
    card: str
    setup: dict[str, Any]
    actions: list[str] = field(default_factory=list)
    levels: tuple[int, int, int] | None = None
    expect: dict[str, Any] = field(default_factory=dict)
    label: str = ""

    @property
    def id(self) -> str:
        return f"{self.card}{'-' + self.label if self.label else ''}"


def C(card: str, label: str = "", actions: list[str] | None = None, levels: Any = None, **kw: Any) -> Case:
    expect = {k: kw.pop(k) for k in list(kw) if k.startswith("x_")}
    return Case(card, kw, actions or [], levels, expect, label)


CASES = [
    # ------------------------------------------------------------------------------------------- humans
    C(
        "apprentice_mage",
        main=(["apprentice_mage"], ["slime"]),
        actions=["use apprentice_mage"],
        levels=(1, 1, -1),
        x_hands=(3, 2),
    ),
    C(
        "apprentice_mage",
        "skipped",
        main=(["apprentice_mage"], ["slime"]),
        actions=["skip apprentice_mage"],
        levels=(1, 1, -1),
        x_hands=(2, 2),
        x_fired=[],
    ),
    C(
        "street_urchin",
        main=(["street_urchin"], ["slime"]),
        hands=([], ["titan"]),
        actions=["use street_urchin"],
        levels=(1, 1, -1),
        x_grave=(["street_urchin"], ["titan", "slime"]),
        x_hands=(2, 2),
    ),
    C("shield_maiden", main=(["shield_maiden"], ["dire_wolf"]), levels=(2, 2, 0)),
    C(
        "herbalist",
        main=(["herbalist"], ["behemoth"]),
        graves=(["slime", "titan", "ogre"], []),
        actions=["use herbalist"],
        levels=(2, 5, 1),
        x_in_hand=(["titan"], []),
        x_known=(["titan"], []),
        x_hands=(4, 2),
    ),
    C(
        "herbalist",
        "grant",
        main=(["slime"], ["slime"]),
        grant=("herbalist", None),
        actions=["use herbalist"],
        levels=(1, 1, -1),
        x_hands=(3, 2),
        x_stock=([], []),
        x_grave=(["slime", "herbalist"], ["slime"]),
    ),
    C("knight_errant", main=(["knight_errant"], ["slime"]), levels=(5, 1, 0)),
    C("knight_errant", "vs-human", main=(["knight_errant"], [HUMAN5]), levels=(3, 5, 1), x_fired=[]),
    C("court_sage", main=(["court_sage"], ["behemoth"]), actions=["use court_sage"], levels=(3, 5, 1), x_hands=(5, 3)),
    C("battle_priest", main=(["battle_priest"], ["slime"]), levels=(4, 1, 0), x_hands=(4, 3)),
    C(
        "battle_priest",
        "big-hand",
        main=(["battle_priest"], ["slime"]),
        hands=(["titan"] * 4, []),
        levels=(4, 1, 0),
        x_hands=(6, 3),
        x_fired=[],
    ),
    C(
        "battle_priest",
        "grant",
        main=([HUMAN5], ["behemoth"]),
        grant=("battle_priest", None),
        levels=(6, 5, 0),
        x_stock=(["battle_priest"], []),
    ),
    C("duelist", main=(["duelist"], ["behemoth"]), levels=(6, 5, 0)),
    C("archmage", main=(["archmage"], ["dire_wolf", "goblin", "slime"]), levels=(5, 4, 0), x_fired=[(0, "archmage")]),
    C("paladin", main=(["paladin"], ["titan"]), levels=(5, 4, 0)),
    C("underdog_champion", main=([HUMAN5], ["behemoth"]), levels=(5, 5, -1)),
    C("hero_king", main=(["hero_king"], ["slime"]), stars=(0, 2), levels=(6, 1, 0), x_stars=(1, 1)),
    C(
        "hero_king",
        "not-behind",
        main=(["hero_king"], ["slime"]),
        stars=(1, 1),
        levels=(6, 1, 0),
        x_stars=(2, 1),
        x_fired=[],
    ),
    C("dragon_slayer", main=(["dragon_slayer"], ["titan"]), levels=(6, 3, 0)),
    # ------------------------------------------------------------------------------------------- monsters
    C("slime", main=(["slime", "slime"], ["titan"]), levels=(2, 6, 1)),
    C("goblin", main=(["goblin", "slime", "slime"], ["slime"]), levels=(4, 1, 0)),
    C("goblin", "small-pack", main=(["goblin", "slime"], ["slime"]), levels=(2, 1, 0), x_fired=[]),
    C(
        "bat_swarm",
        main=(["bat_swarm"], ["slime"]),
        decks=(["goblin"] * 8, ["ogre", "troll", "titan", "lich", "hydra"]),
        actions=["use bat_swarm"],
        levels=(1, 1, -1),
        x_grave=(["bat_swarm"], ["ogre", "slime"]),
    ),
    C(
        "bat_swarm",
        "grant",
        main=(["slime"], ["slime"]),
        grant=("bat_swarm", None),
        rolls=(5, 6),
        decks=(["goblin"] * 8, ["ogre", "troll", "titan", "lich", "hydra"]),
        levels=(1, 1, -1),
        x_grave=(["slime", "bat_swarm"], ["ogre", "troll", "slime"]),
        x_stock=([], []),
    ),
    C(
        "bat_swarm",
        "grant-low-die",
        main=(["slime"], ["slime"]),
        grant=("bat_swarm", None),
        rolls=(4, 6),
        levels=(1, 1, -1),
        x_stock=(["bat_swarm"], []),
        x_fired=[],
    ),
    C("dire_wolf", main=(["dire_wolf", "slime"], ["slime"]), levels=(4, 1, 0)),
    C("ember_imp", main=(["ember_imp"], ["harpy"]), levels=(2, 2, -1)),
    C(
        "ember_imp",
        "grant",
        main=(["slime"], [HUMAN5]),
        grant=("ember_imp", None),
        levels=(1, 4, 1),
        x_stock=([], []),
        x_grave=(["slime", "ember_imp"], [HUMAN5]),
    ),
    C(
        "mimic",
        main=(["mimic"], ["slime"]),
        hands=([], ["ogre"]),
        actions=["use mimic"],
        levels=(2, 1, 0),
        x_grave=(["mimic"], ["ogre", "slime"]),
    ),
    C(
        "mimic",
        "grant",
        main=(["slime"], []),
        token=(False, True),
        grant=("mimic", None),
        levels=(1, 1, -1),
        x_hands=(4, 2),
        x_stock=([], []),
    ),
    C("fox_spirit", main=(["fox_spirit"], ["slime"]), rolls=(3, 6), levels=(3, 1, 0)),
    C("fox_spirit", "high-die", main=(["fox_spirit"], ["slime"]), rolls=(4, 6), levels=(2, 1, 0), x_fired=[]),
    C(
        "fox_spirit",
        "grant",
        main=(["slime"], ["slime"]),
        grant=("fox_spirit", None),
        actions=["use fox_spirit"],
        levels=(1, 1, 0),
        x_stock=([], []),
    ),
    C("harpy", main=(["harpy"], ["slime"]), levels=(4, 1, 0)),
    C("harpy", "second", first=1, main=(["harpy"], ["slime"]), levels=(3, 1, 0), x_fired=[]),
    C(
        "troll",
        main=(["troll"], ["behemoth"]),
        actions=["use troll"],
        levels=(3, 5, 1),
        x_in_hand=(["troll"], []),
        x_grave=([], ["behemoth"]),
        x_hands=(4, 2),
    ),
    C("ogre", first=1, main=(["ogre"], ["slime"]), levels=(5, 1, 0)),
    C("stone_golem", main=(["stone_golem"], ["slime"]), levels=(4, 1, 0)),
    C(
        "stone_golem",
        "grant",
        main=(["slime"], ["slime"]),
        grant=("stone_golem", None),
        levels=(2, 1, 0),
        x_stock=(["stone_golem"], []),
    ),
    C(
        "wyvern",
        main=(["wyvern"], [HUMAN5]),
        circle=([], ["blessing"]),
        levels=(4, 4, -1),
        x_fired=[(0, "wyvern"), (1, "blessing")],
    ),
    C(
        "lich",
        main=(["lich"], ["slime"]),
        graves=(["slime", "titan", "ogre"], []),
        actions=["use lich"],
        levels=(4, 1, 0),
        x_in_hand=(["titan", "ogre"], []),
        x_grave=(["slime", "lich"], ["slime"]),
    ),
    C("hydra", main=(["hydra"], ["slime"]), levels=(5, 1, 0), x_hands=(3, 3)),
    C("behemoth", main=(["behemoth"], [HUMAN5]), stars=(1, 0), levels=(4, 5, 1)),
    C(
        "kraken",
        main=(["kraken"], ["slime"]),
        decks=(["goblin"] * 8, ["ogre", "troll", "titan", *["lich"] * 5]),
        actions=["use kraken"],
        levels=(5, 1, 0),
        x_grave=(["kraken"], ["ogre", "troll", "titan", "slime"]),
    ),
    C(
        "ancient_dragon",
        main=(["ancient_dragon"], ["dire_wolf", "goblin", "slime"]),
        levels=(6, 4, 0),
        x_fired=[(0, "ancient_dragon")],
    ),
    C("titan", main=(["titan"], ["slime"]), stars=(0, 1), levels=(8, 1, 0)),
    # ------------------------------------------------------------------------------------------- magic
    C("spark", main=([HUMAN5], ["behemoth"]), circle=(["spark"], []), levels=(5, 4, 0)),
    C(
        "spark",
        "grant",
        main=(["slime"], ["slime"]),
        grant=("spark", None),
        actions=["use spark"],
        levels=(1, 0, 0),
        x_stock=([], []),
    ),
    C("blessing", main=([HUMAN5], ["behemoth"]), circle=(["blessing"], []), levels=(6, 5, 0)),
    C(
        "insight",
        main=([HUMAN5], ["behemoth"]),
        circle=(["insight"], []),
        actions=["use insight"],
        levels=(5, 5, -1),
        x_hands=(3, 2),
    ),
    C("fireball", main=([HUMAN5], ["titan"]), circle=(["fireball"], []), levels=(5, 4, 0)),
    C("barrier", main=([HUMAN5], ["titan"]), circle=(["barrier"], []), levels=(6, 6, -1)),
    C(
        "mind_rot",
        main=([HUMAN5], ["slime"]),
        circle=(["mind_rot"], []),
        hands=([], ["ogre", "troll", "titan"]),
        levels=(5, 1, 0),
        x_hands=(2, 4),
        x_discarded=2,
    ),
    C("war_drum", main=([HUMAN5], ["titan"]), circle=(["war_drum"], []), levels=(6, 6, -1)),
    C(
        "war_drum",
        "grant",
        main=(["slime"], ["dire_wolf"]),
        grant=("war_drum", None),
        levels=(3, 2, 0),
        x_stock=([], []),
    ),
    C("beast_call", main=(["slime"], ["slime"]), circle=(["beast_call"], []), levels=(2, 1, 0), x_hands=(3, 3)),
    C(
        "beast_call",
        "with-human",
        main=([HUMAN5], ["behemoth"]),
        circle=(["beast_call"], []),
        levels=(5, 5, -1),
        x_fired=[],
    ),
    C("haste", first=1, main=([HUMAN5], ["titan"]), circle=(["haste"], []), levels=(7, 6, 0)),
    C(
        "counterspell",
        main=([HUMAN5], ["dire_wolf", "goblin", "slime"]),
        circle=(["counterspell"], []),
        levels=(5, 4, 0),
        x_fired=[(0, "counterspell")],
    ),
    C(
        "mirror_image",
        main=([HUMAN5], ["titan"]),
        circle=(["mirror_image"], []),
        actions=["use mirror_image"],
        levels=(6, 5, 0),
    ),
    C(
        "crystal_ball",
        main=([HUMAN5], ["behemoth"]),
        circle=(["crystal_ball"], []),
        actions=["use crystal_ball"],
        levels=(5, 5, -1),
        x_hands=(4, 2),
    ),
    C(
        "crystal_ball",
        "grant",
        main=(["slime"], ["slime"]),
        grant=("crystal_ball", None),
        stars=(0, 1),
        levels=(1, 1, -1),
        x_hands=(3, 2),
        x_stock=(["crystal_ball"], []),
    ),
    C("lightning", main=([HUMAN5], ["titan"]), circle=(["lightning"], []), levels=(5, 3, 0)),
    C(
        "prayer",
        main=([HUMAN5], ["behemoth"]),
        circle=(["prayer"], []),
        graves=(["titan"], []),
        actions=["use prayer"],
        levels=(5, 5, -1),
        x_in_hand=(["titan"], []),
        x_hands=(4, 2),
    ),
    C("wish_star", main=([HUMAN5], ["titan"]), circle=(["wish_star"], []), levels=(5, 6, 1), x_stars=(1, 1)),
    C("meteor", main=([HUMAN5], ["titan"]), circle=(["meteor"], []), levels=(5, 3, 0)),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_card(case: Case) -> None:
    setup = {"hands": ([], []), "revival": (False, False), **case.setup}
    st = battle(new_state(), **setup)
    for text in case.actions:
        st.apply_text(text)
    x = case.expect
    if case.levels is not None:
        assert last_battle(st) == case.levels
    if "x_fired" in x:
        assert fired(st) == x["x_fired"]
    if "x_hands" in x:
        assert tuple(len(s.hand) for s in st.sides) == x["x_hands"]
    if "x_in_hand" in x:
        for seat, want in enumerate(x["x_in_hand"]):
            hand = names(st, st.sides[seat].hand)
            assert all(c in hand for c in want), (want, hand)
    if "x_known" in x:
        assert tuple(names(st, s.known) for s in st.sides) == tuple(x["x_known"])
    if "x_grave" in x:
        assert tuple(sorted(names(st, s.grave)) for s in st.sides) == tuple(sorted(g) for g in x["x_grave"])
    if "x_stock" in x:
        assert tuple(names(st, s.stock) for s in st.sides) == tuple(x["x_stock"])
    if "x_stars" in x:
        assert tuple(s.stars for s in st.sides) == x["x_stars"]
    if "x_discarded" in x:
        assert len([e for e in st.events() if e[0] == "discard"]) == x["x_discarded"]


def test_every_card_of_the_pool_has_a_case() -> None:
    pool = {c.id for c in cardarena.load("dicebattle").tables.cards}
    assert pool == {c.card for c in CASES}


def test_every_effect_and_every_grant_takes_effect_in_some_case() -> None:
    """Each card's effect and each card's grant really resolves in at least one case (not only sits there)."""
    seen: set[tuple[str, bool]] = set()
    for case in CASES:
        setup = {"hands": ([], []), "revival": (False, False), **case.setup}
        st = battle(new_state(), **setup)
        for text in case.actions:
            st.apply_text(text)
        for e in st.events():
            if e[0] == "effect":
                seen.add((st.game.tables.cards[e[2]].id, e[3] == Zone.STOCK))
    t = cardarena.load("dicebattle").tables
    wanted = {(c.id, False) for c in t.cards if c.effect} | {(c.id, True) for c in t.cards if c.grant}
    assert wanted <= seen, sorted(wanted - seen)


def test_underdog_champion_is_set_on_a_one_and_fights_at_five() -> None:
    """異例 set_on_one through the dice phase: set on a die of 1, it battles at its printed level 5."""
    st = arrange(new_state(), roll=1, hands=(["underdog_champion"], ["behemoth"]), revival=(False, False))
    act(st, "set underdog_champion", "done")
    set_roll(st, 1, 4)
    edit_side(st, 1, hand=cards(st, ["ogre"]))
    act(st, "set ogre", "done")
    assert last_battle(st) == (5, 5, -1)  # Ogre, second player: 4 + 1


def test_beast_call_is_set_beside_monsters_through_the_dice_phase() -> None:
    """異例 magic_with_monster through the dice phase: Slime + Beast Call on a die of 3."""
    st = arrange(new_state(), roll=3, hands=(["slime", "beast_call"], ["slime"]), revival=(False, False))
    act(st, "set slime", "magic beast_call", "done")
    set_roll(st, 1, 1)
    act(st, "set slime", "done")
    assert last_battle(st) == (2, 1, 0) and (0, "beast_call") in fired(st)
