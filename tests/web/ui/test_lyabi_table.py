"""Lyabi's browser table (static/tables/lyabi.js) in headless Chromium.

Fixture mode (seeded engine games played back, no server): every state is drawn without a script error, with the
opponent's hand as backs (less the cards everyone knows), the counts of the observation, the battle sets face
down until both are set and then shown together with their colours lit on the triangle; every legal action of
a seat is taken by clicks on the table (pay cards, then a pile; the dummy; the set button; the crystal's cards;
the item; a colour of the triangle), never through the action list; a 390x844 phone needs no horizontal
scrolling and its tap targets are 40 px or more; players are named, never "seat N", and nothing waits or
threatens once the game is over. The last move (issue 28, point 2): at the player's next decision every place the
opponent's moves changed is marked ``changed`` (checked against this test's own diff of the two observations),
and what left the table is said "gone:" where it was. Readable cards (point 4): every face-up card and pile shows
its text on hover and on a phone's long press, choosers say their choices in words. Live: a whole game against
the AI of the real server, played to the end by clicking on the table, with the marks checked after every AI turn
and story.py's checks (the log is the seat's narrated story, no click for a forced step, no jargon).
"""

from __future__ import annotations

import itertools
import json
import random
import re
import time
from collections.abc import Callable
from typing import Any

import pytest

from .browser import ORIGIN, PageErrors, answer_confirmation, open_fixture, route_static, touch_and_hold
from .story import Watch
from .test_live import create_game, new_page, server, sit_down  # noqa: F401 (server: the fixture)
from .wire import play_fixture

#: (name, seed, seat): a seat's game and a spectator's, played by heuristic agents (they use every item kind).
LYABI_FIXTURES = (("lyabi", 3, 0), ("lyabi-seat1", 8, 1), ("lyabi-watch", 5, None))
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def lyabi() -> dict[str, dict[str, Any]]:
    return {
        name: play_fixture("lyabi", {}, seed, seat, ("heuristic", "heuristic")) for name, seed, seat in LYABI_FIXTURES
    }


def choose(page: Any, text: str) -> None:
    """When the click opened the chooser, take ``text`` from it."""
    choice = page.locator(f'#table .chooser [data-action="{text}"]')
    if choice.count():
        choice.click()


def click_lyabi(page: Any, text: str) -> None:
    """:func:`pick_lyabi`, then the page's confirmation accepted where it asks one."""
    pick_lyabi(page, text)
    answer_confirmation(page)


def pick_lyabi(page: Any, text: str) -> None:
    """Take the legal action ``text`` by clicking on Lyabi's table, as a player would: the ryabi to pay with
    (or to set), then what is paid for (a supply pile, a circle pile, the item pile) or the set button; your item
    or a colour of the triangle; the crystal's cards in order; the dummy; the pass and no-item buttons."""
    table = page.locator("#table")
    words = text.split()
    kind = words[0]
    if kind in ("pass", "decline"):
        table.locator(f'.controls [data-action="{text}"]').click()
        return
    if kind == "order":
        for name in words[1:]:
            table.locator(f'.crystal [data-card="{name}"]:not(.picked)').first.click()
        return
    if kind == "use":
        key = f"colour:{words[2]}" if words[1] == "brush" else "item:mine"
        table.locator(f'[data-pick="{key}"]').first.click()
        choose(page, text)
        return
    if text == "set dummy":
        table.locator('[data-pick="dummy"]').click()
        return
    if kind == "buy":
        pay, key = words[3:], f"supply:{words[1]}"
    elif kind == "split":
        pay, key = [words[1]], f"supply:{words[3]}"
    elif kind == "place":
        end = words.index("replace") if "replace" in words else len(words)
        pay, key = words[3:end], f"circles:{words[1]}"
    elif kind == "item":
        pay, key = words[2:], "items"
    elif kind == "set":
        pay, key = words[1:], "set"
    else:
        raise AssertionError(f"no click for {text!r}")
    for name in pay:
        table.locator(f'.side.mine [data-hand][data-card="{name}"]:not(.picked)').first.click()
    table.locator(f'[data-pick="{key}"]').first.click()
    choose(page, text)


