"""Text for people: a Laplaplace state as a seat may see it (the builds, then the battle log), and actions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardarena.engine import Action

from .constants import ADD, MAX_CARDS, OPEN_CARDS, SHOW, Phase, Scene
from .state import LaplaplaceState

if TYPE_CHECKING:
    from .cards import CardDef, CardTable


def render(state: LaplaplaceState, seat: int | None) -> str:
    obs = state.observation(seat)
    lines = [f"Laplaplace — scene {obs['scene']}" + (f", you are seat {seat} (P{seat})" if seat is not None else "")]
    for s, view in enumerate(obs["seats"]):
        label = f"P{s}"
        if "build" in view:
            cards = view["build"]
            listing = ", ".join(cards) if cards else "(no cards)"
            lines.append(f"  {label} build ({len(cards)}/8, base HP {view['base_hp']}), top first: {listing}")
        else:
            status = "complete" if obs["done"][s] else "not complete"
            lines.append(f"  {label} build: hidden ({status})")
        if "open" in view:
            shown = view["open"]
            lines.append(f"  {label} open cards: " + ("hidden" if shown is None else ", ".join(shown) or "none yet"))
    if obs["to_act"] is not None:
        if obs["phase"] == Phase.SHOW:
            what = "show an open card"
        elif obs["scene"] == Scene.OPEN:
            what = "add a card (top first; the 8 cards must include its 4 open cards)"
        else:
            what = "add a card (top first) or finish with 'done'"
        lines.append(f"  seat {obs['to_act']} to {what}")
    if "log" in obs:
        lines.append("")
        lines.append("Battle log:")
        lines.extend(obs["log"])
    return "\n".join(lines)


def describe_action(card: CardDef | None, action: Action) -> str:
    """``card`` is the action's card (``None`` for ``done``)."""
    if card is None:
        return "done: the build is complete"
    verb = "show" if action[0] == SHOW else "add"
    return f"{verb} {card.summary()}"


def action_seen_by(state: LaplaplaceState, action: Action, seat: int | None, described: str) -> str:
    """Another seat sees that a card was shown or a build finished, never which card or how many added.

    A build finishes either with ``done`` or with the ``add`` of its eighth card; both look the same to the
    other seats ("finishes its build"), so the way it finished does not tell them whether it is full. Every
    other ``add`` is not seen at all: not even the number of cards added may show. The action that makes the
    reveal (the last open card shown, the last build finished) is seen in full, since what it chose is shown
    to everyone at once. ``described`` is the action in full.
    """
    actor = state.current_player
    if seat is not None and seat == actor:
        return described
    assert actor is not None
    if action[0] == SHOW:
        if actor == 1 and len(state.shown[1]) == OPEN_CARDS - 1:
            return described  # both sets of open cards are revealed now
        return "picks an open card (shown once both have picked 4)"
    if action[0] == ADD and len(state.builds[actor]) < MAX_CARDS - 1:
        return ""
    if state.done[1 - actor]:
        return described  # both builds are complete: the battle reveals them
    return "finishes its build"


def cards_text(table: CardTable) -> str:
    """The card list for the rules text."""
    lines = ["", "## Cards (from the data file; every value is assumed)", ""]
    for c in table.cards:
        lines.append(f"- `{c.id}` {c.summary()}")
        for a in c.abilities:
            lines.append(f"    - `{a.text}`")
    return "\n".join(lines) + "\n"
