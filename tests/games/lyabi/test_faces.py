"""The terminal's hooks for Lyabi: choice_label (the grouped menu), board (the table as panels) and narrate (every
action and outcome, as one seat sees it), on positions built for them and over random games."""

from __future__ import annotations

import random
import re

import pytest

from cardarena.engine import Panel, Rng
from cardarena.games.lyabi.actions import LyabiAction
from cardarena.games.lyabi.constants import CRYSTAL, HERB, ORB, Phase
from cardarena.games.lyabi.state import LyabiState

from .support import GAME, battle, item_phase, main_phase, play, position, set_supply

NAMES = GAME.cards.r_names
NAME = re.compile(r"\b(?:" + "|".join(sorted(NAMES, key=len, reverse=True)) + r")\b")


def narrated(st: LyabiState, text: str, seat: int | None) -> list[str]:
    """Apply ``text`` and return what ``seat`` is told."""
    before = st.clone()
    action = GAME.parse_action(st, text)
    st.apply(action)
    return GAME.narrate(before, action, st, seat)


def groups(st: LyabiState) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for a in st.legal_actions():
        group, detail = GAME.choice_label(st, a)
        out.setdefault(group, []).append(detail)
    return out


# -- choice_label ---------------------------------------------------------------------------------------------
def test_purchases_are_grouped_by_the_card_gained_with_every_payment_as_a_detail() -> None:
    """メインフェイズ_2 「合計値以下の”リャビ”1枚」: any payment reaching the cost is legal (overpaying included); the
    menu shows one line per card gained and the payments inside it."""
    st = main_phase(position(hands=[["blue3", "green5", "red3"], ["red1"]]), 0)
    set_supply(st, default=3)
    legal = st.legal_actions()
    shown = groups(st)
    assert len(legal) > 50 and len(shown) <= 20
    assert shown["buy blue3"][:3] == ["pay blue3 (total 3)", "pay green5 (total 5)", "pay red3 (total 3)"]
    assert "pay blue3 green5 red3 (total 11)" in shown["buy blue11"]
    # (b): one or two cheaper ryabi, never two of equal cost: 6 singles and 9 pairs of a Lv1 and a Lv3.
    assert len(shown["split green5"]) == 15 and "into blue1 red3" in shown["split green5"]
    assert shown["pass"] == ["End main phase"]  # what the pass does now (issue 28, point 3)
    assert {"place 0", "place 5", "place 11"} <= set(shown)
    labels = [GAME.choice_label(st, a) for a in legal]
    assert len(set(labels)) == len(legal)  # a group and a detail name exactly one action


def test_battle_sets_are_grouped_by_colour() -> None:
    st = battle(position(hands=[["blue3", "blue5", "red1"], ["red3"]], fields=[["blue0"], ["red0"]]))
    assert groups(st) == {
        "set blue": ["blue3", "blue5", "blue3 blue5 (double charge)"],
        "set red": ["red1"],
        "set dummy": [""],
    }


