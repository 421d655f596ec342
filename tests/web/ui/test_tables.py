"""The table pages in a real browser (headless Debian Chromium), fed with wire fixtures: every state of a seeded
game is drawn without a script error, clicks on the table send exactly the legal action's text, hidden cards
are drawn as backs, text from players is shown as text, and a phone-sized screen needs no horizontal scrolling."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from .browser import CARD_KINDS, PHONE, click_action, open_fixture
from .wire import FIXTURES, NAMES, play_fixture

NAMES_OF_FIXTURES = [f[0] for f in FIXTURES]
SEATED = [f[0] for f in FIXTURES if f[4] is not None]

# Runs in the page after a state is shown: what the checks below need, read from the DOM and the state.
READ_PAGE = """async (i) => {
  window.__fixture.goto(i);
  await new Promise((r) => setTimeout(r, 0));  // the table module draws after a microtask
  const state = window.__table.state();
  const table = document.querySelector('#table');
  return {
    ply: state.ply,
    legal: state.legal.map((a) => a.text),
    listed: [...document.querySelectorAll('#actions [data-action]')].map((b) => b.dataset.action),
    cards: [...table.querySelectorAll('[data-card]:not(.pickable)')].map((e) => e.dataset.card),
    backs: ['.side.bottom', '.side.top'].map((s) => table.querySelectorAll(`${s} .hidden-hand .card.back`).length),
    faces: ['.side.bottom', '.side.top'].map(
      (s) => [...table.querySelectorAll(`${s} .hidden-hand > .row [data-card]`)].map((e) => e.dataset.card)),
    hiddenColumns: table.querySelectorAll('.hidden-column').length,
    hiddenColumnCards: table.querySelectorAll('.hidden-column .lcard[data-card]').length,  // not its open cards
    turn: document.querySelector('#turn').textContent,
  };
}"""


@pytest.mark.parametrize("name", NAMES_OF_FIXTURES)
def test_every_state_is_drawn_without_errors(browser: Any, fixtures: dict[str, Any], name: str) -> None:
    data = fixtures[name]
    page, errors = open_fixture(browser, fixtures, name)
    try:
        for i, message in enumerate(data["messages"]):
            seen = page.evaluate(READ_PAGE, i)
            assert seen["ply"] == message["ply"]
            # the action list (the fallback) holds every legal action, and nothing else
            assert sorted(seen["listed"]) == sorted(seen["legal"])
            # no card is drawn face up that this seat's observation does not show
            observed = json.dumps(message["observation"])
            for card in seen["cards"]:
                assert f'"{card}"' in observed or card.lower().replace(" ", "-") in observed.lower(), (i, card)
            seat = data["seat"]
            hidden = [1 - seat] if seat is not None else [0, 1]  # a spectator sees no hand at all
            if data["game"] == "torabato":
                for side in hidden:
                    p = message["observation"]["players"][side]
                    known = p["known_in_hand"]
                    where = 0 if side == (seat or 0) else 1  # the bottom side is the seat's own (seat 0 for spectators)
                    assert "hand" not in p
                    assert seen["backs"][where] == min(8, p["hand_size"] - len(known)), i  # a fan shows 8 backs at most
                    assert sorted(seen["faces"][where]) == sorted(known), i
            else:
                builds = sum("build" in message["observation"]["seats"][side] for side in hidden)
                assert seen["hiddenColumns"] == (len(hidden) - builds), i
                assert seen["hiddenColumnCards"] == 0, i
            assert seen["turn"]
        assert errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("name", SEATED)
def test_clicking_the_table_sends_each_legal_action(browser: Any, fixtures: dict[str, Any], name: str) -> None:
    """For every state where the seat acts, every legal action is taken by clicks on the table (a card, then the
    chooser when several actions start from it), and the page sends exactly that text at the state's ply."""
    data = fixtures[name]
    page, errors = open_fixture(browser, fixtures, name)
    try:
        checked = 0
        for i, message in enumerate(data["messages"]):
            if not message["legal"]:
                continue
            page.evaluate("(i) => window.__fixture.goto(i)", i)
            page.wait_for_function("(ply) => window.__table.state().ply === ply", arg=message["ply"])
            for action in message["legal"][:6] if i % 3 else message["legal"]:  # every action in a third of them
                before = page.evaluate("window.__sent.length")
                click_action(page, data["game"], action["text"])
                sent = page.evaluate("window.__sent.slice(arguments[0])".replace("arguments[0]", str(before)))
                assert sent == [{"type": "act", "ply": message["ply"], "action": action["text"]}], (i, action)
                checked += 1
        assert checked > 20
        assert errors == []
    finally:
        page.context.close()


