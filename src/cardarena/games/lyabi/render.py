"""Text pictures of a Lyabi state for one seat, and descriptions of actions (censored for other seats)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine import Panel
from .actions import LyabiAction
from .cards import CardSet
from .constants import (
    BUY_K,
    COLOURS,
    DECLINE_K,
    ITEM_IDS,
    ITEM_K,
    ORDER_K,
    P_ITEM,
    PASS_K,
    PLACE_K,
    SET_K,
    SPLIT_K,
    USE_K,
)
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


def board(st: LyabiState, seat: int | None) -> list[Panel]:
    """The table as ``seat`` sees it, built from ``observation(seat)`` only: the turn, each seat's zones (the
    opponent's hidden cards as backs ``[?]``), the battle, the supply, the piles and the removed cards."""
    c = st.game.cards
    obs = observation(st, seat)
    panels = [Panel(f"Lyabi · turn {obs['turn']}", tuple(_status_lines(obs, seat)), key="status")]
    order = [1 - seat, seat] if seat is not None else [0, 1]
    for s in order:
        tag = " (you)" if s == seat else (" (opponent)" if seat is not None else "")
        first = ", first player" if s == obs["first_player"] else ""
        panels.append(
            Panel(f"Seat {s}{tag}{first}", tuple(_seat_lines(c, obs["players"][s], s, seat)), seat=s, key=f"seat{s}")
        )
    battle = _battle_lines(obs)
    if battle:
        panels.append(Panel("Battle", tuple(battle), key="battle"))
    panels.append(Panel("Supply (ryabi)", tuple(_supply_lines(c, obs)), key="supply"))
    panels.append(Panel("Piles and removed cards", tuple(_pile_lines(c, obs)), key="piles"))
    return panels


def render(st: LyabiState, seat: int | None) -> str:
    """The board's panels as plain text, one title line each."""
    lines: list[str] = []
    for panel in board(st, seat):
        lines.append(f"── {panel.title} ──")
        lines += panel.lines
    return "\n".join(lines)


def _status_lines(obs: dict[str, Any], seat: int | None) -> list[str]:
    lines = [f"first (priority) player: seat {obs['first_player']}"]
    if obs["result"] is not None:
        lines.append(f"Game over: {obs['end_reason']}; result {obs['result']}")
        return lines
    who = obs["to_act"]
    you = " (you)" if who == seat else ""
    extra = f" — {obs['actions_left']} action(s) left" if obs["phase"] == "main" else ""
    if obs["phase"] in ("mirror", "sword"):
        extra = f" — {obs['pending_damage']} damage"
    lines.append(f"Waiting on: seat {who}{you} — {WAITING[obs['phase']]}{extra}")
    return lines


def _seat_lines(c: CardSet, p: dict[str, Any], s: int, seat: int | None) -> list[str]:
    """One seat's zones, as ``seat`` sees them."""
    atk = dict(zip(c.c_names, c.c_atk))
    item = "none"
    if p["item"] == "face down":
        item = "[?] face down"
    elif p["item"]:
        spec = c.items[ITEM_IDS.index(p["item"])]
        item = f"{p['item']} ({spec.name}) — {spec.timing}: {spec.effect}"
    lines = [f"HP {p['hp']} · hand {p['hand_size']} · deck {p['deck_size']} · discard {len(p['discard'])}"]
    if "hand" in p:
        dummy = " + the dummy" if p["dummy_in_hand"] else ""
        lines.append(f"hand: {_list(p['hand'])}{dummy}")
        if p["deck_top"]:
            lines.append(f"deck top (known, top first): {_list(p['deck_top'])}")
    else:
        known = p["hand_known"]
        backs = " ".join(["[?]"] * (p["hand_size"] - len(known)))
        shown = " ".join([*known, backs]) if backs else " ".join(known)
        tail = f" ({p['hand_size']} cards; known to all: {' '.join(known)})" if known else f" ({p['hand_size']} cards)"
        lines.append(f"hand: {shown or '—'}{tail}")
    field = ", ".join(f"{n} circle (ATK {atk[n]})" for n in p["field"]) or "—"
    lines.append(f"field: {field}")
    lines.append(f"discard pile: {_list(p['discard'])}")
    lines.append(f"item: {item}")
    if p["draw_to"] != c.hand_size:
        lines.append(f"draws up to {p['draw_to']} this turn (Stargazing Orb)")
    if p["battling"]:
        lines.append(f"battle set: {_set_text(p['set'])}")
    return lines


