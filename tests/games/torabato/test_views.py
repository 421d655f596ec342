"""The terminal's views of ToraBato (issue 13): grouped choices, the board's panels, narrate's outcome lines,
the attack steps explained, and that none of them names a card the seat may not see."""

from __future__ import annotations

import json
import re

import pytest

from cardarena.engine import Action, IllegalActionError, Rng
from cardarena.games.torabato.cards import NAMES
from cardarena.games.torabato.constants import DECLARE, EXECUTE
from cardarena.games.torabato.state import ToraBatoState

from .helpers import do, position

CARD = re.compile(r"(?<![\w@])@?(" + "|".join(sorted(map(re.escape, NAMES), key=len, reverse=True)) + r")(?!\w)")


def _cards_in(text: str) -> set[str]:
    return {m.group(1) for m in CARD.finditer(text)}


def _step(s: ToraBatoState, text: str, seat: int) -> list[str]:
    """Apply ``text`` and return what ``seat`` is told."""
    before = s.clone()
    action = s.apply_text(text)
    return s.game.narrate(before, action, s, seat)


# -- choice_label ------------------------------------------------------------------------------------------------
def test_nine_mana_choices_are_one_group_and_plays_group_by_card() -> None:
    """Issue 13: ToraBato repeated 9 "mana X" lines: they are one group, the cards its details."""
    hand = ["2S", "3S", "4S", "6S", "7S", "8S", "9S", "JS", "KS"]
    s = position(hands=(hand, []), field=([], ["QH"]), mana=(["AS", "AC", "10S"], []))
    labels = [s.game.choice_label(s, a) for a in s.legal_actions()]
    assert [d for g, d in labels if g == "mana"] == hand
    assert ("play 2S", "@opp") in labels and ("play 2S", "@QH") in labels and ("play JS", "") in labels
    assert ("pass", "End main phase") in labels
    groups = list(dict.fromkeys(g for g, _ in labels))
    assert len(s.legal_actions()) == 19 and len(groups) == 10
    assert groups == ["pass", "mana", *(f"play {c}" for c in ("2S", "4S", "6S", "7S", "8S", "9S", "JS", "KS"))]


def test_blocks_group_by_blocker_and_attackers_by_kind() -> None:
    s = position(field=(["KS", "QS"], ["10H", "JH"]))
    do(s, "attack", "pass", "pass")
    assert [s.game.choice_label(s, a) for a in s.legal_actions()] == [
        ("attacker", "KS"),
        ("attacker", "QS"),
    ]
    do(s, "attacker KS", "attacker QS", "pass", "pass")
    labels = [s.game.choice_label(s, a) for a in s.legal_actions()]
    assert labels == [
        ("block 10H", "KS"),
        ("block 10H", "QS"),
        ("block JH", "KS"),
        ("block JH", "QS"),
        ("done", "No blocks"),
    ]


# -- the attack steps explained ----------------------------------------------------------------------------------
def test_a_step_wrong_action_says_which_step_and_to_pass() -> None:
    """Issue 13: `attacker JS` at the declaration step said "there is nothing to attacker now"."""
    s = position(field=(["JS"], []))
    do(s, "attack")
    assert s.phase == DECLARE
    with pytest.raises(IllegalActionError) as e:
        s.apply_text("attacker JS")
    message = str(e.value)
    assert "attack: declaration step" in message and "pass to move on" in message
    assert "the attacker chooses attackers" in message
    do(s, "pass", "pass", "attacker JS")
    assert s.phase == EXECUTE
    with pytest.raises(IllegalActionError, match="pass to move on: when both pass in succession, the defender"):
        s.apply_text("block JS JS")


def test_the_board_shows_the_step_and_what_it_expects() -> None:
    s = position(field=(["JS"], []))
    do(s, "attack")
    (status,) = [p for p in s.game.board(s, 0) if p.key == "table"]
    text = "\n".join(status.lines)
    assert "attack: declaration step" in text and "pass to move on" in text
    assert "Waiting on seat 0 (you): has priority (when both pass in succession, the step ends)" in text
    do(s, "pass")
    assert "the other player has passed: a pass now and the step ends" in s.game.render(s, 1)


