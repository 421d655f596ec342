"""ToraBato's table tells a newcomer what happened and what each card does (issue 28, parts 2, 4 and 7), in a real
browser fed with wire fixtures: the opponent's last move is marked until the player's next decision, every card
face up can be read (hover on a desktop, a long press on a touch screen, which does not also act on the card), a
card with several actions names itself, its effect and each choice in words, and the table speaks of players by
name (no seat numbers, no action texts), with no stale "deciding" once the game is over."""

from __future__ import annotations

import itertools
from typing import Any

from .browser import DESKTOP, ORIGIN, PHONE, PageErrors, click_action, open_fixture, route_static, touch_and_hold
from .torabato_marks import READ_MARKS, baseline, expected_marks, sign
from .wire import NAMES

JARGON = ("seat ", "P0", "P1", "@", "returns")


def decisions(data: dict[str, Any]) -> list[int]:
    """The indexes of the messages where the fixture's seat decides."""
    return [i for i, m in enumerate(data["messages"]) if m["legal"] and m["to_act"] == data["seat"]]


def opponent_played(data: dict[str, Any], i: int, j: int) -> list[str]:
    """The cards the opponent played (``play CARD``) between messages ``i`` and ``j``."""
    texts = [e["text"] for m in data["messages"][i + 1 : j + 1] for e in m["log"] if e["seat"] != data["seat"]]
    return [t.split(" ")[1] for t in texts if t.startswith("play ")]


def goto(page: Any, i: int, ply: int) -> None:
    page.evaluate("(i) => window.__fixture.goto(i)", i)
    page.wait_for_function("(ply) => window.__table.state().ply === ply", arg=ply)


def test_the_opponents_last_move_is_marked_until_the_players_next_decision(
    browser: Any, fixtures: dict[str, Any]
) -> None:
    data = fixtures["torabato"]
    messages = data["messages"]
    mine = decisions(data)
    # a decision of the seat, then its next one with a card the opponent played in between
    i, j = next((a, b) for a, b in itertools.pairwise(mine) if opponent_played(data, a, b))
    played = opponent_played(data, i, j)
    page, errors = open_fixture(browser, fixtures, "torabato", step=i)
    try:
        click_action(page, "torabato", messages[i]["legal"][0]["text"])  # the player's decision: the baseline
        goto(page, j, messages[j]["ply"])
        seen = page.evaluate(READ_MARKS)
        before = baseline(messages, messages[i]["ply"])
        assert before is not None
        keys, gone = expected_marks(before, messages[j]["observation"])
        assert keys and keys <= set(seen["marks"]), (keys, seen["marks"])
        note = " ".join(m for m in seen["marks"] if m.startswith("gone "))
        assert all(card in note for card in gone), (gone, note)
        # the card the opponent played is marked where it is now: a soldier, on the stack, in a discard pile
        for card in played:
            assert any(m.split(" ")[-1] == card for m in seen["marks"]) or sign(card) in str(seen["marks"]), card
        # the next decision of the player's own moves the baseline: the state right after it shows no marks
        click_action(page, "torabato", messages[j]["legal"][0]["text"])
        goto(page, j + 1, messages[j + 1]["ply"])
        assert page.evaluate("window.__table.changed()") == 0
        assert errors == []
    finally:
        page.context.close()


def test_a_pass_that_moved_only_priority_is_told(browser: Any, fixtures: dict[str, Any]) -> None:
    """The opponent passed and nothing on the table moved: the changed position is still marked, in words."""
    data = fixtures["torabato"]
    messages = data["messages"]
    moving = ("priority", "to_act", "passes")

    def only_priority(i: int, j: int) -> bool:
        a, b = messages[i + 1]["observation"], messages[j]["observation"]
        return a != b and all(a[k] == b[k] for k in a if k not in moving)

    mine = decisions(data)
    i, j = next((a, b) for a, b in itertools.pairwise(mine) if b == a + 2 and only_priority(a, b))
    page, errors = open_fixture(browser, fixtures, "torabato", step=i)
    try:
        click_action(page, "torabato", messages[i]["legal"][0]["text"])
        goto(page, j, messages[j]["ply"])
        note = page.locator("#table .passed.changed")
        assert note.text_content() == f"{data['welcome']['game']['seats'][1]['name']} passed."
        assert page.evaluate("window.__table.changed()") == 1
        assert errors == []
    finally:
        page.context.close()


