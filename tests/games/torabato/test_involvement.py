"""The balance report's hooks on ToraBato (involvement.py): what the card list declares, what each action and the
events it sets off involve, and how a game ended (issue 17)."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardarena
from cardarena.engine import Involvement, Rng, apply_involving
from cardarena.engine.harness import check_involvement
from cardarena.games.torabato.cards import DEFAULT_CARDS
from cardarena.games.torabato.constants import END, REVEAL
from cardarena.games.torabato.state import ToraBatoState

from .helpers import cid, do, position


def step(state: ToraBatoState, text: str) -> list[Involvement]:
    """Apply ``text`` and return what the game says it involved."""
    return apply_involving(state, text)


def steps(state: ToraBatoState, *texts: str) -> list[Involvement]:
    return [inv for text in texts for inv in step(state, text)]


def rule(key: str) -> Involvement:
    return Involvement(None, "rule", key, "applied")


@pytest.mark.parametrize(
    "options",
    [{}, {"lasting_boosts": False, "recovery_priority": True}],
    ids=["default", "literal-readings"],
)
def test_random_games_involve_only_declared_entries(options: dict[str, object]) -> None:
    game = cardarena.load("torabato", **options)
    occurred = check_involvement(game, range(6))
    for entry in ("card:A", "card:Joker", "effect:damage", "ability:recursion", "rule:mill", "rule:unblocked"):
        assert occurred[entry] > 0, entry


def test_the_catalogue_declares_every_rank_ability_effect_and_rule() -> None:
    game = cardarena.load("torabato")
    declared = {(d.kind, d.name): d.label for d in game.involvement_catalogue()}
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "Joker"]
    assert {name for kind, name in declared if kind == "card"} == set(ranks)
    assert {name for kind, name in declared if kind == "ability"} == {
        "regrow",
        "fortify",
        "tap",
        "unblockable",
        "recursion",
    }
    effects = {"damage", "destroy", "gain_mana", "draw", "prevent", "boost", "return_mana", "destroy_all"}
    assert {name for kind, name in declared if kind == "effect"} == effects
    assert {"reveal-tie", "redeal", "coin", "fizzle", "multi-block", "boost-end-death"} <= {
        name for kind, name in declared if kind == "rule"
    }
    assert declared[("card", "A")] == "A: soldier 3/3, cost 4, regrow for 5"
    assert declared[("card", "3")] == "3: spell, damage 3, cost 4, recursion for 6"


def test_a_variant_card_list_declares_what_it_changed(tmp_path: Path) -> None:
    """A tests-only card list (ToraBato's list has exactly one table per rank, so a variant changes cards rather
    than adding one): 7 destroys every soldier and 10 cannot be blocked; the catalogue follows the file."""
    text = DEFAULT_CARDS.read_text(encoding="utf-8")
    old7, new7 = 'effect = "prevent"', 'effect = "destroy_all"'
    old10 = 'ability = "fortify"\nability_cost = 2\nhealth_boost = 1'
    assert old7 in text and old10 in text
    path = tmp_path / "cards.toml"
    path.write_text(text.replace(old7, new7).replace(old10, 'ability = "unblockable"\nability_cost = 2'), "utf-8")
    game = cardarena.load("torabato", cards=str(path))
    declared = {(d.kind, d.name): d.label for d in game.involvement_catalogue()}
    assert ("effect", "prevent") not in declared and ("ability", "fortify") not in declared
    assert declared[("card", "7")] == "7: spell, destroy_all, cost 1"
    assert "10: pay 2" in declared[("ability", "unblockable")] and "Joker" in declared[("effect", "destroy_all")]
    check_involvement(game, range(2))


def test_initial_involvement_is_every_rank_in_each_deck_and_the_opening_hands() -> None:
    game = cardarena.load("torabato")
    state = game.new_initial_state(3)
    found = game.initial_involvement(state)
    for seat in (0, 1):
        assert {i.name for i in found if i.seat == seat and i.verb == "in_deck"} == {
            d.name for d in game.involvement_catalogue() if d.kind == "card"
        }
        drawn = [i for i in found if i.seat == seat and i.verb == "drawn"]
        assert len(drawn) == 5


def test_a_summoned_soldier_and_a_spell_cast_are_used_by_their_owner() -> None:
    """カードリスト: a soldier played is summoned, a spell played is cast; the spell's effect fires when it
    resolves, and damage to a player mills the deck (ダメージ)."""
    s = position(hands=(["AS", "2C"], []), mana=(["3S", "4S", "5S", "6S", "7S"], []))
    assert step(s, "play AS") == [Involvement(0, "card", "A", "summoned")]
    assert step(s, "play 2C @opp") == [Involvement(0, "card", "2", "cast")]
    top = s.deck[1][-1]
    found = steps(s, "pass", "pass")
    assert Involvement(0, "effect", "damage", "fired") in found
    assert Involvement(1, "card", s.game.spec[top].rank, "milled") in found and rule("mill") in found


def test_five_fires_at_once_and_a_card_set_as_mana() -> None:
    """5 takes effect the moment it is played (ruling 4); mana is set from hand (魔力設置)."""
    s = position(hands=(["5S", "KS"], []), mana=(["3S", "4S"], []))
    assert step(s, "play 5S") == [Involvement(0, "card", "5", "cast"), Involvement(0, "effect", "gain_mana", "fired")]
    assert step(s, "mana KS") == [Involvement(0, "card", "K", "spent")]  # affected: its printed use is given up


def test_a_draw_makes_the_card_available() -> None:
    """② ドローフェイズ: the next player draws one card at the start of their turn."""
    s = position(phase=END)
    top = s.deck[1][-1]
    found = steps(s, "pass", "pass")
    assert s.active == 1 and Involvement(1, "card", s.game.spec[top].rank, "drawn") in found


def test_an_empty_deck_draws_nothing() -> None:
    """Ruling 12: drawing from an empty deck draws nothing (6 draws 2 from a deck of 1: one card, and the rule)."""
    s = position(hands=(["6S"], []), mana=(["3S", "4S", "5S"], []), decks=(["2S"], None))
    found = steps(s, "play 6S", "pass", "pass")
    assert Involvement(0, "effect", "draw", "fired") in found and Involvement(0, "card", "2", "drawn") in found
    assert rule("empty-draw") in found and s.deck[0] == []


def test_a_destroyed_soldier_is_affected_and_the_destroy_effect_fires() -> None:
    """4: destroy one soldier (not damage)."""
    s = position(hands=(["4S"], []), field=([], ["QH"]), mana=(["2S", "3S", "5S"], []))
    found = steps(s, "play 4S @QH", "pass", "pass")
    assert Involvement(0, "effect", "destroy", "fired") in found
    assert Involvement(1, "card", "Q", "destroyed") in found


def test_an_ability_is_activated_then_fires_and_a_response_is_seen() -> None:
    """K: pay 4, cannot be blocked this turn; 7 used in response to it (タイミング: the last used resolves
    first)."""
    s = position(field=(["KS"], []), mana=(["2S", "3S", "4S", "5S"], []), hands=([], ["7H"]), discard=([], []))
    s.edit(mana=[[cid("2S"), cid("3S"), cid("4S"), cid("5S")], [cid("6H")]])
    assert step(s, "use KS") == [
        Involvement(0, "card", "K", "activated"),
        Involvement(0, "ability", "unblockable", "activated"),
    ]
    step(s, "pass")
    assert step(s, "play 7H @KS") == [Involvement(1, "card", "7", "cast"), rule("response")]
    found = steps(s, "pass", "pass")
    assert Involvement(1, "effect", "prevent", "fired") in found and Involvement(0, "card", "K", "countered") in found
    assert Involvement(0, "ability", "unblockable", "fired") in steps(s, "pass", "pass")


def test_a_spell_whose_target_left_fizzles() -> None:
    """Ruling 5: targets are checked again on resolution; 8 on a soldier that 4 destroyed does nothing."""
    s = position(hands=(["8S", "4C"], []), field=(["JS"], []), mana=(["2S", "3S", "5S", "6S"], []))
    found = steps(s, "play 8S @JS", "play 4C @JS", "pass", "pass", "pass", "pass")
    assert Involvement(0, "card", "J", "destroyed") in found
    assert Involvement(0, "card", "8", "countered") in found and rule("fizzle") in found
    assert Involvement(0, "effect", "boost", "fired") not in found


def test_recursion_returns_a_card_to_hand() -> None:
    """J: from your discard pile, on your turn, pay 3 to return it to hand."""
    s = position(discard=(["JS"], []), mana=(["2S", "3S", "4S"], []))
    assert step(s, "recur JS") == [
        Involvement(0, "card", "J", "activated"),
        Involvement(0, "ability", "recursion", "activated"),
    ]
    found = steps(s, "pass", "pass")
    assert (
        Involvement(0, "ability", "recursion", "fired") in found and Involvement(0, "card", "J", "available") in found
    )


def test_attack_block_multi_block_and_unblocked_damage() -> None:
    """攻撃 ②-④: attackers, two blockers on one attacker (1つの兵士に対して2人以上で防御), and an unblocked
    attacker milling the defender's deck."""
    s = position(field=(["AS", "KS"], ["JH", "QH"]))
    found = steps(s, "attack", "pass", "pass", "attacker AS", "attacker KS", "pass", "pass")
    assert Involvement(0, "card", "A", "attacked") in found and Involvement(0, "card", "K", "attacked") in found
    assert step(s, "block JH AS") == [Involvement(1, "card", "J", "blocked")]
    assert step(s, "block QH AS") == [Involvement(1, "card", "Q", "blocked"), rule("multi-block")]
    found = steps(s, "pass", "pass", "pass", "pass", "assign AS JH", "assign AS QH", "assign AS QH")
    assert rule("unblocked") in found and rule("mill") in found
    assert Involvement(1, "card", "J", "destroyed") in found and Involvement(1, "card", "Q", "destroyed") in found


