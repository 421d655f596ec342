"""The card file: shipped content, validation with plain messages, and property tests of the parsers."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardarena
from cardarena.engine import CardDataError, InvalidActionError, OptionError
from cardarena.games.tashkalar.actions import parse
from cardarena.games.tashkalar.board import NAME_SQ
from cardarena.games.tashkalar.cards import build_cards, default_path, load_cards, parse_pattern

KEYWORDS = {
    "gain action",
    "draw extra",
    "standard move",
    "combat move",
    "standard leap",
    "combat leap",
    "upgrade",
    "downgrade",
    "destroy",
    "convert",
    "place",
    "marked squares",
    "distance",
    "adjacency",
}


def raw_default() -> dict:
    return tomllib.loads(Path(default_path()).read_text(encoding="utf-8"))


def test_shipped_content_sizes() -> None:
    """Content: three schools of 18 beings, a legend deck of 12 and 12 flares."""
    cs = load_cards()
    assert len(cs.schools) >= 3
    for school in cs.schools.values():
        assert len(school.cards) == 18
        ranks = {cs.cards[c].rank for c in school.cards}
        assert ranks == {1, 2}
    assert len(cs.legends) == 12 and all(cs.cards[c].rank == 3 for c in cs.legends)
    assert len(cs.flares) == 12
    for c in cs.flares:
        card = cs.cards[c]
        assert 2 <= card.upper <= 6 and 2 <= card.lower <= 6


def test_every_keyword_is_used_by_at_least_two_cards() -> None:
    cs = load_cards()
    for kw in sorted(KEYWORDS):
        users = [c.id for c in cs.cards if kw in c.keywords]
        assert len(users) >= 2, f"keyword {kw!r} is used by {users}"


def test_every_card_has_text_and_a_pattern() -> None:
    cs = load_cards()
    for c in cs.cards:
        assert c.text and "None" not in c.text
        if c.kind != "flare":
            assert c.pattern and c.orients


def _broken(mutate) -> CardDataError:
    raw = raw_default()
    mutate(raw)
    with pytest.raises(CardDataError) as e:
        build_cards(raw, file="cards.toml")
    return e.value


def test_errors_name_the_file_the_card_and_the_field() -> None:
    e = _broken(lambda r: r["school"][0]["being"][0].update(pattern="c c"))
    assert e.card == "cinder-imp" and e.field == "pattern" and "summon square" in str(e)
    assert str(e).startswith("cards.toml (card 'cinder-imp', field 'pattern')")
    e = _broken(lambda r: r["school"][0]["being"][1].update(pattern="c x\n. @"))
    assert "unknown pattern square 'x'" in str(e)
    e = _broken(lambda r: r["school"][0]["being"][1].update(rank="mighty"))
    assert e.card == "ash-hound" and e.field == "rank"
    e = _broken(lambda r: r["school"][0]["being"][2]["effect"][0].update(colour="red"))
    assert e.card == "spark-runner" and "colour" in (e.field or "")
    e = _broken(lambda r: r["school"][1]["being"].append(dict(r["school"][0]["being"][0])))
    assert e.card == "cinder-imp" and "two cards" in str(e)
    e = _broken(lambda r: r["school"][0]["being"][0]["effect"][0].update(on="marked"))
    assert "marked squares" in str(e)
    e = _broken(lambda r: r["flare"][0]["upper_effect"][0].update({"from": "self"}))
    assert e.card == "rally-cry" and "flare has no piece" in str(e)
    e = _broken(lambda r: r["school"][0]["being"][0]["effect"][0].update(count=0))
    assert e.field == "effect.0.count" and 'must be a whole number 1..69 or "all", not 0' in str(e)
    e = _broken(lambda r: r["school"][0]["being"][0].update(id="Bad Name"))
    assert "lowercase" in str(e)
    e = _broken(lambda r: r["legend"][0].update(rank="heroic"))
    assert "legendary" in str(e)
    e = _broken(lambda r: r["school"][0]["being"][1]["effect"][0].pop("style"))
    assert "style" in str(e)


@pytest.mark.parametrize(
    "index, rank, square", [(0, "common", "H"), (0, "common", "L"), (1, "heroic", "L")], ids=["cH", "cL", "hL"]
)
def test_a_being_whose_summon_square_needs_a_higher_piece_is_refused(index: int, rank: str, square: str) -> None:
    """配置するユニットよりランク高いユニットがあった場合…召喚することはできない: such a card is never summonable."""
    e = _broken(lambda r: r["school"][0]["being"][index].update(rank=rank, pattern=f"c {square}"))
    card = raw_default()["school"][0]["being"][index]["id"]
    assert e.card == card and e.field == "pattern" and "never be summoned" in str(e)
    legend = raw_default()["legend"][0]
    build_cards(
        dict(raw_default(), legend=[dict(legend, pattern="h L"), *raw_default()["legend"][1:]]), file="cards.toml"
    )  # a legend on your legendary piece is fine (equal rank)


def test_bad_files(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="file not found"):
        load_cards(str(tmp_path / "missing.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("[[school]\n", encoding="utf-8")
    with pytest.raises(CardDataError, match="not valid TOML"):
        load_cards(str(bad))
    bad.write_text("[[flare]]\nid = 'x'\n", encoding="utf-8")
    with pytest.raises(CardDataError, match="school"):
        load_cards(str(bad))


def test_a_user_card_file_through_the_cards_option(tmp_path: Path) -> None:
    text = Path(default_path()).read_text(encoding="utf-8").replace('name = "Cinder Imp"', 'name = "Cinder Pup"')
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    g = cardarena.load("tashkalar", cards=str(path))
    assert g.cards.by_id["cinder-imp"].name == "Cinder Pup"
    with pytest.raises(CardDataError):
        cardarena.load("tashkalar", cards=str(tmp_path / "nope.toml"))


def test_rules_text_lists_cards_and_options() -> None:
    text = cardarena.load("tashkalar").rules_text()
    assert "cinder-imp" in text and "max_turns" in text and "c . c" in text


# -- property tests ---------------------------------------------------------------------------------------------

GAME = cardarena.load("tashkalar")


@given(st.text(max_size=40))
def test_parse_never_fails_with_anything_but_invalid_action(text: str) -> None:
    try:
        action = parse(GAME.cards, text)
    except InvalidActionError:
        return
    assert parse(GAME.cards, str(action)) == action


@settings(max_examples=300)
@given(st.integers(min_value=0, max_value=GAME.num_distinct_actions - 1))
def test_every_encoded_action_round_trips(index: int) -> None:
    action = GAME.action_from_index(index)
    assert GAME.action_index(action) == index
    squares = [w for w in str(action).split()[1:] if len(w) == 2 and w[0] in "abcdefghi" and w[1].isdigit()]
    if all(s in NAME_SQ for s in squares):
        assert GAME.parse_action(None, str(action)) == action  # type: ignore[arg-type]
    else:
        with pytest.raises(InvalidActionError, match="not a square"):
            GAME.parse_action(None, str(action))  # type: ignore[arg-type]


@given(
    st.lists(
        st.lists(st.sampled_from([".", "c", "h", "l", "@", "*", "C", "x"]), min_size=1, max_size=4),
        min_size=1,
        max_size=4,
    )
)
def test_pattern_parser_accepts_or_explains(rows: list[list[str]]) -> None:
    text = "\n".join(" ".join(r) for r in rows)
    try:
        grid, orients = parse_pattern(text, file="f", card="c")
        assert len(grid) == len(rows)
    except CardDataError as e:
        assert e.card == "c" and e.field == "pattern"
        return
    assert 1 <= len(orients) <= 8
    assert len({len(o.reqs) for o in orients}) == 1
    assert len({(frozenset(o.reqs), frozenset(o.marked)) for o in orients}) == len(orients)


MELEE = cardarena.load("tashkalar", mode="melee", players=4)
HIGHFORM = cardarena.load("tashkalar", mode="highform")


@settings(max_examples=300)
@given(st.integers(min_value=GAME.codec.base_handover, max_value=MELEE.num_distinct_actions - 1))
def test_part_two_encoded_actions_round_trip(index: int) -> None:
    for game in (MELEE, HIGHFORM):
        if index >= game.num_distinct_actions:
            continue
        action = game.action_from_index(index)
        assert game.action_index(action) == index
        squares = [w for w in str(action).split()[1:] if len(w) == 2 and w[0] in "abcdefghi" and w[1].isdigit()]
        if all(s in NAME_SQ for s in squares):
            assert game.parse_action(None, str(action)) == action  # type: ignore[arg-type]
        else:
            with pytest.raises(InvalidActionError, match="not a square"):
                game.parse_action(None, str(action))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "handover",
        "claim havoc",
        "score 2",
        "setup f2 3",
        "flare spark against 1",
        "summon elder-oak at e5 r90 using c3",
    ],
)
def test_part_two_action_texts_parse(text: str) -> None:
    from cardarena.games.tashkalar.actions import parse
    from cardarena.games.tashkalar.cards import load_tasks

    cards = GAME.cards
    if "spark" in text:
        text = text.replace("spark", GAME.cards.cards[GAME.cards.flares[0]].id)
    if "elder-oak" in text:
        text = text.replace("elder-oak", GAME.cards.cards[0].id)
    assert str(parse(cards, text, load_tasks())) == text


@pytest.mark.parametrize(
    "text, why",
    [
        ("claim nothing", "no High Form task"),
        ("score 7", "not a seat"),
        ("setup f2", "setup <square> <seat>"),
        ("flare x against", "expected"),
        ("flare x against 1", "no card"),
        ("summon x at e5 r0 using", "expected"),
    ],
)
def test_part_two_bad_texts_are_refused(text: str, why: str) -> None:
    from cardarena.games.tashkalar.actions import parse

    with pytest.raises(InvalidActionError, match=why):
        parse(GAME.cards, text, HIGHFORM.tasks)


def test_rules_text_lists_the_tasks() -> None:
    assert "havoc" in GAME.rules_text() and "High Form tasks" in GAME.rules_text()


def test_bad_file_options_are_refused_at_load(tmp_path: Path) -> None:
    """A task file given in any mode is read when the game is made; an empty path is refused."""
    for mode in ("deathmatch", "highform"):
        with pytest.raises(CardDataError, match="file not found"):
            cardarena.load("tashkalar", mode=mode, tasks=str(tmp_path / "t.toml"))
    for key in ("cards", "tasks"):
        with pytest.raises(OptionError, match=f"option '{key}' is empty"):
            cardarena.load("tashkalar", **{key: ""})


def test_a_school_for_a_seat_the_game_does_not_have_is_refused() -> None:
    with pytest.raises(OptionError, match="no seat 2"):
        cardarena.load("tashkalar", school2="grove")
    with pytest.raises(OptionError, match="no seat 3"):
        cardarena.load("tashkalar", mode="melee", players=3, school3="grove")
    assert cardarena.load("tashkalar", mode="melee", players=3, school2="grove").options["school2"] == "grove"
    assert cardarena.load("tashkalar", school2="random").num_players == 2  # the default is always accepted


def test_an_edited_card_file_is_read_again(tmp_path: Path) -> None:
    """Card and task files are cached by content, not by path: an edited (even broken) file is read again."""
    path = tmp_path / "cards.toml"
    text = Path(default_path()).read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    first = cardarena.load("tashkalar", cards=str(path))
    assert cardarena.load("tashkalar", cards=str(path)).cards is first.cards  # same content: built once
    path.write_text(text.replace('name = "Ember Covenant"', 'name = "Ember Cabal"', 1), encoding="utf-8")
    assert cardarena.load("tashkalar", cards=str(path)).cards.schools["ember"].name == "Ember Cabal"
    path.write_text(text + "\n[[oops", encoding="utf-8")
    with pytest.raises(CardDataError, match="not valid TOML"):
        cardarena.load("tashkalar", cards=str(path))


def test_rules_that_are_not_a_table_are_explained() -> None:
    raw = tomllib.loads(Path(default_path()).read_text(encoding="utf-8"))
    raw["rules"] = "x"
    with pytest.raises(CardDataError) as err:
        build_cards(raw, file="cards.toml")
    assert "rules is a table of numbers" in str(err.value) and "dictionary" not in str(err.value)
