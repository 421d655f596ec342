"""Laplaplace's table in a real browser, fed with wire fixtures (issue 28, parts 2, 4 and 7): the last move is
marked (the other seat's finished build, its build revealed by the battle, the result, each playback step), every
face-up card is readable (hover, and a long press on a touch screen) with its notation explained, and the table
names the players where the battle log says P0 and P1."""

from __future__ import annotations

import re
from typing import Any

from cardarena.web.rules_page import rules_page

from .browser import ORIGIN, PHONE, PageErrors, answer_confirmation, open_fixture, route_static

CHANGED = "() => window.__table.changed()"


def decide_then_go(page: Any, decide_at: int, then: int) -> None:
    """Show message ``decide_at``, take a decision there by a click on the table (a card of the picker), as a
    player would, then let the fixture run to message ``then`` (the seat's own log entry of that decision makes the
    state after it the baseline of the marks)."""
    page.evaluate("(i) => window.__fixture.goto(i)", decide_at)
    sent = page.evaluate("window.__sent.length")
    page.locator("#table .lcard.pickable").first.click()
    answer_confirmation(page)
    assert page.evaluate("window.__sent.length") == sent + 1
    page.evaluate("(i) => window.__fixture.goto(i)", then)
    page.mouse.move(0, 0)  # no card under the mouse: its viewer would hide what the test reads


def test_the_other_seats_finished_build_is_marked(browser: Any, fixtures: dict[str, Any]) -> None:
    """Open scene, the page at seat 1: after its 4th open card the other seat builds all 8 cards in secret; the
    table marks its hidden build, now complete, and nothing else; the player's own card is never marked."""
    data = fixtures["laplaplace-open"]
    steps = [m["ply"] for m in data["messages"]]
    mine = [i for i, m in enumerate(data["messages"]) if m["legal"]]
    last_show = next(i for i in mine if data["messages"][i + 1]["to_act"] == 0)  # the AI builds after it
    back = next(i for i in mine if i > last_show)  # the page's next decision
    assert steps[back] - steps[last_show] > 1
    page, errors = open_fixture(browser, fixtures, "laplaplace-open", step=last_show)
    try:
        decide_at, then = last_show, back
        decide_then_go(page, decide_at, then)
        page.wait_for_function("(i) => window.__fixture.index() === i", arg=then)
        marked = page.locator("#table .changed")
        assert marked.count() == 1
        assert "build complete" in (page.locator("#table .hidden-column .back-tile.changed").text_content() or "")
        # the player's own next card is its own decision: once it is on the table nothing is marked
        decide_then_go(page, then, then + 1)
        page.wait_for_function("(i) => window.__fixture.index() === i && window.__table.changed() === 0", arg=then + 1)
        assert errors == []
    finally:
        page.context.close()


def test_the_battle_marks_the_revealed_build_the_result_and_each_step(browser: Any, fixtures: dict[str, Any]) -> None:
    """Blind scene, the page at seat 0: its last card finishes its build, then the other seat builds and the
    battle runs. The battle shows the other's revealed build marked, the result marked, and each step of the
    playback marks what it changed: a card downed, HP lost; the log names the players, never P0 or P1."""
    data = fixtures["laplaplace"]
    messages = data["messages"]
    mine = [i for i, m in enumerate(messages) if m["legal"]]
    last = len(messages) - 1
    other = messages[last]["observation"]["seats"][1]["build"]
    page, errors = open_fixture(browser, fixtures, "laplaplace", step=mine[-1])
    try:
        decide_then_go(page, mine[-1], last)
        page.wait_for_selector("#table .battle-log")
        columns = page.locator("#table .battle .column")
        assert columns.nth(1).locator(".lcard.changed").count() == len(other) > 0  # the reveal
        assert columns.nth(0).locator(".lcard.changed").count() == 0  # its own build was known
        result = page.locator("#table .battle-result.changed")
        assert result.count() == 1 and "Battle over after" in (result.text_content() or "")
        table_text = page.locator("#table").inner_text()
        assert not re.search(r"\bP[01]\b", table_text) and "seat " not in table_text
        names = [s["name"] for s in data["welcome"]["game"]["seats"]]
        assert names[1] in (result.text_content() or "") or names[0] in (result.text_content() or "")
        # step through the battle until a card fires and goes down: that card is marked, down
        for _ in range(60):
            page.click('#table [data-play="step"]')
            line = page.locator("#table .battle-log .current").text_content() or ""
            if line.strip().endswith("fires and downs itself"):
                break
        else:
            raise AssertionError("no card went down in the first 60 lines")
        assert page.locator("#table .battle .lcard.down.changed").count() >= 1
        for _ in range(200):  # then until a hit: the side's HP heading and bar are marked
            page.click('#table [data-play="step"]')
            line = page.locator("#table .battle-log .current").text_content() or ""
            if re.search(r" hits .* for \d+: HP", line):
                break
        else:
            raise AssertionError("no hit in 200 lines")
        assert page.locator("#table .battle .column h3.changed").count() == 1
        assert page.locator("#table .battle .hpbar.changed").count() == 1
        # a mark pulses once; with reduced motion it is only drawn (and playback is slower)
        animation = "() => getComputedStyle(document.querySelector('#table .hpbar.changed')).animationName"
        assert page.evaluate(animation) != "none"
        page.emulate_media(reduced_motion="reduce")
        page.click('#table [data-play="step"]')
        page.click('#table [data-play="back"]')
        assert page.evaluate(animation) == "none"
        assert errors == []
    finally:
        page.context.close()