READ = """async (i) => {
  window.__fixture.goto(i);
  await new Promise((r) => setTimeout(r, 0));
  const t = document.querySelector('#table');
  const side = (where) => {
    const s = t.querySelector(`.side.${where}`);
    return {
      seat: Number(s.dataset.seat),
      backs: s.querySelectorAll('.hidden-hand .ry.back').length,
      hidden: !!s.querySelector('.hidden-hand'),
      handFaces: [...s.querySelectorAll('.hand > .row [data-card]')].map((e) => e.dataset.card),
      hp: Number(s.querySelector('.hp').dataset.hp),
      deck: Number(s.querySelector('[data-deck]').dataset.deck),
      discard: Number(s.querySelector('[data-discard]').dataset.discard),
      circles: [...s.querySelectorAll('.field [data-circle]')].map((e) => e.dataset.circle),
      itemBack: s.querySelectorAll('.item .itemcard.back').length,
      itemFace: [...s.querySelectorAll('.item .itemcard.face')].map((e) => e.dataset.item),
    };
  };
  return {
    ply: window.__table.state().ply,
    top: side('top'), bottom: side('bottom'),
    sets: [...t.querySelectorAll('.set-slot')].map((e) => ({seat: Number(e.dataset.seat), set: e.dataset.set,
      backs: e.querySelectorAll('.ry.back').length,
      faces: [...e.querySelectorAll('[data-card]')].map((c) => c.dataset.card),
      revealed: e.classList.contains('revealed')})),
    lit: [...t.querySelectorAll('.triangle .node.lit')].map((e) => e.textContent).sort(),
    supply: Object.fromEntries([...t.querySelectorAll('[data-pick^="supply:"]')]
      .map((e) => [e.dataset.pick.slice(7), Number(e.dataset.left)])),
    faces: [...t.querySelectorAll('[data-card]')].map((e) => e.dataset.card),
    text: t.innerText,
  };
}"""


@pytest.mark.parametrize("name", [f[0] for f in LYABI_FIXTURES])
def test_every_lyabi_state_is_drawn_as_the_seat_sees_it(browser: Any, lyabi: dict[str, Any], name: str) -> None:
    data = lyabi[name]
    page, errors = open_fixture(browser, lyabi, name)
    reveals = hidden_sets = 0
    try:
        for i, message in enumerate(data["messages"]):
            obs = message["observation"]
            seen = page.evaluate(READ, i)
            assert seen["ply"] == message["ply"]
            for where in ("top", "bottom"):
                s = seen[where]
                p = obs["players"][s["seat"]]
                assert (s["hp"], s["deck"], s["discard"]) == (p["hp"], p["deck_size"], len(p["discard"])), (i, where)
                assert s["circles"] == p["field"], i
                if "hand" in p:  # the seat's own hand, face up
                    assert sorted(s["handFaces"]) == sorted(p["hand"]), i
                    assert s["itemFace"] == ([p["item"]] if p["item"] else []), i
                else:  # another seat's hand: the cards everyone knows face up, the rest as backs
                    assert s["hidden"]
                    assert s["backs"] == min(10, p["hand_size"] - len(p["hand_known"])), i
                    assert sorted(s["handFaces"]) == sorted(p["hand_known"]), i
                    assert s["itemBack"] == (1 if p["item"] else 0), i
                    assert s["itemFace"] == [], i
            assert seen["supply"] == obs["supply"]
            for slot in seen["sets"]:
                shown = obs["players"][slot["seat"]]["set"]
                if shown == "face down":
                    hidden_sets += 1
                    assert (slot["backs"], slot["faces"]) == (1, []), i
                elif isinstance(shown, list):
                    assert slot["faces"] == shown, i
            if obs["battle_colours"] is not None:  # revealed together: both slots show their cards at once
                reveals += 1
                assert all(s["revealed"] for s in seen["sets"]), i
                assert seen["lit"] == sorted({c for c in obs["battle_colours"] if c}), i
            # players by name, never by seat; at the end, nothing still waits, sets or threatens damage
            assert not re.search(r"\b(seat \d|P[01]\b)", seen["text"], re.IGNORECASE), (i, seen["text"])
            if obs["result"] is not None:
                stale = ("Waiting on", "not set yet", "damage coming", "to act", "phase")
                assert not [w for w in stale if w in seen["text"]], (i, seen["text"])
            # nothing face up that this seat's observation does not show
            observed = json.dumps(obs)
            for card in seen["faces"]:
                assert f'"{card}"' in observed, (i, card)
        # a face-down set is seen when the other seat sets first (the first player sets first every turn)
        assert reveals > 3 and (hidden_sets > 3 or data["messages"][0]["observation"]["first_player"] == data["seat"])
        assert errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("name", ["lyabi", "lyabi-seat1"])
