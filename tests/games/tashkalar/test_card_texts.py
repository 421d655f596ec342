"""``TashKalarGame.card_texts``: what the browser's card viewer shows of every being, legend, flare and task."""

from __future__ import annotations

import pytest

from cardarena.engine import load
from cardarena.games.tashkalar.render.cardtexts import pattern_words

from .helpers import being, flare, make_game


@pytest.mark.parametrize(
    "options", [{}, {"mode": "highform"}, {"mode": "melee", "players": 4}, {"teams": True, "players": 4}]
)
def test_every_card_and_task_of_the_files_in_use_has_its_text(options: dict[str, object]) -> None:
    game = load("tashkalar", **options)
    texts = game.card_texts()  # type: ignore[attr-defined]
    cards = game.cards.cards  # type: ignore[attr-defined]
    tasks = game.tasks.tasks if game.tasks is not None else ()  # type: ignore[attr-defined]
    # keyed by the ids the observation and the action texts use; tasks only where the mode has them
    assert set(texts) == {c.id for c in cards} | {t.id for t in tasks}
    for card in cards:
        info = texts[card.id]
        assert info.name == card.name
        assert info.text and all(line for line in info.text)
        if card.kind == "flare":
            assert info.kind.startswith("flare") and info.cost == "no action"
            assert any(str(card.upper) in n and str(card.lower) in n for n in info.notes)
        else:
            assert info.text[0] == card.text  # the effect in the card language's own words
            assert info.text[1].startswith("Pattern: the summon square")
            assert ("legend" in info.kind) == (card.kind == "legend")
            assert info.cost == "1 action"
            # the pattern as drawn, and each of its symbols explained
            assert " / ".join(card.pattern) in " ".join(info.notes)
            explained = {n.split(":")[0].split(" ")[0] for n in info.notes}
            for tok in {t.rstrip("*") or "*" for row in card.pattern for t in row.split()} - {"."}:
                assert {"*": "✱"}.get(tok, tok) in explained, (card.id, tok)
    for task in tasks:
        info = texts[task.id]
        assert info.name == task.name and f"{task.points} point" in info.kind
        assert not info.text[0].startswith("[")  # the kind line says type and points, the text the condition


def test_a_designers_card_file_shows_its_own_texts() -> None:
    game = make_game(
        being("storm-lamb", ". * .\nc @ h", [{"do": "gain_action"}]),
        flares=(flare("late-spark", 2, 5, [{"do": "gain_action"}], [{"do": "draw_extra", "deck": "flare"}]),),
    )
    texts = game.card_texts()
    lamb = texts["storm-lamb"]
    assert lamb.name == "Storm Lamb" and lamb.kind.startswith("heroic being · Lab")
    assert lamb.text == (
        "Gain 1 action.",
        "Pattern: the summon square; a marked square 1 up; your piece 1 left; your heroic or legendary piece "
        "1 right. It may be turned or mirrored any way.",
    )
    spark = texts["late-spark"]
    assert spark.kind == "flare · upper half 2, lower half 5"
    assert spark.text[1] == "Lower (an opponent has 5+ more pieces): Draw an extra flare card at the end of the turn."


def test_pattern_words_name_every_square_from_the_summon_square() -> None:
    assert pattern_words(("c . c", ". @ .")) == (
        "Pattern: the summon square; your piece diagonally up-left; your piece diagonally up-right. "
        "It may be turned or mirrored any way."
    )
    assert pattern_words(("l . .", ". . .", ". . H", "c* . .")) == (
        "Pattern: the summon square (on your heroic or legendary piece); your legendary piece diagonally 2 up-left; "
        "your piece, marked, 1 down and 2 left. It may be turned or mirrored any way."
    )
