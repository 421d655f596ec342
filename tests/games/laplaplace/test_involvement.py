"""The balance report's hooks for Laplaplace (involvement.py): random games through the harness, then exact
positions: a card put in a build, abilities fired, cards downed, removed and countered, the rules watched and
every end of a battle."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardarena
from cardarena.engine import Involvement, Rng, apply_involving
from cardarena.engine.harness import check_involvement
from cardarena.games.laplaplace import involvement
from cardarena.games.laplaplace.game import LaplaplaceGame
from cardarena.games.laplaplace.rules.build import battle_builds, fight
from cardarena.games.laplaplace.state import LaplaplaceState

DATA = Path(cardarena.__file__).parent / "games" / "laplaplace" / "data"


def fought(tmp_path: Path, top0: list[str], top1: list[str], **options: str) -> tuple[LaplaplaceGame, LaplaplaceState]:
    """Two build files battling in the league scene: the initial state has already fought the battle."""
    for seat, cards in ((0, top0), (1, top1)):
        listed = ", ".join(f'"{c}"' for c in cards)
        (tmp_path / f"b{seat}.toml").write_text(f'name = "B{seat}"\ncards = [{listed}]\n', encoding="utf-8")
    g = cardarena.load(
        "laplaplace", build="league", build0=str(tmp_path / "b0.toml"), build1=str(tmp_path / "b1.toml"), **options
    )
    assert isinstance(g, LaplaplaceGame)
    state = g.new_initial_state(7)
    assert state.is_terminal()
    return g, state


def found(tmp_path: Path, top0: list[str], top1: list[str]) -> set[Involvement]:
    g, state = fought(tmp_path, top0, top1)
    return set(g.initial_involvement(state))


# -- random games through the harness ----------------------------------------------------------------------------------
def test_random_blind_games_declare_everything_they_involve() -> None:
    occurred = check_involvement(cardarena.load("laplaplace"), range(150))
    assert all(occurred[f"card:{c}"] > 0 for c in ("pierce", "nullify", "lift", "fortify"))
    assert occurred["effect:negate_event"] > 0 and occurred["rule:loop"] > 0
    assert occurred["rule:safety-stop"] == 0  # the shipped cards never reach the safety nets (ruling 14)


def test_random_open_and_league_games() -> None:
    assert check_involvement(cardarena.load("laplaplace", build="open"), range(40))["card:blank"] > 0
    league = cardarena.load(
        "laplaplace",
        build="league",
        build0=str(DATA / "builds" / "knight.toml"),
        build1=str(DATA / "builds" / "judge.toml"),
    )
    occurred = check_involvement(league, range(3))
    assert occurred["card:lance"] == 3 and occurred["card:strain"] == 0  # neither build holds Strain
    coin = cardarena.load("laplaplace", build1=str(DATA / "builds" / "mirror.toml"), identical="coin")
    assert check_involvement(coin, range(30))["card:mimic"] > 0


def test_traced_battle_is_the_played_battle() -> None:
    """The report's replay (TracedBattle) reaches the outcome of the battle the rules fought, over random builds."""
    g = cardarena.load("laplaplace")
    assert isinstance(g, LaplaplaceGame)
    rng = Rng(3)
    for seed in range(200):
        state = g.new_initial_state(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randbelow(len(legal))])
        assert isinstance(state, LaplaplaceState)
        again = Rng(0)
        again.state = state.battle_rng
        traced = involvement.TracedBattle(battle_builds(state), again, identical=g.identical)
        assert traced.run() == state.outcome
        replay = Rng(0)
        replay.state = state.battle_rng
        assert fight(state, replay, None) == state.outcome


def test_catalogue_declares_a_card_only_a_tests_card_file_has(tmp_path: Path) -> None:
    text = (DATA / "cards.toml").read_text(encoding="utf-8")
    extra = (
        '\n[[card]]\nid = "laser"\nname = "Laser"\nnumber = "A"\nforce = 3\ncategory = "damage"\n'
        'text = "test"\nabilities = ["<A> damage self 1"]\n'
    )
    path = tmp_path / "cards.toml"
    path.write_text(text + extra, encoding="utf-8")
    declared = {
        (d.kind, d.name): d.label for d in cardarena.load("laplaplace", cards=str(path)).involvement_catalogue()
    }
    assert declared[("card", "laser")].startswith("Laser (laser")
    assert ("card", "laser") not in {(d.kind, d.name) for d in cardarena.load("laplaplace").involvement_catalogue()}
    assert ("effect", "damage") in declared and ("rule", "first-player-coin") in declared


