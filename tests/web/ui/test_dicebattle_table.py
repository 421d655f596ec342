"""Dice Battle Monsters' browser table (static/tables/dicebattle.js) in headless Chromium.

Fixture mode (seeded engine games played back, no server): every state is drawn without a script error: the
dice with their faces, the opponent's hand as backs (less the cards known to be in it), the cards set on a die
as backs for the other seat until the reveal and face up after it, stars, deck counts, the effects to resolve
in their order; every legal action of a seat is taken by clicks on the table (a card of the hand, a card on a
die or in the queue, a graveyard card, the buttons), never through the action list; a 390x844 phone needs no
horizontal scrolling and its tap targets are 40 px or more. Live: a whole game against the AI of the real
server, played to the end by clicking on the table.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from .browser import answer_confirmation, open_fixture
from .test_live import create_game, new_page, server, sit_down  # noqa: F401 (server: the fixture)
from .test_lyabi_table import PHONE, play_by_clicks
from .wire import play_fixture

DICE_FIXTURES = (("dice", 3, 0), ("dice-seat1", 4, 1), ("dice-watch", 5, None))
PLAIN = {"miracle", "done", "redraw", "token", "pass", "draw", "decline"}


@pytest.fixture(scope="module")
def dice() -> dict[str, dict[str, Any]]:
    return {
        name: play_fixture("dicebattle", {}, seed, seat, ("heuristic", "random")) for name, seed, seat in DICE_FIXTURES
    }


def click_dice(page: Any, text: str) -> None:
    """:func:`pick_dice`, then the page's confirmation accepted where it asks one."""
    pick_dice(page, text)
    answer_confirmation(page)


def pick_dice(page: Any, text: str) -> None:
    """Take ``text`` by clicking on the table: plain actions are its buttons; a card action starts from the
    card (in the hand to set it; on the die or in the queue to use, skip or resolve it first; in the graveyard to
    revive it), and the chooser takes it when the card has several actions."""
    table = page.locator("#table")
    kind, _, card = text.partition(" ")
    if kind in PLAIN:
        table.locator(f'.controls [data-action="{text}"]').click()
        return
    where = {"set": "hand", "magic": "hand", "grant": "hand", "revive": "grave"}.get(kind, "card")
    table.locator(f'[data-pick="{where}:{card}"]').first.click()
    choice = table.locator(f'.chooser [data-action="{text}"]')
    if choice.count():
        choice.click()


READ = """async (i) => {
  window.__fixture.goto(i);
  await new Promise((r) => setTimeout(r, 0));
  const t = document.querySelector('#table');
  const side = (where) => {
    const s = t.querySelector(`.side.${where}`);
    const zone = (cls) => {
      const z = s.querySelector(`.zones .slot.${cls}`);
      const faces = [...z.querySelectorAll('[data-card]')].map((e) => e.dataset.card);
      return {backs: z.querySelectorAll('.dcard.back').length, faces};
    };
    return {
      seat: Number(s.dataset.seat),
      roll: Number(s.querySelector('.die').dataset.roll),
      stars: Number(s.querySelector('.stars').dataset.stars),
      deck: Number(s.querySelector('[data-deck]').dataset.deck),
      handBacks: s.querySelectorAll('.hidden-hand .dcard.back').length,
      handFaces: [...s.querySelectorAll('.hand [data-card]')].map((e) => e.dataset.card),
      hidden: s.querySelector('.zones').dataset.hidden === 'yes',
      main: zone('main'), circle: zone('circle'), grant: zone('grant'),
      token: s.querySelectorAll('.zones .dcard.token').length,
    };
  };
  return {
    ply: window.__table.state().ply,
    top: side('top'), bottom: side('bottom'),
    queue: [...t.querySelectorAll('.queue li [data-card]')].map((e) => e.dataset.card),
    faces: [...t.querySelectorAll('[data-card]')].map((e) => e.dataset.card),
  };
}"""