def test_a_card_with_several_actions_opens_a_chooser_of_just_those(browser: Any, fixtures: dict[str, Any]) -> None:
    data = fixtures["torabato-seat1"]
    step = next(
        i for i, m in enumerate(data["messages"]) if sum(a["text"].startswith("play 4D @") for a in m["legal"]) > 1
    )
    page, errors = open_fixture(browser, fixtures, "torabato-seat1", step=step)
    try:
        legal = [a["text"] for a in data["messages"][step]["legal"]]
        from_card = sorted(t for t in legal if t.split(" ")[0] in CARD_KINDS and t.split(" ")[1] == "4D")
        page.locator('#table [data-card="4D"]').first.click()
        offered = page.eval_on_selector_all("#table .chooser [data-action]", "els => els.map(e => e.dataset.action)")
        assert sorted(offered) == from_card
        assert page.evaluate("window.__sent.length") == 0
        # a click on a highlighted target takes the action aimed at it
        target = from_card[0].split("@")[1]
        page.locator(f'#table .target[data-card="{target}"]').first.click()
        assert page.evaluate("window.__sent") == [
            {"type": "act", "ply": data["messages"][step]["ply"], "action": f"play 4D @{target}"}
        ]
        assert errors == []
    finally:
        page.context.close()


def test_markup_in_names_and_chat_is_shown_as_text(browser: Any, fixtures: dict[str, Any]) -> None:
    page, errors = open_fixture(browser, fixtures, "torabato-seat1")  # seat 1's name holds <script> and <b>
    try:
        names = page.eval_on_selector_all("#seats .name", "els => els.map(e => e.textContent)")
        assert NAMES[1] in names
        assert page.locator("#seats b, #seats script, #log b").count() == 0
        chat = {
            "type": "chat",
            "seat": 0,
            "name": "<img src=x onerror=window.__pwned=2>",
            "text": "<script>window.__pwned=3</script>hi",
        }
        page.evaluate("(m) => window.__fixture.inject(m)", chat)
        line = page.locator("#chat li").last.text_content()
        assert line == f"{chat['name']}: {chat['text']}"
        assert page.locator("#chat img, #chat script").count() == 0
        assert page.evaluate("window.__pwned") is None
        assert errors == []
    finally:
        page.context.close()


def test_chat_and_errors_from_the_server(browser: Any, fixtures: dict[str, Any]) -> None:
    page, errors = open_fixture(browser, fixtures, "torabato")
    try:
        page.fill("#chat-input", "good game")
        page.click("#chat-form button")
        assert page.evaluate("window.__sent") == [{"type": "chat", "text": "good game"}]
        page.evaluate(
            "() => window.__fixture.inject({type: 'error', code: 'stale_ply', message: 'the game has moved on'})"
        )
        assert page.locator(".toast", has_text="the game has moved on").count() == 1
        assert errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("name", ["torabato", "laplaplace-watch"])
def test_the_rules_panel_leads_to_the_browser_page(browser: Any, fixtures: dict[str, Any], name: str) -> None:
    """The Rules panel links to the game's page for the browser (GET /rules/{game}), not the terminal's text,
    for a player and a spectator alike."""
    game = fixtures[name]["game"]
    page, errors = open_fixture(browser, fixtures, name)
    try:
        page.click("#rules summary")
        link = page.locator("#rules a")
        assert link.get_attribute("href") == f"/rules/{game}"
        assert (link.text_content() or "").startswith("How to play ")
        panel = page.locator("#rules").text_content() or ""
        assert "terminal" not in panel and "cardarena " not in panel
        assert errors == []
    finally:
        page.context.close()