def _battle_lines(obs: dict[str, Any]) -> list[str]:
    lines = []
    if "seen_opponent_hand" in obs:
        lines.append(f"Mystic Eye: the opponent's hand was {_list(obs['seen_opponent_hand'])}")
    if obs["battle_colours"] is not None:
        cols = ", ".join(f"seat {s}: {col or '—'}" for s, col in enumerate(obs["battle_colours"]))
        lines.append(f"Battle attributes: {cols}")
    lb = obs["last_battle"]
    if lb is not None:
        lines.append("Last battle: " + battle_text(lb))
    return lines


def _supply_lines(c: CardSet, obs: dict[str, Any]) -> list[str]:
    lines = []
    for ci, colour in enumerate(COLOURS):
        parts = [f"{c.r_names[k]}×{obs['supply'][c.r_names[k]]}" for k in range(c.num_kinds) if c.r_colour[k] == ci]
        lines.append(f"{colour}: {' '.join(parts)}")
    legend = []
    for k in range(c.num_kinds):
        if c.r_colour[k] == c.r_colour[0]:
            legend.append(f"Lv{c.r_level[k]} cost {c.r_cost[k]} ×{float(c.r_times[k]):g}")
    lines.append("levels: " + "; ".join(legend))
    lines.append("blue beats red, red beats green, green beats blue")
    return lines


def _pile_lines(c: CardSet, obs: dict[str, Any]) -> list[str]:
    piles = " · ".join(
        f"Lv{lv} (cost {cost}): {obs['circle_piles'][str(lv)]}" for lv, cost in zip(c.levels, c.level_cost)
    )
    rem = obs["removed"]
    ry = " ".join(f"{n}×{k}" for n, k in rem["ryabi"].items())
    return [
        f"face-down circle piles: {piles}",
        f"item pile: {obs['item_pile']} face down (cost {c.item_cost})",
        f"removed ryabi: {ry or '—'}",
        f"removed circles: {_list([f'{n} circle' for n in rem['circles']])} | removed items: {_list(rem['items'])}",
    ]


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


# -- the terminal's menu: actions grouped by card or kind ----------------------------------------------------
def choice_label(st: LyabiState, a: LyabiAction) -> tuple[str, str]:
    """``(group, detail)``: a purchase by the card it gains (``buy red5``) with the payments as details, a split
    by the card paid, a placement by the circle level, an item purchase as one group, a battle set by colour; the
    rest (pass, decline, ``use ...``) are groups of their own; ``pass`` and ``decline`` have what they do now as
    their detail ("End main phase", "Take no item", "Use no item": the browser's button says it)."""
    c = st.game.cards
    kind_of = st.game.codec.kind_of
    kind = a[0]

    def paid(names: tuple[str, ...]) -> str:
        return f"pay {' '.join(names)} (total {sum(c.r_cost[kind_of[n]] for n in names)})"

    if kind == BUY_K:
        return f"buy {a[1]}", paid(a.pay)
    if kind == SPLIT_K:
        return f"split {a[1]}", f"into {' '.join(a[2:])}"
    if kind == PLACE_K:
        tail = f" replace {a[2]}" if a[2] else ""
        return f"place {a[1]}", paid(a.pay) + tail
    if kind == ITEM_K:
        return "item", paid(a.pay)
    if kind == ORDER_K:
        return "order", " ".join(a[1:])
    if kind == SET_K:
        if a[1] == "dummy":
            return "set dummy", ""
        colour = COLOURS[c.r_colour[kind_of[a[1]]]]
        return f"set {colour}", " ".join(a[1:]) + (" (double charge)" if len(a) > 2 else "")
    if kind == USE_K and len(a) > 2:
        return f"use {a[1]}", " ".join(a[2:])
    if kind == PASS_K:
        return str(a), "Take no item" if st.phase == P_ITEM else "End main phase"
    if kind == DECLINE_K:
        return str(a), "Use no item"
    return str(a), ""


