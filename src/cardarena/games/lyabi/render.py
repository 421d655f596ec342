"""Text pictures of a Lyabi state for one seat, and descriptions of actions (censored for other seats)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import LyabiAction
from .cards import CardSet
from .constants import BUY_K, COLOURS, DECLINE_K, ITEM_IDS, ITEM_K, ORDER_K, PASS_K, PLACE_K, SET_K, SPLIT_K, USE_K
from .views import observation

if TYPE_CHECKING:
    from .state import LyabiState

WAITING = {
    "draw": "draw phase: the Stargazing Orb may be used before drawing (every item holder is asked)",
    "main": "main phase: gain ryabi, place a circle, or pass",
    "item": "item phase: pay ryabi for the top item, or pass",
    "crystal": "Mysterious Crystal: put the looked-at cards back in any order",
    "eye": "battle preparation: the Mystic Eye may be used before setting (every item holder is asked)",
    "set": "battle preparation: set ryabi (one, or two of one colour) or the dummy face down",
    "brush": "after the reveal: the Goddess's Brush may be used (every item holder who set ryabi is asked)",
    "mirror": "battle damage is coming: the Mirror of Desire may be used (the item holder is asked)",
    "sword": "battle damage was dealt: the War God's Sword may be used (the item holder is asked)",
}


def _list(xs: list[str]) -> str:
    return " ".join(xs) if xs else "—"


def _set_text(value: Any) -> str:
    if value is None:
        return "nothing"
    if value == "face down":
        return "set face down (one ryabi, a double charge or the dummy: shown when both have set)"
    if value == "dummy":
        return "the dummy"
    return " + ".join(value)


def render(st: LyabiState, seat: int | None) -> str:
    c = st.game.cards
    obs = observation(st, seat)
    lines = [f"── Lyabi · turn {obs['turn']} · first (priority) player: seat {obs['first_player']} ──"]
    if obs["result"] is not None:
        lines.append(f"Game over: {obs['end_reason']}; result {obs['result']}")
    else:
        who = obs["to_act"]
        you = " (you)" if who == seat else ""
        extra = f" — {obs['actions_left']} action(s) left" if obs["phase"] == "main" else ""
        if obs["phase"] in ("mirror", "sword"):
            extra = f" — {obs['pending_damage']} damage"
        lines.append(f"Waiting on: seat {who}{you} — {WAITING[obs['phase']]}{extra}")
    order = [1 - seat, seat] if seat is not None else [0, 1]
    for s in order:
        lines += _seat_lines(c, obs["players"][s], s, seat)
    if "seen_opponent_hand" in obs:
        lines.append(f"Mystic Eye: the opponent's hand was {_list(obs['seen_opponent_hand'])}")
    if obs["battle_colours"] is not None:
        cols = ", ".join(f"seat {s}: {col or '—'}" for s, col in enumerate(obs["battle_colours"]))
        lines.append(f"Battle attributes: {cols}")
    lb = obs["last_battle"]
    if lb is not None:
        lines.append("Last battle: " + battle_text(lb))
    lines += _table_lines(c, obs)
    return "\n".join(lines)


def _seat_lines(c: CardSet, p: dict[str, Any], s: int, seat: int | None) -> list[str]:
    """One seat's part of the picture, as ``seat`` sees it."""
    atk = dict(zip(c.c_names, c.c_atk))
    lines = []
    tag = " (you)" if s == seat else (" (opponent)" if seat is not None else "")
    item = p["item"] or "none"
    if s == seat and p["item"]:
        spec = c.items[ITEM_IDS.index(p["item"])]
        item = f"{p['item']} — {spec.timing}: {spec.effect}"
    lines.append(
        f"Seat {s}{tag}: HP {p['hp']} | hand {p['hand_size']} | deck {p['deck_size']} | "
        f"discard {len(p['discard'])} | item: {item}"
    )
    field = ", ".join(f"{n} circle (ATK {atk[n]})" for n in p["field"]) or "—"
    lines.append(f"   field: {field}")
    lines.append(f"   discard pile: {_list(p['discard'])}")
    if "hand" in p:
        dummy = " + the dummy" if p["dummy_in_hand"] else ""
        lines.append(f"   hand: {_list(p['hand'])}{dummy}")
        if p["deck_top"]:
            lines.append(f"   deck top (known, top first): {_list(p['deck_top'])}")
    elif p["hand_known"]:
        lines.append(f"   hand holds (known to all): {_list(p['hand_known'])}")
    if p["draw_to"] != c.hand_size:
        lines.append(f"   draws up to {p['draw_to']} this turn (Stargazing Orb)")
    if p["battling"]:
        lines.append(f"   battle set: {_set_text(p['set'])}")
    return lines


