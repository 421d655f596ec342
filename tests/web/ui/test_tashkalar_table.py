"""Tash-Kalar's browser table (static/tables/tashkalar.js) in headless Chromium.

Fixture mode (seeded engine games written as the server's ``state`` messages, tests/web/ui/wire.py): every state of
a duel, a High Form game, a 4-player melee, a team game and a spectator's view is drawn without a script error,
with the pieces the observation holds and the other seats' hands as backs only; every legal action is taken by
clicks on the board, the cards and the table's buttons (never the fallback list) and sent exactly; the board's
geometry and the summon previews agree with the engine; a phone-sized screen needs no horizontal scrolling.

Live (``cardarena serve`` on a loopback port, as in test_live.py): a whole duel against an AI seat and a whole
4-player melee (one person, three AI seats), played to the end by clicking on the table.
"""

from __future__ import annotations

import json
import random
import time
import urllib.request
from typing import Any

import pytest

from cardarena.games.tashkalar.board import AREAS, SQ_NAME, SQUARES, bits

from .browser import answer_confirmation, open_fixture, touch_and_hold
from .story import JARGON, Watch
from .test_live import new_page, server  # noqa: F401 - ``server``: the live server fixture, shared
from .wire import play_fixture

PHONE_TALL = {"width": 390, "height": 844}

#: (name, options, seed, seat, agent specs): the seat is the page's player (None: a spectator)
TK_FIXTURES: tuple[tuple[str, dict[str, Any], int, int | None, tuple[str, ...]], ...] = (
    ("tk-duel", {}, 3, 0, ("heuristic", "heuristic")),
    ("tk-highform", {"mode": "highform"}, 5, 1, ("heuristic", "heuristic")),
    ("tk-melee", {"mode": "melee", "players": 4}, 2, 3, ("heuristic",) * 4),  # seat 3 puts the setup commons
    ("tk-teams", {"teams": True, "players": 4}, 1, 0, ("heuristic",) * 4),
    ("tk-watch", {}, 4, None, ("heuristic", "random")),
)
NAMES = [f[0] for f in TK_FIXTURES]
SEATED = [f[0] for f in TK_FIXTURES if f[3] is not None]
T = "#table .tashkalar"


@pytest.fixture(scope="module")
def tk_fixtures() -> dict[str, dict[str, Any]]:
    return {
        name: play_fixture("tashkalar", options, seed, seat, specs)  # type: ignore[arg-type]
        for name, options, seed, seat, specs in TK_FIXTURES
    }


# ------------------------------------------------------------------------------------------- clicking


def click_tashkalar(page: Any, text: str) -> None:
    """:func:`pick_tashkalar`, then the page's confirmation accepted where it asks one."""
    pick_tashkalar(page, text)
    answer_confirmation(page)


def pick_tashkalar(page: Any, text: str) -> None:
    """Take the legal action ``text`` by clicking on the Tash-Kalar table as a player would (never the list)."""
    words = text.split(" ")
    kind = words[0]
    if kind in ("place", "choose", "recall", "setup"):
        page.locator(f'{T} .hit[data-square="{words[1]}"]').click()
        choice = page.locator(f'{T} .tk-chooser [data-action="{text}"]')
        if choice.count():
            choice.click()
        return
    if kind == "move":
        source, dest = words[1], words[2]
        if page.locator(T).get_attribute("data-from") != source:
            page.locator(f'{T} .hit[data-square="{source}"]').click()
            if page.locator(T).get_attribute("data-from") != source:  # the square had other actions too
                page.locator(f"{T} .tk-chooser [data-source]").click()
        page.locator(f'{T} .hit[data-square="{dest}"]').click()
        return
    if kind in ("summon", "discard", "bottom", "flare"):
        card = words[1]
        if page.locator(T).get_attribute("data-card") != card:
            page.locator(f'{T} .tk-card[data-card="{card}"]').click()
        if kind == "summon":
            page.locator(f'{T} .hit[data-square="{words[3]}"]').click()
            variant = page.locator(f'{T} .tk-chooser [data-variant="{text}"]')
            if variant.count():
                variant.click()
        page.locator(f'{T} .tk-chooser [data-action="{text}"]').click()
        return
    page.locator(f'{T} [data-action="{text}"]').first.click()


