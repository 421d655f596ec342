"""The terminal's hooks (issue 13): choice_label groups, board panels and narrate lines, and that none of them
shows a card the seat may not see."""

from __future__ import annotations

import re
from pathlib import Path

import cardarena
from cardarena.engine import Rng
from cardarena.games.laplaplace.state import LaplaplaceState

from .helpers import force

BUILDS = Path(cardarena.__file__).parent / "games" / "laplaplace" / "data" / "builds"
CATEGORY_GROUPS = {"core cards", "damage cards", "disruption cards", "defence cards", "support cards"}


def new(seed: int = 0, **options: str) -> LaplaplaceState:
    state = cardarena.load("laplaplace", **options).new_initial_state(seed)
    assert isinstance(state, LaplaplaceState)
    return state


def play(state: LaplaplaceState, *texts: str) -> None:
    for t in texts:
        state.apply(t)


def lines_of(state: LaplaplaceState, seat: int | None) -> list[str]:
    return [line for p in state.game.board(state, seat) for line in (p.title, *p.lines)]


# -- names a seat may see ------------------------------------------------------------------------------------------
NAME = {c.name: re.compile(rf"\b{re.escape(c.name)}\b") for c in cardarena.load("laplaplace").table.cards}  # type: ignore[attr-defined]


def visible_names(state: LaplaplaceState, seat: int | None) -> set[str]:
    """The card names ``observation(seat)`` shows (every name once the battle is over: it is public)."""
    obs = state.observation(seat)
    table = state.game.table
    if "result" in obs:
        return set(NAME)
    ids = [c for view in obs["seats"] for key in ("build", "open") for c in (view.get(key) or [])]
    return {table.cards[table.find(c).index].name for c in ids}  # type: ignore[union-attr]


def named(lines: list[str]) -> set[str]:
    return {name for name, rx in NAME.items() if any(rx.search(line) for line in lines)}


# -- choice_label ----------------------------------------------------------------------------------------------------
def test_choice_label_groups_by_category_and_done_alone() -> None:
    s = new()
    game = s.game
    labels = [game.choice_label(s, a) for a in s.legal_actions()]
    assert len(s.legal_actions()) == 28
    assert {g for g, _ in labels} == CATEGORY_GROUPS | {"done"}
    assert game.choice_label(s, game.parse_action(s, "done")) == ("done", "")
    group, detail = game.choice_label(s, game.parse_action(s, "add lance"))
    assert group == "damage cards"
    assert detail == "Lance [6, force 11, damage] <A><Top> Deal 4 damage to the enemy."
    # every detail is unique within its group and starts with the card's name
    for g in CATEGORY_GROUPS:
        details = [d for gg, d in labels if gg == g]
        assert len(details) == len(set(details)) >= 1
    for a, (_, d) in zip(s.legal_actions()[:-1], labels[:-1], strict=True):
        card = game.card_of(a)  # type: ignore[attr-defined]
        assert d.startswith(card.name + " [")


def test_no_decision_lists_more_than_20_groups() -> None:
    """Before: 28 actions at every blind decision (27 cards and done); after: 6 groups at most, in every scene."""
    for options in ({}, {"build": "open"}):
        for seed in range(10):
            rng = Rng(seed)
            s = new(seed, **options)
            while not s.is_terminal():
                legal = s.legal_actions()
                groups = {s.game.choice_label(s, a)[0] for a in legal}
                assert len(groups) <= 6
                s.apply(legal[rng.randbelow(len(legal))])


# -- board -----------------------------------------------------------------------------------------------------------
def test_board_shows_own_build_and_the_other_as_a_back() -> None:
    s = new(4)
    play(s, "add lance", "add jab", "done", "add shield")
    panels = s.game.board(s, 1)
    assert [p.title for p in panels] == ["Build of you (P1), top first", "Build of P0, top first", "Now"]
    mine, theirs, now = panels
    assert mine.seat == 1 and theirs.seat == 0
    assert mine.lines[0].startswith("1. Shield [9, force 17, defence] <E: enemy ability damages you>")
    assert mine.lines[-1] == "1/8 places, base HP 17"
    assert theirs.lines == (
        "[?] hidden: its cards and their number are shown when both builds are complete",
        "build complete",
    )
    assert now.lines == ("Your turn: add the card for place 2 of 8 (top first), or 'done' to stop here",)
    assert named(lines_of(s, 1)) == {"Shield"}
    assert named(lines_of(s, 0)) == {"Lance", "Jab"}
    assert named(lines_of(s, None)) == set()