# -- what a seat learns from one action ---------------------------------------------------------------------
def narrate(before: LyabiState, a: LyabiAction, after: LyabiState, seat: int | None) -> list[str]:
    """The action as ``seat`` sees it, then one line per outcome: gains, circles placed or removed, items taken,
    used or removed, what an item showed, the battle (the reveal, the triangle, damage, the mirror, the sword,
    the battle ryabi removed), HP changes, the end phase's discards, the next turn's draws and reshuffles, and the
    end of the game.

    Built from ``observation(seat)`` before and after, and from the parts of the action every seat sees (a hidden
    set or a crystal's order is never read): nothing the seat may not see can appear.
    """
    seen = seen_by(before, a, seat)
    ob, oa = observation(before, seat), observation(after, seat)
    s = before.actor
    own = s == seat
    c = before.game.cards
    lines = [seen] if seen else []
    kind = a[0]
    who = "you" if own else f"seat {s}"
    gained: list[str] = []
    if kind == BUY_K:
        gained = [a[1]]
    elif kind == SPLIT_K:
        gained = list(a[2:])
    for name in gained:
        lines.append(f"{who} gain{'' if own else 's'} {name} (to the discard pile; {oa['supply'][name]} left)")
    lines += _field_lines(c, ob, oa, seat)
    lines += _item_lines(c, ob, oa, a, s, seat)
    lines += _battle_outcome_lines(c, before, ob, oa)
    for t in (0, 1):
        hp0, hp1 = ob["players"][t]["hp"], oa["players"][t]["hp"]
        if hp0 != hp1:
            lines.append(f"{_seat(t, seat)} HP {hp0} → {hp1} ({hp1 - hp0:+d})")
    removed = _added(_multiset(ob["removed"]["ryabi"]), _multiset(oa["removed"]["ryabi"]))
    if removed:
        lines.append(f"battle ryabi removed from the game: {' '.join(sorted(removed))}")
    lines += _turn_lines(c, a, ob, oa, s, seat, gained)
    if oa["result"] is not None and ob["result"] is None:
        lines.append(f"Game over: {oa['end_reason']} — {_result_text(oa['result'], seat)}")
    return lines


def _seat(t: int, seat: int | None) -> str:
    return "you" if t == seat else f"seat {t}"


def _multiset(counts: dict[str, int]) -> list[str]:
    return [n for n, k in counts.items() for _ in range(k)]


def _added(old: list[str], new: list[str]) -> list[str]:
    """The elements of ``new`` beyond those of ``old`` (multisets)."""
    rest = list(new)
    for x in old:
        if x in rest:
            rest.remove(x)
    return rest


def _field_lines(c: CardSet, ob: dict[str, Any], oa: dict[str, Any], seat: int | None) -> list[str]:
    lines = []
    for t in (0, 1):
        old, new = ob["players"][t]["field"], oa["players"][t]["field"]
        for name in _added(new, old):
            lines.append(f"{_seat(t, seat)}: the {name} circle is removed from the game")
        for name in _added(old, new):
            k = c.c_names.index(name)
            lines.append(
                f"{_seat(t, seat)}: the top Lv{c.c_level[k]} circle is a {name} circle (ATK {c.c_atk[k]}),"
                " placed on the field"
            )
    return lines