# -- the build decisions -----------------------------------------------------------------------------------------------
def test_add_and_show_put_the_card_in_the_seats_build() -> None:
    g = cardarena.load("laplaplace")
    state = g.new_initial_state(1)
    assert apply_involving(state, "add lance") == [Involvement(0, "card", "lance", "in_build")]
    g = cardarena.load("laplaplace", build="open")
    state = g.new_initial_state(1)
    shown = [apply_involving(state, "show jab") for _ in range(4)]
    assert shown[-1] == [Involvement(1 - 1, "card", "jab", "in_build")]


def test_a_build_file_is_in_the_initial_state(tmp_path: Path) -> None:
    g = cardarena.load("laplaplace", build1=str(DATA / "builds" / "knight.toml"))
    state = g.new_initial_state(0)
    assert set(g.initial_involvement(state)) == {
        Involvement(1, "card", c, "in_build")
        for c in ("lance", "rally", "jab", "blank", "plating", "shield", "fortify")
    }


def test_the_battle_comes_with_the_action_that_completes_the_second_build() -> None:
    g = cardarena.load("laplaplace")
    state = g.new_initial_state(0)
    for text in ("add jab", "add blank", "done", "add blank"):
        state.apply(g.parse_action(state, text))
    got = apply_involving(state, "done")
    assert Involvement(0, "card", "jab", "fired") in got and Involvement(0, "effect", "damage", "applied") in got
    assert not any(i.verb == "in_build" for i in got)  # done adds no card


# -- the battle --------------------------------------------------------------------------------------------------------
def test_fired_action_is_used_by_its_owner(tmp_path: Path) -> None:
    got = found(tmp_path, ["jab", "blank"], ["blank"])
    assert {Involvement(0, "card", "jab", "fired"), Involvement(0, "effect", "damage", "applied")} <= got
    assert not any(i.verb == "fired" and i.seat == 1 for i in got)  # Blank has no ability


def test_build_ability_fires(tmp_path: Path) -> None:
    """ビルド: Fortify's build ability fires once in the reveal."""
    got = found(tmp_path, ["fortify", "blank"], ["blank", "blank"])
    assert {
        Involvement(0, "card", "fortify", "fired"),
        Involvement(0, "effect", "initial_hp_plus_half_base", "applied"),
    } <= got


def test_removed_by_the_enemy_but_not_by_its_own_cost(tmp_path: Path) -> None:
    """[除去]: Banish removes itself to fire (its cost) and removes the enemy's topmost card (affected)."""
    got = found(tmp_path, ["banish", "blank"], ["jostle", "blank", "blank"])
    assert Involvement(1, "card", "jostle", "removed") in got
    assert Involvement(0, "card", "banish", "fired") in got and Involvement(0, "card", "banish", "removed") not in got


def test_downed_by_the_enemy(tmp_path: Path) -> None:
    got = found(tmp_path, ["stun", "blank", "blank"], ["jab", "blank"])
    assert Involvement(1, "card", "jab", "downed") in got and Involvement(0, "card", "stun", "fired") in got
    assert Involvement(0, "card", "stun", "downed") not in got  # firing downs it: its own cost


def test_targeted_decoy_counters_the_effect(tmp_path: Path) -> None:
    """<E:targeted> (Decoy) ignores the effect that targets it: the targeting card is countered."""
    got = found(tmp_path, ["stun", "blank", "blank"], ["decoy", "blank"])
    assert {
        Involvement(1, "card", "decoy", "fired"),
        Involvement(1, "effect", "ignore_effect", "applied"),
        Involvement(0, "card", "stun", "countered"),
    } <= got