def test_board_after_the_battle_shows_both_builds_and_the_result() -> None:
    s = new(4)
    play(s, "add lance", "add jab", "done", "add shield", "done")
    _, theirs, now = s.game.board(s, 1)
    assert theirs.lines[:2] == (
        "1. Lance [6, force 11, damage] <A><Top> Deal 4 damage to the enemy.",
        "2. Jab [7, force 0, damage] <A> Deal 2 damage to the enemy.",
    )
    assert now.lines[0].startswith("Battle over after ")
    assert now.lines[1] == s.outcome.reason  # type: ignore[union-attr]
    text = s.render(1)
    assert text.startswith("Laplaplace — scene blind, you are P1")
    assert "Battle log:" in text and s.log[-1] in text
    assert text.index("Battle summary:\n" + "\n".join(s.summary)) < text.index("Battle log:")


def test_board_open_scene_hides_the_other_open_cards_until_both_showed_4() -> None:
    s = new(2, build="open")
    play(s, "show lance", "show jab", "show rally", "show shield", "show blank")
    (open_panel,) = [p for p in s.game.board(s, 0) if p.title == "Open cards"]
    assert open_panel.lines == ("you (P0): Lance, Jab, Rally, Shield", "P1: [?] hidden until both have shown 4")
    play(s, "show blank", "show blank", "show nullify")
    (open_panel,) = [p for p in s.game.board(s, 0) if p.title == "Open cards"]
    assert open_panel.lines == ("you (P0): Lance, Jab, Rally, Shield", "P1: Blank, Blank, Blank, Nullify")


# -- narrate ---------------------------------------------------------------------------------------------------------
def narrate(s: LaplaplaceState, text: str, seat: int | None) -> list[str]:
    before = s.clone()
    action = s.game.parse_action(s, text)
    s.apply(action)
    return s.game.narrate(before, action, s, seat)


def test_narrate_own_picks_in_full_and_the_other_sees_nothing_but_the_end() -> None:
    s = new(4)
    probe = s.clone()
    assert narrate(probe, "add lance", 0) == [
        "add Lance [6, force 11, damage] <A><Top> Deal 4 damage to the enemy.",
        "your build so far (top first): Lance (1/8, base HP 11)",
    ]
    probe = s.clone()
    assert narrate(probe, "add lance", 1) == []  # not even that a card was added
    play(s, "add lance")
    assert narrate(s.clone(), "done", 1) == ["finishes its build"]
    assert narrate(s.clone(), "done", 0) == [
        "done: the build is complete",
        "your build complete (top first): Lance (1/8, base HP 11)",
    ]


def test_narrate_the_battle_summary_then_the_full_log() -> None:
    """The action that completes the second build reveals both builds; then one summary line per turn (who went
    first, what fired, damage, HP, key events), the result and why, then the full log line by line."""
    s = new(4)
    play(s, "add banish", "add stun", "add flurry", "done", "add decoy", "add reflector", "add blank", "add vengeance")
    lines = narrate(s, "done", 0)
    assert lines[0] == "done: the build is complete"
    assert lines[1] == "both builds are complete: they are revealed and the battle runs by itself"
    summary = [line.removeprefix("battle: ") for line in lines if line.startswith("battle: ")]
    assert summary == s.summary
    assert summary[0] == f"P0 reveals [Banish, Stun, Flurry]: base HP {force('banish', 'stun', 'flurry')}"
    assert summary[-1] == "Result: " + s.outcome.reason  # type: ignore[union-attr]
    turn1 = next(line for line in summary if line.startswith("Turn 1 "))
    assert "P1 Decoy ignores the effect" in turn1 and "fires Banish" in turn1
    k = lines.index(f"full battle log ({len(s.log)} lines):")
    assert lines[k + 1 :] == [f"| {line}" for line in s.log]