def test_every_lyabi_decision_is_taken_by_clicking_the_table(browser: Any, lyabi: dict[str, Any], name: str) -> None:
    """In every decision of the seat, one legal action of each kind (buy, split, place, item, set, use, order,
    pass, decline; which one drawn at random) is sent, with its exact text and ply, by clicks on the table
    alone."""
    data = lyabi[name]
    page, errors = open_fixture(browser, lyabi, name)
    kinds: set[str] = set()
    try:
        page.locator("#actions-box").evaluate("(e) => { e.hidden = true; }")  # the fallback list: never clicked
        decisions = [i for i, m in enumerate(data["messages"]) if m["legal"]]
        for i in decisions[::2]:  # every other decision keeps the test short
            message = data["messages"][i]
            page.evaluate("(i) => window.__fixture.goto(i)", i)
            page.wait_for_function("(ply) => window.__table.state().ply === ply", arg=message["ply"])
            by_kind: dict[str, list[str]] = {}
            for a in message["legal"]:
                by_kind.setdefault(a["text"].split()[0], []).append(a["text"])
            rng = random.Random(i)
            for text in [rng.choice(texts) for texts in by_kind.values()]:  # one action of each kind
                before = page.evaluate("window.__sent.length")
                click_lyabi(page, text)
                sent = page.evaluate(f"window.__sent.slice({before})")
                assert sent == [{"type": "act", "ply": message["ply"], "action": text}], (i, text)
                kinds.add(text.split()[0] if not text.startswith("use ") else " ".join(text.split()[:2]))
        assert {"buy", "place", "item", "set", "pass", "decline"} <= kinds, kinds
        assert errors == []
    finally:
        page.context.close()


def test_lyabi_crystal_brush_and_split_are_clicked_on_the_table(browser: Any) -> None:
    """The rarer decisions, found in seeded games: the crystal's order, the brush's colour, a split."""
    found: dict[str, tuple[dict[str, Any], int, str]] = {}
    for seed in range(40):
        data = play_fixture("lyabi", {}, seed, 0, ("heuristic", "random"))
        for i, m in enumerate(data["messages"]):
            for a in m["legal"]:
                for kind in ("order", "use brush", "split"):
                    if a["text"].startswith(kind) and kind not in found:
                        found[kind] = (data, i, a["text"])
        if len(found) == 3:
            break
    assert set(found) == {"order", "use brush", "split"}, set(found)
    for kind, (data, i, text) in found.items():
        page, errors = open_fixture(browser, {"f": data}, "f", step=i)
        try:
            click_lyabi(page, text)
            assert page.evaluate("window.__sent") == [
                {"type": "act", "ply": data["messages"][i]["ply"], "action": text}
            ], kind
            assert errors == []
        finally:
            page.context.close()


def test_a_phone_shows_the_lyabi_table_without_sideways_scrolling(browser: Any, lyabi: dict[str, Any]) -> None:
    messages = lyabi["lyabi"]["messages"]
    battle = next(i for i, m in enumerate(messages) if m["observation"]["battle_colours"] and m["legal"])
    for step in (0, battle, len(messages) - 1):
        page, errors = open_fixture(browser, lyabi, "lyabi", step=step, viewport=PHONE)
        try:
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], step
            small = page.evaluate(
                """() => [...document.querySelectorAll('#table button, #table .target, #table .playable')]
                   .filter((e) => e.offsetParent !== null)
                   .map((e) => [e.textContent.trim() || e.dataset.card, e.getBoundingClientRect()])
                   .filter(([, r]) => r.width < 40 || r.height < 40 || r.right > innerWidth + 1)
                   .map(([t, r]) => `${t}: ${r.width}x${r.height} at ${r.left}`)"""
            )
            assert small == [], (step, small)
            assert errors == []
        finally:
            page.context.close()