def sample(legal: list[dict[str, Any]], rng: random.Random, counts: dict[str, int], per_kind: int = 3) -> list[str]:
    """One action of each kind in this state while that kind has been checked fewer than ``per_kind`` times in the
    game (each state gets one at least): every kind of decision is clicked several times, in a few seconds."""
    kinds: dict[str, list[str]] = {}
    for a in legal:
        kinds.setdefault(a["text"].split(" ")[0], []).append(a["text"])
    out = []
    for kind, texts in kinds.items():
        if counts.get(kind, 0) < per_kind:
            out.append(rng.choice(texts))
            counts[kind] = counts.get(kind, 0) + 1
    return out or [rng.choice(legal)["text"]]


# ------------------------------------------------------------------------------------------- fixture mode

READ_PAGE = """async (i) => {
  window.__fixture.goto(i);
  await new Promise((r) => setTimeout(r, 0));
  const state = window.__table.state();
  const root = document.querySelector('#table .tashkalar');
  const seats = [...root.querySelectorAll('.tk-seat')].map((e) => ({
    seat: Number(e.dataset.seat),
    backs: e.querySelectorAll('.hidden-hand .tk-back').length,
  }));
  return {
    ply: state.ply,
    pieces: [...root.querySelectorAll('.tk-board .piece')].map((e) => [e.dataset.at, e.dataset.piece]).sort(),
    squares: root.querySelectorAll('.hit').length,
    cards: [...root.querySelectorAll('[data-card]')].map((e) => e.dataset.card),
    hand: [...root.querySelectorAll('.tk-hand .tk-card')].length,
    seats,
    text: root.textContent,
    listed: [...document.querySelectorAll('#actions [data-action]')].length,
  };
}"""


@pytest.mark.parametrize("name", NAMES)
def test_every_state_is_drawn_from_the_observation_alone(browser: Any, tk_fixtures: dict[str, Any], name: str) -> None:
    data = tk_fixtures[name]
    seat = data["seat"]
    page, errors = open_fixture(browser, tk_fixtures, name)
    try:
        for i, message in enumerate(data["messages"]):
            seen = page.evaluate(READ_PAGE, i)
            obs = message["observation"]
            assert seen["ply"] == message["ply"]
            assert seen["squares"] == 69
            want = sorted([sq, f"{c}-{r}"] for sq, (c, r) in obs["board"].items())
            assert seen["pieces"] == want, i
            # no card is named that this seat's observation does not hold
            observed = json.dumps(obs)
            for card in seen["cards"]:
                assert f'"{card}"' in observed, (i, card)
            # another seat's hand: backs only, as many as its hidden cards
            for row in seen["seats"]:
                s = row["seat"]
                sizes = obs["hand_sizes"][s]
                if s == seat:
                    assert row["backs"] == 0
                    continue
                known = len(obs["known_hand_cards"][s])
                mate = obs.get("colour_of_seat") is not None and seat is not None and s == (seat + 2) % 4
                assert row["backs"] == sum(sizes) - known - (sizes[1] if mate else 0), (i, s)
            if seat is None:
                assert seen["hand"] == 0 and "hand" not in obs
            else:
                assert seen["hand"] == sum(len(v) for v in obs["hand"].values()) + len(obs.get("team_legends", []))
            assert seen["listed"] == len(message["legal"])  # the fallback list is still there, folded
        assert errors == []
    finally:
        page.context.close()


def test_what_each_mode_shows(browser: Any, tk_fixtures: dict[str, Any]) -> None:
    """Scores per colour and their targets, High Form's tasks, melee's score table, the teams."""
    checks = {
        "tk-duel": ["/ 18"],
        "tk-highform": ["High Form tasks", "/ 9", "next task"],
        "tk-melee": ["/ 10", "improvised"],
        "tk-teams": ["team: ", "teammate"],
    }
    for name, words in checks.items():
        data = tk_fixtures[name]
        step = len(data["messages"]) // 2
        page, errors = open_fixture(browser, tk_fixtures, name, step=step)
        try:
            text = page.locator(T).text_content()
            for word in words:
                assert word in text, (name, word)
            obs = data["messages"][step]["observation"]
            colours = len(obs["supply_two_sided"])
            assert page.locator(f"{T} .tk-score").count() == colours
            if name == "tk-highform":
                assert page.locator(f"{T} .tk-task").count() == len(obs["tasks"])
            assert errors == []
        finally:
            page.context.close()