def _table_lines(c: CardSet, obs: dict[str, Any]) -> list[str]:
    """The shared part of the table: supply, piles and removed cards."""
    lines = []
    supply = []
    for ci in range(len(COLOURS)):
        parts = [f"{c.r_names[k]}×{obs['supply'][c.r_names[k]]}" for k in range(c.num_kinds) if c.r_colour[k] == ci]
        supply.append(" ".join(parts))
    lines.append("Supply: " + " | ".join(supply))
    legend = []
    for k in range(c.num_kinds):
        if c.r_colour[k] == c.r_colour[0]:
            legend.append(f"Lv{c.r_level[k]} cost {c.r_cost[k]} times ×{float(c.r_times[k]):g}")
    lines.append("   ryabi: " + "; ".join(legend) + " (blue beats red, red beats green, green beats blue)")
    piles = " · ".join(
        f"Lv{lv} (cost {cost}): {obs['circle_piles'][str(lv)]}" for lv, cost in zip(c.levels, c.level_cost)
    )
    lines.append(f"Face-down circle piles: {piles} | item pile: {obs['item_pile']} (cost {c.item_cost})")
    rem = obs["removed"]
    ry = " ".join(f"{n}×{k}" for n, k in rem["ryabi"].items())
    lines.append(f"Removed: ryabi {ry or '—'} | circles {_list(rem['circles'])} | items {_list(rem['items'])}")
    return lines


def battle_text(lb: dict[str, Any]) -> str:
    sets = lb["sets"]
    shown = " vs ".join(f"seat {s} {_set_text(x)}" for s, x in enumerate(sets))
    out = f"turn {lb['turn']}: {shown}"
    for s in (0, 1):
        if f"brush_seat{s}" in lb:
            out += f"; seat {s} brushed its ryabi {lb[f'brush_seat{s}']}"
    if "winner" in lb:
        if lb["winner"] is None:
            out += " → no winner"
        else:
            out += f" → seat {lb['winner']} wins, {lb['damage']} damage"
    if "mirrored" in lb:
        out += f" (prevented by the Mirror of Desire; {lb['mirrored']} back to the attacker)"
    if "sword" in lb:
        out += f" + {lb['sword']} (War God's Sword)"
    return out


def describe(st: LyabiState, a: LyabiAction) -> str:
    c = st.game.cards
    kind_of = st.game.codec.kind_of
    kind = a[0]

    def total(names: tuple[str, ...]) -> int:
        return sum(c.r_cost[kind_of[n]] for n in names)

    if kind == BUY_K:
        return f"discard {' '.join(a.pay)} (total {total(a.pay)}), gain {a[1]} (cost {c.r_cost[kind_of[a[1]]]})"
    if kind == SPLIT_K:
        return f"discard {a[1]} (cost {total(a.pay)}), gain {' and '.join(a[2:])}"
    if kind == PLACE_K:
        li = st.game.codec.level_of[a[1]]
        tail = f", removing your {a[2]} circle from the game" if a[2] else ""
        return (
            f"discard {' '.join(a.pay)} (total {total(a.pay)}), take the top Lv{a[1]} circle "
            f"(cost {c.level_cost[li]}){tail}"
        )
    if kind == ITEM_K:
        return f"discard {' '.join(a.pay)} (total {total(a.pay)}), take the top item face down"
    if kind == USE_K:
        spec = c.items[ITEM_IDS.index(a[1])]
        extra = f" ({a[2]})" if len(a) > 2 else ""
        return f"use {spec.name}{extra}: {spec.effect}"
    if kind == DECLINE_K:
        return "use no item now"
    if kind == PASS_K:
        return "do nothing more this phase"
    if kind == ORDER_K:
        return f"put the cards back, top first: {' '.join(a[1:])}"
    if kind == SET_K:
        if a[1] == "dummy":
            return "set the dummy face down (no battle)"
        what = "double charge" if len(a) > 2 else "battle"
        return f"set {' + '.join(a[1:])} face down ({what})"
    return str(a)


def seen_by(st: LyabiState, a: LyabiAction, seat: int | None) -> str:
    """The action as ``seat`` sees it: a face-down set (its size included) and a crystal's order stay secret."""
    if seat == st.current_player:
        return describe(st, a)
    if a[0] == SET_K:
        return "set face down (revealed when both have set)"
    if a[0] == ORDER_K:
        return "put the looked-at cards back in a secret order"
    return describe(st, a)