@pytest.mark.parametrize("name", [f[0] for f in DICE_FIXTURES])
def test_every_dice_battle_state_is_drawn_as_the_seat_sees_it(browser: Any, dice: dict[str, Any], name: str) -> None:
    data = dice[name]
    page, errors = open_fixture(browser, dice, name)
    hidden_sets = reveals = 0
    try:
        for i, message in enumerate(data["messages"]):
            obs = message["observation"]
            seen = page.evaluate(READ, i)
            assert seen["ply"] == message["ply"]
            for where in ("top", "bottom"):
                s = seen[where]
                p = obs["players"][s["seat"]]
                assert (s["roll"], s["stars"], s["deck"]) == (p["roll"], p["stars"], p["deck_count"]), (i, where)
                if "hand" in p:
                    assert sorted(s["handFaces"]) == sorted(p["hand"]), i
                else:  # another seat's hand: backs, and the cards known to be in it face up
                    assert s["handBacks"] == min(12, p["hand_count"] - len(p["known_in_hand"])), i
                    assert sorted(s["handFaces"]) == sorted(p["known_in_hand"]), i
                if isinstance(p["main"], int):  # set face down: only how many cards, as backs
                    hidden_sets += p["main"] > 0
                    assert s["hidden"], i
                    assert (s["main"]["backs"], s["circle"]["backs"], s["grant"]["backs"]) == (
                        p["main"],
                        p["circle"],
                        p["grant"],
                    ), i
                    assert s["main"]["faces"] + s["circle"]["faces"] + s["grant"]["faces"] == [], i
                else:
                    assert not s["hidden"] and s["main"]["backs"] == 0, i
                    assert s["main"]["faces"] == ([] if p["token"] else p["main"]), i
                    assert s["circle"]["faces"] == p["circle"], i
                    assert s["grant"]["faces"] == ([p["grant"]] if p["grant"] else []), i
                    assert s["token"] == (1 if p["token"] else 0), i
                    reveals += "level" in p and s["seat"] != data["seat"] and bool(p["main"])
            assert seen["queue"] == [entry[2] for entry in obs["queue"]], i  # the effects in their order
            observed = json.dumps(obs)
            for card in seen["faces"]:
                assert f'"{card}"' in observed, (i, card)
        assert hidden_sets > 3 and reveals > 3, (hidden_sets, reveals)
        assert errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("name", ["dice", "dice-seat1"])
def test_every_dice_battle_decision_is_taken_by_clicking_the_table(
    browser: Any, dice: dict[str, Any], name: str
) -> None:
    """Every legal action of every decision of the seat is sent, with its exact text and ply, by clicks on the
    table alone (the action list is hidden)."""
    data = dice[name]
    page, errors = open_fixture(browser, dice, name)
    kinds: set[str] = set()
    try:
        page.locator("#actions-box").evaluate("(e) => { e.hidden = true; }")  # the fallback list: never clicked
        for i, message in enumerate(data["messages"]):
            if not message["legal"]:
                continue
            page.evaluate("(i) => window.__fixture.goto(i)", i)
            page.wait_for_function("(ply) => window.__table.state().ply === ply", arg=message["ply"])
            for action in message["legal"]:
                before = page.evaluate("window.__sent.length")
                click_dice(page, action["text"])
                sent = page.evaluate(f"window.__sent.slice({before})")
                assert sent == [{"type": "act", "ply": message["ply"], "action": action["text"]}], (i, action)
                kinds.add(action["text"].split()[0])
        assert {"set", "done", "use", "skip"} <= kinds, kinds
        assert errors == []
    finally:
        page.context.close()


