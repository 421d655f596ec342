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

import itertools
import json
import random
import re
import time
from collections import Counter
from typing import Any

import pytest

from cardarena.engine import load

from .browser import DESKTOP, ORIGIN, PageErrors, answer_confirmation, open_fixture, route_static
from .story import JARGON, Watch
from .test_live import create_game, new_page, server, sit_down  # noqa: F401 (server: the fixture)
from .test_lyabi_table import PHONE, READY
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
    text: t.innerText,
    asking: t.querySelectorAll('.waiting, .badge.hot, .controls, .chooser').length,
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
            # names, never seat numbers or card ids; nothing asked once the game is over
            assert JARGON.search(seen["text"]) is None and not re.search(r"\b[a-z]+_[a-z_]+\b", seen["text"]), i
            if message["terminal"]:
                assert seen["asking"] == 0, i
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


def test_choosers_and_card_buttons_say_names_and_effects_not_action_texts(browser: Any, dice: dict[str, Any]) -> None:
    """The hand's chooser (a card that fits several places) says each place with what the card does there, the
    choice decision says the effect, and the Use/Skip/Resolve-first buttons name the card; no action text
    ("grant fox_spirit", "use insight") is shown."""
    texts = load("dicebattle").card_texts()
    data = dice["dice"]
    page, errors = open_fixture(browser, dice, "dice")
    choosers = buttons = 0
    try:
        for i, message in enumerate(data["messages"]):
            named = Counter(a["text"].split()[1] for a in message["legal"] if " " in a["text"])
            cards = {a["text"].split()[1] for a in message["legal"] if a["text"].startswith("grant ")}
            cards = {c for c in cards if named[c] > 1}  # a chooser opens for a card with several places
            card_buttons = [a["text"] for a in message["legal"] if a["text"].split()[0] in ("use", "skip", "first")]
            if not cards and not card_buttons:
                continue
            goto(page, i, message["ply"])
            for card in sorted(cards):
                page.locator(f'#table [data-pick="hand:{card}"]').first.click()
                labels = page.locator("#table .chooser button.choice").all_inner_texts()
                grant = next(line for line in texts[card].text if line.startswith("Grant "))
                assert grant in labels and any(texts[card].text[0] in label for label in labels), (i, labels)
                assert texts[card].name in page.locator("#table .chooser-title").inner_text()
                page.locator("#table .chooser .cancel").click()
                choosers += 1
            for text in card_buttons:
                kind, card = text.split()
                label = page.locator(f'#table .controls [data-action="{text}"]').inner_text()
                assert label.startswith(kind.capitalize()) and texts[card].name in label and card not in label, label
                buttons += 1
            if message["observation"]["waiting"]["kind"] == "choice":
                card = message["observation"]["waiting"]["card"]
                assert texts[card].text[0][:-1] in page.locator("#table .waiting").inner_text() or any(
                    line[:-1] in page.locator("#table .waiting").inner_text() for line in texts[card].text
                ), i
        assert choosers > 0 and buttons > 0, (choosers, buttons)
        assert page.evaluate("window.__sent") == []
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


