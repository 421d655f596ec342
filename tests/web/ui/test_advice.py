"""Thinking and help on the table page (issue 28, point 9), in fixture mode (tests/web/ui/wire.py): the ``thinking``
message shows "… is thinking… N s" with the seconds ticking, until it is cleared; the Hint button sends ``hint``
and shows the answer in words (the choices' labels, the share of the search, the chance to win); Odds (where the
game declares hidden facts) sends ``odds`` and shows the facts' chances; an answer goes when the position moves on.
"""

from __future__ import annotations

import re
from typing import Any

from .browser import open_fixture


def _my_decision(data: dict[str, Any]) -> int:
    """The index of the fixture's first state where its seat is to act with several choices."""
    for i, m in enumerate(data["messages"]):
        if m["type"] == "state" and m["to_act"] == data["seat"] and len(m["legal"]) > 1:
            return i
    raise AssertionError("no decision of the fixture's seat")


def test_the_thinking_indicator_and_the_hint_and_odds_panel(browser: Any, fixtures: dict[str, dict[str, Any]]) -> None:
    data = fixtures["torabato"]
    step = _my_decision(data)
    page, errors = open_fixture(browser, fixtures, "torabato", step=step)
    try:
        state = page.evaluate("window.__table.state()")
        ai = next(s for s in data["welcome"]["game"]["seats"] if s["seat"] != data["seat"])
        # an AI thinks: its name and the seconds, counted on from what the server said
        thinks = {"type": "thinking", "seat": ai["seat"], "since": "2026-11-27T12:00:00+00:00", "elapsed": 3}
        page.evaluate("(m) => window.__fixture.inject(m)", thinks)
        thinking = page.locator("#thinking")
        assert thinking.is_visible()
        assert re.fullmatch(rf"{re.escape(ai['name'])} is thinking… [3-9] s", thinking.inner_text()), (
            thinking.inner_text()
        )
        page.wait_for_function("() => /… [4-9] s$/.test(document.querySelector('#thinking').textContent)")  # it ticks
        page.evaluate("window.__fixture.inject({type: 'thinking', seat: null})")
        assert not thinking.is_visible()
        # a hint for the seat to act: sent, then shown in words
        assert page.locator("#advice-box").is_visible() and page.locator("#hint").is_enabled()
        assert not page.locator("#odds").is_visible()  # the fixture's welcome does not offer odds
        page.click("#hint")
        assert page.evaluate("window.__sent") == [{"type": "hint"}]
        assert "Thinking about your move" in page.locator("#advice").inner_text()
        assert page.locator("#hint").is_disabled()  # one question at a time
        action = state["legal"][0]
        label = f"{action['group']}: {action['detail']}" if action["detail"] else action["group"]
        row = {"action": action["text"], "label": label, "share": 0.5, "win": 0.62, "mean": 0.24}
        page.evaluate(
            "(m) => window.__fixture.inject(m)", {"type": "hint", "ply": state["ply"], "rows": [row], "players": 2}
        )
        text = page.locator("#advice li").inner_text()
        assert label in text and "50% of the search" in text and "wins about 62%" in text, text
        # odds, where the game offers them
        page.evaluate("(m) => window.__fixture.inject(m)", {**data["welcome"], "odds": True})
        page.click("#odds")
        assert page.evaluate("window.__sent")[-1] == {"type": "odds"}
        fact = {
            "fact": "Bo holds an ace",
            "values": [{"value": "no", "share": 0.63}, {"value": "yes", "share": 0.37}],
            "other": 0,
        }
        page.evaluate(
            "(m) => window.__fixture.inject(m)", {"type": "odds", "ply": state["ply"], "worlds": 300, "facts": [fact]}
        )
        assert "From 300 deals" in page.locator("#advice").inner_text()
        assert page.locator("#advice li").inner_text() == "Bo holds an ace: no 63%, yes 37%"
        # the position moves on: the answer about the old one goes
        while page.evaluate("window.__table.state().ply") == state["ply"]:
            page.evaluate("window.__fixture.next()")
        assert page.locator("#advice").inner_text() == ""
        assert errors == []
    finally:
        page.context.close()
