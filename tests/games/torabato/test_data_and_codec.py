"""The card-list data file, the action codec, the option checks and hidden information."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardarena
from cardarena.engine import CardDataError, InvalidActionError, OptionError, Rng
from cardarena.games.torabato import actions as acts
from cardarena.games.torabato.cards import DEFAULT_CARDS, NAMES
from cardarena.games.torabato.constants import MAIN, CardType
from cardarena.games.torabato.rules import knowledge

from .helpers import cid, do, names, pass_until, position, texts


def test_default_card_list_matches_the_rulebook_table() -> None:
    """カードリスト: costs and attack/health as printed."""
    game = cardarena.load("torabato")
    costs = {s.rank: s.cost for s in game.card_list.specs}
    assert costs == {
        "A": 4,
        "2": 1,
        "3": 4,
        "4": 3,
        "5": 2,
        "6": 3,
        "7": 1,
        "8": 1,
        "9": 2,
        "10": 1,
        "J": 1,
        "Q": 2,
        "K": 3,
        "Joker": 5,
    }
    soldiers = {s.rank: (s.attack, s.health) for s in game.card_list.specs if s.kind == CardType.SOLDIER}
    assert soldiers == {"A": (3, 3), "10": (0, 2), "J": (1, 1), "Q": (2, 2), "K": (2, 3)}
    recur = {s.rank: s.recur_cost for s in game.card_list.specs if s.recur_cost is not None}
    assert recur == {"2": 3, "3": 6, "9": 2, "J": 3}


def _variant(tmp_path: Path, old: str, new: str) -> Path:
    text = DEFAULT_CARDS.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "cards.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_a_variant_card_list_is_played(tmp_path: Path) -> None:
    path = _variant(
        tmp_path,
        'rank = "J"\nvalue = 11\ncost = 1\nkind = "soldier"\nattack = 1',
        'rank = "J"\nvalue = 11\ncost = 1\nkind = "soldier"\nattack = 5',
    )
    game = cardarena.load("torabato", cards=str(path))
    assert game.card_list.spec("J").attack == 5


@pytest.mark.parametrize(
    ("old", "new", "card", "field"),
    [
        ('rank = "K"\nvalue = 13\ncost = 3', 'rank = "K"\nvalue = 13\ncost = "three"', "K", "cost"),
        ("attack = 2\nhealth = 3", "attack = 2\nhealth = 0", "K", "health"),
        ('effect = "destroy_all"', 'effect = "explode"', "Joker", "effect"),
        ('rank = "Q"', 'rank = "Q"\ncolour = "red"', "Q", "colour"),
    ],
)
def test_a_broken_card_list_names_file_card_and_field(
    tmp_path: Path, old: str, new: str, card: str, field: str | None
) -> None:
    path = _variant(tmp_path, old, new)
    with pytest.raises(CardDataError) as info:
        cardarena.load("torabato", cards=str(path))
    assert info.value.card == card and str(path) in str(info.value)
    if field is not None:
        assert info.value.field == field


@pytest.mark.parametrize(
    ("old", "new", "field", "words"),
    [
        ('rank = "K"\nvalue = 13\ncost = 3', 'rank = "K"\nvalue = 13\ncost = -1', "cost", r"0\.\.26, not -1"),
        (
            'rank = "4"\nvalue = 4\ncost = 3\nkind = "spell"\neffect = "destroy"',
            'rank = "4"\nvalue = 4\ncost = 3\nkind = "spell"',
            "effect",
            "a spell needs an effect",
        ),
        ("attack = 2\nhealth = 3", "attack = -2\nhealth = 3", "attack", r"0\.\.99, not -2"),
        ("amount = 1\nrecur_cost = 3", "amount = 0\nrecur_cost = 3", "amount", "needs a positive amount"),
        (
            'rank = "K"\nvalue = 13\ncost = 3',
            'rank = "K"\nvalue = 13\ncost = "three"',
            "cost",
            r"must be a whole number 0\.\.26 \(without quotes\), not 'three'",
        ),
        (
            'rank = "Q"',
            'rank = "Q"\ncolour = "red"',
            "colour",
            "'colour' is not a field of a card \\(its fields are: rank,",
        ),
        ('rank = "K"\nvalue = 13\n', 'rank = "K"\n', "value", "missing"),
    ],
)
def test_every_card_error_names_the_field_in_plain_words(
    tmp_path: Path, old: str, new: str, field: str, words: str
) -> None:
    """Issue 12 point 8: each error names the file, the card and the field, without pydantic's wording."""
    path = _variant(tmp_path, old, new)
    with pytest.raises(CardDataError, match=words) as info:
        cardarena.load("torabato", cards=str(path))
    assert info.value.field == field and info.value.card is not None and str(path) in str(info.value)
    assert "Value error" not in str(info.value) and "Input should" not in str(info.value)