def test_an_attack_whose_attackers_left_ends() -> None:
    """Ruling 10: an attack whose attackers have all left the field ends (here the Joker destroys them)."""
    s = position(field=(["KS"], []), hands=(["JK0"], []), mana=(["2S", "3S", "4S", "5S", "6S"], []))
    found = steps(s, "attack", "pass", "pass", "attacker KS", "play JK0", "pass", "pass", "pass", "pass")
    assert Involvement(0, "effect", "destroy_all", "fired") in found and rule("attack-ends") in found
    assert not s.attackers


def test_a_boost_ending_kills_under_the_literal_reading() -> None:
    """Ruling 7 with lasting_boosts=false: the +2/+2 of 8 ends with the turn while damage stays."""
    s = position(hands=(["8S", "2C"], []), field=(["JS"], []), mana=(["2S", "3S"], []), lasting_boosts=False)
    steps(s, "play 8S @JS", "pass", "pass", "play 2C @JS", "pass", "pass")
    found = steps(s, "pass", "pass", "pass", "pass")
    assert Involvement(0, "card", "J", "destroyed") in found and rule("boost-end-death") in found


def test_reveal_ties_a_redeal_and_the_coin() -> None:
    """先攻後攻: the same value shown is a tie (each shows another card); every card tied: a redeal; ruling 13:
    after 10 redeals a coin decides."""
    hands = (["AS", "2S", "3S", "4S", "5S"], ["AH", "2H", "3H", "4H", "5H"])
    for redeals, last in (
        (0, [rule("reveal-tie"), rule("redeal")]),
        (9, [rule("reveal-tie"), rule("redeal"), rule("coin")]),
    ):
        s = position(phase=REVEAL, turn_no=0, hands=hands)
        s.edit(redeals=redeals)
        assert steps(s, "reveal AS", "reveal AH") == [rule("reveal-tie")]
        steps(s, "reveal 2S", "reveal 2H", "reveal 3S", "reveal 3H", "reveal 4S", "reveal 4H", "reveal 5S")
        assert [i for i in step(s, "reveal 5H") if i.kind == "rule"] == last
        assert (s.phase == REVEAL) == (redeals == 0)