# -- the board ---------------------------------------------------------------------------------------------------
def test_the_board_draws_the_opponents_hand_as_backs_and_yours_with_costs() -> None:
    s = position(hands=(["2S", "KS"], ["3H", "4H", "5H"]), mana=(["AS"], ["AH", "AD"]), field=([], ["QH"]))
    panels = s.game.board(s, 0)
    text = "\n".join(line for p in panels for line in (p.title, *p.lines))
    assert "hand: 3 cards [?][?][?]" in text and "hand: 2S(1) KS(3)" in text and "mana cards: AS" in text
    assert not {"3H", "4H", "5H", "AH", "AD"} & _cards_in(text)
    assert "[QH 2/2]" in text
    assert [p.seat for p in panels] == [None, 1, 1, 1, None, 0, 0, 0]
    assert s.game.render(s, 0).splitlines()[0] == "Table:"  # render joins the panels
    spectator = "\n".join(line for p in s.game.board(s, None) for line in p.lines)
    assert not {"2S", "KS", "3H", "AS"} & _cards_in(spectator)


# -- narrate -----------------------------------------------------------------------------------------------------
def test_combat_with_blocks_damage_and_deaths() -> None:
    s = position(field=(["KS", "JS"], ["QH"]))
    do(s, "attack", "pass", "pass", "attacker KS", "attacker JS", "pass", "pass", "block QH KS", "pass", "pass")
    lines = [*_step(s, "pass", 1), *_step(s, "pass", 1)]
    assert lines == [
        "pass",
        "pass",
        "combat: KS fights QH: KS deals 2 to QH; QH deals 2 to KS",
        "combat: JS is unblocked and deals 1 damage to seat 1 (mills 1)",
        "KS takes 2 damage (2 of 3 health)",
        "QH (your soldier) dies and goes to the discard pile",
        "1 card milled from your deck to the discard pile: JK1 (25 left)",
        "now: main phase of seat 0's turn",
    ]


def test_divided_damage_is_told_per_blocker() -> None:
    s = position(field=(["AS"], ["JH", "10H"]))
    do(s, "attack", "pass", "pass", "attacker AS", "pass", "pass", "block JH AS", "block 10H AS", "pass", "pass")
    do(s, "pass", "pass", "assign AS JH", "assign AS 10H")
    lines = _step(s, "assign AS 10H", 1)
    assert lines[0] == "assign AS 10H — 1 point of AS's damage to 10H"
    assert lines[1] == "combat: AS fights JH and 10H: AS deals 1 to JH, 2 to 10H; JH deals 1 to AS, 10H deals 0 to AS"
    assert "JH (your soldier) dies and goes to the discard pile" in lines
    assert "10H (your soldier) dies and goes to the discard pile" in lines
    assert "AS takes 1 damage (1 of 3 health)" in lines


def test_spells_and_abilities_resolving() -> None:
    s = position(
        hands=(["3S", "8S", "4S"], ["7H"]),
        field=(["KS", "QS"], ["QH", "JH"]),
        mana=(["AS", "AC", "2C", "3C", "4C", "5C", "6C", "7C", "9C", "10C"], ["AH"]),
    )
    assert _step(s, "play 8S @KS", 1)[0] == "play 8S @KS — cast 8S (1 mana): KS gets +2/+2 this turn"
    assert _step(s, "pass", 1) == ["pass"]
    assert _step(s, "pass", 0) == [
        "pass",
        "both passed: your 8S (KS gets +2/+2 this turn) resolves",
        "KS gets +2/+2 this turn (now 4/5)",
    ]
    do(s, "play 3S @JH", "pass")
    assert _step(s, "play 7H @3S", 0)[0] == "play 7H @3S — cast 7H (1 mana): damage from 3S becomes 0 this turn"
    do(s, "pass")
    assert _step(s, "pass", 0)[1:] == [
        "both passed: seat 1's 7H (damage from 3S becomes 0 this turn) resolves",
        "3S on the stack will deal 0 damage",
    ]
    do(s, "pass")
    assert _step(s, "pass", 1)[1] == "both passed: seat 0's 3S (3 damage to JH) resolves: it deals 0 damage (7)"
    do(s, "play 4S @QH", "use QS @JH", "pass")
    assert _step(s, "pass", 1)[1:] == ["both passed: seat 0's QS's ability resolves", "JH is tapped for this turn"]
    do(s, "pass")
    assert _step(s, "pass", 1)[1:] == [
        "both passed: seat 0's 4S (destroy QH) resolves",
        "QH (your soldier) is destroyed and goes to the discard pile",
    ]


def test_a_spell_whose_target_left_does_nothing() -> None:
    s = position(hands=(["2S", "4S"], []), field=([], ["JH"]), mana=(["AS", "AC", "3C", "2C"], []))
    do(s, "play 2S @JH", "play 4S @JH", "pass", "pass")
    do(s, "pass")
    assert _step(s, "pass", 1)[1] == "both passed: seat 0's 2S (1 damage to JH) resolves: it does nothing, JH has left"


