"""No jargon at the table (issue 28, point 7), from the wire fixtures (no server): the result says who won and why
in words ("You win — Bo fell to 0 HP"), never the returns; the players are named, never numbered."""

from __future__ import annotations

import re
from typing import Any

from .browser import open_fixture

#: seat numbers, the returns, an agent spec: none may show in the shell's texts
JARGON = re.compile(r"\b[Ss]eat \d|\bseat |returns|\bP[01]\b|ismcts|iterations=")
#: the shell's own texts (header, turn line and its buttons, players, result): the game's table is its module's
SHELL_TEXT = "[...document.querySelectorAll('.bar, .turn-row, #seats, #result')].map(e => e.innerText).join(' | ')"


def test_the_result_says_who_won_and_why_in_words(browser: Any, fixtures: dict[str, dict[str, Any]]) -> None:
    data = fixtures["torabato"]
    last = len(data["messages"]) - 1
    final = data["messages"][last]
    assert final["terminal"] and final["end_reason"]  # the game's words, names put in ("Ada's deck is empty …")
    seats = {s["seat"]: s["name"] for s in data["welcome"]["game"]["seats"]}
    page, errors = open_fixture(browser, fixtures, "torabato", step=last)
    try:
        line = page.locator("#result .result-line")
        winner = max(range(2), key=lambda s: final["returns"][s])
        who = "You win" if winner == data["seat"] else f"{seats[winner]} wins"
        assert line.inner_text() == f"{who} — {final['end_reason']}"
        # every outcome, as the seat reads it: the player, the other one (a name, shown as text), a draw
        for returns, who in (([1, -1], "You win"), ([-1, 1], f"{seats[1]} wins"), ([0, 0], "Draw")):
            message = {**final, "returns": returns, "end_reason": "Bo fell to 0 HP", "log": []}
            page.evaluate("(m) => window.__fixture.inject(m)", message)
            assert line.inner_text() == f"{who} — Bo fell to 0 HP"
        # a game that gives no reason: who won, and nothing else
        page.evaluate("(m) => window.__fixture.inject(m)", {**final, "returns": [1, -1], "end_reason": None, "log": []})
        assert line.inner_text() == "You win."
        shell = page.evaluate(SHELL_TEXT)
        assert not JARGON.search(shell), shell
        assert page.locator("#result a.replay-link").count() == 0  # a fixture has no key: no replay to link
        assert errors == []
    finally:
        page.context.close()


def test_the_players_are_named_and_no_seat_number_shows(browser: Any, fixtures: dict[str, dict[str, Any]]) -> None:
    data = fixtures["torabato"]
    page, errors = open_fixture(browser, fixtures, "torabato", step=len(data["messages"]) // 2)
    try:
        listed = page.locator("#seats").inner_text()
        for seat in data["welcome"]["game"]["seats"]:
            assert seat["name"] in listed
        assert "you" in listed  # the player's own seat is marked as theirs
        shell = page.evaluate(SHELL_TEXT)
        assert not JARGON.search(shell), shell
        # the "an AI plays on" menu is in words (the server's welcome.strengths; the fixture has none: the labels)
        options = page.eval_on_selector_all("#handover-strength option", "els => els.map(e => e.textContent)")
        assert options == ["Easy AI", "Normal AI", "Hard AI", "Expert AI"]
        assert errors == []
    finally:
        page.context.close()