def _item_lines(
    c: CardSet, ob: dict[str, Any], oa: dict[str, Any], a: LyabiAction, s: int, seat: int | None
) -> list[str]:
    lines = []
    kind = a[0]
    if kind == ITEM_K:
        mine = oa["players"][s]["item"]
        if s == seat and mine is not None and mine != "face down":
            spec = c.items[ITEM_IDS.index(mine)]
            lines.append(f"you take the {spec.name} ({mine}) — {spec.timing}: {spec.effect}")
    used = a[1] if kind == USE_K else None
    removed = _added(ob["removed"]["items"], oa["removed"]["items"])
    if used in removed:
        removed.remove(used)
    if kind == ITEM_K and removed and ob["players"][s]["item"] is not None:
        name = removed.pop(0)  # taking an item removes the one held before
        lines.append(f"{_seat(s, seat)} already held an item: the {_item_name(c, name)} is removed from the game")
    if kind == ITEM_K and removed and c.items[ITEM_IDS.index(removed[0])].timing.startswith("auto"):
        name = removed.pop(0)
        spec = c.items[ITEM_IDS.index(name)]
        lines.append(f"the item taken is the {spec.name} ({name}): it resolves at once — {spec.effect}")
    o = 1 - s
    if kind == ITEM_K and removed and ob["players"][o]["item"] is not None and oa["players"][o]["item"] is None:
        name = removed.pop(0)
        lines.append(
            f"{_seat(o, seat)} lose{'' if o == seat else 's'} the {_item_name(c, name)}: removed from the game"
        )
    elif kind == ITEM_K and "herb" in oa["removed"]["items"] and "herb" not in ob["removed"]["items"]:
        lines.append(f"{_seat(o, seat)} held no item: nothing is removed")
    for name in removed:
        lines.append(f"the {_item_name(c, name)} is removed from the game")
    if used == "orb":
        draw_to = oa["players"][s]["draw_to"]
        lines.append(f"{_seat(s, seat)} will draw up to {draw_to} cards this turn")
    if used == "stone":
        lines.append(f"{_seat(s, seat)} take{'' if s == seat else 's'} a second main-phase action this turn")
    if used == "eye":
        if "seen_opponent_hand" in oa and s == seat:
            lines.append(f"you see seat {1 - s}'s hand: {_list(oa['seen_opponent_hand'])}")
        elif seat is not None and seat != s:
            lines.append(f"seat {s} sees your hand")
    top_before, top_after = ob["players"][s].get("deck_top", []), oa["players"][s].get("deck_top", [])
    if s == seat and kind == ITEM_K and top_after and top_after != top_before:
        lines.append(f"you look at the top of your deck (top first): {_list(top_after)}")
    if kind == ORDER_K and s == seat:
        lines.append(f"your deck's top is now (top first): {_list(top_after)}")
    return lines


def _item_name(c: CardSet, item: str) -> str:
    return f"{c.items[ITEM_IDS.index(item)].name} ({item})"


def _battle_outcome_lines(c: CardSet, before: LyabiState, ob: dict[str, Any], oa: dict[str, Any]) -> list[str]:
    """The battle's public facts that this action added (``last_battle`` of the observations)."""
    new = oa["last_battle"]
    if new is None:
        return []
    old = ob["last_battle"] or {}
    if old.get("turn") != new.get("turn"):
        old = {}
    lines = []
    sets = new["sets"]
    if "sets" not in old:
        shown = " · ".join(f"seat {t}: {_set_text(x)}" for t, x in enumerate(sets))
        lines.append(f"the battle sets are revealed: {shown}")
    for t in (0, 1):
        key = f"brush_seat{t}"
        if key in new and key not in old:
            lines.append(f"seat {t}'s Goddess's Brush makes its battle ryabi {new[key]}")
    if "winner" in new and "winner" not in old:
        lines += _winner_lines(c, before, new)
    if "mirrored" in new and "mirrored" not in old:
        w = new["winner"]
        lines.append(f"the Mirror of Desire prevents the damage; seat {w} takes {new['mirrored']} instead")
    if "sword" in new and "sword" not in old:
        w = new["winner"]
        lines.append(f"the War God's Sword deals {new['sword']} more damage to seat {1 - w}")
    return lines


def _colour_of(c: CardSet, codec_kind: dict[str, int], lb: dict[str, Any], t: int) -> int:
    """The battle attribute of seat ``t`` in a logged battle (-1: the dummy or nothing)."""
    brushed = lb.get(f"brush_seat{t}")
    if brushed is not None:
        return COLOURS.index(brushed)
    x = lb["sets"][t]
    if not x or x == "dummy":
        return -1
    return c.r_colour[codec_kind[x[0]]]


