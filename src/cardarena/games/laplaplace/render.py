"""Text pictures of a Laplaplace state: the builds as a seat may see them, then the battle log."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import LapState


def render_state(state: LapState, seat: int | None) -> str:
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
        if obs["phase"] == "show":
            what = "show an open card"
        elif obs["scene"] == "open":
            what = "add a card (top first; the 8 cards must include its 4 open cards)"
        else:
            what = "add a card (top first) or finish with 'done'"
        lines.append(f"  seat {obs['to_act']} to {what}")
    if "log" in obs:
        lines.append("")
        lines.append("Battle log:")
        lines.extend(obs["log"])
    return "\n".join(lines)