def test_hidden_draws_and_mana_returns_are_counted_not_named() -> None:
    s = position(
        hands=(["6S", "9S"], []),
        mana=(["AS", "AC", "2C", "3C", "4C"], []),
        decks=(["QC", "KC", "JC"], None),
    )
    do(s, "play 6S", "pass")
    assert _step(s.clone(), "pass", 1)[1:] == [
        "both passed: seat 0's 6S (draw 2 cards) resolves",
        "seat 0 draws 2 cards",
    ]
    assert _step(s, "pass", 0)[1:] == ["both passed: your 6S (draw 2 cards) resolves", "you draw JC KC"]
    do(s, "play 9S", "pass", "pass")
    assert _step(s.clone(), "choose 4C", 1) == ["takes one of their mana cards back into their hand"]
    assert _step(s, "choose 4C", 0) == ["choose 4C", "you take 4C back from your mana into your hand"]


def test_the_opponents_turn_and_the_end_are_told() -> None:
    s = position(active=1, decks=(["2S"], ["2H", "3H"]), turn_no=7)
    do(s, "pass", "pass", "pass")
    assert _step(s, "pass", 0) == [
        "pass",
        "turn 8: your turn begins — your mana and soldiers untap, every soldier heals",
        "you draw 2S",
        "now: draw phase of your turn",
    ]
    do(s, "pass", "pass", "pass", "pass", "pass")
    assert _step(s, "pass", 1)[-1] == "game over: seat 0's deck is empty at the end phase — you win"


def test_the_reveal_is_hidden_until_both_are_shown() -> None:
    s = position().game.new_initial_state(5)
    card = str(s.legal_actions()[0])
    assert _step(s.clone(), card, 1) == ["puts a card face down for the first-player reveal"]
    do(s, card)
    lines = _step(s, str(s.legal_actions()[0]), 0)
    assert lines[1].startswith("the first-player reveal: seat 0 shows ")


# -- nothing the seat may not see --------------------------------------------------------------------------------
def _random_steps(seeds: range) -> list[tuple[ToraBatoState, Action, ToraBatoState]]:
    steps = []
    for seed in seeds:
        s = position().game.new_initial_state(seed)
        rng = Rng(seed)
        while not s.is_terminal():
            legal = s.playout_actions()
            before = s.clone()
            action = legal[rng.randbelow(len(legal))]
            s.apply(action)
            steps.append((before, action, s.clone()))
    return steps


def test_narrate_and_board_name_only_cards_the_seat_was_shown_and_every_outcome_occurs() -> None:
    """Random games, both seats: each line names only cards in ``observation(seat)`` before or after the action
    (or seen earlier), and every kind of outcome line is produced somewhere."""
    told_all: list[str] = []
    for seat in (0, 1):
        seen: set[str] = set()
        for before, action, after in _random_steps(range(12)):
            if not before.history:
                seen = set()
            seen |= _cards_in(json.dumps(before.observation(seat))) | _cards_in(json.dumps(after.observation(seat)))
            lines = after.game.narrate(before, action, after, seat)
            told_all.extend(lines)
            told = "\n".join(lines) + "\n" + after.game.render(after, seat)
            assert _cards_in(told) <= seen, (str(action), _cards_in(told) - seen)
    text = "\n".join(told_all)
    for words in (" fights ", " is unblocked ", " dies ", " is destroyed ", " milled from ", " back from ",
                  " gets +", " deals 0 damage", " cannot be blocked", " is tapped for this turn", "game over: ",
                  "it does nothing", " draws ", "you draw ", " mana this turn"):  # fmt: skip
        assert words in text, words


def test_narrate_is_the_same_in_a_resample_where_hidden_cards_cannot_matter() -> None:
    """The seat's own actions, told to it, from the true state and from a world resampled for it: the same lines,
    unless the action drew or milled (then cards of a hidden order are shown)."""
    compared = 0
    for k, (before, action, after) in enumerate(_random_steps(range(6))):
        seat = before.current_player
        assert seat is not None
        if any(len(before.deck[s]) != len(after.deck[s]) for s in (0, 1)) or before.phase == 0:
            continue
        world = before.resample(seat, Rng(k))
        world_after = world.clone()
        world_after.apply(action)
        if any(len(world.deck[s]) != len(world_after.deck[s]) for s in (0, 1)):
            continue
        g = before.game
        assert g.narrate(world, action, world_after, seat) == g.narrate(before, action, after, seat)
        assert g.render(world_after, seat) == g.render(after, seat)
        compared += 1
    assert compared > 500
