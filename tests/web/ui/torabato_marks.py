"""The last move on ToraBato's table (issue 28, part 2), checked from the outside: what a page must mark, computed
here from two observations of the seat (its own view) independently of tables/torabato.js, and what it marks.

``RECORD_STATES`` (an init script) keeps every ``state`` message the page's WebSocket receives, so a test knows the
observation right after the player's own last click (the page's baseline, docs/web.md) without asking the page.
"""

from __future__ import annotations

from typing import Any

#: An init script: every state message the page receives, as {ply, observation}, in window.__states.
RECORD_STATES = """(() => {
  window.__states = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        try {
          const m = JSON.parse(event.data);
          if (m.type === 'state') window.__states.push({ply: m.ply, observation: m.observation});
        } catch (e) {}
      });
    }
  };
})();"""

#: Runs in the page: its latest state's observation, and each element marked ``changed`` as a selector-like key.
READ_MARKS = """() => {
  const table = document.querySelector('#table');
  const keys = [];
  for (const el of table.querySelectorAll('.changed')) {
    const side = el.closest('.side');
    const seat = side ? side.dataset.seat : '';
    if (el.dataset.soldier) keys.push(`soldier ${el.dataset.soldier}`);
    else if (el.dataset.stat) keys.push(`${el.dataset.stat} ${el.dataset.seat}`);
    else if (el.dataset.item) keys.push(`stack ${el.dataset.item}`);
    else if (el.dataset.card && el.closest('.discard')) keys.push(`discard ${seat} ${el.dataset.card}`);
    else if (el.classList.contains('gone')) keys.push(`gone ${el.textContent}`);
  }
  return {observation: window.__table.state().observation, marks: keys};
}"""

SUITS = {"S": "♠", "C": "♣", "H": "♥", "D": "♦"}


def sign(card: str) -> str:
    """``8C`` -> ``8♣`` (as the table writes a card in words)."""
    return "Joker" if card.startswith("JK") else card[:-1] + SUITS[card[-1]]


def expected_marks(before: dict[str, Any], after: dict[str, Any]) -> tuple[set[str], list[str]]:
    """What the table must mark between two observations: keys as :data:`READ_MARKS` writes them, and the cards
    that left the field (each must be named in the "Gone" note)."""
    keys: set[str] = set()
    gone: list[str] = []
    for s in (0, 1):
        was, now = before["players"][s], after["players"][s]
        if was["deck"] != now["deck"]:
            keys.add(f"deck {s}")
        if was["hand_size"] != now["hand_size"]:
            keys.add(f"hand {s}")
        if (was["mana_count"], was["mana_tapped"], was["available_mana"]) != (
            now["mana_count"],
            now["mana_tapped"],
            now["available_mana"],
        ):
            keys.add(f"mana {s}")
        keys.update(f"discard {s} {c}" for c in now["discard"] if c not in was["discard"])
        old = {x["card"]: x for x in was["soldiers"]}
        for x in now["soldiers"]:
            y = old.get(x["card"])
            if y is None or any(x[k] != y[k] for k in ("tapped", "damage", "attack", "health")):
                keys.add(f"soldier {x['card']}")
        here = {x["card"] for x in now["soldiers"]}
        gone.extend(sign(c) for c in old if c not in here)
    stack_was = {(i["kind"], i["card"], i["target"]) for i in before["stack"]}
    keys.update(f"stack {i['card']}" for i in after["stack"] if (i["kind"], i["card"], i["target"]) not in stack_was)
    return keys, gone


def baseline(states: list[dict[str, Any]], clicked_ply: int) -> dict[str, Any] | None:
    """The observation right after the click at ``clicked_ply``: the first state after it (the page's baseline)."""
    return next((s["observation"] for s in states if s["ply"] > clicked_ply), None)


def check_marks(page: Any, clicked_ply: int | None) -> int:
    """At a decision of the player: every change since its last click (at ``clicked_ply``) is marked on the table.
    Returns the number of changes expected (0: nothing to check)."""
    if clicked_ply is None:
        return 0
    before = baseline(page.evaluate("window.__states"), clicked_ply)
    seen = page.evaluate(READ_MARKS)
    if before is None:
        return 0
    keys, gone = expected_marks(before, seen["observation"])
    marks = set(seen["marks"])
    missing = keys - marks
    assert not missing, (missing, sorted(marks))
    note = " ".join(m for m in marks if m.startswith("gone "))
    for card in gone:
        assert card in note, (card, note)
    return len(keys) + len(gone)