#: The card names with a word wider than its card (less a 2 px margin: the layout rounds what the canvas measures).
FIT = """() => {
  const ctx = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll('#table .dcard .dname')].filter((e) => {
    const cs = getComputedStyle(e);
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    return Math.max(...e.textContent.split(' ').map((w) => ctx.measureText(w).width)) > e.clientWidth - 2;
  }).map((e) => e.textContent + (e.closest('.mini') ? ' (small)' : ''));
}"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_card_name_is_broken_inside_a_card(browser: Any, dice: dict[str, Any], viewport: dict[str, int]) -> None:
    """Every card of the pool, in the hand (full size) and in the queue (small): no word of its name is wider
    than the card (a long word gets a smaller font instead of being cut in two)."""
    message = json.loads(json.dumps(dice["dice"]["messages"][0]))
    ids = list(dice["dice"]["welcome"]["cards"])
    message["observation"]["players"][0]["hand"] = ids
    message["observation"]["queue"] = [[1, 0, card, "main"] for card in ids]
    page, errors = open_dice(browser, dice, "dice", viewport=viewport)
    try:
        page.evaluate("(m) => window.__fixture.inject(m)", message)
        page.wait_for_function("(n) => document.querySelectorAll('#table .queue .dcard').length === n", arg=len(ids))
        assert page.evaluate(FIT) == []
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


def expected_marks(before: dict[str, Any], now: dict[str, Any], me: int) -> tuple[list[str], list[str]]:
    """What the table must mark ``changed`` between two observations of one seat (``me``: the seat drawn at the
    bottom), and what it must not: ``(marked, unmarked)`` selectors of elements (``.changed`` is added to each).
    The oracle of the last-move marks, from the two observations alone."""
    marked: list[str] = []
    unmarked: list[str] = []
    for s in (0, 1):
        b, p = before["players"][s], now["players"][s]
        side = f"#table .side.{'bottom' if s == me else 'top'}"
        for selector, differs in (
            (".die", b["roll"] != p["roll"]),
            (".stars", b["stars"] != p["stars"]),
            ("[data-deck]", b["deck_count"] != p["deck_count"]),
            ("[data-grave]", len(b["graveyard"]) != len(p["graveyard"])),
        ):
            (marked if differs else unmarked).append(f"{side} {selector}")
        if isinstance(p["main"], int):  # face down: the backs set since are new
            if p["main"] > (b["main"] if isinstance(b["main"], int) else 0):
                marked.append(f"{side} .zones .slot.main .dcard.back")
        elif isinstance(b["main"], int):  # turned face up: every card is new to this seat
            revealed = p["circle"] + ([p["grant"]] if p["grant"] else []) + ([] if p["token"] else p["main"])
            marked += [f'{side} .zones [data-card="{c}"]' for c in revealed]
            if p["token"]:
                marked.append(f"{side} .zones .dcard.token")
        if "level" in p and p["level"] != b.get("level"):
            marked.append(f"{side} .level")
        for c in Counter(p["graveyard"]) - Counter(b["graveyard"]):
            marked.append(f'{side} .grave [data-card="{c}"]')
        for c in Counter(p.get("hand", [])) - Counter(b.get("hand", [])):
            marked.append(f'{side} .hand [data-card="{c}"]')
    if before["round"] != now["round"]:
        marked.append("#table .middle .phase")
    return marked, unmarked


CHECK_MARKS = """([marked, unmarked]) => ({
  missing: marked.filter((s) => !document.querySelector(`${s}.changed`)),
  wrong: unmarked.filter((s) => document.querySelector(`${s}.changed`)),
  count: window.__table.changed(),
})"""


def check_marks(page: Any, before: dict[str, Any], now: dict[str, Any], me: int, where: Any) -> int:
    """The table marks exactly what :func:`expected_marks` says changed; returns how many marks it shows."""
    marked, unmarked = expected_marks(before, now, me)
    seen = page.evaluate(CHECK_MARKS, [marked, unmarked])
    assert seen["missing"] == [] and seen["wrong"] == [], (where, seen)
    if marked:
        assert seen["count"] > 0, where
    return int(seen["count"])


SHOWN = """() => {
  const s = window.__table.state();
  const d = window.__dicebattle;
  return d && s && d.observation === s.observation ? {before: d.before, now: d.observation} : null;
}"""


def test_a_whole_dice_battle_game_against_the_ai_by_clicking_the_table(browser: Any, server: str) -> None:  # noqa: F811
    """A whole game against the easy AI by clicks on the table, checked as a newcomer sees it (story.py: the log is
    the seat's story as the engine narrates it, no click for a forced step, no jargon). After every AI turn (the
    table shows a position other than the one after the player's own last click) exactly the changes since that
    click are marked: each die rolled, stars, counts and levels changed, backs set, cards revealed, new graveyard
    and hand cards; and the table itself never names a seat by number."""
    page, errors = new_page(browser, "Ada")
    rng = random.Random(6)
    watch = Watch(page)
    marked_turns = 0
    try:
        create_game(page, server, "dicebattle", "ai:easy")
        sit_down(page)
        page.wait_for_selector("#table .dicebattle")
        last = -1
        actions = 0
        deadline = time.monotonic() + 400
        while time.monotonic() < deadline:
            page.wait_for_function(READY, arg=last)
            shown = page.wait_for_function(SHOWN).json_value()  # the table drawn from the state read
            s = page.evaluate("window.__table.state()")
            if shown["before"] is not None:  # the AI acted since the player's last click
                count = check_marks(page, shown["before"], shown["now"], 0, s["ply"])
                assert count > 0, s["ply"]
                marked_turns += 1
            table_text = page.locator("#table").inner_text()
            assert JARGON.search(table_text) is None, (s["ply"], JARGON.search(table_text))
            if s["terminal"]:
                break
            watch.before_click(s)
            click_dice(page, rng.choice([a["text"] for a in s["legal"]]))
            last = s["ply"]
            actions += 1
        else:
            pytest.fail(f"the game did not end within 400 s ({actions} actions)")
        assert actions > 3 and marked_turns > 1, (actions, marked_turns)  # a game lasts 3 rounds at least
        state = page.evaluate("window.__table.state()")
        assert state["terminal"] and state["observation"]["result"] is not None
        assert page.locator("#result").is_visible()
        them = state["observation"]["players"][1]
        backs = page.locator("#table .side.top .hidden-hand .dcard.back").count()
        assert backs == min(12, them["hand_count"] - len(them["known_in_hand"]))
        watch.finish(server)
        assert errors == []
    finally:
        page.context.close()


def open_dice(browser: Any, dice: dict[str, Any], name: str, *, step: int = 0, **context: Any) -> tuple[Any, Any]:
    """:func:`open_fixture` with options of the browser context (``reduced_motion``, ``has_touch``, ...)."""
    context.setdefault("viewport", DESKTOP)
    page = browser.new_context(**context).new_page()
    errors = PageErrors()
    errors.watch(page)
    route_static(page, dice)
    page.goto(f"{ORIGIN}/static/table.html?fixture=/fixtures/{name}.json&step={step}")
    page.wait_for_function("() => window.__fixture !== undefined && document.querySelector('#table .dicebattle')")
    return page, errors


def goto(page: Any, i: int, ply: int) -> None:
    """Play the fixture on to message ``i`` and wait until the table shows it."""
    page.evaluate("(i) => window.__fixture.goto(i)", i)
    page.wait_for_function(
        "(ply) => window.__table.state().ply === ply"
        " && window.__dicebattle.observation === window.__table.state().observation",
        arg=ply,
    )


@pytest.mark.parametrize("name", ["dice", "dice-seat1"])
def test_what_the_opponent_changed_since_the_players_last_click_is_marked(
    browser: Any, dice: dict[str, Any], name: str
) -> None:
    """A fixture game played back as the seat's page receives it, from one decision of the seat to the next: the
    state after the seat's own action (its log entry) is the baseline, and at the next decision the table marks
    exactly what changed since, among it the opponent's new rolls and the cards it revealed; the first position
    and a decision right after the seat's own action show no mark."""
    data = dice[name]
    me = data["seat"]
    messages = data["messages"]
    decisions = [i for i, m in enumerate(messages) if m["legal"]]
    page, errors = open_dice(browser, dice, name)
    rolls = reveals = 0
    try:
        assert page.evaluate("window.__table.changed()") == 0  # nothing is marked on arrival
        for i, j in itertools.pairwise(decisions):
            baseline = messages[i + 1]["observation"]
            goto(page, j, messages[j]["ply"])
            shown = page.evaluate("window.__dicebattle")
            now = messages[j]["observation"]
            if j == i + 1:  # the player decides again at once: nothing happened since the click
                assert shown["before"] is None and page.evaluate("window.__table.changed()") == 0, j
                continue
            assert shown["before"] == baseline, j
            check_marks(page, baseline, now, me, j)
            them = 1 - me
            rolls += baseline["players"][them]["roll"] != now["players"][them]["roll"]
            reveals += isinstance(baseline["players"][them]["main"], int) and isinstance(
                now["players"][them]["main"], list
            )
        assert rolls > 1 and reveals > 1, (rolls, reveals)
        assert errors == []
    finally:
        page.context.close()


def opponents_roll(messages: list[dict[str, Any]]) -> int:
    """The first message where the opponent (seat 1) shows a new roll that the player (seat 0) did not cause: no
    action of the player's own in it, so its baseline is an earlier state (the roll is marked)."""
    return next(
        i
        for i in range(1, len(messages))
        if messages[i]["observation"]["players"][1]["roll"] != messages[i - 1]["observation"]["players"][1]["roll"]
        and messages[i]["observation"]["players"][1]["roll"]
        and all(entry["seat"] != 0 for entry in messages[i]["log"])
    )


def test_the_die_does_not_spin_under_reduced_motion_but_is_still_marked(browser: Any, dice: dict[str, Any]) -> None:
    messages = dice["dice"]["messages"]
    step = opponents_roll(messages)
    page, errors = open_dice(browser, dice, "dice", step=step - 1, reduced_motion="reduce")
    try:
        goto(page, step, messages[step]["ply"])
        assert page.locator("#table .side.top .die.changed").count() == 1
        assert page.locator("#table .die.rolling, #table .dcard.reveal").count() == 0
        assert page.evaluate(
            "getComputedStyle(document.querySelector('#table .side.top .die.changed')).animationName"
        ) in ("none", "")
        assert errors == []
    finally:
        page.context.close()


VIEWER = """() => {
  const v = document.querySelector('#card-viewer');
  return v && !v.hidden ? {text: v.textContent, sheet: v.classList.contains('sheet')} : null;
}"""


def test_every_face_up_card_can_be_read_by_hover_and_has_no_tooltip(browser: Any, dice: dict[str, Any]) -> None:
    """Every face-up card of the table (hand, dice, queue, graveyard, stock) carries its text for the card viewer
    (no ``title`` tooltip, which touch screens never show); hovering a card shows its name and effect in words,
    from the game's card texts."""
    texts = load("dicebattle").card_texts()
    messages = dice["dice"]["messages"]
    battle = next(i for i, m in enumerate(messages) if m["observation"]["queue"])
    page, errors = open_dice(browser, dice, "dice", step=battle)
    try:
        cards = page.evaluate(
            """() => [...document.querySelectorAll('#table [data-card]')].map((e) => ({
                 id: e.dataset.card, info: !!e.cardInfo, title: e.getAttribute('title'),
                 described: e.getAttribute('aria-description') || ''}))"""
        )
        assert len(cards) > 5
        for card in cards:
            info = texts[card["id"]]
            assert card["info"] and card["title"] is None, card
            assert card["described"].startswith(info.name) and info.text[0] in card["described"], card
        card = page.locator("#table .side.bottom .hand [data-card]").first
        info = texts[card.get_attribute("data-card")]
        card.hover()
        page.wait_for_function(VIEWER)
        shown = page.evaluate(VIEWER)
        assert info.name in shown["text"] and info.text[0] in shown["text"] and not shown["sheet"], shown
        assert info.notes[0] in shown["text"]  # the notation explained: the level in words
        assert page.locator("#table details.legend summary").count() == 1
        assert errors == []
    finally:
        page.context.close()


def test_a_long_press_on_a_phone_reads_a_card_without_playing_it(browser: Any, dice: dict[str, Any]) -> None:
    """On a touch phone a card held for a moment opens the card viewer as a sheet with its effect; the press
    does not also act on the card, even one a tap would set."""
    texts = load("dicebattle").card_texts()
    messages = dice["dice"]["messages"]
    step = next(i for i, m in enumerate(messages) if any(a["text"].startswith("set ") for a in m["legal"]))
    page, errors = open_dice(browser, dice, "dice", step=step, viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        card = page.locator("#table .side.bottom .hand .dcard.playable").first
        info = texts[card.get_attribute("data-card")]
        card.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True, "bubbles": True})
        page.wait_for_function(VIEWER)  # held past the long press's time
        card.dispatch_event("pointerup", {"pointerType": "touch", "isPrimary": True, "bubbles": True})
        card.dispatch_event("click")
        shown = page.evaluate(VIEWER)
        assert shown["sheet"] and info.name in shown["text"] and info.text[0] in shown["text"], shown
        assert page.evaluate("window.__sent") == []  # read, not played
        page.locator("#card-viewer .card-viewer-close").tap()
        assert page.evaluate(VIEWER) is None
        assert errors == []
    finally:
        page.context.close()


