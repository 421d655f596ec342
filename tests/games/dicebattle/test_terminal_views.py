"""The terminal's hooks: choice_label (the grouped menu), board (panels, hidden cards as backs) and narrate (the
action as a seat sees it and every outcome it caused), on positions built for them and over random games."""

from __future__ import annotations

import random
import re

import pytest

import cardarena
from cardarena.engine import Rng
from cardarena.games.dicebattle.constants import Phase
from cardarena.games.dicebattle.render import choice_label, new_events
from cardarena.games.dicebattle.state import DiceBattleState

from .helpers import act, arrange, edit_side, new_state, set_roll


def _labels(st: DiceBattleState) -> list[tuple[str, str]]:
    return [choice_label(st, a) for a in st.legal_actions()]


def test_choice_label_groups_the_dice_phase_by_card_with_the_zones_as_details() -> None:
    """A card that fits two zones is one group with two details; a card that fits one has no detail."""
    st = arrange(new_state(seed=1), roll=6, hands=(["slime", "stone_golem", "ogre", "spark"], ["goblin"]))
    assert _labels(st) == [("miracle", ""), ("Slime", ""), ("Ogre", ""), ("Stone Golem", "")]
    act(st, "set slime")  # 5 of the die left: Stone Golem joins (4) or is a grant (3); Ogre joins
    assert _labels(st) == [
        ("Ogre", ""),
        ("Stone Golem", "set in the main zone"),
        ("Stone Golem", "set as a grant (stock zone)"),
        ("Spark", ""),  # a grant only (magic goes beside a human)
        ("done", ""),
    ]


def test_choice_label_names_the_card_in_battle_and_revival_decisions() -> None:
    st = arrange(new_state(seed=1), roll=6, hands=(["apprentice_mage"], ["goblin"]))
    act(st, "set apprentice_mage", "done")
    set_roll(st, 1, 1)
    act(st, "set goblin", "done")  # Apprentice Mage's choice effect: use or skip
    assert st.phase == Phase.CHOICE
    assert _labels(st) == [("use Apprentice Mage", ""), ("skip Apprentice Mage", "")]


def test_board_draws_the_opponents_hand_and_face_down_cards_as_backs() -> None:
    st = arrange(
        new_state(seed=5),
        roll=6,
        hands=(["apprentice_mage", "spark", "blessing", "ember_imp", "ogre"], ["slime", "harpy", "titan"]),
    )
    act(st, "set apprentice_mage", "magic spark", "grant ember_imp", "done")
    panels = st.game.board(st, 1)
    titles = [p.title for p in panels]
    assert titles[1:4] == ["seat 0", "seat 1 (you)", "your hand (3)"]
    seat0 = panels[1]
    assert seat0.seat == 0 and panels[2].seat == 1
    assert "hand [?][?] 2, deck 25" in seat0.lines
    assert "main: [?] 1 face-down card(s)" in seat0.lines
    assert "magic circle: [?] 1 face-down" in seat0.lines and "new grant: [?] face down" in seat0.lines
    text = "\n".join(line for p in panels for line in (p.title, *p.lines))
    for secret in ("Apprentice", "Spark", "Ember", "Blessing", "Ogre"):
        assert secret not in text
    assert [line.split(" [")[0] for line in panels[3].lines] == ["Slime", "Harpy", "Titan"]
    # The owner sees its own set cards by name.
    mine = st.game.board(st, 0)[1]
    assert "main: Apprentice Mage (main unit Apprentice Mage, Lv1)" in mine.lines
    assert "magic circle: Spark" in mine.lines and "new grant: Ember Imp" in mine.lines


def test_render_is_the_board_as_plain_text() -> None:
    st = arrange(new_state(seed=5), roll=6, hands=(["ogre"], ["slime"]))
    text = st.render(1)
    for panel in st.game.board(st, 1):
        assert panel.title in text
        for line in panel.lines:
            assert line in text


def _battle_position() -> DiceBattleState:
    """Seat 0 (first, die 6) set Knight Errant and Fireball; seat 1 (die 6) sets Hydra and Slime, then `done`."""
    st = arrange(
        new_state(seed=2),
        roll=6,
        hands=(["knight_errant", "fireball", "goblin"], ["hydra", "slime", "ogre"]),
        decks=(["harpy", "dire_wolf", "goblin"], ["titan", "lich", "troll"]),
    )
    act(st, "set knight_errant", "magic fireball", "done")
    set_roll(st, 1, 6)
    act(st, "set hydra", "set slime")
    return st