def _winner_lines(c: CardSet, before: LyabiState, lb: dict[str, Any]) -> list[str]:
    kind_of = before.game.codec.kind_of
    cols = [_colour_of(c, kind_of, lb, t) for t in (0, 1)]
    w = lb["winner"]
    if w is None:
        if cols[0] >= 0 and cols[0] == cols[1]:
            return [f"both battle ryabi are {COLOURS[cols[0]]}: no winner, no damage"]
        return ["no ryabi was set: no winner, no damage"]
    loser = 1 - w
    if cols[loser] >= 0:
        why = f"{COLOURS[cols[w]]} beats {COLOURS[cols[loser]]}"
    else:
        why = f"{COLOURS[cols[w]]} ryabi against {'the dummy' if lb['sets'][loser] == 'dummy' else 'nothing'}"
    head = f"{why}: seat {w} wins the battle"
    names = lb["sets"][w]
    first, second = kind_of[names[0]], (kind_of[names[1]] if len(names) > 1 else None)
    field = before.field[w]  # public: circles are face up, and a battle never changes a field
    parts = []
    for circle in field:
        if c.c_colour[circle] == cols[w]:
            times = f"{float(c.r_times[first]):g}" + (f" × {float(c.r_times[second]):g}" if second is not None else "")
            parts.append(
                f"{c.c_names[circle]} circle ATK {c.c_atk[circle]} × {times} → {c.damage(circle, first, second)}"
            )
    damage = (
        lb["damage"]
        if "mirrored" not in lb
        else sum(c.damage(circle, first, second) for circle in field if c.c_colour[circle] == cols[w])
    )
    if not parts:
        return [f"{head}, but it has no {COLOURS[cols[w]]} circle: no damage"]
    return [f"{head}: {damage} damage to seat {loser} ({'; '.join(parts)})"]


def _turn_lines(
    c: CardSet,
    a: LyabiAction,
    ob: dict[str, Any],
    oa: dict[str, Any],
    s: int,
    seat: int | None,
    gained: list[str],
) -> list[str]:
    """The end phase's discards, the next turn and its draws (with reshuffles), when this action led there."""
    lines: list[str] = []
    new_turn = oa["turn"] > ob["turn"]
    limit = oa["result"] is not None and oa["end_reason"].startswith("the turn limit")
    drew = oa["phase"] != "draw" and oa["result"] is None and (new_turn or ob["phase"] == "draw")
    reshuffled = [drew and oa["players"][t]["hand_size"] > ob["players"][t]["deck_size"] for t in (0, 1)]
    if new_turn or limit:
        for t in (0, 1):
            p0, p1 = ob["players"][t], oa["players"][t]
            paid = list(a.pay) if t == s else []
            end = f"end of turn {ob['turn']}: {_seat(t, seat)} discard{'' if t == seat else 's'}"
            if t == seat:
                kept = _added(paid, p0["hand"])
                if t == s and a[0] == SET_K and a[1] != "dummy":
                    kept = _added(list(a[1:]), kept)  # the set left the hand (removed from the game after battle)
                lines.append(f"{end} your hand ({_list(sorted(kept))})")
            elif reshuffled[t]:
                lines.append(f"{end} its hand")
            else:
                tossed = _added([*p0["discard"], *paid, *(gained if t == s else [])], p1["discard"])
                lines.append(f"{end} its hand ({_list(sorted(tossed))})")
    if new_turn:
        lines.append(f"turn {oa['turn']} begins")
    if drew:
        for t in (0, 1):
            p1 = oa["players"][t]
            if reshuffled[t]:
                lines.append(f"{_seat(t, seat)}: the deck ran out; the discard pile is shuffled into a new deck")
            if t == seat:
                lines.append(f"you draw: your hand is {_list(p1['hand'])}")
            else:
                known = f" (known to all: {' '.join(p1['hand_known'])})" if p1["hand_known"] else ""
                lines.append(f"seat {t} draws: {p1['hand_size']} cards in hand{known}")
    return lines


def _result_text(result: list[float], seat: int | None) -> str:
    if result[0] == result[1]:
        return "a draw"
    w = 0 if result[0] > result[1] else 1
    return "you win" if w == seat else f"seat {w} wins"