def test_summary_names_each_kind_of_key_event() -> None:
    """The summary's key events: removals, downs, ups, effects ignored, events negated, reflections, recoveries."""
    cases = {
        "removed": (["banish"], ["blank"]),
        "downed": (["stun"], ["blank"]),
        "upped": (["jab", "rally"], ["blank"]),
        "ignores the effect": (["stun"], ["decoy", "blank"]),
        "negates P1 Decoy": (["stun", "nullify"], ["decoy", "blank"]),
        "reflects 4 damage": (["lance", "blank"], ["reflector", "blank"]),
        "recovers to HP": (["second-wind", "strain"], ["jab"] * 7 + ["blank"]),
        "swapped down": (["jostle"], ["blank", "jab"]),
        "P1 Shield: damage 2 -> 0": (["jab", "blank"], ["shield", "blank"]),
    }
    for key, (top0, top1) in cases.items():
        s = new(1)
        play(s, *(f"add {c}" for c in top0))
        if len(top0) < 8:
            play(s, "done")
        play(s, *(f"add {c}" for c in top1))
        if len(top1) < 8:
            play(s, "done")
        assert any(key in line for line in s.summary if line.startswith("Turn")), (key, s.summary)


def test_narrate_open_scene_reveal() -> None:
    s = new(2, build="open")
    play(s, "show lance", "show jab", "show rally", "show shield", "show blank", "show blank", "show blank")
    assert narrate(s.clone(), "show nullify", 0) == [
        "show Nullify [A, force 10, support] <E: the enemy fires an Event triggered by your card's ability> Cancel "
        "that Event's effect.",
        "open cards revealed: P0 shows Lance, Jab, Rally, Shield",
        "open cards revealed: P1 shows Blank, Blank, Blank, Nullify",
    ]


def test_views_never_name_a_card_the_seat_cannot_see() -> None:
    """Over random games in every scene: board and narrate lines for each seat (and a spectator) name only cards
    that ``observation(seat)`` shows before or after the action; and narrate is the same from any resample of the
    state for the seat that acts (nothing hidden changes what it is told of its own action)."""
    for options in ({}, {"build": "open"}, {"build1": str(BUILDS / "knight.toml")}):
        for seed in range(8):
            rng = Rng(seed)
            s = new(seed, **options)
            while not s.is_terminal():
                legal = s.legal_actions()
                action = legal[rng.randbelow(len(legal))]
                after = s.clone()
                after.apply(action)
                for seat in (0, 1, None):
                    told = s.game.narrate(s, action, after, seat)
                    shown = visible_names(s, seat) | visible_names(after, seat)
                    assert named(told + lines_of(s, seat) + lines_of(after, seat)) <= shown, (str(action), seat)
                    other = s.observation(seat)["seats"][1 - seat] if seat is not None else None
                    if seat != s.current_player or after.observation(seat)["seats"][1 - seat] != other:
                        continue  # another seat's action, or a reveal: what they show depends on what was hidden
                    for k in range(3):
                        world = s.resample(seat, Rng(k))
                        if action not in world.legal_actions():
                            continue
                        world_after = world.clone()
                        world_after.apply(action)
                        if not world_after.is_terminal():
                            assert s.game.narrate(world, action, world_after, seat) == told
                            assert lines_of(world_after, seat) == lines_of(after, seat)
                s = after


def test_rules_start_with_how_to_play_and_list_cards_in_english_and_japanese() -> None:
    game = cardarena.load("laplaplace")
    text = game.rules_text()
    assert text.startswith("# Laplaplace (ラプラプラス)\n\n## How to play in the terminal\n")
    for word in (":help", ":board", ":quit", "hint", "odds", "no `:skip`"):
        assert word in text
    assert "- `lance` Lance [6, force 11, damage]: <A><Top> Deal 4 damage to the enemy." in text
    assert "    - 原文: <A><トップ> 敵に4点のダメージを与える。" in text
    # no pass in this game: the shell offers no :skip
    s = game.new_initial_state(0)
    assert not any(game.is_pass(a) for a in s.legal_actions())


