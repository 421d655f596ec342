"""The newcomer's checks of a whole game played in the browser (issue 28's done-tests), for every table.

A whole-game test clicks its way through a game against the AI; :class:`Watch` then checks it as a newcomer would
see it:

- **the story**: the page's log holds, in order, every entry the seat may know of and every line of it, exactly as
  the engine's ``narrate(before, action, after, seat)`` tells that seat (the players' names put in for seat
  numbers). The expectation is rebuilt here from the finished game's record with the engine alone, not from the
  server's log, so a line the server drops, reorders or words differently fails the test;
- **the last move**: before each click, when the seat's view changed since its own previous decision (the AI
  moved), the table marks what changed (``#table .changed``);
- **no click for a forced step**: every click answered a decision with a real choice (auto-pass is on by default
  and takes a decision whose one action is forced); and the seat's actions in the record are exactly its clicks
  and its automatic answers;
- **no jargon**: the page's visible text never says "seat ", "returns", "P0", "P1" or an agent spec.
"""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

from cardarena.engine import State, replay
from cardarena.web.views import seat_names, with_names

#: What a person must never read on the page (issue 28, part 7): seat numbers, the engine's returns, the
#: terminal's P0/P1 and agent specs ("ismcts:iterations=300", "heuristic(...)").
JARGON = re.compile(
    r"seat |returns|\bP\d\b|\b(?:ismcts|mcts|pimc|heuristic|random|greedy)\s*[:(]|iterations\s*=",
    re.IGNORECASE,
)

#: The page's log as the player reads it: per entry, the action line, then each consequence under it.
SHOWN_LOG = """() => [...document.querySelectorAll('#log > li')].map(li => [
  li.querySelector('.action').textContent,
  ...[...li.querySelectorAll('.told')].map(d => d.textContent),
])"""

#: Whether the table has drawn the last-move marks for the state it holds: true when nothing differs from the
#: baseline (nothing to mark), else once an element is marked.
MARKS_DRAWN = """() => {
  const t = window.__table;
  const before = t.before(), state = t.state();
  if (!before || !state || JSON.stringify(before) === JSON.stringify(state.observation)) return 'same';
  return t.changed() > 0 ? 'marked' : false;
}"""


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.load(answer)


def told_story(record: dict[str, Any], seat: int, names: list[str]) -> tuple[list[list[str]], int]:
    """What ``seat`` is told of the game of ``record``, entry by entry (the action as seen, then its
    consequences), with the seats' ``names`` put in; and how many actions the seat took itself."""
    final = replay(record)
    state: State = final.game.new_initial_state(record["seed"])
    entries: list[list[str]] = []
    own = 0
    for text in record["actions"]:
        before = state.clone()
        actor = state.current_player
        state.apply_text(text)
        action = state.history[-1]
        own += actor == seat
        seen = before.game.action_seen_by(before, action, seat)
        if not seen and actor == seat:
            seen = str(action)
        if not seen:
            continue
        lines = before.game.narrate(before, action, state, seat) or [seen]
        entries.append([with_names(line, names) for line in lines])
    return entries, own


class Watch:
    """The checks of one seat's page through a whole game (see the module's docstring)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.clicks = 0
        self.marked = 0  # decisions at which the AI's changes were shown marked

    def before_click(self, state: dict[str, Any]) -> None:
        """Call before clicking an answer to ``state`` (the page's ``window.__table.state()``)."""
        choices = [a for a in state["legal"] if not a.get("resign")]
        assert len(choices) > 1 or any(a.get("confirm") for a in choices), (
            f"ply {state['ply']}: a click was needed for a decision with one forced action {choices}"
        )
        seen = self.page.wait_for_function(MARKS_DRAWN, timeout=10_000).json_value()
        if seen == "marked":
            self.marked += 1
        self.clicks += 1

    def finish(self, server: str) -> list[list[str]]:
        """The end-of-game checks; returns the story as told (for a test's own further checks)."""
        page = self.page
        page.wait_for_selector("#result:not([hidden])")
        key = page.url.split("/play/", 1)[1].split("#", 1)[0].strip("/")
        seat = page.evaluate("window.__table.seat()")
        record = get_json(f"{server}/api/games/{key}/record")
        names = seat_names([s["name"] or "" for s in get_json(f"{server}/api/games/{key}")["seats"]])
        told, own = told_story(record, seat, names)
        page.wait_for_function(f"() => document.querySelectorAll('#log > li').length >= {len(told)}")
        shown = page.evaluate(SHOWN_LOG)
        assert shown == told, first_difference(shown, told)
        assert any(len(entry) > 1 for entry in told), "the story tells no consequence at all"
        assert page.evaluate("window.__table.clicks()") == self.clicks
        assert self.clicks + page.evaluate("window.__table.autoSent()") == own, (
            "the seat's actions in the record are not exactly its clicks and its automatic answers"
        )
        assert self.marked > 0, "no AI move was ever marked on the table"
        no_jargon(page)
        return told


def first_difference(shown: list[list[str]], told: list[list[str]]) -> str:
    """Where the page's log first differs from the story as the engine tells it."""
    for i, (a, b) in enumerate(zip(shown, told, strict=False)):
        if a != b:
            return f"entry {i + 1}: the page shows {a!r}, the engine tells {b!r}"
    return f"the page shows {len(shown)} entries, the engine tells {len(told)}"


def no_jargon(page: Any) -> None:
    """The page's visible text (and its open chooser or dialog) has no seat numbers, returns or agent specs."""
    text = page.locator("body").inner_text()
    found = JARGON.search(text)
    assert found is None, f"the page says {found.group(0)!r}: …{text[max(0, found.start() - 80) : found.end() + 80]}…"
