"""The balance report's hooks for Dice Battle Monsters (involvement.py): random games through the harness, the
cards drawn derived exactly, then exact positions: cards set, drawn, fired, countered, discarded, milled and back
in the hand, Miracle and Revival, the rules watched and each end of a game. Each test names its rulebook section."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import cardarena
from cardarena.engine import Involvement, Rng, apply_involving
from cardarena.engine.harness import check_involvement
from cardarena.games.dicebattle import involvement
from cardarena.games.dicebattle.constants import NO_CARD
from cardarena.games.dicebattle.game import DiceBattleGame
from cardarena.games.dicebattle.state import DiceBattleState

from .helpers import act, arrange, cards, edit_side, new_state, tables

DATA = Path(__file__).parent / "data"


def take(st: DiceBattleState, text: str) -> set[Involvement]:
    """Apply ``text`` and return what the hook says it involved."""
    return set(apply_involving(st, text))


def about_to_battle(
    st: DiceBattleState,
    *,
    first: int = 0,
    main: tuple[list[str], list[str]] = ([], []),
    circle: tuple[list[str], list[str]] = ([], []),
    grant: tuple[str | None, str | None] = (None, None),
    stock: tuple[list[str], list[str]] = ([], []),
    rolls: tuple[int, int] = (6, 6),
    **kw: Any,
) -> DiceBattleState:
    """Both players have set these cards; the second player's ``done`` (the next action) starts the battle."""
    arrange(st, first=first, roll=rolls[first], **kw)
    for seat in (0, 1):
        edit_side(
            st,
            seat,
            roll=rolls[seat],
            main=cards(st, main[seat]),
            circle=cards(st, circle[seat]),
            grant=tables(st).by_id[g] if (g := grant[seat]) else NO_CARD,
            stock=cards(st, stock[seat]),
        )
    st.edit(actor=1 - first)
    return st


def applied(*rules: str) -> set[Involvement]:
    return {Involvement(None, "rule", r, "applied") for r in rules}


# -- random games through the harness --------------------------------------------------------------------------------
def test_random_games_declare_everything_they_involve() -> None:
    g = cardarena.load("dicebattle")
    occurred = check_involvement(g, range(40))
    assert occurred["item:miracle"] == 40 and occurred["rule:order"] > 0 and occurred["grant:mimic"] > 0
    assert isinstance(g, DiceBattleGame)
    in_decks = {g.tables.cards[c].id for deck in g.decks for c in deck.cards}
    assert all(occurred[f"card:{c.id}"] == (40 if c.id in in_decks else 0) for c in g.tables.cards)
    occurred = check_involvement(cardarena.load("dicebattle", deck0="vanguard", deck1="horde"), range(25))
    assert occurred["rule:dice-token"] > 0 and occurred["grant:war_drum"] > 0


def test_drawn_cards_are_exactly_the_draws_the_log_counts() -> None:
    """The cards a hook calls drawn (a multiset, from the hands) number exactly the draws the log counts, per seat
    and action, over random games, and were the seat's."""
    g = cardarena.load("dicebattle", deck0="vanguard", deck1="arcana")
    rng = Rng(5)
    checked = 0
    for seed in range(30):
        st = g.new_initial_state(seed)
        assert isinstance(st, DiceBattleState)
        for seat in (0, 1):
            assert {i.name for i in g.initial_involvement(st) if i.seat == seat and i.verb == "drawn"} == {
                tables(st).cards[c].id for c in st.sides[seat].hand
            }
        while not st.is_terminal():
            before = st.clone()
            legal = st.legal_actions()
            action = legal[rng.randbelow(len(legal))]
            st.apply(action)
            _, drawn = involvement.scan(before, action, st)
            counted = [0, 0]
            for ev in involvement.new_events(before.log, st.log):
                if ev[0] == "draw":
                    counted[ev[1]] += ev[2]
            for seat in (0, 1):
                assert sum(drawn[seat].values()) == counted[seat]
                side = before.sides[seat]  # a redraw draws back the hand; a reshuffle, the cards just used
                source = Counter([*side.deck, *side.grave, *side.hand, *side.main, *side.circle, *side.fired])
                assert not drawn[seat] - source
                checked += counted[seat]
    assert checked > 1000