# ------------------------------------------------------------------------------------------------ the last move


def expected_marks(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The places of the table (CSS selectors under ``#table``) that must hold a ``changed`` mark, from this test's
    own diff of two observations of the seat: HP, deck and discard counts, fields, items, hand sizes (the seat's
    own hand: its contents), battle sets set or revealed, the supply, circle and item piles, the last battle, the
    removed cards, the step (turn and phase) and the end."""
    marks = []
    for s in (0, 1):
        b, a = before["players"][s], after["players"][s]
        side = f'.side[data-seat="{s}"]'
        if b["hp"] != a["hp"]:
            marks.append(f"{side} .hp")
        if b["deck_size"] != a["deck_size"]:
            marks.append(f"{side} [data-deck]")
        if b["discard"] != a["discard"]:
            marks.append(f"{side} [data-discard]")
        if b["field"] != a["field"]:
            marks.append(f"{side} .field")  # the circle placed, or a "gone:" note
        if b["item"] != a["item"]:
            marks.append(f"{side} .zone.item")
        if b["hand_size"] != a["hand_size"] or b.get("hand") != a.get("hand"):
            marks.append(f"{side} .hand-count")
        if a["set"] is not None and b["set"] != a["set"]:
            marks.append(f'.set-slot[data-seat="{s}"]')
    for kind, key in (("supply", "supply:"), ("circle_piles", "circles:")):
        marks += [f'[data-pick="{key}{n}"]' for n, k in after[kind].items() if before[kind][n] != k]
    if before["item_pile"] != after["item_pile"]:
        marks.append('[data-pick="items"]')
    if (before["turn"], before["phase"]) != (after["turn"], after["phase"]):
        marks.append(".phase")
    for key, selector in (("last_battle", ".last-battle"), ("removed", ".removed"), ("result", ".over")):
        if before[key] != after[key]:
            marks.append(selector)
    return marks


#: The expected places without a mark, in or on them (``#table`` selectors).
UNMARKED = """(selectors) => selectors.filter((q) => ![...document.querySelectorAll(`#table ${q}`)]
  .some((el) => el.classList.contains('changed') || el.querySelector('.changed')))"""
#: The pair of observations the table marks now (the module's own, imported as the page imported it).
MARKED = """async () => {
  const m = await import(new URL('/static/tables/lyabi.js', location.href).href);
  const {before, obs} = m.lastMarked();
  return {before, obs, count: window.__table.changed()};
}"""


def test_the_opponents_moves_are_marked_until_the_players_next_decision(browser: Any, lyabi: dict[str, Any]) -> None:
    """Decision after decision of a seat's game (fixture), the player acts by a click, and at its next decision
    every place whose part of the observation changed meanwhile (the opponent's purchases, circles, items, sets,
    the battle, HP, draws) is marked; the opponent's purchase is marked on the supply pile and in its discard
    pile; nothing is marked on arrival nor right after the player's own action."""
    data = lyabi["lyabi"]
    messages = data["messages"]
    decisions = [i for i, m in enumerate(messages) if m["legal"]]
    page, errors = open_fixture(browser, lyabi, "lyabi", step=decisions[0])
    checked = bought = 0
    try:
        assert page.evaluate("window.__table.changed()") == 0  # the first state is its own baseline
        for i, j in list(itertools.pairwise(decisions))[:40]:
            page.evaluate("(i) => window.__fixture.goto(i)", i)
            click_lyabi(page, messages[i]["legal"][0]["text"])  # the player's decision (sent to __sent)
            page.evaluate("(i) => window.__fixture.goto(i)", i + 1)  # the state after it: the new baseline
            assert page.evaluate("window.__table.changed()") == 0, i
            if j == i + 1:  # the player decides again at once: nothing else happened
                continue
            page.evaluate("(i) => window.__fixture.goto(i)", j)
            seen = page.evaluate(MARKED)
            before, after = messages[i + 1]["observation"], messages[j]["observation"]
            assert (seen["before"], seen["obs"]) == (before, after), (i, j)
            expected = expected_marks(before, after)
            assert page.evaluate(UNMARKED, expected) == [], (i, j, expected)
            assert seen["count"] >= len(expected) > 0 or not expected, (i, j)
            checked += bool(expected)
            them = 1 - data["seat"]
            for name, left in after["supply"].items():
                if left < before["supply"][name]:  # bought by the opponent (the player's own purchase came before)
                    bought += 1
                    assert page.locator(f'#table [data-pick="supply:{name}"].changed').count() == 1, (j, name)
                    if name in after["players"][them]["discard"] and name not in before["players"][them]["discard"]:
                        assert page.locator(f'#table .side.top .discard [data-card="{name}"].changed').count() == 1
        assert checked > 20 and bought > 3, (checked, bought)
        assert errors == []
    finally:
        page.context.close()


def test_what_left_the_table_is_said_gone_where_it_was(browser: Any, lyabi: dict[str, Any]) -> None:
    """A battle's ryabi, removed from the game, are named in a marked "gone:" note by the battle; an item used by
    the opponent, in one by its item (fixture: the spectator's game, whose baseline is the state before)."""
    data = lyabi["lyabi-watch"]
    messages = data["messages"]
    page, errors = open_fixture(browser, lyabi, "lyabi-watch")
    ryabi = items = 0
    try:
        for k in range(1, len(messages)):
            before, after = messages[k - 1]["observation"], messages[k]["observation"]
            gone = [n for n, c in after["removed"]["ryabi"].items() if c > before["removed"]["ryabi"].get(n, 0)]
            lost = [s for s in (0, 1) if before["players"][s]["item"] and not after["players"][s]["item"]]
            if not gone and not lost:
                continue
            page.evaluate("(i) => window.__fixture.goto(i)", k)
            notes = page.evaluate(
                """() => [...document.querySelectorAll('#table .gone.changed')].map((e) => ({
                  text: e.textContent, seat: e.closest('.side') ? Number(e.closest('.side').dataset.seat) : null}))"""
            )
            if gone:
                ryabi += 1
                battle = [n["text"] for n in notes if n["seat"] is None]
                assert len(battle) == 1 and all(name in battle[0] for name in gone), (k, notes)
            for s in lost:
                items += 1
                assert any(n["seat"] == s and n["text"].startswith("gone: ") for n in notes), (k, s, notes)
        assert ryabi > 3 and items > 0, (ryabi, items)
        assert errors == []
    finally:
        page.context.close()


# ------------------------------------------------------------------------------------------------ readable cards

VIEWER = """() => { const v = document.querySelector('#card-viewer');
  return v && !v.hidden ? {text: v.textContent, sheet: v.classList.contains('sheet')} : null; }"""


def viewer_text(page: Any) -> str:
    page.wait_for_function(VIEWER)
    return str(page.evaluate(VIEWER)["text"])


def test_every_face_up_lyabi_card_and_pile_is_readable_by_hovering(browser: Any, lyabi: dict[str, Any]) -> None:
    """Hovering a card of the hand, a magic circle, a supply pile, a circle pile or the item pile shows its name,
    cost and effect in words; every face-up card of the table carries its text; a chooser shows the card it is
    about with its effect and its choices in words (not action texts); the table has a legend of its notation."""
    data = lyabi["lyabi"]
    messages = data["messages"]
    # a main-phase decision where a click on a supply pile with nothing picked opens a chooser of purchases
    step = next(
        i
        for i, m in enumerate(messages)
        if m["observation"]["phase"] == "main"
        and len([a for a in m["legal"] if a["text"].startswith("buy ")]) > 1
        and len({a["text"].split()[1] for a in m["legal"] if a["text"].startswith("buy ")})
        < len([a for a in m["legal"] if a["text"].startswith("buy ")])
    )
    page, errors = open_fixture(browser, lyabi, "lyabi", step=step)
    try:
        table = page.locator("#table")
        unread = page.evaluate(
            """() => [...document.querySelectorAll(
                 '#table .ry:not(.back), #table .circle:not(.back), #table .itemcard.face, #table .chip, #table .pile')]
               .filter((e) => !e.cardInfo).map((e) => e.outerHTML.slice(0, 80))"""
        )
        assert unread == []
        hand = table.locator(".side.mine [data-hand]").first
        name = hand.get_attribute("data-card")
        hand.hover()
        text = viewer_text(page)
        assert name in text and "Set it in a battle" in text and "damage multiplier" in text
        table.locator(".side.mine .field [data-circle]").first.hover()
        assert "ATK" in viewer_text(page) and "magic circle" in viewer_text(page)
        table.locator('[data-pick="items"]').hover()
        assert "item pile" in viewer_text(page) and "Mirror of Desire" in viewer_text(page)
        table.locator('[data-pick="circles:5"]').hover()
        assert "Lv5 magic circles" in viewer_text(page)
        legend = table.locator(".legend").inner_text()
        assert "blue5 = a blue ryabi of level 5" in legend and "×1.5" in legend and "ATK" in legend
        # the chooser: the card it is about, its effect, and purchases in words
        buys = [a["text"] for a in messages[step]["legal"] if a["text"].startswith("buy ")]
        target = next(t.split()[1] for t in buys if sum(b.split()[1] == t.split()[1] for b in buys) > 1)
        table.locator(f'[data-pick="supply:{target}"]').click()
        chooser = table.locator(".chooser")
        assert chooser.locator(".chooser-card").count() == 1
        assert "Set it in a battle" in chooser.locator(".chooser-effect").inner_text()
        for button in chooser.locator("[data-action]").all():
            label = button.inner_text()
            assert label.startswith(f"Buy {target}: pay ") and "worth" in label, label
            assert label != button.get_attribute("data-action") and button.get_attribute("title") is None
        chooser.locator("[data-action]").first.hover()
        assert target in viewer_text(page)
        assert errors == []
    finally:
        page.context.close()


def test_a_long_press_on_a_phone_reads_a_lyabi_card_without_playing_it(browser: Any, lyabi: dict[str, Any]) -> None:
    """On a touch phone, holding a card of the hand opens the card viewer as a sheet with its effect, and the press
    neither picks the card nor sends anything."""
    messages = lyabi["lyabi"]["messages"]
    step = next(i for i, m in enumerate(messages) if m["observation"]["phase"] == "main" and m["legal"])
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    errors = PageErrors()
    errors.watch(page)
    route_static(page, lyabi)
    page.goto(f"{ORIGIN}/static/table.html?fixture=/fixtures/lyabi.json&step={step}")
    page.wait_for_selector("#table .lyabi")
    try:
        card = page.locator("#table .side.mine [data-hand]").first
        touch_and_hold(page, card)()  # held until the sheet opened, then lifted
        seen = page.evaluate(VIEWER)
        assert seen["sheet"] and card.get_attribute("data-card") in seen["text"]
        assert "Set it in a battle" in seen["text"]
        assert page.locator("#card-viewer .card-viewer-close").is_visible()
        assert page.evaluate("window.__sent") == []
        assert page.locator("#table .side.mine .ry.picked").count() == 0
        assert errors == []
    finally:
        context.close()


# ------------------------------------------------------------------------------------------------ live

#: the game is over, or the seat must decide ("Your turn.": a decision with one forced action is the page's own to
#: take, auto-pass being on by default, so the test leaves it)
READY = """(last) => {
  const s = window.__table && window.__table.state();
  const mine = document.querySelector('#turn')?.classList.contains('mine');
  return !!s && (s.terminal || (s.ply !== last && s.to_act === window.__table.seat() && s.legal.length > 0 && mine));
}"""


def play_by_clicks(page: Any, click: Callable[[Any, str], None], choose_action: Callable[[list[str]], str]) -> int:
    """Whenever the page's seat is to act, take ``choose_action(legal texts)`` by ``click``, until the game ends;
    returns the number of actions taken. Every wait is bounded."""
    last = -1
    actions = 0
    deadline = time.monotonic() + 400
    while time.monotonic() < deadline:
        page.wait_for_function(READY, arg=last, timeout=60_000)
        s = page.evaluate("window.__table.state()")
        if s["terminal"]:
            return actions
        text = choose_action([a["text"] for a in s["legal"]])
        click(page, text)
        last = s["ply"]
        actions += 1
    pytest.fail(f"the game did not end within 400 s ({actions} actions)")


def lyabi_player(rng: random.Random) -> Callable[[list[str]], str]:
    """A quick-playing policy (the game ends sooner than with random clicks): buy the dearest ryabi, place
    circles, set the strongest ryabi, use items; a random legal action now and then."""

    def score(text: str) -> float:
        words = text.split()
        if words[0] == "buy":
            return 5 + int("".join(ch for ch in words[1] if ch.isdigit())) - 0.1 * len(words)
        if words[0] == "place":
            return 4
        if words[0] == "set" and words[1] != "dummy":
            return 3 + len(words)
        if words[0] == "use":
            return 2
        return 0

    def choose_action(legal: list[str]) -> str:
        if rng.random() < 0.2:
            return rng.choice(legal)
        return max(legal, key=lambda t: (score(t), rng.random()))

    return choose_action


#: The table drawn for the page's latest state: the pair of observations its marks compare ({before, obs}).
DRAWN = """() => {
  const s = window.__table && window.__table.state();
  const m = window.__lyabiModule && window.__lyabiModule.lastMarked();
  return !!s && !!m && m.obs === s.observation;
}"""


def check_marks(page: Any) -> int:
    """At a decision of the page's seat (or the end): every place whose part of the seat's observation changed
    since the player's own last decision holds a ``changed`` mark (:func:`expected_marks`); how many places."""
    page.evaluate(
        "async () => { window.__lyabiModule = await import(new URL('/static/tables/lyabi.js', location.href).href); }"
    )
    page.wait_for_function(DRAWN)
    words = page.locator("#table").inner_text()  # the table speaks of players by name, never by seat
    assert not re.search(r"\b(seat \d|P[01]\b|returns)", words, re.IGNORECASE), words
    seen = page.evaluate("() => ({...window.__lyabiModule.lastMarked(), count: window.__table.changed()})")
    if seen["before"] is None:
        assert seen["count"] == 0
        return 0
    expected = expected_marks(seen["before"], seen["obs"])
    assert page.evaluate(UNMARKED, expected) == [], expected
    return len(expected)


def play_marked_by_clicks(page: Any, choose_action: Callable[[list[str]], str], watch: Watch) -> tuple[int, int]:
    """:func:`play_by_clicks` with Lyabi's clicks, checking the last move's marks (:func:`check_marks`) at every
    decision of the seat after the AI acted and at the end, and the story's checks before each click
    (``watch``); returns (actions, decisions found marked)."""
    last = -1
    actions = marked = 0
    deadline = time.monotonic() + 400
    while time.monotonic() < deadline:
        page.wait_for_function(READY, arg=last, timeout=60_000)
        s = page.evaluate("window.__table.state()")
        marked += check_marks(page) > 0
        if s["terminal"]:
            return actions, marked
        watch.before_click(s)
        click_lyabi(page, choose_action([a["text"] for a in s["legal"]]))
        last = s["ply"]
        actions += 1
    pytest.fail(f"the game did not end within 400 s ({actions} actions)")


def test_a_whole_lyabi_game_against_the_ai_by_clicking_the_table(browser: Any, server: str) -> None:  # noqa: F811
    """A whole game against the easy AI, every decision by clicks on the table; after every AI turn (at the
    player's next decision, and at the end) every place the AI's moves and their consequences changed is marked;
    the page's log is the seat's story as the engine narrates it, no forced step needed a click, no page text
    says "seat", "returns", P0/P1 or an agent spec (story.py)."""
    page, errors = new_page(browser, "Ada")
    watch = Watch(page)
    try:
        create_game(page, server, "lyabi", "ai:easy")
        sit_down(page)
        page.wait_for_selector("#table .lyabi")
        actions, marked = play_marked_by_clicks(page, lyabi_player(random.Random(4)), watch)
        assert actions > 10 and marked > actions // 4, (actions, marked)
        told = watch.finish(server)
        assert any(line.startswith("the battle sets are revealed") for entry in told for line in entry)
        state = page.evaluate("window.__table.state()")
        assert state["terminal"] and state["observation"]["result"] is not None
        assert page.locator("#result").is_visible()
        assert page.locator("#table .lyabi .over").count() == 1
        # the AI's hand is still drawn as backs at the end (only what everyone knows is face up)
        them = state["observation"]["players"][1]
        backs = page.locator("#table .side.top .hidden-hand .ry.back").count()
        assert backs == min(10, them["hand_size"] - len(them["hand_known"]))
        assert errors == []
    finally:
        page.context.close()