def test_narrate_tells_a_whole_battle_in_order() -> None:
    """The second player's `done` resolves the whole battle: every reveal, effect, level change, draw, the
    battle's result and the star get a line, in the order they happened."""
    st = _battle_position()
    before = st.clone()
    act(st, "done")
    assert st.phase == Phase.REVIVE  # seat 1 lost and may revive
    assert st.game.narrate(before, st.history[-1], st, 0) == [
        "finish setting",
        "seat 0 reveals Knight Errant (Lv3); magic: Fireball",
        "seat 1 reveals Hydra + Slime (Lv6)",
        "seat 1: Hydra takes effect: forced: draw 1 card",
        "seat 1 draws 1 card",
        "seat 0: Knight Errant takes effect: forced: if the opponent's main unit is a monster, your main unit gets +2"
        " level",
        "levels now: seat 0 Lv5, seat 1 Lv6",
        "seat 0: Fireball takes effect: forced: the opponent's main unit gets -2 level",
        "levels now: seat 0 Lv5, seat 1 Lv4",
        "battle: seat 0 level 5 vs seat 1 level 4: seat 0 wins",
        "seat 0 now has 1 star",
    ]
    # Seat 1 is also told which card it drew; seat 0 only how many.
    assert st.game.narrate(before, st.history[-1], st, 1)[-1] == "new in your hand: Titan"


def test_narrate_does_not_name_a_card_set_face_down() -> None:
    st = arrange(new_state(seed=2), roll=6, hands=(["knight_errant", "fireball"], ["hydra"]))
    for text, zone, name in (
        ("set knight_errant", "the main zone", "Knight Errant"),
        ("magic fireball", "the magic circle", "Fireball"),
    ):
        before = st.clone()
        act(st, text)
        assert st.game.narrate(before, st.history[-1], st, 1) == [f"sets a card face down in {zone}"]
        assert st.game.narrate(before, st.history[-1], st, 0)[0] == f"set {name} in {zone}"  # the setter reads it


def test_narrate_tells_cancelled_and_unmet_effects_and_tie_wins() -> None:
    """Archmage cancels the opponent's effects still to resolve; an effect whose condition fails says so."""
    st = arrange(new_state(seed=2), roll=6, hands=(["archmage"], ["shield_maiden", "blessing", "harpy"]))
    act(st, "set archmage", "done")
    set_roll(st, 1, 6)
    act(st, "set shield_maiden", "magic blessing")
    before = st.clone()
    act(st, "done")
    lines = st.game.narrate(before, st.history[-1], st, 1)
    assert lines[3:] == [
        "seat 0: Archmage takes effect: forced: the opponent's effects that have not resolved yet this battle do not"
        " resolve",
        "seat 1's effects still to resolve this battle are cancelled",
        "seat 1: Shield Maiden does not resolve (cancelled)",
        "seat 1: Blessing does not resolve (cancelled)",
        "battle: seat 0 level 5 vs seat 1 level 2: seat 0 wins",
        "seat 0 now has 1 star",
    ]
    st = arrange(new_state(seed=2), roll=6, hands=(["shield_maiden"], ["dire_wolf"]))
    act(st, "set shield_maiden", "done")
    set_roll(st, 1, 2)
    act(st, "set dire_wolf")
    before = st.clone()
    act(st, "done")
    lines = st.game.narrate(before, st.history[-1], st, 0)
    assert "seat 0: Shield Maiden takes effect: forced: if the battle is a tie, you win it" in lines
    assert "seat 0 wins this battle if it is a tie" in lines
    assert "seat 1: Dire Wolf has no effect (its condition does not hold)" in lines
    assert lines[-2:] == ["battle: seat 0 level 2 vs seat 1 level 2: seat 0 wins", "seat 0 now has 1 star"]


def test_narrate_tells_the_end_of_the_game() -> None:
    st = _battle_position()
    edit_side(st, 0, stars=2)
    before = st.clone()
    act(st, "done")
    lines = st.game.narrate(before, st.history[-1], st, 0)
    assert lines[-2:] == ["seat 0 now has 3 stars", "seat 0 has 3 stars and wins the game"]
    assert st.is_terminal()