def test_catalogue_declares_a_card_only_a_tests_pool_has(tmp_path: Path) -> None:
    deck = tmp_path / "d.toml"
    deck.write_text('name = "t"\n[cards]\n' + "".join(f"c{k} = 2\n" for k in range(15)), encoding="utf-8")
    g = cardarena.load("dicebattle", cards=str(DATA / "tiny_pool.toml"), deck0=str(deck), deck1=str(deck))
    declared = {(d.kind, d.name) for d in g.involvement_catalogue()}
    assert ("card", "c14") in declared and ("card", "thief") in declared and ("card", "slime") not in declared
    assert ("effect", "star") in declared and ("effect", "cancel") not in declared  # the pool's operations only
    assert ("rule", "free_join") not in declared  # no 異例 in that pool
    assert check_involvement(g, range(5))["card:c0"] == 5
    full = {(d.kind, d.name) for d in cardarena.load("dicebattle").involvement_catalogue()}
    assert {("rule", "free_join"), ("rule", "both-three"), ("item", "revival"), ("grant", "spark")} <= full


# -- the initial state and the dice phase ------------------------------------------------------------------------------
def test_initial_state_decks_hands_and_items() -> None:
    """ゲームの準備: 30-card decks, 5 cards drawn, 奇跡 and 復活 face up."""
    st = new_state(seed=3)
    found = set(st.game.initial_involvement(st))
    deck = {tables(st).cards[c].id for c in st.game.decks[1].cards}
    assert {i.name for i in found if i.seat == 1 and i.verb == "in_deck"} == deck
    assert Involvement(0, "item", "miracle", "available") in found
    assert Involvement(1, "item", "revival", "available") in found


def test_set_magic_and_grant_are_used_by_their_owner() -> None:
    """ダイスフェイズ / 付与: a unit, a magic and a grant set on the die."""
    st = arrange(new_state(), roll=6, hands=(["herbalist", "spark", "ember_imp"], []))
    assert take(st, "set herbalist") == {Involvement(0, "card", "herbalist", "set")}
    assert take(st, "magic spark") == {Involvement(0, "card", "spark", "set")}
    assert take(st, "grant ember_imp") == {
        Involvement(0, "card", "ember_imp", "set"),
        Involvement(0, "grant", "ember_imp", "set"),
    }


def test_special_rules_of_cards() -> None:
    """異例: Slime joins monsters for free, Beast Call beside a monster, Underdog Champion on a 1."""
    st = arrange(new_state(), roll=4, hands=(["ogre", "slime", "beast_call"], []))
    assert not take(st, "set ogre") & applied("free_join")
    assert applied("free_join") <= take(st, "set slime")
    st = arrange(new_state(), roll=4, hands=(["slime", "beast_call"], []))
    act(st, "set slime")
    assert applied("magic_with_monster") <= take(st, "magic beast_call")
    st = arrange(new_state(), roll=1, hands=(["underdog_champion"], []))
    assert applied("set_on_one") <= take(st, "set underdog_champion")


def test_miracle_redraw_and_dice_token() -> None:
    """ダイスフェイズ: 「奇跡」を裏側にして振り直し; 引き直し (the hand shown and drawn again); after three, the
    dice token."""
    st = arrange(new_state(), roll=1, hands=(["titan"], []), decks=(["titan"] * 10, []))
    assert Involvement(0, "item", "miracle", "activated") in take(st, "miracle")
    st = arrange(new_state(), roll=1, hands=(["titan", "titan"], []), decks=(["titan"] * 10, []), miracle=(False, True))
    got = take(st, "redraw")
    assert applied("redraw") <= got and Involvement(0, "card", "titan", "drawn") in got
    act(st, "redraw", "redraw")
    assert applied("dice-token") <= take(st, "token")