def test_each_end_condition_is_recognised() -> None:
    """ゲームの準備: a player whose deck is empty at an end phase loses; both at once is a draw; ruling 14: the
    turn cap is a draw."""
    game = cardarena.load("torabato")
    assert {d.name for d in game.end_conditions()} == {"deck-out", "both-decks-out", "turn-cap"}
    for decks, cap, end in (
        ((None, []), 200, "deck-out"),
        (([], []), 200, "both-decks-out"),
        ((None, None), 5, "turn-cap"),
    ):
        s = position(phase=END, decks=decks, max_turns=cap)
        do(s, "pass", "pass")
        assert s.is_terminal() and s.game.end_condition(s) == end


def test_the_hooks_work_on_resampled_worlds() -> None:
    """The report may ask about a hypothetical world: the hooks read only the two states they are given."""
    game = cardarena.load("torabato")
    state = game.new_initial_state(5)
    rng = Rng(1)
    for _ in range(60):
        state.apply(state.legal_actions()[rng.randbelow(len(state.legal_actions()))])
    world = state.resample(state.current_player or 0, Rng(2))
    catalogue = {(d.kind, d.name) for d in game.involvement_catalogue()}
    for _ in range(40):
        if world.is_terminal():
            break
        before = world.clone()
        action = world.legal_actions()[0]
        world.apply(action)
        assert all((i.kind, i.name) in catalogue for i in game.involvement(before, action, world))