def _names(game: cardarena.Game) -> list[tuple[str, re.Pattern[str]]]:
    """Each card id with a pattern matching its name or its id as whole words."""
    return [
        (c.id, re.compile(rf"(?<![\w-])({re.escape(c.name)}|{re.escape(c.id)})(?![\w-])"))
        for c in game.tables.cards  # type: ignore[attr-defined]
    ]


def _seen(obs: object) -> set[str]:
    """Card ids and names anywhere in an observation."""
    out: set[str] = set()
    if isinstance(obs, dict):
        for v in obs.values():
            out |= _seen(v)
    elif isinstance(obs, list):
        for v in obs:
            out |= _seen(v)
    elif isinstance(obs, str):
        out.add(obs)
    return out


def visible_ids(game: cardarena.Game, obs: object) -> set[str]:
    """The card ids an observation names: as ids (zones) or by name (inside the events' text)."""
    strings = _seen(obs)
    text = "\n".join(strings)
    return {cid for cid, pattern in _names(game) if cid in strings or pattern.search(text)}


def named_ids(game: cardarena.Game, text: str) -> set[str]:
    return {cid for cid, pattern in _names(game) if pattern.search(text)}


@pytest.mark.parametrize("seed", range(12))
def test_board_and_narrate_show_only_what_the_seat_may_see(seed: int) -> None:
    """Over random games, for both seats: the board is the same for the state and every resample of it for that
    seat; every card named by the board or narrate has been seen in the seat's observations so far; and where an
    action's outcome involves neither chance nor a reveal, narrate is the same in a resampled world."""
    game = cardarena.load("dicebattle", deck0=("horde", "arcana", "vanguard")[seed % 3])
    st = game.new_initial_state(seed)
    rng = random.Random(seed)
    seen: list[set[str]] = [visible_ids(game, st.observation(s)) for s in (0, 1)]
    chance = {"roll", "miracle", "draw", "mill", "discard", "redraw", "reshuffle", "reveal", "penalty"}
    step = 0
    while not st.is_terminal():
        action = rng.choice(st.legal_actions())
        before = st.clone()
        st.apply(action)
        for s in (0, 1):
            seen[s] |= visible_ids(game, st.observation(s))
            lines = game.narrate(before, action, st, s)
            assert named_ids(game, "\n".join(lines)) <= seen[s], (seed, step, s, lines)
            board = [(p.title, p.lines) for p in game.board(st, s)]
            assert named_ids(game, repr(board)) <= seen[s]
            world = st.resample(s, Rng(seed * 1000 + step))
            assert [(p.title, p.lines) for p in game.board(world, s)] == board, (seed, step, s)
            kinds = {e[0] for e in new_events(before, st)}
            if not kinds & chance:
                w_before = before.resample(s, Rng(step))
                if action in w_before.legal_actions():
                    w_after = w_before.clone()
                    w_after.apply(action)
                    assert game.narrate(w_before, action, w_after, s) == lines, (seed, step, s)
        step += 1


def test_narrate_tells_both_players_reaching_three_stars_and_the_round_cap() -> None:
    """Wish Upon a Star gives seat 0 its third star as seat 1 wins its third: both go back to 2 (a line says so);
    with max_turns=1 the round's end is the game's end, a draw (a line says so)."""
    st = arrange(
        new_state(seed=2, max_turns=1),
        roll=6,
        hands=(["apprentice_mage", "wish_star"], ["titan"]),
        stars=(2, 2),
    )
    act(st, "set apprentice_mage", "magic wish_star", "done")
    set_roll(st, 1, 6)
    act(st, "set titan", "done")  # Titan (unmet: not behind), Wish Upon a Star: seat 0's third star
    assert st.phase == Phase.CHOICE  # Apprentice Mage's choice effect
    before = st.clone()
    act(st, "skip apprentice_mage")
    lines = st.game.narrate(before, st.history[-1], st, 1)
    assert lines[:5] == [
        "do not use the effect of Apprentice Mage",
        "battle: seat 0 level 1 vs seat 1 level 6: seat 1 wins",
        "seat 1 now has 3 stars",
        "both players reached 3 stars at once: both go back to 2",
        "seat 0 draws 3 cards",
    ]
    assert lines[5:] == [
        "seat 1 draws 2 cards",
        "round 1 was the last allowed (max_turns): the game is a draw",
        f"new in your hand: {', '.join(sorted(st.game.tables.name(c) for c in st.sides[1].hand))}",
    ]
    assert st.is_terminal() and st.returns() == [0.0, 0.0]