# -- the battle ------------------------------------------------------------------------------------------------------
def test_battle_fires_effects_and_the_draw_phase_draws() -> None:
    """バトルフェイズ: 【強制】 fires when its condition holds; ドローフェイズ: loser 3, winner 2, from the top."""
    st = about_to_battle(
        new_state(),
        main=(["knight_errant"], ["slime"]),
        hands=([], []),
        decks=(["goblin"] * 5, ["harpy"] * 5),
        revival=(False, False),
    )
    got = take(st, "done")
    assert {
        Involvement(0, "card", "knight_errant", "fired"),
        Involvement(0, "effect", "power", "applied"),
        Involvement(0, "card", "goblin", "drawn"),
        Involvement(1, "card", "harpy", "drawn"),
    } <= got
    assert not any(i.verb == "fired" and i.seat == 1 for i in got)  # Slime has no effect


def test_unmet_condition() -> None:
    """効果の発動条件: an effect whose condition does not hold does not take effect."""
    st = about_to_battle(new_state(), main=(["knight_errant"], ["apprentice_mage"]))
    got = take(st, "done")
    assert applied("unmet") <= got and Involvement(0, "card", "knight_errant", "fired") not in got


def test_cancel_counters_the_opponents_effects() -> None:
    """効果の発動順番 (highest level first): Ancient Dragon's cancel stops Goblin's effect."""
    st = about_to_battle(new_state(), main=(["goblin", "goblin", "goblin"], ["ancient_dragon"]))
    got = take(st, "done")
    assert Involvement(1, "card", "ancient_dragon", "fired") in got
    assert Involvement(0, "card", "goblin", "countered") in got


def test_discard_and_mill_affect_the_opponents_cards() -> None:
    """【選択】 effects: the opponent discards at random (Street Urchin); the top of its deck is milled (Kraken)."""
    st = about_to_battle(new_state(), main=(["street_urchin"], ["slime"]), hands=(["ogre"], ["troll"]))
    take(st, "done")
    got = take(st, "use street_urchin")
    assert {Involvement(0, "card", "street_urchin", "fired"), Involvement(1, "card", "troll", "discarded")} <= got
    st = about_to_battle(new_state(), main=(["kraken"], ["slime"]), decks=(["ogre"] * 5, ["lich"] * 5))
    take(st, "done")
    assert Involvement(1, "card", "lich", "milled") in take(st, "use kraken")


def test_salvage_keep_and_revival_bring_cards_back() -> None:
    """Salvage (Lich), keep (Troll) and リボーンフェイズ (「復活」を裏側にして…1枚手札に戻す): the card is in the
    hand again (available)."""
    st = about_to_battle(new_state(), main=(["lich"], ["slime"]), graves=(["titan"], []))
    take(st, "done")
    assert Involvement(0, "card", "titan", "available") in take(st, "use lich")
    st = about_to_battle(new_state(), main=(["troll"], ["slime"]))
    take(st, "done")
    assert Involvement(0, "card", "troll", "available") in take(st, "use troll")
    st = about_to_battle(new_state(), main=(["behemoth"], ["slime"]))
    take(st, "done")
    got = take(st, "revive slime")
    assert {Involvement(1, "card", "slime", "available"), Involvement(1, "item", "revival", "activated")} <= got


def test_grant_fires_from_the_stock() -> None:
    """付与 【永続】: a permanent grant fires every battle from the stock zone."""
    st = about_to_battle(new_state(), main=(["slime"], ["slime"]), stock=(["stone_golem"], []))
    got = take(st, "done")
    assert Involvement(0, "grant", "stone_golem", "fired") in got
    assert Involvement(0, "card", "stone_golem", "fired") not in got