def test_a_blocked_attacker_whose_blocker_left_deals_no_damage() -> None:
    """Ruling 10: an attacker whose blockers have all left the field deals no damage (it was blocked)."""
    s = position(field=(["KS"], ["JH"]), hands=(["2S"], []), mana=(["3S"], []))
    steps(s, "attack", "pass", "pass", "attacker KS", "pass", "pass", "block JH KS")
    found = steps(s, "play 2S @JH", "pass", "pass", "pass", "pass", "pass", "pass")
    assert Involvement(1, "card", "J", "destroyed") in found and rule("blockers-gone") in found
    assert rule("unblocked") not in found and rule("mill") not in found


def changed_entries(a: dict[tuple[str, str], str], b: dict[tuple[str, str], str]) -> set[tuple[str, str]]:
    return {key for key in a.keys() | b.keys() if a.get(key) != b.get(key)}


@pytest.mark.parametrize(
    ("old", "new", "entry"),
    [
        (
            'value = 11\ncost = 1\nkind = "soldier"\nattack = 1\n',
            'value = 11\ncost = 1\nkind = "soldier"\nattack = 6\n',
            ("card", "J"),
        ),
        ('ability = "regrow"\nability_cost = 5\n', 'ability = "regrow"\nability_cost = 7\n', ("card", "A")),
        ('effect = "gain_mana"\namount = 4\n', 'effect = "gain_mana"\namount = 3\n', ("card", "5")),
    ],
    ids=["J-attack", "A-regrow-cost", "5-amount"],
)
def test_editing_one_number_of_the_card_list_changes_exactly_that_cards_data(
    tmp_path: Path, old: str, new: str, entry: tuple[str, str]
) -> None:
    """entry_data (issue 29, "what changed"): one number edited in a copy of the shipped list changes the text of
    its card, and of no other entry (the ability and effect entries carry no data of their own)."""
    text = DEFAULT_CARDS.read_text(encoding="utf-8")
    assert text.count(old) == 1
    edited = tmp_path / "cards.toml"
    edited.write_text(text.replace(old, new), encoding="utf-8")
    shipped = cardarena.load("torabato").entry_data()
    theirs = cardarena.load("torabato", cards=str(edited)).entry_data()
    assert changed_entries(shipped, theirs) == {entry}
    number = new.strip().rsplit("\n", 1)[-1].replace(" ", "")
    assert number in theirs[entry]  # the text shows the new number as the file writes it ("attack=6")
    catalogue = {(d.kind, d.name) for d in cardarena.load("torabato").involvement_catalogue()}
    assert set(shipped) == {key for key in catalogue if key[0] == "card"}
    assert shipped["card", "10"] == (
        "value=10; cost=1; kind=soldier; attack=0; health=2; ability=fortify; ability_cost=2; health_boost=1"
    )


def test_torabatos_players_bring_nothing_of_their_own() -> None:
    """report_setup: both seats play the rulebook's 27 cards each (ゲームの準備); no setup to vary."""
    assert cardarena.load("torabato").report_setup(7) is None