def test_a_card_reached_by_the_keyboard_is_read_and_enter_plays_it(browser: Any, dice: dict[str, Any]) -> None:
    texts = load("dicebattle").card_texts()
    messages = dice["dice"]["messages"]
    step, text = next(
        (i, a["text"])
        for i, m in enumerate(messages)
        for a in m["legal"]
        if a["text"].startswith("set ") and sum(b["text"].endswith(a["text"][3:]) for b in m["legal"]) == 1
    )
    page, errors = open_fixture(browser, dice, "dice", step=step)
    try:
        card = text.split()[1]
        page.locator(f'#table [data-pick="hand:{card}"]').first.focus()
        page.wait_for_function(VIEWER)
        assert texts[card].text[0] in page.evaluate(VIEWER)["text"]
        page.keyboard.press("Enter")
        assert page.evaluate("window.__sent") == [{"type": "act", "ply": messages[step]["ply"], "action": text}]
        assert errors == []
    finally:
        page.context.close()


def test_a_reveal_turns_the_cards_over_and_a_tap_shows_a_cards_text(browser: Any, dice: dict[str, Any]) -> None:
    """The step where the opponent's face-down set is revealed turns its cards over (once) and marks them; a tap
    on a card of the hand that has nothing to do now opens the card viewer with its text, and sends nothing."""
    texts = load("dicebattle").card_texts()
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
        revealed = messages[step]["observation"]["players"][1]["main"]
        assert page.locator("#table .side.top .zones .slot.main .dcard.changed").count() == len(revealed)
        waiting = next(
            i
            for i in range(step, len(messages))
            if not messages[i]["legal"] and messages[i]["observation"]["players"][0]["hand"]
        )
        page.evaluate("(i) => window.__fixture.goto(i)", waiting)
        card = messages[waiting]["observation"]["players"][0]["hand"][0]
        page.mouse.move(0, 0)
        page.locator(f'#table .side.bottom .hand [data-card="{card}"]').first.click()
        page.wait_for_function(VIEWER)
        shown = page.evaluate(VIEWER)
        assert texts[card].name in shown["text"] and texts[card].text[0] in shown["text"], shown
        assert page.evaluate("window.__sent") == []
        assert errors == []
    finally:
        page.context.close()