@pytest.mark.parametrize("name", SEATED)
def test_every_decision_is_taken_on_the_table(browser: Any, tk_fixtures: dict[str, Any], name: str) -> None:
    """In every state where the seat acts, actions of each kind there (see ``sample``) are taken by clicks on the
    board, the cards and the table's buttons, and the page sends exactly its text at that ply."""
    data = tk_fixtures[name]
    rng = random.Random(name)
    page, errors = open_fixture(browser, tk_fixtures, name)
    kinds: set[str] = set()
    counts: dict[str, int] = {}
    try:
        checked = 0
        for i, message in enumerate(data["messages"]):
            if not message["legal"]:
                continue
            page.evaluate("(i) => window.__fixture.goto(i)", i)
            page.wait_for_function("(ply) => window.__table.state().ply === ply", arg=message["ply"])
            for text in sample(message["legal"], rng, counts):
                before = page.evaluate("window.__sent.length")
                click_tashkalar(page, text)
                sent = page.evaluate(f"window.__sent.slice({before})")
                assert sent == [{"type": "act", "ply": message["ply"], "action": text}], (i, text)
                kinds.add(text.split(" ")[0])
                checked += 1
        assert checked > 25
        # every kind of decision the seat met in this game was taken on the table
        assert kinds == {a["text"].split(" ")[0] for m in data["messages"] for a in m["legal"]}
        assert {"place", "summon", "end", "resign" if name != "tk-melee" else "setup"} <= kinds, kinds
        assert errors == []
    finally:
        page.context.close()


def test_choosing_a_being_shows_its_places_and_the_pattern_of_each(browser: Any, tk_fixtures: dict[str, Any]) -> None:
    data = tk_fixtures["tk-duel"]
    step, action = next(
        (i, a)
        for i, m in enumerate(data["messages"])
        for a in m["legal"]
        if a["text"].startswith("summon ") and len(a["detail"].split("pattern on ")[1].split(";")[0].split()) >= 2
    )
    card, square = action["text"].split(" ")[1], action["text"].split(" ")[3]
    legal = data["messages"][step]["legal"]
    places = sorted({a["text"].split(" ")[3] for a in legal if a["text"].startswith(f"summon {card} at ")})
    page, errors = open_fixture(browser, tk_fixtures, "tk-duel", step=step)
    try:
        page.locator(f'{T} .tk-card[data-card="{card}"]').click()
        assert page.locator(T).get_attribute("data-card") == card
        marked = page.eval_on_selector_all(f"{T} .mark.summon-place", "els => els.map((e) => e.dataset.sq)")
        assert sorted(marked) == places
        page.locator(f'{T} .hit[data-square="{square}"]').click()
        variant = page.locator(f'{T} .tk-chooser [data-variant="{action["text"]}"]')
        if variant.count():
            variant.click()
        pattern = sorted(page.eval_on_selector_all(f"{T} .mark.pattern", "els => els.map((e) => e.dataset.sq)"))
        want = sorted(action["detail"].split("pattern on ")[1].split(";")[0].split(" (")[0].split())
        assert pattern == want
        assert page.eval_on_selector_all(f"{T} .mark.being", "els => els.map((e) => e.dataset.sq)") == [square]
        assert page.evaluate("window.__sent.length") == 0  # nothing is sent before "Summon"
        page.locator(f'{T} .tk-chooser [data-action="{action["text"]}"]').click()
        assert page.evaluate("window.__sent")[-1]["action"] == action["text"]
        assert errors == []
    finally:
        page.context.close()


