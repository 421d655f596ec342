"""Issue 32, point 3: a turn-based game played over several browser sessions. Ada starts a Laplaplace game with a
day per move and invites Bo; each closes the browser. Over the next sessions each opens the lobby, which says in
"Your games" (and the page title) whether the game waits for them, with the time left; the one it waits for plays a
decision from there and leaves. The other never sees "Your turn" for it meanwhile."""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path
from typing import Any

from .browser import PageErrors, click_action
from .test_live import MY_DECISION, STATE, WAIT_MS, server, sit_down  # noqa: F401 - the fixture

SHOTS = Path(os.environ.get("CARDARENA_SHOTS", tempfile.gettempdir()))
MINE = "() => !document.querySelector('#mine-box').hidden && document.querySelectorAll('#mine li').length > 0"


def session(browser: Any, storage: Any | None, name: str) -> tuple[Any, PageErrors]:
    """A new browser session: a fresh context with what the person's browser kept (its localStorage)."""
    context = browser.new_context(storage_state=storage) if storage is not None else browser.new_context()
    if storage is None:
        context.add_init_script(f"localStorage.setItem('cardarena.name', {name!r})")
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors = PageErrors()
    errors.watch(page)
    return page, errors


def lobby_says(page: Any, base: str) -> dict[str, Any]:
    page.goto(f"{base}/")
    page.wait_for_function(MINE)
    item = page.locator("#mine li").first
    return {
        "your_turn": item.locator(".turn-badge").count() == 1,
        "text": item.text_content(),
        "title": page.title(),
    }


def test_a_turn_based_game_over_several_sessions_says_whose_turn_it_is(browser: Any, server: str) -> None:  # noqa: F811
    ada, ada_errors = session(browser, None, "Ada")
    ada.goto(f"{server}/")
    ada.wait_for_selector("#game option", state="attached")
    ada.select_option("#game", "laplaplace")
    ada.select_option('[data-seat-kind="1"]', "human")
    ada.select_option("#clock-kind", "turn")  # a turn-based game: a day a move
    assert ada.input_value("#clock-amount") == "24"
    ada.click("#create button[type=submit]")
    ada.wait_for_selector("#created:not([hidden])")
    invitation = ada.input_value('[data-invitation="1"]')
    sit_down(ada)
    bo, bo_errors = session(browser, None, "Bo")
    bo.goto(invitation)
    bo.wait_for_function("() => document.querySelector('#status')?.dataset.status === 'connected'")
    kept = {"Ada": ada.context.storage_state(), "Bo": bo.context.storage_state()}
    errors = ada_errors + bo_errors
    ada.context.close()
    bo.context.close()

    rng = random.Random(5)
    turns = 0
    for _ in range(6):  # six sessions: each time both look, the one it waits for plays one decision
        said = {}
        pages = {}
        for name in ("Ada", "Bo"):
            page, page_errors = session(browser, kept[name], name)
            pages[name] = (page, page_errors)
            said[name] = lobby_says(page, server)
        waiting = [name for name, s in said.items() if s["your_turn"]]
        assert len(waiting) == 1, said  # the game waits for exactly one of them, and says so to that one only
        mover = waiting[0]
        other = "Bo" if mover == "Ada" else "Ada"
        assert said[mover]["title"].startswith("(1) ")
        assert not said[other]["title"].startswith("(")
        assert "left" in said[mover]["text"] and "turn-based" in said[mover]["text"]
        page, page_errors = pages[mover]
        if turns == 0:
            page.screenshot(path=str(SHOTS / "turn-based-lobby.png"), full_page=True)
        page.click("#mine li a.button")
        page.wait_for_function(MY_DECISION, arg=-1)
        assert page.title().startswith("(Your turn) ")  # the table's tab says so too
        state = page.evaluate(STATE)
        assert not state["terminal"]
        click_action(page, "laplaplace", rng.choice(state["legal"])["text"])
        page.wait_for_function(f"() => window.__table.state().ply > {state['ply']}")
        turns += 1
        for name, (p, e) in pages.items():
            kept[name] = p.context.storage_state()
            errors += e
            p.context.close()
    assert turns == 6
    assert errors == []