def test_summary_shares_one_line_among_turns_that_went_alike() -> None:
    """The rules' example: turn 1 differs (Shield stops Jab's first hit, then stays down); turns 2-10 go alike."""
    s = new(0)
    play(s, "add jab", "add plating", "add blank", "done", "add lance", "add shield", "done")
    assert s.summary == [
        "P0 reveals [Jab, Plating, Blank]: base HP 30",
        "P1 reveals [Lance, Shield]: base HP 28",
        "P0 initial HP 30",
        "P1 initial HP 28",
        "Turn 1 (P0 first): P0 fires Jab and deals 0 damage; P1 fires Lance and deals 3 damage; "
        "P1 Shield: damage 2 -> 0; P0 Plating: damage 4 -> 3; P0 HP 30 -> 27, P1 HP 28 (unchanged)",
        "Turns 2-10 (P0 first), each turn: P0 fires Jab and deals 2 damage; P1 fires Lance and deals 3 damage; "
        "P0 Plating: damage 4 -> 3; P0 HP 27 -> 0, P1 HP 28 -> 10",
        "Result: P1 wins: P0 HP 0",
    ]
    assert s.game.rules_text().count("Turns 2-10 (P0 first), each turn") == 1  # the rules show this battle


# -- the card viewer (issue 28, part 4) --------------------------------------------------------------------------
def test_card_texts_give_every_card_its_text_and_its_notation_in_words() -> None:
    """``card_texts`` (the browser's card viewer) is keyed by card id, as observations and actions name cards,
    and tells each card's name, number, force, kind, English text and the rulebook's original, with every marker
    of the card explained."""
    game = cardarena.load("laplaplace")
    texts = game.card_texts()
    assert list(texts) == [c.id for c in game.table.cards]  # type: ignore[attr-defined]
    lance = texts["lance"]
    assert lance.name == "Lance" and lance.kind == "6 · force 11 · damage" and lance.cost is None
    assert lance.text == (
        "<A><Top> Deal 4 damage to the enemy.",
        "Rulebook (原文): <A><トップ> 敵に4点のダメージを与える。",
    )
    notes = " ".join(lance.notes)
    for words in ("Force 11", "base HP", "<A> action", "<Top>", "turns this card down", "up phase"):
        assert words in notes, words
    assert "[Downless]" not in notes and "<E: …>" not in notes  # only the card's own notation
    plating = " ".join(texts["plating"].notes)
    assert (
        "<E: …> event" in plating
        and "[Downless]: this card stays up" in plating
        and "turns this card down" not in plating
    )
    assert "[Remove]" in " ".join(texts["second-wind"].notes) and "<L: …> condition" in " ".join(
        texts["second-wind"].notes
    )
    assert "[Unblockable]" in " ".join(texts["pierce"].notes)
    assert "3 separate hits" in " ".join(texts["flurry"].notes)
    volley = texts["volley"]
    assert volley.text[:2] == (
        "<A> Deal 1 damage to the enemy 2 times.",
        "<Always> This card is not upped in the up phase.",
    )
    assert "<Always>" in " ".join(volley.notes) and "Not upped in the up phase" in " ".join(volley.notes)
    assert "<Build>: works once" in " ".join(texts["fortify"].notes)
    assert all(t.notes and t.text for t in texts.values())


def test_card_texts_of_a_designers_card_file_use_its_own_words(tmp_path: Path) -> None:
    """A card list without English texts shows the rulebook's text, and its markers as it writes them."""
    path = tmp_path / "cards.toml"
    path.write_text(
        '[[card]]\nid = "spike"\nname = "Spike"\nnumber = "K"\nforce = 7\ncategory = "damage"\n'
        'text = "<A><トップ> [除去] 敵に5点のダメージを与える。"\nabilities = ["<A><トップ> [除去] damage enemy 5"]\n',
        encoding="utf-8",
    )
    spike = cardarena.load("laplaplace", cards=str(path)).card_texts()["spike"]
    assert spike.name == "Spike" and spike.kind == "K · force 7 · damage"
    assert spike.text == ("<A><トップ> [除去] 敵に5点のダメージを与える。",)
    notes = " ".join(spike.notes)
    assert "<トップ>: fires only while" in notes and "[除去]: when it fires" in notes and "Force 7" in notes