def test_the_laplaplace_battle_plays_back_step_by_step(browser: Any, fixtures: dict[str, Any]) -> None:
    data = fixtures["laplaplace"]
    last = len(data["messages"]) - 1
    log = data["messages"][last]["observation"]["log"]
    names = data["welcome"]["game"]["seats"]
    seat_names = [s["name"] for s in names]

    def named(line: str) -> str:  # the table shows the players' names for the log's P0 and P1
        return re.sub(r"\bP([01])\b", lambda m: seat_names[int(m.group(1))], line)

    start = next(i for i, line in enumerate(log) if line.startswith("Turn ")) - 1  # both builds revealed
    page, errors = open_fixture(browser, fixtures, "laplaplace", step=last)
    try:
        current = "#table .battle-log .current"
        assert page.locator(current).text_content() == named(log[start])
        assert page.locator("#table .battle .column").nth(1).locator(".lcard").count() > 0
        for _ in range(6):
            page.click('#table [data-play="step"]')
        assert page.locator(current).text_content() == named(log[start + 6])
        assert page.locator("#table .battle .column").count() == 2
        page.click('#table [data-play="back"]')
        assert page.locator(current).text_content() == named(log[start + 5])
        page.click('#table [data-play="turn"]')  # to the next "Turn N" line
        turn = next(i for i in range(start + 6, len(log)) if log[i].startswith("Turn "))
        assert page.locator(current).text_content() == named(log[turn])
        assert not re.search(r"\bP[01]\b", page.locator("#table").inner_text())
        page.click('#table [data-play="toggle"]')  # play: lines go by on their own
        page.wait_for_function(
            "(t) => document.querySelector('#table .battle-log .current').textContent !== t", arg=named(log[turn])
        )
        page.click('#table [data-play="toggle"]')
        page.click('#table [data-play="end"]')
        assert page.locator(current).text_content() == named(log[-1])
        assert page.locator("#result").is_visible()
        assert errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("name", NAMES_OF_FIXTURES)
def test_a_phone_sized_screen_needs_no_horizontal_scrolling(browser: Any, fixtures: dict[str, Any], name: str) -> None:
    messages = fixtures[name]["messages"]
    steps = sorted(
        {0, next((i for i, m in enumerate(messages) if m["legal"]), 0), len(messages) // 2, len(messages) - 1}
    )
    for step in steps:
        page, errors = open_fixture(browser, fixtures, name, step=step, viewport=PHONE)
        try:
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], step
            # tap targets: every visible button and clickable card is at least 40 px in both directions
            small = page.evaluate(
                """() => [...document.querySelectorAll('button, .card.playable, .lcard.pickable, a.button')]
                   .filter((e) => e.offsetParent !== null)
                   .map((e) => [e.textContent.trim() || e.dataset.card, e.getBoundingClientRect()])
                   .filter(([, r]) => r.width < 40 || r.height < 40)
                   .map(([t, r]) => `${t}: ${r.width}x${r.height}`)"""
            )
            assert small == [], (step, small)
            assert errors == []
        finally:
            page.context.close()


def test_the_battle_playback_follows_the_log(browser: Any, fixtures: dict[str, Any]) -> None:
    """The playback reads the columns' up/down state and the HP from the battle log's events between its "Turn"
    lines: replayed from one "Turn" line to the next, it must land exactly on what the next one says, and at
    the last line on the result's HP."""
    battles = []
    for seed in range(8):
        data = play_fixture("laplaplace", {}, seed, 0, ("random", "random"))
        obs = data["messages"][-1]["observation"]
        battles.append({"log": obs["log"], "hp": obs["result"]["hp"]})
    page, errors = open_fixture(browser, fixtures, "laplaplace")
    try:
        mismatches = page.evaluate(
            """async (battles) => {
              const m = await import('/static/tables/laplaplace.js');
              const bad = [];
              battles.forEach(({log, hp}, g) => {
                const turns = m.turnsOf(log);
                for (const t of turns.slice(1)) {
                  const b = m.battleAt(log, t.line - 1, turns);
                  const want = JSON.stringify([t.hp, t.base, t.cols]);
                  const got = JSON.stringify([b.hp, b.base, b.cols]);
                  if (want !== got) bad.push([g, t.line, want, got]);
                }
                const end = m.battleAt(log, log.length - 1, turns);
                if (JSON.stringify(end.hp) !== JSON.stringify(hp)) bad.push([g, 'end', hp, end.hp]);
                if (turns.length < 2 && !bad.length) bad.push([g, 'too short to check']);
              });
              return bad.filter((x) => x[1] !== 'too short to check' || battles.length === 1);
            }""",
            battles,
        )
        assert mismatches == []
        assert sum(len([x for x in b["log"] if x.startswith("Turn ")]) for b in battles) > 20
        assert errors == []
    finally:
        page.context.close()