def test_the_board_and_the_patterns_agree_with_the_engine(browser: Any, tk_fixtures: dict[str, Any]) -> None:
    """The module's squares, coloured squares and central area are the engine's; its pattern transform gives, for
    every summon of every fixture, exactly the squares the summon's menu detail names, and never a square past the
    arena's edge (a card's marked squares may reach past it; drawn there they were SVG shapes at y="NaN")."""
    summons = []
    for data in tk_fixtures.values():
        for m in data["messages"]:
            hand = next((p["lines"] for p in m["board"] if p["key"] == "hand"), [])
            for a in m["legal"]:
                if a["text"].startswith("summon "):
                    summons.append({"text": a["text"], "detail": a["detail"], "hand": hand})
    assert len(summons) > 200
    page, errors = open_fixture(browser, tk_fixtures, "tk-duel")
    try:
        got = page.evaluate(
            """async (summons) => {
              const m = await import('/static/tables/tashkalar.js');
              const bad = [];
              let compared = 0;
              let offBoard = 0;
              for (const s of summons) {
                const a = m.parseAction(s.text);
                const card = m.readHand([{key: 'hand', lines: s.hand}]).cards[a.card];
                if (!card) continue;  // a teammate's legend: the preview uses the detail's squares
                const all = m.patternSquares(card.pattern, a.sq, a.orient);
                // a marked square past the arena's edge is no square: it is left out, never drawn at NaN
                offBoard += all.filter((x) => !m.SQUARES.includes(x.sq)).length;
                const squares = all.filter((x, k) => k > 0 && x.tok !== '*').map((x) => x.sq).sort();
                const listed = m.detailSquares(s.detail).sort();
                compared += 1;
                if (JSON.stringify(squares) !== JSON.stringify(listed)) bad.push([s.text, squares, listed]);
              }
              // a ring of marked squares around a being on the left edge: the three past the edge are left out
              const edge = m.patternSquares([['*', '*', '*'], ['*', '@', '*'], ['*', '*', '*']], 'a5', 'r0');
              return {
                bad, compared, offBoard, edge: edge.map((x) => x.sq).sort(),
                squares: m.SQUARES, red: m.RED, green: m.GREEN, central: m.CENTRAL,
              };
            }""",
            summons,
        )
        assert got["bad"] == []
        assert got["compared"] > 200
        assert got["offBoard"] == 0
        assert got["edge"] == ["a4", "a5", "a6", "b4", "b5", "b6"]
        assert sorted(got["squares"]) == sorted(SQ_NAME[s] for s in SQUARES)
        for area in ("red", "green", "central"):
            assert sorted(got[area]) == sorted(SQ_NAME[s] for s in bits(AREAS[area])), area
        assert errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("name", ["tk-duel", "tk-highform", "tk-melee", "tk-teams"])