def test_an_unknown_top_level_key_is_refused(tmp_path: Path) -> None:
    """Issue 12 point 8: like the other games, a key other than [[cards]] is a mistake, not ignored."""
    path = tmp_path / "cards.toml"
    path.write_text('colour = "red"\n' + DEFAULT_CARDS.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(CardDataError, match="unknown top-level key 'colour'") as info:
        cardarena.load("torabato", cards=str(path))
    assert info.value.field == "colour"
    path.write_text("[[card]]\nrank = 1\n", encoding="utf-8")
    with pytest.raises(CardDataError, match="unknown top-level key 'card'"):
        cardarena.load("torabato", cards=str(path))
    path.write_text("", encoding="utf-8")
    with pytest.raises(CardDataError, match=r"\[\[cards\]\]") as info:
        cardarena.load("torabato", cards=str(path))
    assert info.value.field == "cards"


def test_missing_or_malformed_card_files(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="file not found"):
        cardarena.load("torabato", cards=str(tmp_path / "nope.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("[[cards]\n", encoding="utf-8")
    with pytest.raises(CardDataError, match="not valid TOML"):
        cardarena.load("torabato", cards=str(bad))
    short = _variant(tmp_path, 'rank = "Joker"', 'rank = "K"')
    with pytest.raises(CardDataError, match="twice"):
        cardarena.load("torabato", cards=str(short))


def test_unknown_option_lists_the_valid_ones() -> None:
    with pytest.raises(OptionError, match="valid options: cards, lasting_boosts, max_turns, recovery_priority"):
        cardarena.load("torabato", speed=3)
    assert cardarena.load("torabato", max_turns="12").options["max_turns"] == 12


@given(st.integers(min_value=0, max_value=acts.NUM_DISTINCT_ACTIONS - 1))
def test_every_action_index_round_trips_through_text(index: int) -> None:
    action = acts.action_from_index(index)
    assert acts.action_index(action) == index
    assert acts.parse(str(action)) == action
    assert acts.parse(str(action).lower()) == action


@given(st.text(max_size=25))
def test_junk_text_is_refused_with_invalid_action_error(text: str) -> None:
    try:
        action = acts.parse(text)
    except InvalidActionError:
        return
    assert acts.parse(str(action)) == action


@pytest.mark.parametrize("text", ["", "play", "play ZZ", "play 2S QH", "block QH", "fly", "pass now", "use 2S @"])
def test_malformed_texts(text: str) -> None:
    with pytest.raises(InvalidActionError):
        acts.parse(text)


def test_card_names() -> None:
    assert NAMES[0] == "AS" and NAMES[13] == "AC" and NAMES[26] == "JK0" and NAMES[27] == "AH"
    assert NAMES[53] == "JK1" and NAMES[cid("10d")] == "10D"


def test_observation_hides_hands_mana_and_deck_order() -> None:
    s = position(hands=(["AS", "2S"], ["AH"]), mana=(["9S"], ["9H"]))
    obs = s.observation(1)
    mine, theirs = obs["players"][1], obs["players"][0]
    assert mine["hand"] == ["AH"] and "hand" not in theirs and theirs["hand_size"] == 2
    assert "mana" not in theirs and theirs["mana_count"] == 1
    text = repr(obs)
    for hidden in ("AS", "2S", "9S"):
        assert f"'{hidden}'" not in text
    spectator = s.observation(None)
    assert all("hand" not in p for p in spectator["players"])


def test_resample_keeps_known_cards_and_redraws_the_rest() -> None:
    s = position(field=(["AS"], []), mana=(["2S", "3S", "4S", "5S", "6S"], []), discard=(["KS"], []))
    do(s, "use AS", "pass", "pass")
    assert s.known[0] == [cid("KS")]
    worlds = [s.resample(1, Rng(k)) for k in range(20)]
    assert all(cid("KS") in w.hand[0] + w.mana[0] for w in worlds)
    assert len({tuple(w.mana[0]) for w in worlds}) > 1  # the unknown mana cards are redrawn
    assert all(w.observation(1) == s.observation(1) for w in worlds)


def test_resample_keeps_a_card_taken_back_to_hand_out_of_the_mana() -> None:
    """A card returned from the discard pile is known to be in hand until its owner sets mana again."""
    s = position(hands=(["KS"], []), mana=(["3S", "4S", "5S", "6S", "7S", "8S"], []), discard=(["2S", "JS"], []))
    do(s, "recur 2S", "pass", "pass", "recur JS", "pass", "pass")
    assert s.observation(1)["players"][0]["known_in_hand"] == ["2S", "JS"]
    for k in range(40):
        world = s.resample(1, Rng(k))
        assert {cid("2S"), cid("JS")} <= set(world.hand[0]), k
        assert world.observation(1) == s.observation(1)


def test_resample_puts_at_most_one_known_card_into_one_new_mana_card() -> None:
    """One mana set after both returned: at most one of the two can be among the mana cards, either one."""
    s = position(hands=(["KS"], []), mana=(["3S", "4S", "5S", "6S", "7S", "8S"], []), discard=(["2S", "JS"], []))
    do(s, "recur 2S", "pass", "pass", "recur JS", "pass", "pass", "mana JS")
    assert s.observation(1)["players"][0]["known_in_hand"] == []
    seen = set()
    for k in range(60):
        world = s.resample(1, Rng(k))
        in_mana = {c for c in (cid("2S"), cid("JS")) if c in world.mana[0]}
        assert len(in_mana) <= 1, k
        seen.add(frozenset(in_mana))
        assert world.observation(1) == s.observation(1)
    assert seen == {frozenset(), frozenset({cid("2S")}), frozenset({cid("JS")})}


def test_resample_after_9_returns_a_mana_card() -> None:
    """9 takes back a mana card the opponent cannot see: a known card set as mana may be back in hand."""
    s = position(hands=(["KS", "9S"], []), mana=(["3S", "4S"], []), discard=(["2S"], []))
    s.edit(pool=[3, 0])
    do(s, "recur 2S", "pass", "pass", "mana 2S", "play 9S", "pass", "pass", "choose 2S")
    assert names(s.hand[0]) == ["KS", "2S"] and len(s.mana[0]) == 2
    places = set()
    for k in range(60):
        world = s.resample(1, Rng(k))
        places.add("mana" if cid("2S") in world.mana[0] else "hand")
        assert world.observation(1) == s.observation(1)
    assert places == {"mana", "hand"}


def test_a_known_card_played_is_no_longer_known() -> None:
    s = position(hands=(["KS"], []), mana=(["3S", "4S", "5S", "6S"], []), discard=(["2S"], []))
    do(s, "recur 2S", "pass", "pass", "play 2S @opp")
    assert s.known[0] == [] and s.placements[0] == (0,)
    assert s.observation(1)["players"][0]["known_in_hand_or_mana"] == []


def test_resample_puts_a_known_card_among_the_mana_when_the_hand_cannot_hold_both() -> None:
    """Two known cards, one card in hand, one mana card set since: exactly one of them is a mana card."""
    s = position(mana=(["3S", "4S", "5S", "6S", "7S", "8S"], []), discard=(["2S", "JS"], []))
    do(s, "recur 2S", "pass", "pass", "recur JS", "pass", "pass", "mana 2S")
    assert names(s.hand[0]) == ["JS"]
    seen = set()
    for k in range(40):
        world = s.resample(1, Rng(k))
        (in_hand,) = world.hand[0]
        assert in_hand in (cid("2S"), cid("JS"))
        assert ({cid("2S"), cid("JS")} - {in_hand}) <= set(world.mana[0])
        seen.add(in_hand)
    assert seen == {cid("2S"), cid("JS")}


def test_resample_redraws_a_reveal_not_yet_shown() -> None:
    """先攻後攻 (同時に場に出し): seat 1 cannot know seat 0's committed card; a tie's shown cards stay in hand."""
    s = cardarena.load("torabato").new_initial_state(0)
    hands = [[cid(n) for n in hand] for hand in (["7S", "KS", "3S", "4S", "5S"], ["7H", "2H", "3H", "4H", "5H"])]
    s.edit(deck=[[c for c in s.deck[seat] + s.hand[seat] if c not in hands[seat]] for seat in (0, 1)], hand=hands)
    do(s, "reveal 7S", "reveal 7H", "reveal KS")
    committed = set()
    for k in range(40):
        world = s.resample(1, Rng(k))
        assert world.observation(1) == s.observation(1)
        assert cid("7S") in world.hand[0] and world.reveals[0][0] == cid("7S")
        assert world.reveals[0][1] in world.hand[0] and world.reveals[0][1] != cid("7S")
        committed.add(world.reveals[0][1])
    assert len(committed) > 3


def test_a_variant_mana_spell_on_the_stack_gains_mana_when_it_resolves(tmp_path: Path) -> None:
    """A designer's 5 without 'instant_off_stack' uses the stack like other spells, and still gains mana."""
    path = _variant(tmp_path, 'timing = "instant_off_stack"\n', "")
    s = position(hands=(["5S"], []), mana=(["2S", "3S"], []), cards=str(path))
    assert "off the stack" not in s.game.describe_action(s, s.game.parse_action(s, "play 5S"))
    do(s, "play 5S")
    assert names([item[1] for item in s.stack]) == ["5S"] and s.available_mana(0) == 0
    do(s, "pass", "pass")
    assert s.pool[0] == 4 and names(s.discard[0]) == ["5S"]


def test_a_variant_draw_spell_usable_on_either_turn_takes_no_target(tmp_path: Path) -> None:
    """A designer's 6 without 相手ターンで使用不可 (timing "any"): cast on the opponent's turn, with no target."""
    path = _variant(tmp_path, 'timing = "own"\neffect = "draw"', 'effect = "draw"')
    s = position(active=1, hands=(["6S"], []), field=([], ["JH"]), mana=(["2S", "3S", "4S"], []), cards=str(path))
    do(s, "pass")
    assert [t for t in texts(s) if t.startswith("play 6S")] == ["play 6S"]
    do(s, "play 6S", "pass", "pass")
    assert len(s.hand[0]) == 2 and names(s.discard[0]) == ["6S"]


def test_a_variant_instant_damage_spell_hits_at_once(tmp_path: Path) -> None:
    """'instant_off_stack' on another spell: its own effect happens at once (not 5's mana)."""
    path = _variant(tmp_path, 'rank = "2"\nvalue = 2\n', 'rank = "2"\nvalue = 2\ntiming = "instant_off_stack"\n')
    s = position(hands=(["2S", "2C"], []), field=([], ["JH"]), mana=(["3S", "4S"], []), cards=str(path))
    deck = len(s.deck[1])
    assert "1 damage to the opponent" in s.game.describe_action(s, s.game.parse_action(s, "play 2S @opp"))
    assert "off the stack" in s.game.describe_action(s, s.game.parse_action(s, "play 2S @opp"))
    do(s, "play 2S @opp")
    assert s.stack == [] and len(s.deck[1]) == deck - 1 and s.pool[0] == 0 and s.priority == 0
    do(s, "play 2C @JH")
    assert s.field[1] == [] and names(s.discard[0]) == ["2S", "2C"]


@pytest.mark.parametrize(
    ("old", "new", "card", "field"),
    [
        ("ability_cost = 2\nhealth_boost = 1", "ability_cost = 0\nhealth_boost = 1", "10", "ability_cost"),
        ("ability_cost = 5", "ability_cost = 0", "A", "ability_cost"),
        ('recur_cost = 3\n\n[[cards]]\nrank = "3"', 'recur_cost = 0\n\n[[cards]]\nrank = "3"', "2", "recur_cost"),
        ("amount = 4", "amount = 7", "5", "amount"),
    ],
)
def test_a_card_list_that_could_loop_for_ever_is_refused(
    tmp_path: Path, old: str, new: str, card: str, field: str | None
) -> None:
    """Games never hang: free repeatable abilities and mana spells that pay for their own return are refused."""
    path = _variant(tmp_path, old, new)
    with pytest.raises(CardDataError, match=r"for ever|again and again|at least 1") as info:
        cardarena.load("torabato", cards=str(path))
    assert info.value.card == card
    if field is not None:
        assert info.value.field == field


def test_resample_knows_a_known_card_went_to_mana_when_the_unknown_ones_were_played() -> None:
    """Hand JS (known) + two unseen cards; one card set as mana, then both unseen cards played: JS is the mana card."""
    s = position(hands=(["2S", "2C"], []), mana=(["3S", "4S", "5S", "6S", "8S"], []), discard=(["JS"], []))
    do(s, "recur JS", "pass", "pass", "mana JS", "play 2S @opp", "pass", "pass", "play 2C @opp", "pass", "pass")
    pass_until(s, lambda st: st.turn_no == 7 and st.phase == MAIN)
    assert len(s.hand[0]) == 1 and cid("JS") in s.mana[0]  # the drawn card is in hand
    assert s.observation(1)["players"][0]["known_in_mana"] == ["JS"]
    for k in range(30):
        world = s.resample(1, Rng(k))
        assert cid("JS") in world.mana[0], k
        assert world.observation(1) == s.observation(1)


def test_too_many_placements_fall_back_to_hand_or_mana(monkeypatch: pytest.MonkeyPatch) -> None:
    """A safety net: past MAX_PLACEMENTS the known cards are only kept among hand and mana, until none is known."""
    monkeypatch.setattr(knowledge, "MAX_PLACEMENTS", 1)
    s = position(hands=(["KS"], []), mana=(["3S", "4S", "5S", "6S", "7S", "8S"], []), discard=(["2S", "JS"], []))
    do(s, "recur 2S", "pass", "pass", "recur JS", "pass", "pass", "mana KS")
    assert s.placements[0] == knowledge.LOOSE
    assert s.observation(1)["players"][0]["known_in_hand"] == []
    for k in range(20):
        world = s.resample(1, Rng(k))
        assert {cid("2S"), cid("JS")} <= set(world.hand[0] + world.mana[0])
        assert world.observation(1) == s.observation(1)
    s.edit(pool=[2, s.pool[1]])
    do(s, "play 2S @opp", "pass", "pass", "play JS")
    assert s.known[0] == [] and s.placements[0] == (0,)
