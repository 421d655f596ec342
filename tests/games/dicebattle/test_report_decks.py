"""The balance report's Dice Battle hooks (report_decks.py, issue 29): the decks each report game deals
(``report_setup``: starters, one-card swaps and random legal decks, in both seats), the deck specs they use
(``horde-goblin+ember_imp``, ``cards:...``), each card's data for "what changed" (``entry_data``), and the
catalogue's labels in words (no ``{n}`` left)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from cardarena.engine import CardDataError, load
from cardarena.games.dicebattle import report_decks
from cardarena.games.dicebattle.cards import STARTERS
from cardarena.games.dicebattle.game import DiceBattleGame

POOL = Path(__file__).parents[3] / "src" / "cardarena" / "games" / "dicebattle" / "data" / "cards.toml"


def game(**options: str) -> DiceBattleGame:
    g = load("dicebattle", **options)
    assert isinstance(g, DiceBattleGame)
    return g


def ids(g: DiceBattleGame, seat: int) -> Counter[str]:
    return Counter(g.tables.cards[i].id for i in g.decks[seat].cards)


def test_a_swapped_starter_replaces_every_copy_of_one_card_and_is_checked_like_a_deck_file() -> None:
    # Decks: exactly 30 cards, at most 2 copies of a card (RULINGS, dicebattle)
    horde = ids(game(), 0)
    swapped = ids(game(deck0="horde-goblin+street_urchin"), 0)
    assert swapped["goblin"] == 0 and swapped["street_urchin"] == horde["goblin"] == 2
    assert swapped - Counter(street_urchin=2) == horde - Counter(goblin=2)
    chained = ids(game(deck0="horde-goblin+street_urchin-slime+herbalist"), 0)
    assert chained["slime"] == 0 and chained["herbalist"] == 2 and sum(chained.values()) == 30
    with pytest.raises(CardDataError, match="4 copies of 'Slime'; a deck may hold at most 2"):
        game(deck0="horde-goblin+slime")
    with pytest.raises(CardDataError, match="the deck has no 'archmage' to swap"):
        game(deck0="horde-archmage+slime")
    with pytest.raises(CardDataError, match="no card with this id"):
        game(deck0="horde-goblin+no_such_card")


def test_an_inline_deck_names_each_copy_and_must_be_legal() -> None:
    with pytest.raises(CardDataError, match="the deck has 5 cards; it must have exactly 30"):
        game(deck1="cards:slime,goblin,harpy,ogre,ogre")
    pool = [c.id for c in game().tables.cards]
    thirty = [c for c in pool[:15] for _ in range(2)]
    assert ids(game(deck1="cards:" + ",".join(thirty)), 1) == Counter({c: 2 for c in pool[:15]})
    with pytest.raises(CardDataError, match="3 copies"):
        game(deck1="cards:" + ",".join([*thirty[:-1], pool[0]]))


def test_report_games_deal_starters_swaps_and_random_decks_to_both_seats_and_every_deck_is_legal() -> None:
    g = game()
    starters, swaps = g.report_population()
    assert [s for s, _ in starters] == list(STARTERS)
    assert len(swaps) == report_decks.SWAPS * len(STARTERS)
    assert all(", " in label and " swapped for " in label for _, label in swaps)  # "horde, Goblin swapped for Imp"
    kinds: list[Counter[str]] = [Counter(), Counter()]
    goblin: list[Counter[bool]] = [Counter(), Counter()]
    for seed in range(150):
        setup = g.report_setup(seed)
        assert setup is not None and setup.kind == "deck" and len(setup.seats) == 2
        assert setup == g.report_setup(seed)  # the same seed, the same decks (every variant of a report)
        played = load("dicebattle", **dict(setup.options))  # every deck dealt is legal: it loads
        assert isinstance(played, DiceBattleGame)
        for seat, label in enumerate(setup.seats):
            kinds[seat][
                "starter" if label in STARTERS else "random" if label == report_decks.RANDOM_LABEL else "swap"
            ] += 1
            goblin[seat][ids(played, seat)["goblin"] > 0] += 1
    for seat in (0, 1):
        assert min(kinds[seat].values()) > 30, kinds  # each kind of deck in each seat
        assert goblin[seat][True] > 30 and goblin[seat][False] > 30  # a card in some decks and not others


def test_the_decks_dealt_depend_on_the_pools_card_ids_not_on_their_numbers(tmp_path: Path) -> None:
    changed = tmp_path / "cards.toml"
    changed.write_text(POOL.read_text(encoding="utf-8").replace("level = 6", "level = 5"), encoding="utf-8")
    a, b = game(), game(cards=str(changed))
    assert a.entry_data() != b.entry_data()
    assert [a.report_setup(s) for s in range(20)] == [b.report_setup(s) for s in range(20)]


def test_named_decks_are_played_as_named() -> None:
    assert game(deck0="vanguard").report_setup(1) is None
    assert game(deck1="horde").report_setup(1) is None


def test_editing_one_number_changes_exactly_that_entrys_data(tmp_path: Path) -> None:
    text = POOL.read_text(encoding="utf-8")
    base = game().entry_data()
    catalogue = {(d.kind, d.name) for d in game().involvement_catalogue()}
    assert set(base) <= catalogue and ("card", "goblin") in base and ("grant", "herbalist") in base
    assert len(set(base.values())) == len(base)  # no two entries read alike
    edits = {
        ("card", "goblin"): ('when = "monsters_ge 3", do = ["power 1"]', 'when = "monsters_ge 3", do = ["power 2"]'),
        ("grant", "herbalist"): (
            'grant = { level = 1, type = "choice", do = ["draw 1"] }',
            'grant = { level = 1, type = "choice", do = ["draw 2"] }',
        ),
    }
    for key, (old, new) in edits.items():
        assert text.count(old) == 1
        edited = tmp_path / f"{key[1]}.toml"
        edited.write_text(text.replace(old, new), encoding="utf-8")
        data = game(cards=str(edited)).entry_data()
        assert [k for k in base if base[k] != data[k]] == [key]


def test_catalogue_labels_are_words_without_placeholders() -> None:
    labels = [d.label for d in game().involvement_catalogue()]
    assert not [label for label in labels if "{" in label or "}" in label]
    assert "star: gain N star(s)" in labels and "power: your main unit gets +N level" in labels