def test_every_face_up_card_is_readable_with_its_notation(browser: Any, fixtures: dict[str, Any]) -> None:
    """Every face-up card of the picker, the columns and the battle carries what it says (dom.js describeCard);
    pointing at one shows the card viewer with its text and its notation in words; the legend explains the marks
    and leads to the rules page's notation section."""
    data = fixtures["laplaplace"]
    mine = [i for i, m in enumerate(data["messages"]) if m["legal"]]
    page, errors = open_fixture(browser, fixtures, "laplaplace", step=mine[3])
    try:
        unread = page.evaluate(
            "() => [...document.querySelectorAll('#table .lcard:not(.back-tile), #table .chip')]"
            ".filter((e) => !e.classList.contains('has-info') || !e.cardInfo.text.length).length"
        )
        assert unread == 0
        assert page.locator("#table .lcard.pickable").count() == 27
        page.locator('#table .lcard.pickable[data-action="add lance"]').hover()
        viewer = page.locator("#card-viewer")
        viewer.wait_for(state="visible")
        text = viewer.inner_text()
        for words in (
            "Lance",
            "6 · force 11 · damage",
            "Deal 4 damage to the enemy",
            "<A> action",
            "<Top>",
            "Force 11",
        ):
            assert words in text, words
        # the legend of the marks, and the rules page's section it leads to
        page.mouse.move(0, 0)
        page.click("#table details.legend summary")
        legend = page.locator("#table details.legend").inner_text()
        for mark in ("<A>", "<E: …>", "[Downless]", "[Remove]", "up / down", "force"):
            assert mark in legend, mark
        href = page.locator("#table details.legend a").get_attribute("href") or ""
        assert href == "/rules/laplaplace#the-notation"
        assert 'id="the-notation"' in (rules_page("laplaplace") or "")
        # the battle's cards are readable too
        page.evaluate("(i) => window.__fixture.goto(i)", len(data["messages"]) - 1)
        page.wait_for_selector("#table .battle .lcard")
        assert page.evaluate(
            "() => [...document.querySelectorAll('#table .battle .lcard')]"
            ".every((e) => e.classList.contains('has-info'))"
        )
        assert errors == []
    finally:
        page.context.close()


def test_a_long_press_on_a_phone_reads_a_card_without_picking_it(browser: Any, fixtures: dict[str, Any]) -> None:
    """On a touch screen, holding a card of the picker shows it in the viewer's bottom sheet (text and notes, a
    Close button), and the tap that ends the press does not add the card."""
    data = fixtures["laplaplace"]
    mine = [i for i, m in enumerate(data["messages"]) if m["legal"]]
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)  # a phone's touch screen
    page = context.new_page()
    errors = PageErrors()
    errors.watch(page)
    route_static(page, fixtures)
    page.goto(f"{ORIGIN}/static/table.html?fixture=/fixtures/laplaplace.json&step={mine[0]}")
    page.wait_for_selector("#table .lcard.pickable")
    try:
        card = page.locator('#table .lcard.pickable[data-action="add plating"]')
        card.scroll_into_view_if_needed()
        box = card.bounding_box()
        assert box is not None
        point = {"clientX": box["x"] + 10, "clientY": box["y"] + 10, "bubbles": True, "pointerType": "touch"}
        card.dispatch_event("pointerdown", point)
        viewer = page.locator("#card-viewer.sheet")
        viewer.wait_for(state="visible")  # held: the viewer opens by itself after a moment
        card.dispatch_event("pointerup", point)
        card.dispatch_event("click", {"bubbles": True})
        text = viewer.inner_text()
        for words in ("Plating", "Reduce that damage by 1", "[Downless]: this card stays up", "<E: …> event", "Close"):
            assert words in text, words
        assert page.evaluate("window.__sent.length") == 0  # the press read the card; it did not add it
        viewer.locator("button", has_text="Close").tap()
        assert page.locator("#card-viewer").is_hidden()
        assert errors == []
    finally:
        page.context.close()


def test_a_spectator_reads_whose_build_it_is_never_yours(browser: Any, fixtures: dict[str, Any]) -> None:
    """A spectator's table names both builders and never says "Your turn" or "Your build" (it has no seat), while
    the build is made and in the battle."""
    data = fixtures["laplaplace-watch"]
    names = [s["name"] for s in data["welcome"]["game"]["seats"]]
    page, errors = open_fixture(browser, fixtures, "laplaplace-watch")
    try:
        for i in (0, len(data["messages"]) // 2, len(data["messages"]) - 1):
            page.evaluate("(i) => window.__fixture.goto(i)", i)
            text = page.locator("#table").inner_text()
            assert "Your" not in text and not re.search(r"\bP[01]\b", text), i
            assert all(name in text for name in names), i
        assert errors == []
    finally:
        page.context.close()