def test_order_tie_and_tie_win() -> None:
    """同じレベルのカード所有者が同じ: the owner orders its effects; a tie; a tie won by tie_win (Shield Maiden)."""
    st = about_to_battle(new_state(), main=(["shield_maiden"], ["slime"]), circle=(["spark", "blessing"], []))
    take(st, "done")
    assert applied("order") <= take(st, "first blessing")
    st = about_to_battle(new_state(), main=(["slime"], ["slime"]))
    assert applied("battle-tie") <= take(st, "done")
    st = about_to_battle(new_state(), main=(["shield_maiden"], ["fox_spirit"]), rolls=(6, 5))
    got = take(st, "done")
    assert applied("tie-win") <= got and not got & applied("battle-tie")


def test_both_three_stars() -> None:
    """同時に3つになった場合は、お互いに勝ち星を2つにした状態でドローフェイズへ."""
    st = about_to_battle(
        new_state(), main=(["behemoth"], ["apprentice_mage"]), circle=([], ["wish_star"]), stars=(2, 2)
    )
    take(st, "done")
    assert applied("both-three") <= take(st, "skip apprentice_mage")


def test_deck_out_and_the_penalty_draw() -> None:
    """デッキが無くなった場合の処理: the graveyard becomes the deck; the opponent draws 1 or declines."""
    for answer, rule in (("draw", "penalty-draw"), ("decline", "penalty-decline")):
        st = about_to_battle(
            new_state(),
            main=(["behemoth"], ["slime"]),
            hands=([], []),
            decks=(["goblin"] * 5, ["mimic"]),
            graves=([], ["ogre", "troll"]),
            revival=(False, False),
        )
        assert applied("deck-out") <= take(st, "done")
        got = take(st, answer)
        assert applied(rule) <= got
        assert (Involvement(0, "card", "goblin", "drawn") in got) == (answer == "draw")


# -- the ends ----------------------------------------------------------------------------------------------------------
def test_end_three_stars() -> None:
    """勝利条件: 先に勝ち星を3つ手に入れたプレイヤーが勝利します (the last star won in the battle)."""
    st = about_to_battle(new_state(), main=(["behemoth"], ["slime"]), stars=(2, 2))
    take(st, "done")
    assert st.is_terminal() and st.game.end_condition(st) == "three-stars"


def test_end_three_stars_by_effect() -> None:
    """勝利条件, checked when the reward phase ends: seat 1 gains its third star by an effect (Wish Upon a Star)
    while seat 0 wins the battle but has 2 stars only."""
    st = about_to_battle(
        new_state(), main=(["behemoth"], ["apprentice_mage"]), circle=([], ["wish_star"]), stars=(1, 2)
    )
    take(st, "done")
    take(st, "skip apprentice_mage")
    assert st.is_terminal() and st.winner == 1 and st.game.end_condition(st) == "three-stars-by-effect"


def test_end_turn_cap() -> None:
    """RULINGS: the max_turns cap (rounds) ends the game in a draw."""
    st = about_to_battle(new_state(max_turns=1), main=(["behemoth"], ["slime"]), revival=(False, False))
    take(st, "done")
    assert st.is_terminal() and st.game.end_condition(st) == "turn-cap"
    assert [d.name for d in st.game.end_conditions()] == ["three-stars", "three-stars-by-effect", "turn-cap"]


def test_hooks_work_in_a_resampled_world() -> None:
    """A search agent's world (``resample``) is played on and asked like the true state."""
    g = cardarena.load("dicebattle")
    st = g.new_initial_state(2)
    rng = Rng(9)
    for _ in range(6):
        st.apply(st.legal_actions()[0])
    world = st.resample(st.current_player or 0, rng)
    seen: set[Involvement] = set()
    while not world.is_terminal():
        before = world.clone()
        action = world.legal_actions()[rng.randbelow(len(world.legal_actions()))]
        world.apply(action)
        seen.update(g.involvement(before, action, world))
    assert any(i.verb == "drawn" for i in seen) and any(i.verb == "fired" for i in seen)
    assert g.end_condition(world) in {d.name for d in g.end_conditions()}