def test_a_phone_shows_the_dice_battle_table_without_sideways_scrolling(browser: Any, dice: dict[str, Any]) -> None:
    messages = dice["dice"]["messages"]
    battle = next(i for i, m in enumerate(messages) if m["observation"]["queue"])
    for step in (0, battle, len(messages) - 1):
        page, errors = open_fixture(browser, dice, "dice", step=step, viewport=PHONE)
        try:
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], step
            small = page.evaluate(
                """() => [...document.querySelectorAll('#table button, #table .playable')]
                   .filter((e) => e.offsetParent !== null)
                   .map((e) => [e.textContent.trim() || e.dataset.card, e.getBoundingClientRect()])
                   .filter(([, r]) => r.width < 40 || r.height < 40 || r.right > innerWidth + 1)
                   .map(([t, r]) => `${t}: ${r.width}x${r.height} at ${r.left}`)"""
            )
            assert small == [], (step, small)
            assert errors == []
        finally:
            page.context.close()


def test_a_new_roll_is_shown_rolling(browser: Any, dice: dict[str, Any]) -> None:
    messages = dice["dice"]["messages"]
    step = next(
        i
        for i in range(1, len(messages))
        if messages[i]["observation"]["players"][1]["roll"] != messages[i - 1]["observation"]["players"][1]["roll"]
        and messages[i]["observation"]["players"][1]["roll"]
    )
    page, errors = open_fixture(browser, dice, "dice", step=step - 1)
    try:
        assert page.locator("#table .side.top .die.rolling").count() == 0
        page.evaluate("(i) => window.__fixture.goto(i)", step)
        page.wait_for_selector("#table .side.top .die.rolling")
        roll = messages[step]["observation"]["players"][1]["roll"]
        assert page.locator("#table .side.top .die .pip.on").count() == roll
        assert errors == []
    finally:
        page.context.close()


def test_a_whole_dice_battle_game_against_the_ai_by_clicking_the_table(browser: Any, server: str) -> None:  # noqa: F811
    page, errors = new_page(browser, "Ada")
    rng = random.Random(6)
    try:
        create_game(page, server, "dicebattle", "ai:easy")
        sit_down(page)
        page.wait_for_selector("#table .dicebattle")
        actions = play_by_clicks(page, click_dice, rng.choice)
        assert actions > 5
        state = page.evaluate("window.__table.state()")
        assert state["terminal"] and state["observation"]["result"] is not None
        assert page.locator("#result").is_visible()
        them = state["observation"]["players"][1]
        backs = page.locator("#table .side.top .hidden-hand .dcard.back").count()
        assert backs == min(12, them["hand_count"] - len(them["known_in_hand"]))
        assert errors == []
    finally:
        page.context.close()


def test_a_reveal_turns_the_cards_over_and_a_tap_shows_a_cards_text(browser: Any, dice: dict[str, Any]) -> None:
    """The step where the opponent's face-down set is revealed turns its cards over (once); a tap on a card of
    the hand that has nothing to do now shows its text from the hand panel, and sends nothing."""
    messages = dice["dice"]["messages"]
    step = next(
        i
        for i in range(1, len(messages))
        if isinstance(messages[i - 1]["observation"]["players"][1]["main"], int)
        and messages[i - 1]["observation"]["players"][1]["main"]
        and isinstance(messages[i]["observation"]["players"][1]["main"], list)
    )
    page, errors = open_fixture(browser, dice, "dice", step=step - 1)
    try:
        assert page.locator("#table .side.top .zones .dcard.back").count() > 0
        page.evaluate("(i) => window.__fixture.goto(i)", step)
        page.wait_for_selector("#table .side.top .zones .dcard.reveal")
        assert page.locator("#table .side.top .zones .dcard.back").count() == 0
        waiting = next(
            i
            for i in range(step, len(messages))
            if not messages[i]["legal"] and messages[i]["observation"]["players"][0]["hand"]
        )
        page.evaluate("(i) => window.__fixture.goto(i)", waiting)
        card = messages[waiting]["observation"]["players"][0]["hand"][0]
        page.locator(f'#table .side.bottom .hand [data-card="{card}"]').first.click()
        info = page.locator("#table .card-info")
        assert info.get_attribute("data-info") == card
        assert "Lv" in info.text_content()
        assert page.evaluate("window.__sent") == []
        assert errors == []
    finally:
        page.context.close()