def test_every_face_up_card_says_what_it_does_on_hover(browser: Any, fixtures: dict[str, Any]) -> None:
    data = fixtures["torabato-seat1"]
    cards = data["welcome"]["cards"]
    assert len(cards) == 54
    steps = [len(data["messages"]) // 3, len(data["messages"]) // 2, len(data["messages"]) - 1]
    page, errors = open_fixture(browser, fixtures, "torabato-seat1", step=steps[0])
    try:
        for step in steps:
            goto(page, step, data["messages"][step]["ply"])
            faces = page.eval_on_selector_all(
                "#table .card.face",
                "els => els.map(e => [e.dataset.card, e.classList.contains('has-info'),"
                " e.getAttribute('aria-description') || ''])",
            )
            assert len(faces) > 5
            for name, readable, described in faces:
                assert readable and cards[name]["text"][0] in described, (step, name, described)
            # hover over one card of each zone: the viewer shows its name, cost and effect
            for zone in (".hand", ".soldiers", ".discard", ".mana", ".stack"):
                card = page.locator(f"#table {zone} .card.face").first
                if not card.count():
                    continue
                name = card.get_attribute("data-card")
                card.hover()
                viewer = page.locator("#card-viewer")
                viewer.wait_for(state="visible")
                text = viewer.inner_text()
                assert cards[name]["name"] in text and cards[name]["text"][0] in text, (zone, name, text)
                assert f"cost {cards[name]['cost']}" in text
                page.mouse.move(1, 1)
        assert errors == []
    finally:
        page.context.close()


def test_a_long_press_reads_a_card_on_a_phone_without_playing_it(browser: Any, fixtures: dict[str, Any]) -> None:
    data = fixtures["torabato"]
    step = next(
        i
        for i in decisions(data)
        if any(a["text"].startswith(("play ", "mana ")) for a in data["messages"][i]["legal"])
    )
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    errors = PageErrors()
    errors.watch(page)
    route_static(page, fixtures)
    page.goto(f"{ORIGIN}/static/table.html?fixture=/fixtures/torabato.json&step={step}")
    try:
        card = page.locator("#table .hand .card.playable").first
        card.wait_for()
        name = card.get_attribute("data-card")
        lift = touch_and_hold(page, card)  # held: the viewer opens as a sheet while the finger is down
        viewer = page.locator("#card-viewer.sheet")
        info = data["welcome"]["cards"][name]
        text = viewer.inner_text()
        assert info["name"] in text and info["text"][0] in text, text
        lift()
        assert page.locator("#card-viewer").is_visible()  # still readable once the finger is up
        # the press only read the card: nothing was sent, no chooser opened, no question asked
        assert page.evaluate("window.__sent") == []
        assert page.locator("#table .chooser").count() == 0 and page.locator("dialog.confirm[open]").count() == 0
        assert errors == []
    finally:
        context.close()


def test_a_chooser_names_the_card_its_effect_and_each_choice_in_words(browser: Any, fixtures: dict[str, Any]) -> None:
    data = fixtures["torabato-seat1"]
    step = next(
        i for i, m in enumerate(data["messages"]) if sum(a["text"].startswith("play 4D @") for a in m["legal"]) > 1
    )
    page, errors = open_fixture(browser, fixtures, "torabato-seat1", step=step)
    try:
        page.locator('#table [data-card="4D"]').first.click()
        chooser = page.locator("#table .chooser")
        title = chooser.locator(".chooser-title").inner_text()
        assert "4 of diamonds" in title and "Destroy one soldier" in title and "cost 3" in title
        words = chooser.locator("[data-action]").all_inner_texts()
        assert words and all(w.startswith("Play 4♦ as a spell at ") and w.endswith("soldier (3 mana)") for w in words)
        assert any("your " in w for w in words) or any(f"{NAMES[0]}'s" in w or "AI's" in w for w in words)
        assert not any("@" in w or "4D" in w for w in words), words
        assert errors == []
    finally:
        page.context.close()


def test_the_table_speaks_of_players_by_name_and_clears_its_turn_texts_at_the_end(
    browser: Any, fixtures: dict[str, Any]
) -> None:
    for name in ("torabato", "torabato-seat1", "torabato-watch"):
        data = fixtures[name]
        page, errors = open_fixture(browser, fixtures, name, viewport=DESKTOP)
        try:
            for i in range(0, len(data["messages"]), 7):
                goto(page, i, data["messages"][i]["ply"])
                text = page.locator("#table").inner_text()
                assert not [j for j in JARGON if j in text], (name, i, text)
            # the game ends (the opponent's deck ran out): the end in words, and nothing says who is to act
            last = data["messages"][-1]
            loser = 1 if data["seat"] != 1 else 0
            obs = {**last["observation"], "result": [1, -1] if loser else [-1, 1]}
            obs["end_reason"] = f"seat {loser}'s deck is empty at the end phase"
            end = {**last, "ply": last["ply"] + 1, "terminal": True, "legal": [], "log": [], "observation": obs}
            page.evaluate("(m) => window.__fixture.inject(m)", end)
            page.wait_for_function("(ply) => window.__table.state().ply === ply", arg=end["ply"])
            text = page.locator("#table").inner_text()
            assert "deck is empty at the end phase" in text and "seat " not in text, text
            for stale in ("deciding", "you decide", "this turn", "your turn"):
                assert stale not in text.lower(), (stale, text)
            assert errors == []
        finally:
            page.context.close()