def test_a_phone_sized_screen_holds_the_board_and_the_hand(
    browser: Any, tk_fixtures: dict[str, Any], name: str
) -> None:
    messages = tk_fixtures[name]["messages"]
    acting = [i for i, m in enumerate(messages) if any(a["text"].startswith("summon ") for a in m["legal"])]
    for step in sorted({acting[0] if acting else 0, len(messages) // 2, len(messages) - 1}):
        page, errors = open_fixture(browser, tk_fixtures, name, step=step, viewport=PHONE_TALL)
        try:
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_TALL["width"], step
            box = page.locator(f"{T} .tk-board").bounding_box()
            assert box is not None and 300 <= box["width"] <= PHONE_TALL["width"], box
            cards = page.locator(f"{T} .tk-hand .tk-card")
            if cards.count():
                cards.last.scroll_into_view_if_needed()
                assert cards.last.is_visible()
            small = page.evaluate(
                """() => [...document.querySelectorAll('#table button, #table .tk-card.usable')]
                   .filter((e) => e.offsetParent !== null)
                   .map((e) => [e.textContent.trim(), e.getBoundingClientRect()])
                   .filter(([, r]) => r.width < 40 || r.height < 40)
                   .map(([t, r]) => `${t}: ${r.width}x${r.height}`)"""
            )
            assert small == [], (step, small)
            assert errors == []
        finally:
            page.context.close()


# ------------------------------------------------------------------------------------------- live games

WAIT_MS = 60_000


def create(base: str, options: dict[str, Any], seats: list[dict[str, Any]]) -> dict[str, Any]:
    body = json.dumps({"game": "tashkalar", "options": options, "seats": seats}).encode()
    request = urllib.request.Request(
        f"{base}/api/games", data=body, headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return dict(json.loads(answer.read()))


def choose(legal: list[dict[str, Any]], rng: random.Random) -> str:
    """A person's random play that moves the game on: never resign, summon and claim when possible."""
    texts = [a["text"] for a in legal if a["text"] != "resign"]
    for kind in ("claim ", "summon "):
        found = [t for t in texts if t.startswith(kind)]
        if found and rng.random() < 0.8:
            return rng.choice(found)
    return rng.choice(texts)


#: The last move as the page holds it: its baseline, the observation now, and the board squares it marks.
READ_MARKS = """() => ({
  before: window.__table.before(),
  now: window.__table.state().observation,
  squares: [...document.querySelectorAll('#table .tk-board .mark.changed')]
    .map((e) => [e.dataset.sq, e.dataset.change]),
  scores: [...document.querySelectorAll('#table .tk-score')].map((e) => e.querySelector('.tk-points.changed') !== null),
})"""


def board_changes(before: dict[str, Any], now: dict[str, Any]) -> list[list[str]]:
    """Every square whose piece differs between two observations, as [square, new | gone | changed], sorted."""
    was, board = before.get("board", {}), now.get("board", {})
    out = []
    for sq in sorted(set(was) | set(board)):
        if was.get(sq) != board.get(sq):
            out.append([sq, "new" if sq not in was else "gone" if sq not in board else "changed"])
    return out


def check_last_move(page: Any) -> bool:
    """The table marks, on their squares, exactly the board's changes since the seat's own last decision, and the
    scores that changed; whether there was anything on the board to mark."""
    seen = page.evaluate(READ_MARKS)
    before, now = seen["before"], seen["now"]
    if before is None or before == now:
        assert seen["squares"] == [], seen["squares"]
        return False
    want = board_changes(before, now)
    assert sorted(seen["squares"]) == want, (sorted(seen["squares"]), want)
    key = "colour_scores" if "colour_scores" in now else "points" if "points" in now else "score"
    changed = [before[key][c] != now[key][c] for c in range(len(now[key]))]
    assert seen["scores"] == changed, (seen["scores"], changed)
    return bool(want)


def table_speaks_plainly(page: Any) -> None:
    """The table's own text (the board, the scores, the hands, the status) has no seat number or engine word."""
    text = page.locator("#table").inner_text()
    found = JARGON.search(text)
    assert found is None, f"the table says {found.group(0)!r}: …{text[max(0, found.start() - 80) : found.end() + 80]}…"


def play_by_clicking(
    page: Any, rng: random.Random, watch: Watch | None = None, max_actions: int = 1000
) -> tuple[int, set[str], set[str]]:
    """Click a legal action on the table whenever this seat is to act, until the game is over; returns the number
    of actions, the kinds taken and the kinds offered (the server's seed is its own: games differ run to run).
    Before each click, ``watch`` checks the decision (story.py) and the table's marks are checked against the
    board's changes since the seat's previous decision (:func:`check_last_move`)."""
    last = -1
    boards_marked = 0
    actions = 0
    kinds: set[str] = set()
    offered: set[str] = set()
    deadline = time.monotonic() + 400
    while actions < max_actions and time.monotonic() < deadline:
        # the game is over, or the seat must decide: the page says "Your turn." (a decision with one action besides
        # resigning is the page's own to take, auto-pass being on by default, so the test leaves it to the page)
        page.wait_for_function(
            """(last) => {
              const s = window.__table && window.__table.state();
              const mine = document.querySelector('#turn')?.classList.contains('mine');
              if (!s) return false;
              return s.terminal || (s.ply !== last && s.to_act === window.__table.seat() && s.legal.length > 0 && mine);
            }""",
            arg=last,
            timeout=WAIT_MS,
        )
        s = page.evaluate(
            "() => { const s = window.__table.state(); "
            "return {...s, mine: document.querySelector('#turn').classList.contains('mine')}; }"
        )
        if s["terminal"]:
            assert boards_marked > 0 or actions < 3, "no AI move on the board was ever marked"
            return actions, kinds, offered
        if not s["mine"] or s["ply"] == last:  # the page took a forced step meanwhile: wait for the next decision
            continue
        offered.update(a["text"].split(" ")[0] for a in s["legal"])
        if watch is not None:
            watch.before_click(s)
        boards_marked += check_last_move(page)
        text = choose(s["legal"], rng)
        click_tashkalar(page, text)
        kinds.add(text.split(" ")[0])
        last = s["ply"]
        actions += 1
    pytest.fail(f"the game did not end after {actions} actions")


def test_a_whole_duel_against_the_ai_by_clicking_on_the_board(browser: Any, server: str) -> None:  # noqa: F811
    page, errors = new_page(browser, "Ada")
    try:
        game = create(server, {}, [{"kind": "human", "name": "Ada"}, {"kind": "ai", "strength": "easy"}])
        page.goto(server + game["invitations"][0]["url"])
        page.wait_for_function("() => document.querySelector('#status')?.dataset.status === 'connected'")
        page.wait_for_selector(T)
        watch = Watch(page)
        actions, kinds, offered = play_by_clicking(page, random.Random(5), watch)
        table_speaks_plainly(page)
        watch.finish(server)
        assert actions > 10
        assert "place" in kinds and ("summon" in kinds or "summon" not in offered), (kinds, offered)
        assert page.locator("#result").is_visible()
        assert page.locator(f"{T}[data-phase=over]").count() == 1
        assert errors == []
    finally:
        page.context.close()


def test_a_whole_four_player_melee_with_three_ai_seats(browser: Any, server: str) -> None:  # noqa: F811
    page, errors = new_page(browser, "Ada")
    try:
        ai = {"kind": "ai", "strength": "easy"}
        game = create(server, {"mode": "melee", "players": 4}, [{"kind": "human", "name": "Ada"}, ai, ai, ai])
        page.goto(server + game["invitations"][0]["url"])
        page.wait_for_function("() => document.querySelector('#status')?.dataset.status === 'connected'")
        page.wait_for_selector(T)
        assert page.locator(f"{T} .tk-score").count() == 4
        watch = Watch(page)
        actions, kinds, offered = play_by_clicking(page, random.Random(6), watch)
        table_speaks_plainly(page)
        watch.finish(server)
        assert actions > 10
        assert "place" in kinds and ("summon" in kinds or "summon" not in offered), (kinds, offered)
        assert page.locator("#result").is_visible()
        # the three other seats' hands were never more than backs on this page
        state = page.evaluate("window.__table.state()")
        assert set(state["observation"]["hand"]) == {"beings", "legends", "flares"}
        backs = page.locator(f"{T} .tk-seat:not(.mine) .hidden-hand .tk-back").count()
        sizes = state["observation"]["hand_sizes"]
        assert backs == sum(sum(sizes[s]) - len(state["observation"]["known_hand_cards"][s]) for s in (1, 2, 3))
        assert errors == []
    finally:
        page.context.close()


def test_a_square_is_taken_with_the_keyboard(browser: Any, tk_fixtures: dict[str, Any]) -> None:
    data = tk_fixtures["tk-duel"]
    step = next(i for i, m in enumerate(data["messages"]) if any(a["text"].startswith("place ") for a in m["legal"]))
    place = next(a["text"] for a in data["messages"][step]["legal"] if a["text"].startswith("place "))
    page, errors = open_fixture(browser, tk_fixtures, "tk-duel", step=step)
    try:
        square = page.locator(f'{T} .hit[data-square="{place.split(" ")[1]}"]')
        assert square.get_attribute("tabindex") == "0"
        assert page.locator(f"{T} .hit:not(.clickable)[tabindex]").count() == 0
        square.focus()
        page.keyboard.press("Enter")
        assert page.evaluate("window.__sent") == [
            {"type": "act", "ply": data["messages"][step]["ply"], "action": place}
        ]
        assert errors == []
    finally:
        page.context.close()


# ------------------------------------------------------------------------------------------- the last move


def after_my_decision(messages: list[dict[str, Any]], seat: int) -> list[tuple[int, int]]:
    """Pairs (k, j) of a fixture: message k is the state right after one of ``seat``'s own actions, j the seat's
    next decision, with only the other seats acting in between (what the table marks at j)."""
    pairs = []
    for k, message in enumerate(messages):
        if message["legal"] or not any(e["seat"] == seat for e in message["log"]):
            continue
        j = next((j for j in range(k + 1, len(messages)) if messages[j]["legal"]), None)
        between = [e["seat"] for m in messages[k + 1 : j + 1] for e in m["log"]] if j is not None else []
        if between and seat not in between:
            pairs.append((k, j))
    return pairs


class ReducedMotion:
    """A browser whose new contexts ask for reduced motion (``prefers-reduced-motion: reduce``)."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser

    def new_context(self, **options: Any) -> Any:
        return self.browser.new_context(reduced_motion="reduce", **options)


@pytest.mark.parametrize("name", ["tk-duel", "tk-highform", "tk-melee"])
def test_an_opponents_move_is_marked_on_its_squares(browser: Any, tk_fixtures: dict[str, Any], name: str) -> None:
    """Right after the seat's own decision nothing is marked; at its next decision, after the other seats' turns,
    exactly the squares whose piece changed are marked (new, changed, or gone with a ghost of the piece that left),
    with the changed scores, a line that names each square, and new pieces dropped in (never under reduced
    motion)."""
    data = tk_fixtures[name]
    messages = data["messages"]
    pairs = [
        (k, j)
        for k, j in after_my_decision(messages, data["seat"])
        if board_changes(messages[k]["observation"], messages[j]["observation"])
    ]
    assert len(pairs) > 3
    for k, j in (pairs[len(pairs) // 2], pairs[-1]):
        before, now = messages[k]["observation"], messages[j]["observation"]
        want = board_changes(before, now)
        for motion in (browser, ReducedMotion(browser)):
            page, errors = open_fixture(motion, tk_fixtures, name, step=k)
            try:
                assert page.evaluate("window.__table.changed()") == 0  # the seat's own move is not marked
                page.evaluate("(j) => window.__fixture.goto(j)", j)
                page.wait_for_function("(ply) => window.__table.state().ply === ply", arg=messages[j]["ply"])
                assert page.evaluate("window.__table.before()") == before
                assert check_last_move(page)
                gone = [sq for sq, kind in want if kind == "gone"]
                ghosts = page.eval_on_selector_all(f"{T} .tk-board .ghost", "els => els.map((e) => e.dataset.at)")
                assert sorted(ghosts) == gone
                since = page.locator(f"{T} .tk-since.changed").inner_text()
                assert all(sq in since for sq, _ in want), (since, want)
                arrived = page.locator(f"{T} .tk-board .piece.arrived").count()
                if motion is browser:
                    assert arrived == len(want) - len(gone)
                else:
                    assert arrived == 0 and page.locator(f"{T} .tk-board .ghost.fading").count() == 0
                # a click that redraws the table keeps the marks
                page.locator(f"{T} .tk-board .hit").first.click()
                assert sorted(
                    page.eval_on_selector_all(f"{T} .tk-board .mark.changed", "els => els.map((e) => e.dataset.sq)")
                ) == [sq for sq, _ in want]
                table_speaks_plainly(page)
                assert errors == []
            finally:
                page.context.close()


# ------------------------------------------------------------------------------------------- readable cards

READ_CARDS = """() => [...document.querySelectorAll('#table .tk-card, #table .tk-task, #table .tk-named')].map((e) => ({
  id: e.dataset.card || e.dataset.task, info: e.classList.contains('has-info') ? e.cardInfo.name : null,
}))"""


@pytest.mark.parametrize("name", ["tk-duel", "tk-highform"])
def test_every_face_up_card_is_readable(browser: Any, tk_fixtures: dict[str, Any], name: str) -> None:
    """Every card face up on the table (the hand, the discard piles, the tasks) carries its card text; a hover shows
    the viewer with its name and effect; the chooser of a being shows its effect, not an action's text."""
    data = tk_fixtures[name]
    cards = data["welcome"]["cards"]
    messages = data["messages"]
    step = next(
        i
        for i, m in enumerate(messages)
        if i > len(messages) // 2 and any(a["text"].startswith("summon ") for a in m["legal"])
    )
    page, errors = open_fixture(browser, tk_fixtures, name, step=step)
    try:
        seen = page.evaluate(READ_CARDS)
        assert len(seen) > 8
        for card in seen:
            assert card["info"] == cards[card["id"]]["name"], card
        if name == "tk-highform":
            assert page.locator(f"{T} .tk-task.has-info").count() == len(messages[step]["observation"]["tasks"])
            task = messages[step]["observation"]["tasks"][0]
            page.locator(f'{T} .tk-task[data-task="{task}"]').hover()
            viewer = page.locator("#card-viewer")
            viewer.wait_for(state="visible")
            assert cards[task]["name"] in viewer.inner_text() and cards[task]["text"][0] in viewer.inner_text()
        summon = next(a["text"] for a in messages[step]["legal"] if a["text"].startswith("summon "))
        card = summon.split(" ")[1]
        tile = page.locator(f'{T} .tk-hand .tk-card[data-card="{card}"]')
        tile.hover()
        viewer = page.locator("#card-viewer")
        viewer.wait_for(state="visible")
        text = viewer.inner_text()
        info = cards[card]
        for part in (info["name"], info["kind"], *info["text"], info["notes"][0]):
            assert part in text, (part, text)
        tile.click()
        chooser = page.locator(f"{T} .tk-chooser").inner_text()
        assert info["name"] in chooser and info["text"][0] in chooser and summon not in chooser
        assert errors == []
    finally:
        page.context.close()


def test_a_long_press_reads_a_card_on_a_phone(browser: Any, tk_fixtures: dict[str, Any]) -> None:
    """On a touch screen a card held for a moment opens the viewer as a sheet (with Close) and does not act on
    the card: nothing is selected, nothing is sent."""
    data = tk_fixtures["tk-duel"]
    messages = data["messages"]
    step = next(i for i, m in enumerate(messages) if any(a["text"].startswith("summon ") for a in m["legal"]))
    card = next(a["text"] for a in messages[step]["legal"] if a["text"].startswith("summon ")).split(" ")[1]
    context = browser.new_context(viewport=PHONE_TALL, has_touch=True, is_mobile=True)

    class Phone:
        def new_context(self, **_: Any) -> Any:
            return context

    page, errors = open_fixture(Phone(), tk_fixtures, "tk-duel", step=step)
    try:
        tile = page.locator(f'{T} .tk-hand .tk-card[data-card="{card}"]')
        touch_and_hold(page, tile, from_top=8)()  # held until the sheet opened (the finger still down), then lifted
        viewer = page.locator("#card-viewer.sheet")
        info = data["welcome"]["cards"][card]
        assert info["name"] in viewer.inner_text() and info["text"][0] in viewer.inner_text()
        assert page.locator(T).get_attribute("data-card") == ""  # the press read the card, it did not select it
        assert page.evaluate("window.__sent") == []
        viewer.locator("button", has_text="Close").tap()
        assert page.locator("#card-viewer").is_hidden()
        # a short tap still selects the card
        tile.tap()
        assert page.locator(T).get_attribute("data-card") == card
        assert errors == []
    finally:
        context.close()


# ------------------------------------------------------------------------------------------- plain words

READ_WORDS = """async (i) => {
  window.__fixture.goto(i);
  await new Promise((r) => setTimeout(r, 0));
  const root = document.querySelector('#table .tashkalar');
  const hint = root.querySelector('.tk-hint');
  const phase = root.querySelector('.tk-phase').textContent;
  // the folded list of every choice too, in the words it shows once opened
  const choices = document.querySelector('#actions').textContent;
  return {hint: hint ? hint.textContent : null, phase, text: root.innerText, choices};
}"""


@pytest.mark.parametrize("name", NAMES)
def test_the_table_speaks_plainly_and_never_stale(browser: Any, tk_fixtures: dict[str, Any], name: str) -> None:
    """No seat numbers or engine words on the table in any state; the hint offers only what the legal actions
    allow (never "Click an empty square…" with no action left, nothing once the game is over)."""
    data = tk_fixtures[name]
    page, errors = open_fixture(browser, tk_fixtures, name)
    try:
        for i, message in enumerate(data["messages"]):
            seen = page.evaluate(READ_WORDS, i)
            for text in (seen["text"], seen["choices"]):
                found = JARGON.search(text)
                assert found is None, (i, found.group(0), text[max(0, found.start() - 80) : found.end() + 80])
            obs = message["observation"]
            kinds = {a["text"].split(" ")[0] for a in message["legal"]}
            if message["terminal"] or not kinds - {"resign"}:
                assert seen["hint"] is None, (i, seen["hint"])
            if message["terminal"]:
                assert "the game is over" in seen["phase"]
            if "place" not in kinds and seen["hint"]:
                assert "empty square" not in seen["hint"], (i, seen["hint"])
            if obs["phase"] == "main" and obs["actions"] == 0 and message["legal"]:
                assert "No actions left" in seen["hint"], (i, seen["hint"])
        assert errors == []
    finally:
        page.context.close()
