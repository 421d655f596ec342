"""The terminal's hooks: grouped choices (``choice_label``), the table as panels (``board``) and what each seat is
told of an action (``narrate``), on scenario positions and over random games of every mode."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

import cardarena
from cardarena.engine import Rng
from cardarena.games.tashkalar.game import TashKalarGame
from cardarena.games.tashkalar.render.menu import MAX_DETAILS
from cardarena.games.tashkalar.state import TashKalarState

from .helpers import being, flare, make_game, play, position

MODES = [
    {},
    {"mode": "highform"},
    {"mode": "melee", "players": 3},
    {"mode": "melee", "players": 4},
    {"teams": True},
    {"teams": True, "mode": "highform"},
]


def groups(st: TashKalarState) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for a in st.legal_actions():
        group, detail = st.game.choice_label(st, a)
        out[group].append(detail)
    return dict(out)


def random_states(options: dict[str, object], seeds: range, every: int = 1) -> list[TashKalarState]:
    game = cardarena.load("tashkalar", **options)
    out = []
    for seed in seeds:
        st = game.new_initial_state(seed)
        r = random.Random(seed)
        k = 0
        while not st.is_terminal():
            if k % every == 0:
                out.append(st.clone())
            st.apply(r.choice(st.playout_actions()))
            k += 1
    return out


# -- choice_label ------------------------------------------------------------------------------------------------


def test_the_67_place_squares_are_grouped_by_two_ranks_and_a_summon_names_its_squares() -> None:
    g = make_game(being("wall", "c c @", [{"do": "gain_action"}]))
    st = position(g, "c5:o d5:o e5:x", hand=("wall",))
    menu = groups(st)
    assert "place" not in menu and set(menu["place ranks 5-6"]) >= {"a5", "f6"} and menu["place rank 9"]
    assert all(len(v) <= MAX_DETAILS for v in menu.values()) and len(menu) <= 20
    assert sum(len(v) for k, v in menu.items() if k.startswith("place")) == 66
    # the summon: one group per being, the detail names the being's square, the pattern's squares and the victim
    assert "at e5 r0: being on e5, pattern on c5 d5; destroys the common of seat 1 on e5" in menu["summon Wall"]
    assert "pattern on c5 d5" in g.describe_action(st, st.parse_legal("summon wall at e5 r0"))


def summon_at(st: TashKalarState, card: str, square: str) -> str:
    """The text of the (first) legal summon of ``card`` with its being on ``square``."""
    return next(str(a) for a in st.legal_actions() if str(a).startswith(f"summon {card} at {square} "))


def test_few_squares_stay_one_group_and_moves_are_grouped_by_piece() -> None:
    g = make_game(being("hop", "c @", [{"do": "move", "who": "own", "style": "combat"}]))
    st = position(g, "d5:o f5:o e4:x", hand=("hop",))
    play(st, summon_at(st, "hop", "e5"))
    menu = groups(st)
    assert set(menu) == {"move d5 (common of seat 0)", "move e5 (heroic of seat 0)", "move f5 (common of seat 0)"}
    assert "to e4 (destroys the common of seat 1)" in menu["move e5 (heroic of seat 0)"]
    assert len(menu["move f5 (common of seat 0)"]) <= MAX_DETAILS


@pytest.mark.parametrize("options", MODES, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()) or "duel")
def test_no_decision_lists_more_than_20_groups(options: dict[str, object]) -> None:
    """Before: up to 1,009 numbered choices in one decision (a teleport's every piece and square); now at most 20
    groups at every decision of these random games."""
    worst = 0
    for st in random_states(options, range(4)):
        worst = max(worst, len(groups(st)))
    assert 0 < worst <= 20


# -- board -------------------------------------------------------------------------------------------------------


def test_the_board_draws_e5_as_red_and_central_and_keeps_the_centre() -> None:
    st = cardarena.load("tashkalar").new_initial_state(1)
    arena = st.game.board(st, 0)[0]
    row5 = next(line for line in arena.lines if line.startswith("  5"))
    assert row5.split()[1:10] == ["g", ".", ".", "+", "R", "+", ".", ".", "."]
    assert any("R red central (e5)" in line for line in arena.lines)


def test_panels_show_other_hands_as_backs_and_your_hand_by_name() -> None:
    game = cardarena.load("tashkalar")
    st = game.new_initial_state(5)
    assert isinstance(st, TashKalarState)
    panels = {p.ident: p for p in game.board(st, 0)}
    assert {"arena", "seat 0", "seat 1", "shared", "hand"} <= set(panels)
    assert any("[?] [?] [?] [?] [?] [?]" in line for line in panels["seat 1"].lines)
    mine = game.cards.cards[st.hand_b[0][0]]
    assert any(mine.id in line for line in panels["hand"].lines)
    assert game.render(st, 0).startswith(panels["arena"].title)
    spectator = "\n".join(line for p in game.board(st, None) for line in p.lines)
    assert mine.id not in spectator and "hand" not in {p.ident for p in game.board(st, None)}


def test_the_summon_map_shows_where_each_being_lands_and_the_squares_it_uses() -> None:
    g = make_game(being("wall", "c c @", [{"do": "gain_action"}]))
    st = position(g, "c5:o d5:o", hand=("wall",))
    panel = next(p for p in g.board(st, 0) if p.ident == "summons")
    row5 = next(line for line in panel.lines if line.startswith("  5"))
    assert "<A>" in row5
    assert any(line.startswith("<A> Wall: ") and "e5 r0 (c5 d5)" in line for line in panel.lines)
    assert all(p.ident != "summons" for p in g.board(st, 1))  # only for the seat to act


@pytest.mark.parametrize("options", MODES, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()) or "duel")
def test_the_panels_of_a_seat_are_the_same_in_every_world_it_cannot_tell_apart(options: dict[str, object]) -> None:
    """Hidden information stays hidden: the panels are drawn from what the seat may know only, so a resample of
    the state for that seat (hidden hands and deck orders redrawn) draws exactly the same panels."""
    for i, st in enumerate(random_states(options, range(2), every=7)):
        for seat in range(st.game.num_players):
            world = st.resample(seat, Rng(i))
            assert st.game.board(world, seat) == st.game.board(st, seat)


# -- narrate -----------------------------------------------------------------------------------------------------


def told(st: TashKalarState, text: str, seat: int = 1) -> list[str]:
    before = st.clone()
    action = st.game.parse_action(st, text)
    st.apply(action)
    return st.game.narrate(before, action, st, seat)


def test_a_summon_reports_its_victim_its_squares_and_the_next_step() -> None:
    g = make_game(being("oak", "c c @", [{"do": "upgrade", "who": "own", "near": "adjacent", "may": True}]))
    st = position(g, "c5:o d5:o e5:x", hand=("oak",))
    lines = told(st, "summon oak at e5 r0")
    assert lines[0].startswith("summon Oak (heroic) at e5 r0: being on e5, pattern on c5 d5")
    assert "the common of seat 1 on e5 is destroyed by the summon" in lines
    assert "Oak is summoned on e5 (heroic of seat 0), pattern turned r0 on c5 d5" in lines
    assert any(line.startswith("Oak's effect, next: ") for line in lines)
    lines = told(st, "choose d5")
    assert "the common of seat 0 on d5 is upgraded to heroic" in lines


def test_moves_downgrades_conversions_and_destroys_get_a_line_each() -> None:
    g = make_game(
        being("ram", "c @", [{"do": "leap", "target": "self", "style": "combat", "to_distance": 2}]),
        being("hex", "c @", [{"do": "downgrade", "who": "enemy", "near": "adjacent"}]),
        being("turn", "c @", [{"do": "convert", "near": "adjacent", "from": "self"}]),
        being("bolt", "c @", [{"do": "destroy", "who": "enemy", "near": "adjacent"}]),
    )
    st = position(g, "d5:o e7:x", hand=("ram",))
    told(st, summon_at(st, "ram", "e5"))
    assert "heroic of seat 0 moves e5 -> e7, destroying the common of seat 1 there" in told(st, "move e5 e7")
    st = position(g, "d5:o f5:X", hand=("hex",))
    told(st, summon_at(st, "hex", "e5"))
    assert "the heroic of seat 1 on f5 is downgraded to common" in told(st, "choose f5")
    st = position(g, "d5:o f5:x", hand=("turn",))
    told(st, summon_at(st, "turn", "e5"))
    assert "the common of seat 1 on f5 becomes a common of seat 0 (converted)" in told(st, "choose f5")
    st = position(g, "d5:o f5:x", hand=("bolt",))
    told(st, summon_at(st, "bolt", "e5"))
    assert "the common of seat 1 on f5 is destroyed" in told(st, "choose f5")


def test_the_end_of_a_turn_reports_points_draws_and_the_next_turn() -> None:
    g = make_game(being("bolt", "c @", [{"do": "destroy", "who": "enemy", "near": "adjacent", "count": 2}]))
    st = position(g, "d5:o f5:x e6:x", hand=("bolt",), actions=1)
    told(st, summon_at(st, "bolt", "e5"))
    lines = told(st, "choose f5") + told(st, "choose e6")
    assert "seat 0: +1 point(s), now 1 / 18 (for the enemy pieces destroyed this turn)" in lines
    assert "Bolt goes to seat 0's school discard pile" in lines
    assert "seat 0 draws 3 being(s)" in lines  # seat 1's view: a count, no names
    assert any(line.startswith("turn 6: seat 1's turn") for line in lines)


def test_the_drawing_seat_sees_the_names_of_its_cards_the_others_only_counts() -> None:
    g = make_game(being("bolt", "c @", [{"do": "destroy", "who": "enemy", "near": "adjacent"}]))
    st = position(g, "d5:o", hand=("bolt",), actions=1)
    before = st.clone()
    action = st.parse_legal(summon_at(st, "bolt", "e5"))
    st.apply(action)
    mine = g.narrate(before, action, st, 0)
    theirs = g.narrate(before, action, st, 1)
    assert "you draw 3 being(s): Filler 1, Filler 2, Filler 3" in mine
    assert "seat 0 draws 3 being(s)" in theirs and not any("Filler" in line for line in theirs)


def test_a_flare_reports_the_point_it_gives() -> None:
    g = make_game(flares=(flare("gift", 1, 1, [{"do": "gain_action"}], [{"do": "gain_action"}]),))
    st = position(g, "d5:X e5:x", flares=("gift",))
    lines = told(st, "flare gift")
    assert lines[0].startswith("invoke the flare Gift")
    assert "seat 1: +1 point(s), now 1 / 18" in lines and "gains 2 action(s) (4 left)" in lines


def test_putting_a_card_under_the_deck_names_it_to_its_owner_only() -> None:
    g = make_game(being("bolt", "c @", [{"do": "gain_action"}]), being("spare", "c @", [{"do": "gain_action"}]))
    st = position(g, "", hand=("bolt", "spare"))
    told(st, "discard bolt")
    before = st.clone()
    action = st.parse_legal("bottom spare")
    st.apply(action)
    assert "Spare" in g.narrate(before, action, st, 0)[0]
    assert not any("Spare" in line for line in g.narrate(before, action, st, 1))


@pytest.mark.parametrize("options", MODES, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()) or "duel")
def test_narrate_is_the_same_in_every_world_the_seat_cannot_tell_apart(options: dict[str, object]) -> None:
    """An action that does not end the turn (so draws from a hidden deck order play no part) is told the same to a
    seat in the true state and in a resample of it for that seat, for the acting seat and every other seat
    (where the action is possible in the resampled world: another seat's hand is redrawn there)."""
    compared = 0
    for i, before in enumerate(random_states(options, range(2), every=3)):
        game = before.game
        assert isinstance(game, TashKalarGame)
        action = random.Random(i).choice(before.playout_actions())
        after = before.clone()
        after.apply(action)
        if after.turn_no != before.turn_no or after.active != before.active or after.is_terminal():
            continue
        for seat in range(game.num_players):
            world = before.resample(seat, Rng(i))
            if action not in world.legal_actions():
                continue
            world_after = world.clone()
            world_after.apply(action)
            if world_after.turn_no != after.turn_no or world_after.active != after.active:
                continue  # whether the turn ends may depend on a hidden card (a flare the actor could invoke)
            assert game.narrate(world, action, world_after, seat) == game.narrate(before, action, after, seat)
            compared += 1
    assert compared > 20