def test_negated_event_is_countered_and_its_effects_do_not_run(tmp_path: Path) -> None:
    """<E:enemy_event> (Nullify) negates an enemy event: Rally fires but its effect does not run."""
    got = found(tmp_path, ["stun", "blank", "nullify"], ["jab", "rally", "blank"])
    assert {
        Involvement(1, "card", "rally", "fired"),
        Involvement(1, "card", "rally", "countered"),
        Involvement(0, "card", "nullify", "fired"),
        Involvement(0, "effect", "negate_event", "applied"),
    } <= got
    assert Involvement(1, "effect", "up", "applied") not in got


def test_lift_is_activated_when_a_top_action_fires_below_the_top(tmp_path: Path) -> None:
    """<常態> above_ignores_top: Lift lets the <トップ> card right above it fire."""
    got = found(tmp_path, ["blank", "lance", "lift"], ["blank", "blank"])
    assert {
        Involvement(0, "card", "lance", "fired"),
        Involvement(0, "card", "lift", "activated"),
        Involvement(0, "effect", "above_ignores_top", "applied"),
    } <= got


def test_no_up_phase_keeps_a_card_down(tmp_path: Path) -> None:
    """アップフェイズ: <常態> no_up_phase (Volley) stays down."""
    got = found(tmp_path, ["volley", "blank", "blank"], ["blank", "blank", "blank"])
    assert Involvement(0, "effect", "no_up_phase", "applied") in got


def test_rules_first_player_by_cards_and_loop(tmp_path: Path) -> None:
    """先攻後攻決定フェイズ: speeds and HP tied, more cards goes first; ruling 13: a battle in which nothing
    changes loops until the judgement."""
    got = found(tmp_path, ["blank", "reflector"], ["blank"])
    assert {
        Involvement(None, "rule", "first-player-cards", "applied"),
        Involvement(None, "rule", "loop", "applied"),
    } <= got


def test_rules_first_player_by_hp_and_hits_that_deal_nothing(tmp_path: Path) -> None:
    """先攻後攻決定フェイズ: speeds tied, the higher HP goes first (Fortify raises HP, not the base); ダメージ: a hit
    reduced to 0 deals no damage (Shield -3 on Jab's 2)."""
    got = found(tmp_path, ["fortify", "blank", "jab"], ["blank"])
    assert Involvement(None, "rule", "first-player-hp", "applied") in got
    got = found(tmp_path, ["jab", "blank"], ["shield", "blank"])
    assert Involvement(None, "rule", "hit-nullified", "applied") in got


def test_rule_first_player_coin(tmp_path: Path) -> None:
    """先攻後攻決定フェイズ: everything tied in turn 1, a coin chooses."""
    got = found(tmp_path, ["blank", "jab"], ["jab", "blank"])
    assert Involvement(None, "rule", "first-player-coin", "applied") in got


# -- the ends ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("top0", "top1", "options", "end"),
    [
        (["jab", "blank"], ["blank"], {}, "ko"),
        (["jab"], ["blank"], {}, "zero-hp-start"),
        (["jab"], ["pierce"], {}, "both-zero-hp"),
        (["blank"], ["blank", "blank"], {}, "judgement-hp"),
        (["fortify", "blank", "blank"], ["blank", "blank", "blank"], {}, "judgement-base-hp"),
        (["blank", "reflector"], ["blank"], {}, "judgement-cards"),
        (["haste", "blank"], ["lift", "blank"], {}, "judgement-first-player"),
        (["blank", "shield"], ["shield", "blank"], {}, "judgement-builds"),
        (["blank"], ["blank"], {}, "identical-draw"),
        (["blank"], ["blank"], {"identical": "coin"}, "identical-coin"),
    ],
)
def test_each_end_is_recognised(
    tmp_path: Path, top0: list[str], top1: list[str], options: dict[str, str], end: str
) -> None:
    """決着 (KO, the judgement after turn 30 and its tie-breaks, ruling 17), ビルド (0 HP after the build) and
    構成の開示 (identical builds)."""
    g, state = fought(tmp_path, top0, top1, **options)
    assert g.end_condition(state) == end
    assert end in {d.name for d in g.end_conditions()}


def test_end_conditions_declare_the_turn_cap() -> None:
    """The max_turns cap is declared though the judgement after turn 30 always comes first (max_turns >= 30)."""
    names = [d.name for d in cardarena.load("laplaplace").end_conditions()]
    assert "turn-cap" in names and len(names) == len(set(names)) == 11