def test_no_decision_of_random_games_needs_more_than_20_groups() -> None:
    """The largest main phases list over 200 actions (every payment of every card); grouped, they stay short."""
    most_actions = most_groups = 0
    for seed in range(40):
        st = GAME.new_initial_state(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            labels = [GAME.choice_label(st, a) for a in legal]
            assert len(set(labels)) == len(legal)
            most_actions = max(most_actions, len(legal))
            most_groups = max(most_groups, len({g for g, _ in labels}))
            st.apply(rng.choice(st.playout_actions()))
    assert most_actions > 100 and most_groups <= 20


# -- board ----------------------------------------------------------------------------------------------------
def test_the_board_shows_the_opponents_hidden_cards_as_backs() -> None:
    st = battle(position(hands=[["blue3", "blue5"], ["red11", "green11"]], fields=[["blue0"], ["red0"]]))
    st.edit(item=[-1, ORB])
    panels = GAME.board(st, 0)
    assert all(isinstance(p, Panel) for p in panels)
    by_key = {p.ident: p for p in panels}
    assert {"status", "seat0", "seat1", "supply", "piles"} <= set(by_key)
    opponent = "\n".join(by_key["seat1"].lines)
    assert "[?] [?] [?]" in opponent and "(3 cards)" in opponent  # two ryabi and the dummy
    assert "item: [?] face down" in opponent
    assert "red11" not in opponent and "green11" not in opponent and "orb" not in opponent
    assert "hand: blue3 blue5 + the dummy" in by_key["seat0"].lines
    assert by_key["seat1"].seat == 1 and by_key["supply"].seat is None
    text = GAME.render(st, 0)
    for p in panels:
        assert f"── {p.title} ──" in text and all(line in text for line in p.lines)


def test_the_board_is_the_same_in_every_world_the_seat_cannot_tell_apart() -> None:
    """board(seat) is built from observation(seat): resampling the hidden cards changes nothing on it."""
    for seed in range(12):
        st = GAME.new_initial_state(seed)
        rng = random.Random(seed)
        step = 0
        while not st.is_terminal():
            if step % 5 == 0:
                for seat in (0, 1):
                    world = st.resample(seat, Rng(seed * 1000 + step))
                    assert GAME.board(world, seat) == GAME.board(st, seat)
            st.apply(rng.choice(st.playout_actions()))
            step += 1


# -- narrate ----------------------------------------------------------------------------------------------------
def test_a_battle_is_narrated_outcome_by_outcome() -> None:
    """バトルステップ: the sets revealed together, the triangle, the damage of each circle, HP, the battle ryabi
    removed; then the end phase's discards, the next turn and its draws."""
    st = position(
        hands=[["blue3", "blue5", "green1"], ["red3", "red1"]],
        decks=[["green3"] * 3, ["red5"] * 3],
        fields=[["blue0", "blue5"], ["red0"]],
    )
    battle(st)
    assert narrated(st, "set blue3 blue5", 1) == ["set face down (revealed when both have set)"]
    lines = narrated(st, "set red3", 0)
    assert lines == [
        "set face down (revealed when both have set)",
        "the battle sets are revealed: seat 0: blue3 + blue5 · seat 1: red3",
        "blue beats red: seat 0 wins the battle: 4 damage to seat 1"
        " (blue0 circle ATK 1 × 1 × 1.5 → 1; blue5 circle ATK 2 × 1 × 1.5 → 3)",
        "seat 1 HP 20 → 16 (-4)",
        "battle ryabi removed from the game: blue3 blue5 red3",
        "end of turn 1: you discard your hand (green1)",
        "end of turn 1: seat 1 discards its hand (red1)",
        "turn 2 begins",
        "you draw: your hand is green3 green3 green3",
        "seat 1 draws: 3 cards in hand (known to all: red5 red5 red5)",  # the whole deck was drawn
    ]


def test_a_draw_the_dummy_and_a_tie_are_narrated() -> None:
    st = battle(position(hands=[["green3"], ["green1"]], fields=[["green0"], ["red0"]]))
    play(st, "set green3")
    assert "both battle ryabi are green: no winner, no damage" in narrated(st, "set green1", 0)
    st = battle(position(hands=[["green3"], ["green1"]], fields=[["green0"], ["red0"]]))
    play(st, "set green3")
    lines = narrated(st, "set dummy", 0)
    assert (
        "green ryabi against the dummy: seat 0 wins the battle: 1 damage to seat 1 (green0 circle ATK 1 × 1 → 1)"
        in (lines)
    )
    st = battle(position(hands=[["blue3"], ["red1"]], fields=[["green0"], ["red0"]]))
    play(st, "set blue3")
    lines = narrated(st, "set red1", 1)
    assert "blue beats red: seat 0 wins the battle, but it has no blue circle: no damage" in lines


def test_the_mirror_and_the_sword_are_narrated() -> None:
    st = position(hands=[["blue11"], ["red3"]], fields=[["blue11", "blue5"], ["red0"]], items=["sword", "mirror"])
    battle(st)
    play(st, "decline", "decline", "set blue11", "set red3", "decline", "decline")
    lines = narrated(st, "use mirror", 0)
    assert lines[0].startswith("use 願望の鏡 Mirror of Desire")
    assert "the Mirror of Desire prevents the damage; seat 0 takes 6 instead" in lines
    assert "you HP 20 → 14 (-6)" in lines
    st = position(hands=[["blue3"], ["red3"]], fields=[["blue0"], ["red0"]], items=["sword", None])
    battle(st)
    play(st, "decline", "set blue3", "set red3", "decline")
    lines = narrated(st, "use sword", 1)
    assert "the War God's Sword deals 3 more damage to seat 1" in lines and "you HP 19 → 16 (-3)" in lines


def test_the_brush_and_the_eye_are_narrated_to_whom_they_show() -> None:
    st = position(hands=[["green3"], ["red3"]], fields=[["green0", "blue5"], ["red0"]], items=["brush", None])
    battle(st)
    play(st, "decline", "set green3", "set red3")
    lines = narrated(st, "use brush blue", 1)
    assert "seat 0's Goddess's Brush makes its battle ryabi blue" in lines
    assert any(line.startswith("blue beats red: seat 0 wins the battle: 2 damage") for line in lines)
    st = position(hands=[["green3"], ["red3", "blue11"]], fields=[["green0"], ["red0"]], items=["eye", None])
    battle(st)
    mine, theirs = st.clone(), st.clone()
    assert "you see seat 1's hand: blue11 red3" in narrated(mine, "use eye", 0)
    seen = narrated(theirs, "use eye", 1)
    assert "seat 0 sees your hand" in seen and not NAME.search("\n".join(seen))


def test_purchases_circles_and_items_are_narrated() -> None:
    st = main_phase(position(hands=[["blue3", "green5", "red3"], ["red1"]]), 0)
    set_supply(st, default=3)
    assert narrated(st.clone(), "buy blue5 pay blue3 red3", 1)[1] == "seat 0 gains blue5 (to the discard pile; 2 left)"
    assert narrated(st.clone(), "split green5 into blue1 red3", 0)[1:3] == [
        "you gain blue1 (to the discard pile; 2 left)",
        "you gain red3 (to the discard pile; 2 left)",
    ]
    placed = st.clone()
    top = GAME.cards.c_names[placed.piles[1][-1]]
    lines = narrated(placed, "place 5 pay green5", 1)
    assert lines[1] == f"seat 0: the top Lv5 circle is a {top} circle (ATK 2), placed on the field"
    # An item: its owner reads its name, the other seat does not; an item already held is removed face up.
    st = item_phase(position(hands=[["blue3"], ["red1"]], items=["mirror", None]), 0)
    st.edit(item_pile=[ORB])
    mine, theirs = st.clone(), st.clone()
    assert narrated(mine, "item pay blue3", 0)[1:] == [
        "you take the 星見の天球 Stargazing Orb (orb) — draw phase, before you draw: draw until you hold 5 cards"
        " instead of 3 this draw phase",
        "you already held an item: the 願望の鏡 Mirror of Desire (mirror) is removed from the game",
    ]
    seen = narrated(theirs, "item pay blue3", 1)
    assert "orb" not in " ".join(seen).lower() and "Stargazing" not in " ".join(seen)
    assert "seat 0 already held an item: the 願望の鏡 Mirror of Desire (mirror) is removed from the game" in seen
    # Auto items resolve in the open.
    st = item_phase(position(hands=[["blue3"], ["red1"]], items=[None, "mirror"]), 0)
    st.edit(item_pile=[HERB])
    lines = narrated(st, "item pay blue3", 1)
    assert any(line.startswith("the item taken is the 幻覚の毒草 Hallucinogenic Herb (herb)") for line in lines)
    assert "you lose the 願望の鏡 Mirror of Desire (mirror): removed from the game" in lines
    st = position(hands=[["blue3"], ["red1"]], decks=[["blue1", "green5", "red3"], ["red1"] * 3])
    st.edit(item_pile=[CRYSTAL])
    item_phase(st, 0)
    mine, theirs = st.clone(), st.clone()
    assert "you look at the top of your deck (top first): red3 green5 blue1" in narrated(mine, "item pay blue3", 0)
    seen = narrated(theirs, "item pay blue3", 1)
    assert not any(line.startswith("you look at") for line in seen) and set(NAME.findall(" ".join(seen))) == {"blue3"}
    assert mine.phase == Phase.ORDER
    assert narrated(mine.clone(), "order blue1 green5 red3", 1) == ["put the looked-at cards back in a secret order"]
    assert narrated(mine, "order blue1 green5 red3", 0)[1] == "your deck's top is now (top first): blue1 green5 red3"


def test_a_reshuffle_and_the_end_of_the_game_are_narrated() -> None:
    st = position(hands=[["blue11"], ["red3"]], fields=[["blue11"], ["red0"]], hp=[20, 3])
    battle(st)
    play(st, "set blue11")
    lines = narrated(st, "set red3", 1)
    assert "you HP 3 → -5 (-8)" in lines
    assert lines[-1] == "Game over: seat 1 fell to 0 HP — seat 0 wins"
    st = position(
        hands=[["green1"], ["red1"]], decks=[["blue1"], ["red1"] * 3], discards=[["green3"], []], fields=[[], []]
    )
    st.edit(item_pile=[])
    main_phase(st, 0)
    play(st, "pass")
    lines = narrated(st, "pass", 0)  # seat 1's main phase ends the turn: no battle (no circles)
    assert "you: the deck ran out; the discard pile is shuffled into a new deck" in lines


@pytest.mark.parametrize("seed", range(6))
def test_narrate_names_only_what_the_seat_is_shown(seed: int) -> None:
    """Over random games, every ryabi named in a seat's narration is in its observation before or after the
    action, or in a payment or gain (face up by the rules)."""
    st = GAME.new_initial_state(seed)
    rng = random.Random(seed)

    def shown(obs: object) -> set[str]:
        found: set[str] = set()
        stack = [obs]
        while stack:
            x = stack.pop()
            if isinstance(x, dict):
                stack += [v for k, v in x.items() if k not in ("supply", "removed")]
            elif isinstance(x, list):
                stack += x
            elif isinstance(x, str) and x in NAMES:
                found.add(x)
        return found

    while not st.is_terminal():
        action: LyabiAction = rng.choice(st.playout_actions())  # type: ignore[assignment]
        before = st.clone()
        st.apply(action)
        for seat in (0, 1):
            lines = GAME.narrate(before, action, st, seat)
            allowed = shown(before.observation(seat)) | shown(st.observation(seat))
            if action[0] in ("buy", "split", "place", "item") or before.current_player == seat:
                allowed |= set(NAME.findall(str(action)))
            text = re.sub(r"\b\w+ circle", "", "\n".join(lines))
            assert set(NAME.findall(text)) <= allowed, (str(action), lines)
