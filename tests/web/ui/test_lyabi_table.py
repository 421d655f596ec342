"""Lyabi's browser table (static/tables/lyabi.js) in headless Chromium.

Fixture mode (seeded engine games played back, no server): every state is drawn without a script error, with the
opponent's hand as backs (less the cards everyone knows), the counts of the observation, the battle sets face
down until both are set and then shown together with their colours lit on the triangle; every legal action of
a seat is taken by clicks on the table (pay cards, then a pile; the dummy; the set button; the crystal's cards;
the item; a colour of the triangle), never through the action list; a 390x844 phone needs no horizontal
scrolling and its tap targets are 40 px or more. Live: a whole game against the AI of the real server, played
to the end by clicking on the table.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from .browser import answer_confirmation, open_fixture
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


def test_a_whole_lyabi_game_against_the_ai_by_clicking_the_table(browser: Any, server: str) -> None:  # noqa: F811
    page, errors = new_page(browser, "Ada")
    try:
        create_game(page, server, "lyabi", "ai:easy")
        sit_down(page)
        page.wait_for_selector("#table .lyabi")
        actions = play_by_clicks(page, click_lyabi, lyabi_player(random.Random(4)))
        assert actions > 10
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
